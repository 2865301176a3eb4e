"""Hand-built decks and scripted dealings for the classic engine's tests.

A deck is a list of cards, top first. :func:`plain_deck` builds the order that the
one-at-a-time deal of §2.5 turns into the hands a test wants; :func:`ends_deck` puts
chosen cards on the top and at the bottom (for pants and mirror); the cards a test
does not name fill the rest in index order.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from core.cards import Card, Suit
from core.classic.actions import ClassicAction, ClassicActionKind
from core.classic.cards import CARDS
from core.classic.dealing import Dealing
from core.classic.game import ClassicGame
from core.classic.options import ClassicOptions, Praise
from core.classic.record import restore, snapshot

Cards = str | Iterable[Card]
NO_TRUMPS = {"trump_roulette": False}


def cards(codes: Cards) -> tuple[Card, ...]:
    """``"AH KH 7C"`` → the cards; card sequences pass through."""
    if isinstance(codes, str):
        return tuple(Card.parse(code) for code in codes.split())
    return tuple(codes)


def card(code: str) -> Card:
    return Card.parse(code)


def codes(items: Iterable[Card]) -> list[str]:
    return [c.code for c in items]


def act(text: str) -> ClassicAction:
    """``"0:play AS"``, ``"1:praise pants"``, ``"2:cut 5"``, ``"1:name_trump D"`` (``-``:
    no trump suit), ``"2:accept_trump 8D"``, ``"0:offer_trump"`` → the action."""
    head, _, rest = text.partition(" ")
    seat_text, _, kind_text = head.partition(":")
    seat, kind = int(seat_text), ClassicActionKind(kind_text)
    if kind in (ClassicActionKind.PLAY, ClassicActionKind.LAY, ClassicActionKind.ACCEPT_TRUMP):
        return ClassicAction(seat, kind, card=card(rest))
    if kind is ClassicActionKind.CUT:
        return ClassicAction.cut(seat, int(rest))
    if kind is ClassicActionKind.NAME_TRUMP:
        suit = None if rest == "-" else {s.letter: s for s in Suit}[rest]
        return ClassicAction.name_trump(seat, suit)
    if kind is ClassicActionKind.PRAISE:
        return ClassicAction.praise_with(seat, Praise(rest) if rest else None)
    return ClassicAction(seat, kind)


def opts(**values: Any) -> ClassicOptions:
    return ClassicOptions.from_json(values)


def _spare(used: Iterable[Card]) -> list[Card]:
    taken = set(used)
    return [c for c in CARDS if c not in taken]


def plain_deck(hands: Mapping[int, Cards], dealer: int = 3) -> list[Card]:
    """The deck that deals ``hands`` (seat → up to 8 cards; the rest filled with unused
    cards in index order) one at a time clockwise from the seat after ``dealer``."""
    wanted = {seat: list(cards(hand)) for seat, hand in hands.items()}
    used = [c for hand in wanted.values() for c in hand]
    if len(set(used)) != len(used) or any(len(h) > 8 for h in wanted.values()):
        raise ValueError("a card is used twice, or a hand has more than 8")
    spare = _spare(used)
    for seat in range(4):
        hand = wanted.setdefault(seat, [])
        while len(hand) < 8:
            hand.append(spare.pop(0))
    return [wanted[(dealer + 1 + i) % 4][i // 4] for i in range(32)]


def round_deck(hands: Mapping[int, Cards], first: int) -> list[Card]:
    """The deck whose card ``i`` goes to seat ``first + i``: also what a simple praise
    with one face-up card deals when ``first`` is the declarer."""
    return plain_deck(hands, dealer=(first - 1) % 4)


def ends_deck(top: Cards, bottom: Cards = ()) -> list[Card]:
    """A deck with ``top`` on the top (first card first) and ``bottom`` at the bottom
    (the last card of ``bottom`` is the deck's last card)."""
    head, tail = list(cards(top)), list(cards(bottom))
    middle = _spare(head + tail)
    deck = head + middle + tail
    if len(deck) != 32 or len(set(deck)) != 32:
        raise ValueError("a card is used twice")
    return deck


def later(
    options: ClassicOptions, deck: list[Card], dealer: int = 3, egg_pairs: int = 0
) -> Dealing:
    """A dealing of a later deal (it has a praise decision)."""
    return Dealing.from_deck(options, dealer, deck, number=1, egg_pairs=egg_pairs)


def dealt(options: ClassicOptions, hands: Mapping[int, Cards], dealer: int = 3) -> Dealing:
    """A later deal's dealing after "deal": ``hands`` dealt, the player after the
    dealer to lead."""
    dealing = later(options, plain_deck(hands, dealer), dealer)
    dealing.apply(ClassicAction.deal((dealer + 1) % 4))
    return dealing


def play(dealing: Dealing | ClassicGame, *texts: str) -> list[Any]:
    events: list[Any] = []
    for text in texts:
        events.extend(dealing.apply(act(text)))
    return events


def random_finish(game: ClassicGame, rng: random.Random) -> None:
    """Play the current dealing to its end, uniformly at random among legal actions."""
    dealing = game.current
    assert dealing is not None
    while not dealing.is_over:
        game.apply(rng.choice(game.legal_actions()))


def find_dealing(
    game: ClassicGame, wanted: Callable[[Dealing], bool], seed: int = 0, tries: int = 20_000
) -> ClassicGame:
    """The game with one more dealing dealt and played at random until ``wanted`` holds
    for it (a seeded search: the same game every run)."""
    rng = random.Random(seed)
    text = snapshot(game)
    for _ in range(tries):
        trial = restore(text)
        trial.deal(rng)
        random_finish(trial, rng)
        assert trial.current is not None
        if wanted(trial.current):
            return trial
    raise AssertionError("no such dealing found")


LOW_HAND = "7S 8S 9S 7H 8H 9H 7D 8D"  # 0 points: may ask for a redeal


def _auto_to_end(game: ClassicGame) -> list[Any]:
    """Each seat to play plays its first legal card (plays are listed first)."""
    dealing = game.current
    assert dealing is not None
    events: list[Any] = []
    while not dealing.is_over:
        turn = dealing.turn
        assert turn is not None
        events.extend(game.apply(dealing.legal_actions(turn)[0]))
    return events


def lucy(game: ClassicGame, team: int, events: list[Any] | None = None) -> Dealing:
    """Deal and play the next dealing so that ``team`` (0: A, 1: B) takes every trick:
    one of its players holds eight permanent trumps and plays them strongest first.
    The events of the play go to ``events`` if given."""
    dealer = game.next_dealer
    first = (dealer + 1) % 4
    number, attempt = game._next_numbers()
    if number == 0 or attempt > 0:  # no praise decision: the J♣ holder... or dealer+1 leads
        if number == 0:
            holder = team
            game.deal_from(plain_deck({holder: "7C QC QS QH QD JC JS JH"}, dealer), dealer)
        else:
            holder = first if first % 2 == team else (first + 1) % 4
            rest = {holder: "7C QC QS QH QD JS JH JD", (holder + 3) % 4: "JC"}
            game.deal_from(plain_deck(rest, dealer), dealer)
    elif first % 2 == team:
        game.deal_from(ends_deck("7C QC QS QH QD JC JS JH"), dealer)
        game.apply(ClassicAction.praise_with(first, Praise.SIMPLE))
    else:
        hands = {(first + 1) % 4: "7C QC QS QH QD JS JH JD", first: "JC"}
        game.deal_from(plain_deck(hands, dealer), dealer)
        game.apply(ClassicAction.deal(first))
    played = _auto_to_end(game)
    if events is not None:
        events.extend(played)
    dealing = game.current
    assert dealing is not None and dealing.result is not None and dealing.result.lucy
    return dealing


def redeal_three_times(game: ClassicGame) -> Dealing:
    """Three dealings of the next deal, each ended by a redeal request."""
    for _ in range(3):
        dealer = game.next_dealer
        asker = (dealer + 2) % 4
        game.deal_from(plain_deck({asker: LOW_HAND}, dealer), dealer)
        dealing = game.current
        assert dealing is not None
        if dealing.phase.value == "praise":
            game.apply(ClassicAction.deal((dealer + 1) % 4))
        game.apply(ClassicAction.redeal(asker))
    assert dealing.result is not None and dealing.result.redeal
    return dealing


def eggs(game: ClassicGame, seed: int = 0) -> ClassicGame:
    """The game after one more deal that ends 60–60 (found by a seeded search)."""
    return find_dealing(game, lambda d: d.result is not None and d.result.eggs, seed)
