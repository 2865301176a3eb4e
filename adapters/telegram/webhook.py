"""Webhook mode: Telegram POSTs each update to the bot's own HTTP server.

:class:`WebhookServer` serves a :class:`WebhookHandler` with aiohttp
(aiogram's ``setup_application`` runs the Dispatcher's startup and shutdown), and
registers the webhook (``setWebhook`` with a secret token) once it listens. Telegram
then sends the token in ``X-Telegram-Bot-Api-Secret-Token``; a request without it, or
with anything else in it (a wrong token, non-ASCII bytes, a header longer than any token)
is refused (401), and the first such request is logged (a warning, once per process: a
scanner must not fill the log). A request that is no valid HTTP at all (a control byte
in a header) never reaches the handler: aiohttp answers it 400 and would log an ERROR
with a traceback each time; the server's logger keeps the first as one warning line and
drops the rest (:class:`BadRequestsOnce`).

Updates are handled while Telegram waits, so that a handler's answer goes back in the
response ("reply into webhook"): a button press costs no ``answerCallbackQuery``
request. The handler writes that answer as JSON, and answers 200 when a handler
failed (aiogram logged it): Telegram would deliver the update again and again
otherwise.

The handler is built on aiogram's public API only (``Dispatcher.feed_webhook_update``,
``Dispatcher.silent_call_request``), not on ``SimpleRequestHandler``, whose
request handling and multipart writer are private (``_handle_request``,
``_build_response_writer``) and would change under it with an aiogram release.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
from typing import Any

from aiogram import Bot, Dispatcher
from aiogram.methods import TelegramMethod
from aiogram.types import Update
from aiogram.webhook.aiohttp_server import setup_application
from aiohttp import web
from aiohttp.http_exceptions import BadHttpMessage
from pydantic import ValidationError

from adapters.telegram.session import LeanSession
from bot.errors import CannotListen, listen_problem

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
#: Telegram's secret tokens are 1-256 characters of ``A-Za-z0-9_-``.
MAX_SECRET = 256
_EMPTY = b"{}"


class WebhookHandler:
    """The webhook of one bot; see the module's docs. The bot's session is left open
    at shutdown: its owner closes it once the outbox is drained."""

    def __init__(self, dispatcher: Dispatcher, bot: Bot, *, secret_token: str | None) -> None:
        self.dispatcher, self.bot = dispatcher, bot
        self.secret_token = secret_token
        self._refused_logged = False

    def register(self, app: web.Application, *, path: str) -> None:
        app.router.add_route("POST", path, self.handle)

    def verify_secret(self, request: web.Request) -> bool:
        """Whether the request carries the secret token. Any other header is a plain
        no: aiohttp hands non-UTF-8 bytes over as lone surrogates, which no encoding
        takes, so only an ASCII header of a token's length is compared at all."""
        if not self.secret_token:
            return True
        sent = request.headers.get(SECRET_HEADER, "")
        if not sent.isascii() or len(sent) > MAX_SECRET:
            return False
        return hmac.compare_digest(sent.encode("ascii"), self.secret_token.encode())

    async def handle(self, request: web.Request) -> web.Response:
        if not self.verify_secret(request):
            if not self._refused_logged:
                self._refused_logged = True
                log.warning(
                    "a webhook request without the secret token was refused (401); "
                    "later ones are refused without a word"
                )
            return web.Response(status=401, text="Unauthorized")
        bot = self.bot
        try:
            update = Update.model_validate_json(await request.read(), context={"bot": bot})
        except ValidationError:
            log.warning("a webhook request that is no update was refused")
            return web.Response(status=400, text="Bad Request")
        result: TelegramMethod[Any] | None
        try:
            result = await self.dispatcher.feed_webhook_update(bot, update)
        except Exception:  # logged by aiogram; do not make Telegram send it again
            result = None
        return await self._reply(bot, result)

    async def _reply(self, bot: Bot, result: TelegramMethod[Any] | None) -> web.Response:
        """The webhook's response: the handler's method as JSON, else ``{}``. A method
        JSON cannot carry (files), or any method with another session than
        :class:`LeanSession`, is sent as a request of its own instead."""
        body: bytes | None = None
        if result is not None:
            session = bot.session
            if isinstance(session, LeanSession):
                body = session.build_json(bot, result, into_webhook=True)
            if body is None:
                await self.dispatcher.silent_call_request(bot, result)
        return web.Response(body=body or _EMPTY, content_type="application/json")


class BadRequestsOnce(logging.Filter):
    """Lets through the first record of a request aiohttp could not parse, as a warning
    without its traceback, and drops the later ones; any other record passes."""

    def __init__(self) -> None:
        super().__init__()
        self.seen = False

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if not isinstance(error, BadHttpMessage):
            return True
        if self.seen:
            return False
        self.seen = True
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        record.msg = f"{record.msg} (%s); later ones are answered 400 without a word"
        record.args = (*(record.args if isinstance(record.args, tuple) else ()), error)
        record.exc_info, record.exc_text = None, None
        return True


def server_logger() -> logging.Logger:
    """The logger of the webhook's HTTP server, with :class:`BadRequestsOnce`."""
    logger = logging.getLogger(f"{__name__}.http")
    if not any(isinstance(f, BadRequestsOnce) for f in logger.filters):
        logger.addFilter(BadRequestsOnce())
    return logger


class WebhookServer:
    """Serves the webhook until :meth:`stop`."""

    def __init__(
        self,
        dispatcher: Dispatcher,
        bot: Bot,
        *,
        url: str,
        secret_token: str,
        host: str,
        port: int,
        path: str,
    ) -> None:
        self.dispatcher, self.bot = dispatcher, bot
        self.url, self.secret_token = url, secret_token
        self.host, self.port, self.path = host, port, path
        self._stopped = asyncio.Event()

    async def run(self) -> None:
        """Listen, register the webhook, and serve until :meth:`stop`."""
        app = web.Application()
        handler = WebhookHandler(self.dispatcher, self.bot, secret_token=self.secret_token)
        handler.register(app, path=self.path)
        setup_application(app, self.dispatcher, bot=self.bot)
        runner = web.AppRunner(app, access_log=None, handle_signals=False, logger=server_logger())
        await runner.setup()
        try:
            try:
                await web.TCPSite(runner, self.host, self.port).start()
            except OSError as error:
                problem = listen_problem(error, "TELEGRAM_WEBHOOK", self.host, self.port)
                raise CannotListen(problem) from None
            await self.bot.set_webhook(
                self.url,
                secret_token=self.secret_token,
                allowed_updates=self.dispatcher.resolve_used_update_types(),
            )
            log.info("webhook %s served on %s:%s%s", self.url, self.host, self.port, self.path)
            await self._stopped.wait()
        finally:
            await runner.cleanup()

    def stop(self) -> None:
        self._stopped.set()
