"""Platform-neutral screens: text and rows of buttons built from the core's views.

The package:

- :mod:`bot.presenters.common`: what every rule set shares: :class:`Screen`,
  :class:`Button`, rows, names, card labels and selections, the lobby, stats,
  leaderboards, rules, help, errors, reminders and notices;
- :mod:`bot.presenters.rule`: :class:`RulePresenter`, the protocol of a rule set's
  presenter (its table, a hand and what it shows, a deal's and the game's result,
  the play log's lines, the lobby's option lines, its PLAY buttons' argument), and
  the registry :func:`rule_presenter` / :func:`presenter_of` by rule set id;
- ``bot/presenters/<rule set id>.py`` (:mod:`bot.presenters.yard`): one rule set's
  presenter, the only module of ``bot/`` that imports that rule set's core package.

The functions here that draw a game in play (:func:`table`, :func:`hand`,
:func:`hand_content`, :func:`event_line`, :func:`owed_deal_result`,
:func:`game_result`) ask the game's rule-set presenter. Everything of the old
``bot.presenters`` module is still importable from here (``deal_result`` and
``series_result`` are the yard game's).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import replace
from typing import Any

from bot.i18n import Translator
from bot.models import Game
from bot.presenters import rating
from bot.presenters.common import (
    CARD_BACK,
    CARDS_PER_ROW,
    COMMANDS,
    COMPUTER_NAMES,
    CONSOLE_HUMAN,
    MAX_ROW,
    MAX_ROWS,
    SELECTED_MARK,
    WINNING_MARK,
    Button,
    Notice,
    Row,
    Screen,
    about,
    backs_label,
    button_rows,
    cancel_confirm,
    cancelled,
    card_label,
    cards_label,
    command_args,
    command_descriptions,
    computer_name,
    display_name,
    dm_hello,
    dm_needed,
    duration,
    error,
    game_token,
    group_only,
    hand_button,
    help,
    is_hand,
    language_name,
    language_switched,
    language_usage,
    leaderboard,
    level_name,
    lobby,
    names_pair,
    notice,
    option_buttons,
    own_language_switched,
    parse_selection,
    player_name,
    refused,
    reminder,
    rules,
    rules_name,
    rules_short_name,
    seat_name,
    seat_names,
    seconds_left,
    selection_cards,
    selection_of,
    sorted_hand,
    squeeze,
    started,
    stats,
    stats_by_rules,
    suit_name,
    table_rules,
    team_label,
    team_names,
    text_screen,
    timeout_label,
    top_usage,
    turn_line,
    unknown_rules,
)
from bot.presenters.rule import RulePresenter, presenter_of, rule_presenter, rule_presenter_ids
from bot.presenters.yard import HandContent, deal_result, series_result
from bot.ratings import RatingChange


def table(
    game: Game,
    tr: Translator,
    locale: str,
    now: float,
    *,
    with_hand_button: bool = False,
    viewer: int | None = None,
) -> Screen:
    """The one public table message of a started game (:meth:`RulePresenter.table`)."""
    return presenter_of(game).table(
        game, tr, locale, now, with_hand_button=with_hand_button, viewer=viewer
    )


def hand(game: Game, seat: int, selection: int, tr: Translator, locale: str) -> Screen:
    """One seat's private screen (:meth:`RulePresenter.hand`)."""
    return presenter_of(game).hand(game, seat, selection, tr, locale)


def hand_content(game: Game, seat: int) -> Hashable:
    """What :func:`hand` shows for ``seat``, as a value (:meth:`RulePresenter.hand_content`)."""
    return presenter_of(game).hand_content(game, seat)


def owed_deal_result(game: Game, number: int, tr: Translator, locale: str) -> Screen | None:
    """Deal ``number``'s result as the game holds it (:meth:`RulePresenter.deal_result`)."""
    return presenter_of(game).deal_result(game, number, tr, locale)


def game_result(
    game: Game,
    tr: Translator,
    locale: str,
    ratings: Sequence[RatingChange] | None = None,
) -> Screen | None:
    """The game's result, if it is over (:meth:`RulePresenter.game_result`); with
    ``ratings`` (its players' changes, empty: unrated) its rating lines below it
    (:func:`bot.presenters.rating.result_lines`)."""
    screen = presenter_of(game).game_result(game, tr, locale)
    if screen is None or ratings is None:
        return screen
    lines = rating.result_lines(game, ratings, tr, locale)
    return replace(screen, text="\n".join([screen.text, "", *lines]))


def event_line(
    game: Game, event: Any, tr: Translator, locale: str, *, viewer: int | None = None
) -> str | None:
    """A one-line account of a public event (:meth:`RulePresenter.event_line`)."""
    return presenter_of(game).event_line(game, event, tr, locale, viewer=viewer)


__all__ = [
    "CARDS_PER_ROW",
    "CARD_BACK",
    "COMMANDS",
    "COMPUTER_NAMES",
    "CONSOLE_HUMAN",
    "MAX_ROW",
    "MAX_ROWS",
    "SELECTED_MARK",
    "WINNING_MARK",
    "Button",
    "HandContent",
    "Notice",
    "Row",
    "RulePresenter",
    "Screen",
    "about",
    "backs_label",
    "button_rows",
    "cancel_confirm",
    "cancelled",
    "card_label",
    "cards_label",
    "command_args",
    "command_descriptions",
    "computer_name",
    "deal_result",
    "display_name",
    "dm_hello",
    "dm_needed",
    "duration",
    "error",
    "event_line",
    "game_result",
    "game_token",
    "group_only",
    "hand",
    "hand_button",
    "hand_content",
    "help",
    "is_hand",
    "language_name",
    "language_switched",
    "language_usage",
    "leaderboard",
    "level_name",
    "lobby",
    "names_pair",
    "notice",
    "option_buttons",
    "owed_deal_result",
    "own_language_switched",
    "parse_selection",
    "player_name",
    "presenter_of",
    "rating",
    "refused",
    "reminder",
    "rule_presenter",
    "rule_presenter_ids",
    "rules",
    "rules_name",
    "rules_short_name",
    "seat_name",
    "seat_names",
    "seconds_left",
    "selection_cards",
    "selection_of",
    "series_result",
    "sorted_hand",
    "squeeze",
    "started",
    "stats",
    "stats_by_rules",
    "suit_name",
    "table",
    "table_rules",
    "team_label",
    "team_names",
    "text_screen",
    "timeout_label",
    "top_usage",
    "turn_line",
    "unknown_rules",
]
