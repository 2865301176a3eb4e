"""The web table in a real headless Chromium against the real bot (its service and web
adapter in-process on 127.0.0.1): four pages play whole deals against each other by
tapping cards and buttons, a spectator follows, two pages and two Telegram players
finish a game, a page whose connection is cut catches up. No page shows a card its
reader may not see (its DOM and every frame its socket received, after every step).

Screenshots (390×844, light and dark) go to tests/artifacts/ (gitignored);
docs/img/ holds two of them for the README.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import random
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import quote, urlencode

import pytest
from playwright.async_api import Page, WebSocketRoute

from bot.codec import Verb
from bot.i18n import Translator
from bot.models import ChatRef, Game, GameStatus, Platform
from core.classic.ruleset import ClassicGameAdapter
from core.yard.ai import safe_move
from core.yard.ruleset import YardGame
from testing.fakes.telegram import FakeUser
from tests.adapters.telegram.harness import GROUP, TOKEN, Harness
from tests.browser.conftest import BROWSER, PHONE, Tab, screenshot_path
from tests.browser.table import (
    NAMES,
    Player,
    Secrets,
    WebTable,
    beats,
    beside,
    four_humans,
    play_by_taps,
    settled,
    start_param,
    telegram_bot,
    web_table,
)

pytestmark = BROWSER

OpenTab = Callable[..., Awaitable[Tab]]


@pytest.fixture(scope="module")
def tr() -> Translator:
    return Translator.from_dir()


def yard_deals_over(count: int) -> Callable[[Game], bool]:
    def done(game: Game) -> bool:
        play = game.play
        assert isinstance(play, YardGame)
        return sum(deal.result is not None for deal in play.series.deals) >= count

    return done


def classic_deal_over(game: Game) -> bool:
    play = game.play
    assert isinstance(play, ClassicGameAdapter)
    return any(dealing.result is not None for dealing in play.game.dealings)


async def dom(player: Player, selector: str) -> str:
    return str(await player.page.locator(selector).inner_text())


# --- Four pages play ---------------------------------------------------------------------


async def test_four_pages_play_a_whole_yard_deal_and_a_spectator_follows_it(
    tr: Translator, open_tab: OpenTab
) -> None:
    async with web_table(tr, seed=11) as table:
        game = await four_humans(table.service, "yard")
        players = [
            Player(await open_tab(table.link(game, seat), name=f"seat {seat}"), seat)
            for seat in range(4)
        ]
        watcher = Player(await open_tab(table.link(game, None), name="spectator"), None)
        await settled(table, game.id, [*players, watcher])

        # Each page: its player at the bottom with his hand as faces, the others' as backs.
        for player in players:
            view = player.tab.last_view()
            assert view["you"] == player.seat
            bottom = player.page.locator("#seat-bottom .who")
            assert await bottom.inner_text() == game.seats[player.seat].name  # type: ignore[union-attr]
            faces = await player.page.locator("#hand .card.face").count()
            assert faces == len(view["hand"]) > 0
        assert watcher.tab.last_view()["hand"] is None
        assert await watcher.page.locator("#hand .card").count() == 0
        assert await dom(watcher, "#viewer") == tr.t("ru", "web-spectator")

        shots = Shots(table, game, open_tab)
        secrets = Secrets(table.played)
        game = await play_by_taps(
            table,
            game.id,
            players,
            yard_deals_over(1),
            spectators=[watcher],
            secrets=secrets,
            seed=3,
            moment=shots.take,
        )
        assert shots.taken, "no moment for the screenshots"
        assert secrets.checked > 4 * 20
        # Every page, the spectator's too, went on to the next deal (its trump card).
        play = game.play
        assert isinstance(play, YardGame)
        trump = play.series.deals[-1].table_view().trump_card.code
        for player in [*players, watcher]:
            view = player.tab.last_view()
            assert view["trump"]["card"] == trump
            assert await player.page.locator(f'#deck [data-card="{trump}"]').count() == 1
            shown = await player.page.locator("#result").is_visible()
            assert shown == (view["result"] is not None)
        spectated = [s for s in watcher.tab.states() if s["view"]["trick"]]
        assert len(spectated) >= 8  # it followed the tricks as they were played


async def test_four_pages_play_a_whole_classic_deal(tr: Translator, open_tab: OpenTab) -> None:
    async with web_table(tr, seed=4) as table:
        game = await four_humans(table.service, "classic")
        players = [
            Player(await open_tab(table.link(game, seat), name=f"seat {seat}"), seat)
            for seat in range(4)
        ]
        secrets = Secrets(table.played)
        shot: list[str] = []

        async def moment(game: Game, players: list[Player]) -> None:
            for player in players:
                view = player.tab.last_view()
                if not shot and view["actions"] and len(view["trick"]) >= 2:
                    shot.append(player.tab.name)
                    await player.close_result()
                    await player.page.screenshot(path=screenshot_path("classic-light"))

        game = await play_by_taps(
            table, game.id, players, classic_deal_over, secrets=secrets, seed=2, moment=moment
        )
        assert shot, "no moment for the screenshot"
        assert classic_deal_over(game)
        for player in players:
            view = player.tab.last_view()
            assert view["version"] == game.version
            shown = await player.page.locator("#result").is_visible()
            assert shown == (view["result"] is not None)


# --- Screenshots ---------------------------------------------------------------------------


class Shots:
    """Screenshots of the page of a player who is to beat face-up cards on the table:
    his page (light) and a second window of his in the dark scheme."""

    def __init__(self, table: WebTable, game: Game, open_tab: OpenTab) -> None:
        self.table = table
        self.game = game
        self.open_tab = open_tab
        self.taken = False

    async def take(self, game: Game, players: list[Player]) -> None:
        if self.taken:
            return
        for light in players:
            view = light.tab.last_view()
            face_up = [play for play in view["trick"] if any(play["cards"])]
            if view["actions"] and len(view["trick"]) >= 2 and face_up and view["log"]:
                break
        else:
            return
        self.taken = True
        action = (beats(view["actions"]) or view["actions"])[0]
        await self.shoot(light, action, "table-light")
        for width, height in ((360, 640), (1280, 800)):  # the smallest phone; a desktop
            await light.page.set_viewport_size({"width": width, "height": height})
            await self.shoot(light, action, f"table-{width}x{height}")
        await light.page.set_viewport_size(PHONE)
        link = self.table.link(self.game, light.seat)
        dark = Player(await self.open_tab(link, name="dark", scheme="dark"), light.seat)
        await dark.shows(game.version)
        await self.shoot(dark, action, "table-dark")
        await dark.page.close()

    @staticmethod
    async def shoot(player: Player, action: dict[str, Any], name: str) -> None:
        """The page with the action's cards chosen (its button shown), then unchosen."""
        await player.close_result()
        await player.choose(action["cards"])
        button = player.page.locator(f'#actions button[data-token="{action["token"]}"]')
        await button.wait_for(state="visible")
        await player.page.screenshot(path=screenshot_path(name), scale="css")
        await player.choose(action["cards"])
        await button.wait_for(state="detached")


# --- Telegram and the browser at one table -------------------------------------------------


def init_data(user: FakeUser | tuple[int, str], start: str, auth_date: int) -> str:
    """A Mini App's launch data, signed as Telegram signs it (the key: HMAC-SHA256 of
    the bot token under "WebAppData")."""
    uid, first_name = user if isinstance(user, tuple) else (user.id, user.first_name)
    fields = {
        "query_id": f"AAE{uid}",
        "user": json.dumps(
            {"id": uid, "first_name": first_name, "language_code": "ru"},
            ensure_ascii=False,
            separators=(",", ":"),
        ),
        "auth_date": str(auth_date),
        "start_param": start,
    }
    check = "\n".join(f"{key}={fields[key]}" for key in sorted(fields))
    secret = hmac.new(b"WebAppData", TOKEN.encode(), hashlib.sha256).digest()
    fields["hash"] = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return urlencode(fields, quote_via=quote)


#: Telegram's dark theme, as its clients pass it to a Mini App.
DARK_THEME = {
    "bg_color": "#17212b",
    "secondary_bg_color": "#232e3c",
    "text_color": "#f5f5f5",
    "hint_color": "#708499",
    "link_color": "#6ab3f3",
    "button_color": "#5288c1",
    "button_text_color": "#ffffff",
}


def mini_app_url(base: str, data: str, theme: dict[str, str]) -> str:
    fragment = urlencode(
        {
            "tgWebAppData": data,
            "tgWebAppVersion": "8.0",
            "tgWebAppPlatform": "android",
            "tgWebAppThemeParams": json.dumps(theme, separators=(",", ":")),
        },
        quote_via=quote,
    )
    return f"{base}#{fragment}"


async def test_two_pages_and_two_telegram_players_finish_a_game(
    tr: Translator, open_tab: OpenTab
) -> None:
    async with telegram_bot(tr) as h:
        await _mixed_game(h, tr, open_tab)


async def _mixed_game(h: Harness, tr: Translator, open_tab: OpenTab) -> None:
    alice, bob = h.user(1, "Alice"), h.user(2, "Bob")
    carol, dave = h.user(3, "Carol"), h.user(4, "Dave")
    lobby = await h.command(alice, GROUP, "/kozel")
    for user, team in ((alice, "A"), (bob, "B"), (carol, "A"), (dave, "B")):
        await h.press_lobby(user, lobby, Verb.JOIN, team)
    await h.press_lobby(alice, lobby, Verb.START)
    game = await h.service.open_game(ChatRef(Platform.TELEGRAM, str(GROUP)))
    assert game is not None and game.status is GameStatus.PLAYING
    async with beside(h, tr) as table:
        start = start_param(table, game)
        auth = int(h.clock.now())
        pages = []
        for user, seat, theme in ((carol, 2, DARK_THEME), (dave, 3, {})):
            url = mini_app_url(table.url, init_data(user, start, auth), theme)
            pages.append(Player(await open_tab(url, name=user.first_name), seat))
        rng = random.Random(8)

        async def telegram_moves(game: Game) -> bool:
            await h.settle()
            game = await h.game(game.id)
            turn = game.play.turn
            if turn not in (0, 1):
                return False
            await h.play_turn(game.id, rng)
            await h.settle()
            return True

        game = await play_by_taps(
            table, game.id, pages, lambda g: False, others=telegram_moves, seed=5
        )
        assert game.status is GameStatus.FINISHED
        for page in pages:
            assert page.tab.last_view()["phase"] == "over"
            assert await page.page.locator("#app").get_attribute("data-phase") == "over"
        # The Mini App took Telegram's dark theme from its launch data.
        dark = pages[0].page
        assert await dark.evaluate("document.documentElement.classList.contains('theme-dark')")
        await dark.screenshot(path=screenshot_path("telegram-dark-over"))


# --- A cut connection ------------------------------------------------------------------


#: A name that is markup: the page shows it as text.
MARKUP = '<img src="x" class="who">Гена'


async def test_a_page_whose_connection_is_cut_catches_up(tr: Translator, open_tab: OpenTab) -> None:
    async with web_table(tr, seed=2) as table:
        game = await four_humans(table.service, "yard", names=(*NAMES[:3], MARKUP))
        players = [
            Player(await open_tab(table.link(game, seat), name=f"seat {seat}"), seat)
            for seat in range(4)
        ]
        game = await settled(table, game.id, players)
        cut, others = players[0], players[1:]
        sent: list[dict[str, Any]] = []
        cut.page.on(
            "websocket",
            lambda ws: ws.on("framesent", lambda payload: sent.append(json.loads(payload))),
        )
        shown_before = game.version
        hub = table.web.hub
        assert hub is not None
        await cut.page.context.set_offline(True)
        # The page gives its socket up as it goes offline; the bot may not have heard.
        for conn in [c for c in hub.games.get(game.id, ()) if c.seat == 0]:
            await conn.close(1001)
        await cut.page.locator("#banner:not(.hidden)").wait_for(timeout=20_000)
        assert (await dom(cut, "#banner")).startswith(tr.t("ru", "web-reconnecting"))

        # The others play on while the page is away.
        def others_moved(game: Game) -> bool:
            return game.version >= shown_before + 3

        game = await play_by_taps(
            table, game.id, others, others_moved, seed=9, others=_seat0_by_service(table)
        )
        assert game.version >= shown_before + 3
        await cut.page.context.set_offline(False)
        await cut.shows(game.version)
        await cut.page.locator("#banner").wait_for(state="hidden", timeout=10_000)
        hellos = [f for f in sent if f.get("type") == "hello"]
        assert hellos and hellos[-1]["version"] == shown_before
        assert cut.tab.last_view()["version"] == game.version
        # Gena's name as he typed it, as text (no element made of it).
        assert await dom(cut, "#seat-right .who") == MARKUP
        assert await cut.page.locator("#table img").count() == 0


def _seat0_by_service(table: WebTable) -> Callable[[Game], Awaitable[bool]]:
    """Seat 0's moves while his page is away: through the service (as from his chat)."""

    async def move(game: Game) -> bool:
        play = game.play
        assert isinstance(play, YardGame)
        deal = play.series.current
        if deal is None or deal.turn != 0:
            return False
        player = game.seats[0]
        assert player is not None and player.user is not None
        await table.service.play(game.id, game.version, player.user, safe_move(deal.view(0)))
        return True

    return move


# --- Pages the bot does not take ---------------------------------------------------------


async def test_a_forged_link_shows_why_and_the_page_does_not_reconnect(
    tr: Translator, open_tab: OpenTab
) -> None:
    async with web_table(tr) as table:
        game = await four_humans(table.service, "yard")
        token = table.web.hub.link(game, 1)  # type: ignore[union-attr]
        assert token is not None
        forged = token[:-3] + ("AAA" if not token.endswith("AAA") else "BBB")
        tab = await open_tab(f"{table.url}?t={forged}", name="forged")  # an English browser
        banner = tab.page.locator("#banner.final")
        await banner.wait_for(timeout=10_000)
        assert await banner.inner_text() == tr.t("en", "web-error-auth")
        assert [f["code"] for f in tab.frames] == ["auth"]
        assert tab.states() == []
        # Past the first reconnection's delay (0.5 s): no second socket was opened.
        await tab.page.wait_for_timeout(1500)
        assert len(tab.sockets) == 1
        assert await tab.page.locator("#hand .card").count() == 0


async def test_a_page_without_a_link_says_where_to_open_it(
    tr: Translator, open_tab: OpenTab
) -> None:
    async with web_table(tr) as table:
        tab = await open_tab(table.url, name="bare", locale="en-US")
        banner = tab.page.locator("#banner.final")
        await banner.wait_for(timeout=10_000)
        assert await banner.inner_text() == tr.t("en", "web-no-link")
        assert tab.sockets == []


async def final_banner(tab: Tab, tr: Translator) -> tuple[str, str]:
    """The page's language and the line it ends with (its title in that language)."""
    banner = tab.page.locator("#banner.final")
    await banner.wait_for(timeout=10_000)
    locale = await tab.page.evaluate("document.documentElement.lang")
    title = tr.t(locale, "web-title")
    await tab.page.locator("#title").get_by_text(title, exact=True).wait_for(timeout=10_000)
    assert await tab.page.title() == title
    return locale, await banner.inner_text()


@pytest.mark.parametrize(("browser", "locale"), [("en-US", "en"), ("ru-RU", "ru")])
async def test_a_bare_page_and_a_bad_links_page_speak_the_browsers_language(
    tr: Translator, open_tab: OpenTab, browser: str, locale: str
) -> None:
    """Regression (issue 31, point 12): ``/`` was English and ``/?t=garbage`` Russian
    (the bot's default) for the same English browser. The language is the request's
    (Accept-Language here), for the page's words and the bot's refusal alike."""
    async with web_table(tr) as table:
        assert table.service.default_locale == "ru"
        bare = await open_tab(table.url, name=f"bare-{locale}", locale=browser)
        assert await final_banner(bare, tr) == (locale, tr.t(locale, "web-no-link"))
        bad = await open_tab(f"{table.url}?t=garbage", name=f"garbage-{locale}", locale=browser)
        assert await final_banner(bad, tr) == (locale, tr.t(locale, "web-error-auth"))
        assert [f["code"] for f in bad.frames] == ["auth"]
        # The link's language comes before the browser's.
        other = "ru" if locale == "en" else "en"
        told = await open_tab(
            f"{table.url}?t=garbage&lang={other}", name=f"lang-{other}", locale=browser
        )
        assert await final_banner(told, tr) == (other, tr.t(other, "web-error-auth"))
        await bad.page.screenshot(path=screenshot_path(f"bad-link-{locale}"))


# --- A stale press ---------------------------------------------------------------------


class Held:
    """A page's socket through Playwright's WebSocket route: what the bot sends it is
    held back while ``hold`` is set, and let through in order on :meth:`release`."""

    def __init__(self) -> None:
        self.hold = False
        self.held: list[str | bytes] = []
        self.route: WebSocketRoute | None = None
        #: Set when an answer to a press is held back.
        self.answered = asyncio.Event()

    async def setup(self, page: Page) -> None:
        await page.route_web_socket(re.compile(r".*/ws$"), self.connect)

    def connect(self, route: WebSocketRoute) -> None:
        self.route = route
        server = route.connect_to_server()
        server.on_message(self.from_bot)

    def from_bot(self, message: str | bytes) -> None:
        if self.hold:
            self.held.append(message)
            if json.loads(message).get("type") == "answer":
                self.answered.set()
        elif self.route is not None:
            self.route.send(message)

    def release(self) -> None:
        self.hold = False
        assert self.route is not None
        for message in self.held:
            self.route.send(message)
        self.held.clear()


async def test_a_press_on_a_stale_page_changes_nothing_and_the_page_catches_up(
    tr: Translator, open_tab: OpenTab
) -> None:
    async with web_table(tr, seed=6) as table:
        game = await four_humans(table.service, "yard")
        seat = game.play.turn
        assert seat is not None
        link = table.link(game, seat)
        fresh = Player(await open_tab(link, name="fresh"), seat)
        held = Held()
        stale = Player(await open_tab(link, name="stale", setup=held.setup), seat)
        game = await settled(table, game.id, [fresh, stale])
        version = game.version
        [first, *_] = fresh.tab.last_view()["actions"]

        # The same player in two windows: one plays; the other does not hear of it...
        held.hold = True
        assert (await fresh.act(first))["ok"]
        await fresh.shows(version + 1)
        assert held.held, "the bot's new state is held back"
        # ...and presses the same action at the old version.
        await stale.choose(first["cards"])
        button = stale.page.locator(f'#actions button[data-token="{first["token"]}"]')
        await button.click()
        async with asyncio.timeout(20):
            await held.answered.wait()
        held.release()

        await stale.shows(version + 1)
        toast = stale.page.locator("#toast:not(.hidden)")
        await toast.wait_for()
        assert await toast.inner_text()  # the short word
        game = await table.service.game(game.id)
        assert game.version == version + 1  # one press applied, the stale one refused
        play = game.play
        assert isinstance(play, YardGame)
        deal = play.series.current
        assert deal is not None and len(deal.actions) == 1
        # The stale window is live again: its buttons take presses.
        assert await stale.page.locator("#actions button:disabled").count() == 0


# --- Inside Telegram ---------------------------------------------------------------------

#: Telegram's telegram-web-app.js as the page uses it, recording the calls in
#: ``window.calls`` (the real script comes from telegram.org, which the tests refuse).
TELEGRAM_WEB_APP = """
window.calls = [];
const record = (name) => (...args) => window.calls.push([name, ...args]);
window.Telegram = { WebApp: {
  initData: %s,
  themeParams: %s,
  ready: record("ready"),
  expand: record("expand"),
  onEvent: record("onEvent"),
  HapticFeedback: {
    selectionChanged: record("selectionChanged"),
    impactOccurred: record("impactOccurred"),
    notificationOccurred: record("notificationOccurred"),
  },
  BackButton: { show: record("back.show"), hide: record("back.hide"),
                onClick: record("back.onClick"), offClick: record("back.offClick") },
} };
"""


async def test_inside_telegram_the_page_takes_its_theme_and_haptics_from_telegram_web_app(
    tr: Translator, open_tab: OpenTab
) -> None:
    async with web_table(tr, telegram_bot_token=TOKEN) as table:
        game = await four_humans(table.service, "yard")
        seat = game.play.turn
        assert seat is not None
        start = table.web.hub.link(game, None)  # type: ignore[union-attr]
        assert start is not None
        data = init_data((seat + 1, f"user {seat + 1}"), start, int(time.time()))
        script = TELEGRAM_WEB_APP % (json.dumps(data), json.dumps(DARK_THEME))

        async def setup(page: Page) -> None:
            await page.add_init_script(script)

        # No launch data in the address: the script's initData and theme are all it has.
        player = Player(await open_tab(table.url, name="telegram", setup=setup), seat)
        await settled(table, game.id, [player])
        assert player.tab.last_view()["you"] == seat
        page = player.page
        assert await page.evaluate("document.documentElement.classList.contains('theme-dark')")
        background = await page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(23, 33, 43)"  # DARK_THEME's bg_color
        [first, *_] = player.tab.last_view()["actions"]
        assert (await player.act(first))["ok"]
        calls = [call[0] for call in await page.evaluate("window.calls")]
        assert {"ready", "expand", "selectionChanged", "impactOccurred"} <= set(calls)
