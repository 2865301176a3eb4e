"""The web table's HTTP server (aiohttp): the page, its static files, its words and
the WebSocket (``WEB_HOST``, ``WEB_PORT``).

- ``GET /``: ``static/index.html`` in the request's language (:func:`page_locale`:
  the link's ``lang``, else ``Accept-Language``, else the bot's default), which the
  page speaks and says in its ``hello``; ``GET /static/<file>``: the page's files (no
  listing, nothing outside the folder);
- ``GET /api/strings?locale=ru|en``: every Fluent message whose id starts with
  ``web-`` in that language, as a JSON object;
- ``GET /ws``: the page's socket (:class:`~adapters.web.hub.WebHub` speaks on it);
- ``POST /discord/token`` (with a Discord Activity set up): a code of the Embedded
  App SDK's ``authorize`` exchanged for the user's access token
  (:class:`~adapters.web.activity.DiscordActivity`).
- ``GET /picture/<spectators' token>.jpg``: a finished game's result picture, as a
  JPEG (Telegram shows an inline result's photo from its address, in JPEG only).

Every response carries a strict Content-Security-Policy (no inline script or style,
nothing from elsewhere but Telegram's optional ``telegram-web-app.js``), may be
framed by Telegram's web clients only (and Discord's, with the Activity set up), and
sends no referrer (a signed link is in the page's address).
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web
from aiohttp.typedefs import Middleware
from PIL import Image

from adapters.web.activity import DiscordActivity
from adapters.web.connection import Bucket, Connection
from adapters.web.hub import Refused, WebHub
from bot.i18n import LOCALES, Translator

log = logging.getLogger(__name__)

#: The page's files: package data beside this module.
STATIC = Path(__file__).resolve().parent / "static"
#: The page's words: the messages whose ids start with this.
STRINGS_PREFIX = "web-"

#: The clients that frame a Discord Activity (the web, desktop and test builds).
DISCORD_FRAMERS = ("https://discord.com", "https://ptb.discord.com", "https://canary.discord.com")


def csp(discord: bool = False) -> str:
    """The pages' Content-Security-Policy: framed by Telegram's web client, and by
    Discord's clients where the Activity is set up (``discord``).

    >>> "frame-ancestors 'self' https://web.telegram.org" in csp()
    True
    >>> csp(discord=True).endswith("https://web.telegram.org https://discord.com"
    ...     " https://ptb.discord.com https://canary.discord.com")
    True
    """
    framers = ["'self'", "https://web.telegram.org", *(DISCORD_FRAMERS if discord else ())]
    return "; ".join(
        [
            "default-src 'self'",
            "script-src 'self' https://telegram.org",
            "style-src 'self'",
            "img-src 'self' data:",
            "connect-src 'self'",
            "font-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'none'",
            "frame-ancestors " + " ".join(framers),
        ]
    )


def headers(discord: bool = False) -> dict[str, str]:
    """Every response's security headers (see :func:`csp`)."""
    return {
        "Content-Security-Policy": csp(discord),
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
        "Cross-Origin-Opener-Policy": "same-origin",
    }


#: The largest frame aiohttp reads at all; larger ones close the socket (1009).
#: Frames between the hub's limit and this are refused one by one (``too-big``).
READ_LIMIT = 64 * 1024
#: The largest ``POST /discord/token`` body read.
TOKEN_BODY = 1024
#: The result pictures kept drawn (a shared result is fetched once per share).
KEPT_PICTURES = 32


#: The page's own language, which :meth:`WebServer._index` sets for each request.
_HTML_LANG = re.compile(r'<html lang="[^"]*">')
#: Where the page learns the Discord Activity's client id (empty: no Activity).
_DISCORD_META = '<meta name="kozel-discord-client" content="">'


def accepted_locale(header: str) -> str | None:
    """The language of ours an ``Accept-Language`` header ranks first (by its ``q``
    weights, then its order), or None when it takes none of ours.

    >>> accepted_locale("ru-RU,ru;q=0.9,en-US;q=0.8"), accepted_locale("de, en-GB;q=0.5")
    ('ru', 'en')
    >>> accepted_locale("en;q=0.2, ru;q=0.8"), accepted_locale("de, *"), accepted_locale("ru;q=0")
    ('ru', None, None)
    """
    ranked = []
    for index, item in enumerate(header.split(",")):
        tag, *params = item.split(";")
        weight = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        primary = tag.strip().lower().partition("-")[0]
        if primary in LOCALES and weight > 0:
            ranked.append((-weight, index, primary))
    return min(ranked)[2] if ranked else None


def page_locale(query: Mapping[str, str], headers: Mapping[str, str], default: str) -> str:
    """The language of a page request, decided once: the ``lang`` its link carries,
    else the first of ours its ``Accept-Language`` takes, else ``default``.

    >>> page_locale({"lang": "ru"}, {"Accept-Language": "en"}, "en")
    'ru'
    >>> page_locale({"t": "garbage"}, {"Accept-Language": "ru-RU"}, "en"), page_locale({}, {}, "ru")
    ('ru', 'ru')
    """
    asked = query.get("lang", "")
    if asked in LOCALES:
        return asked
    return accepted_locale(headers.get("Accept-Language", "")) or default


def strings(tr: Translator, locale: str) -> dict[str, str]:
    """The page's words in ``locale``: every ``web-`` message."""
    return {msg_id: tr.t(locale, msg_id) for msg_id in tr.message_ids(locale, STRINGS_PREFIX)}


def as_jpeg(png: bytes) -> bytes:
    """A PNG picture as a JPEG (what Telegram takes for a photo by address)."""
    out = io.BytesIO()
    Image.open(io.BytesIO(png)).convert("RGB").save(out, "JPEG", quality=90)
    return out.getvalue()


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _headers(sent: Mapping[str, str]) -> Middleware:
    @web.middleware
    async def add(request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            response = await handler(request)
        except web.HTTPException as error:
            error.headers.update(sent)
            raise
        if not response.prepared:
            response.headers.update(sent)
        return response

    return add


class WebServer:
    """``await server.start()`` listens on ``host:port`` (port 0: any free one, see
    :attr:`port`); ``await server.stop()`` closes every page (they reconnect)."""

    def __init__(
        self,
        hub: WebHub,
        tr: Translator,
        *,
        host: str = "127.0.0.1",
        port: int = 8081,
        static: Path = STATIC,
        activity: DiscordActivity | None = None,
    ) -> None:
        self.hub = hub
        #: A Discord Activity's code exchange (None: no Activity, no such route).
        self.activity = activity
        self._exchanges = Bucket(hub.limits.exchanges, hub.limits.exchange_burst)
        self.tr = tr
        self.host = host
        self.port = port
        self.static = static
        self._runner: web.AppRunner | None = None
        #: Sockets open now (said ``hello`` or not).
        self.open = 0
        self._strings = {locale: strings(tr, locale) for locale in LOCALES}
        self._page: str | None = None  # index.html, read once
        self._pictures: OrderedDict[str, bytes] = OrderedDict()

    def app(self) -> web.Application:
        sent = headers(discord=self.activity is not None)
        app = web.Application(middlewares=[_headers(sent)], client_max_size=TOKEN_BODY * 4)
        app.router.add_get("/", self._index)
        app.router.add_get("/api/strings", self._api_strings)
        app.router.add_get("/ws", self._socket)
        if self.activity is not None:
            app.router.add_post("/discord/token", self._discord_token)
        app.router.add_get("/picture/{token}.jpg", self._picture)
        if self.static.is_dir():
            app.router.add_static("/static/", self.static, show_index=False, follow_symlinks=False)
        return app

    async def start(self) -> None:
        self._runner = web.AppRunner(self.app(), access_log=None, shutdown_timeout=2.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        log.info("web table on http://%s:%s", self.host, self.port)

    async def stop(self) -> None:
        await self.hub.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _index(self, request: web.Request) -> web.StreamResponse:
        if self._page is None:
            index = self.static / "index.html"
            if not index.is_file():
                raise web.HTTPNotFound(text="the web table's page is not installed\n")
            self._page = index.read_text(encoding="utf-8")
        locale = page_locale(request.query, request.headers, self.hub.service.default_locale)
        page = _HTML_LANG.sub(f'<html lang="{locale}">', self._page, count=1)
        if self.activity is not None:
            client = f'<meta name="kozel-discord-client" content="{self.activity.client_id}">'
            page = page.replace(_DISCORD_META, client, 1)
        response = web.Response(text=page, content_type="text/html")
        response.headers["Cache-Control"] = "no-cache"
        response.headers["Vary"] = "Accept-Language"
        return response

    async def _api_strings(self, request: web.Request) -> web.Response:
        locale = request.query.get("locale", "")
        if locale not in self._strings:
            locale = "ru" if locale.lower().startswith("ru") else "en"
        return web.json_response(self._strings[locale])

    async def _discord_token(self, request: web.Request) -> web.Response:
        """A Discord Activity's ``authorize`` code (``{"code": ..., "locale": ...}``)
        exchanged for the user's access token (``{"access_token": ...}``); a refusal is
        ``{"error": code, "text": ...}`` in the page's language, 401 (a code Discord
        does not take) or 503 (Discord did not answer)."""
        assert self.activity is not None
        body: Any = None
        if (request.content_length or 0) <= TOKEN_BODY:
            try:
                body = await request.json()
            except ValueError:
                body = None
        if not isinstance(body, dict):
            body = {}
        asked = body.get("locale")
        locale = asked if asked in LOCALES else self.hub.service.default_locale
        try:
            if not self._exchanges.take():
                raise Refused("unavailable")  # too many at once: the pages ask again
            token = await self.activity.exchange(body.get("code"))
        except Refused as refused:
            status = 503 if refused.code == "unavailable" else 401
            text = self.hub.error_text(refused.code, locale)
            return web.json_response({"error": refused.code, "text": text}, status=status)
        response = web.json_response({"access_token": token})
        response.headers["Cache-Control"] = "no-store"
        return response

    async def _picture(self, request: web.Request) -> web.Response:
        token = request.match_info["token"]
        jpeg = self._pictures.get(token)
        if jpeg is None:
            png = await self.hub.picture(token)
            if png is None:
                raise web.HTTPNotFound(text="no such result\n")
            jpeg = await asyncio.to_thread(as_jpeg, png)
            self._pictures[token] = jpeg
            while len(self._pictures) > KEPT_PICTURES:
                self._pictures.popitem(last=False)
        self._pictures.move_to_end(token)
        response = web.Response(body=jpeg, content_type="image/jpeg")
        response.headers["Cache-Control"] = "public, max-age=86400"
        return response

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        hub = self.hub
        if self.open >= hub.limits.total:
            raise web.HTTPServiceUnavailable(text="too many open tables\n")
        ws = web.WebSocketResponse(max_msg_size=READ_LIMIT, heartbeat=30.0)
        await ws.prepare(request)
        self.open += 1
        conn = Connection(ws, hub.limits, hub.service.default_locale)
        writer = asyncio.create_task(conn.run())
        try:
            while not ws.closed and not conn.closing:
                timeout = None if conn.bound else hub.limits.hello_timeout
                try:
                    message = await ws.receive(timeout=timeout)
                except TimeoutError:
                    break
                if message.type is WSMsgType.TEXT:
                    await hub.receive(conn, message.data)
                elif message.type is WSMsgType.BINARY:
                    await hub.receive(conn, "")  # not JSON text: bad-message
                else:
                    break  # closing, closed or an error (a frame over READ_LIMIT)
        finally:
            self.open -= 1
            hub.drop(conn)
            if not conn.closing:
                await conn.close(1000)
            try:
                await asyncio.wait_for(writer, 5.0)
            except (TimeoutError, asyncio.CancelledError):
                writer.cancel()
        return ws
