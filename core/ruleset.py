"""The contract every rule set keeps, and the registry that finds one by its id.

A rule set (the yard game in :mod:`core.yard`, later others) is a package of its
own: its cards' strength, state machine, actions, views, events and records. The
application holds a :class:`RuleSet` and the :class:`Game` it makes and never needs
to know which rules a table plays:

- a rule set has an id (the records' ``variant``), a name and a rules text (locale ids,
  no text) and its options, a frozen, validated model with defaults;
- it makes a new game, dealt from an RNG or from a given deck, restores one from a
  snapshot or a record, and replays a record into its report JSON;
- a game lists its legal actions (frozen dataclasses the rule set defines: a play, a
  decision, an offer...), verifies, checks and applies an action (an illegal one
  raises :class:`~core.errors.KozelError` with a reason code and changes nothing),
  and gives a seat's view, the spectators' view, past-tense events, a snapshot and
  its record.

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
from importlib import import_module
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from core.cards import Card
from core.errors import KozelError, Reason

ActionT = TypeVar("ActionT")
SeatViewT = TypeVar("SeatViewT", covariant=True)
TableViewT = TypeVar("TableViewT", covariant=True)
EventT = TypeVar("EventT", covariant=True)
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
        raise KozelError(Reason.BAD_OPTIONS, f"options: {where}: {first['msg']}") from None


class Game(Protocol[ActionT, SeatViewT, TableViewT, EventT]):
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
        """What everyone sees; no hidden card."""
        ...

    def snapshot(self) -> str:
        """The game as text that :meth:`RuleSet.restore` turns back into it exactly."""
        ...

    def record(self, seed: int | None = None) -> dict[str, Any]:
        """The game record (RULES.md §3)."""
        ...

    def report(self) -> dict[str, Any]:
        """The replay's output JSON for the game so far."""
        ...


#: A game of any rule set, as the application holds it.
AnyGame = Game[Any, Any, Any, Any]


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
