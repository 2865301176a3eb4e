"""A group's rate-limit budget outlives the process: a restarted outbox goes on from
the requests the one before it made, instead of bursting into 429s."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from aiogram import Bot
from aiogram.client.telegram import TelegramAPIServer

from adapters.telegram import Outbox, Pacing
from adapters.telegram.adapter import KeptBudget
from adapters.telegram.session import LeanSession
from bot.memory import MemoryStorage
from bot.models import Platform
from bot.presenters import Screen
from bot.service import GameService
from testing.fakes.telegram import FakeTelegram

GROUP = -1001
#: The fake and the bot agree: 3 requests a second into a group.
LIMIT = Pacing(group_limit=3, group_window=1.0, chat_interval=0.0, global_limit=1000, refresh=0.0)


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(group_limit=3, window=1.0) as fake:
        fake.add_group(GROUP, "Club")
        yield fake


async def burst(outbox: Outbox, name: str) -> None:
    for index in range(3):
        outbox.send(GROUP, Screen(f"{name} {index}"))
    await outbox.drain()
    await outbox.close()


def sends(tg: FakeTelegram, prefix: str) -> list[float]:
    calls = tg.calls_of("sendMessage")
    return [c.time for c in calls if c.status == 200 and str(c.params["text"]).startswith(prefix)]


async def test_a_restarted_outbox_goes_on_from_the_groups_kept_budget(tg: FakeTelegram) -> None:
    storage = MemoryStorage()
    bot = Bot("123:TEST", session=LeanSession(api=TelegramAPIServer.from_base(tg.base_url)))
    try:
        await burst(Outbox(bot, LIMIT, budget=KeptBudget(GameService(storage))), "before")
        kept = await storage.send_times(Platform.TELEGRAM)
        assert len(kept[str(GROUP)]) == 3
        # The next process: its outbox reads the budget and waits for the window.
        await burst(Outbox(bot, LIMIT, budget=KeptBudget(GameService(storage))), "after")
        assert tg.too_many_requests_count == 0
        assert len(sends(tg, "after")) == 3
        assert sends(tg, "after")[0] - sends(tg, "before")[0] >= LIMIT.group_window
        # An outbox that forgets what was sent bursts right into a 429.
        await burst(Outbox(bot, LIMIT), "careless")
        assert tg.too_many_requests_count >= 1
    finally:
        await bot.session.close()
