"""``/kozel classic`` (and ``/kozel@bot classic``) opens a classic lobby; unknown rules
open nothing and say so; the lobby's rules buttons work on Telegram."""

from __future__ import annotations

from bot import presenters
from bot.codec import Verb
from bot.models import ChatRef, Platform
from tests.adapters.telegram.harness import GROUP, Harness, button

CHAT = ChatRef(Platform.TELEGRAM, str(GROUP))


async def test_kozel_classic_opens_a_classic_lobby(h: Harness) -> None:
    alice = h.user(1, "Alice")
    lobby = await h.command(alice, GROUP, "/kozel@kozel_test_bot classic")
    game = await h.service.open_game(CHAT)
    assert game is not None and game.settings.rule_set == "classic"
    assert h.tr.t("ru", "rules-name-classic") in (lobby.text or "")
    await h.press_lobby(alice, lobby, Verb.SETTING, "po")
    assert h.tr.t("ru", "lobby-house-rules-hint") in (lobby.text or "")
    kocherga = button(h.tg, lobby, Verb.SETTING, "okocherga0")
    assert kocherga
    await h.press_lobby(alice, lobby, Verb.SETTING, "okocherga0")
    assert game.settings.options == {"kocherga": False}
    assert h.tr.t("ru", "classic-option-kocherga-off") in (lobby.text or "")
    await h.press_lobby(alice, lobby, Verb.SETTING, "p")
    await h.press_lobby(alice, lobby, Verb.SETTING, "ryard")
    assert game.settings.rule_set == "yard" and game.settings.options == {}


async def test_kozel_with_unknown_rules_opens_nothing(h: Harness) -> None:
    alice = h.user(1, "Alice")
    answer = await h.command(alice, GROUP, "/kozel poker")
    assert (answer.text or "").startswith(
        h.tr.t("ru", "err-no-such-rules", word="poker", yard="yard", classic="classic")
    )
    assert await h.service.open_game(CHAT) is None
    lobby = await h.command(alice, GROUP, "/kozel yard")
    game = await h.service.open_game(CHAT)
    assert game is not None and game.settings.rule_set == "yard"
    assert h.tr.t("ru", "rules-name-yard") in (lobby.text or "")


async def test_top_rules_and_stats_name_the_rules(h: Harness) -> None:
    tr = h.tr
    alice = h.user(1, "Alice")
    top = await h.command(alice, GROUP, "/top classic all")
    assert (top.text or "").startswith(tr.t("ru", "top-title-global"))
    assert tr.t("ru", "top-rules", rules=tr.t("ru", "rules-name-classic")) in (top.text or "")
    same = await h.command(alice, GROUP, "/top@kozel_test_bot all classic")
    assert same.text == top.text
    usage = await h.command(alice, GROUP, "/top poker")
    assert usage.text == presenters.top_usage("poker", tr, "ru", Platform.TELEGRAM).text
    await h.command(alice, GROUP, "/kozel classic")
    game = await h.service.open_game(CHAT)
    assert game is not None
    await h.service.change_setting(game.id, None, game.creator, "opraise2")
    rules = await h.command(alice, GROUP, "/rules")
    assert tr.t("ru", "classic-option-praise-mirror") in (rules.text or "")
    stats = await h.command(alice, GROUP, "/stats")
    assert stats.text == presenters.stats(None, tr, "ru", platform=Platform.TELEGRAM).text
