"""The locales: the same ids in every language, every message formats, plurals."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest
from fluent.runtime import FluentBundle
from fluent.syntax import FluentParser
from fluent.syntax import ast as fluent_ast

from bot.errors import ErrorCode
from bot.event_ui import WORDS
from bot.i18n import Translator, default_locales_dir, normalize_locale
from bot.models import Platform
from bot.presenters import help as help_screen
from bot.presenters.common import COMMANDS, command_args
from core.classic.errors import ClassicReason
from core.errors import Reason
from core.yard.errors import YardReason

LOCALES_DIR = default_locales_dir()
LANGUAGES = ("ru", "en")


def _resource(locale: str) -> fluent_ast.Resource:
    text = "\n".join(
        path.read_text(encoding="utf-8") for path in sorted((LOCALES_DIR / locale).glob("*.ftl"))
    )
    return FluentParser().parse(text)


def _messages(locale: str) -> dict[str, fluent_ast.Message]:
    return {
        entry.id.name: entry
        for entry in _resource(locale).body
        if isinstance(entry, fluent_ast.Message)
    }


def _variables(node: object) -> Iterator[str]:
    """Every ``$variable`` a message uses, found by walking its AST."""
    if isinstance(node, fluent_ast.VariableReference):
        yield node.id.name
    if isinstance(node, fluent_ast.BaseNode):
        for value in vars(node).values():
            yield from _variables(value)
    elif isinstance(node, list):
        for item in node:
            yield from _variables(item)


@pytest.fixture(scope="module")
def tr() -> Translator:
    return Translator.from_dir(LOCALES_DIR)


def test_both_languages_are_loaded(tr: Translator) -> None:
    assert set(tr.locales) == set(LANGUAGES)
    assert Path(__file__).resolve().parents[2] / "locales" == LOCALES_DIR


@pytest.mark.parametrize("locale", LANGUAGES)
def test_no_syntax_errors(locale: str) -> None:
    junk = [entry.content for entry in _resource(locale).body if isinstance(entry, fluent_ast.Junk)]
    assert junk == []


@pytest.mark.parametrize("locale", LANGUAGES)
def test_no_duplicate_ids(locale: str) -> None:
    ids = [e.id.name for e in _resource(locale).body if isinstance(e, fluent_ast.Message)]
    assert len(ids) == len(set(ids))


def test_same_ids_in_every_language() -> None:
    ru, en = (set(_messages(locale)) for locale in LANGUAGES)
    assert ru - en == set(), "only in ru"
    assert en - ru == set(), "only in en"


def test_same_variables_in_every_language() -> None:
    ru, en = (_messages(locale) for locale in LANGUAGES)
    different = {
        msg_id: (set(_variables(ru[msg_id])), set(_variables(en[msg_id])))
        for msg_id in ru
        if set(_variables(ru[msg_id])) != set(_variables(en.get(msg_id)))
    }
    assert different == {}


@pytest.mark.parametrize("locale", LANGUAGES)
@pytest.mark.parametrize("sample", [0, 1, 3, 22, 111, 2.5, "Вася"])
def test_every_message_formats_without_errors(
    tr: Translator, locale: str, sample: int | float | str
) -> None:
    bundle: FluentBundle = tr.bundle(locale)
    for msg_id, message in _messages(locale).items():
        assert message.value is not None, msg_id
        args = dict.fromkeys(_variables(message), sample)
        pattern = bundle.get_message(msg_id).value
        assert pattern is not None, msg_id
        result, errors = bundle.format_pattern(pattern, args)
        assert errors == [], (msg_id, errors)
        text = str(result)
        assert text.strip(), msg_id
        assert "\u2068" not in text and "\u2069" not in text, msg_id  # no isolation marks


RU_CARDS = {
    1: "1 карта",
    2: "2 карты",
    5: "5 карт",
    11: "11 карт",
    21: "21 карта",
    22: "22 карты",
    25: "25 карт",
    111: "111 карт",
}


@pytest.mark.parametrize(("count", "expected"), RU_CARDS.items())
def test_russian_plural_table(tr: Translator, count: int, expected: str) -> None:
    assert tr.t("ru", "cards-count", count=count) == expected
    assert tr.t("ru", "table-stock", count=count) == f"В колоде {expected}"


@pytest.mark.parametrize(
    ("msg_id", "arg", "forms"),
    [
        ("result-deal-loss", "loss", ("очко", "очка", "очков") * 2),
        ("top-row", "won", ("победа", "победы", "побед") * 2),
        ("stats-goats", "goat", ("раз", "раза", "раз") * 2),
        ("hand-your-turn-answer", "count", ("карту", "карты", "карт") * 2),
        (
            "reminder-turn",
            "seconds",
            ("секунда", "секунды", "секунд", "секунда", "секунды", "секунд"),
        ),
    ],
)
def test_russian_plurals_of_other_words(
    tr: Translator, msg_id: str, arg: str, forms: tuple[str, ...]
) -> None:
    for count, form in zip((1, 2, 5, 21, 22, 25), forms, strict=True):
        args: dict[str, str | int] = {arg: count, "name": "Вася", "team": "A", "place": 1}
        text = tr.t("ru", msg_id, **args)
        assert f"{count} {form}" in text, text


def test_russian_reminder_verb_agrees(tr: Translator) -> None:
    assert "Осталась 1 секунда" in tr.t("ru", "reminder-turn", name="Вася", seconds=1)
    assert "Остались 3 секунды" in tr.t("ru", "reminder-turn", name="Вася", seconds=3)
    assert "Осталось 15 секунд" in tr.t("ru", "reminder-turn", name="Вася", seconds=15)


@pytest.mark.parametrize(("count", "expected"), [(1, "1 card"), (2, "2 cards"), (21, "21 cards")])
def test_english_plurals(tr: Translator, count: int, expected: str) -> None:
    assert tr.t("en", "cards-count", count=count) == expected


@pytest.mark.parametrize("locale", LANGUAGES)
def test_durations(tr: Translator, locale: str) -> None:
    ru = locale == "ru"
    assert tr.t(locale, "duration", minutes=0, seconds=30) == ("30 сек." if ru else "30 s")
    assert tr.t(locale, "duration", minutes=2, seconds=0) == ("2 мин" if ru else "2 min")
    assert tr.t(locale, "duration", minutes=1, seconds=5) == ("1 мин 5 сек." if ru else "1 min 5 s")


@pytest.mark.parametrize("locale", LANGUAGES)
def test_every_error_code_and_reason_has_a_message(tr: Translator, locale: str) -> None:
    codes = [code.value for code in ErrorCode] + [reason.value for reason in Reason]
    codes += [reason.value for reason in YardReason]
    codes += [reason.value for reason in ClassicReason]
    missing = [code for code in codes if not tr.has(f"err-{code}", locale)]
    assert missing == []
    assert tr.has("err-generic", locale)


@pytest.mark.parametrize("locale", LANGUAGES)
def test_command_descriptions_fit_the_platforms(tr: Translator, locale: str) -> None:
    for name in COMMANDS:
        text = tr.t(locale, f"cmd-{name}")
        assert 1 <= len(text) <= 100 and text != f"cmd-{name}"


@pytest.mark.parametrize("platform", list(Platform))
@pytest.mark.parametrize("locale", LANGUAGES)
def test_the_help_names_every_command_and_how_to_play_a_challenge_or_open_an_event(
    tr: Translator, locale: str, platform: Platform
) -> None:
    args = command_args(platform, tr, locale)
    text = help_screen(tr, locale, platform=platform).text
    assert len(text) <= 2000  # Discord's message
    for name in COMMANDS:
        assert f"{args[name]} — " in text, name
    assert f"{args['kozel']} {args['challenge']} — " in text
    assert f"{args['top']} {args['challenge']} — " in text
    assert f"{args['event']} {args['open']}" in text
    # The words shown are the ones the commands take: Telegram's /kozel challenge and
    # /event open, Discord's options as registered (challenge: daily, words: open).
    if platform is Platform.DISCORD:
        option, value = args["challenge"].split(": ")
        assert (option, value) == (tr.t(locale, "cmd-option-challenge"), "daily")
        option, word = args["open"].split(": ")
        assert option == tr.t(locale, "cmd-option-event")
    else:
        assert (args["challenge"], args["open"]) == ("challenge", "open")
        word = args["open"]
    assert WORDS[word] == "open"


@pytest.mark.parametrize("locale", LANGUAGES)
def test_eight_computer_names(tr: Translator, locale: str) -> None:
    names = [tr.t(locale, f"bot-name-{i}") for i in range(1, 9)]
    assert len(set(names)) == 8 and all(tr.has(f"bot-name-{i}", locale) for i in range(1, 9))


def test_russian_words_of_the_game(tr: Translator) -> None:
    rules = tr.t("ru", "rules-yard")
    for word in ("козырь", "колод", "взятк", "заход", "бьют", "скидывают", "Молодка", "яйца"):
        assert word in rules, word
    assert "очки поражения" in rules and "козлы" in rules
    assert "пока нельзя" not in rules  # classic is played too


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        (
            "ru",
            ("32 карты", "кочерга", "Хвалёнка", "Штаны", "Зеркало", "Бескозырка", "пересдачу"),
        ),
        ("en", ("32 cards", "kocherga", "Praise", "Pants", "Mirror", "no trump", "redeal")),
    ],
)
def test_the_classic_rules_are_complete(
    tr: Translator, locale: str, words: tuple[str, ...]
) -> None:
    args = {"kozel": "/kozel", "classic": "classic", "rules": "/rules"}
    rules = tr.t(locale, "rules-classic", **args)
    for word in (*words, "6", "120", "/kozel classic"):
        assert word in rules, word
    more = (
        ("яйца", "Люся", "козлы", "хвостами")
        if locale == "ru"
        else ("eggs", "Lucy", "goats", "tails")
    )
    for word in more:
        assert word in rules, word
    assert "/kozel classic" in tr.t(locale, "help-text", **args, platform="telegram")
    discord = {
        "kozel": "/" + tr.t(locale, "cmd-name-kozel"),
        "classic": tr.t(locale, "rules-name-classic"),
    }
    assert len(tr.t(locale, "rules-classic", **(args | discord))) <= 1900  # Discord: 2000


def test_russian_pairs_agree(tr: Translator) -> None:
    forms = {1: "1 пару", 2: "2 пары", 5: "5 пар", 11: "11 пар", 21: "21 пару", 22: "22 пары"}
    for count, form in forms.items():
        assert form in tr.t("ru", "classic-result-pairs", team="A", count=count)
    assert "1 яичная пара ждёт" in tr.t("ru", "classic-egg-pairs", count=1)
    assert "3 яичные пары ждут" in tr.t("ru", "classic-egg-pairs", count=3)
    assert "25 яичных пар ждут" in tr.t("ru", "classic-egg-pairs", count=25)
    assert "111 конов" in tr.t("ru", "classic-game-over", deals=111)


# --- The translator -----------------------------------------------------------------


def test_fallback_to_the_other_language_then_to_the_id(caplog: pytest.LogCaptureFixture) -> None:
    tr = Translator.from_sources({"ru": "only-ru = по-русски", "en": "both = both"})
    assert tr.t("en", "only-ru") == "по-русски"
    assert tr.t("ru", "both") == "both"
    with caplog.at_level(logging.WARNING):
        assert tr.t("ru", "nowhere") == "nowhere"
    assert tr.has("only-ru") and not tr.has("only-ru", "en") and not tr.has("nowhere")


def test_missing_argument_is_logged_not_raised(caplog: pytest.LogCaptureFixture) -> None:
    tr = Translator.from_sources({"en": "hi = Hello, { $name }!"})
    with caplog.at_level(logging.WARNING, logger="bot.i18n"):
        text = tr.t("en", "hi")
    assert "Hello" in text
    assert any("hi" in record.getMessage() for record in caplog.records)


def test_unknown_locale_uses_the_default(tr: Translator) -> None:
    assert tr.t("de", "team-a") == "Team A"  # de -> en
    assert tr.t(None, "team-a") == "Команда A"  # the default, ru
    assert tr.t("ru-RU", "team-a") == "Команда A"


def test_broken_file_is_logged(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    (tmp_path / "en").mkdir()
    (tmp_path / "en" / "a.ftl").write_text("ok = fine\nbroken = { $\n", encoding="utf-8")
    with caplog.at_level(logging.ERROR, logger="bot.i18n"):
        tr = Translator.from_dir(tmp_path)
    assert tr.t("en", "ok") == "fine"
    assert caplog.records


@pytest.mark.parametrize(
    ("code", "expected"),
    [("ru", "ru"), ("ru-RU", "ru"), ("RU", "ru"), ("en", "en"), ("en-US", "en"), ("de", "en")],
)
def test_normalize_locale(code: str, expected: str) -> None:
    assert normalize_locale(code) == expected


# --- The translator's cache ------------------------------------------------------------

PLURAL_SAMPLES = (0, 1, 2, 3, 4, 5, 11, 12, 14, 21, 22, 25, 101, 111, 1000)


def _arg_sets(names: set[str]) -> Iterator[dict[str, str | int]]:
    """Argument sets for a message's variables: numbers for the Russian plural
    categories, words, and a mix."""
    ordered = sorted(names)
    for sample in PLURAL_SAMPLES:
        yield dict.fromkeys(ordered, sample)
    yield dict.fromkeys(ordered, "Вася")
    yield {name: (i * 7 + 1 if i % 2 else f"x{i}") for i, name in enumerate(ordered)}


def test_cached_texts_equal_uncached_ones(tr: Translator) -> None:
    """Every message with many arguments, in every language, formatted twice (the
    second time from the cache) as formatting without a cache does."""
    cached = Translator.from_dir(LOCALES_DIR, cache_size=100_000)
    plain = Translator.from_dir(LOCALES_DIR, cache_size=0)
    checked = 0
    for locale in (*LANGUAGES, "ru-RU", "en-GB", "de", None):
        messages = _messages(tr.resolve(locale))
        for msg_id, message in messages.items():
            for args in _arg_sets(set(_variables(message))):
                expected = plain.t(locale, msg_id, **args)
                assert cached.t(locale, msg_id, **args) == expected, (locale, msg_id, args)
                assert cached.t(locale, msg_id, **args) == expected, (locale, msg_id, args)
                checked += 1
    hits, kept = cached.cache_info()
    assert checked > 1000 and hits >= checked and kept <= checked
    assert plain.cache_info() == (0, 0)


@pytest.mark.parametrize(("count", "expected"), RU_CARDS.items())
def test_cached_russian_plurals(count: int, expected: str) -> None:
    """Plural forms stay right when other counts were cached first (either order)."""
    tr = Translator.from_dir(LOCALES_DIR)
    others = [n for n in RU_CARDS if n != count]
    for n in [*others, count, *reversed(others), count]:
        assert tr.t("ru", "cards-count", count=n) == RU_CARDS[n]
    assert tr.t("ru", "cards-count", count=count) == expected


def test_argument_order_does_not_matter() -> None:
    tr = Translator.from_sources({"en": "pair = { $a } and { $b }"})
    assert tr.t("en", "pair", a="x", b="y") == "x and y"
    assert tr.t("en", "pair", b="y", a="x") == "x and y"
    assert tr.t("en", "pair", b="x", a="y") == "y and x"
    assert tr.cache_info() == (1, 2)


def test_a_locale_switch_does_not_leak() -> None:
    tr = Translator.from_sources({"ru": "hi = Привет, { $name }!", "en": "hi = Hi, { $name }!"})
    for _ in range(2):  # the second round is served from the cache
        assert tr.t("ru", "hi", name="Вася") == "Привет, Вася!"
        assert tr.t("en", "hi", name="Вася") == "Hi, Вася!"
        assert tr.t("ru-RU", "hi", name="Вася") == "Привет, Вася!"
        assert tr.t("de", "hi", name="Вася") == "Hi, Вася!"
        assert tr.t(None, "hi", name="Вася") == "Привет, Вася!"
    en = Translator.from_sources({"ru": "hi = Привет!", "en": "hi = Hi!"}, default="en")
    assert (en.t(None, "hi"), en.t("uk", "hi"), en.t("ru", "hi")) == ("Hi!", "Hi!", "Привет!")
    assert (en.t(None, "hi"), en.t("uk", "hi"), en.t("ru", "hi")) == ("Hi!", "Hi!", "Привет!")


def test_the_cache_is_bounded_and_keeps_recent_texts() -> None:
    tr = Translator.from_sources({"en": "n = #{ $n }"}, cache_size=8)
    assert tr.t("en", "n", n=0) == "#0"
    for n in range(1, 100):
        assert tr.t("en", "n", n=n) == f"#{n}"
        assert tr.t("en", "n", n=0) == "#0"  # used all the time: never evicted
        assert tr.cache_info()[1] <= 8
    hits = tr.cache_info()[0]
    assert hits == 99  # every "#0" after the first
    assert tr.t("en", "n", n=99) == "#99" and tr.cache_info()[0] == hits + 1
    assert tr.t("en", "n", n=1) == "#1" and tr.cache_info()[0] == hits + 1  # long evicted
    tr.clear_cache()
    assert tr.cache_info() == (0, 0)


def test_no_cache() -> None:
    tr = Translator.from_sources({"en": "n = #{ $n }"}, cache_size=0)
    assert [tr.t("en", "n", n=1) for _ in range(3)] == ["#1"] * 3
    assert tr.cache_info() == (0, 0)


def test_arguments_that_may_format_apart_bypass_the_cache() -> None:
    """Floats and decimals equal to an int (or to each other) may format differently:
    they are never cached, nor looked up."""
    tr = Translator.from_sources({"en": "n = #{ $n }"})
    assert tr.t("en", "n", n=1) == "#1"
    plain = Translator.from_sources({"en": "n = #{ $n }"}, cache_size=0)
    for value in (1.0, 1.5, -0.0, 0.0, Decimal("1.50"), Decimal("1")):
        assert tr.t("en", "n", n=value) == plain.t("en", "n", n=value), value
    assert tr.cache_info() == (0, 1)
    assert tr.t("en", "n", n=None) == "#" and tr.t("en", "n", n=None) == "#"
    assert tr.cache_info() == (1, 2)


def test_errors_are_logged_every_time_not_cached(caplog: pytest.LogCaptureFixture) -> None:
    tr = Translator.from_sources({"en": "hi = Hello, { $name }!"})
    for _ in range(3):
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="bot.i18n"):
            assert "Hello" in tr.t("en", "hi")
            assert tr.t("en", "nowhere") == "nowhere"
        messages = [record.getMessage() for record in caplog.records]
        assert any("hi" in message for message in messages)
        assert any("nowhere" in message for message in messages)
    assert tr.cache_info() == (0, 0)


# --- Words ------------------------------------------------------------------------------


def _texts(locale: str) -> dict[str, str]:
    tr = Translator.from_dir(LOCALES_DIR)
    return {msg_id: tr.t(locale, msg_id) for msg_id in _messages(locale)}


def test_english_quotes_are_curly_and_russian_ones_are_guillemets() -> None:
    for msg_id, text in _texts("en").items():
        assert not {'"', "«", "»"} & set(text), (msg_id, text)
    assert "“🃏 My hand”" in _texts("en")["notice-dm-needed"] + _texts("en")["help-text"]
    for msg_id, text in _texts("ru").items():
        assert not {'"', "“", "”"} & set(text), (msg_id, text)


@pytest.mark.parametrize("locale", LANGUAGES)
def test_every_message_of_the_viewer_form_has_its_named_form(locale: str) -> None:
    """``<id>-you`` says to a player what ``<id>`` says of him by name, with the same
    other arguments, and never names him."""
    messages = _messages(locale)
    yours = [msg_id for msg_id in messages if msg_id.endswith("-you")]
    assert len(yours) >= 12
    for msg_id in yours:
        base = msg_id.removesuffix("-you")
        if base in ("hand-table", "console"):
            continue  # "вы" in the hand's summary of the table; the console's player
        assert base in messages, msg_id
        named = set(_variables(messages[base])) - {"name"}
        assert set(_variables(messages[msg_id])) == named, msg_id


@pytest.mark.parametrize(
    ("locale", "msg_id", "text"),
    [
        ("ru", "table-turn-you", "⏳ Ваш ход"),
        ("en", "table-turn-you", "⏳ Your turn"),
        ("ru", "console-move-molodka", "объявить молодку"),
        ("en", "console-move-molodka", "declare a molodka"),
    ],
)
def test_the_words_players_read(locale: str, msg_id: str, text: str) -> None:
    assert _texts(locale)[msg_id] == text
