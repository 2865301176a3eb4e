"""Player actions (commands) of the yard rules."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum

from core.cards import Card


class ActionKind(StrEnum):
    """What a player does; the values are the record's action types."""

    LEAD = "lead"
    BEAT = "beat"
    DISCARD = "discard"
    MOLODKA = "molodka"

    @property
    def code(self) -> int:
        return _KIND_CODES[self]


class Kind(IntEnum):
    """The engine's integer form of :class:`ActionKind`."""

    LEAD = 0
    BEAT = 1
    DISCARD = 2
    MOLODKA = 3


_KIND_CODES = {
    ActionKind.LEAD: Kind.LEAD,
    ActionKind.BEAT: Kind.BEAT,
    ActionKind.DISCARD: Kind.DISCARD,
    ActionKind.MOLODKA: Kind.MOLODKA,
}
KIND_BY_CODE: tuple[ActionKind, ...] = (
    ActionKind.LEAD,
    ActionKind.BEAT,
    ActionKind.DISCARD,
    ActionKind.MOLODKA,
)


@dataclass(frozen=True, slots=True)
class Action:
    """One player's action: a lead, a beat or a discard of cards, or a molodka.

    A molodka names no cards: it is the declarer's four cards of one suit as they
    were when the trick began.
    """

    seat: int
    kind: ActionKind
    cards: tuple[Card, ...] = ()

    def __str__(self) -> str:
        cards = " ".join(card.code for card in self.cards)
        return f"{self.seat}:{self.kind.value}" + (f" {cards}" if cards else "")

    @staticmethod
    def lead(seat: int, *cards: Card) -> Action:
        return Action(seat, ActionKind.LEAD, tuple(cards))

    @staticmethod
    def beat(seat: int, *cards: Card) -> Action:
        return Action(seat, ActionKind.BEAT, tuple(cards))

    @staticmethod
    def discard(seat: int, *cards: Card) -> Action:
        return Action(seat, ActionKind.DISCARD, tuple(cards))

    @staticmethod
    def molodka(seat: int) -> Action:
        return Action(seat, ActionKind.MOLODKA)
