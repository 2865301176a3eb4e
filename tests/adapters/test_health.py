"""The health and metrics endpoint, scraped over HTTP as Prometheus would."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from adapters.health import HealthServer, Readiness
from bot.codec import Command, Verb, encode
from bot.i18n import Translator
from bot.interactions import Interactions
from bot.memory import MemoryStorage
from bot.metrics import Metrics
from bot.models import ChatRef, Game, Platform, User, UserRef
from bot.presses import Pressed
from bot.service import GameService

ALICE = User(UserRef(Platform.TELEGRAM, "1"), "Alice")
CHAT = ChatRef(Platform.TELEGRAM, "-100")


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a scrape by name and labels."""
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[sample.name, tuple(sorted(sample.labels.items()))] = sample.value
    return found


class BrokenStorage(MemoryStorage):
    async def load_game(self, game_id: int) -> Game | None:
        raise ConnectionError("the database is gone")


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


async def test_health_readiness_and_metrics_are_scraped(http: aiohttp.ClientSession) -> None:
    metrics = Metrics()
    storage = MemoryStorage()
    service = GameService(storage, metrics=metrics)
    interactions = Interactions(service, Translator.from_dir(), metrics)
    connected = [False]
    server = HealthServer(metrics, storage, {"telegram": lambda: connected[0]}, port=0)
    await server.start()
    base = f"http://127.0.0.1:{server.port}"
    try:
        lobby = await service.open_table(CHAT, ALICE)
        await service.join(lobby.id, lobby.version, ALICE)  # a save
        await interactions.press(ALICE, "not a token", where=Pressed(CHAT))
        await interactions.press(
            ALICE, encode(Command(Verb.JOIN, lobby.id, 0, "A")), where=Pressed(CHAT)
        )  # stale
        metrics.requested("telegram", "sendMessage", 200)
        metrics.requested("telegram", "sendMessage", 429)
        metrics.requested("telegram", "getUpdates", None)

        async with http.get(f"{base}/healthz") as response:
            assert (response.status, await response.text()) == (200, "ok\n")
        async with http.get(f"{base}/readyz") as response:
            assert response.status == 503
            assert await response.text() == "storage: ok\ntelegram: down\n"
        connected[0] = True
        async with http.get(f"{base}/readyz") as response:
            assert response.status == 200
            assert await response.text() == "storage: ok\ntelegram: ok\n"

        async with http.get(f"{base}/metrics") as response:
            assert response.status == 200
            assert response.headers["Content-Type"].startswith("text/plain")
            scraped = samples(await response.text())
        telegram = (("platform", "telegram"),)
        assert scraped["kozel_presses_total", telegram] == 2
        assert scraped["kozel_press_seconds_count", telegram] == 2
        assert scraped["kozel_refusals_total", (("reason", "malformed"),)] == 1
        assert scraped["kozel_refusals_total", (("reason", "stale"),)] == 1
        assert scraped["kozel_saves_total", (("outcome", "ok"),)] == 1
        assert scraped["kozel_save_seconds_count", ()] == 1
        assert scraped["kozel_games_open", ()] == 1
        by_status = {
            (labels[0][1], labels[2][1]): value
            for (name, labels), value in scraped.items()
            if name == "kozel_platform_requests_total"
        }
        assert by_status == {
            ("sendMessage", "200"): 1,
            ("sendMessage", "429"): 1,
            ("getUpdates", "error"): 1,
        }
        assert scraped["kozel_rate_limited_total", telegram] == 1
    finally:
        await server.stop()
        await service.close()


async def test_a_storage_that_does_not_answer_is_not_ready(http: aiohttp.ClientSession) -> None:
    server = HealthServer(Metrics(), BrokenStorage(), {}, port=0)
    await server.start()
    try:
        async with http.get(f"http://127.0.0.1:{server.port}/readyz") as response:
            assert response.status == 503
            assert await response.text() == "storage: down\n"
    finally:
        await server.stop()


async def test_readyz_reads_a_platform_check_put_in_after_the_server_started(
    http: aiohttp.ClientSession,
) -> None:
    """``python -m bot`` puts a platform's check in once its bot runs, after the server
    started; the server kept a copy of the checks and answered "down" for ever. A check
    may also answer for each of its parts (Discord's shards)."""
    ready: dict[str, Readiness] = {"telegram": lambda: False}
    server = HealthServer(Metrics(), MemoryStorage(), ready, port=0)
    await server.start()
    try:
        ready["telegram"] = lambda: True
        ready["discord"] = lambda: {"discord shard 0": True, "discord shard 1": False}
        async with http.get(f"http://127.0.0.1:{server.port}/readyz") as response:
            assert response.status == 503
            assert await response.text() == (
                "storage: ok\ntelegram: ok\ndiscord shard 0: ok\ndiscord shard 1: down\n"
            )
        ready["discord"] = lambda: {"discord shard 0": True, "discord shard 1": True}
        async with http.get(f"http://127.0.0.1:{server.port}/readyz") as response:
            assert response.status == 200
    finally:
        await server.stop()
