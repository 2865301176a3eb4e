"""The result as a picture (issue 25): produced, a PNG of the right size, drawn from
the game's public result only (no card, hidden or not), the same for the same result."""

from __future__ import annotations

import io
import random
import re

import pytest
from PIL import Image

from bot.i18n import Translator
from bot.models import ChatRef, Game, GameStatus, Platform, Seat, SeatKind, TableSettings, UserRef
from bot.pictures import SIZE, draw, result_card, result_picture
from bot.presenters.common import cards_label
from core.cards import CARDS
from core.ruleset import get_rule_set
from core.yard.ruleset import YardGame
from core.yard.series import Series


def finished_series(seed: int) -> Series:
    """A yard series played to its end with the first legal action each time."""
    series = Series(first_dealer=3)
    rng = random.Random(seed)
    while not series.is_over:
        series.deal(rng)
        deal = series.current
        assert deal is not None
        while not deal.is_over:
            series.apply(series.legal_actions()[0])
    return series


def table(play: object) -> Game:
    seats: list[Seat | None] = [
        Seat(SeatKind.HUMAN, name, UserRef(Platform.TELEGRAM, str(n)))
        for n, name in enumerate(["Аня", "Борис", "Вера", "Глеб"])
    ]
    return Game(
        1,
        ChatRef(Platform.TELEGRAM, "-1"),
        UserRef(Platform.TELEGRAM, "0"),
        status=GameStatus.FINISHED,
        settings=TableSettings(),
        seats=seats,
        play=play,  # type: ignore[arg-type]
    )


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
