"""Achievements in words: the announcement after a result, and the line in /stats.

An achievement's name is ``achievement-<id>`` and its phrase
``achievement-<id>-phrase`` (:mod:`bot.achievements`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.achievements import BY_ID, Earned, sorted_earned
from bot.i18n import Translator
from bot.models import Game, Platform
from bot.presenters.common import Screen, seat_name, text_screen


def achievement_title(achievement: str, tr: Translator, locale: str) -> str:
    return tr.t(locale, f"achievement-{achievement}")


def _icon(achievement: str) -> str:
    known = BY_ID.get(achievement)
    return "🏅" if known is None else known.icon


def announced(game: Game, earned: Sequence[Earned], tr: Translator, locale: str) -> Screen | None:
    """The chat's message about what a game's players just earned: an achievement a
    line, with everyone who earned it (by his name at the table); None if nothing
    (of a player still seated) was earned."""
    names: dict[str, list[str]] = {}
    for item in sorted_earned(earned):
        seat = game.seat_of(item.user)
        if seat is None or item.achievement not in BY_ID:
            continue
        names.setdefault(item.achievement, []).append(seat_name(game, seat, tr, locale))
    if not names:
        return None
    lines = [tr.t(locale, "achievements-title")]
    for achievement, who in names.items():
        lines.append(
            tr.t(
                locale,
                "achievements-line",
                icon=_icon(achievement),
                title=achievement_title(achievement, tr, locale),
                names=", ".join(who),
                phrase=tr.t(locale, f"achievement-{achievement}-phrase"),
            )
        )
    return text_screen(lines)


def stats_lines(earned: Iterable[Earned], tr: Translator, locale: str) -> list[str]:
    """The /stats line listing a player's achievements (the catalogue's order); none
    if he has none."""
    known = [item for item in sorted_earned(earned) if item.achievement in BY_ID]
    if not known:
        return []
    listed = ", ".join(
        f"{_icon(item.achievement)} {achievement_title(item.achievement, tr, locale)}"
        for item in known
    )
    return [tr.t(locale, "stats-achievements", list=listed)]


def with_achievements(
    screen: Screen, earned: Sequence[Earned], tr: Translator, locale: str, *, played: bool
) -> Screen:
    """A /stats screen with the player's achievements under it (``played``: the
    screen shows statistics, not "no series yet", so there is something to add to)."""
    lines = stats_lines(earned, tr, locale)
    if not played or not lines:
        return screen
    return Screen("\n".join([screen.text, "", *lines]), screen.rows)


def pictures_usage(on: bool, tr: Translator, locale: str, platform: Platform) -> Screen:
    """``/pictures`` without a word: the chat's setting now and how to change it (the
    command as the platform shows it: Discord in the reader's language)."""
    name = tr.t(locale, "cmd-name-pictures") if platform is Platform.DISCORD else "pictures"
    state = "on" if on else "off"
    return text_screen([tr.t(locale, "pictures-usage", state=state, command=f"/{name}")])


def pictures_switched(on: bool, tr: Translator, locale: str) -> Screen:
    return text_screen([tr.t(locale, "pictures-on" if on else "pictures-off")])
