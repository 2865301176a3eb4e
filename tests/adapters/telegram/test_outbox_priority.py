"""How the outbox spends its writes (issue 14). The bot's overall pace counts what
Telegram's Bots FAQ says its "about 30 messages a second" is for, bulk notifications
to users (new messages into private chats), and gives its places to the screens
people wait for first (the presser's hand, the next player's turn). Screens nobody
waits for (table refreshes) are coalesced until the slot's refresh comes, something
is queued behind them, or an urgent screen of the slot comes."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from aiogram import Bot
from aiogram.client.telegram import TelegramAPIServer

from adapters.telegram import Outbox, Pacing
from adapters.telegram.outbox import ANSWERS_PER_CHAT
from adapters.telegram.session import LeanSession
from bot.presenters import Screen
from testing.fakes.telegram import FakeTelegram

GROUPS = [-100 - i for i in range(6)]
USERS = [5000 + i for i in range(6)]
PLAYER, OTHER = 4242, 4343
#: Two new private messages a window overall: the rest of a burst waits for places.
TIGHT = Pacing(group_limit=1000, group_window=1.0, chat_interval=0.0, global_limit=2,
               global_window=0.2, refresh=0.0)  # fmt: skip


@pytest.fixture
async def outbox() -> AsyncIterator[tuple[FakeTelegram, Outbox]]:
    async with FakeTelegram(group_limit=1000) as tg:
        for user in (PLAYER, OTHER, *USERS):
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


async def test_an_urgent_hand_passes_queued_notices(outbox: tuple[FakeTelegram, Outbox]) -> None:
    tg, box = outbox
    for user in USERS:  # six private messages: three windows' worth
        box.send(user, Screen(f"a notice for {user}"))
    box.show(OTHER, (99, "hand:1"), Screen("a waiting hand"), version=1)
    box.show(PLAYER, (99, "hand:0"), Screen("your turn"), version=1, urgent=True)
    await box.drain()
    sent = order(tg)
    assert sorted(sent) == sorted([*USERS, OTHER, PLAYER])  # everything went out
    # Two went before anything waited; the urgent hand took the first free place
    # (with one more notice), before the other notices and the other hand.
    assert sent.index(PLAYER) < min(sent.index(user) for user in USERS[3:]), sent
    assert sent.index(OTHER) == len(sent) - 1  # not urgent: in its turn, after the notices


async def test_a_pressed_hand_is_urgent(outbox: tuple[FakeTelegram, Outbox]) -> None:
    tg, box = outbox
    for user in USERS:
        box.send(user, Screen(f"a notice for {user}"))
    box.show(PLAYER, (99, "hand:0"), Screen("Q♠ selected"), version=1, pressed=True)
    await box.drain()
    sent = order(tg)
    assert sent.index(PLAYER) < min(sent.index(user) for user in USERS[3:]), sent


async def test_edits_and_group_messages_do_not_wait_for_the_overall_pace() -> None:
    """One new private message a minute overall: the first takes it; the group
    messages and the edits after it go out at once all the same."""
    async with FakeTelegram(group_limit=1000, global_limit=1, global_window=60.0) as tg:
        tg.add_user(PLAYER, "Player")
        tg.user_starts(PLAYER)
        for group in GROUPS:
            tg.add_group(group, f"Table {group}")
        bot = Bot("123:TEST", session=LeanSession(api=TelegramAPIServer.from_base(tg.base_url)))
        box = Outbox(
            bot,
            Pacing(chat_interval=0.0, global_limit=1, global_window=60.0, refresh=0.0),
        )
        try:
            box.show(PLAYER, (1, "hand:0"), Screen("a hand"), version=1)
            await asyncio.wait_for(box.drain(), 5)
            box.show(PLAYER, (1, "hand:0"), Screen("the hand, edited"), version=2)
            for index, group in enumerate(GROUPS):
                box.show(group, (index, "table"), Screen(f"table {index}"), version=1)
                box.show(group, (index, "table"), Screen(f"table {index}, edited"), version=2)
            await asyncio.wait_for(box.drain(), 5)  # nothing waited a minute
        finally:
            await bot.session.close()
        assert tg.too_many_requests_count == 0
        assert [m.text for m in tg.messages(PLAYER)] == ["the hand, edited"]


async def test_overall_pace_is_never_refused_by_a_server_counting_arrivals() -> None:
    """A message counts until a window after its answer: however the requests travel,
    the server never sees more than the limit in its window (it counted 429s when a
    request counted only from when it was let go)."""
    async with FakeTelegram(group_limit=1000, global_limit=5, global_window=0.2) as tg:
        users = range(5000, 5030)
        for user in users:
            tg.add_user(user, f"User {user}")
            tg.user_starts(user)
        bot = Bot("123:TEST", session=LeanSession(api=TelegramAPIServer.from_base(tg.base_url)))
        pacing = Pacing(chat_interval=0.0, global_limit=5, global_window=0.2, refresh=0.0)
        box = Outbox(bot, pacing)
        try:
            for user in users:
                box.show(user, (1, f"hand:{user}"), Screen(f"hand {user}"), version=1)
            await box.drain()
        finally:
            await bot.session.close()
        assert tg.too_many_requests_count == 0 and box.stats.retried_429 == 0
        assert len(tg.calls_of("sendMessage")) == len(users)


@pytest.fixture
async def held() -> AsyncIterator[tuple[FakeTelegram, Outbox]]:
    """An outbox whose screens nobody waits for wait a minute after their slot's last
    write: only what ends the wait lets them out within a test."""
    async with FakeTelegram() as tg:
        tg.add_group(GROUPS[0], "Table")
        bot = Bot("123:TEST", session=LeanSession(api=TelegramAPIServer.from_base(tg.base_url)))
        try:
            yield tg, Outbox(bot, Pacing(chat_interval=0.0, refresh=60.0))
        finally:
            await bot.session.close()


async def _shown_once(box: Outbox) -> None:
    box.show(GROUPS[0], (1, "table"), Screen("table 1"), version=1)
    await asyncio.wait_for(box.drain(), 5)  # a slot's first screen goes at once


async def test_table_refreshes_are_coalesced_until_something_follows_them(
    held: tuple[FakeTelegram, Outbox],
) -> None:
    tg, box = held
    await _shown_once(box)
    for version in (2, 3, 4):  # three moves: held, one job
        box.show(GROUPS[0], (1, "table"), Screen(f"table {version}"), version=version)
    for _ in range(20):
        await asyncio.sleep(0)  # the worker had its chances: still held
    assert box.queued == 1 and len(tg.calls_of("editMessageText")) == 0
    box.send(GROUPS[0], Screen("the deal's result"))  # a message behind it: the table goes
    await asyncio.wait_for(box.drain(), 5)
    assert [m.text for m in tg.messages(GROUPS[0])] == ["table 4", "the deal's result"]
    assert len(tg.calls_of("editMessageText")) == 1


async def test_an_urgent_screen_ends_its_slots_wait(held: tuple[FakeTelegram, Outbox]) -> None:
    tg, box = held
    await _shown_once(box)
    box.show(GROUPS[0], (1, "table"), Screen("table 2"), version=2)
    box.show(GROUPS[0], (1, "table"), Screen("table 3, the lobby"), version=3, urgent=True)
    await asyncio.wait_for(box.drain(), 5)
    assert [m.text for m in tg.messages(GROUPS[0])] == ["table 3, the lobby"]
    assert len(tg.calls_of("editMessageText")) == 1


# --- Answers to commands go after the game (issue 23, point 3) ----------------------------


async def test_an_answer_waiting_for_the_pace_steps_back_for_the_table() -> None:
    """One write a second into the group: an answer whose turn came waits for the
    pace; a table edit queued meanwhile goes first when the second is over."""
    async with FakeTelegram(group_limit=1000) as tg:
        tg.add_group(GROUPS[0], "Table")
        bot = Bot("123:TEST", session=LeanSession(api=TelegramAPIServer.from_base(tg.base_url)))
        box = Outbox(bot, Pacing(chat_interval=1.0, refresh=0.0))
        try:
            box.show(GROUPS[0], (1, "table"), Screen("table 1"), version=1)
            await asyncio.wait_for(box.drain(), 5)
            box.answer(GROUPS[0], Screen("help"), "/help")
            while box.queued:  # noqa: ASYNC110 (until the worker took it: it waits for the pace)
                await asyncio.sleep(0)
            box.show(GROUPS[0], (1, "table"), Screen("table 2"), version=2)
            await asyncio.wait_for(box.drain(), 10)
        finally:
            await bot.session.close()
    texts = [str(call.params["text"]) for call in tg.calls_of("sendMessage", "editMessageText")]
    assert texts == ["table 1", "table 2", "help"]


async def test_answers_coalesce_by_key_and_are_bounded(
    outbox: tuple[FakeTelegram, Outbox],
) -> None:
    tg, box = outbox
    group = GROUPS[0]
    for number in range(50):  # nothing goes out before the loop yields
        box.answer(group, Screen(f"help {number}"), "/help")
        box.answer(group, Screen(f"top {number}"), "/top")
    for number in range(20):
        box.answer(group, Screen(f"rules {number}"), f"/rules {number}", busy=_busy)
    assert box.queued == ANSWERS_PER_CHAT + 1  # ten keys, and the notice
    assert box.stats.coalesced == 2 * 49 and box.stats.dropped == 12
    await asyncio.wait_for(box.drain(), 10)
    texts = [str(call.params["text"]) for call in tg.calls_of("sendMessage")]
    rules = [f"rules {n}" for n in range(ANSWERS_PER_CHAT - 2)]
    assert texts == ["help 49", "top 49", *rules, "some answers were dropped"]
    assert box.queued == 0 and not box._answers  # nothing kept for the chat


async def _busy() -> Screen:
    return Screen("some answers were dropped")
