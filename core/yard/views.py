"""Views: what one seat, or a spectator, may see of a deal.

Hidden cards leave the core only through their owner's :class:`SeatView`: the
table shows face-down discards as a count, never their faces.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.cards import Card, Suit
from core.yard.actions import Action, ActionKind
from core.yard.events import DealResult, SeriesResult


@dataclass(frozen=True, slots=True)
class PlayedSet:
    """One player's cards on the table in the current trick (no faces if discarded)."""

    seat: int
    kind: ActionKind
    cards: tuple[Card, ...]
    count: int

    @property
    def face_down(self) -> bool:
        return self.kind is ActionKind.DISCARD


@dataclass(frozen=True, slots=True)
class TableView:
    """The public table: what a spectator sees."""

    number: int
    dealer: int
    trump: Suit
    trump_card: Card
    trump_card_holder: int | None
    stock_size: int
    hand_sizes: tuple[int, ...]
    trick_number: int
    leader: int
    turn: int | None
    lead_size: int
    plays: tuple[PlayedSet, ...]
    winning_seat: int | None
    tricks: tuple[int, int]
    last_trick_winner: int | None
    result: DealResult | None


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat sees: the table, its own hand and its own legal actions."""

    seat: int
    table: TableView
    hand: tuple[Card, ...]
    legal: tuple[Action, ...]
    molodka: bool  # this seat may declare a molodka now


@dataclass(frozen=True, slots=True)
class SeriesView:
    """What everyone sees of a whole series: the loss points, each deal's result by
    its number (None while it is played) and the series' result once it is over.

    >>> view = SeriesView((0, 2), (None,), None)
    >>> view.deals, view.deal_result(0), view.deal_result(1)
    (1, None, None)
    """

    loss_points: tuple[int, int]
    results: tuple[DealResult | None, ...]
    result: SeriesResult | None

    @property
    def deals(self) -> int:
        """How many deals have been dealt (0: the table waits for the first)."""
        return len(self.results)

    def deal_result(self, number: int) -> DealResult | None:
        """The result of deal ``number`` (from 0); None if it is not over or not dealt."""
        return self.results[number] if 0 <= number < len(self.results) else None
