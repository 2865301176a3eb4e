"""Hand-built positions for the computer player tests."""

from __future__ import annotations

from collections.abc import Sequence

from core.cards import CARDS, Card
from core.yard.actions import Action
from core.yard.deal import Deal


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
