"""What players see of their reliability (:mod:`bot.reliability`): the line of
``/stats``."""

from __future__ import annotations

from bot.i18n import Translator
from bot.reliability import Reliability


def stats_lines(reliability: Reliability, tr: Translator, locale: str) -> list[str]:
    """The /stats line of a player's reliability over his last rated games; none
    without rated games."""
    if not reliability:
        return []
    return [
        tr.t(
            locale,
            "stats-reliability",
            percent=reliability.percent,
            completed=reliability.completed,
            games=reliability.games,
        )
    ]
