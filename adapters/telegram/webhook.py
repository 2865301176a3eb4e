"""Webhook mode: Telegram POSTs each update to the bot's own HTTP server.

:class:`WebhookServer` serves a :class:`WebhookHandler` with aiohttp
(aiogram's ``setup_application`` runs the Dispatcher's startup and shutdown), and
registers the webhook (``setWebhook`` with a secret token) once it listens. Telegram
then sends the token in ``X-Telegram-Bot-Api-Secret-Token``; a request without it is
refused (401).

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
from pydantic import ValidationError

from adapters.telegram.session import LeanSession

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
_EMPTY = b"{}"


class WebhookHandler:
    """The webhook of one bot; see the module's docs. The bot's session is left open
    at shutdown: its owner closes it once the outbox is drained."""

    def __init__(self, dispatcher: Dispatcher, bot: Bot, *, secret_token: str | None) -> None:
        self.dispatcher, self.bot = dispatcher, bot
        self.secret_token = secret_token

    def register(self, app: web.Application, *, path: str) -> None:
        app.router.add_route("POST", path, self.handle)

    def verify_secret(self, request: web.Request) -> bool:
        if not self.secret_token:
            return True
        sent = request.headers.get(SECRET_HEADER, "")
        return hmac.compare_digest(sent.encode(), self.secret_token.encode())

    async def handle(self, request: web.Request) -> web.Response:
        if not self.verify_secret(request):
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
        runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await runner.setup()
        try:
            await web.TCPSite(runner, self.host, self.port).start()
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
