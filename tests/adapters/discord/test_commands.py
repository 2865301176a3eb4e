"""Slash commands: registered with localized names, answered through Interactions."""

from __future__ import annotations

import re

from bot import presenters
from bot.models import Platform
from bot.presenters import COMMANDS
from bot.ratings import MIN_GAMES
from core.seats import Team
from testing.fakes.discord import FakeDiscord
from tests.adapters.discord.harness import (
    ALICE,
    BOB,
    CAROL,
    CHAT,
    DAVE,
    EVE,
    GUILD,
    Harness,
    ref,
)
from tests.bot.test_storage_ratings import DECEMBER, finished

DISCORD = Platform.DISCORD

#: Discord's rule for command and option names.
NAME = re.compile(r"^[-_\w]{1,32}$")
NOVEMBER = DECEMBER - 15 * 86400  # 2025-11-16


async def test_commands_are_registered_with_localized_names_and_descriptions(
    harness: Harness, dc: FakeDiscord
) -> None:
    tr = harness.tr
    for name in COMMANDS:
        command = dc.command(name)
        assert command["description"] == tr.t("en", f"cmd-{name}")
        names = command["name_localizations"]
        assert names["ru"] == tr.t("ru", f"cmd-name-{name}")
        assert names["en-US"] == names["en-GB"] == name
        descriptions = command["description_localizations"]
        assert descriptions["ru"] == tr.t("ru", f"cmd-{name}")
        assert descriptions["en-US"] == tr.t("en", f"cmd-{name}")
        for localized in names.values():
            assert NAME.match(localized) and localized == localized.lower()
    assert dc.command("kozel")["name_localizations"]["ru"] == "козёл"
    everywhere, rule_set, season, month, challenge = dc.command("top")["options"]
    # A duplicate challenge's table (docs/tournaments.md): its id or a word.
    assert challenge["name"] == "challenge" and challenge["type"] == 3
    assert challenge["name_localizations"]["ru"] == "вызов" and not challenge["required"]
    assert season["name"] == "season" and season["type"] == 5
    assert season["name_localizations"]["ru"] == "сезон"
    # A past month's season (issue 25): a short string, YYYY-MM or "last".
    assert month["name"] == "month" and month["type"] == 3 and not month["required"]
    assert month["name_localizations"]["ru"] == "месяц"
    assert month["description_localizations"]["ru"] == tr.t("ru", "cmd-option-month-about")
    assert month["max_length"] == 16
    assert rule_set["name"] == "set" and {c["value"] for c in rule_set["choices"]} == {
        "yard",
        "classic",
    }
    assert everywhere["name"] == "all" and everywhere["type"] == 5
    assert everywhere["name_localizations"]["ru"] == "все"
    assert everywhere["description_localizations"]["ru"] == tr.t("ru", "cmd-option-all-about")
    (language,) = dc.command("lang")["options"]
    choices = {c["value"]: c for c in language["choices"]}
    assert choices["ru"]["name_localizations"]["ru"] == tr.t("ru", "lang-name-ru")
    assert choices["en"]["name"] == tr.t("en", "lang-name-en")
    (player,) = dc.command("stats")["options"]
    assert player["type"] == 6 and player["name_localizations"]["ru"] == "игрок"


async def test_help_rules_lang_answer_in_the_chat_language(harness: Harness) -> None:
    rec = await harness.slash(ALICE, "help")
    assert (
        rec.content == presenters.help(harness.tr, "ru", platform=DISCORD).text
        and not rec.ephemeral
    )
    rec = await harness.slash(ALICE, "rules", {"set": "classic"})
    assert rec.content == presenters.rules(harness.tr, "ru", "classic", platform=DISCORD).text
    rec = await harness.slash(ALICE, "lang", {"language": "en"})  # the server's owner
    assert rec.content == harness.t("notice-lang-switched", "en")
    assert await harness.service.chat_locale(CHAT) == "en"
    rec = await harness.slash(BOB, "help")
    assert rec.content == presenters.help(harness.tr, "en", platform=DISCORD).text
    rec = await harness.slash(BOB, "lang")
    assert rec.content == presenters.language_usage(harness.tr, "en", platform=DISCORD).text


async def test_group_lang_is_for_admins(harness: Harness) -> None:
    """Regression: any member's /lang changed the channel's language. On Discord an
    admin is a member with Administrator or Manage Server."""
    tr = harness.tr
    rec = await harness.slash(BOB, "lang", {"language": "en"})
    assert rec.content == tr.t("en", "notice-lang-own", group=tr.t("en", "lang-name-ru"))
    assert await harness.service.chat_locale(CHAT) == "ru"
    assert await harness.service.user_locale(ref(BOB)) == "en"
    rec = await harness.slash(ALICE, "lang", {"language": "en"})  # the server's owner
    assert rec.content == harness.t("notice-lang-switched", "en")
    assert await harness.service.chat_locale(CHAT) == "en"


async def test_stats_and_top_when_nothing_was_played(harness: Harness) -> None:
    rec = await harness.slash(ALICE, "stats")
    assert rec.content == presenters.stats(None, harness.tr, "ru", platform=DISCORD).text
    rec = await harness.slash(ALICE, "stats", {"player": str(BOB)})
    assert rec.content == presenters.stats(None, harness.tr, "ru", platform=DISCORD).text
    rec = await harness.slash(EVE, "top", {"all": True})
    assert rec.content is not None and rec.content.startswith(harness.t("top-title-global"))


async def test_a_second_kozel_points_to_the_running_table(
    harness: Harness, dc: FakeDiscord
) -> None:
    game, table = await harness.open_table()
    assert dc.message(table)["content"] == presenters.lobby(game, harness.tr, "ru").text
    rec = await harness.slash(BOB, "kozel")
    assert rec.content == harness.t("err-game-running")
    ((label, url),) = [(b["label"], b.get("url")) for b in rec.components[0]["components"]]
    assert label == harness.t("discord-to-table")
    assert url == f"https://discord.com/channels/100/{CHAT.id}/{table}"
    assert [int(m["id"]) for m in dc.messages(int(CHAT.id))] == [table, int(rec.original["id"])]  # type: ignore[index]
    assert (await harness.game()).id == game.id


async def test_a_restart_registers_the_commands_only_when_they_changed(
    harness: Harness, dc: FakeDiscord
) -> None:
    def registrations() -> int:
        return sum(c.method == "PUT" and c.path.endswith("/commands") for c in dc.calls)

    assert registrations() == 1
    await harness.stop()
    again = Harness(dc, harness.storage, harness.tr)
    await again.start()
    await again.stop()
    assert registrations() == 1  # the same commands: read, not written again
    reads = [c for c in dc.calls if c.method == "GET" and c.path.endswith("/commands")]
    assert len(reads) == 2 and reads[-1].query == {"with_localizations": "true"}
    # A command Discord lost (or an older set of commands) is registered again.
    dc.commands[None] = [c for c in dc.commands[None] if c["name"] != "help"]
    changed = Harness(dc, harness.storage, harness.tr)
    await changed.start()
    await changed.stop()
    assert registrations() == 2 and dc.command("help")["description"]
    dc.commands[None][0]["description_localizations"] = {"ru": "старое"}
    await harness.start()
    assert registrations() == 3


async def test_the_servers_language_is_the_chats_default_until_lang(
    harness: Harness, dc: FakeDiscord
) -> None:
    dc.guilds[GUILD].locale = "en-US"
    rec = await harness.slash(ALICE, "help")
    assert rec.content == presenters.help(harness.tr, "en", platform=DISCORD).text
    rec = await harness.slash(ALICE, "kozel")
    game = await harness.game()
    yard = harness.t("rules-name-yard", "en")
    assert game.settings.locale == "en"
    assert rec.content.startswith(harness.t("lobby-title", "en", rules=yard))
    await harness.slash(ALICE, "lang", {"language": "ru"})  # chosen: it beats the server's
    assert (await harness.slash(BOB, "help")).content == presenters.help(
        harness.tr, "ru", platform=DISCORD
    ).text


async def test_top_month_shows_a_past_months_board(harness: Harness) -> None:
    # Issue 25: /top month: 2025-11 (or "last") is the channel's board of November.
    players = [ref(user) for user in (ALICE, BOB, CAROL, DAVE)]
    for n in range(MIN_GAMES):
        await finished(harness.storage, players, Team.A, chat=CHAT, at=NOVEMBER + n)
    harness.clock.value = DECEMBER + 9 * 86400
    rec = await harness.slash(EVE, "top", {"month": "2025-11"})
    expected = await harness.interactions.top(CHAT, month="2025-11")
    assert expected.screen is not None and rec.content == expected.screen.text
    text = rec.content or ""
    assert text.startswith(harness.t("top-title-season", season="2025-11"))
    assert len(text.splitlines()) == 1 + 4 and not rec.ephemeral
    last = await harness.slash(EVE, "top", {"month": "прошлый", "season": True})
    assert last.content == text
    future = await harness.slash(EVE, "top", {"month": "2026-01"})
    assert future.content == harness.t("top-month-future", asked="2026-01", current="2025-12")
    bad = await harness.slash(EVE, "top", {"month": "ноябрь"})
    args = presenters.command_args(DISCORD, harness.tr, "ru")
    assert args["month"] == "месяц:"
    assert bad.content == harness.tr.t("ru", "top-month-malformed", example="2025-11", **args)
    assert "/топ месяц: 2025-11" in (bad.content or "")
