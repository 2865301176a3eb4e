"""The lobby's rules: ``/kozel classic``, the rule set and its house rules chosen by the
creator, each a button built from the rule set's options model; forged settings
refused with nothing changed."""

from __future__ import annotations

import pytest

from bot import presenters
from bot.codec import MAX_TOKEN_BYTES, Command, Verb, decode, encode
from bot.i18n import Translator
from bot.interactions import Interactions
from bot.models import Game, GameStatus
from bot.options import PAGE_OPTIONS, Option, option_arg, option_pages, options_of
from bot.outputs import PressReply
from bot.presenters import MAX_ROW, MAX_ROWS
from bot.presses import Pressed
from core.classic.options import ClassicOptions
from tests.bot.conftest import ALICE, BOB, CHAT, PLAYERS

HERE = Pressed(CHAT)


@pytest.fixture(scope="module")
def tr() -> Translator:
    return Translator.from_dir()


@pytest.fixture
def ui(quick_ui: Interactions) -> Interactions:
    return quick_ui


async def setting(ui: Interactions, game: Game, arg: str, user: object = ALICE) -> PressReply:
    token = encode(Command(Verb.SETTING, game.id, game.version, arg))
    return await ui.press(user, token, where=HERE)  # type: ignore[arg-type]


def lobby_of(ui: Interactions, game: Game) -> presenters.Screen:
    return presenters.lobby(game, ui.tr, game.settings.locale)


def assert_fits(screen: presenters.Screen) -> None:
    """Discord's 5 rows of 5 buttons; every token within the codec's 64 bytes."""
    assert len(screen.rows) <= MAX_ROWS, [len(row) for row in screen.rows]
    for row in screen.rows:
        assert 0 < len(row) <= MAX_ROW
        for button in row:
            assert button.token is not None and len(button.token.encode()) <= MAX_TOKEN_BYTES
            decode(button.token)


def option_rows(screen: presenters.Screen) -> list[presenters.Button]:
    """The option buttons of a house-rules page (between the presets and the pages)."""
    return [
        button
        for button in screen.buttons
        if button.token is not None and decode(button.token).arg.startswith("o")
    ]


def setting_args(screen: presenters.Screen) -> list[str]:
    return [
        decode(button.token).arg
        for button in screen.buttons
        if button.token is not None and decode(button.token).verb is Verb.SETTING
    ]


@pytest.mark.parametrize("word", ["classic", "Classic", "хвалёный", "Хвалёный козёл"])
async def test_kozel_classic_opens_a_classic_lobby(ui: Interactions, word: str) -> None:
    reply = await ui.kozel(CHAT, ALICE, rules=word)
    assert reply.alert is None and reply.screen is None and reply.game is not None
    assert reply.game.settings.rule_set == "classic" and reply.game.settings.options == {}
    assert reply.game.status is GameStatus.LOBBY
    lobby = lobby_of(ui, reply.game)
    assert ui.tr.t("ru", "rules-name-classic") in lobby.text
    assert ui.tr.t("ru", "classic-options-default") in lobby.text


async def test_kozel_yard_and_plain_kozel_open_the_default_rules(ui: Interactions) -> None:
    reply = await ui.kozel(CHAT, ALICE, rules="yard")
    assert reply.game is not None and reply.game.settings.rule_set == "yard"
    await ui.service.cancel(reply.game.id, None, ALICE.ref)
    ui.service.default_rule_set = "classic"
    plain = await ui.kozel(CHAT, ALICE)
    assert plain.game is not None and plain.game.settings.rule_set == "classic"


@pytest.mark.parametrize(
    ("word", "named"), [("poker", True), ("all", True), ("classic yard", False), ("1", True)]
)
async def test_kozel_with_unknown_rules_opens_nothing_and_says_why(
    ui: Interactions, tr: Translator, word: str, named: bool
) -> None:
    reply = await ui.kozel(CHAT, ALICE, rules=word)
    assert reply.game is None and reply.screen is not None
    if named:
        said = tr.t("ru", "err-no-such-rules", word=word, yard="yard", classic="classic")
    else:  # two words: not repeated, the rules there are are listed
        said = tr.t("ru", "err-no-such-rules-unnamed", yard="yard", classic="classic")
    assert reply.screen.text.startswith(said)
    assert tr.t("ru", "help-text", **presenters.command_args(CHAT.platform, tr, "ru")) in (
        reply.screen.text
    )
    assert await ui.service.open_game(CHAT) is None


async def test_the_creator_chooses_the_rules_and_every_house_rule(
    ui: Interactions, tr: Translator
) -> None:
    reply = await ui.kozel(CHAT, ALICE)
    game = reply.game
    assert game is not None and game.settings.rule_set == "yard"
    lobby = lobby_of(ui, game)
    assert_fits(lobby)
    assert "rclassic" in setting_args(lobby) and "po" not in setting_args(lobby)  # yard: none
    game = (await setting(ui, game, "rclassic")).game  # type: ignore[assignment]
    assert game is not None and game.settings.rule_set == "classic"
    lobby = lobby_of(ui, game)
    assert_fits(lobby)
    assert {"ryard", "po"} <= set(setting_args(lobby))
    game = (await setting(ui, game, "po")).game  # type: ignore[assignment]
    assert game is not None and game.settings.lobby_page == "o"
    page = lobby_of(ui, game)
    assert_fits(page)
    assert tr.t("ru", "lobby-house-rules-hint") in page.text
    assert page.buttons[-1].label == tr.t("ru", "lobby-back")
    # Every option, every value: press each button until it comes back round, page by
    # page (the presets' row first, two options to a row, the pages and "back" last).
    options = options_of("classic")
    assert [o.name for o in options] == list(ClassicOptions.model_fields)
    for index, option in enumerate(options):
        page = option_pages("classic")[index // PAGE_OPTIONS]
        game = (await setting(ui, game, "p" + page)).game  # type: ignore[assignment]
        assert game is not None and game.settings.lobby_page == page
        assert_fits(lobby_of(ui, game))
        # praise one_by_one needs a trump suit: its button skips it without one.
        reachable = [v for v in option.values if v != "one_by_one"]
        seen = []
        for _ in reachable:
            button = option_rows(lobby_of(ui, game))[index % PAGE_OPTIONS]
            seen.append(button.label)
            pressed = await setting(ui, game, decode(button.token or "").arg)
            assert pressed.alert is None and pressed.game is not None
            game = pressed.game
        assert len(set(seen)) == len(reachable), seen  # each value has its words
        assert game.settings.options == {}  # round again: the default, kept as none
    # Options that differ from the default show in words on the lobby and the table.
    game = await _choose(ui, game, ("praise", "mirror"), ("trump_suit", "H"), ("redeal", False))
    assert game.settings.options == {"praise": "mirror", "trump_suit": "H", "redeal": False}
    words = presenters.rule_presenter("classic").option_lines(game, tr, "ru")[0]
    for name, value in game.settings.options.items():
        assert presenters.rule_presenter("classic").option_word(name, value, tr, "ru") in words
    assert words in lobby_of(ui, game).text
    assert words in lobby_of(ui, await ui.service.storage.load_game(game.id)).text  # type: ignore[arg-type]
    game = (await setting(ui, game, "p")).game  # type: ignore[assignment]
    assert game is not None and game.settings.lobby_page == ""
    for index, user in enumerate(PLAYERS):
        token = encode(Command(Verb.JOIN, game.id, game.version, "AB"[index % 2]))
        game = (await ui.press(user, token, where=HERE)).game  # type: ignore[assignment]
    started = await ui.press(ALICE, encode(Command(Verb.START, game.id, game.version)), where=HERE)
    assert started.game is not None and started.game.status is GameStatus.PLAYING
    played = started.game.play.options
    assert isinstance(played, ClassicOptions)
    assert played == ClassicOptions.from_json(
        {"praise": "mirror", "trump_suit": "H", "redeal": False}
    )
    table = presenters.table(started.game, tr, "ru", 0.0)
    assert words in table.text and tr.t("ru", "rules-name-classic") in table.text


async def _choose(ui: Interactions, game: Game, *choices: tuple[str, object]) -> Game:
    by_name = {option.name: option for option in options_of(game.settings.rule_set)}
    for name, value in choices:
        reply = await setting(ui, game, option_arg(by_name[name], value))
        assert reply.alert is None and reply.game is not None
        game = reply.game
    return game


async def test_a_new_rule_set_starts_from_its_defaults(ui: Interactions) -> None:
    game = (await ui.kozel(CHAT, ALICE, rules="classic")).game
    assert game is not None
    game = await _choose(ui, game, ("kocherga", False))
    assert game.settings.options == {"kocherga": False}
    game = (await setting(ui, game, "ryard")).game  # type: ignore[assignment]
    assert game is not None and game.settings.options == {} and game.settings.rule_set == "yard"
    game = (await setting(ui, game, "rclassic")).game  # type: ignore[assignment]
    assert game is not None and game.settings.options == {}


@pytest.mark.parametrize(
    "arg",
    [
        "rpoker",
        "r",
        "okocherga2",
        "okocherga",
        "onothing1",
        "otrumpsuit9",
        "opraise99",
        "pz",
        "x1",
        "OKOCHERGA1",
    ],
)
async def test_forged_settings_are_refused_and_change_nothing(
    ui: Interactions, tr: Translator, arg: str
) -> None:
    game = (await ui.kozel(CHAT, ALICE, rules="classic")).game
    assert game is not None
    before = (game.version, game.settings)
    reply = await setting(ui, game, arg)
    assert reply.alert == tr.t("ru", "err-bad-setting")
    after = await ui.service.game(game.id)
    assert (after.version, after.settings) == before


async def test_yard_has_no_options_page_and_no_option(ui: Interactions, tr: Translator) -> None:
    game = (await ui.kozel(CHAT, ALICE, rules="yard")).game
    assert game is not None
    for arg in ("po", "okocherga0", "opraise1"):
        reply = await setting(ui, game, arg)
        assert reply.alert == tr.t("ru", "err-bad-setting"), arg
    assert (await ui.service.game(game.id)).version == game.version


async def test_only_the_creator_changes_the_rules(ui: Interactions, tr: Translator) -> None:
    game = (await ui.kozel(CHAT, ALICE, rules="classic")).game
    assert game is not None
    join = encode(Command(Verb.JOIN, game.id, game.version, "B"))
    game = (await ui.press(BOB, join, where=HERE)).game  # type: ignore[assignment]
    assert game is not None
    for arg in ("ryard", "po", "okocherga0"):
        reply = await setting(ui, game, arg, user=BOB)
        assert reply.alert == tr.t("ru", "err-not-creator"), arg
    stale = encode(Command(Verb.SETTING, game.id, game.version - 1, "ryard"))
    assert (await ui.press(ALICE, stale, where=HERE)).alert == tr.t("ru", "err-stale")
    after = await ui.service.game(game.id)
    assert after.version == game.version and after.settings == game.settings


async def test_the_lobby_fits_with_every_seat_and_on_every_page(ui: Interactions) -> None:
    game = (await ui.kozel(CHAT, ALICE, rules="classic")).game
    assert game is not None
    for user, team in ((ALICE, "A"), (BOB, "B")):
        token = encode(Command(Verb.JOIN, game.id, game.version, team))
        game = (await ui.press(user, token, where=HERE)).game  # type: ignore[assignment]
    for team in "AB":
        token = encode(Command(Verb.ADD_COMPUTER, game.id, game.version, team))
        game = (await ui.press(ALICE, token, where=HERE)).game  # type: ignore[assignment]
    assert game is not None and game.is_full
    assert_fits(lobby_of(ui, game))
    game = (await setting(ui, game, "po")).game  # type: ignore[assignment]
    assert game is not None
    assert_fits(lobby_of(ui, game))


def test_options_are_read_from_the_model() -> None:
    praise, kocherga, *_, trump_suit, follow, trump_lead = options_of("classic")[:9]
    kinds = ("simple", "pants", "mirror", "choose", "one_by_one")
    assert praise == Option("praise", kinds, "simple")
    assert kocherga == Option("kocherga", (False, True), True)
    assert trump_suit == Option("trump_suit", (None, "C", "S", "H", "D"), None)
    assert follow.values == ("suit_first", "any_trump")
    assert trump_lead.values == ("declarer", "team", "non_dealers")
    assert kocherga.next_value(True) is False and trump_suit.next_value("D") is None


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_every_value_of_every_option_has_its_words(tr: Translator, locale: str) -> None:
    """In both languages, distinct for each value of an option, fitting a button."""
    words = presenters.rule_presenter("classic")
    for option in options_of("classic"):
        labels = [words.option_word(option.name, value, tr, locale) for value in option.values]
        assert len(set(labels)) == len(labels), labels
        for label in labels:
            assert not label.startswith("classic-option") and 0 < len(label) <= 64, label
