"""The yard game (docs/rules/reference.md §1) behind the rule-set contract of :mod:`core.ruleset`.

:class:`YardGame` adapts a :class:`~core.yard.series.Series` (the game is a series
of deals to 12 loss points); it adds no rule of its own. Its actions are
:class:`~core.yard.actions.Action`, its views :class:`~core.yard.views.SeatView` and
:class:`~core.yard.views.TableView`, its events those of :mod:`core.yard.events`.

>>> import random
>>> game = YARD.new_game(random.Random(3))
>>> view = game.seat_view(0)
>>> len(view.hand), view.table.stock_size, game.needs_deal
(4, 20, False)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from core.cards import Card
from core.errors import KozelError, Reason
from core.record import RecordError
from core.ruleset import (
    AnyGame,
    Chance,
    Computer,
    DealOutcome,
    GameOutcome,
    RuleOptions,
    RuleSet,
    parse_options,
)
from core.yard import ai, record
from core.yard.actions import Action, ActionKind
from core.yard.deal import Deal
from core.yard.events import DealResult, DealScored, Event, SeriesFinished, SeriesResult
from core.yard.series import Series
from core.yard.views import SeatView, SeriesView, TableView


class YardOptions(RuleOptions):
    """The yard game has no options yet; its records write ``"options": {}``."""


class YardGame:
    """A yard series through the contract's :class:`~core.ruleset.Game` API."""

    __slots__ = ("series",)

    rule_set_id = "yard"

    def __init__(self, series: Series) -> None:
        self.series = series

    @property
    def options(self) -> YardOptions:
        return YardOptions()

    @property
    def is_over(self) -> bool:
        return self.series.is_over

    @property
    def needs_deal(self) -> bool:
        current = self.series.current
        return not self.series.is_over and (current is None or current.is_over)

    def deal(self, rng: random.Random) -> list[Event]:
        return self.series.deal(rng)

    def deal_from(self, deck: Sequence[Card], *, trump_index: int | None = None) -> list[Event]:
        """Deal a given deck; the yard game needs ``trump_index`` (4 to 15)."""
        if trump_index is None:
            raise KozelError(Reason.BAD_DECK, "a yard deal needs the trump card's index")
        return self.series.deal_from(deck, trump_index)

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        return self.series.legal_actions(seat)

    def verify(self, action: Action) -> None:
        self.series.verify(action)

    def can(self, action: Action) -> bool:
        return self.series.can(action)

    def apply(self, action: Action) -> list[Event]:
        return self.series.apply(action)

    def seat_view(self, seat: int) -> SeatView:
        return self._current().view(seat)

    def spectator_view(self) -> TableView:
        return self._current().table_view()

    def game_view(self) -> SeriesView:
        series = self.series
        return SeriesView(
            series.loss_points, tuple(deal.result for deal in series.deals), series.result
        )

    def snapshot(self) -> str:
        return record.snapshot(self.series)

    def record(self, seed: int | None = None) -> dict[str, Any]:
        return record.series_to_record(self.series, seed)

    def report(self) -> dict[str, Any]:
        return record.report(self.series)

    @property
    def turn(self) -> int | None:
        deal = self.series.current
        return None if deal is None else deal.turn

    def chances(self) -> list[Chance]:
        """A molodka its holder may declare at the start of a trick (docs/rules/reference.md §1.4:
        computer players decide then), once per trick."""
        deal = self.series.current
        holder = None if deal is None else deal.molodka_seat
        if deal is None or holder is None or deal.table_view().plays:
            return []
        moment = (deal.number, deal.trick_number)
        return [Chance(holder, moment, (Action.molodka(holder),))]

    def is_optional(self, action: Action) -> bool:
        return action.kind is ActionKind.MOLODKA

    def safe_action(self, seat: int) -> Action:
        """The baseline's choice, never a molodka (:func:`core.yard.ai.safe_move`)."""
        return ai.safe_move(self._current().view(seat))

    def public_events(self) -> list[Event]:
        deal = self.series.current
        return [] if deal is None else ai.public_events(deal)

    def outcome(self, event: Event) -> DealOutcome | GameOutcome | None:
        if isinstance(event, DealScored):
            return deal_outcome(event.number, event.result)
        if isinstance(event, SeriesFinished):
            return game_outcome(event.result)
        return None

    def action_to_json(self, action: Action) -> dict[str, Any]:
        return record.action_to_json(action)

    def _current(self) -> Deal:
        deal = self.series.current
        if deal is None:
            raise KozelError(Reason.DEAL_NOT_OVER, "no deal has been dealt yet")
        return deal

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, YardGame):
            return NotImplemented
        return self.series == other.series

    __hash__ = None  # type: ignore[assignment]


def deal_outcome(number: int, result: DealResult) -> DealOutcome:
    """A yard deal's result as a :class:`~core.ruleset.DealOutcome` (its score: the
    loss points).

    >>> from core.seats import Team
    >>> outcome = deal_outcome(2, DealResult((80, 40), (3, 1), (0, 2), False, Team.A, 0))
    >>> outcome.number, outcome.winner, outcome.score, outcome.detail.next_leader
    (2, <Team.A: 0>, (0, 2), 0)
    """
    return DealOutcome(
        number, result.winner, result.points, result.tricks, result.loss_points, result.eggs, result
    )


def game_outcome(result: SeriesResult) -> GameOutcome:
    """A yard series' result as a :class:`~core.ruleset.GameOutcome` (its score: the
    loss points)."""
    return GameOutcome(
        result.loser, result.title.value, result.loss_points, result.deals, result.eggs, result
    )


class _Snapshots:
    """Snapshots through :class:`core.yard.record.SnapshotCache`."""

    __slots__ = ("_cache",)

    def __init__(self) -> None:
        self._cache = record.SnapshotCache()

    def snapshot(self, game: YardGame) -> str:
        return self._cache.snapshot(game.series)


class YardRuleSet:
    """The yard game: 36 cards, four in hand, refilled from the stock."""

    id = "yard"
    name = "rules-name-yard"
    rules_text = "rules-yard"

    def options(self, raw: Mapping[str, Any] | None = None) -> YardOptions:
        return parse_options(YardOptions, raw)

    def presets(self) -> Mapping[str, YardOptions]:
        return {}

    def new_game(
        self,
        rng: random.Random | None = None,
        options: RuleOptions | None = None,
        *,
        first_dealer: int = 3,
    ) -> YardGame:
        if options is not None and not isinstance(options, YardOptions):
            raise KozelError(Reason.BAD_OPTIONS, "these are not the yard game's options")
        game = YardGame(Series(first_dealer=first_dealer))
        if rng is not None:
            game.deal(rng)
        return game

    def restore(self, snapshot: str | bytes) -> YardGame:
        return YardGame(record.restore(snapshot))

    def from_record(self, data: Mapping[str, Any]) -> YardGame:
        """Its ``options`` are not read: the yard game has none, and its records were
        replayed whatever they held there."""
        return YardGame(record.series_from_record(data))

    def replay(self, data: Mapping[str, Any]) -> dict[str, Any]:
        try:
            return self.from_record(data).report()
        except RecordError as error:
            return error.to_json()

    def computer(self, level: str, options: RuleOptions | None = None) -> Computer:
        """:func:`core.yard.ai.make_player`: ``easy``, ``normal`` (also ``baseline``),
        ``strong``, or ``random``."""
        player: Computer = ai.make_player(level)
        return player

    def snapshot_writer(self) -> _Snapshots:
        return _Snapshots()


#: The yard rule set, as the registry of :mod:`core.ruleset` finds it.
YARD = YardRuleSet()

if TYPE_CHECKING:  # mypy checks here that the yard game keeps the contract
    _rule_set: RuleSet = YARD
    _game: AnyGame = YARD.new_game()
