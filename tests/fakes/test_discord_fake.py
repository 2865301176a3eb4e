"""The fake Discord, driven by the real discord.py client (commands.Bot + app commands)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator, Iterator
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from testing.fakes.discord import FakeDiscord

GUILD, CHANNEL, ALICE, BOB = 100, 200, 10, 11


class LogGuard:
    """discord.py only logs errors raised in commands, views and events: fail on them."""

    def __init__(self, caplog: pytest.LogCaptureFixture) -> None:
        self.caplog, self.expected = caplog, list[str]()

    def expect(self, fragment: str) -> None:
        """Allow ERROR records whose message or exception text contains `fragment`."""
        self.expected.append(fragment)

    def errors(self) -> list[logging.LogRecord]:
        records = self.caplog.get_records("setup") + self.caplog.get_records("call")
        return [r for r in records if r.name.startswith("discord") and r.levelno >= logging.ERROR]

    def check(self) -> None:
        def text(r: logging.LogRecord) -> str:
            return r.getMessage() + (f" {r.exc_info[1]!r}" if r.exc_info else "")

        bad = [text(r) for r in self.errors() if not any(f in text(r) for f in self.expected)]
        if bad:
            pytest.fail("discord.py logged errors:\n" + "\n".join(bad))


@pytest.fixture(autouse=True)
def log_guard(caplog: pytest.LogCaptureFixture) -> Iterator[LogGuard]:
    guard = LogGuard(caplog)
    yield guard
    guard.check()


@pytest.fixture
async def dc() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as fake:
        fake.add_guild(GUILD, "Club", owner_id=ALICE)
        fake.add_channel(GUILD, CHANNEL, "kozel")
        fake.add_user(ALICE, "alice", guild_ids=[GUILD], admin=True)
        fake.add_user(BOB, "bob", locale="en-US", dms_open=False, guild_ids=[GUILD])
        yield fake


def make_bot() -> commands.Bot:
    intents = discord.Intents.default()
    return commands.Bot(commands.when_mentioned, intents=intents, guild_ready_timeout=0.01)


@contextlib.asynccontextmanager
async def running(bot: commands.Bot) -> AsyncIterator[commands.Bot]:
    """bot.start() in a task until on_ready; bot.close() on exit."""
    ready = asyncio.Event()

    async def on_ready() -> None:
        ready.set()

    bot.add_listener(on_ready)
    task = asyncio.create_task(bot.start("fake-token"))
    waiter = asyncio.create_task(ready.wait())
    await asyncio.wait({task, waiter}, timeout=2.0, return_when=asyncio.FIRST_COMPLETED)
    try:
        if not ready.is_set():
            waiter.cancel()
            if task.done():
                task.result()  # raises what made start() fail
            raise TimeoutError("the bot did not become ready")
        yield bot
    finally:
        await bot.close()
        await task


class RuTranslator(app_commands.Translator):
    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: Any
    ) -> str | None:
        ru = {"kozel": "козёл", "Start a game": "Начать игру", "stake": "ставка"}
        return ru.get(string.message) if locale is discord.Locale.russian else None


class JoinButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"join:(?P<game>\d+)"):
    def __init__(self, game: int) -> None:
        super().__init__(discord.ui.Button(label="Join", custom_id=f"join:{game}"))
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> JoinButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        text = f"{interaction.user.name} joined game {self.game}"
        await interaction.response.edit_message(content=text, view=None)


async def test_slash_command_is_synced_and_answered(dc: FakeDiscord) -> None:
    bot = make_bot()

    @bot.tree.command(name="kozel", description="Start a game")
    async def kozel(interaction: discord.Interaction, stake: int = 1) -> None:
        member = interaction.user
        assert isinstance(member, discord.Member) and interaction.guild_id == GUILD
        perms = interaction.permissions.administrator
        text = f"{member.name} stake={stake} {interaction.locale.value} admin={perms}"
        await interaction.response.send_message(text)

    async with running(bot):
        await bot.tree.set_translator(RuTranslator())
        await bot.tree.sync()
        cmd = dc.command("kozel")
        assert cmd["description"] == "Start a game"
        assert cmd["name_localizations"] == {"ru": "козёл"}
        assert cmd["description_localizations"] == {"ru": "Начать игру"}
        assert cmd["options"][0]["name_localizations"] == {"ru": "ставка"}

        iid = await dc.slash(ALICE, CHANNEL, "kozel", {"stake": 3})
        rec = await dc.wait_for(lambda: dc.responses(iid).content and dc.responses(iid))
        assert (rec.callback_type, rec.ephemeral) == (4, False)
        assert rec.content == "alice stake=3 ru admin=True"
        assert dc.messages(CHANNEL) == [rec.original]
        call = next(c for c in dc.calls if c.path.endswith("/callback"))
        assert call.query == {"with_response": "1"} and call.status == 200


async def test_dynamic_button_click_edits_message_in_guild_and_dm(dc: FakeDiscord) -> None:
    bot = make_bot()
    bot.add_dynamic_items(JoinButton)
    async with running(bot):
        view = discord.ui.View(timeout=None).add_item(JoinButton(7))
        channel = bot.get_channel(CHANNEL)
        assert isinstance(channel, discord.TextChannel)
        sent = await channel.send("Lobby", view=view)
        assert dc.buttons(dc.message(sent.id)) == [("Join", "join:7", False)]

        iid = await dc.click(BOB, sent.id, "join:7")
        rec = await dc.wait_for(lambda: dc.responses(iid).callback_type and dc.responses(iid))
        assert rec.callback_type == 7
        assert dc.message(sent.id)["content"] == "bob joined game 7"
        assert dc.message(sent.id)["components"] == []

        dm = await bot.create_dm(discord.Object(ALICE))
        in_dm = await dm.send("Private lobby", view=discord.ui.View().add_item(JoinButton(8)))
        assert dc.dm_messages(ALICE)[0]["id"] == str(in_dm.id)
        iid = await dc.click(ALICE, in_dm.id, "join:8")
        await dc.wait_for(lambda: dc.responses(iid).content == "alice joined game 8")
        with pytest.raises(LookupError):
            await dc.click(ALICE, in_dm.id, "join:8")  # the buttons are gone


async def test_deferred_thinking_then_followups(dc: FakeDiscord) -> None:
    bot = make_bot()
    gate = asyncio.Event()
    sent: asyncio.Future[list[int]] = asyncio.get_running_loop().create_future()

    @bot.tree.command(name="slow", description="Takes a while")
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True, ephemeral=True)
        await gate.wait()
        first = await interaction.followup.send("done", wait=True)
        second = await interaction.followup.send("and more", ephemeral=True, wait=True)
        sent.set_result([first.id, second.id])

    async with running(bot):
        await bot.tree.sync()
        iid = await dc.slash(BOB, CHANNEL, "slow")
        rec = await dc.wait_for(lambda: dc.responses(iid).callback_type and dc.responses(iid))
        assert (rec.callback_type, rec.loading, rec.ephemeral, rec.content) == (5, True, True, "")
        gate.set()
        first, second = await asyncio.wait_for(sent, 2.0)
        assert first == int(rec.original["id"]) and (rec.content, rec.loading) == ("done", False)
        assert [(m["id"], m["content"]) for m in rec.followups] == [(str(second), "and more")]
        assert rec.ephemeral and rec.followups[0]["flags"] & 64


async def test_dm_to_user_with_closed_dms_is_forbidden(dc: FakeDiscord) -> None:
    async with running(make_bot()) as bot:
        bob = await bot.fetch_user(BOB)
        with pytest.raises(discord.Forbidden) as err:
            await bob.send("your hand")
        assert err.value.code == 50007 and err.value.status == 403
        alice = await bot.fetch_user(ALICE)
        await alice.send("your hand")
        assert [m["content"] for m in dc.dm_messages(ALICE)] == ["your hand"]
        assert dc.dm_channel(BOB) is not None and dc.dm_messages(BOB) == []


async def test_late_and_repeated_interaction_responses(
    dc: FakeDiscord, log_guard: LogGuard
) -> None:
    bot = make_bot()
    gate = asyncio.Event()
    late: asyncio.Future[discord.NotFound] = asyncio.get_running_loop().create_future()
    logged = asyncio.Event()

    @bot.tree.error
    async def on_error(
        interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await app_commands.CommandTree.on_error(bot.tree, interaction, error)  # logs it
        logged.set()

    @bot.tree.command(name="late", description="Answers too late")
    async def late_cmd(interaction: discord.Interaction) -> None:
        await gate.wait()
        try:
            await interaction.response.send_message("too late")
        except discord.NotFound as exc:
            late.set_result(exc)

    @bot.tree.command(name="twice", description="Answers twice")
    async def twice(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("one")
        await interaction.followup.send("two")  # fine
        await interaction.client.http.request(  # a raw second callback, bypassing the guard
            discord.http.Route(
                "POST", f"/interactions/{interaction.id}/{interaction.token}/callback"
            ),
            json={"type": 4, "data": {"content": "again"}},
        )

    async with running(bot):
        await bot.tree.sync()
        iid = await dc.slash(ALICE, CHANNEL, "late")
        dc.age_interaction(iid, 3.5)
        gate.set()
        exc = await asyncio.wait_for(late, 2.0)
        assert (exc.status, exc.code) == (404, 10062)
        assert dc.responses(iid).callback_type is None

        log_guard.expect("already been acknowledged")
        iid = await dc.slash(ALICE, CHANNEL, "twice")
        await dc.wait_for(lambda: any(c.status == 400 for c in dc.calls))
        assert dc.calls[-1].json == {"type": 4, "data": {"content": "again"}}
        assert [m["content"] for m in dc.responses(iid).followups] == ["two"]
        await asyncio.wait_for(logged.wait(), 2.0)
        assert len(log_guard.errors()) == 1


async def test_rate_limited_route_is_retried_by_discord_py(dc: FakeDiscord) -> None:
    dc.rate_limit("POST /channels/*/messages", times=2, retry_after=0.01)
    dc.rate_limit("POST /interactions/*/callback", times=1, retry_after=0.01)
    bot = make_bot()

    @bot.tree.command(name="ping", description="Pong")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pong")

    async with running(bot):
        channel = bot.get_channel(CHANNEL)
        assert isinstance(channel, discord.TextChannel)
        await channel.send("hello")
        statuses = [c.status for c in dc.calls if c.path == f"/channels/{CHANNEL}/messages"]
        assert statuses == [429, 429, 200]
        await bot.tree.sync()
        iid = await dc.slash(BOB, CHANNEL, "ping")
        await dc.wait_for(lambda: dc.responses(iid).content == "pong")
        assert [c.status for c in dc.calls if c.path.endswith("/callback")] == [429, 200]


async def test_a_failed_route_answers_503_as_often_as_told(dc: FakeDiscord) -> None:
    dc.fail("POST /channels/*/messages", times=1)
    async with running(make_bot()) as bot:
        channel = bot.get_channel(CHANNEL)
        assert isinstance(channel, discord.TextChannel)
        with pytest.raises(discord.DiscordServerError):
            await channel.send("hello")  # a 503 is given up at once
        await channel.send("hello")
        statuses = [c.status for c in dc.calls if c.path == f"/channels/{CHANNEL}/messages"]
        assert statuses == [503, 200]


async def test_limits_are_enforced(dc: FakeDiscord) -> None:
    async with running(make_bot()) as bot:
        channel = bot.get_channel(CHANNEL)
        assert isinstance(channel, discord.TextChannel)
        with pytest.raises(discord.HTTPException) as err:
            await channel.send("x" * 2001)
        assert (err.value.status, err.value.code) == (400, 50035)
        view = discord.ui.View().add_item(discord.ui.Button(label="ok", custom_id="c" * 101))
        with pytest.raises(discord.HTTPException) as err:
            await channel.send("hand", view=view)
        assert err.value.code == 50035 and "custom_id" in str(err.value)
        view = discord.ui.View().add_item(discord.ui.Button(label="L" * 81, custom_id="ok"))
        with pytest.raises(discord.HTTPException):
            await channel.send("hand", view=view)
        assert dc.messages(CHANNEL) == []


async def test_gateway_drop_is_resumed(dc: FakeDiscord) -> None:
    bot = make_bot()

    @bot.tree.command(name="ping", description="Pong")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pong")

    async with running(bot):
        await bot.tree.sync()
        await dc.drop_gateway()
        await dc.wait_for(lambda: any(c.path == "RESUME" for c in dc.calls))
        iid = await dc.slash(BOB, CHANNEL, "ping")
        await dc.wait_for(lambda: dc.responses(iid).content == "pong")
        assert [c.path for c in dc.calls if c.method == "GATEWAY"] == ["IDENTIFY", "RESUME"]
