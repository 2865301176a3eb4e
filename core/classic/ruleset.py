"""Classic Kozel (docs/rules/reference.md §2) behind the rule-set contract of :mod:`core.ruleset`.

:class:`ClassicGameAdapter` adapts a :class:`~core.classic.game.ClassicGame`; it adds
no rule of its own. Its actions are :class:`~core.classic.actions.ClassicAction`,
its views :class:`~core.classic.views.ClassicSeatView` and
:class:`~core.classic.views.ClassicTableView`, its events those of
:mod:`core.classic.events`.

>>> import random
>>> game = CLASSIC.new_game(random.Random(3))
>>> view = game.seat_view(0)
>>> len(view.hand), view.table.phase.value, game.needs_deal
(8, 'play', False)
>>> CLASSIC.options({"praise": "mirror"}).praise.value
'mirror'
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from core.cards import Card
from core.classic import ai, record
from core.classic.actions import ClassicAction, ClassicActionKind
from core.classic.dealing import Dealing
from core.classic.events import (
    ClassicDealResult,
    ClassicEvent,
    ClassicGameResult,
    DealScored,
    GameFinished,
)
from core.classic.game import ClassicGame
from core.classic.options import DEFAULT_PRESET, PRESETS, ClassicOptions
from core.classic.views import ClassicGameView, ClassicSeatView, ClassicTableView
from core.errors import KozelError, Reason
from core.ruleset import (
    AnyGame,
    Chance,
    DealOutcome,
    GameOutcome,
    RuleOptions,
    RuleSet,
)

#: The actions a seat may take or let pass (docs/rules/reference.md §2: the last-trump offer, a
#: redeal).
OPTIONAL_KINDS = frozenset({ClassicActionKind.OFFER_TRUMP, ClassicActionKind.REDEAL})


class ClassicGameAdapter:
    """A classic game through the contract's :class:`~core.ruleset.Game` API."""

    __slots__ = ("game",)

    rule_set_id = "classic"

    def __init__(self, game: ClassicGame) -> None:
        self.game = game

    @property
    def options(self) -> ClassicOptions:
        return self.game.options

    @property
    def is_over(self) -> bool:
        return self.game.is_over

    @property
    def needs_deal(self) -> bool:
        current = self.game.current
        return not self.game.is_over and (current is None or current.is_over)

    def deal(self, rng: random.Random) -> list[ClassicEvent]:
        return self.game.deal(rng)

    def deal_from(
        self, deck: Sequence[Card], *, trump_index: int | None = None
    ) -> list[ClassicEvent]:
        """Deal a given deck (32 cards, top first); classic turns up no trump card."""
        if trump_index is not None:
            raise KozelError(Reason.BAD_DECK, "a classic deal turns up no trump card")
        return self.game.deal_from(deck)

    def legal_actions(self, seat: int | None = None) -> list[ClassicAction]:
        return self.game.legal_actions(seat)

    def verify(self, action: ClassicAction) -> None:
        self.game.verify(action)

    def can(self, action: ClassicAction) -> bool:
        return self.game.can(action)

    def apply(self, action: ClassicAction) -> list[ClassicEvent]:
        return self.game.apply(action)

    def seat_view(self, seat: int) -> ClassicSeatView:
        return self._current().view(seat)

    def spectator_view(self) -> ClassicTableView:
        return self._current().table_view()

    def game_view(self) -> ClassicGameView:
        game = self.game
        dealings = tuple((dealing.number, dealing.result) for dealing in game.dealings)
        return ClassicGameView(game.options, game.pairs, game.egg_pairs, dealings, game.result)

    def snapshot(self) -> str:
        return record.snapshot(self.game)

    def record(self, seed: int | None = None) -> dict[str, Any]:
        return record.game_to_record(self.game, seed)

    def report(self) -> dict[str, Any]:
        return record.report(self.game)

    @property
    def turn(self) -> int | None:
        dealing = self.game.current
        return None if dealing is None or dealing.is_over else dealing.turn

    def chances(self) -> list[Chance]:
        """The last-trump offers and redeal requests seats may make now."""
        dealing = self.game.current
        if dealing is None or dealing.is_over:
            return []
        view = dealing.table_view()
        moment = (view.number, view.attempt, view.trick_number, len(view.trick))
        chances = []
        for seat in range(4):
            optional = tuple(a for a in self.game.legal_actions(seat) if a.kind in OPTIONAL_KINDS)
            if optional:
                chances.append(Chance(seat, moment, optional))
        return chances

    def is_optional(self, action: ClassicAction) -> bool:
        return action.kind in OPTIONAL_KINDS

    def safe_action(self, seat: int) -> ClassicAction:
        """Deal without praise, decline an offer, else the computer player's choice
        among the obligatory actions (never an offer or a redeal)."""
        if self.turn != seat:
            raise KozelError(Reason.NOT_YOUR_TURN)
        legal = [a for a in self.game.legal_actions(seat) if a.kind not in OPTIONAL_KINDS]
        if not legal:
            raise KozelError(Reason.NOT_YOUR_TURN)
        for kind in (ClassicActionKind.DEAL, ClassicActionKind.DECLINE_TRUMP):
            plain = next((a for a in legal if a.kind is kind), None)
            if plain is not None:
                return plain
        choice = ai.ClassicComputer(random.Random(0)).choose(
            self._current().view(seat), self.game.options
        )
        return choice if choice in legal else legal[0]

    def public_events(self) -> list[ClassicEvent]:
        """None: the classic computer players read everything they need from their
        seat's view, and observe nothing."""
        return []

    def outcome(self, event: ClassicEvent) -> DealOutcome | GameOutcome | None:
        if isinstance(event, DealScored):
            return deal_outcome(event.number, event.result)
        if isinstance(event, GameFinished):
            return game_outcome(event.result)
        return None

    def action_to_json(self, action: ClassicAction) -> dict[str, Any]:
        return record.action_to_json(action)

    def _current(self) -> Dealing:
        dealing = self.game.current
        if dealing is None:
            raise KozelError(Reason.DEAL_NOT_OVER, "no deal has been dealt yet")
        return dealing

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ClassicGameAdapter):
            return NotImplemented
        return self.game == other.game

    __hash__ = None  # type: ignore[assignment]


def deal_outcome(number: int, result: ClassicDealResult) -> DealOutcome:
    """A classic deal's result as a :class:`~core.ruleset.DealOutcome` (its score: the
    pairs it wrote)."""
    return DealOutcome(
        number, result.winner, result.points, result.tricks, result.pairs, result.eggs, result
    )


def game_outcome(result: ClassicGameResult) -> GameOutcome:
    """A classic game's result as a :class:`~core.ruleset.GameOutcome` (its score: the
    pairs)."""
    return GameOutcome(
        result.loser, result.title.value, result.pairs, result.deals, result.eggs, result
    )


class ClassicComputerPlayer:
    """A classic computer player of one level (:func:`core.classic.ai.new_player`)
    behind the contract's :class:`~core.ruleset.Computer`: it knows the table's
    options. The player is made at its first choice, with a generator seeded from the
    ``rng`` it is given then, so that a seeded table plays the same again."""

    __slots__ = ("level", "options", "player")

    def __init__(self, level: str, options: ClassicOptions) -> None:
        self.level, self.options = level, options
        self.player: ai.ClassicPlayer | None = None

    @property
    def searches(self) -> bool:
        """The strong level searches (the application asks it off its event loop)."""
        return self.level == "strong"

    def choose(self, view: ClassicSeatView, rng: random.Random) -> ClassicAction | None:
        if self.player is None:
            self.player = ai.new_player(self.level, random.Random(rng.getrandbits(64)))
        return self.player.choose(view, self.options)


#: The contract's levels (and those for tests and benchmarks) by the name
#: :func:`core.classic.ai.new_player` knows them.
_LEVELS: dict[str, str] = {
    "easy": "easy",
    "normal": "normal",
    "baseline": "normal",
    "strong": "strong",
    "random": "random",
}


class _Snapshots:
    """Classic games are snapshot whole (they are small)."""

    __slots__ = ()

    def snapshot(self, game: ClassicGameAdapter) -> str:
        return game.snapshot()


class ClassicRuleSet:
    """Хвалёный козёл: 32 cards, eight in hand, permanent trumps, praise, pairs to 6."""

    id = "classic"
    name = "rules-name-classic"
    rules_text = "rules-classic"

    def options(self, raw: Mapping[str, Any] | None = None) -> ClassicOptions:
        return ClassicOptions.from_json(raw)

    def presets(self) -> Mapping[str, ClassicOptions]:
        """``003`` (the defaults) and ``001`` (§2.16)."""
        return {DEFAULT_PRESET: PRESETS[DEFAULT_PRESET]} | PRESETS

    def new_game(
        self,
        rng: random.Random | None = None,
        options: RuleOptions | None = None,
        *,
        first_dealer: int = 3,
    ) -> ClassicGameAdapter:
        if options is not None and not isinstance(options, ClassicOptions):
            raise KozelError(Reason.BAD_OPTIONS, "these are not the classic game's options")
        game = ClassicGameAdapter(ClassicGame(options, first_dealer=first_dealer))
        if rng is not None:
            game.deal(rng)
        return game

    def restore(self, snapshot: str | bytes) -> ClassicGameAdapter:
        return ClassicGameAdapter(record.restore(snapshot))

    def from_record(self, data: Mapping[str, Any]) -> ClassicGameAdapter:
        return ClassicGameAdapter(record.game_from_record(data))

    def replay(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return record.replay(data)

    def computer(self, level: str, options: RuleOptions | None = None) -> ClassicComputerPlayer:
        """``easy`` (a careless baseline), ``normal`` (the baseline), ``strong`` (the
        search player of :mod:`core.classic.search`), or ``random``.

        >>> import random
        >>> game = CLASSIC.new_game(random.Random(5))
        >>> seat = game.turn
        >>> choice = CLASSIC.computer("easy").choose(game.seat_view(seat), random.Random(1))
        >>> game.can(choice)
        True
        """
        if level not in _LEVELS:
            raise ValueError(f"unknown player level {level!r}; known: {', '.join(_LEVELS)}")
        if options is not None and not isinstance(options, ClassicOptions):
            raise KozelError(Reason.BAD_OPTIONS, "these are not the classic game's options")
        return ClassicComputerPlayer(_LEVELS[level], options or ClassicOptions())

    def snapshot_writer(self) -> _Snapshots:
        return _Snapshots()


#: The classic rule set, as the registry of :mod:`core.ruleset` finds it.
CLASSIC = ClassicRuleSet()

if TYPE_CHECKING:  # mypy checks here that the classic game keeps the contract
    _rule_set: RuleSet = CLASSIC
    _game: AnyGame = CLASSIC.new_game()
