"""The web table's view: one JSON object a page draws a game from, for one seat or a
spectator (the contract of ``adapters/web``, written down in ``docs/web.md``).

The view is rule-set-agnostic: every rule set fills the same fields, its presenter's
:meth:`~bot.presenters.rule.RulePresenter.web_table` the ones that depend on its
rules (:class:`WebTable`), this module the rest (the game, the seats, the log).
Like every presenter it is pure: no I/O, no clock (``now`` is passed in), and it
shows no card its reader may not see: a seat's view is built from that seat's own
view of the core (its hand, its legal actions), a spectator's from the public one.

Cards are their codes (``"TS"``, ``"QC"``); a face-down card is ``None``.

>>> from bot.models import ChatRef, Game, Platform, UserRef
>>> game = Game(1, ChatRef(Platform.TELEGRAM, "-1"), UserRef(Platform.TELEGRAM, "1"))
>>> view = web_view(game, None, Translator.from_dir(), "en", 0.0)
>>> view["phase"], view["you"], [seat["name"] for seat in view["seats"]]
('lobby', None, ['free', 'free', 'free', 'free'])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.codec import base36
from bot.i18n import Translator
from bot.models import Game, GameStatus, Seat
from bot.presenters.common import (
    CONSOLE_HUMAN,
    rules_name,
    seconds_left,
    team_label,
)
from bot.presenters.rule import presenter_of
from core.seats import Team, team_of

#: The most log lines a view carries (the newest last).
LOG_LINES = 8

_PHASES = {
    GameStatus.LOBBY: "lobby",
    GameStatus.PLAYING: "play",
    GameStatus.FINISHED: "over",
    GameStatus.CANCELLED: "cancelled",
}

#: A card's code, or None for a face-down card.
CardCode = str | None


@dataclass(frozen=True, slots=True)
class WebAction:
    """One legal action of the viewer: its PLAY token, its label, and the cards of
    his hand it plays (none: a plain button)."""

    token: str
    label: str
    cards: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class WebTable:
    """What a rule set's presenter fills in of the web view (:func:`web_view` adds the
    game, the seats' names and teams, and the log). Seats are indexed 0..3."""

    status: str
    cards: tuple[int, ...] = (0, 0, 0, 0)
    marks: tuple[tuple[str, ...], ...] = ((), (), (), ())
    taken: tuple[str | None, ...] = (None, None, None, None)
    turn: int | None = None
    #: ``{"card": "AS", "suit": "S"}``, ``{"suit": "S"}``, ``{"suit": None}`` or None.
    trump: dict[str, str | None] | None = None
    trump_text: str = ""
    stock: int | None = None
    trick: tuple[tuple[int, tuple[CardCode, ...]], ...] = ()
    score: tuple[tuple[str, str], ...] = ()
    hand: tuple[str, ...] | None = None
    actions: tuple[WebAction, ...] = ()
    #: Lines the rule set shows beyond these fields (classic: the praise's face-up
    #: cards, an offer, the points; the viewer's own pants pair or laid card).
    notes: tuple[str, ...] = ()
    #: A deal's or the game's end: a title and lines.
    result: tuple[str, tuple[str, ...]] | None = None


def web_name(player: Seat | None, tr: Translator, locale: str) -> str:
    """A seat's name as typed (a page escapes nothing: it shows text as text);
    computer players' names in ``locale``; "free" for an empty seat."""
    if player is None:
        return tr.t(locale, "lobby-seat-empty")
    if player.is_computer and player.name.startswith("bot-name-"):
        return tr.t(locale, player.name)
    if player.name == CONSOLE_HUMAN:
        return tr.t(locale, CONSOLE_HUMAN)
    return player.name


def mark_texts(marks: Iterable[str], tr: Translator, locale: str) -> list[str]:
    """The badges' words (``web-mark-<mark>``)."""
    return [tr.t(locale, f"webview-mark-{mark}") for mark in marks]


def game_ref(game: Game) -> str:
    """The game as a view names it: its id in base 36."""
    return base36(game.id)


def viewer_seat(game: Game, seat: int | None) -> int | None:
    """``seat`` if a human sits there (a viewer of the table), else None (a
    spectator)."""
    if seat is None or not 0 <= seat < len(game.seats):
        return None
    player = game.seats[seat]
    return seat if player is not None and not player.is_computer else None


def _lobby_table(game: Game, tr: Translator, locale: str) -> WebTable:
    free = sum(1 for player in game.seats if player is None)
    status = tr.t(locale, "lobby-free", count=free) if free else tr.t(locale, "lobby-ready")
    if game.status is GameStatus.CANCELLED:
        status = tr.t(locale, "table-cancelled")
    return WebTable(status=status)


def log_lines(
    game: Game, events: Sequence[Any], tr: Translator, locale: str, viewer: int | None
) -> list[str]:
    """The last :data:`LOG_LINES` lines of the public events (newest last)."""
    lines: list[str] = []
    presenter = presenter_of(game)
    for event in reversed(events):
        line = presenter.event_line(game, event, tr, locale, viewer=viewer)
        if line:
            lines.append(line)
            if len(lines) == LOG_LINES:
                break
    lines.reverse()
    return lines


def web_view(
    game: Game,
    seat: int | None,
    tr: Translator,
    locale: str,
    now: float,
    events: Sequence[Any] = (),
) -> dict[str, Any]:
    """The view of ``game`` for the player at ``seat`` (None, or a seat no human sits
    at: a spectator's), in ``locale``; ``events``: the game's latest public events,
    for the log."""
    viewer = viewer_seat(game, seat)
    if game.status is GameStatus.LOBBY:
        part = _lobby_table(game, tr, locale)
    else:
        part = presenter_of(game).web_table(game, viewer, tr, locale, now)
    playing = game.status is GameStatus.PLAYING
    seats = []
    for index, player in enumerate(game.seats):
        marks = part.marks[index] if index < len(part.marks) else ()
        seats.append(
            {
                "seat": index,
                "name": web_name(player, tr, locale),
                "team": team_of(index).name,
                "computer": player is not None and player.is_computer,
                "away": player is not None and player.away,
                "cards": part.cards[index] if index < len(part.cards) else 0,
                "turn": playing and part.turn == index,
                "marks": list(marks),
                "marks_text": mark_texts(marks, tr, locale),
                "taken": part.taken[index] if index < len(part.taken) else None,
            }
        )
    turn = None
    if playing and part.turn is not None:
        left = seconds_left(game, now) if game.settings.turn_timeout > 0 else None
        turn = {"seat": part.turn, "seconds_left": left}
    result = None
    if part.result is not None:
        title, lines = part.result
        result = {"title": title, "lines": list(lines)}
    return {
        "game": game_ref(game),
        "version": game.version,
        "rules": game.settings.rule_set,
        "title": rules_name(game.settings.rule_set, tr, locale),
        "locale": locale,
        "phase": _PHASES[game.status],
        "you": viewer,
        "seats": seats,
        "turn": turn,
        "trump": part.trump,
        "trump_text": part.trump_text,
        "stock": part.stock,
        "trick": [{"seat": s, "cards": list(cards)} for s, cards in part.trick],
        "score": [{"label": label, "value": value} for label, value in part.score],
        "status": part.status,
        "hand": None if viewer is None or part.hand is None else list(part.hand),
        "actions": [
            {"token": a.token, "label": a.label, "cards": list(a.cards)}
            for a in (part.actions if viewer is not None and playing else ())
        ],
        "notes": list(part.notes),
        "log": log_lines(game, events, tr, locale, viewer),
        "result": result,
    }


def team_score(team: Team, value: str, tr: Translator, locale: str) -> tuple[str, str]:
    """One line of the score: the team's label and its value in words."""
    return team_label(team, tr, locale), value


__all__ = [
    "LOG_LINES",
    "WebAction",
    "WebTable",
    "game_ref",
    "log_lines",
    "mark_texts",
    "team_score",
    "viewer_seat",
    "web_name",
    "web_view",
]
