"""The 32-card deck of classic Kozel, card strength and the trump tables
(docs/rules/reference.md §2.2).

The public API speaks :class:`~core.cards.Card`; inside, a classic card is an int
``index = suit * 8 + rank - 1`` (7 is 0, the ace 7 within a suit, in the yard order
of :class:`~core.cards.Rank`) and a set of cards is a 32-bit mask.

Which cards are trumps, which card beats which and what a player must follow with
depend on the deal's trump suit (or none) and on the ``kocherga`` option: each of the
ten combinations has one precomputed :class:`Trumps` table.

>>> from core.cards import Card
>>> c = Card.parse
>>> table = trumps_for(Suit.HEARTS, kocherga=True)
>>> [table.is_trump(c(code)) for code in ("7C", "QD", "AH", "AS")]
[True, True, True, False]
>>> [card.code for card in strongest_first(table, [c("AH"), c("JC"), c("QD"), c("7C"), c("9H")])]
['7C', 'QD', 'JC', 'AH', '9H']
>>> points_of_cards([c("AS"), c("TS"), c("KS"), c("QS"), c("JS"), c("9S")])
30
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from core.cards import Card, Rank, Suit
from core.errors import KozelError, Reason

DECK_SIZE = 32
SUIT_SIZE = 8
FULL_MASK = (1 << DECK_SIZE) - 1
HAND_SIZE = 8

#: Classic cards by index: suit * 8 + (yard rank - 1); ranks 7 8 9 J Q K T A.
CARDS: tuple[Card, ...] = tuple(
    Card(Rank(i % SUIT_SIZE + 1), Suit(i // SUIT_SIZE)) for i in range(DECK_SIZE)
)
_INDEX: dict[Card, int] = {card: i for i, card in enumerate(CARDS)}
#: Card codes by index.
CODES: tuple[str, ...] = tuple(card.code for card in CARDS)

SEVEN, EIGHT, NINE, JACK, QUEEN, KING, TEN, ACE = range(8)
_POINTS_BY_RANK = (0, 0, 0, 2, 3, 4, 10, 11)
#: Card points by index (A 11, T 10, K 4, Q 3, J 2; 120 in the deck).
POINTS: tuple[int, ...] = tuple(_POINTS_BY_RANK[i % SUIT_SIZE] for i in range(DECK_SIZE))
#: Strength within a plain suit (and of trump-suit cards): A, T, K, 9, 8, 7.
_PLAIN_ORDER = {ACE: 6, TEN: 5, KING: 4, NINE: 3, EIGHT: 2, SEVEN: 1}

KOCHERGA = 0 * SUIT_SIZE + SEVEN  # 7♣
QUEEN_OF_CLUBS = 0 * SUIT_SIZE + QUEEN
JACK_OF_CLUBS = 0 * SUIT_SIZE + JACK
NINES = sum(1 << (suit * SUIT_SIZE + NINE) for suit in range(4))
QUEENS = sum(1 << (suit * SUIT_SIZE + QUEEN) for suit in range(4))
JACKS = sum(1 << (suit * SUIT_SIZE + JACK) for suit in range(4))
ACES = sum(1 << (suit * SUIT_SIZE + ACE) for suit in range(4))
SUIT_MASKS: tuple[int, ...] = tuple(((1 << SUIT_SIZE) - 1) << (s * SUIT_SIZE) for s in range(4))


def index_of(card: Card) -> int:
    """The classic index of a card; a six is not in the 32-card deck."""
    index = _INDEX.get(card)
    if index is None:
        raise KozelError(Reason.UNKNOWN_CARD, f"{card.code} is not in the 32-card deck")
    return index


def parse(code: str) -> Card:
    """A card of the 32-card deck from its two-letter code."""
    card = Card.parse(code)
    index_of(card)
    return card


def mask_of(cards: Iterable[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << index_of(card)
    return mask


def bits(mask: int) -> Iterator[int]:
    """Card indexes in a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a mask in index order (by suit, then 7 up to the ace)."""
    return tuple(CARDS[i] for i in bits(mask))


_BYTE_POINTS: tuple[int, ...] = tuple(
    sum(_POINTS_BY_RANK[r] for r in range(8) if part >> r & 1) for part in range(256)
)


def points_in(mask: int) -> int:
    """Card points in a mask."""
    return (
        _BYTE_POINTS[mask & 255]
        + _BYTE_POINTS[mask >> 8 & 255]
        + _BYTE_POINTS[mask >> 16 & 255]
        + _BYTE_POINTS[mask >> 24]
    )


def points_of_cards(cards: Iterable[Card]) -> int:
    return points_in(mask_of(cards))


@dataclass(frozen=True, slots=True)
class Trumps:
    """The trump table of one trump suit (or none) and ``kocherga`` value.

    Masks: ``permanent`` (queens, jacks and, with kocherga, 7♣), ``suit_cards`` (the
    trump-suit cards that are not permanent trumps), ``trumps`` (both), ``plain[s]``
    (the plain cards of suit ``s``), ``plain_aces``. ``rank[c]``: a card's strength,
    trumps above 100. ``beaten_by[c]``: the cards that beat ``c`` when ``c`` is
    winning a trick.
    """

    suit: int  # -1: no trump suit
    kocherga: bool
    permanent: int
    suit_cards: int
    trumps: int
    plain: tuple[int, ...]
    plain_aces: int
    rank: tuple[int, ...]
    beaten_by: tuple[int, ...]

    def is_trump(self, card: Card) -> bool:
        return bool(self.trumps >> index_of(card) & 1)

    def strength(self, card: Card) -> int:
        return self.rank[index_of(card)]


def _build(suit: int, kocherga: bool) -> Trumps:
    permanent = QUEENS | JACKS | ((1 << KOCHERGA) if kocherga else 0)
    suit_cards = (SUIT_MASKS[suit] & ~permanent) if suit >= 0 else 0
    trumps = permanent | suit_cards
    plain = tuple(SUIT_MASKS[s] & ~trumps for s in range(4))
    rank = []
    for card in range(DECK_SIZE):
        s, r = divmod(card, SUIT_SIZE)
        if kocherga and card == KOCHERGA:
            rank.append(200)
        elif r == QUEEN:
            rank.append(190 - s)
        elif r == JACK:
            rank.append(180 - s)
        elif s == suit:
            rank.append(100 + _PLAIN_ORDER[r])
        else:
            rank.append(_PLAIN_ORDER[r])
    beaten_by = []
    for card in range(DECK_SIZE):
        mask = 0
        for other in range(DECK_SIZE):
            if other == card:
                continue
            if trumps >> other & 1:
                stronger = not trumps >> card & 1 or rank[other] > rank[card]
            else:
                stronger = (
                    not trumps >> card & 1
                    and other // SUIT_SIZE == card // SUIT_SIZE
                    and rank[other] > rank[card]
                )
            if stronger:
                mask |= 1 << other
        beaten_by.append(mask)
    return Trumps(
        suit=suit,
        kocherga=kocherga,
        permanent=permanent,
        suit_cards=suit_cards,
        trumps=trumps,
        plain=plain,
        plain_aces=ACES & ~trumps,
        rank=tuple(rank),
        beaten_by=tuple(beaten_by),
    )


#: TABLES[(suit + 1) * 2 + kocherga]
TABLES: tuple[Trumps, ...] = tuple(_build(s, bool(k)) for s in range(-1, 4) for k in (0, 1))


def table_for(suit: int, kocherga: bool) -> Trumps:
    """The table of an int trump suit (-1: none)."""
    return TABLES[(suit + 1) * 2 + kocherga]


def trumps_for(suit: Suit | None, kocherga: bool) -> Trumps:
    """The table of a trump suit (None: no trump suit)."""
    return table_for(-1 if suit is None else int(suit), kocherga)


def strongest_first(table: Trumps, cards: Iterable[Card]) -> list[Card]:
    """Cards sorted by strength, strongest first (plain suits by suit, then strength)."""
    return sorted(cards, key=lambda card: -table.strength(card))


def trick_winner(table: Trumps, cards: Iterable[int]) -> int:
    """The position (0..3) of the card that wins a trick of card indexes, in play order.

    >>> cards = [index_of(Card.parse(code)) for code in ("KH", "AH", "QD", "AS")]
    >>> trick_winner(trumps_for(None, True), cards)
    2
    """
    played = list(cards)
    best = 0
    for position in range(1, len(played)):
        if table.beaten_by[played[best]] >> played[position] & 1:
            best = position
    return best
