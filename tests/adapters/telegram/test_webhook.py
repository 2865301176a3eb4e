"""Webhook mode: the fake posts updates to the bot's own server, with the secret
token; callback queries are answered in the webhook's response; no getUpdates.
(A whole deal in webhook mode: ``test_group_game``.)"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from aiogram import Bot, Dispatcher, F, Router
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.methods import AnswerCallbackQuery
from aiogram.types import CallbackQuery, Message
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from pydantic import ValidationError

from adapters.telegram.middlewares import AnswerCallbacks, CallbackAnswer
from adapters.telegram.session import LeanSession
from adapters.telegram.webhook import WebhookHandler
from bot import presenters
from bot.codec import Verb
from bot.i18n import Translator
from bot.models import ChatRef, Platform
from bot.settings import Settings
from testing.fakes.telegram import FakeTelegram
from tests.adapters.telegram.harness import GROUP, TOKEN, Harness, button

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
CHAT = ChatRef(Platform.TELEGRAM, str(GROUP))
webhook_mode = pytest.mark.parametrize("webhook", [True], indirect=True)

#: /rules with no table: the default rules and the way to the others.
RULES_TEXT = presenters.rules(Translator.from_dir(), "ru", "yard", others=True).text


def rules(uid: int = 1, chat: int = GROUP, update_id: int = 10_000) -> dict[str, Any]:
    """An update: ``/rules`` sent in ``chat``."""
    return {
        "update_id": update_id,
        "message": {
            "message_id": 500 + update_id,
            "date": 0,
            "chat": {"id": chat, "type": "group", "title": "Kozel club"},
            "from": {"id": uid, "is_bot": False, "first_name": "Alice"},
            "text": "/rules",
            "entities": [{"type": "bot_command", "offset": 0, "length": 6}],
        },
    }


@webhook_mode
async def test_the_webhook_is_registered_and_polling_is_off(h: Harness) -> None:
    tg = h.tg
    [registered] = tg.calls_of("setWebhook")
    hook = tg.webhook
    assert hook is not None and hook.url == registered.params["url"]
    assert hook.url.endswith("/telegram/hook")
    assert hook.secret_token and len(hook.secret_token) >= 32  # random: none was set
    assert {"message", "callback_query"} <= set(registered.params["allowed_updates"])
    alice = h.user(1, "Alice")
    assert (await h.command(alice, GROUP, "/rules")).text == RULES_TEXT
    info = await h.adapter.bot.get_webhook_info()
    assert info.url == hook.url and info.pending_update_count == 0
    assert info.last_error_message is None
    assert tg.polls == 0 and tg.calls_of("deleteWebhook") == []
    assert [d.status for d in tg.deliveries] == [200]


@webhook_mode
async def test_presses_are_answered_in_the_webhook_response(h: Harness) -> None:
    tg = h.tg
    alice = h.user(1, "Alice")
    lobby = await h.command(alice, GROUP, "/kozel")
    await h.press_lobby(alice, lobby, Verb.JOIN, "A")
    for team in ("B", "A", "B"):
        await h.press_lobby(alice, lobby, Verb.ADD_COMPUTER, team)
    start = button(tg, lobby, Verb.START)
    await h.press_lobby(alice, lobby, Verb.START)
    game = await h.service.open_game(CHAT)
    assert game is not None
    await h.play_turn(game.id, random.Random(3))
    refused = await h.press(alice, lobby, start)  # again: the game runs already
    await h.settle()
    answers = tg.calls_of("answerCallbackQuery")
    assert len(answers) == len(tg.callback_answers) > 5
    assert all(call.via_webhook and call.status == 200 for call in answers)
    assert tg.callback_answers[refused]["show_alert"] is True  # a refusal's alert
    # Every request the bot made itself was a JSON document.
    assert {c.content_type for c in tg.calls if not c.via_webhook} == {"application/json"}
    assert tg.polls == 0


@webhook_mode
async def test_a_wrong_secret_is_refused(h: Harness) -> None:
    tg, hook = h.tg, h.tg.webhook
    assert hook is not None and hook.secret_token is not None
    async with aiohttp.ClientSession() as http:
        for headers in ({}, {SECRET_HEADER: "wrong"}):
            async with http.post(hook.url, json=rules(), headers=headers) as resp:
                assert resp.status == 401
    # Telegram with an outdated secret: refused too; nothing is handled.
    right, hook.secret_token = hook.secret_token, "outdated"
    alice = h.user(1, "Alice")
    await tg.send_text(alice, GROUP, "/rules")
    await tg.wait_for(lambda t: t.deliveries)
    assert [d.status for d in tg.deliveries] == [401]
    info = await h.adapter.bot.get_webhook_info()
    assert info.last_error_message == "Wrong response from the webhook: 401 Unauthorized"
    hook.secret_token = right
    assert (await h.command(alice, GROUP, "/rules")).text == RULES_TEXT
    assert [c.method for c in tg.calls_of("sendMessage")] == ["sendMessage"]


async def test_polling_removes_a_webhook_left_behind(h: Harness) -> None:
    tg = h.tg
    assert tg.webhook is None and tg.calls_of("deleteWebhook")
    alice = h.user(1, "Alice")
    assert (await h.command(alice, GROUP, "/rules")).text == RULES_TEXT
    assert tg.polls > 0 and tg.deliveries == []


# --- The handler and the middleware, narrowly ------------------------------------------


def _router() -> Router:
    router = Router()

    @router.callback_query(F.data == "hi")
    async def hello(query: CallbackQuery, answer: CallbackAnswer) -> None:
        await answer("hello")

    @router.message(F.text == "/boom")
    async def boom(message: Message) -> None:
        raise RuntimeError("a handler failed")

    return router


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as tg:
        tg.add_user(1, "Alice")
        tg.add_group(GROUP, "Kozel club", admins=[1])
        yield tg


async def serve(tg: FakeTelegram, session: AiohttpSession) -> tuple[TestClient[Any, Any], Bot]:
    bot = Bot(TOKEN, session=session)
    dp = Dispatcher()
    dp.callback_query.outer_middleware(AnswerCallbacks(into_webhook=True))
    dp.include_router(_router())
    app = web.Application()
    WebhookHandler(dp, bot, secret_token="s3cret").register(app, path="/hook")
    client = TestClient(TestServer(app))
    await client.start_server()
    return client, bot


def press(query_id: str) -> dict[str, Any]:
    return {
        "update_id": 1,
        "callback_query": {
            "id": query_id,
            "from": {"id": 1, "is_bot": False, "first_name": "Alice"},
            "chat_instance": "1",
            "data": "hi",
        },
    }


async def test_the_answer_is_the_webhooks_response_as_json(fake: FakeTelegram) -> None:
    tg = fake
    api = TelegramAPIServer.from_base(tg.base_url)
    client, bot = await serve(tg, LeanSession(api=api))
    try:
        headers = {SECRET_HEADER: "s3cret"}
        resp = await client.post("/hook", json=press("42"), headers=headers)
        assert resp.status == 200 and resp.content_type == "application/json"
        assert await resp.json() == {
            "method": "answerCallbackQuery",
            "callback_query_id": "42",
            "text": "hello",
            "show_alert": True,
        }
        # A failing handler is logged by aiogram and answered 200, once and for all.
        resp = await client.post("/hook", json=rules(chat=GROUP, update_id=2), headers=headers)
        assert resp.status == 200 and await resp.json() == {}
        failed = rules(chat=GROUP, update_id=3)
        failed["message"]["text"] = "/boom"
        resp = await client.post("/hook", json=failed, headers=headers)
        assert resp.status == 200 and await resp.json() == {}
        resp = await client.post("/hook", data=b"{not json", headers=headers)
        assert resp.status == 400
        assert tg.calls == []  # no request of its own
    finally:
        await client.close()
        await bot.session.close()


async def test_with_aiograms_session_the_answer_is_a_request_of_its_own(
    fake: FakeTelegram,
) -> None:
    """Only the bot's JSON session writes the answer into the response; with another
    the answer is sent as a request and the response is empty."""
    tg = fake
    api = TelegramAPIServer.from_base(tg.base_url)
    client, bot = await serve(tg, AiohttpSession(api=api))
    try:
        query_id = await tg.press(1, GROUP, (await bot.send_message(GROUP, "x")).message_id, "hi")
        resp = await client.post("/hook", json=press(query_id), headers={SECRET_HEADER: "s3cret"})
        assert resp.status == 200 and await resp.json() == {}
        assert tg.callback_answers[query_id]["text"] == "hello"
        assert len(tg.calls_of("answerCallbackQuery")) == 1
    finally:
        await client.close()
        await bot.session.close()


async def test_a_request_without_the_secret_token_is_refused(fake: FakeTelegram) -> None:
    tg = fake
    client, bot = await serve(tg, LeanSession(api=TelegramAPIServer.from_base(tg.base_url)))
    try:
        for headers in ({}, {SECRET_HEADER: "wrong"}, {SECRET_HEADER: "s3cret-and-more"}):
            resp = await client.post("/hook", json=press("44"), headers=headers)
            assert resp.status == 401
        assert tg.calls == []
    finally:
        await client.close()
        await bot.session.close()


async def test_a_failing_handler_still_answers_with_a_request(fake: FakeTelegram) -> None:
    """Kept for the webhook's response, the answer goes as a request when the
    handler fails (the response then carries nothing)."""
    tg = fake
    bot = Bot(TOKEN, session=LeanSession(api=TelegramAPIServer.from_base(tg.base_url)))
    query_id = await tg.press(1, GROUP, (await bot.send_message(GROUP, "x")).message_id, "hi")
    query = CallbackQuery.model_validate(press(query_id)["callback_query"], context={"bot": bot})

    async def fails(event: Any, data: dict[str, Any]) -> None:
        await data["answer"]("refused")
        raise RuntimeError("a handler failed")

    async def returns(event: Any, data: dict[str, Any]) -> None:
        await data["answer"]()

    try:
        with pytest.raises(RuntimeError):
            await AnswerCallbacks(into_webhook=True)(fails, query, {})
        assert tg.callback_answers[query_id]["text"] == "refused"
        answer = await AnswerCallbacks(into_webhook=True)(returns, query, {})
        assert isinstance(answer, AnswerCallbackQuery) and answer.callback_query_id == query_id
    finally:
        await bot.session.close()
    assert len(tg.calls_of("answerCallbackQuery")) == 1


# --- Settings --------------------------------------------------------------------------


def test_webhook_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in Settings.model_fields:
        if name.startswith("telegram_webhook"):
            monkeypatch.delenv(name.upper(), raising=False)
    polling = Settings(_env_file=None, telegram_webhook_url="")
    assert not polling.telegram_webhook
    hooked = Settings(
        _env_file=None,
        telegram_webhook_url="https://kozel.example.org/tg/hook",
        telegram_webhook_secret="abc_DEF-123",
    )
    assert hooked.telegram_webhook and hooked.webhook_path == "/tg/hook"
    assert "abc_DEF-123" not in repr(hooked)
    assert hooked.model_copy(update={"telegram_webhook_path": "/in"}).webhook_path == "/in"
    root = Settings(_env_file=None, telegram_webhook_url="https://kozel.example.org")
    assert root.webhook_path == "/"
    for bad in (
        {"telegram_webhook_secret": "no spaces allowed"},
        {"telegram_webhook_url": "kozel.example.org/hook"},
        {"telegram_webhook_path": "hook"},
        {"telegram_webhook_port": 0},
    ):
        with pytest.raises(ValidationError):
            Settings(_env_file=None, **bad)


async def _post_raw(port: int, path: str, secret: bytes) -> bytes:
    """POST an update (``/rules``) with the secret header's raw bytes (an HTTP client would
    encode them its own way); the response's status line."""
    body = json.dumps(rules()).encode()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n{SECRET_HEADER}: ".encode()
        + secret
        + b"\r\n\r\n"
        + body
    )
    await writer.drain()
    response = await reader.read()
    writer.close()
    await writer.wait_closed()
    return response.split(b"\r\n", 1)[0]


@webhook_mode
async def test_a_malformed_secret_header_is_a_401_logged_once(
    h: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """Regression: a secret header that is not ASCII got a 500 and an ERROR traceback
    per request (``str.encode`` of aiohttp's surrogates). Any malformed header is a
    401; the first is logged as a warning, the others not at all. A header that is no
    valid HTTP (a control byte) is aiohttp's 400, logged the same way: once, no
    traceback. (The harness fails the test on any ERROR record.)"""
    settings, hook = h.adapter.settings, h.tg.webhook
    assert hook is not None and hook.secret_token is not None
    port, path = settings.telegram_webhook_port, settings.webhook_path
    malformed = [
        "sécret".encode("latin-1"),  # not UTF-8: surrogates in aiohttp's str
        "sécret".encode(),  # UTF-8, not ASCII
        b"\xff\xfe\x80",
        hook.secret_token.encode() * 100,  # longer than any token
        hook.secret_token.encode()[:-1],  # wrong bytes
        b"",
    ]
    with caplog.at_level(logging.DEBUG):
        for secret in malformed * 3:
            assert await _post_raw(port, path, secret) == b"HTTP/1.1 401 Unauthorized", secret
        for _ in range(3):
            status = await _post_raw(port, path, hook.secret_token.encode() + b"\x7f")
            assert status.endswith(b"400 Bad Request"), status
        assert await _post_raw(port, path, hook.secret_token.encode()) == b"HTTP/1.1 200 OK"
    records = caplog.records
    assert [r for r in records if r.levelno >= logging.ERROR or r.exc_info] == []
    refused = [r for r in records if "secret token" in r.getMessage()]
    assert len(refused) == 1 and refused[0].levelno == logging.WARNING
    unparsed = [r for r in records if r.name == "adapters.telegram.webhook.http"]
    assert len(unparsed) <= 1  # once per process: another test may have had it
