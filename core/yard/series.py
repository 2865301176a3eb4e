"""A series (партия): deals chained until a team has 12 or more loss points.

The series keeps every deal; the first leader of a later deal is the winner of the
last trick of the deal before, and its dealer is the seat before that leader.
Randomness comes in from outside: :meth:`Series.deal` takes an ``rng``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from core.cards import Card
from core.errors import KozelError, Reason
from core.seats import Team
from core.yard.actions import Action
from core.yard.deal import Deal
from core.yard.errors import YardReason
from core.yard.events import (
    DealResult,
    DealScored,
    DealStarted,
    Event,
    SeriesFinished,
    SeriesResult,
    Title,
    TrickStarted,
)

#: Loss points that end a series.
LOSS_LIMIT = 12


class Series:
    """Deals of one series, their results and the running loss points."""

    __slots__ = ("_deals", "first_dealer")

    def __init__(self, first_dealer: int = 3) -> None:
        if not isinstance(first_dealer, int) or not 0 <= first_dealer < 4:
            raise KozelError(Reason.BAD_SEAT)
        self.first_dealer = first_dealer
        self._deals: list[Deal] = []

    # --- State -----------------------------------------------------------------

    @property
    def deals(self) -> tuple[Deal, ...]:
        return tuple(self._deals)

    @property
    def current(self) -> Deal | None:
        """The deal being played or the last one played; None before the first deal."""
        return self._deals[-1] if self._deals else None

    @property
    def results(self) -> tuple[DealResult, ...]:
        return tuple(d.result for d in self._deals if d.result is not None)

    @property
    def loss_points(self) -> tuple[int, int]:
        a = b = 0
        for result in self.results:
            a += result.loss_points[0]
            b += result.loss_points[1]
        return (a, b)

    @property
    def eggs(self) -> int:
        """How many deals of the series ended in eggs."""
        return sum(1 for result in self.results if result.eggs)

    @property
    def is_over(self) -> bool:
        return max(self.loss_points) >= LOSS_LIMIT

    @property
    def result(self) -> SeriesResult | None:
        loss = self.loss_points
        if max(loss) < LOSS_LIMIT:
            return None
        loser = Team.A if loss[0] >= LOSS_LIMIT else Team.B
        eggs = self.eggs
        return SeriesResult(
            loser=loser,
            title=Title.GOATS_WITH_EGGS if eggs else Title.GOATS,
            loss_points=loss,
            deals=len(self._deals),
            eggs=eggs,
        )

    @property
    def next_dealer(self) -> int:
        """The dealer of the next deal."""
        if not self._deals:
            return self.first_dealer
        result = self._deals[-1].result
        if result is None:
            raise KozelError(Reason.DEAL_NOT_OVER)
        return (result.next_leader - 1) % 4

    # --- Dealing -----------------------------------------------------------------

    def _check_can_deal(self) -> None:
        if self.is_over:
            raise KozelError(YardReason.SERIES_OVER)
        if self._deals and not self._deals[-1].is_over:
            raise KozelError(Reason.DEAL_NOT_OVER)

    def deal(self, rng: random.Random) -> list[Event]:
        """Shuffle with ``rng`` and start the next deal."""
        self._check_can_deal()
        return self._start(Deal.shuffled(self.next_dealer, rng, number=len(self._deals)))

    def deal_from(
        self, deck: Sequence[Card], trump_index: int, dealer: int | None = None
    ) -> list[Event]:
        """Start the next deal from a given deck order. ``dealer``, when given, must be
        the one the rules call for."""
        self._check_can_deal()
        expected = self.next_dealer
        if dealer is not None and dealer != expected and self._deals:
            raise KozelError(Reason.BAD_DEALER)
        chosen = expected if dealer is None else dealer
        if not self._deals:
            self.first_dealer = chosen
        return self._start(Deal.from_deck(chosen, deck, trump_index, number=len(self._deals)))

    def _start(self, deal: Deal) -> list[Event]:
        self._deals.append(deal)
        return [
            DealStarted(
                deal.number, deal.dealer, deal.first_leader, deal.trump_card, deal.stock_size
            ),
            TrickStarted(deal.first_leader, 0),
        ]

    # --- Play --------------------------------------------------------------------

    def _playing(self) -> Deal:
        deal = self.current
        if deal is None:
            raise KozelError(Reason.DEAL_NOT_OVER, "no deal has been dealt yet")
        if deal.is_over:
            raise KozelError(YardReason.SERIES_OVER if self.is_over else Reason.DEAL_OVER)
        return deal

    def verify(self, action: Action) -> None:
        self._playing().verify(action)

    def can(self, action: Action) -> bool:
        try:
            self.verify(action)
        except KozelError:
            return False
        return True

    def apply(self, action: Action) -> list[Event]:
        """Apply a legal action to the current deal; a scored deal that ends the
        series adds :class:`SeriesFinished`."""
        events = self._playing().apply(action)
        if events and isinstance(events[-1], DealScored):
            result = self.result
            if result is not None:
                events.append(SeriesFinished(result))
        return events

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        deal = self.current
        return [] if deal is None else deal.legal_actions(seat)

    def state_key(self) -> tuple[object, ...]:
        return (self.first_dealer, tuple(d.state_key() for d in self._deals))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Series):
            return NotImplemented
        return self.state_key() == other.state_key()

    __hash__ = None  # type: ignore[assignment]
