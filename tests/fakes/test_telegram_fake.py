"""The fake Bot API server, driven by the real aiogram Bot and Dispatcher."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
import pytest
from aiogram import Bot, Dispatcher, F, Router
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.filters import Command, CommandStart
from aiogram.types import (
    BotCommand,
    CallbackQuery,
    ErrorEvent,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
)

from testing.fakes.telegram import FakeTelegram, FakeUser

TOKEN = "123456:TEST-token"
GROUP, FORUM = -1001, -1002

JOIN_KB = InlineKeyboardMarkup(
    inline_keyboard=[[InlineKeyboardButton(text="Join", callback_data="join")]]
)


class ManualClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def make_router(seen: list[Message]) -> Router:
    """A fresh router per Dispatcher (a Router attaches to one Dispatcher only)."""
    router = Router()

    @router.message(CommandStart())
    async def start(message: Message) -> None:
        await message.answer(f"echo: {message.text}")

    @router.message(Command("kozel"))
    async def lobby(message: Message) -> None:
        await message.answer("Lobby", reply_markup=JOIN_KB)

    @router.callback_query(F.data == "join")
    async def join(query: CallbackQuery) -> None:
        await query.answer("Joined")
        assert isinstance(query.message, Message)  # not InaccessibleMessage: the fake sends all
        await query.message.edit_text(f"Lobby: {query.from_user.first_name}", reply_markup=JOIN_KB)

    @router.message(F.migrate_to_chat_id | F.migrate_from_chat_id)
    async def migrated(message: Message, bot: Bot) -> None:
        seen.append(message)  # then an API call, so that tg.wait_for wakes up
        new_chat = message.migrate_to_chat_id or message.chat.id
        await bot.send_message(new_chat, f"seen in {message.chat.id}")

    return router


@asynccontextmanager
async def running_bot(tg: FakeTelegram, seen: list[Message]) -> AsyncIterator[Bot]:
    """Poll the fake with a real Dispatcher; fail if any handler raised."""
    bot = Bot(TOKEN, session=AiohttpSession(api=TelegramAPIServer.from_base(tg.base_url)))
    dp = Dispatcher()
    dp.include_router(make_router(seen))
    errors: list[BaseException] = []

    @dp.errors()
    async def collect(event: ErrorEvent) -> bool:
        errors.append(event.exception)
        return True

    polling = asyncio.create_task(dp.start_polling(bot, handle_signals=False))
    try:
        await tg.wait_for(lambda t: t.calls_of("getMe"))  # the Dispatcher is up
        yield bot
    finally:
        await dp.stop_polling()
        await polling
        await bot.session.close()
    if errors:
        pytest.fail(f"handler errors: {errors!r}")


@pytest.fixture
async def tg(request: pytest.FixtureRequest) -> AsyncIterator[FakeTelegram]:
    kwargs: dict[str, Any] = getattr(request, "param", {})
    async with FakeTelegram(**kwargs) as fake:
        yield fake


@pytest.fixture
def seen() -> list[Message]:
    return []


@pytest.fixture
async def bot(tg: FakeTelegram, seen: list[Message]) -> AsyncIterator[Bot]:
    async with running_bot(tg, seen) as running:
        yield running


@pytest.fixture
def alice(tg: FakeTelegram) -> FakeUser:
    user = tg.add_user(11, "Alice", username="alice")
    tg.add_group(GROUP, "Kozel club", admins=[user.id])
    tg.add_group(FORUM, "Kozel forum", admins=[user.id], forum=True)
    return user


# A long-poll cap far above the wait_for timeout: a reply only comes in time if
# getUpdates wakes up when the update is queued.
@pytest.mark.parametrize("tg", [{"poll_cap": 30.0}], indirect=True)
async def test_start_is_echoed_and_long_poll_wakes_at_once(
    tg: FakeTelegram, bot: Bot, alice: FakeUser
) -> None:
    update = await tg.send_text(alice, alice.id, "/start")
    entities = update["message"]["entities"]
    assert entities == [{"type": "bot_command", "offset": 0, "length": 6}]
    msg = await tg.wait_for(lambda t: t.last_message(alice.id), timeout=2.0)
    assert msg.text == "echo: /start"
    [call] = tg.calls_of("sendMessage")
    assert call.status == 200 and call.params["chat_id"] == alice.id


async def test_group_command_press_answer_and_edit(
    tg: FakeTelegram, bot: Bot, alice: FakeUser
) -> None:
    hidden = await tg.send_text(alice, GROUP, "just chatting")  # privacy mode: not delivered
    assert hidden["update_id"] == 0
    await tg.send_text(alice, GROUP, "/kozel@kozel_test_bot")
    lobby = await tg.wait_for(lambda t: t.last_message(GROUP))
    assert tg.buttons(GROUP, lobby.message_id) == [("Join", "join")]

    query_id = await tg.press_button(alice, GROUP, lobby.message_id, "Join")
    await tg.wait_for(lambda t: lobby.text == "Lobby: Alice")
    assert tg.callback_answers[query_id]["text"] == "Joined"
    assert tg.unanswered_callbacks() == []
    assert [c.method for c in tg.calls] == [
        "getMe", "sendMessage", "answerCallbackQuery", "editMessageText",
    ]  # fmt: skip
    # Answering the same query again, or an unknown one, is refused.
    for stale in (query_id, "999"):
        with pytest.raises(TelegramBadRequest, match="query is too old"):
            await bot.answer_callback_query(stale)


async def test_unanswered_press_is_reported(tg: FakeTelegram, bot: Bot, alice: FakeUser) -> None:
    sent = await bot.send_message(GROUP, "Table", reply_markup=JOIN_KB)
    query_id = await tg.press(alice, GROUP, sent.message_id, "no-handler")
    await tg.wait_idle(quiet=0.05)
    assert tg.unanswered_callbacks() == [query_id]


async def test_forbidden_until_the_user_starts_the_bot(tg: FakeTelegram, bot: Bot) -> None:
    bob = tg.add_user(22, "Bob")
    with pytest.raises(TelegramForbiddenError, match="can't initiate conversation"):
        await bot.send_message(bob.id, "Your hand")
    tg.user_starts(bob)
    assert (await bot.send_message(bob.id, "Your hand")).text == "Your hand"
    assert [c.status for c in tg.calls_of("sendMessage")] == [403, 200]


async def test_a_failing_method_into_a_chat_answers_500(
    tg: FakeTelegram, bot: Bot, alice: FakeUser
) -> None:
    sent = await bot.send_message(GROUP, "table")
    tg.failing.add(("editMessageText", GROUP))
    with pytest.raises(TelegramServerError):
        await bot.edit_message_text("edited", chat_id=GROUP, message_id=sent.message_id)
    await bot.send_message(GROUP, "other methods and chats answer as before")
    tg.failing.clear()
    await bot.edit_message_text("edited", chat_id=GROUP, message_id=sent.message_id)
    assert [c.status for c in tg.calls_of("editMessageText")] == [500, 200]


@pytest.mark.parametrize("tg", [{"group_limit": 5, "window": 1.0, "retry_after": 1}], indirect=True)
async def test_flood_limit_answers_429(tg: FakeTelegram, bot: Bot, alice: FakeUser) -> None:
    tg.clock = clock = ManualClock()
    first = await bot.send_message(GROUP, "0")
    for i in range(1, 4):
        await bot.send_message(GROUP, str(i))
    await bot.edit_message_text("edited", chat_id=GROUP, message_id=first.message_id)  # 5th
    with pytest.raises(TelegramRetryAfter) as refused:
        await bot.send_message(GROUP, "one too many")
    assert refused.value.retry_after == 1
    with pytest.raises(TelegramRetryAfter):
        await bot.edit_message_text("again", chat_id=GROUP, message_id=first.message_id)
    tg.user_starts(alice)
    await bot.send_message(alice.id, "private chats are not limited by group_limit")
    assert tg.too_many_requests_count == 2
    assert tg.too_many_requests_by_chat == {GROUP: 2}
    clock.now += 1.0  # the window slid past the first five
    await bot.send_message(GROUP, "fine again")


@pytest.mark.parametrize("tg", [{"global_limit": 3, "global_window": 1.0}], indirect=True)
async def test_overall_limit_counts_new_messages_to_users(
    tg: FakeTelegram, bot: Bot, alice: FakeUser
) -> None:
    """The FAQ's "about 30 a second" is for bulk notifications to users: new messages
    into private chats count, edits and group messages do not."""
    tg.clock = clock = ManualClock()
    users = [alice, *(tg.add_user(30 + i, f"User {i}") for i in range(3))]
    for user in users:
        tg.user_starts(user)
    first = await bot.send_message(alice.id, "0")
    await bot.send_message(users[1].id, "1")
    for i in range(5):  # a group's messages and edits are not notifications to users
        await bot.send_message(GROUP, f"group {i}")
    await bot.edit_message_text("edited", chat_id=alice.id, message_id=first.message_id)
    await bot.send_message(users[2].id, "2")
    with pytest.raises(TelegramRetryAfter) as refused:
        await bot.send_message(users[3].id, "one too many")
    assert refused.value.retry_after == 1 and tg.too_many_requests_count == 1
    clock.now += 1.0
    await bot.send_message(users[3].id, "fine again")


@pytest.mark.parametrize("tg", [{"chat_interval": 1.0}], indirect=True)
async def test_one_message_a_second_inside_any_chat(
    tg: FakeTelegram, bot: Bot, alice: FakeUser
) -> None:
    tg.clock = clock = ManualClock()
    tg.user_starts(alice)
    for chat in (alice.id, GROUP):
        first = await bot.send_message(chat, "0")
        with pytest.raises(TelegramRetryAfter):
            await bot.edit_message_text("an edit counts", chat_id=chat, message_id=first.message_id)
    assert tg.too_many_requests_by_chat == {alice.id: 1, GROUP: 1}
    clock.now += 1.0
    await bot.send_message(alice.id, "fine again")
    await bot.send_message(GROUP, "fine again")


async def test_default_retry_after_is_the_rest_of_the_window(tg: FakeTelegram, bot: Bot) -> None:
    tg.add_group(GROUP, "Kozel club")
    tg.clock = clock = ManualClock()
    for i in range(20):
        await bot.send_message(GROUP, str(i))
    clock.now += 15.0
    with pytest.raises(TelegramRetryAfter) as refused:
        await bot.send_message(GROUP, "21st")
    assert refused.value.retry_after == 45
    assert "retry after 45" in refused.value.message


async def test_edit_that_changes_nothing(tg: FakeTelegram, bot: Bot, alice: FakeUser) -> None:
    sent = await bot.send_message(GROUP, "Table", reply_markup=JOIN_KB)
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await bot.edit_message_text("Table", chat_id=GROUP, message_id=sent.message_id,
                                    reply_markup=JOIN_KB)  # fmt: skip
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await bot.edit_message_reply_markup(
            chat_id=GROUP, message_id=sent.message_id, reply_markup=JOIN_KB
        )
    # Like Telegram: editing the text without reply_markup drops the keyboard.
    await bot.edit_message_text("Table", chat_id=GROUP, message_id=sent.message_id)
    assert tg.buttons(GROUP, sent.message_id) == []


async def test_unknown_message(tg: FakeTelegram, bot: Bot, alice: FakeUser) -> None:
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await bot.edit_message_text("x", chat_id=GROUP, message_id=404)
    sent = await bot.send_message(GROUP, "bye")
    assert await bot.delete_message(GROUP, sent.message_id)
    assert tg.messages(GROUP)[-1].deleted and tg.last_message(GROUP) is None
    with pytest.raises(TelegramBadRequest, match="message to delete not found"):
        await bot.delete_message(GROUP, sent.message_id)


async def test_callback_data_is_limited_to_64_bytes(
    tg: FakeTelegram, bot: Bot, alice: FakeUser
) -> None:
    def keyboard(data: str) -> InlineKeyboardMarkup:
        return InlineKeyboardMarkup(
            inline_keyboard=[[InlineKeyboardButton(text="x", callback_data=data)]]
        )

    await bot.send_message(GROUP, "ok", reply_markup=keyboard("я" * 32))  # 64 bytes
    for data in ("a" * 65, "я" * 33):  # 65 and 66 bytes
        with pytest.raises(TelegramBadRequest, match="BUTTON_DATA_INVALID"):
            await bot.send_message(GROUP, "too long", reply_markup=keyboard(data))


async def test_text_is_limited_to_4096_characters(
    tg: FakeTelegram, bot: Bot, alice: FakeUser
) -> None:
    assert (await bot.send_message(GROUP, "я" * 4096)).text == "я" * 4096
    with pytest.raises(TelegramBadRequest, match="message is too long"):
        await bot.send_message(GROUP, "я" * 4097)
    with pytest.raises(TelegramBadRequest, match="message text is empty"):
        await bot.send_message(GROUP, "")


async def test_migration_to_supergroup(
    tg: FakeTelegram, bot: Bot, alice: FakeUser, seen: list[Message]
) -> None:
    await tg.migrate(GROUP, -1009)
    # wait_for re-checks on fake events only, so wait on the bot's replies, not on `seen`.
    await tg.wait_for(lambda t: len(t.calls_of("sendMessage")) == 2)
    assert {m.text for m in tg.messages(-1009)[1:]} == {f"seen in {GROUP}", "seen in -1009"}
    by_chat = {m.chat.id: m for m in seen}
    assert by_chat[GROUP].migrate_to_chat_id == -1009
    assert by_chat[-1009].migrate_from_chat_id == GROUP
    with pytest.raises(TelegramMigrateToChat) as moved:
        await bot.send_message(GROUP, "hello?")
    assert moved.value.migrate_to_chat_id == -1009
    assert tg.chats[-1009].type == "supergroup"


async def test_forum_topic_is_kept(tg: FakeTelegram, bot: Bot, alice: FakeUser) -> None:
    await tg.send_text(alice, FORUM, "/kozel", thread_id=7)
    lobby = await tg.wait_for(lambda t: t.last_message(FORUM))
    assert lobby.thread_id == 7
    assert tg.calls_of("sendMessage")[0].params["message_thread_id"] == 7


async def test_chat_queries_parse_in_aiogram(tg: FakeTelegram, bot: Bot, alice: FakeUser) -> None:
    tg.add_user(22, "Bob")
    assert (await bot.get_chat_member(GROUP, alice.id)).status == "administrator"
    assert (await bot.get_chat_member(GROUP, 22)).status == "member"
    assert [m.user.id for m in await bot.get_chat_administrators(GROUP)] == [alice.id]
    assert (await bot.get_chat(FORUM)).is_forum
    assert await bot.send_chat_action(GROUP, "typing")
    sent = await bot.send_message(GROUP, "pin me")
    assert await bot.pin_chat_message(GROUP, sent.message_id)
    assert tg.chats[GROUP].pinned == {sent.message_id}
    assert await bot.unpin_chat_message(GROUP, message_id=sent.message_id)
    assert await bot.set_my_commands([BotCommand(command="kozel", description="play")])
    assert list(tg.commands.values()) == [[{"command": "kozel", "description": "play"}]]
    assert await bot.delete_my_commands()
    assert await bot.delete_webhook() and await bot.set_webhook("https://example.org/hook")
    assert tg.calls_of("setWebhook")[0].params["url"] == "https://example.org/hook"


async def test_raw_http_envelopes(tg: FakeTelegram) -> None:
    url = f"{tg.base_url}/bot{TOKEN}"
    tg.add_group(GROUP, "Kozel club")
    async with aiohttp.ClientSession() as http:
        async with http.post(f"{url}/noSuchMethod") as resp:
            assert resp.status == 404
            assert await resp.json() == {"ok": False, "error_code": 404, "description": "Not Found"}
        markup = {"inline_keyboard": [[{"text": "A", "callback_data": "a"}]]}
        async with http.post(
            f"{url}/sendMessage", json={"chat_id": GROUP, "text": "42", "reply_markup": markup}
        ) as resp:
            assert (await resp.json())["result"]["text"] == "42"
        async with http.post(f"{url}/sendMessage", data={"chat_id": str(GROUP), "text": "7"}):
            pass
    sent = tg.calls_of("sendMessage")
    assert [c.params["text"] for c in sent] == ["42", "7"]  # text stays a string
    assert sent[0].params["reply_markup"] == markup


async def test_wait_for_times_out_with_the_last_calls(tg: FakeTelegram, bot: Bot) -> None:
    with pytest.raises(TimeoutError, match=r"last calls:\n  getMe 200"):
        await tg.wait_for(lambda t: False, timeout=0.05)
