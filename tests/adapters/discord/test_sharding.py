"""Discord past 2,500 servers (issue 32, part 4): the bot runs every shard Discord
asks for (``GET /gateway/bot``) in one process. A game whose channel is on shard 1 is
played through DM hands, whose presses arrive on shard 0; ``/readyz`` and
``/metrics`` report each shard, and a shard that drops is not ready until it is back."""

from __future__ import annotations

import asyncio
import logging
import math
import socket
from collections.abc import Callable
from pathlib import Path

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

import adapters.discord
from adapters.discord import DiscordAdapter, render
from adapters.discord.client import KozelBot
from bot import __main__ as main
from bot import presenters
from bot.i18n import Translator
from bot.memory import MemoryStorage
from bot.models import GameStatus
from bot.settings import Settings
from testing.fakes.discord import TOKEN, FakeDiscord
from tests.adapters.discord.harness import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    GUILD,
    NAMES,
    Harness,
    ref,
)

#: A server on shard 1 of 2 (``(id >> 22) % 2``), where the game is played; GUILD
#: (on shard 0) has a channel of its own.
ON_SHARD_1 = (1 << 22) | GUILD
ON_SHARD_0 = 300


def two_shards(dc: FakeDiscord) -> None:
    """The players' server on shard 1, and another one on shard 0."""
    dc.add_guild(ON_SHARD_1, "Club", owner_id=ALICE)
    dc.add_channel(ON_SHARD_1, CHANNEL, "kozel")
    dc.add_guild(GUILD, "Elsewhere", owner_id=BOB)
    dc.add_channel(GUILD, ON_SHARD_0, "general")
    for user in (ALICE, BOB, CAROL, DAVE):
        dc.add_user(user, NAMES[user], guild_ids=[ON_SHARD_1, GUILD])


async def test_a_game_on_shard_1_is_played_to_the_end_through_dm_presses_on_shard_0(
    tr: Translator,
) -> None:
    async with FakeDiscord(shards=2) as dc:
        two_shards(dc)
        assert (dc.shard_of(ON_SHARD_1, 2), dc.shard_of(GUILD, 2)) == (1, 0)
        h = Harness(dc, MemoryStorage(), tr)
        await h.start()
        try:
            identified = [c.json["shard"] for c in dc.calls if c.path == "IDENTIFY"]
            assert identified == [[0, 2], [1, 2]]  # the count Discord recommends
            guild = h.adapter.bot.get_guild(ON_SHARD_1)
            assert guild is not None and guild.shard_id == 1

            game, _ = await h.start_four()
            players = {game.seat_of(ref(user)) or 0: user for user in (ALICE, BOB, CAROL, DAVE)}
            moves = 0
            while game.status.is_open:
                moves += await h.finish_deal(game.id, players)
                game = await h.service.game(game.id)
            await h.settled()

            assert game.status is GameStatus.FINISHED
            assert game.play.series.result is not None and len(game.play.series.deals) > 1
            # Every move was a DM press, sent on shard 0; the lobby's presses and the
            # channel's command on shard 1.
            sent = dc.interactions.values()
            in_channel = [r for r in sent if r.channel_id == CHANNEL]
            in_dms = [r for r in sent if r.channel_id != CHANNEL]
            assert {r.shard for r in in_channel} == {1} and len(in_channel) == 6
            assert {r.shard for r in in_dms} == {0} and len(in_dms) >= moves > 20
            assert all(r.callback_type is not None for r in sent)  # each one answered
            changes = await h.storage.game_ratings(game.id)
            result = presenters.game_result(game, tr, game.settings.locale, changes)
            assert result is not None
            texts = [m["content"] for m in dc.messages(CHANNEL)]
            assert texts.count(render.content(result.text)) == 1
        finally:
            await h.stop()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def scraped(text: str, name: str) -> dict[str, float]:
    """The ``name`` samples of a scrape of Discord's shards, by shard."""
    return {
        sample.labels["shard"]: sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if sample.name == name and sample.labels["platform"] == "discord"
    }


async def test_readyz_and_metrics_report_each_shard_and_a_dropped_one_until_it_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[DiscordAdapter] = []

    def quick(*args: object, **kwargs: object) -> DiscordAdapter:
        def client(adapter: DiscordAdapter) -> KozelBot:
            return KozelBot(adapter, guild_ready_timeout=0.01, identify_interval=0)

        made.append(DiscordAdapter(*args, client_factory=client, **kwargs))  # type: ignore[arg-type]
        return made[-1]

    monkeypatch.setattr(adapters.discord, "DiscordAdapter", quick)
    port = free_port()
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        database_url=f"sqlite:///{tmp_path / 'kozel.sqlite3'}",
        discord_bot_token=TOKEN,
        metrics_port=port,
    )
    # Heartbeats every 50 ms: each shard's latency is measured, and each one wakes
    # the waits below to look again.
    async with (
        FakeDiscord(shards=2, heartbeat_interval=0.05) as dc,
        aiohttp.ClientSession() as http,
    ):
        two_shards(dc)

        async def get(path: str) -> tuple[int, str]:
            async with http.get(f"http://127.0.0.1:{port}{path}") as response:
                return response.status, await response.text()

        def until(predicate: Callable[[], object]) -> object:
            return dc.wait_for(predicate, timeout=30)

        run = asyncio.create_task(main.run_platforms(settings))
        try:
            await until(lambda: made and made[0].ready)
            up = "storage: ok\ndiscord shard 0: ok\ndiscord shard 1: ok\n"
            assert await get("/readyz") == (200, up)
            bot = made[0].bot
            await until(lambda: all(math.isfinite(s.latency) for s in bot.shards.values()))
            _, metrics = await get("/metrics")
            assert scraped(metrics, "kozel_shard_connected") == {"0": 1.0, "1": 1.0}
            latencies = scraped(metrics, "kozel_shard_latency_seconds")
            assert set(latencies) == {"0", "1"} and all(v >= 0 for v in latencies.values())

            # Shard 1's connection drops; the fake holds its RESUME unanswered.
            dc.hold_shard(1)
            await dc.drop_gateway(shard=1)
            await until(lambda: 1 in dc.waiting)
            assert not dc.connected(1) and dc.connected(0)
            down = "storage: ok\ndiscord shard 0: ok\ndiscord shard 1: down\n"
            assert await get("/readyz") == (503, down)
            _, metrics = await get("/metrics")
            assert scraped(metrics, "kozel_shard_connected") == {"0": 1.0, "1": 0.0}
            # Shard 0 goes on meanwhile: a command on its server is answered.
            iid = await dc.slash(ALICE, ON_SHARD_0, "help")
            await until(lambda: dc.responses(iid).content and not dc.responses(iid).loading)

            dc.release_shard(1)
            await until(lambda: made[0].ready)
            assert dc.connected(1)
            assert await get("/readyz") == (200, up)
            assert [c.path for c in dc.calls if c.method == "GATEWAY"][-1] == "RESUME"
            iid = await dc.slash(ALICE, CHANNEL, "help")  # on shard 1 again
            await until(lambda: dc.responses(iid).content and not dc.responses(iid).loading)
            assert dc.responses(iid).shard == 1
        finally:
            dc.release_shard(1)
            run.cancel()
            with pytest.raises(asyncio.CancelledError):
                await run


async def test_a_shard_that_cannot_reconnect_says_one_line_a_try_and_is_down_until_it_is_back(
    tr: Translator, caplog: pytest.LogCaptureFixture
) -> None:
    """The sharded client logs a failed reconnect as discord.py's shard does (an
    error with its traceback, at every try); it is one warning line, as the
    unsharded client's was (issue 31, point 7)."""
    async with FakeDiscord(shards=2, heartbeat_interval=0.05) as dc:
        two_shards(dc)
        h = Harness(dc, MemoryStorage(), tr)
        await h.start()
        try:
            dc.refuse_gateway = True  # the network to the gateway is gone
            await dc.drop_gateway(shard=1)
            await dc.wait_for(lambda: any(c.path == "REFUSED" for c in dc.calls), timeout=30)
            assert h.adapter.readiness() == {"discord shard 0": True, "discord shard 1": False}
            dc.refuse_gateway = False
            await dc.wait_for(lambda: h.adapter.ready, timeout=30)
            assert [c.json["shard"] for c in dc.calls if c.path == "IDENTIFY"][-1] == [1, 2]
        finally:
            await h.stop()
    tries = [r for r in caplog.records if r.name == "discord.shard"]
    assert tries and all(
        r.levelno == logging.WARNING
        and r.exc_info is None
        and r.getMessage().startswith("Attempting a reconnect for shard ID 1 in ")
        and " after WSServerHandshakeError: 503, message='Invalid response status'"
        in r.getMessage()
        for r in tries
    ), [r.getMessage() for r in tries]
