"""``DISCORD_API_URL``: the bot talks to another Discord API (a rate-limit proxy, or
the fake here) by its setting alone, nothing of discord.py patched by the test."""

from __future__ import annotations

import asyncio

from discord.gateway import DiscordWebSocket
from discord.http import Route
from prometheus_client.parser import text_string_to_metric_families

from adapters.discord import DiscordAdapter
from adapters.discord.client import KozelBot
from bot.i18n import Translator
from bot.interactions import Interactions
from bot.memory import MemoryStorage
from bot.metrics import Metrics
from bot.service import GameService
from bot.settings import Settings
from testing.fakes.discord import TOKEN, FakeDiscord
from tests.adapters.discord.harness import ALICE, CHANNEL, world


async def test_the_api_url_setting_points_the_bot_at_another_api(tr: Translator) -> None:
    before = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    assert before[0] == "https://discord.com/api/v10"
    async with FakeDiscord(patch=False) as dc:
        world(dc)
        metrics = Metrics()
        service = GameService(MemoryStorage(), computer_delay=0, metrics=metrics)
        settings = Settings(
            _env_file=None,  # type: ignore[call-arg]
            discord_bot_token=TOKEN,
            discord_api_url=dc.api_base + "/",
        )
        adapter = DiscordAdapter(
            settings,
            service,
            Interactions(service, tr),
            tr,
            client_factory=lambda a: KozelBot(a, guild_ready_timeout=0.01),
        )
        run = asyncio.create_task(adapter.run())
        try:
            async with asyncio.timeout(10.0):
                await adapter.started.wait()  # logged in and connected through the fake
            assert dc.api_base == Route.BASE
            assert str(DiscordWebSocket.DEFAULT_GATEWAY) == dc.gateway_url  # from /gateway/bot
            iid = await dc.slash(ALICE, CHANNEL, "help")
            await dc.wait_for(lambda: dc.responses(iid).content and not dc.responses(iid).loading)

            # discord.py's requests are counted by route, ids left out (those made
            # before the bot was ready: logging in, finding the gateway, the commands).
            counted = {
                sample.labels["method"]: sample.labels["status"]
                for family in text_string_to_metric_families(metrics.exposition().decode())
                for sample in family.samples
                if sample.name == "kozel_platform_requests_total"
                and sample.labels["platform"] == "discord"
            }
            assert counted["GET /users/@me"] == counted["GET /gateway/bot"] == "200"
            assert "GET /applications/:id/commands" in counted
        finally:
            run.cancel()
            await asyncio.gather(run, return_exceptions=True)
            await service.close()
    assert before == (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)  # put back


def test_an_empty_api_url_is_discords_own() -> None:
    settings = Settings(_env_file=None, discord_api_url="")  # type: ignore[call-arg]
    assert settings.discord_api_url is None
