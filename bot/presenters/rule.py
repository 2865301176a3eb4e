"""The presenter of one rule set, and the registry that finds it by the rule set's id.

Everything a screen shows of a game in play depends on its rules: the yard game's
table has a stock and loss points, the classic one praise and pairs. So each rule
set has a presenter module, ``bot/presenters/<rule set id>.py``, and the only code
that knows a rule set's actions, views and events lives there (and in the core).
It exports ``PRESENTER``, an object keeping :class:`RulePresenter`; the application
(:mod:`bot.interactions`, the console) finds it with :func:`rule_presenter` and
never asks which rules a table plays.

A presenter is pure, as every presenter: no I/O, no clock (``now`` is passed in). Its
screens are built from :mod:`bot.presenters.common` (names, card labels, rows of
buttons, tokens), and every PLAY button carries :meth:`RulePresenter.action_arg` of
its action, which :meth:`RulePresenter.parse_action_arg` reads back: at most 40
characters of ``[0-9A-Za-z]``, so that a token stays within 64 bytes
(:mod:`bot.codec`). Once shipped, an argument must keep meaning the same action
(old buttons stay on the players' screens).

A new rule set adds its line to ``_REGISTRY`` below.

>>> rule_presenter("yard").rule_set, rule_presenter_ids()
('yard', ('yard', 'classic'))
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from importlib import import_module
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from collections.abc import Sequence

    from bot.achievements import Moment
    from bot.i18n import Translator
    from bot.models import Game
    from bot.presenters.common import Screen
    from bot.presenters.web import WebTable
    from core.ruleset import GameOutcome


class RulePresenter(Protocol):
    """How the games of one rule set look: the hooks the application calls."""

    @property
    def rule_set(self) -> str:
        """The id of the rule set it draws (:func:`core.ruleset.get_rule_set`)."""
        ...

    @property
    def console_help(self) -> str:
        """The locale id of the terminal's help: how to type its moves."""
        ...

    def table(
        self,
        game: Game,
        tr: Translator,
        locale: str,
        now: float,
        *,
        with_hand_button: bool = False,
        viewer: int | None = None,
    ) -> Screen:
        """The one public table message of a started game; shows no hidden card.
        ``with_hand_button`` adds a "My hand" button while a deal is played;
        ``viewer``: the seat of the one player it is shown to (the console's), whose
        own moves read as his ("Your turn")."""
        ...

    def hand(self, game: Game, seat: int, selection: int, tr: Translator, locale: str) -> Screen:
        """One seat's private screen: his cards (SELECT buttons toggle one in the
        ``selection`` bitmask), and the PLAY buttons of his legal actions."""
        ...

    def web_table(
        self, game: Game, viewer: int | None, tr: Translator, locale: str, now: float
    ) -> WebTable:
        """The rule set's part of the web table's view of a started game
        (:func:`bot.presenters.web.web_view`), for the player at ``viewer`` (None: a
        spectator): built from his seat's view of the core, or the public one."""
        ...

    def hand_content(self, game: Game, seat: int) -> Hashable:
        """Everything :meth:`hand` shows for ``seat`` but the game version its buttons
        carry, as a value compared with ``==``: a hand is re-drawn when it changes,
        and only then (:meth:`bot.interactions.Interactions.changed_hands`)."""
        ...

    def deal_result(self, game: Game, number: int, tr: Translator, locale: str) -> Screen | None:
        """The result of deal ``number`` (the core's, from 0) as the game holds it, or
        None if it holds none (a message owed by a game of another release)."""
        ...

    def game_result(self, game: Game, tr: Translator, locale: str) -> Screen | None:
        """The whole game's result with a rematch button, or None while it is not over."""
        ...

    def event_line(
        self, game: Game, event: Any, tr: Translator, locale: str, *, viewer: int | None = None
    ) -> str | None:
        """A one-line account of a public event of the game, or None for an event that
        needs no line. ``viewer``: the seat whose own moves read as his."""
        ...

    def game_outcome(self, game: Game) -> GameOutcome | None:
        """The finished game's result, neutral (None while it is not over): what its
        picture shows (:mod:`bot.pictures`)."""
        ...

    def moments(self, game: Game, events: Sequence[Any]) -> list[Moment]:
        """The achievements' moments of this rule set that one step's events tell
        (:mod:`bot.achievements`: who earned what), read with the game as the step
        left it, before a next deal is dealt. The moments every rule set shares
        (eggs, the goats with eggs) are not this one's to tell."""
        ...

    def option_lines(self, game: Game, tr: Translator, locale: str) -> list[str]:
        """The lobby's lines about the table's rule-set options (none: ``[]``)."""
        ...

    def rules_args(self, options: Mapping[str, Any], tr: Translator, locale: str) -> dict[str, str]:
        """The variables its rules text takes from a table's options (JSON values, as
        ``TableSettings.options`` keeps them), so that it tells the game they make."""
        ...

    def option_word(self, name: str, value: Any, tr: Translator, locale: str) -> str:
        """An option of this rule set with a value (a JSON value, as
        :mod:`bot.options` lists them) in a few words, for the lobby's buttons."""
        ...

    def action_arg(self, action: Any) -> str:
        """The PLAY argument of an action of this rule set (its seat is implied by who
        presses): at most 40 characters of ``[0-9A-Za-z]``."""
        ...

    def parse_action_arg(self, seat: int, arg: str) -> Any:
        """The action a PLAY argument names for ``seat``; raise
        :class:`~bot.codec.CodecError` for one that names none."""
        ...

    # The terminal (``kozel play``, :mod:`adapters.console`): it prints the table, then
    # these lines, and reads a typed line as a move.

    def console_hand(self, game: Game, seat: int, tr: Translator, locale: str) -> list[str]:
        """The lines under the table for the terminal's player at ``seat``: his cards
        (numbered, as :meth:`console_action` reads them) and what he may do."""
        ...

    def console_action(self, game: Game, seat: int, line: str) -> Any:
        """The action a typed line names for ``seat`` (checked later by the service);
        raise :class:`ValueError` with a locale id (``console-...``) and the argument it
        takes (``input``/``number``) when the line names none."""
        ...

    def console_summary(self, game: Game, tr: Translator, locale: str) -> str:
        """One line about a game over: its deals and score."""
        ...


#: Rule set ids and where each one's presenter lives (``module:attribute``).
_REGISTRY: dict[str, str] = {
    "yard": "bot.presenters.yard:PRESENTER",
    "classic": "bot.presenters.classic:PRESENTER",
}


def rule_presenter_ids() -> tuple[str, ...]:
    """The rule sets that have a presenter (the ones a table can play)."""
    return tuple(_REGISTRY)


def rule_presenter(rule_set_id: str) -> RulePresenter:
    """The presenter of a rule set; raise :class:`KeyError` for one without any."""
    module, attribute = _REGISTRY[rule_set_id].split(":")
    presenter: RulePresenter = getattr(import_module(module), attribute)
    return presenter


def presenter_of(game: Game) -> RulePresenter:
    """The presenter of the rule set ``game`` plays."""
    return rule_presenter(game.settings.rule_set)
