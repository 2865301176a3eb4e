"""Classic Kozel (RULES.md §2) behind the rule-set contract of :mod:`core.ruleset`.

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
from core.classic import record
from core.classic.actions import ClassicAction
from core.classic.dealing import Dealing
from core.classic.events import ClassicEvent
from core.classic.game import ClassicGame
from core.classic.options import ClassicOptions
from core.classic.views import ClassicSeatView, ClassicTableView
from core.errors import KozelError, Reason
from core.ruleset import AnyGame, RuleOptions, RuleSet


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

    def snapshot(self) -> str:
        return record.snapshot(self.game)

    def record(self, seed: int | None = None) -> dict[str, Any]:
        return record.game_to_record(self.game, seed)

    def report(self) -> dict[str, Any]:
        return record.report(self.game)

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


class ClassicRuleSet:
    """Хвалёный козёл: 32 cards, eight in hand, permanent trumps, praise, pairs to 6."""

    id = "classic"
    name = "rules-name-classic"
    rules_text = "rules-classic"

    def options(self, raw: Mapping[str, Any] | None = None) -> ClassicOptions:
        return ClassicOptions.from_json(raw)

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


#: The classic rule set, as the registry of :mod:`core.ruleset` finds it.
CLASSIC = ClassicRuleSet()

if TYPE_CHECKING:  # mypy checks here that the classic game keeps the contract
    _rule_set: RuleSet = CLASSIC
    _game: AnyGame = CLASSIC.new_game()
