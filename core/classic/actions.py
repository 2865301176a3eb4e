"""Player actions (commands) of classic Kozel; the values are the record's types (§3.5).

The engine's form of an action is ``(seat, kind, arg)``: ``arg`` is a card index for
``lay``, ``accept_trump`` and ``play``; the cut's ``at``; the named suit + 1 (0: no
trump suit); the praise kind + 1 (0: the table's kind); 0 otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum

from core.cards import Card, Suit
from core.classic.options import Praise


class ClassicActionKind(StrEnum):
    DEAL = "deal"
    PRAISE = "praise"
    LAY = "lay"
    CUT = "cut"
    NAME_TRUMP = "name_trump"
    OFFER_TRUMP = "offer_trump"
    ACCEPT_TRUMP = "accept_trump"
    DECLINE_TRUMP = "decline_trump"
    REDEAL = "redeal"
    PLAY = "play"

    @property
    def code(self) -> int:
        return _CODES[self]


class Kind(IntEnum):
    """The engine's integer form of :class:`ClassicActionKind`."""

    DEAL = 0
    PRAISE = 1
    LAY = 2
    CUT = 3
    NAME_TRUMP = 4
    OFFER_TRUMP = 5
    ACCEPT_TRUMP = 6
    DECLINE_TRUMP = 7
    REDEAL = 8
    PLAY = 9


KIND_BY_CODE: tuple[ClassicActionKind, ...] = tuple(ClassicActionKind)
_CODES = {kind: Kind(i) for i, kind in enumerate(KIND_BY_CODE)}

#: The kinds that name a card.
CARD_KINDS = frozenset(
    {ClassicActionKind.LAY, ClassicActionKind.ACCEPT_TRUMP, ClassicActionKind.PLAY}
)


@dataclass(frozen=True, slots=True)
class ClassicAction:
    """One player's action. ``card`` for lay, accept_trump and play; ``at`` for cut;
    ``suit`` for name_trump (None: no trump suit); ``praise`` for praise (None: the
    table's kind, unless the table lets the declarer choose)."""

    seat: int
    kind: ClassicActionKind
    card: Card | None = None
    at: int | None = None
    suit: Suit | None = None
    praise: Praise | None = None

    def __str__(self) -> str:
        text = f"{self.seat}:{self.kind.value}"
        if self.card is not None:
            text += f" {self.card.code}"
        if self.at is not None:
            text += f" {self.at}"
        if self.kind is ClassicActionKind.NAME_TRUMP:
            text += " " + ("-" if self.suit is None else self.suit.letter)
        if self.praise is not None:
            text += f" {self.praise.value}"
        return text

    @staticmethod
    def deal(seat: int) -> ClassicAction:
        return ClassicAction(seat, ClassicActionKind.DEAL)

    @staticmethod
    def praise_with(seat: int, kind: Praise | None = None) -> ClassicAction:
        return ClassicAction(seat, ClassicActionKind.PRAISE, praise=kind)

    @staticmethod
    def lay(seat: int, card: Card) -> ClassicAction:
        return ClassicAction(seat, ClassicActionKind.LAY, card=card)

    @staticmethod
    def cut(seat: int, at: int) -> ClassicAction:
        return ClassicAction(seat, ClassicActionKind.CUT, at=at)

    @staticmethod
    def name_trump(seat: int, suit: Suit | None) -> ClassicAction:
        return ClassicAction(seat, ClassicActionKind.NAME_TRUMP, suit=suit)

    @staticmethod
    def offer_trump(seat: int) -> ClassicAction:
        return ClassicAction(seat, ClassicActionKind.OFFER_TRUMP)

    @staticmethod
    def accept_trump(seat: int, card: Card) -> ClassicAction:
        return ClassicAction(seat, ClassicActionKind.ACCEPT_TRUMP, card=card)

    @staticmethod
    def decline_trump(seat: int) -> ClassicAction:
        return ClassicAction(seat, ClassicActionKind.DECLINE_TRUMP)

    @staticmethod
    def redeal(seat: int) -> ClassicAction:
        return ClassicAction(seat, ClassicActionKind.REDEAL)

    @staticmethod
    def play(seat: int, card: Card) -> ClassicAction:
        return ClassicAction(seat, ClassicActionKind.PLAY, card=card)
