"""The bot's overall pace goes to the screens people wait for first (issue 14): the
presser's hand and the next player's turn pass table refreshes and other hands."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from aiogram import Bot
from aiogram.client.telegram import TelegramAPIServer

from adapters.telegram import Outbox, Pacing
from adapters.telegram.session import LeanSession
from bot.presenters import Screen
from tests.fakes.telegram import FakeTelegram

GROUPS = [-100 - i for i in range(6)]
PLAYER, OTHER = 4242, 4343
#: Two requests a window overall: the rest of a burst waits for places.
TIGHT = Pacing(group_limit=1000, group_window=1.0, private_interval=0.0, global_limit=2,
               global_window=0.2)  # fmt: skip


@pytest.fixture
async def outbox() -> AsyncIterator[tuple[FakeTelegram, Outbox]]:
    async with FakeTelegram(group_limit=1000) as tg:
        for user in (PLAYER, OTHER):
            tg.add_user(user, f"User {user}")
            tg.user_starts(user)
        for group in GROUPS:
            tg.add_group(group, f"Table {group}")
        bot = Bot("123:TEST", session=LeanSession(api=TelegramAPIServer.from_base(tg.base_url)))
        try:
            yield tg, Outbox(bot, TIGHT)
        finally:
            await bot.session.close()


def order(tg: FakeTelegram) -> list[int]:
    return [int(c.params["chat_id"]) for c in tg.calls_of("sendMessage", "editMessageText")]


async def test_an_urgent_hand_passes_queued_table_refreshes(
    outbox: tuple[FakeTelegram, Outbox],
) -> None:
    tg, box = outbox
    for index, group in enumerate(GROUPS):  # six tables to refresh: three windows' worth
        box.show(group, (index, "table"), Screen(f"table {index}"), version=1)
    box.show(OTHER, (99, "hand:1"), Screen("a waiting hand, refilled"), version=1)
    box.show(PLAYER, (99, "hand:0"), Screen("your turn"), version=1, urgent=True)
    await box.drain()
    sent = order(tg)
    assert sorted(sent) == sorted([*GROUPS, OTHER, PLAYER])  # everything went out
    # Two went before anything waited; the urgent hand took the first free place
    # (with one more table), before the other tables and the other hand.
    assert sent.index(PLAYER) < min(sent.index(group) for group in GROUPS[3:]), sent
    assert sent.index(OTHER) == len(sent) - 1  # not urgent: in its turn, after the tables


async def test_a_pressed_hand_is_urgent(outbox: tuple[FakeTelegram, Outbox]) -> None:
    tg, box = outbox
    for index, group in enumerate(GROUPS):
        box.show(group, (index, "table"), Screen(f"table {index}"), version=1)
    box.show(PLAYER, (99, "hand:0"), Screen("Q♠ selected"), version=1, pressed=True)
    await box.drain()
    sent = order(tg)
    assert sent.index(PLAYER) < min(sent.index(group) for group in GROUPS[3:]), sent
