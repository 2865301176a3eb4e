"""The wording of the play log, the table and the results (issue 23, point 21): each
phrase as a Russian reader expects it, numbers agreeing with their nouns, cards with
the Russian letters of their ranks; the English fixes beside them."""

from __future__ import annotations

import random

import pytest

from bot import presenters
from bot.i18n import Translator
from bot.models import ChatRef, Game, GameStatus, Platform, Seat, SeatKind, TableSettings, UserRef
from bot.presenters import classic as cp
from core.cards import CARDS, Suit
from core.classic.events import DeckCut, Praised, TrumpNamed, TrumpOffered
from core.classic.game import ClassicGame
from core.classic.options import Praise
from core.classic.ruleset import ClassicGameAdapter

#: Seat 1 is «Бот Петя», seat 3 «Бот Вася»; seat 0 the viewer.
COMPUTERS = {1: "bot-name-2", 3: "bot-name-1"}


@pytest.fixture(scope="module")
def tr() -> Translator:
    return Translator.from_dir()


def classic_table() -> Game:
    play = ClassicGame()
    game = Game(
        id=1,
        chat=ChatRef(Platform.TELEGRAM, "-100123"),
        creator=UserRef(Platform.TELEGRAM, "100"),
        status=GameStatus.PLAYING,
        settings=TableSettings(rule_set="classic", options=play.options.to_json()),
        play=ClassicGameAdapter(play),
    )
    game.seats = [
        Seat(SeatKind.COMPUTER, COMPUTERS[seat])
        if seat in COMPUTERS
        else Seat(SeatKind.HUMAN, f"Игрок {seat}", UserRef(Platform.TELEGRAM, str(100 + seat)))
        for seat in range(4)
    ]
    return game


def line(game: Game, event: object, tr: Translator, locale: str = "ru") -> str | None:
    return cp.event_line(game, event, tr, locale, viewer=0)


def test_the_last_trump_is_offered_not_given(tr: Translator) -> None:
    """Regression: «Бот Петя отдаёт последний козырь»: the partner may refuse it."""
    game = classic_table()
    assert line(game, TrumpOffered(1), tr) == "Бот Петя предлагает напарнику последний козырь"
    assert line(game, TrumpOffered(0), tr) == "Вы предлагаете напарнику последний козырь"
    assert tr.t("ru", "classic-offered", name="Бот Петя") == (
        "Бот Петя предлагает напарнику последний козырь"
    )


def test_praise_and_no_trump_read_as_russian(tr: Translator) -> None:
    """Regression: «Хвалитесь вы: простая», «назначает козырь: Бескозырка»."""
    game = classic_table()
    assert line(game, Praised(0, Praise.SIMPLE), tr) == "Вы хвалитесь: простая"
    assert tr.t("ru", "classic-declarer-you", kind="простая") == "Вы хвалитесь: простая"
    assert line(game, TrumpNamed(3, None), tr) == "Бот Вася назначает козырь: бескозырка"
    assert line(game, TrumpNamed(3, None), tr, "en") == "Bot Bob names the trump: no trump"
    assert line(game, TrumpNamed(3, Suit.HEARTS), tr) == "Бот Вася назначает козырь: ♥ черви"


@pytest.mark.parametrize(
    ("count", "words"),
    [(1, "1 карту"), (2, "2 карты"), (5, "5 карт"), (11, "11 карт"), (13, "13 карт"),
     (21, "21 карту"), (22, "22 карты"), (25, "25 карт")],
)  # fmt: skip
def test_the_cut_says_how_many_cards(tr: Translator, count: int, words: str) -> None:
    """Regression: «Вы сдвигаете 13»."""
    game = classic_table()
    assert line(game, DeckCut(0, count), tr) == f"Вы сдвигаете колоду на {words}"
    assert line(game, DeckCut(1, count), tr) == f"Бот Петя сдвигает колоду на {words}"
    english = "card" if count == 1 else "cards"
    assert line(game, DeckCut(0, count), tr, "en") == f"You cut {count} {english}"


@pytest.mark.parametrize(
    ("count", "words"), [(1, "1 пару"), (2, "2 пары"), (4, "4 пары"), (5, "5 пар")]
)
def test_a_team_gets_its_pairs(tr: Translator, count: int, words: str) -> None:
    """Regression: «Команда B открывает 1 пару»."""
    team = tr.t("ru", "team-b")
    assert tr.t("ru", "classic-result-pairs", team=team, count=count) == (
        f"Команда B получает {words}."
    )


def test_english_limits_name_what_they_count(tr: Translator) -> None:
    """Regression: "(12 loses)", "Pairs: … (6 win)"."""
    assert tr.t("en", "table-loss", a=0, b=4, limit=12) == (
        "Loss points: A 0 · B 4 (12 points lose)"
    )
    assert tr.t("en", "result-loss", a=0, b=4, limit=12).endswith("(12 points lose)")
    assert tr.t("en", "classic-pairs", a=1, b=2, limit=6) == "Pairs: A 1 · B 2 (6 pairs win)"


@pytest.mark.parametrize(("locale", "theirs"), [("ru", "JQKA"), ("en", "ВДКТ")])
def test_cards_read_in_each_readers_language_on_buttons_and_table(
    tr: Translator, locale: str, theirs: str
) -> None:
    """В, Д, К, Т where the reader's language is Russian, J, Q, K, A in English: on
    the hand's buttons, in its text and on the table."""
    game = Game(
        id=1,
        chat=ChatRef(Platform.TELEGRAM, "-100123"),
        creator=UserRef(Platform.TELEGRAM, "100"),
        status=GameStatus.PLAYING,
    )
    game.seats = [
        Seat(SeatKind.HUMAN, f"P{seat}", UserRef(Platform.TELEGRAM, str(100 + seat)))
        for seat in range(4)
    ]
    deck = list(CARDS)
    random.Random(5).shuffle(deck)
    game.play.series.deal_from(deck, 10, dealer=3)
    deal = game.play.series.current
    assert deal is not None
    courts = 0
    for seat in range(4):
        screen = presenters.hand(game, seat, 0, tr, locale)
        own = {presenters.card_label(card, locale) for card in deal.hand(seat)}
        labels = {b.label for b in screen.buttons if b.label[-1] in "♣♠♥♦"}
        assert own <= labels and all(label in screen.text for label in own)
        courts += sum(1 for card in deal.hand(seat) if card.rank.letter in "JQKA")
        table = presenters.table(game, tr, locale, 0.0).text
        for text in (screen.text, *labels, table):
            assert not any(f"{letter}{suit}" in text for letter in theirs for suit in "♣♠♥♦")
    assert courts  # the hands hold court cards and aces to read
