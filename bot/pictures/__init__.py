"""A game's result as a picture worth sharing (issue 25), drawn with Pillow.

:func:`result_picture` gathers what the picture shows from the finished game's
public result only (:class:`ResultCard`: the rules, each team's names and final
score, who won, what the losers are called, how many deals and eggs, and, when the
ratings pass them, each player's rating change); :func:`draw` turns that into a PNG
of :data:`SIZE`. Nothing else of the game reaches the drawing, so no card, hidden
or not, is ever on it.

The fonts are DejaVu Sans and DejaVu Sans Bold, shipped in ``bot/pictures/fonts``
with their licence (a package font such as Debian's fonts-dejavu is not on every
machine). They have no colour emoji: the picture's words are its own locale
messages (``picture-*``), without any.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources

from PIL import Image, ImageDraw, ImageFont

from bot.i18n import Translator
from bot.models import Game
from bot.presenters.common import player_name, rules_name
from bot.presenters.rule import presenter_of
from core.seats import Team

#: The picture's size in pixels (16:9: Telegram and Discord show it whole).
SIZE = (960, 540)
_FELT = (23, 84, 52)
_PAPER = (244, 239, 226)
_GOLD = (242, 196, 82)
_GOAT = (236, 128, 110)
_SOFT = (200, 222, 206)


@dataclass(frozen=True, slots=True)
class TeamCard:
    """One team on the picture."""

    names: tuple[str, ...]
    score: int
    won: bool
    label: str  # "Winners", or what the losers are called
    changes: tuple[int | None, ...] = ()  # each player's rating change, if told


@dataclass(frozen=True, slots=True)
class ResultCard:
    """Everything the picture shows: a finished game's public result."""

    title: str
    subtitle: str
    teams: tuple[TeamCard, TeamCard]
    footer: str


def result_card(
    game: Game,
    tr: Translator,
    locale: str,
    changes: Mapping[int, int] | None = None,
) -> ResultCard | None:
    """The public result of a finished game, for the picture (None while it is not
    over). ``changes``: each player's rating change by his seat, as kept with the
    result (None or empty: the picture shows none)."""
    outcome = presenter_of(game).game_outcome(game)
    if outcome is None:
        return None
    teams = []
    for team in (Team.A, Team.B):
        seated = [(index, seat) for index in team.seats if (seat := game.seats[index]) is not None]
        names = tuple(player_name(seat, tr, locale) for _, seat in seated)
        won = team is outcome.winner
        title = outcome.title.replace("_", "-")
        label = tr.t(locale, "picture-winners" if won else f"picture-{title}")
        shown = tuple(changes.get(index) for index, _ in seated) if changes else ()
        teams.append(TeamCard(names, outcome.score[team], won, label, shown))
    return ResultCard(
        title=tr.t(locale, "picture-title"),
        subtitle=tr.t(
            locale,
            f"picture-score-{game.settings.rule_set}",
            rules=rules_name(game.settings.rule_set, tr, locale),
        ),
        teams=(teams[0], teams[1]),
        footer=tr.t(
            locale,
            f"picture-footer-{game.settings.rule_set}",
            deals=outcome.deals,
            eggs=outcome.eggs,
        ),
    )


@cache
def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    data = resources.files(__name__).joinpath("fonts", name).read_bytes()
    return ImageFont.truetype(io.BytesIO(data), size)


def _centered(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    text: str,
    font: ImageFont.FreeTypeFont,
    fill: tuple[int, int, int],
) -> None:
    draw.text((x, y), text, font=font, fill=fill, anchor="mm")


def _fit(text: str, font_size: int, width: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The largest font up to ``font_size`` that fits ``text`` in ``width`` pixels."""
    size = font_size
    while size > 12 and _font(size, bold).getlength(text) > width:
        size -= 2
    return _font(size, bold)


def draw(card: ResultCard) -> bytes:
    """The picture of ``card`` as PNG bytes, :data:`SIZE` pixels."""
    width, height = SIZE
    image = Image.new("RGB", SIZE, _FELT)
    pen = ImageDraw.Draw(image)
    pen.rectangle((16, 16, width - 17, height - 17), outline=_PAPER, width=3)
    _centered(pen, width / 2, 62, card.title, _fit(card.title, 40, width - 80, True), _PAPER)
    _centered(pen, width / 2, 108, card.subtitle, _fit(card.subtitle, 24, width - 80), _SOFT)
    column = width / 4
    for index, team in enumerate(card.teams):
        x = column * (1 + 2 * index)
        colour = _GOLD if team.won else _GOAT
        _centered(pen, x, 170, team.label, _fit(team.label, 28, int(column * 2 - 40), True), colour)
        _centered(pen, x, 285, str(team.score), _font(110, True), colour)
        for row, name in enumerate(team.names):
            change = team.changes[row] if row < len(team.changes) else None
            line = name if change is None else f"{name}  {change:+d}"
            _centered(pen, x, 390 + 44 * row, line, _fit(line, 30, int(column * 2 - 40)), _PAPER)
    _centered(pen, width / 2, 285, ":", _font(90, True), _PAPER)
    _centered(pen, width / 2, height - 50, card.footer, _fit(card.footer, 22, width - 80), _SOFT)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def result_picture(
    game: Game,
    tr: Translator,
    locale: str,
    changes: Mapping[int, int] | None = None,
) -> bytes | None:
    """The finished game's result as a PNG (None while it is not over)."""
    card = result_card(game, tr, locale, changes)
    return None if card is None else draw(card)
