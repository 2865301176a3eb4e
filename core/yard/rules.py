"""Yard rules of strength: which card beats which, and which set beats which.

Card x beats card y when both have the same suit and x is higher, or x is a trump
and y is not. A set X beats a set Y of the same size when the cards can be paired
one to one so that every card of X beats its partner in Y (suits may be mixed).

>>> from core.cards import Card, Suit
>>> c = Card.parse
>>> beats(c("6H"), c("AS"), trump=Suit.HEARTS), beats(c("AS"), c("TD"), trump=Suit.HEARTS)
(True, False)
>>> set_beats([c("AS"), c("7H")], [c("KS"), c("QS")], trump=Suit.HEARTS)
True
"""

from __future__ import annotations

from collections.abc import Iterable

from core.cards import DECK_SIZE, SUIT_BITS, SUIT_MASK, Card, Suit, mask_of


def _beaters(card: int, trump: int) -> int:
    """The mask of every card that beats ``card`` with the given trump suit."""
    suit, rank = divmod(card, SUIT_BITS)
    higher = (SUIT_MASK & ~((1 << (rank + 1)) - 1)) << (suit * SUIT_BITS)
    if suit != trump:
        higher |= SUIT_MASK << (trump * SUIT_BITS)
    return higher


#: BEATERS[trump][card]: the cards that beat ``card``.
BEATERS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_beaters(card, trump) for card in range(DECK_SIZE)) for trump in range(4)
)


def _matched_in_suit(xs: int, ys: int) -> int:
    """How many of the 9-bit ``ys`` can be beaten one to one by higher cards in ``xs``."""
    matched = 0
    pending = 0  # ys seen so far, waiting for a higher x
    for rank in range(SUIT_BITS):
        bit = 1 << rank
        if xs & bit and pending:
            pending -= 1
            matched += 1
        if ys & bit:
            pending += 1
    return matched


def set_beats_mask(xmask: int, ymask: int, trump: int) -> bool:
    """Whether the set ``xmask`` beats the set ``ymask`` (same size) one to one.

    A non-trump card of X can only beat a card of its own suit, so each plain suit is
    matched greedily first; whatever is left of Y must then be covered by X's trumps:
    Y's trumps by higher trumps, Y's plain leftovers by any trump.
    """
    if xmask.bit_count() != ymask.bit_count():
        return False
    leftover = 0
    trump_x = trump_y = 0
    for suit in range(4):
        xs = (xmask >> (suit * SUIT_BITS)) & SUIT_MASK
        ys = (ymask >> (suit * SUIT_BITS)) & SUIT_MASK
        if suit == trump:
            trump_x, trump_y = xs, ys
        elif ys:
            leftover += ys.bit_count() - _matched_in_suit(xs, ys)
    trump_matched = _matched_in_suit(trump_x, trump_y)
    if trump_matched < trump_y.bit_count():
        return False
    return trump_x.bit_count() - trump_matched >= leftover


def beats(x: Card, y: Card, trump: Suit) -> bool:
    """Whether card ``x`` beats card ``y``."""
    return bool(BEATERS[trump][y.index] >> x.index & 1)


def set_beats(xs: Iterable[Card], ys: Iterable[Card], trump: Suit) -> bool:
    """Whether the cards ``xs`` beat the cards ``ys`` one to one (sizes must match)."""
    xlist, ylist = list(xs), list(ys)
    if len(xlist) != len(ylist) or len(set(xlist)) != len(xlist):
        return False
    return set_beats_mask(mask_of(xlist), mask_of(ylist), int(trump))
