"""What players see of their ratings (:mod:`bot.ratings`): the changes under a
game's result, the rating lines of ``/stats``, the rating leaderboards of ``/top``.

Ratings are whole numbers shown with the locale's digit grouping (``1 512`` in
Russian, ``1,512`` in English); a change has its sign (``+23``, ``−12``).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import Translator
from bot.models import Game, Platform
from bot.presenters.common import (
    Screen,
    command_args,
    display_name,
    rules_name,
    seat_name,
    text_screen,
)
from bot.ratings import (
    EVERY,
    BadSeason,
    BoardRow,
    PlayerRating,
    RatingChange,
    SeasonRefusal,
    previous_season,
)


def signed(delta: int) -> str:
    """A change with its sign: a true minus sign, a plus for a rise or none.

    >>> signed(23), signed(-12), signed(0)
    ('+23', '−12', '±0')
    """
    if delta > 0:
        return f"+{delta}"
    if delta < 0:
        return f"−{-delta}"
    return "±0"


def grouped(number: int, locale: str) -> str:
    """A rating with the locale's digit grouping.

    >>> grouped(1512, "ru"), grouped(1512, "en"), grouped(987, "ru"), grouped(-1200, "ru")
    ('1\\xa0512', '1,512', '987', '-1\\xa0200')
    """
    text = f"{number:,}"
    return text.replace(",", "\u00a0") if locale.startswith("ru") else text


def result_lines(
    game: Game, changes: Sequence[RatingChange], tr: Translator, locale: str
) -> list[str]:
    """The lines a finished game's result ends with: each player's new rating and
    change, by seat; or that the game was not rated (a computer at the table)."""
    if not changes:
        return [tr.t(locale, "rating-unrated")]
    lines = [tr.t(locale, "rating-changes-title")]
    for change in sorted(changes, key=lambda c: c.seat):
        lines.append(
            tr.t(
                locale,
                "rating-change",
                name=seat_name(game, change.seat, tr, locale),
                rating=grouped(change.after, locale),
                delta=signed(change.delta),
            )
        )
    return lines


def stats_lines(rating: PlayerRating, tr: Translator, locale: str) -> list[str]:
    """A rule set's rating lines of ``/stats``: the rating with its uncertainty and
    best, the latest changes, the partner he won most with."""
    lines = [
        tr.t(
            locale,
            "stats-rating",
            rating=grouped(rating.rating, locale),
            spread=rating.spread,
            best=grouped(rating.best, locale),
            games=rating.games,
        )
    ]
    if rating.last:
        changes = ", ".join(signed(delta) for delta in rating.last)
        lines.append(tr.t(locale, "stats-rating-last", changes=changes))
    if rating.partner is not None:
        partner = rating.partner
        lines.append(
            tr.t(
                locale,
                "stats-partner",
                name=display_name(partner.name, partner.user),
                won=partner.wins,
                played=partner.games,
            )
        )
    return lines


def stats_more(
    ratings: Sequence[PlayerRating], tr: Translator, locale: str
) -> dict[str, list[str]]:
    """The rating lines of ``/stats`` (as :func:`bot.presenters.common.stats_by_rules`
    takes them): the overall rating under the title, each rule set's in its part."""
    more = {rating.rule_set: stats_lines(rating, tr, locale) for rating in ratings}
    overall = overall_line(ratings, tr, locale)
    more[""] = [] if overall is None else [overall]
    more.pop(EVERY, None)
    return more


def overall_line(ratings: Sequence[PlayerRating], tr: Translator, locale: str) -> str | None:
    """The rating over every rule set's games, if the player has one."""
    for rating in ratings:
        if rating.rule_set == EVERY:
            return tr.t(
                locale,
                "stats-rating-overall",
                rating=grouped(rating.rating, locale),
                best=grouped(rating.best, locale),
                games=rating.games,
            )
    return None


def board(
    rows: Sequence[BoardRow],
    tr: Translator,
    locale: str,
    *,
    global_: bool = False,
    platform: Platform = Platform.TELEGRAM,
    rule_set: str | None = None,
    season: str | None = None,
    min_games: int = 5,
) -> Screen:
    """``/top``: the best rated players of a chat, of every chat (``global_``) or of
    the chat's ``season``, in a rule set's games or every rule set's, with their
    rated games and win share."""
    if season is not None:
        title = tr.t(locale, "top-title-season", season=season)
    else:
        title = tr.t(locale, "top-title-global" if global_ else "top-title-chat")
    lines = [title]
    if rule_set is not None:
        lines.append(tr.t(locale, "top-rules", rules=rules_name(rule_set, tr, locale)))
    if not rows:
        lines.append(tr.t(locale, "top-rating-empty", games=min_games))
    for place, row in enumerate(rows, start=1):
        lines.append(
            tr.t(
                locale,
                "top-rating-row",
                place=place,
                name=display_name(row.name, row.user),
                rating=grouped(row.rating, locale),
                games=row.games,
                rate=round(row.win_rate * 100),
            )
        )
    if not global_ and season is None:
        lines.append(tr.t(locale, "top-hint", **command_args(platform, tr, locale)))
    return text_screen(lines)


def bad_season(
    refused: BadSeason, current: str, tr: Translator, locale: str, platform: Platform
) -> Screen:
    """``/top`` of a month with no season to show: a word that is no ``YYYY-MM``
    month (how to write one, with last month as the example), or a month not begun
    (the ``current`` season named)."""
    if refused.reason is SeasonRefusal.FUTURE:
        line = tr.t(locale, "top-month-future", asked=refused.asked, current=current)
    else:
        args = command_args(platform, tr, locale)
        line = tr.t(locale, "top-month-malformed", example=previous_season(current), **args)
    return text_screen([line])
