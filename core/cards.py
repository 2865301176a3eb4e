"""Cards, suits and ranks, shared by every rule set, and their compact integer form.

The ranks cover both decks: the yard game's 36 cards (:data:`CARDS`) and the classic
game's 32 (:data:`SHORT_DECK`, the same without the sixes). A card is a small frozen
value at the API and a small int inside the engine: ``index = suit * 9 + rank``,
where ``rank`` is the card's order within its suit (6 lowest, the ten above the
king, the ace highest); a rule set's own strength (trumps, permanent trumps) is its
own. A set of cards is a bitmask with bit ``index`` set for each card.

>>> Card.parse("TH")
Card(rank=Rank.TEN, suit=Suit.HEARTS)
>>> str(Card(Rank.QUEEN, Suit.CLUBS)), Card.parse("AS").points
('QC', 11)
>>> [str(c) for c in cards_of(mask_of(Card.parse(code) for code in ("6D", "AH", "KH")))]
['KH', 'AH', '6D']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import IntEnum

from core.errors import KozelError, Reason


class Suit(IntEnum):
    """The four suits, in the order of the record notation ``C S H D``."""

    CLUBS = 0
    SPADES = 1
    HEARTS = 2
    DIAMONDS = 3

    @property
    def letter(self) -> str:
        return "CSHD"[self]

    @property
    def symbol(self) -> str:
        return "♣♠♥♦"[self]


class Rank(IntEnum):
    """Ranks by their order within a suit (the ten is above the king)."""

    SIX = 0
    SEVEN = 1
    EIGHT = 2
    NINE = 3
    JACK = 4
    QUEEN = 5
    KING = 6
    TEN = 7
    ACE = 8

    @property
    def letter(self) -> str:
        return "6789JQKTA"[self]

    @property
    def points(self) -> int:
        return _RANK_POINTS[self]


_RANK_POINTS = (0, 0, 0, 0, 2, 3, 4, 10, 11)

#: Cards in a deck, and bits in a suit's part of a mask.
DECK_SIZE = 36
SUIT_BITS = 9
SUIT_MASK = (1 << SUIT_BITS) - 1
FULL_MASK = (1 << DECK_SIZE) - 1

#: Card points by card index (A 11, T 10, K 4, Q 3, J 2, others 0; 120 in a deck).
POINTS: tuple[int, ...] = tuple(_RANK_POINTS[i % SUIT_BITS] for i in range(DECK_SIZE))


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """A playing card. Ordered by suit, then by rank."""

    rank: Rank
    suit: Suit

    @property
    def index(self) -> int:
        return self.suit * SUIT_BITS + self.rank

    @property
    def points(self) -> int:
        return _RANK_POINTS[self.rank]

    @property
    def code(self) -> str:
        """The two-letter record form, e.g. ``TH`` for the ten of hearts."""
        return self.rank.letter + self.suit.letter

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card(rank=Rank.{self.rank.name}, suit=Suit.{self.suit.name})"

    @staticmethod
    def from_index(index: int) -> Card:
        return CARDS[index]

    @staticmethod
    def parse(code: str) -> Card:
        """Parse the two-letter form (``6D``, ``TH``, ``AS``); raise on anything else."""
        card = _BY_CODE.get(code.strip().upper()) if isinstance(code, str) else None
        if card is None:
            raise KozelError(Reason.UNKNOWN_CARD, f"unknown card code {code!r}")
        return card


#: Every card of the 36-card deck, by index.
CARDS: tuple[Card, ...] = tuple(Card(Rank(i % SUIT_BITS), Suit(i // SUIT_BITS)) for i in range(36))
#: The 32 cards of the short deck (no sixes), by index.
SHORT_DECK: tuple[Card, ...] = tuple(card for card in CARDS if card.rank is not Rank.SIX)
_BY_CODE = {card.code: card for card in CARDS}
_BY_CODE.update({"10" + card.suit.letter: card for card in CARDS if card.rank is Rank.TEN})


def mask_of(cards: Iterable[Card]) -> int:
    """The bitmask of a set of cards."""
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return mask


def indexes_of(mask: int) -> Iterator[int]:
    """Card indexes in a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


_CARDS_CACHE: dict[int, tuple[Card, ...]] = {}


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a mask, ordered by suit then strength."""
    cards = _CARDS_CACHE.get(mask)
    if cards is None:
        cards = tuple(CARDS[i] for i in indexes_of(mask))
        if len(_CARDS_CACHE) < 1 << 17:
            _CARDS_CACHE[mask] = cards
    return cards


def points_of(mask: int) -> int:
    """Card points in a mask."""
    return sum(POINTS[i] for i in indexes_of(mask))


def suit_of(index: int) -> int:
    return index // SUIT_BITS


def full_deck() -> tuple[Card, ...]:
    """The 36 cards in index order (unshuffled)."""
    return CARDS
