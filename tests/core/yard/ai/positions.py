"""Positions for the computer player tests: hand-built deals, and worlds sampled
along random deals."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from core.cards import CARDS, Card
from core.yard.actions import Action
from core.yard.ai import Observer, Player, make_player
from core.yard.ai.memory import DealMemory
from core.yard.ai.search import SearchPlayer, SearchSettings
from core.yard.ai.worlds import Sampler, World
from core.yard.deal import Deal
from core.yard.events import DealStarted


def cards(codes: str) -> tuple[Card, ...]:
    """``"AS TH 6C"`` -> the cards."""
    return tuple(Card.parse(code) for code in codes.split())


def deal_from_hands(
    hands: Sequence[str],
    trump: str,
    *,
    dealer: int = 3,
    trump_index: int = 10,
    stock: str = "",
) -> Deal:
    """A deal in which seat ``s`` holds ``hands[s]`` (four codes each), the trump card
    ``trump`` is shown at ``trump_index`` of the stock, and the stock starts with
    ``stock`` and goes on with the other cards in index order."""
    held = [cards(hand) for hand in hands]
    assert all(len(hand) == 4 for hand in held)
    trump_card = Card.parse(trump)
    top = list(cards(stock))
    used = {card for hand in held for card in hand} | set(top) | {trump_card}
    assert len(used) == 16 + len(top) + 1, "a card was given twice"
    rest = [card for card in CARDS if card not in used]
    pile = top + rest
    pile.insert(trump_index, trump_card)
    dealt = [held[(dealer + 1 + i) % 4][i // 4] for i in range(16)]
    return Deal.from_deck(dealer, dealt + pile, trump_index)


def play(deal: Deal, *actions: tuple[int, str, str]) -> Deal:
    """Apply ``(seat, kind, codes)`` actions, kind one of lead/beat/discard."""
    makers = {"lead": Action.lead, "beat": Action.beat, "discard": Action.discard}
    for seat, kind, codes in actions:
        deal.apply(makers[kind](seat, *cards(codes)))
    return deal


def sampled_worlds(seed: int, deals: int) -> Iterator[World]:
    """Worlds sampled from the seat to play's view at every turn of random deals of
    random play (molodkas included), whole stock to empty hands."""
    rng = random.Random(seed)
    for _ in range(deals):
        deal = Deal.shuffled(rng.randrange(4), rng)
        memories = [DealMemory(seat) for seat in range(4)]
        start = DealStarted(0, deal.dealer, deal.first_leader, deal.trump_card, deal.stock_size)
        for memory in memories:
            memory.observe(start)
        while not deal.is_over:
            seat = deal.turn if deal.turn is not None else deal.molodka_seat
            assert seat is not None
            yield Sampler(deal.view(seat), memories[seat]).sample(rng)
            action = rng.choice(deal.legal_actions())
            memories[action.seat].own(action.kind, action.cards)
            for event in deal.apply(action):
                for memory in memories:
                    memory.observe(event)


def search_choices(settings: SearchSettings, deals: int, seed: int) -> list[Action]:
    """Every action of ``deals`` deals of search players (``settings``) with normal
    partners' opponents, seat by seat, each from its own seeds (an undeclared
    molodka's pass drawn at random): the same list whenever the search chooses the
    same."""
    rng = random.Random(seed)
    shuffles = random.Random(seed + 1)
    choices: list[Action] = []
    for number in range(deals):
        deal = Deal.shuffled(number % 4, shuffles)
        players: list[Player] = [SearchPlayer(settings), make_player("normal")] * 2
        start = DealStarted(0, deal.dealer, deal.first_leader, deal.trump_card, deal.stock_size)
        for player in players:
            if isinstance(player, Observer):
                player.observe(start)
        seeds = random.Random(number)
        while not deal.is_over:
            seat = deal.turn if deal.turn is not None else deal.molodka_seat
            assert seat is not None
            chosen = players[seat].choose(deal.view(seat), random.Random(seeds.random()))
            if chosen is None:
                chosen = rng.choice(deal.legal_actions())
            choices.append(chosen)
            for event in deal.apply(chosen):
                for player in players:
                    if isinstance(player, Observer):
                        player.observe(event)
    return choices
