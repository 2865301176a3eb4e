"""The preset 001's game (docs/rules/reference.md §2.16) through :class:`Interactions`: the
queen redeal offered as far as the asker's own hand shows, refused with one clear message
when the partner holds a queen (nothing changes), performed when the pair holds none; the
lobby's preset buttons and ``/kozel classic 001``."""

from __future__ import annotations

import pytest

from bot import presenters
from bot.codec import Command, Verb, decode, encode
from bot.i18n import Translator
from bot.interactions import Interactions
from bot.options import option_pages, presets_of
from bot.outputs import Target
from bot.ports import ChangeKind
from bot.presses import Pressed
from core.classic.actions import ClassicAction
from core.classic.cards import mask_of
from core.classic.dealing import redeal_qualifies
from core.classic.errors import ClassicReason
from core.classic.options import PRESETS
from tests.bot.conftest import ALICE, BOB, CHAT, PLAYERS
from tests.bot.test_classic_refusals import Table, assert_refused, classic_table, press, reason_of

HERE = Pressed(CHAT)
PRESET = dict(presets_of("classic"))["001"]


@pytest.fixture(scope="module")
def tr() -> Translator:
    return Translator.from_dir()


async def table_where(tr: Translator, wanted: ClassicReason | None) -> tuple[Table, int]:
    """A preset table whose first deal has a seat offered the queen redeal (its own hand
    holds no queen but Q♦, and it may not ask for its points), the engine answering
    ``wanted`` (None: allowed)."""
    for seed in range(300):
        table = await classic_table(tr, seed, PRESET)
        game = await table.game()
        for seat in range(4):
            action = ClassicAction.redeal(seat)
            offered = action in game.play.seat_view(seat).legal
            hand = mask_of(game.play.game.current.hand(seat))
            reason = reason_of(game, action)
            answer = None if wanted is None else wanted.value
            if offered and not redeal_qualifies(hand) and reason == answer:
                return table, seat
        await table.service.close()
    raise AssertionError(f"no seed gives {wanted}")


def redeal_button(game: object, seat: int, tr: Translator) -> bool:
    screen = presenters.presenter_of(game).hand(game, seat, 0, tr, "ru")  # type: ignore[arg-type]
    return any(decode(b.token or "").arg == "r" for b in screen.buttons if b.token)


async def test_a_queen_redeal_refused_says_so_and_changes_nothing(tr: Translator) -> None:
    table, seat = await table_where(tr, ClassicReason.TEAM_HAS_QUEEN)
    try:
        game = await table.game()
        assert redeal_button(game, seat, tr)  # offered: the seat's own hand has no queen
        await assert_refused(table, PLAYERS[seat], "r", ClassicReason.TEAM_HAS_QUEEN.value, tr)
    finally:
        await table.service.close()


async def test_a_refused_queen_redeal_is_heard_by_the_whole_table(tr: Translator) -> None:
    """§2.16: the request is asked across the table, so everyone learns it was refused
    (a notice in the game's chat), and only that: no card is named, nothing changes."""
    table, seat = await table_where(tr, ClassicReason.TEAM_HAS_QUEEN)
    try:
        before = len(table.publisher.changes)
        await press(table, PLAYERS[seat], "r")
        published = [change for _, _, change in table.publisher.changes[before:]]
        assert [(c.kind, c.seat) for c in published] == [(ChangeKind.REFUSED, seat)]
        game = await table.game()
        outputs = await table.ui.outputs(game, published[0])
        notices = [o.screen.text for o in outputs if o.target is Target.CHAT]
        name = presenters.seat_name(game, seat, tr, "ru")
        assert notices == [tr.t("ru", "notice-refused-team-has-queen", name=name)]
        assert (await table.game()).version == game.version  # nothing was saved
    finally:
        await table.service.close()


async def test_other_refusals_are_the_refused_players_alone(tr: Translator) -> None:
    """A refusal that is no question across the table (a redeal the rules do not
    allow) publishes nothing: only the presser hears it."""
    table, _ = await table_where(tr, ClassicReason.TEAM_HAS_QUEEN)
    try:
        before = len(table.publisher.changes)
        game = await table.game()
        reasons = {s: reason_of(game, ClassicAction.redeal(s)) for s in range(4)}
        other = next(s for s, r in reasons.items() if r not in (None, "team-has-queen"))
        reply = await press(table, PLAYERS[other], "r")
        assert reply.alert == tr.t("ru", f"err-{reasons[other]}")
        assert table.publisher.changes[before:] == []
        assert game.version == (await table.game()).version
    finally:
        await table.service.close()


async def test_a_queen_redeal_of_a_pair_without_queens_is_performed(tr: Translator) -> None:
    table, seat = await table_where(tr, None)
    try:
        game = await table.game()
        dealer = game.play.game.current.dealer
        reply = await press(table, PLAYERS[seat], "r")
        assert reply.alert is None
        game = await table.game()
        current = game.play.game.current
        assert current.attempt == 1 and current.dealer == dealer
    finally:
        await table.service.close()


async def test_the_preset_buttons_set_the_bundle_in_one_tap(
    quick_ui: Interactions, tr: Translator
) -> None:
    ui = quick_ui
    game = (await ui.kozel(CHAT, ALICE, rules="classic")).game
    assert game is not None

    async def setting(arg: str, user: object = ALICE) -> object:
        token = encode(Command(Verb.SETTING, game.id, game.version, arg))  # type: ignore[union-attr]
        return await ui.press(user, token, where=HERE)  # type: ignore[arg-type]

    game = (await setting("po")).game  # type: ignore[attr-defined]
    page = presenters.lobby(game, tr, "ru")
    labels = [b.label for b in page.buttons]
    assert labels[:2] == [
        tr.t("ru", "lobby-preset-chosen", label=tr.t("ru", "classic-preset-button-003")),
        tr.t("ru", "classic-preset-button-001"),
    ]
    assert [len(row) for row in page.rows][:4] == [2, 2, 2, 2]  # two to a row
    game = (await setting("s001")).game  # type: ignore[attr-defined]
    assert game.settings.options == PRESET and game.play.options == PRESETS["001"]
    assert game.settings.lobby_page == "o"
    text = presenters.lobby(game, tr, "ru").text
    assert tr.t("ru", "classic-options-preset", preset=tr.t("ru", "classic-preset-001")) in text
    # One option changed: the closest preset and what differs.
    game = (await setting("olucy0")).game  # type: ignore[attr-defined]
    said = tr.t(
        "ru",
        "classic-options-preset-but",
        preset=tr.t("ru", "classic-preset-001"),
        options=tr.t("ru", "classic-option-lucy-reset"),
    )
    assert said in presenters.lobby(game, tr, "ru").text
    # Forged, foreign and others' presses change nothing.
    for arg in ("s002", "s", "s0011", "S001", "po9", "po1"):
        reply = await setting(arg)
        assert reply.alert == tr.t("ru", "err-bad-setting"), arg  # type: ignore[attr-defined]
    join = encode(Command(Verb.JOIN, game.id, game.version, "B"))
    game = (await ui.press(BOB, join, where=HERE)).game  # type: ignore[assignment]
    reply = await setting("s003", BOB)
    assert reply.alert == tr.t("ru", "err-not-creator")  # type: ignore[attr-defined]
    game = (await setting("s003")).game  # type: ignore[attr-defined]
    assert game.settings.options == {}
    assert tr.t("ru", "classic-options-default") in presenters.lobby(game, tr, "ru").text


@pytest.mark.parametrize("locale", ["ru", "en"])
async def test_every_house_rules_label_fits_two_to_a_row(
    quick_ui: Interactions, tr: Translator, locale: str
) -> None:
    game = (await quick_ui.kozel(CHAT, ALICE, rules="classic 001")).game
    assert game is not None and game.play.options == PRESETS["001"]
    from dataclasses import replace

    for page in option_pages("classic"):
        for options in ({}, PRESET):
            game.settings = replace(game.settings, lobby_page=page, options=options)
            screen = presenters.lobby(game, tr, locale)
            for row in screen.rows:
                assert len(row) <= 3
                for button in row:
                    assert len(button.label) <= 22, button.label


@pytest.mark.parametrize(
    ("words", "rules", "preset"),
    [
        ("classic 001", "classic", "001"),
        ("Хвалёный козёл 001", "classic", "001"),
        ("001", "classic", "001"),
    ],
)
async def test_kozel_names_a_preset(
    quick_ui: Interactions, words: str, rules: str, preset: str
) -> None:
    game = (await quick_ui.kozel(CHAT, ALICE, rules=words)).game
    assert game is not None and game.settings.rule_set == rules
    assert game.play.options == PRESETS[preset]


@pytest.mark.parametrize("words", ["classic 002", "yard 001", "classic 001 001"])
async def test_kozel_with_no_such_preset_opens_nothing(quick_ui: Interactions, words: str) -> None:
    reply = await quick_ui.kozel(CHAT, ALICE, rules=words)
    assert reply.game is None and reply.screen is not None
    assert await quick_ui.service.open_game(CHAT) is None
