"""The result as a picture (issue 25): produced, a PNG of the right size, drawn from
the game's public result only (no card, hidden or not), the same for the same result."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

from bench.pictures import finished_series
from bench.pictures import finished_table as table
from bot import pictures
from bot.event import Event, EventState, EventTable, Player, TableResult, Team
from bot.i18n import Translator
from bot.models import ChatRef, Platform, Seat, SeatKind, UserRef
from bot.pictures import SIZE, ResultCard, draw, glyphs, result_card, result_picture
from bot.pictures.event import final_card, final_picture
from bot.pictures.glyphs import Face
from bot.presenters.common import cards_label
from core.cards import CARDS
from core.ruleset import get_rule_set
from core.yard.ruleset import YardGame

FONTS = Path(pictures.__file__).parent / "fonts"


@pytest.fixture(scope="module")
def tr() -> Translator:
    return Translator.from_dir()


def test_the_rating_changes_go_to_their_seats_on_the_picture(tr: Translator) -> None:
    """Changes are told by seat (two players may share a name): team A is seats 0
    and 2, team B seats 1 and 3."""
    game = table(YardGame(finished_series(1)))
    card = result_card(game, tr, "ru", {0: 23, 1: -12, 3: 5})
    assert card is not None
    assert card.teams[0].changes == (23, None) and card.teams[1].changes == (-12, 5)
    plain = result_card(game, tr, "ru")
    assert plain is not None and plain.teams[0].changes == plain.teams[1].changes == ()


def test_the_picture_is_a_png_of_its_size(tr: Translator) -> None:
    game = table(YardGame(finished_series(1)))
    png = result_picture(game, tr, "ru", {0: 23, 1: -12})
    assert png is not None and len(png) > 1000
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.size == SIZE
    # Not one flat colour: the words and numbers are drawn.
    assert len(image.getcolors(maxcolors=1 << 16) or range(1 << 16)) > 20


def test_no_picture_before_the_end(tr: Translator) -> None:
    game = table(get_rule_set("yard").new_game(random.Random(2)))
    assert result_picture(game, tr, "ru") is None


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_the_picture_shows_only_the_public_result_and_no_card(tr: Translator, locale: str) -> None:
    series = finished_series(3)
    game = table(YardGame(series))
    card = result_card(game, tr, locale)
    assert card is not None
    result = series.result
    assert result is not None
    # What it shows: the names, the final score, who won and what the goats are called.
    (a, b) = card.teams
    assert (a.score, b.score) == result.loss_points
    assert a.names == ("Аня", "Вера") and b.names == ("Борис", "Глеб")
    assert {a.won, b.won} == {True, False}
    words = " ".join([card.title, card.subtitle, card.footer, *(t.label for t in card.teams)])
    # Not a card of anybody's hand, nor of any trick: no card label in any language.
    labels = {cards_label([c], loc) for c in CARDS for loc in ("ru", "en")}
    shown = re.findall(r"\S+", words)
    assert not labels & set(shown)
    assert not set("♣♠♥♦") & set(words)


def test_the_picture_is_drawn_from_the_public_result_alone(tr: Translator) -> None:
    """What is drawn is the :class:`ResultCard` (public fields only, checked above),
    nothing else of the game: the same card, the same bytes."""
    game = table(YardGame(finished_series(3)))
    card = result_card(game, tr, "ru")
    assert card is not None
    assert result_picture(game, tr, "ru") == draw(card) == draw(card)


# --- Emoji and other scripts in names (issue 25) ------------------------------------------

NAMES = ["Аня 🐐", "🔥Макс🔥", "王小明", "Ён 👨‍👩‍👧 🇷🇺 ❤️"]
NOTDEF = "\U0010fffd"  # a private character no font has: its glyph is the box


def players(names: list[str], platform: Platform = Platform.TELEGRAM) -> list[Seat | None]:
    return [Seat(SeatKind.HUMAN, n, UserRef(platform, str(i))) for i, n in enumerate(names)]


def mask(font: ImageFont.FreeTypeFont, text: str, color: bool = False) -> bytes:
    image = Image.new("RGBA", (300, 300))
    ImageDraw.Draw(image).text((20, 20), text, font=font, embedded_color=color, fill="white")
    return image.tobytes()


@pytest.fixture
def no_fallback_fonts(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """A machine without Debian's emoji and CJK fonts."""
    monkeypatch.setattr(glyphs, "EMOJI_FONT", tmp_path / "none.ttf")
    monkeypatch.setattr(glyphs, "CJK_FONT", tmp_path / "none.ttf")
    pictures._chars.cache_clear()
    pictures._runs.cache_clear()
    yield
    pictures._chars.cache_clear()
    pictures._runs.cache_clear()


def test_the_fallback_fonts_are_on_this_machine() -> None:
    # .ci/run and the Dockerfile install them; without them emoji would be left out.
    assert glyphs.EMOJI_FONT.is_file() and glyphs.CJK_FONT.is_file()


def test_every_character_of_emoji_and_cjk_names_has_a_glyph_in_its_font() -> None:
    dejavu = ImageFont.truetype(str(FONTS / "DejaVuSans.ttf"), 30)
    for name in NAMES:
        runs = pictures._runs(name, False)
        assert "".join(run.text for run in runs) == name == pictures.drawable(name)
        for run in runs:
            chars = pictures._chars(run.face)
            assert all(ord(c) in chars or ord(c) in glyphs._JOINERS for c in run.text), run
    # The emoji and CJK ones are none of DejaVu's: alone it draws its box for them.
    box = mask(dejavu, NOTDEF)
    for char in "🐐🔥王":
        assert ord(char) not in pictures._chars(Face.MAIN)
        assert mask(dejavu, char) == box


@pytest.mark.parametrize(
    ("face", "chars"),
    [(Face.MAIN, "АняЁн ابX"), (Face.EMOJI, "🐐🔥👨👩👧🇷❤"), (Face.CJK, "王小明")],
)
def test_the_font_of_each_character_draws_it_not_its_box(face: Face, chars: str) -> None:
    # The cmap read agrees with the drawing: a character found draws another glyph
    # than the font's box (the glyph of a character it lacks).
    if face is Face.MAIN:
        font = ImageFont.truetype(str(FONTS / "DejaVuSans.ttf"), 30)
    else:
        font = pictures._fallback(face, 30)
    color = face is Face.EMOJI
    box = mask(font, NOTDEF, color)
    for char in chars:
        assert ord(char) in pictures._chars(face), char
        assert mask(font, char, color) != box, char


def test_a_picture_of_emoji_and_cjk_names_draws_them_in_colour_and_without_boxes() -> None:
    game = table(YardGame(finished_series(1)))
    game.seats = players(NAMES)
    card = result_card(game, Translator.from_dir(), "ru")
    assert card is not None
    assert [*card.teams[0].names, *card.teams[1].names] == [NAMES[0], NAMES[2], NAMES[1], NAMES[3]]
    with_emoji = Image.open(io.BytesIO(draw(card))).convert("RGB")
    plain = Image.open(
        io.BytesIO(draw(card_with_names(card, ["Аня", "王小明"], ["Макс", "Ён"])))
    ).convert("RGB")
    # The names' rows differ and hold colours of no text of the picture (the emoji's).
    names = (0, 365, SIZE[0], 460)
    assert with_emoji.crop(names).tobytes() != plain.crop(names).tobytes()
    shown = {with_emoji.getpixel((x, y)) for x in range(0, SIZE[0], 2) for y in range(365, 460, 2)}
    assert any(abs(r - g) > 60 and b < 80 and r > 150 for r, g, b in shown)  # 🔥's orange


def card_with_names(card: ResultCard, first: list[str], second: list[str]) -> ResultCard:
    a, b = card.teams
    return replace(card, teams=(replace(a, names=tuple(first)), replace(b, names=tuple(second))))


def test_without_the_fallback_fonts_a_name_loses_only_what_no_font_has(
    no_fallback_fonts: None, tr: Translator
) -> None:
    assert pictures.drawable("Аня 🐐") == "Аня"
    assert pictures.drawable("🔥Макс🔥") == "Макс"
    assert pictures.drawable("А 🐐 Б") == "А Б"  # no gap of two spaces left
    game = table(YardGame(finished_series(1)))
    game.seats = players(["Аня 🐐", "王", "🔥Макс🔥", "مريم"])
    card = result_card(game, tr, "ru")
    assert card is not None
    # Seat 1 (王) has nothing left: "Игрок 2", never an empty name or a box.
    assert card.teams[0].names == ("Аня", "Макс") and card.teams[1].names == ("Игрок 2", "مريم")
    for name in (*card.teams[0].names, *card.teams[1].names):
        assert all(ord(c) in pictures._chars(Face.MAIN) for c in name)
    assert draw(card).startswith(b"\x89PNG")


def test_a_discord_name_is_drawn_as_typed_not_escaped(tr: Translator) -> None:
    """Regression: the picture drew Discord's markdown escapes (``\\*Hana\\_x\\*``)."""
    game = table(YardGame(finished_series(1)))
    game.seats = players(["*Hana_x*", "Бо", "Ва", "Гл"], Platform.DISCORD)
    card = result_card(game, tr, "ru")
    assert card is not None and card.teams[0].names[0] == "*Hana_x*"


@pytest.mark.parametrize(
    ("face", "first", "last"),
    [(Face.MAIN, 0x20, 0x3000), (Face.MAIN, 0x1D400, 0x1D800), (Face.CJK, 0x2E80, 0xFFF0)],
)
def test_the_cmap_read_agrees_with_the_drawing_over_a_range(
    face: Face, first: int, last: int
) -> None:
    # No character of the read cmap draws the font's box; characters not in it draw
    # the box (or, for a combining mark or a Hangul syllable, what HarfBuzz makes of
    # it: a mark on a dotted circle, the jamo: left out all the same, never a box).
    if face is Face.MAIN:
        font = ImageFont.truetype(str(FONTS / "DejaVuSans.ttf"), 16)
    else:
        font = pictures._fallback(face, 16)
    box = mask(font, NOTDEF)
    chars = pictures._chars(face)
    sample = [c for c in range(first, last, 37) if not 0xD800 <= c <= 0xDFFF]
    boxes = {c for c in sample if mask(font, chr(c)) == box}
    assert not {hex(c) for c in boxes & chars}
    assert boxes or face is Face.CJK  # the check can fail: DejaVu lacks many
    assert len(boxes) + len(chars & set(sample)) >= 0.9 * len(sample)


def test_a_rating_change_stays_after_an_arabic_name() -> None:
    """Regression: the bidi algorithm drew ``مريم  -12`` as ``12-  مريم``."""
    font = ImageFont.truetype(str(FONTS / "DejaVuSans.ttf"), 30)
    line = pictures.name_line("مريم", -12)
    width = font.getlength(line)
    change = font.getlength("-12")

    def drawn(text: str, x: float) -> Image.Image:
        image = Image.new("L", (round(width) + 40, 60))
        ImageDraw.Draw(image).text((20 + x, 40), text, font=font, fill=255, anchor="ls")
        return image.crop((round(20 + width - change), 0, round(20 + width), 60))

    assert drawn(line, 0).tobytes() == drawn("-12", width - change).tobytes()
    assert drawn("مريم  -12", 0).tobytes() != drawn("-12", width - change).tobytes()
    assert pictures.drawable("А 🐐 Б") == "А 🐐 Б"


# --- A Swiss evening's final standings -----------------------------------------------------


def evening() -> Event:
    """Eight pairs after three rounds: pair 1 won all three tables, pair 2 two."""

    def pair(n: int) -> Team:
        people = (f"P{n}a", f"P{n}b")
        return Team(n, tuple(Player(UserRef(Platform.TELEGRAM, p), p) for p in people))

    results = [  # (round, team_a, team_b, winner)
        (1, 1, 5, 1), (1, 2, 6, 2), (1, 3, 7, 7), (1, 4, 8, 8),
        (2, 1, 2, 1), (2, 7, 8, 7), (2, 3, 5, 3), (2, 4, 6, 6),
        (3, 1, 7, 1), (3, 2, 3, 2), (3, 6, 8, 8), (3, 4, 5, 5),
    ]  # fmt: skip
    tables = tuple(
        EventTable(r, n, a, b, 10 * r + n, TableResult.A if w == a else TableResult.B)
        for n, (r, a, b, w) in enumerate(results, 1)
    )
    chat, opener = ChatRef(Platform.TELEGRAM, "-1"), UserRef(Platform.TELEGRAM, "P1a")
    teams = tuple(pair(n) for n in range(1, 9))
    return Event(1, chat, opener, "yard", rounds=3, round=3, state=EventState.FINISHED,
                 teams=teams, tables=tables)  # fmt: skip


def test_the_final_standings_picture_shows_the_first_places_and_no_score_between(
    tr: Translator,
) -> None:
    card = final_card(evening(), tr, "ru")
    assert card is not None
    first, second = card.teams
    assert (first.names, first.score, first.label) == (("P1a", "P1b"), 3, "Место 1")
    assert second.score == 2 and second.label.startswith("Место")
    assert card.footer.startswith("3.") and card.separator == ""
    png = final_picture(evening(), tr, "ru")
    assert png is not None
    image = Image.open(io.BytesIO(png)).convert("RGB")
    assert image.size == SIZE
    # Between the two points nothing is drawn (a game's picture has its colon there).
    between = image.crop((SIZE[0] // 2 - 20, 230, SIZE[0] // 2 + 20, 300))
    assert len(between.getcolors() or []) == 1
    game = Image.open(io.BytesIO(draw(replace(card, separator=":")))).convert("RGB")
    assert len(game.crop((SIZE[0] // 2 - 20, 230, SIZE[0] // 2 + 20, 300)).getcolors() or []) > 1
