"""``/rules`` and the terminal's rules tell the game a table's options make (issue 26:
who deals, who leads, the trumps, eggs, Люся), in both languages."""

from __future__ import annotations

import pytest

from bot import presenters
from bot.i18n import Translator
from bot.models import Platform
from bot.options import presets_of

LANGUAGES = ("ru", "en")
PRESET = dict(presets_of("classic"))["001"]

#: Each option the rules text tells, with a value other than its default.
TOLD = [
    ("kocherga", False),
    ("trump_suit", "H"),
    ("trump_roulette", False),
    ("dealers", "clockwise"),
    ("first_leader", "ad_holder"),
    ("deal_by", 4),
    ("eggs", "replay"),
    ("lucy", "win"),
    ("trump_lead", "team"),
    ("trump_lead", "non_dealers"),
    ("ace_ban", False),
    ("last_trump", False),
    ("redeal", False),
    ("redeal_queens", True),
]


@pytest.fixture(scope="module")
def tr() -> Translator:
    return Translator.from_dir()


def rules(tr: Translator, locale: str, options: dict[str, object], **kw: object) -> str:
    return presenters.rules(tr, locale, "classic", options=options, **kw).text  # type: ignore[arg-type]


@pytest.mark.parametrize("locale", LANGUAGES)
@pytest.mark.parametrize(("name", "value"), TOLD)
def test_every_told_option_changes_the_rules_text(
    tr: Translator, locale: str, name: str, value: object
) -> None:
    usual = rules(tr, locale, {})
    told = rules(tr, locale, {name: value})
    assert told != usual and "{" not in told and "classic-" not in told


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        (
            "ru",
            (
                "Ниже — ♦ бубны, в каждом коне",
                "по четыре",
                "ходит держатель Т♦",
                "сдаёт следующий по часовой стрелке (после яиц — тот же)",
                "только пара, которая не сдавала",
                "нет дам, кроме Д♦",
                "Кочерги нет",
                "тот же сдающий сдаёт снова",
                "если пар у них не было — игра окончена",
                "По одной:",
                "/kozel classic 001",
            ),
        ),
        (
            "en",
            (
                "Then ♦ diamonds, in every deal",
                "four at a time",
                "the A♦ holder leads",
                "the next player clockwise deals (after eggs the same one)",
                "Only the pair that did not deal leads trumps",
                "without queens but Q♦",
                "No kocherga",
                "the same dealer deals again",
                "if they had none, the game is over",
                "One by one:",
                "/kozel classic 001",
            ),
        ),
    ],
)
def test_the_preset_001s_rules_text(tr: Translator, locale: str, words: tuple[str, ...]) -> None:
    text = rules(tr, locale, PRESET)
    for word in words:
        assert word in text, word
    for unwanted in ("кочерга 7♣", "kocherga 7♣", "рулетка", "roulette", "масть нового"):
        assert unwanted not in text
    discord = rules(tr, locale, PRESET, platform=Platform.DISCORD)
    assert len(discord) <= 1900  # Discord: 2000 a message


def test_a_table_without_options_keeps_the_usual_text(tr: Translator) -> None:
    for locale in LANGUAGES:
        tg = presenters.command_args(Platform.TELEGRAM, tr, locale)
        assert rules(tr, locale, {}) == tr.t(locale, "rules-classic", **tg)
