"""``/stats`` shows each rule set played, ``/top [classic|yard] [all]`` one rule set's
leaderboard (words in any order), ``/rules`` the table's rules with its options, else
the default ones and the way to the others."""

from __future__ import annotations

import pytest

from bot import presenters
from bot.i18n import Translator
from bot.interactions import Interactions
from bot.models import GameStatus
from bot.presenters.classic import rules_args
from core.classic.options import ClassicOptions
from tests.bot.conftest import ALICE, CHAT

ARGS = presenters.command_args(CHAT.platform, Translator.from_dir(), "ru")


@pytest.fixture
def ui(quick_ui: Interactions) -> Interactions:
    return quick_ui


@pytest.fixture
def tr(ui: Interactions) -> Translator:
    return ui.tr


async def play_solo(ui: Interactions, rules: str) -> None:
    """Alice with three computers plays a whole game of ``rules``, safe moves only."""
    reply = await ui.kozel(CHAT, ALICE, private=True, rules=rules)
    assert reply.game is not None
    game_id, service = reply.game.id, ui.service
    while True:
        await service.settle()
        game = await service.game(game_id)
        if game.status is not GameStatus.PLAYING:
            break
        if game.play.turn == 0:
            await service.play(game_id, game.version, ALICE.ref, game.play.safe_action(0))
    assert game.status is GameStatus.FINISHED and game.settings.rule_set == rules


async def test_stats_and_top_by_rules(ui: Interactions, tr: Translator) -> None:
    stats = await ui.stats(CHAT, ALICE.ref)
    assert stats.screen is not None
    assert stats.screen.text == tr.t("ru", "stats-empty", **ARGS)
    await play_solo(ui, "classic")
    stats = await ui.stats(CHAT, ALICE.ref)
    assert stats.screen is not None
    classic = tr.t("ru", "stats-rules", rules=tr.t("ru", "rules-name-classic"))
    yard = tr.t("ru", "stats-rules", rules=tr.t("ru", "rules-name-yard"))
    assert classic in stats.screen.text and yard not in stats.screen.text  # only those played
    await play_solo(ui, "yard")
    stats = await ui.stats(CHAT, ALICE.ref)
    assert stats.screen is not None
    text = stats.screen.text
    assert text.index(yard) < text.index(classic)  # the rule sets' order
    assert text.count(tr.t("ru", "stats-series", played=1, won=0, rate=0)[:8]) == 2

    every = await ui.service.leaderboard(CHAT)
    assert [row.series_played for row in every] == [2]
    for words in ("classic", "хвалёный", "CLASSIC", "Хвалёный козёл"):
        top = await ui.top_command(CHAT, words)
        assert top.screen is not None
        assert tr.t("ru", "top-rules", rules=tr.t("ru", "rules-name-classic")) in top.screen.text
        # /top ranks by rating (issue 25): games with computers are unrated.
        assert tr.t("ru", "top-rating-empty", games=5) in top.screen.text
    plain = await ui.top_command(CHAT, None)
    assert plain.screen is not None and tr.t("ru", "top-rating-empty", games=5) in plain.screen.text
    assert tr.t("ru", "top-rules", rules=tr.t("ru", "rules-name-yard")) not in plain.screen.text
    # "all" and the rules in any order: every chat's, one rule set's.
    first = await ui.top_command(CHAT, "all yard")
    second = await ui.top_command(CHAT, "yard all")
    assert first.screen is not None and first.screen == second.screen
    assert first.screen.text.startswith(tr.t("ru", "top-title-global"))
    assert tr.t("ru", "top-rules", rules=tr.t("ru", "rules-name-yard")) in first.screen.text
    rows = await ui.service.leaderboard(CHAT, everywhere=True, rule_set="yard")
    assert rows == []  # three series at least, over every chat


async def test_top_with_a_word_it_does_not_take(ui: Interactions, tr: Translator) -> None:
    reply = await ui.top_command(CHAT, "poker all")
    assert reply.screen is not None
    assert reply.screen.text == tr.t("ru", "top-usage", word="poker", **ARGS)
    both = await ui.top_command(CHAT, "classic yard")
    assert both.screen is not None
    assert both.screen.text == tr.t("ru", "top-usage-unnamed", **ARGS)
    forged = await ui.top(CHAT, rule_set="poker")  # Discord's choice, forged
    assert forged.screen is not None and forged.screen.text.startswith("«poker»")


async def test_rules_show_the_tables_rules_and_options(ui: Interactions, tr: Translator) -> None:
    default = await ui.rules(CHAT)
    assert default.screen is not None
    assert default.screen.text.startswith(tr.t("ru", "rules-yard", **ARGS))
    also = tr.t(
        "ru", "rules-also", command="/rules classic", rules=tr.t("ru", "rules-name-classic")
    )
    assert default.screen.text.endswith(also)
    named = await ui.rules(CHAT, "classic")
    assert named.screen is not None
    assert named.screen.text == tr.t("ru", "rules-classic", **ARGS)
    unknown = await ui.rules(CHAT, "poker")
    assert unknown.screen is not None and "poker" in unknown.screen.text
    lobby = await ui.kozel(CHAT, ALICE, rules="classic")
    assert lobby.game is not None
    game = await ui.service.change_setting(lobby.game.id, None, ALICE.ref, "okocherga0")
    table = await ui.rules(CHAT)
    assert table.screen is not None
    # The table's rules text tells its game: no kocherga here.
    told = rules_args(ClassicOptions(kocherga=False), tr, "ru")
    assert table.screen.text.startswith(tr.t("ru", "rules-classic", **ARGS, **told))
    assert "Кочерги нет" in table.screen.text and "Кочерга:" not in table.screen.text
    assert tr.t("ru", "classic-option-kocherga-off") in table.screen.text
    assert game.settings.options == {"kocherga": False}
    yard = await ui.rules(CHAT, "yard")  # a word still names the rules it names
    assert yard.screen is not None and yard.screen.text == tr.t("ru", "rules-yard", **ARGS)
