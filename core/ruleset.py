"""The contract every rule set keeps, and the registry that finds one by its id.

A rule set (the yard game in :mod:`core.yard`, later others) is a package of its
own: its cards' strength, state machine, actions, views, events and records. The
application holds a :class:`RuleSet` and the :class:`Game` it makes and never needs
to know which rules a table plays:

- a rule set has an id (the records' ``variant``), a name and a rules text (locale ids,
  no text) and its options, a frozen, validated model with defaults;
- it makes a new game, dealt from an RNG or from a given deck, restores one from a
  snapshot or a record, and replays a record into its report JSON;
- a game lists its legal actions (frozen dataclasses the rule set defines, each with
  a ``seat`` field: a play, a decision, an offer...), verifies, checks and applies an
  action (an illegal one raises :class:`~core.errors.KozelError` with a reason code
  and changes nothing), and gives a seat's view, the spectators' view, the view of
  the whole game (its score sheet and results), past-tense events, a snapshot and its
  record;
- what a table runs needs no rule either: the seat whose decision the game waits for
  (:attr:`Game.turn`, for the turn timer and the computer players), the optional
  actions other seats may take meanwhile (:meth:`Game.chances`), a safe action for
  a seat whose player is away (:meth:`Game.safe_action`), the ends of deals and of
  the game as neutral values (:class:`DealOutcome`, :class:`GameOutcome`, from the
  game's events by :meth:`Game.outcome`), an action as the action log's JSON, and
  computer players by level (:meth:`RuleSet.computer`, :data:`LEVEL_NAMES`).

The registry is a table of ids and where their rule set lives, imported on first
use, so no rule set is loaded before it is asked for; a new rule set adds its line
there, and ``kozel replay`` (:func:`core.record.replay`) then reads its records.

>>> yard = get_rule_set("yard")
>>> yard.id, yard.name, rule_set_ids()
('yard', 'rules-name-yard', ('yard', 'classic'))
>>> import random
>>> game = yard.new_game(random.Random(1))
>>> action = game.legal_actions(game.spectator_view().leader)[0]
>>> game.can(action), len(game.apply(action)) > 0
(True, True)
>>> yard.restore(game.snapshot()).snapshot() == game.snapshot()
True
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import import_module
from typing import Any, Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel, ConfigDict, ValidationError

from core.cards import Card
from core.errors import KozelError, Reason
from core.seats import Team

ActionT = TypeVar("ActionT")
SeatViewT = TypeVar("SeatViewT", covariant=True)
TableViewT = TypeVar("TableViewT", covariant=True)
EventT = TypeVar("EventT", covariant=True)
GameViewT = TypeVar("GameViewT", covariant=True)
OptionsT = TypeVar("OptionsT", bound="RuleOptions")


class RuleOptions(BaseModel):
    """A rule set's options: frozen, strictly typed (``1`` is not ``true``), no unknown
    keys, each with its default. A rule set subclasses it with its own fields."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    def to_json(self) -> dict[str, Any]:
        """The record's ``options`` object."""
        return self.model_dump(mode="json")


def parse_options(model: type[OptionsT], raw: Mapping[str, Any] | None) -> OptionsT:
    """Validate ``raw`` (a record's ``options`` or a lobby's choice) into ``model``;
    raise :class:`KozelError` with :attr:`Reason.BAD_OPTIONS` naming the first problem.

    >>> parse_options(RuleOptions, {}) == RuleOptions()
    True
    >>> parse_options(RuleOptions, {"colour": "red"})
    Traceback (most recent call last):
    ...
    core.errors.KozelError: options: colour: Extra inputs are not permitted
    """
    if raw is None:
        return model()
    if not isinstance(raw, Mapping):
        raise KozelError(Reason.BAD_OPTIONS, "options must be an object")
    try:
        text = json.dumps(dict(raw))
    except (TypeError, ValueError):
        raise KozelError(Reason.BAD_OPTIONS, "options must be JSON values") from None
    try:
        # Validated as JSON, the options' own form: strict, yet an enum field takes
        # its value's string.
        return model.model_validate_json(text)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        if not where:  # a check across options (a model validator's ValueError)
            message = str(first["msg"]).removeprefix("Value error, ")
            raise KozelError(Reason.BAD_OPTIONS, f"options: {message}") from None
        raise KozelError(Reason.BAD_OPTIONS, f"options: {where}: {first['msg']}") from None


#: The computer levels a table may choose, weakest first; every rule set offers them
#: (:meth:`RuleSet.computer`).
LEVEL_NAMES: tuple[str, ...] = ("easy", "normal", "strong")
#: The level of new tables' computer players: ``strong`` meets the time budget
#: (docs/ai.md).
DEFAULT_LEVEL = "strong"
#: What the losers of a game are called when a deal of it ended in eggs (60-60), in
#: every rule set: the titles of :attr:`GameOutcome.title` that count as "with eggs".
EGGS_TITLES = frozenset({"goats_with_eggs", "goats_with_eggs_and_tails"})


@dataclass(frozen=True, slots=True)
class DealOutcome:
    """The end of a deal, as statistics and the application need it, whatever the
    rules. ``score`` is what the deal wrote on the game's score sheet for each team
    (the yard game's loss points, classic's pairs); ``detail`` is the rule set's own
    result (for its presenter).

    >>> from core.seats import Team
    >>> won = DealOutcome(0, Team.A, (70, 50), (3, 2), (0, 2), False, None)
    >>> won.loser, DealOutcome(1, None, (60, 60), (2, 3), (0, 0), True, None).loser
    (<Team.B: 1>, None)
    """

    number: int  # the deal of the game, from 0
    winner: Team | None  # None: nobody won it (eggs)
    points: tuple[int, int]  # card points by team
    tricks: tuple[int, int]  # tricks by team
    score: tuple[int, int]  # what it scored for each team
    eggs: bool
    detail: Any = None

    @property
    def loser(self) -> Team | None:
        return None if self.winner is None else self.winner.other


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """The end of a whole game: the losing team and what they are called (``title``:
    ``goats``, ``goats_with_eggs``... the loser's locale id ends with it), the score
    sheet, how many deals were played and how many ended in eggs; ``detail`` is the
    rule set's own result.

    >>> from core.seats import Team
    >>> lost = GameOutcome(Team.A, "goats_with_eggs", (12, 6), 5, 1, None)
    >>> lost.winner, lost.with_eggs
    (<Team.B: 1>, True)
    """

    loser: Team
    title: str
    score: tuple[int, int]
    deals: int
    eggs: int
    detail: Any = None

    @property
    def winner(self) -> Team:
        return self.loser.other

    @property
    def with_eggs(self) -> bool:
        """The losers are goats "with eggs" (:data:`EGGS_TITLES`)."""
        return self.title in EGGS_TITLES


@dataclass(frozen=True, slots=True)
class Chance:
    """An optional action a seat may take now besides the turn: the yard game's
    molodka at the start of a trick, for one. ``actions`` are the seat's optional
    actions; ``moment`` tells one chance from the next, so that a computer-played
    seat is asked once per moment (and may let it pass)."""

    seat: int
    moment: tuple[int, ...]
    actions: tuple[Any, ...]


@runtime_checkable
class Computer(Protocol):
    """A computer player for one seat of one game (:meth:`RuleSet.computer`).

    A player that answers at once says so with a false ``searches`` attribute: the
    application asks it on its event loop. Any other (a search, with ``searches``
    true or without the attribute) is asked off the loop, in a worker process: it is
    pickled with the view and the copy that chose is kept for the next decision, so
    its choice must depend on nothing but the view, what it remembers and ``rng``."""

    def choose(self, view: Any, rng: random.Random) -> Any | None:
        """One of ``view.legal`` (the seat's :meth:`Game.seat_view`), or None to let
        an optional moment pass. A seat whose turn it is must answer an action."""
        ...


@runtime_checkable
class Observer(Protocol):
    """A computer player that remembers what it saw: it is fed every public event."""

    def observe(self, event: Any) -> None: ...


class SnapshotWriter(Protocol):
    """Writes :meth:`Game.snapshot` text, faster for games saved move by move
    (:meth:`RuleSet.snapshot_writer`)."""

    def snapshot(self, game: Any) -> str:
        """``game.snapshot()``, maybe from text kept since its last snapshot."""
        ...


class Snapshots:
    """Snapshots of games of any rule set, each written by its rule set's
    :meth:`RuleSet.snapshot_writer` (made on first use): one per storage, which
    saves its games over and over. Not for use from several threads at once.

    >>> import random
    >>> game, snapshots = get_rule_set("yard").new_game(random.Random(2)), Snapshots()
    >>> snapshots.snapshot(game) == game.snapshot()
    True
    """

    __slots__ = ("_writers",)

    def __init__(self) -> None:
        self._writers: dict[str, SnapshotWriter] = {}

    def snapshot(self, game: AnyGame) -> str:
        writer = self._writers.get(game.rule_set_id)
        if writer is None:
            writer = get_rule_set(game.rule_set_id).snapshot_writer()
            self._writers[game.rule_set_id] = writer
        return writer.snapshot(game)


class Game(Protocol[ActionT, SeatViewT, TableViewT, EventT, GameViewT]):
    """One table's game under one rule set: deals until the game is over."""

    @property
    def rule_set_id(self) -> str:
        """The id of the rule set it plays (the record's ``variant``)."""
        ...

    @property
    def options(self) -> RuleOptions: ...

    @property
    def is_over(self) -> bool:
        """The whole game is over: no deal and no action follows."""
        ...

    @property
    def needs_deal(self) -> bool:
        """No deal is being played and the game is not over: :meth:`deal` comes next."""
        ...

    def deal(self, rng: random.Random) -> Sequence[EventT]:
        """Shuffle with ``rng`` and start the next deal."""
        ...

    def deal_from(
        self, deck: Sequence[Card], *, trump_index: int | None = None
    ) -> Sequence[EventT]:
        """Start the next deal from a given deck order, top first. ``trump_index`` is
        where the trump card lies in the stock, for a rule set that turns one up."""
        ...

    def legal_actions(self, seat: int | None = None) -> Sequence[ActionT]:
        """Every action ``seat`` (or, with None, any seat) may take now."""
        ...

    def verify(self, action: ActionT) -> None:
        """Raise :class:`KozelError` with the reason if ``action`` is illegal now."""
        ...

    def can(self, action: ActionT) -> bool: ...

    def apply(self, action: ActionT) -> Sequence[EventT]:
        """Apply a legal action and return its events; an illegal one raises
        :class:`KozelError` and changes nothing."""
        ...

    def seat_view(self, seat: int) -> SeatViewT:
        """What ``seat`` sees: the public table, its own hand, its legal actions."""
        ...

    def spectator_view(self) -> TableViewT:
        """What everyone sees of the deal on the table (being played or the last one
        played); no hidden card."""
        ...

    def game_view(self) -> GameViewT:
        """What everyone sees of the whole game, beyond the deal on the table: its
        score sheet, each deal's result, the game's result. Before the first deal it
        lists no deal (and :meth:`seat_view` and :meth:`spectator_view` have nothing
        to show)."""
        ...

    def snapshot(self) -> str:
        """The game as text that :meth:`RuleSet.restore` turns back into it exactly."""
        ...

    @property
    def turn(self) -> int | None:
        """The seat whose decision the game waits for now (None: no deal is being
        played). Its timer runs; a computer playing it must act."""
        ...

    def chances(self) -> Sequence[Chance]:
        """The optional actions other seats (or the seat to act, besides its turn's)
        may take now."""
        ...

    def is_optional(self, action: ActionT) -> bool:
        """Whether ``action`` is one a seat may take or let pass (yard: a molodka), never
        the answer its turn waits for."""
        ...

    def safe_action(self, seat: int) -> ActionT:
        """A safe legal action for ``seat`` when it is its turn and its player is away
        (the timer ran out): never an optional one. Raise :class:`KozelError` when it
        is not the seat's turn."""
        ...

    def public_events(self) -> Sequence[EventT]:
        """The public events of the deal being played, from its start: what a computer
        player made in the middle of it (a restart, an away player) must learn."""
        ...

    def outcome(self, event: Any) -> DealOutcome | GameOutcome | None:
        """The neutral end a scored deal's or the finished game's event stands for;
        None for any other event."""
        ...

    def action_to_json(self, action: ActionT) -> dict[str, Any]:
        """An action as the records (and the action log) write it."""
        ...

    def record(self, seed: int | None = None) -> dict[str, Any]:
        """The game record (docs/rules/reference.md §3)."""
        ...

    def report(self) -> dict[str, Any]:
        """The replay's output JSON for the game so far."""
        ...


#: A game of any rule set, as the application holds it.
AnyGame = Game[Any, Any, Any, Any, Any]


class RuleSet(Protocol):
    """A rule set: how to make, restore and replay its games."""

    @property
    def id(self) -> str:
        """The records' ``variant``, e.g. ``"yard"``."""
        ...

    @property
    def name(self) -> str:
        """The locale id of its name."""
        ...

    @property
    def rules_text(self) -> str:
        """The locale id of its rules text (``/rules``)."""
        ...

    def options(self, raw: Mapping[str, Any] | None = None) -> RuleOptions:
        """Its options from ``raw`` (defaults for what is left out); raise
        :class:`KozelError` (:attr:`Reason.BAD_OPTIONS`) on a bad one."""
        ...

    def presets(self) -> Mapping[str, RuleOptions]:
        """Its named bundles of options a lobby offers in one tap, the default's first
        (none: no bundles)."""
        ...

    def new_game(
        self,
        rng: random.Random | None = None,
        options: RuleOptions | None = None,
        *,
        first_dealer: int = 3,
    ) -> AnyGame:
        """A new game; with ``rng`` its first deal is dealt, else it waits for
        :meth:`Game.deal` or :meth:`Game.deal_from`."""
        ...

    def restore(self, snapshot: str | bytes) -> AnyGame:
        """The game of a :meth:`Game.snapshot`, exactly as it was."""
        ...

    def from_record(self, record: Mapping[str, Any]) -> AnyGame:
        """The game a record's actions lead to, each checked; raise
        :class:`~core.record.RecordError` at the first problem."""
        ...

    def replay(self, record: Mapping[str, Any]) -> dict[str, Any]:
        """A record's report JSON, or the ``{"error": ...}`` JSON."""
        ...

    def computer(self, level: str, options: RuleOptions | None = None) -> Computer:
        """A new computer player of ``level`` (one of :data:`LEVEL_NAMES`; a rule set
        may know more, for tests and benchmarks) for one seat of one game; raise
        :class:`ValueError` for an unknown level."""
        ...

    def snapshot_writer(self) -> SnapshotWriter:
        """A writer of its games' snapshots for a storage that saves them over and over."""
        ...


#: Rule set ids and where each lives (``module:attribute``), in listing order.
_REGISTRY: dict[str, str] = {
    "yard": "core.yard.ruleset:YARD",
    "classic": "core.classic.ruleset:CLASSIC",
}


def rule_set_ids() -> tuple[str, ...]:
    """The ids of every rule set, in listing order."""
    return tuple(_REGISTRY)


def get_rule_set(rule_set_id: str) -> RuleSet:
    """The rule set with this id; raise :class:`KozelError`
    (:attr:`Reason.UNKNOWN_RULE_SET`) for an id no rule set has."""
    where = _REGISTRY.get(rule_set_id) if isinstance(rule_set_id, str) else None
    if where is None:
        raise KozelError(Reason.UNKNOWN_RULE_SET, f"unknown rule set {rule_set_id!r}")
    module, attribute = where.split(":")
    rule_set: RuleSet = getattr(import_module(module), attribute)
    return rule_set


def rule_sets() -> tuple[RuleSet, ...]:
    """Every rule set, in listing order."""
    return tuple(get_rule_set(rule_set_id) for rule_set_id in _REGISTRY)
