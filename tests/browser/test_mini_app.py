"""The web table as a Telegram Mini App, in a real headless Chromium against the real
bot (its service and web adapter in-process): what the page asks of Telegram.WebApp
(issue 32, part 3). Telegram's script comes from telegram.org, which the tests refuse:
:data:`WEB_APP` stands in for it, keeping the state the real one keeps
(``isClosingConfirmationEnabled``, ``isVerticalSwipesEnabled``, ``isFullscreen``, the
main button's text and visibility) and recording every call in ``window.calls``.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from playwright.async_api import Page

from bot.codec import base36
from bot.i18n import Translator
from bot.models import Game
from testing.fakes.telegram import FakeUser
from tests.adapters.telegram.harness import TOKEN
from tests.adapters.telegram.test_achievements_and_picture import finish
from tests.adapters.telegram.test_share import ask
from tests.browser.conftest import BROWSER, Tab, screenshot_path
from tests.browser.table import (
    SHOW,
    Player,
    WebTable,
    beside,
    four_humans,
    settled,
    start_param,
    telegram_bot,
    to_move,
    web_table,
)
from tests.browser.test_table import OpenTab, init_data

pytestmark = BROWSER

#: Telegram.WebApp as telegram-web-app.js gives it (of the client's ``version``), with
#: the state the real one keeps; ``window.tg.press()`` presses the main button and
#: ``window.tg.fire(event)`` sends a client's event.
WEB_APP = """
(() => {
  const VERSION = %(version)s, PLATFORM = %(platform)s;
  window.calls = [];
  const handlers = {};
  const record = (name, effect) => (...args) => {
    window.calls.push([name, ...args]);
    return effect ? effect(...args) : undefined;
  };
  const newer = (a, b) => {
    const x = a.split(".").map(Number), y = String(b).split(".").map(Number);
    for (let i = 0; i < Math.max(x.length, y.length); i += 1) {
      if ((x[i] || 0) !== (y[i] || 0)) return (x[i] || 0) > (y[i] || 0);
    }
    return true;
  };
  const main = {
    text: "", isVisible: false, isActive: true, clicks: [],
    setText: record("main.setText", (text) => { main.text = text; }),
    show: record("main.show", () => { main.isVisible = true; }),
    hide: record("main.hide", () => { main.isVisible = false; }),
    onClick: record("main.onClick", (fn) => { main.clicks.push(fn); }),
    offClick: record("main.offClick",
      (fn) => { main.clicks = main.clicks.filter((f) => f !== fn); }),
    setParams: record("main.setParams", (p) => {
      if ("text" in p) main.text = p.text;
      if ("is_visible" in p) main.isVisible = p.is_visible;
      if ("is_active" in p) main.isActive = p.is_active;
    }),
  };
  const app = {
    initData: %(data)s,
    version: VERSION,
    platform: PLATFORM,
    themeParams: {},
    isVersionAtLeast: (v) => newer(VERSION, v),
    isClosingConfirmationEnabled: false,
    isVerticalSwipesEnabled: true,
    isFullscreen: false,
    safeAreaInset: %(safe)s,
    contentSafeAreaInset: %(content)s,
    ready: record("ready"),
    expand: record("expand"),
    onEvent: record("onEvent", (name, fn) => { (handlers[name] ||= []).push(fn); }),
    enableClosingConfirmation: record("enableClosingConfirmation",
      () => { app.isClosingConfirmationEnabled = true; }),
    disableClosingConfirmation: record("disableClosingConfirmation",
      () => { app.isClosingConfirmationEnabled = false; }),
    enableVerticalSwipes: record("enableVerticalSwipes",
      () => { app.isVerticalSwipesEnabled = true; }),
    disableVerticalSwipes: record("disableVerticalSwipes",
      () => { app.isVerticalSwipesEnabled = false; }),
    requestFullscreen: record("requestFullscreen", () => { app.isFullscreen = true; }),
    shareMessage: record("shareMessage"),
    switchInlineQuery: record("switchInlineQuery"),
    MainButton: main,
    HapticFeedback: { selectionChanged: record("selectionChanged"),
      impactOccurred: record("impactOccurred"),
      notificationOccurred: record("notificationOccurred") },
    BackButton: { show: record("back.show"), hide: record("back.hide"),
      onClick: record("back.onClick"), offClick: record("back.offClick") },
  };
  if (VERSION < "8.0") { delete app.shareMessage; delete app.requestFullscreen; }
  window.Telegram = { WebApp: app };
  window.tg = {
    press: () => main.clicks.forEach((fn) => fn()),
    fire: (name) => (handlers[name] || []).forEach((fn) => fn()),
  };
})();
"""

NO_INSET = {"top": 0, "bottom": 0, "left": 0, "right": 0}
#: A phone with a notch in full screen: the device's edges and Telegram's controls.
NOTCH = {"top": 47, "bottom": 34, "left": 0, "right": 0}
CONTROLS = {"top": 46, "bottom": 0, "left": 0, "right": 0}


@pytest.fixture(scope="module")
def tr() -> Translator:
    return Translator.from_dir()


def web_app_script(
    data: str,
    version: str = "8.0",
    platform: str = "android",
    safe: dict[str, int] = NO_INSET,
    content: dict[str, int] = NO_INSET,
) -> str:
    return WEB_APP % {
        "version": json.dumps(version),
        "platform": json.dumps(platform),
        "data": json.dumps(data),
        "safe": json.dumps(safe),
        "content": json.dumps(content),
    }


async def mini_app(
    open_tab: OpenTab,
    table: WebTable,
    game: Game,
    user: FakeUser | tuple[int, str],
    name: str,
    **script: Any,
) -> Tab:
    """The Mini App opened from the game's table by ``user`` (Telegram tells the page
    who he is; the page finds his seat)."""
    text = web_app_script(init_data(user, start_param(table, game), int(time.time())), **script)

    async def setup(page: Page) -> None:
        await page.add_init_script(text)

    return await open_tab(table.url, name=name, setup=setup)


async def web_app(page: Page) -> dict[str, Any]:
    """Telegram.WebApp's state as the page left it, and the names of its calls."""
    state: dict[str, Any] = await page.evaluate(
        """() => {
          const app = window.Telegram.WebApp, main = app.MainButton;
          return {
            closing: app.isClosingConfirmationEnabled,
            swipes: app.isVerticalSwipesEnabled,
            fullscreen: app.isFullscreen,
            main: { text: main.text, visible: main.isVisible, active: main.isActive },
            calls: window.calls.map((call) => call[0]),
          };
        }"""
    )
    return state


async def until_web_app(page: Page, condition: str) -> None:
    """Until ``condition`` (JavaScript over ``app``, Telegram.WebApp) holds."""
    await page.wait_for_function(
        f"() => {{ const app = window.Telegram.WebApp; return {condition}; }}", timeout=SHOW
    )


async def calls_of(page: Page, name: str) -> list[list[Any]]:
    """Once the page called Telegram.WebApp's ``name``: those calls, with their
    arguments."""
    await page.wait_for_function(
        "(name) => window.calls.some((call) => call[0] === name)", arg=name, timeout=SHOW
    )
    calls: list[list[Any]] = await page.evaluate("window.calls")
    return [call for call in calls if call[0] == name]


def user(seat: int) -> tuple[int, str]:
    """The Telegram user at ``seat`` of :func:`four_humans`'s game."""
    return seat + 1, f"user {seat + 1}"


async def test_a_seated_mini_app_asks_before_closing_and_holds_swipes_in_his_turn(
    tr: Translator, open_tab: OpenTab
) -> None:
    async with web_table(tr, seed=6, telegram_bot_token=TOKEN) as table:
        game = await four_humans(table.service, "yard")
        turn = to_move(game)
        after = (turn + 1) % 4
        mover = Player(await mini_app(open_tab, table, game, user(turn), "mover"), turn)
        waiter = Player(await mini_app(open_tab, table, game, user(after), "waiter"), after)
        watcher = Player(await mini_app(open_tab, table, game, (99, "Zoe"), "watcher"), None)
        await settled(table, game.id, [mover, waiter, watcher])
        assert watcher.tab.last_view()["you"] is None

        # Seated in an open game: asked before closing; his turn: no swipe closes it.
        moving = await web_app(mover.page)
        assert (moving["closing"], moving["swipes"], moving["fullscreen"]) == (True, False, True)
        waiting = await web_app(waiter.page)
        assert (waiting["closing"], waiting["swipes"]) == (True, True)
        watching = await web_app(watcher.page)
        assert watching["closing"] is False and "enableClosingConfirmation" not in watching["calls"]
        assert watching["swipes"] is True and "disableVerticalSwipes" not in watching["calls"]

        # The main button: hidden until one action is obvious; it names the action, and
        # a press on it is the page's own press.
        assert moving["main"]["visible"] is False
        action = next(a for a in mover.tab.last_view()["actions"] if a["cards"])
        await mover.choose(action["cards"])
        await until_web_app(mover.page, "app.MainButton.isVisible")
        shown = await web_app(mover.page)
        assert shown["main"]["text"] == action["label"]
        assert shown["main"]["active"] is True
        assert tr.t("ru", "hand-lead", cards="").strip() in action["label"]
        await mover.page.screenshot(path=screenshot_path("mini-app-main-button"))
        answers = len([f for f in mover.tab.frames if f.get("type") == "answer"])
        await mover.page.evaluate("window.tg.press()")
        assert (await mover.answer(answers))["ok"]
        game = await settled(table, game.id, [mover, waiter, watcher])
        play = game.play
        assert play.turn == after
        await until_web_app(mover.page, "app.isVerticalSwipesEnabled && !app.MainButton.isVisible")
        await until_web_app(waiter.page, "!app.isVerticalSwipesEnabled")
        assert (await web_app(mover.page))["closing"] is True

        # The game over: nothing to lose by closing.
        creator = game.creator
        await table.service.cancel(game.id, game.version, creator)
        await until_web_app(mover.page, "!app.isClosingConfirmationEnabled")
        await until_web_app(waiter.page, "!app.isClosingConfirmationEnabled")
        assert "disableClosingConfirmation" in (await web_app(mover.page))["calls"]


async def test_an_older_client_is_asked_only_what_it_has_and_a_computer_no_full_screen(
    tr: Translator, open_tab: OpenTab
) -> None:
    async with web_table(tr, seed=6, telegram_bot_token=TOKEN) as table:
        game = await four_humans(table.service, "yard")
        turn = to_move(game)
        old = Player(await mini_app(open_tab, table, game, user(turn), "6.1", version="6.1"), turn)
        await settled(table, game.id, [old])
        calls = (await web_app(old.page))["calls"]
        asked = {"requestFullscreen", "enableClosingConfirmation", "disableVerticalSwipes"}
        assert not asked & set(calls), calls
        assert "ready" in calls
        # Telegram Desktop: all of it but full screen, which would hide the rest.
        desktop = await mini_app(open_tab, table, game, user(turn), "desktop", platform="tdesktop")
        await settled(table, game.id, [Player(desktop, turn)])
        await until_web_app(desktop.page, "!app.isVerticalSwipesEnabled")
        state = await web_app(desktop.page)
        assert state["closing"] is True and state["fullscreen"] is False
        assert "requestFullscreen" not in state["calls"]


async def test_in_full_screen_the_page_keeps_clear_of_the_notch_and_telegrams_controls(
    tr: Translator, open_tab: OpenTab
) -> None:
    async with web_table(tr, seed=6, telegram_bot_token=TOKEN) as table:
        game = await four_humans(table.service, "yard")
        tab = await mini_app(open_tab, table, game, user(0), "notch", safe=NOTCH, content=CONTROLS)
        player = Player(tab, 0)
        await settled(table, game.id, [player])
        page = player.page
        padding = "(side) => getComputedStyle(document.getElementById('app'))[side]"
        # 6 px of its own above the device's 47 and Telegram's 46; 6 below the home bar's 34.
        assert await page.evaluate(padding, "paddingTop") == "99px"
        assert await page.evaluate(padding, "paddingBottom") == "40px"
        top = await page.locator("#title").bounding_box()
        assert top is not None and top["y"] >= 47 + 46
        await page.screenshot(path=screenshot_path("mini-app-full-screen"))
        # The phone turns: the insets follow.
        await page.evaluate(
            """() => {
              const app = window.Telegram.WebApp;
              app.safeAreaInset = { top: 0, bottom: 21, left: 47, right: 47 };
              app.contentSafeAreaInset = { top: 40, bottom: 0, left: 0, right: 0 };
              window.tg.fire("safeAreaChanged");
            }"""
        )
        assert await page.evaluate(padding, "paddingTop") == "46px"
        assert await page.evaluate(padding, "paddingLeft") == "55px"


# --- Sharing the result ------------------------------------------------------------------


async def test_a_player_shares_the_finished_games_result_card_from_the_mini_app(
    tr: Translator, open_tab: OpenTab
) -> None:
    async with telegram_bot(tr) as h:
        game = await finish(h)  # Alice, Bob, Carol and Dave, through their Telegram hands
        ref = base36(game.id)
        async with beside(h, tr) as table:
            start = start_param(table, game)
            auth = int(h.clock.now())

            async def opened(who: tuple[int, str], name: str, version: str = "8.0") -> Page:
                text = web_app_script(init_data(who, start, auth), version=version)

                async def setup(page: Page) -> None:
                    await page.add_init_script(text)

                tab = await open_tab(table.url, name=name, setup=setup)
                await tab.until(lambda: tab.states() or None, SHOW / 1000)
                return tab.page

            # Carol's Telegram: the result, and "Share" on it.
            carol = await opened((3, "Carol"), "carol")
            share = carol.locator("#result:not(.hidden) #result-share:not(.hidden)")
            await share.wait_for(timeout=SHOW)
            assert await share.inner_text() == tr.t("ru", "web-share")
            await carol.screenshot(path=screenshot_path("mini-app-share"))
            await share.click()
            [[_, prepared]] = await calls_of(carol, "shareMessage")
            user_id, result = h.tg.prepared[prepared]
            assert user_id == 3 and result["type"] == "photo"
            assert h.tg.fetched[result["photo_url"]].startswith(b"\xff\xd8")  # a JPEG
            # Once the result is closed, "Share" stays among the actions.
            await carol.locator("#result-close").click()
            assert await carol.locator("#actions .button.share").is_visible()

            # An older client (no shareMessage): the bot's inline mode, in a chat he picks.
            older = await opened((3, "Carol"), "carol 7.0", version="7.0")
            await older.locator("#result-share:not(.hidden)").click()
            [switch] = await calls_of(older, "switchInlineQuery")
            assert switch[1] == ref and "groups" in switch[2]
            [answered] = await ask(h, h.tg.users[3], switch[1])
            assert answered["photo_url"] == result["photo_url"]

            # Who did not play, and a page outside Telegram: no "Share".
            eve = await opened((9, "Eve"), "eve")
            await eve.locator("#result:not(.hidden)").wait_for(timeout=SHOW)
            assert await eve.locator("#result-share").is_hidden()
            assert await eve.locator(".button.share:visible").count() == 0
            browser = await open_tab(table.link(game, 0), name="browser")
            await browser.page.locator("#result:not(.hidden)").wait_for(timeout=SHOW)
            assert await browser.page.locator(".button.share:visible").count() == 0
            assert len(h.tg.calls_of("savePreparedInlineMessage")) == len(h.tg.prepared) == 1
