"""Drive deals and series with computer players.

Each player sees only its own seat's view. At the start of every trick the seat
that may declare a molodka is asked first (docs/rules/reference.md §1.4: bots holding a molodka
decide at the start of the trick); then the seat to play is asked, until the deal
is scored. Players that remember (:class:`~core.yard.ai.players.Observer`) are fed every
public event.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from core.errors import KozelError, Reason
from core.yard.actions import Action
from core.yard.ai.players import Observer, Player
from core.yard.deal import Deal
from core.yard.events import DealResult, DealStarted, Event
from core.yard.series import Series


def _tell(observers: Sequence[Observer], events: Sequence[Event]) -> None:
    for observer in observers:
        for event in events:
            observer.observe(event)


def play_deal(deal: Deal, players: Sequence[Player], rng: random.Random) -> DealResult:
    """Play ``deal`` to its end with ``players[seat]`` at each seat; return the result.

    Raises :class:`KozelError` if a player answers with an illegal action, or with
    None when it is to play.

    >>> from core.yard.ai.players import RandomPlayer
    >>> rng = random.Random(5)
    >>> result = play_deal(Deal.shuffled(3, rng), [RandomPlayer()] * 4, rng)
    >>> sum(result.points)
    120
    """
    if len(players) != 4:
        raise ValueError("a deal needs four players")
    observers = list({id(p): p for p in players if isinstance(p, Observer)}.values())
    if observers and not deal.actions:
        start = DealStarted(
            deal.number, deal.dealer, deal.first_leader, deal.trump_card, deal.stock_size
        )
        _tell(observers, [start])
    asked = -1  # the trick whose molodka seat has been asked
    while True:
        result = deal.result
        if result is not None:
            return result
        seat = deal.molodka_seat
        if seat is not None and asked != deal.trick_number:
            asked = deal.trick_number
            action = players[seat].choose(deal.view(seat), rng)
            if action is not None:
                _play(deal, seat, action, observers)
                continue
        turn = deal.turn
        assert turn is not None
        action = players[turn].choose(deal.view(turn), rng)
        if action is None:
            raise KozelError(Reason.NOT_YOUR_TURN, f"seat {turn} is to play but did nothing")
        _play(deal, turn, action, observers)


def _play(deal: Deal, seat: int, action: object, observers: Sequence[Observer]) -> None:
    if not isinstance(action, Action) or action.seat != seat:
        raise KozelError(Reason.BAD_SEAT, f"seat {seat} answered {action!r}")
    events = deal.apply(action)
    if observers:
        _tell(observers, events)


def public_events(deal: Deal) -> list[Event]:
    """The public events of ``deal`` so far, from its start (for a player that joins
    in the middle of a deal): it is replayed from its deck.

    >>> rng = random.Random(2)
    >>> deal = Deal.shuffled(3, rng)
    >>> events = deal.apply(deal.legal_actions(0)[0])
    >>> [type(e).__name__ for e in public_events(deal)]
    ['DealStarted', 'CardsLed']
    """
    replay = Deal(deal.dealer, [card.index for card in deal.deck], deal.trump_index, deal.number)
    events: list[Event] = [
        DealStarted(deal.number, deal.dealer, deal.first_leader, deal.trump_card, replay.stock_size)
    ]
    for action in deal.actions:
        events.extend(replay.apply(action))
    return events


def play_series(players: Sequence[Player], rng: random.Random, first_dealer: int = 3) -> Series:
    """Play a whole series (deals until a team has 12 loss points); return it."""
    series = Series(first_dealer)
    while not series.is_over:
        series.deal(rng)
        deal = series.current
        assert deal is not None
        play_deal(deal, players, rng)
    return series
