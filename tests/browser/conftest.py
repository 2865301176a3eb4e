"""A real headless Chromium for the web table's tests: Debian's ``chromium`` package
driven by Playwright's bundled driver (``playwright install`` never runs; nothing is
downloaded).

One browser per session (``chromium``); each page lives in a context of its own (its
own cookies and storage, as on another person's phone), 390×844 by default, and
records every WebSocket frame it receives (:class:`Tab`). A page may load nothing but
the bot's own server: any other request is refused and fails the test. Without
``/usr/bin/chromium`` the tests FAIL (never skip): ``.ci/run`` installs the package.

Every browser test runs on the session's event loop (the browser's objects belong to
it): the module marks ``pytestmark = BROWSER``.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeVar
from urllib.parse import urlsplit

import pytest
import pytest_asyncio
from playwright.async_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    Request,
    Route,
    WebSocket,
    async_playwright,
)

CHROMIUM = Path("/usr/bin/chromium")
#: The flags of a quiet headless run: no GPU, no first-run pages, no calls home.
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: Screenshots and traces of a run (gitignored).
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
#: Telegram's script: a page opened as a Mini App asks for it; the tests refuse it,
#: and the page works without it.
TELEGRAM_SCRIPT = "https://telegram.org/js/telegram-web-app.js"
#: What Chromium itself logs when a socket cannot connect (the page reconnects).
SOCKET_REFUSED = re.compile(r"^WebSocket connection to '[^']+' failed")
#: A phone: the size of the README's screenshots.
PHONE = {"width": 390, "height": 844}

BROWSER = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

Scheme = Literal["light", "dark"]
T = TypeVar("T")


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def chromium() -> AsyncIterator[Browser]:
    """Debian's Chromium, once for the session; a fresh empty profile (Playwright's
    launch makes a new temporary user-data dir and removes it at the end)."""
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"no {CHROMIUM}: the browser tests need Debian's chromium package")
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=FLAGS, headless=True
        )
        try:
            yield browser
        finally:
            await browser.close()


@dataclass
class Tab:
    """One person's page: the Playwright page, every JSON frame its sockets received,
    its console errors and any request it made off the bot's server."""

    page: Page
    name: str
    frames: list[dict[str, Any]] = field(default_factory=list)
    sockets: list[WebSocket] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)
    arrived: asyncio.Event = field(default_factory=asyncio.Event)

    async def until(self, found: Callable[[], T | None], seconds: float) -> T:
        """Until ``found()`` returns something (checked at each frame), within ``seconds``."""
        async with asyncio.timeout(seconds):
            while (value := found()) is None:
                self.arrived.clear()
                await self.arrived.wait()
            return value

    def states(self) -> list[dict[str, Any]]:
        return [f for f in self.frames if f.get("type") == "state"]

    def last_view(self) -> dict[str, Any]:
        states = self.states()
        assert states, f"{self.name}: no state yet"
        view: dict[str, Any] = states[-1]["view"]
        return view


def _on_socket(tab: Tab) -> Callable[[WebSocket], None]:
    def opened(socket: WebSocket) -> None:
        tab.sockets.append(socket)

        def received(payload: str | bytes) -> None:
            text = payload.decode() if isinstance(payload, bytes) else payload
            tab.frames.append(json.loads(text))
            tab.arrived.set()

        socket.on("framereceived", received)

    return opened


@pytest_asyncio.fixture(loop_scope="session")
async def open_tab(chromium: Browser) -> AsyncIterator[Callable[..., Awaitable[Tab]]]:
    """``await open_tab(url, name=..., scheme=...)``: a new person's page at ``url``
    (``setup(page)`` first, if given).
    At teardown: no page logged a JavaScript error or asked another host for anything."""
    contexts: list[BrowserContext] = []
    tabs: list[Tab] = []

    async def open_(
        url: str,
        *,
        name: str = "page",
        scheme: Scheme = "light",
        locale: str = "en-US",
        setup: Callable[[Page], Awaitable[None]] | None = None,
    ) -> Tab:
        context = await chromium.new_context(
            viewport=PHONE,
            device_scale_factor=2,
            color_scheme=scheme,
            locale=locale,
            service_workers="block",
        )
        contexts.append(context)
        page = await context.new_page()
        tab = Tab(page, name)
        tabs.append(tab)
        own = urlsplit(url).netloc

        async def route(route: Route, request: Request) -> None:
            if urlsplit(request.url).netloc == own:
                await route.continue_()
                return
            if request.url != TELEGRAM_SCRIPT:
                tab.foreign.append(request.url)
            await route.abort()

        await context.route("**/*", route)
        page.on("websocket", _on_socket(tab))
        page.on("pageerror", lambda error: tab.errors.append(str(error)))

        def console(message: ConsoleMessage) -> None:
            if message.type != "error" or SOCKET_REFUSED.match(message.text):
                return
            if message.location.get("url") == TELEGRAM_SCRIPT:
                return  # refused on purpose (above)
            if message.location.get("url", "").endswith("/discord/token"):
                return  # an Activity's refused code (401, 503): the page shows its line
            tab.errors.append(message.text)

        page.on("console", console)
        if setup is not None:
            await setup(page)
        await page.goto(url)
        return tab

    yield open_
    for context in contexts:
        await context.close()
    problems = {t.name: t.errors for t in tabs if t.errors}
    assert not problems, problems
    foreign = {t.name: t.foreign for t in tabs if t.foreign}
    assert not foreign, foreign


def screenshot_path(name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS / f"{name}.png"
