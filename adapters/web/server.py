"""The web table's HTTP server (aiohttp): the page, its static files, its words and
the WebSocket (``WEB_HOST``, ``WEB_PORT``).

- ``GET /``: ``static/index.html`` in the request's language (:func:`page_locale`:
  the link's ``lang``, else ``Accept-Language``, else the bot's default), which the
  page speaks and says in its ``hello``; ``GET /static/<file>``: the page's files (no
  listing, nothing outside the folder);
- ``GET /api/strings?locale=ru|en``: every Fluent message whose id starts with
  ``web-`` in that language, as a JSON object;
- ``GET /ws``: the page's socket (:class:`~adapters.web.hub.WebHub` speaks on it);
- ``GET /picture/<spectators' token>.jpg``: a finished game's result picture, as a
  JPEG (Telegram shows an inline result's photo from its address, in JPEG only).

Every response carries a strict Content-Security-Policy (no inline script or style,
nothing from elsewhere but Telegram's optional ``telegram-web-app.js``), may be
framed by Telegram's web clients only, and sends no referrer (a signed link is in
the page's address).
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path

from aiohttp import WSMsgType, web
from PIL import Image

from adapters.web.connection import Connection
from adapters.web.hub import WebHub
from bot.i18n import LOCALES, Translator

log = logging.getLogger(__name__)

#: The page's files: package data beside this module.
STATIC = Path(__file__).resolve().parent / "static"
#: The page's words: the messages whose ids start with this.
STRINGS_PREFIX = "web-"

CSP = "; ".join(
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
        "frame-ancestors 'self' https://web.telegram.org",
    ]
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
}
#: The largest frame aiohttp reads at all; larger ones close the socket (1009).
#: Frames between the hub's limit and this are refused one by one (``too-big``).
READ_LIMIT = 64 * 1024
#: The result pictures kept drawn (a shared result is fetched once per share).
KEPT_PICTURES = 32


#: The page's own language, which :meth:`WebServer._index` sets for each request.
_HTML_LANG = re.compile(r'<html lang="[^"]*">')


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


@web.middleware
async def _headers(request: web.Request, handler: Handler) -> web.StreamResponse:
    try:
        response = await handler(request)
    except web.HTTPException as error:
        error.headers.update(HEADERS)
        raise
    if not response.prepared:
        response.headers.update(HEADERS)
    return response


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
    ) -> None:
        self.hub = hub
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
        app = web.Application(middlewares=[_headers])
        app.router.add_get("/", self._index)
        app.router.add_get("/api/strings", self._api_strings)
        app.router.add_get("/ws", self._socket)
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
        response = web.Response(text=page, content_type="text/html")
        response.headers["Cache-Control"] = "no-cache"
        response.headers["Vary"] = "Accept-Language"
        return response

    async def _api_strings(self, request: web.Request) -> web.Response:
        locale = request.query.get("locale", "")
        if locale not in self._strings:
            locale = "ru" if locale.lower().startswith("ru") else "en"
        return web.json_response(self._strings[locale])

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
