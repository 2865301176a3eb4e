"""A page that loses its socket, in a real headless Chromium against the real bot (issue
32, part 3): a drop of more than 5 s is told in a banner, with the player's own time
left counting down while the page reconnects; a shorter one goes unsaid.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable

import pytest
from playwright.async_api import Page, WebSocketRoute

from bot.i18n import Translator
from bot.models import Game
from tests.browser.conftest import BROWSER, screenshot_path
from tests.browser.table import (
    SHOW,
    Player,
    WebTable,
    four_humans,
    settled,
    to_move,
    web_table,
)
from tests.browser.test_table import OpenTab

pytestmark = BROWSER
#: How long a drop goes unsaid (main.js's LOST_AFTER, seconds); how often the page
#: pings and how long it waits for the pong (PING_EVERY, PONG_WITHIN, milliseconds).
LOST_AFTER = 5.0
PING_EVERY = 25_000
PONG_WITHIN = 5_000

#: Every time the banner is shown, by the page's clock (an observer from the start).
WATCH_BANNER = """
window.bannerShown = [];
document.addEventListener("DOMContentLoaded", () => {
  const box = document.getElementById("banner");
  new MutationObserver(() => {
    if (!box.classList.contains("hidden")) window.bannerShown.push(box.textContent);
  }).observe(box, { attributes: true, childList: true, subtree: true, characterData: true });
});
"""


@pytest.fixture(scope="module")
def tr() -> Translator:
    return Translator.from_dir()


async def mover(
    table: WebTable,
    open_tab: OpenTab,
    name: str,
    setup: Callable[[Page], Awaitable[None]] | None = None,
) -> tuple[Game, Player]:
    """A yard game of four, and the page of the player to move, drawn."""
    game = await four_humans(table.service, "yard")
    seat = to_move(game)
    player = Player(await open_tab(table.link(game, seat), name=name, setup=setup), seat)
    await settled(table, game.id, [player])
    return game, player


def seconds(clock: str) -> int:
    """``"4:07"`` → 247."""
    match = re.search(r"(\d+):(\d\d)", clock)
    assert match, clock
    return int(match[1]) * 60 + int(match[2])


async def test_a_page_without_its_socket_for_5_s_says_so_and_the_players_clock_counts_on(
    tr: Translator, open_tab: OpenTab
) -> None:
    async with web_table(tr, seed=6) as table:
        _, player = await mover(table, open_tab, "mover")
        page = player.page
        banner = page.locator("#banner")
        assert await banner.is_hidden()
        server = table.web.server
        assert server is not None

        # The bot's web server goes away: the page cannot reconnect.
        loop = asyncio.get_running_loop()
        cut = loop.time()
        await server.stop()
        await page.locator("#banner:not(.hidden) .banner-clock").wait_for(timeout=SHOW)
        assert loop.time() - cut >= LOST_AFTER  # a drop shorter than that goes unsaid
        text = await banner.inner_text()
        assert text.startswith(tr.t("ru", "web-reconnecting"))
        assert tr.t("ru", "web-your-time") in text
        told = seconds(text)
        await page.screenshot(path=screenshot_path("lost-connection"))
        # His time keeps running down, in the banner and on the table's clock.
        await page.wait_for_function(
            """(told) => {
              const [, m, s] = document.querySelector(".banner-clock").textContent
                .match(/(\\d+):(\\d\\d)/);
              return Number(m) * 60 + Number(s) <= told - 2;
            }""",
            arg=told,
            timeout=SHOW,
        )
        assert seconds(await page.locator("#clock").inner_text()) <= told - 2
        # Its buttons wait for the socket.
        assert await page.locator(".hand-card:enabled").count() == 0

        # The server is back: the page reconnects and the banner goes.
        await server.start()
        await page.locator("#banner").wait_for(state="hidden", timeout=SHOW)
        assert await page.locator(".hand-card:enabled").count() > 0


async def test_a_drop_the_page_recovers_from_at_once_goes_unsaid(
    tr: Translator, open_tab: OpenTab
) -> None:
    async with web_table(tr, seed=6) as table:

        async def setup(page: Page) -> None:
            await page.add_init_script(WATCH_BANNER)

        game, player = await mover(table, open_tab, "blip", setup)
        hub = table.web.hub
        assert hub is not None
        await player.page.evaluate("window.bannerShown = []")  # "Connecting…" was shown
        states = len(player.tab.states())
        [conn] = hub.games[game.id]
        await conn.close(1001)
        # It says hello again and is sent the game once more, then nothing was said.
        await player.tab.until(lambda: len(player.tab.states()) > states or None, SHOW / 1000)
        await player.page.locator(".hand-card:enabled").first.wait_for(timeout=SHOW)
        assert await player.page.evaluate("window.bannerShown") == []


async def test_a_page_whose_network_goes_away_without_a_close_says_so_and_comes_back(
    tr: Translator, open_tab: OpenTab
) -> None:
    """No close reaches the page (its network is gone; the server keeps the socket):
    the browser's going offline is the drop."""
    async with web_table(tr, seed=6) as table:
        _, player = await mover(table, open_tab, "offline")
        page = player.page
        sockets = len(player.tab.sockets)
        await page.context.set_offline(True)
        await page.locator("#banner:not(.hidden) .banner-clock").wait_for(timeout=SHOW)
        assert (await page.locator("#banner").inner_text()).startswith(
            tr.t("ru", "web-reconnecting")
        )
        assert await page.locator(".hand-card:enabled").count() == 0
        await page.context.set_offline(False)
        await page.locator("#banner").wait_for(state="hidden", timeout=SHOW)
        assert len(player.tab.sockets) > sockets  # a new socket
        await page.locator(".hand-card:enabled").first.wait_for(timeout=SHOW)


async def test_a_ping_left_unanswered_drops_the_socket_and_the_page_reconnects(
    tr: Translator, open_tab: OpenTab
) -> None:
    """The bot's pongs never arrive (a connection dead one way): 5 s after a ping the
    page gives the socket up and opens a new one. The page's clock is Playwright's, run
    past the ping and its 5 s (no real wait)."""
    pong_lost = asyncio.Event()

    def connect(route: WebSocketRoute) -> None:
        server = route.connect_to_server()

        def from_bot(message: str | bytes) -> None:
            text = message.decode() if isinstance(message, bytes) else message
            if json.loads(text).get("type") == "pong":
                pong_lost.set()  # lost on the way
            else:
                route.send(message)

        server.on_message(from_bot)

    async def setup(page: Page) -> None:
        await page.clock.install()
        await page.route_web_socket(re.compile(r".*/ws$"), connect)

    async with web_table(tr, seed=6) as table:
        _, player = await mover(table, open_tab, "pong", setup)
        assert len(player.tab.sockets) == 1
        await player.page.clock.run_for(PING_EVERY + 100)  # the ping goes out...
        async with asyncio.timeout(SHOW / 1000):
            await pong_lost.wait()  # ...and its pong is lost
        assert len(player.tab.sockets) == 1  # the page still waits for it
        await player.page.clock.run_for(PONG_WITHIN)
        await player.tab.until(lambda: len(player.tab.sockets) > 1 or None, SHOW / 1000)
        await player.tab.until(lambda: len(player.tab.states()) > 1 or None, SHOW / 1000)
