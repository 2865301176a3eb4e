"""A player's selection (the screen his press asked for) stays until the game changes:
another screen of the same game state, published meanwhile, does not replace it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from aiogram import Bot
from aiogram.client.telegram import TelegramAPIServer

from adapters.telegram import Outbox, Pacing
from adapters.telegram.session import LeanSession
from bot.presenters import Screen
from testing.fakes.telegram import FakeTelegram

USER = 4242
SLOT = (1, "hand:0")


@pytest.fixture
async def outbox() -> AsyncIterator[tuple[FakeTelegram, Outbox]]:
    async with FakeTelegram() as tg:
        tg.add_user(USER, "Alice")
        tg.user_starts(USER)
        bot = Bot("123:TEST", session=LeanSession(api=TelegramAPIServer.from_base(tg.base_url)))
        try:
            yield tg, Outbox(bot, Pacing.off())
        finally:
            await bot.session.close()


def shown(tg: FakeTelegram) -> str | None:
    message = tg.last_message(USER)
    return None if message is None else message.text


@pytest.mark.parametrize("sent_first", [True, False])
async def test_a_selection_stays_until_the_game_changes(
    outbox: tuple[FakeTelegram, Outbox], sent_first: bool
) -> None:
    tg, box = outbox
    box.show(USER, SLOT, Screen("your turn"), version=5)
    await box.drain()
    box.show(USER, SLOT, Screen("your turn, Q♠ selected"), version=5, pressed=True)
    if sent_first:
        await box.drain()
    box.show(USER, SLOT, Screen("your turn"), version=5)  # the same state, published again
    await box.drain()
    assert shown(tg) == "your turn, Q♠ selected"
    box.show(USER, SLOT, Screen("your turn, Q♥ selected"), version=5, pressed=True)
    await box.drain()
    assert shown(tg) == "your turn, Q♥ selected"
    box.show(USER, SLOT, Screen("Bob's turn"), version=6)  # the game moved on
    await box.drain()
    assert shown(tg) == "Bob's turn"
    box.show(USER, SLOT, Screen("your turn"), version=4)  # older: never shown
    await box.drain()
    assert shown(tg) == "Bob's turn"
    assert len(tg.messages(USER)) == 1  # one hand message, edited in place
