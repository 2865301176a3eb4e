"""A game's result as a picture worth sharing (issue 25), drawn with Pillow.

:func:`result_picture` gathers what the picture shows from the finished game's
public result only (:class:`ResultCard`: the rules, each team's names and final
score, who won, what the losers are called, how many deals and eggs, and, when the
ratings pass them, each player's rating change); :func:`draw` turns that into a PNG
of :data:`SIZE`. Nothing else of the game reaches the drawing, so no card, hidden
or not, is ever on it.

The fonts are DejaVu Sans and DejaVu Sans Bold, shipped in ``bot/pictures/fonts``
with their licence (a package font such as Debian's fonts-dejavu is not on every
machine). Players' names may hold what DejaVu lacks (emoji, CJK): those
characters are drawn with the fallback fonts of :mod:`bot.pictures.glyphs` where
the machine has them, else left out; a name left empty is "Player N".
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources

from PIL import Image, ImageDraw, ImageFont

from bot.i18n import Translator
from bot.models import Game, Platform, Seat
from bot.pictures import glyphs
from bot.pictures.glyphs import Face, Run
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
#: The left-to-right mark (U+200E), which DejaVu has: a line of a name and its
#: change reads left to right whatever the name's script.
_LTR = "\u200e"


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
    #: Between the two scores: a game's score; none between two places' points.
    separator: str = ":"


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
        names = tuple(_shown_name(index, seat, tr, locale) for index, seat in seated)
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
    data = resources.files(__name__).joinpath("fonts", _main_file(bold)).read_bytes()
    return ImageFont.truetype(io.BytesIO(data), size)


def _shown_name(index: int, seat: Seat, tr: Translator, locale: str) -> str:
    """A player's name as the picture draws it: as typed (a picture has no markup to
    escape), without the characters no font has; if nothing is left, "Player N"."""
    person = seat.user is not None and not seat.is_computer
    if person and seat.user is not None and seat.user.platform is not Platform.CONSOLE:
        name = seat.name
    else:  # a computer's name, the terminal's human: locale ids
        name = player_name(seat, tr, locale)
    return drawable(name) or tr.t(locale, "picture-player", seat=index + 1)


def _main_file(bold: bool) -> str:
    return "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"


@cache
def _chars(face: Face, bold: bool = False) -> frozenset[int]:
    """The characters a face draws (none: its font is not on this machine)."""
    if face is Face.MAIN:
        data = resources.files(__name__).joinpath("fonts", _main_file(bold)).read_bytes()
        return glyphs.codepoints(data)
    return glyphs.font_chars(glyphs.EMOJI_FONT if face is Face.EMOJI else glyphs.CJK_FONT)


@cache
def _fallback(face: Face, size: int = glyphs.EMOJI_SIZE) -> ImageFont.FreeTypeFont:
    """A fallback face's font: the CJK one at ``size``; the colour emoji one at its
    one bitmap size, whatever ``size`` (one font object, scaled when drawn)."""
    if face is Face.EMOJI:
        return ImageFont.truetype(str(glyphs.EMOJI_FONT), glyphs.EMOJI_SIZE)
    return ImageFont.truetype(str(glyphs.CJK_FONT), size)


@lru_cache(maxsize=512)  # players' names: bounded, a long-running bot sees many
def _runs(text: str, bold: bool) -> tuple[Run, ...]:
    main = _chars(Face.MAIN, bold)
    return tuple(glyphs.runs(text, main, _chars(Face.EMOJI), _chars(Face.CJK)))


def drawable(text: str) -> str:
    """What of ``text`` the picture draws: without the characters no font has (and
    the spaces they leave).

    >>> drawable("Аня 🐐"), drawable("\U0010fffd")
    ('Аня 🐐', '')
    """
    return " ".join("".join(run.text for run in _runs(text, False)).split())


def _length(text: str, size: int, bold: bool) -> float:
    """The width of ``text`` drawn at ``size``, each run in its own font."""
    width = 0.0
    for run in _runs(text, bold):
        if run.face is Face.MAIN:
            width += _font(size, bold).getlength(run.text)
        elif run.face is Face.EMOJI:
            width += _fallback(Face.EMOJI).getlength(run.text) * size / glyphs.EMOJI_SIZE
        else:
            width += _fallback(Face.CJK, size).getlength(run.text)
    return width


@dataclass(frozen=True, slots=True)
class _Pen:
    """The picture being drawn, and the drawing on it."""

    image: Image.Image
    draw: ImageDraw.ImageDraw

    def centered(
        self, x: float, y: float, text: str, size: int, bold: bool, fill: tuple[int, int, int]
    ) -> None:
        """``text`` centred on ``(x, y)``; a text with other fonts' characters (emoji,
        CJK) is drawn run by run on the main font's baseline."""
        font = _font(size, bold)
        runs = _runs(text, bold)
        if all(run.face is Face.MAIN for run in runs):
            shown = "".join(run.text for run in runs)
            self.draw.text((x, y), shown, font=font, fill=fill, anchor="mm")
            return
        ascent, descent = font.getmetrics()
        left = x - _length(text, size, bold) / 2
        baseline = y + (ascent - descent) / 2
        for run in runs:
            if run.face is Face.EMOJI:
                left += self.emoji(left, baseline, run.text, size)
                continue
            face = font if run.face is Face.MAIN else _fallback(Face.CJK, size)
            self.draw.text((left, baseline), run.text, font=face, fill=fill, anchor="ls")
            left += face.getlength(run.text)

    def emoji(self, left: float, baseline: float, text: str, size: int) -> float:
        """Colour emoji drawn at the font's own size, scaled to ``size``, put on the
        baseline at ``left``; their width."""
        emoji = _fallback(Face.EMOJI)
        ascent, descent = emoji.getmetrics()
        width = max(1, round(emoji.getlength(text)))
        piece = Image.new("RGBA", (width, ascent + descent))
        ImageDraw.Draw(piece).text((0, ascent), text, font=emoji, anchor="ls", embedded_color=True)
        scale = size / glyphs.EMOJI_SIZE
        shown = piece.resize(
            (max(1, round(width * scale)), max(1, round((ascent + descent) * scale))),
            Image.Resampling.LANCZOS,
        )
        self.image.paste(shown, (round(left), round(baseline - ascent * scale)), shown)
        return width * scale


def name_line(name: str, change: int | None) -> str:
    """A player's line: his name, and his rating change if told. Left-to-right marks
    around the name keep the change after a right-to-left (Arabic) name, never
    before it nor reversed."""
    return name if change is None else f"{_LTR}{name}{_LTR}  {change:+d}"


def _fit(text: str, font_size: int, width: int, bold: bool = False) -> int:
    """The largest font size up to ``font_size`` that fits ``text`` in ``width`` pixels."""
    size = font_size
    while size > 12 and _length(text, size, bold) > width:
        size -= 2
    return size


def draw(card: ResultCard) -> bytes:
    """The picture of ``card`` as PNG bytes, :data:`SIZE` pixels."""
    width, height = SIZE
    image = Image.new("RGB", SIZE, _FELT)
    pen = _Pen(image, ImageDraw.Draw(image))
    pen.draw.rectangle((16, 16, width - 17, height - 17), outline=_PAPER, width=3)
    pen.centered(width / 2, 62, card.title, _fit(card.title, 40, width - 80, True), True, _PAPER)
    subtitle = card.subtitle
    pen.centered(width / 2, 108, subtitle, _fit(subtitle, 24, width - 80), False, _SOFT)
    column = width / 4
    for index, team in enumerate(card.teams):
        x = column * (1 + 2 * index)
        colour = _GOLD if team.won else _GOAT
        label_size = _fit(team.label, 28, int(column * 2 - 40), True)
        pen.centered(x, 170, team.label, label_size, True, colour)
        pen.centered(x, 285, str(team.score), 110, True, colour)
        for row, name in enumerate(team.names):
            change = team.changes[row] if row < len(team.changes) else None
            line = name_line(name, change)
            pen.centered(
                x, 390 + 44 * row, line, _fit(line, 30, int(column * 2 - 40)), False, _PAPER
            )
    if card.separator:
        pen.centered(width / 2, 285, card.separator, 90, True, _PAPER)
    footer = card.footer
    pen.centered(width / 2, height - 50, footer, _fit(footer, 22, width - 80), False, _SOFT)
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
