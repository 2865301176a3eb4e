"""The lean session: JSON bodies, answers parsed from bytes, and aiogram's own
exceptions and results, exactly as with aiogram's form-data session."""

from __future__ import annotations

import datetime
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.enums import ChatAction
from aiogram.exceptions import (
    ClientDecodeError,
    TelegramAPIError,
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNetworkError,
    TelegramNotFound,
    TelegramRetryAfter,
)
from aiogram.methods import (
    AnswerCallbackQuery,
    EditMessageText,
    GetChatMember,
    GetUpdates,
    SendMessage,
)
from aiogram.methods.base import TelegramMethod
from aiogram.types import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BufferedInputFile,
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    ReplyParameters,
    Update,
    User,
)

from adapters.telegram import Pacing, TelegramAdapter
from adapters.telegram.middlewares import CallbackAnswer
from adapters.telegram.outbox import Outbox
from adapters.telegram.render import keyboard
from adapters.telegram.session import LeanSession
from bot.i18n import Translator
from bot.interactions import Interactions
from bot.memory import MemoryStorage
from bot.presenters import Button, Screen
from bot.service import GameService
from bot.settings import Settings
from testing.fakes.telegram import FakeTelegram

TOKEN = "123456:TEST-token"
GROUP = -1001
KEYBOARD = InlineKeyboardMarkup(
    inline_keyboard=[
        [InlineKeyboardButton(text="7♠", callback_data="k:s:1:2:7s")],
        [InlineKeyboardButton(text="Web", url="https://t.me/kozel_test_bot?start=x")],
    ]
)
JSON = "application/json"


def lean(tg: FakeTelegram, **kwargs: Any) -> Bot:
    return Bot(TOKEN, session=LeanSession(api=TelegramAPIServer.from_base(tg.base_url)), **kwargs)


def stock(tg: FakeTelegram, **kwargs: Any) -> Bot:
    return Bot(
        TOKEN, session=AiohttpSession(api=TelegramAPIServer.from_base(tg.base_url)), **kwargs
    )


@pytest.fixture
async def tg(request: pytest.FixtureRequest) -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(**getattr(request, "param", {})) as fake:
        fake.add_group(GROUP, "Kozel club", admins=[1])
        fake.add_user(1, "Alice", language_code="en")
        fake.user_starts(1)
        yield fake


@pytest.fixture
async def bot(tg: FakeTelegram) -> AsyncIterator[Bot]:
    bot = lean(tg)
    yield bot
    await bot.session.close()


async def test_a_request_goes_as_one_json_document(tg: FakeTelegram, bot: Bot) -> None:
    sent = await bot.send_message(GROUP, "42", reply_markup=KEYBOARD, message_thread_id=7)
    [call] = tg.calls_of("sendMessage")
    assert call.content_type == JSON
    assert call.params == {
        "chat_id": GROUP,
        "text": "42",  # a string, though it looks like a number
        "message_thread_id": 7,
        "reply_markup": json.loads(KEYBOARD.model_dump_json(exclude_none=True)),
    }
    # The answer is a Message bound to the bot, nested objects too.
    assert isinstance(sent, Message) and sent.text == "42"
    assert sent.bot is bot and sent.chat.bot is bot
    assert sent.reply_markup is not None
    assert sent.reply_markup.model_dump() == KEYBOARD.model_dump()


Request = Callable[[Bot], Awaitable[Any]]
REQUESTS: dict[str, Request] = {
    "message with defaults": lambda b: b.send_message(
        GROUP, "<b>hi</b>", reply_parameters=ReplyParameters(message_id=1), reply_markup=KEYBOARD
    ),
    "edit": lambda b: b.edit_message_text("edited", chat_id=GROUP, message_id=1),
    "false stays false": lambda b: b.answer_callback_query("404", text="x", show_alert=False),
    "an enum": lambda b: b.send_chat_action(GROUP, ChatAction.TYPING),
    "a date": lambda b: b.ban_chat_member(
        GROUP, 1, until_date=datetime.datetime(2030, 1, 1, tzinfo=datetime.UTC)
    ),
    "nested objects": lambda b: b.set_my_commands(
        [BotCommand(command="kozel", description="play")], scope=BotCommandScopeAllGroupChats()
    ),
    "an empty list": lambda b: b.set_webhook("https://example.org/hook", allowed_updates=[]),
}


@pytest.mark.parametrize("request_of", REQUESTS.values(), ids=REQUESTS.keys())
async def test_the_bot_api_gets_what_the_form_said(tg: FakeTelegram, request_of: Request) -> None:
    """Every kind of value arrives as aiogram's form-data session sends it (the bot's
    defaults resolved, ``None`` left out, ``False`` and ``[]`` kept); only a date
    stays the string aiogram makes of it instead of becoming a number."""
    defaults = DefaultBotProperties(parse_mode="HTML", link_preview_is_disabled=True)
    for make in (stock, lean):
        bot = make(tg, default=defaults)
        try:
            await request_of(bot)
        except TelegramAPIError:
            pass  # unknown to the fake, a stale query: what was sent is recorded anyway
        finally:
            await bot.session.close()
    form, body = tg.calls[-2], tg.calls[-1]
    assert form.content_type == "application/x-www-form-urlencoded"
    assert body.content_type == JSON
    assert {k: str(v) for k, v in body.params.items()} == {
        k: str(v) for k, v in form.params.items()
    }
    assert {k: v for k, v in body.params.items() if k != "until_date"} == {
        k: v for k, v in form.params.items() if k != "until_date"
    }


async def test_files_go_as_a_form(tg: FakeTelegram, bot: Bot) -> None:
    document = BufferedInputFile(b"kozel", filename="rules.txt")
    sent = await bot.send_document(GROUP, document, caption="rules")
    [call] = tg.calls_of("sendDocument")
    assert call.content_type == "multipart/form-data"
    [upload] = [v for v in call.params.values() if isinstance(v, dict)]
    assert upload == {"filename": "rules.txt", "size": 5}
    assert call.params["caption"] == "rules"
    assert sent.document is not None and sent.document.file_name == "rules.txt"


@pytest.mark.parametrize("tg", [{"group_limit": 1, "retry_after": 3}], indirect=True)
async def test_errors_raise_what_aiogram_raises(tg: FakeTelegram, bot: Bot) -> None:
    first = await bot.send_message(GROUP, "one")
    with pytest.raises(TelegramRetryAfter) as flood:
        await bot.send_message(GROUP, "two")
    assert flood.value.retry_after == 3
    tg.group_limit = 100
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await bot.edit_message_text("one", chat_id=GROUP, message_id=first.message_id)
    tg.add_user(2, "Bob")  # never wrote to the bot
    with pytest.raises(TelegramForbiddenError, match="can't initiate conversation"):
        await bot.send_message(2, "your hand")
    with pytest.raises(TelegramNotFound):
        await bot.get_user_profile_photos(1)
    await tg.migrate(GROUP, -1009)
    with pytest.raises(TelegramMigrateToChat) as moved:
        await bot.send_message(GROUP, "hello?")
    assert moved.value.migrate_to_chat_id == -1009
    assert {c.content_type for c in tg.calls} == {JSON}


ANSWERS: list[tuple[int, bytes]] = [
    (200, b'{"ok":true,"result":true}'),
    (429, b'{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 7",'
          b'"parameters":{"retry_after":7}}'),
    (400, b'{"ok":false,"error_code":400,"description":"Bad Request: group chat was upgraded",'
          b'"parameters":{"migrate_to_chat_id":-1009}}'),
    (400, b'{"ok":false,"error_code":400,"description":"Bad Request: message is not modified"}'),
    (403, b'{"ok":false,"error_code":403,"description":"Forbidden: bot was blocked by the user"}'),
    (500, b'{"ok":false,"error_code":500,"description":"Internal Server Error: restart"}'),
    (502, b"<html><body>502 Bad Gateway</body></html>"),
    (200, b'{"ok":true}'),
    (200, b'{"ok":true,"result":{"message_id":"not a number"}}'),
    (418, b'{"ok":false,"error_code":418,"description":"I\'m a teapot"}'),
]  # fmt: skip


@pytest.mark.parametrize(("status", "raw"), ANSWERS)
def test_an_answer_parses_or_fails_as_in_aiogram(status: int, raw: bytes) -> None:
    session = LeanSession()
    bot = Bot(TOKEN, session=session)
    method = EditMessageText(text="x", chat_id=GROUP, message_id=1)
    outcomes: list[tuple[object, object]] = []
    for parse in (session.parse_response, _aiogram_parse(session)):
        try:
            outcomes.append(("result", parse(bot, method, status, raw)))
        except TelegramAPIError as error:
            outcomes.append((type(error), str(error)))
        except ClientDecodeError as error:
            outcomes.append((type(error), error.message))
    assert outcomes[0] == outcomes[1]


def _aiogram_parse(session: LeanSession) -> Callable[..., Any]:
    def parse(bot: Bot, method: TelegramMethod[Any], status: int, raw: bytes) -> Any:
        return session.check_response(bot, method, status, raw.decode()).result

    return parse


async def test_results_are_those_aiogram_builds(tg: FakeTelegram, bot: Bot) -> None:
    """Messages with keyboards, chat members (a union), updates with callback
    queries: parsed from bytes, they equal aiogram's ``json.loads`` + validation."""
    session = bot.session
    assert isinstance(session, LeanSession)
    sent = await bot.send_message(GROUP, "table", reply_markup=KEYBOARD)
    message = tg.message_dict(tg.messages(GROUP)[-1])
    assert message["message_id"] == sent.message_id and "reply_markup" in message
    member = {"status": "member", "user": tg.users[1].to_dict()}
    update = {
        "update_id": 5,
        "callback_query": {
            "id": "77",
            "from": tg.users[1].to_dict(),
            "message": message,
            "chat_instance": "1",
            "data": "k:s:1:2:7s",
        },
    }
    cases: list[tuple[TelegramMethod[Any], Any]] = [
        (SendMessage(chat_id=GROUP, text="table"), message),
        (EditMessageText(text="table", chat_id=GROUP, message_id=1), message),
        (GetChatMember(chat_id=GROUP, user_id=1), member),
        (AnswerCallbackQuery(callback_query_id="77"), True),
    ]
    for method, result in cases:
        raw = json.dumps({"ok": True, "result": result}).encode()
        ours = session.parse_response(bot, method, 200, raw)
        assert ours == session.check_response(bot, method, 200, raw.decode()).result
    raw = json.dumps({"ok": True, "result": [update]}).encode()
    [parsed] = session.parse_response(bot, GetUpdates(), 200, raw)
    assert parsed == Update.model_validate(update, context={"bot": bot})
    assert parsed.callback_query is not None and parsed.callback_query.bot is bot
    message_of_query = parsed.callback_query.message
    assert isinstance(message_of_query, Message) and message_of_query.bot is bot


def test_response_models_are_kept() -> None:
    session = LeanSession()
    assert session.response_model(Message) is session.response_model(Message)
    assert session.response_model(bool) is not session.response_model(Message)


async def test_the_adapter_talks_through_the_lean_session(tr: Translator) -> None:
    service = GameService(MemoryStorage())
    settings = Settings(
        telegram_bot_token="123456:TEST-token",
        telegram_api_url="http://127.0.0.1:9",
        telegram_webhook_url=None,
        _env_file=None,
    )
    adapter = TelegramAdapter(settings, service, Interactions(service, tr), tr)
    try:
        assert isinstance(adapter.bot.session, LeanSession)
        assert adapter.bot.session.api.base == "http://127.0.0.1:9/bot{token}/{method}"
        assert adapter.webhook is None
    finally:
        await adapter.bot.session.close()
        await service.close()


async def test_the_global_rate_is_a_setting(tr: Translator) -> None:
    service = GameService(MemoryStorage())
    settings = Settings(
        telegram_bot_token="123456:TEST-token",
        telegram_global_rate=7,
        _env_file=None,
    )
    adapter = TelegramAdapter(settings, service, Interactions(service, tr), tr)
    try:
        assert adapter.outbox.pacing.global_limit == 7
        assert adapter.outbox.pacing.global_window == 1.0
        default = Settings(telegram_bot_token="123456:TEST-token", _env_file=None)
        assert default.telegram_global_rate == 30 == Pacing().global_limit
    finally:
        await adapter.bot.session.close()
        await service.close()


@pytest.mark.parametrize("tg", [{"group_limit": 1, "retry_after": 3}], indirect=True)
async def test_every_request_is_observed_with_its_status(tg: FakeTelegram, bot: Bot) -> None:
    seen: list[tuple[str, int | None]] = []
    session = bot.session
    assert isinstance(session, LeanSession)
    session.observe = lambda method, status: seen.append((method, status))
    await bot.send_message(GROUP, "one")
    with pytest.raises(TelegramRetryAfter):
        await bot.send_message(GROUP, "two")  # the fake's group limit: a 429
    assert seen == [("sendMessage", 200), ("sendMessage", 429)]


# --- Requests without models (LeanSession.post) ------------------------------------------


SCREENS = [
    Screen("no buttons"),
    Screen("only a label", ((Button("nothing"),),)),
    Screen(
        "hand ♠",
        (
            (Button("✅ 10♥", "k:h:1:2:0"), Button("A♠", "k:h:1:2:3")),
            (Button("inert"),),
            (Button("Web", url="https://t.me/x?start=j1_A"), Button("✖", "k:f:1:2:")),
        ),
    ),
]


@pytest.mark.parametrize("screen", SCREENS, ids=[s.text for s in SCREENS])
async def test_an_outbox_edit_sends_what_the_model_would(
    tg: FakeTelegram, bot: Bot, screen: Screen
) -> None:
    """The lean edit's body is the one aiogram's model makes for the same edit."""
    sent = await bot.send_message(GROUP, "before")
    outbox = Outbox(bot, Pacing.off())
    assert await outbox._edit(GROUP, sent.message_id, screen)
    await bot.edit_message_text(
        "again", chat_id=GROUP, message_id=sent.message_id, reply_markup=keyboard(screen)
    )
    lean_call, model_call = tg.calls_of("editMessageText")
    assert lean_call.content_type == model_call.content_type == JSON
    assert lean_call.params == {**model_call.params, "text": screen.text}
    assert tg.messages(GROUP)[-1].text == "again"


async def test_a_lean_answer_sends_what_the_model_would(tg: FakeTelegram, bot: Bot) -> None:
    sent = await bot.send_message(GROUP, "table", reply_markup=KEYBOARD)
    ids = [await tg.press(1, GROUP, sent.message_id, "k:s:1:2:7s") for _ in range(4)]

    def query(index: int) -> CallbackQuery:
        user = User(id=1, is_bot=False, first_name="Alice")
        return CallbackQuery(id=ids[index], from_user=user, chat_instance="1").as_(bot)

    await CallbackAnswer(query(0))("Not your turn")
    await bot.answer_callback_query(ids[1], text="Not your turn", show_alert=True)
    await CallbackAnswer(query(2))()
    await bot.answer_callback_query(ids[3])
    lean, model, lean_empty, model_empty = tg.calls_of("answerCallbackQuery")
    assert all(call.status == 200 for call in (lean, model, lean_empty, model_empty))
    assert lean.params == {**model.params, "callback_query_id": ids[0]}
    assert lean_empty.params == {**model_empty.params, "callback_query_id": ids[2]}
    assert lean.content_type == model.content_type == JSON
    assert tg.callback_answers[ids[0]]["text"] == "Not your turn"


@pytest.mark.parametrize("tg", [{"group_limit": 1, "retry_after": 3}], indirect=True)
async def test_a_lean_request_raises_what_aiogram_raises(tg: FakeTelegram, bot: Bot) -> None:
    session = bot.session
    assert isinstance(session, LeanSession)
    seen: list[tuple[str, int | None]] = []
    session.observe = lambda method, status: seen.append((method, status))
    first = await bot.send_message(GROUP, "one")
    made: list[TelegramMethod[Any]] = []

    def edit() -> EditMessageText:
        made.append(EditMessageText(text="one", chat_id=GROUP, message_id=first.message_id))
        return made[-1]

    def send() -> SendMessage:
        made.append(SendMessage(chat_id=GROUP, text="two"))
        return made[-1]

    edited = {"chat_id": GROUP, "message_id": first.message_id, "text": "one"}
    sent = {"chat_id": GROUP, "text": "two"}
    with pytest.raises(TelegramRetryAfter) as flood:  # the group's one write is spent
        await session.post(bot, "sendMessage", sent, send)
    assert flood.value.retry_after == 3 and flood.value.method is made[-1]
    tg.group_limit = 100
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await session.post(bot, "editMessageText", edited, edit)
    await session.post(bot, "editMessageText", {**edited, "text": "two"}, edit)
    assert tg.messages(GROUP)[0].text == "two"
    assert len(made) == 2  # built for the two errors only
    await tg.migrate(GROUP, -1009)
    with pytest.raises(TelegramMigrateToChat):
        await session.post(bot, "sendMessage", sent, send)
    assert seen == [
        ("sendMessage", 200),
        ("sendMessage", 429),
        ("editMessageText", 400),
        ("editMessageText", 200),
        ("sendMessage", 400),
    ]
    await tg.stop()
    with pytest.raises(TelegramNetworkError):
        await session.post(bot, "editMessageText", edited, edit)
    assert seen[-1] == ("editMessageText", None)
