"""Issue 32, part 1: the web table as a Discord Activity, in a real Chromium.

A parent page on the bot's own origin (served by the browser's router: the server
has no such page) plays Discord's client: it frames the page with the query Discord
adds (``frame_id``, ``instance_id``, ``platform``) and answers the Embedded App SDK's
postMessage protocol, the handshake with ``READY`` and ``authorize`` with a code the
fake Discord HTTP API accepts. The page exchanges the code on the bot's server, says
``hello`` with the access token and the instance, and its player plays a whole game
against three computers from inside the frame; every page's cards are checked at
each step. A user who is not a participant of the instance gets the page's line and
no state.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
import pytest_asyncio
from playwright.async_api import Frame, Page, Route

from bot.i18n import Translator
from bot.models import ChatRef, Game, GameStatus, Platform, User, UserRef
from core.seats import Team
from testing.fakes.discord import TOKEN, FakeDiscord
from tests.browser.conftest import BROWSER, Tab, screenshot_path
from tests.browser.table import Player, Secrets, WebTable, play_by_taps, web_table

pytestmark = BROWSER

OpenTab = Callable[..., Awaitable[Tab]]
GUILD, CHANNEL = 10, 20
ANNA, BORIS = 101, 102
INSTANCE = "i-1234567890-gc-10-20"
BOT_TOKEN = TOKEN  # the fake's well-formed bot token

#: Discord's side of the SDK's protocol: [opcode, payload] messages, 0 the handshake
#: (answered by the READY dispatch), 1 a frame (a command, answered with its nonce).
PARENT = """<!doctype html>
<html><head><meta charset="utf-8"><title>Discord</title></head>
<body style="margin:0">
<iframe id="activity" src="%(src)s" style="width:390px;height:844px;border:0"></iframe>
<script>
window.sdkLog = [];
const frame = document.getElementById("activity");
const reply = (payload) => frame.contentWindow.postMessage([1, payload], "*");
window.addEventListener("message", (event) => {
  if (event.source !== frame.contentWindow || !Array.isArray(event.data)) return;
  const [opcode, data] = event.data;
  window.sdkLog.push([opcode, data.cmd || null, data.args || null]);
  if (opcode === 0) {
    reply({cmd: "DISPATCH", evt: "READY", nonce: null, data: {v: 1,
      config: {api_endpoint: "//discord.com/api", environment: "production"}}});
  } else if (opcode === 1 && data.cmd === "AUTHORIZE") {
    reply({cmd: "AUTHORIZE", evt: null, nonce: data.nonce, data: {code: %(code)s}});
  }
});
</script>
</body></html>
"""


@pytest.fixture
def tr() -> Translator:
    return Translator.from_dir()


@pytest_asyncio.fixture(loop_scope="session")
async def discord() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(patch=False, token=BOT_TOKEN) as dc:
        dc.add_guild(GUILD, "Двор", owner_id=ANNA)
        dc.add_channel(GUILD, CHANNEL, "kozel")
        dc.add_user(ANNA, "Anna", locale="en-US", guild_ids=[GUILD])
        dc.add_user(BORIS, "Boris", locale="en-US", guild_ids=[GUILD])
        yield dc


def activity(dc: FakeDiscord) -> dict[str, str]:
    """The settings of a bot whose table is also its Discord Activity."""
    return {
        "discord_bot_token": BOT_TOKEN,
        "discord_client_id": str(dc.app_id),
        "discord_client_secret": dc.client_secret,
        "discord_api_url": dc.api_base,
        "web_public_url": "https://kozel.example.org/",
    }


async def solo_game(table: WebTable) -> Game:
    """Anna (seat 0) and three computers in the Discord channel, started."""
    anna = User(UserRef(Platform.DISCORD, str(ANNA)), "Anna")
    service = table.service
    game = await service.open_table(ChatRef(Platform.DISCORD, str(CHANNEL)), anna)
    game = await service.join(game.id, None, anna, Team.A)
    for team in (Team.B, Team.A, Team.B):
        game = await service.add_computer(game.id, None, anna.ref, team)
    return (await service.start(game.id, None, anna.ref)).game


async def open_in_discord(open_tab: OpenTab, table: WebTable, code: str, name: str) -> Tab:
    """The Activity as Discord's client opens it: the parent page framing the table."""
    parent = f"{table.url}discord-client"
    query = f"frame_id=frame-1&instance_id={INSTANCE}&platform=desktop"
    query += f"&guild_id={GUILD}&channel_id={CHANNEL}"
    html = PARENT % {"src": f"/?{query}", "code": f'"{code}"'}

    async def setup(page: Page) -> None:
        async def serve(route: Route) -> None:
            await route.fulfill(status=200, content_type="text/html", body=html)

        await page.route(parent, serve)

    return await open_tab(parent, name=name, setup=setup)


async def inner(tab: Tab) -> Tab:
    """The framed page as a tab of its own (the same sockets' frames)."""
    element = await tab.page.wait_for_selector("#activity")
    frame = await element.content_frame()
    assert isinstance(frame, Frame)
    framed = Tab(frame, f"{tab.name} (framed)", tab.frames, tab.sockets, tab.errors)  # type: ignore[arg-type]
    framed.arrived = tab.arrived
    return framed


async def final_line(tab: Tab) -> tuple[Tab, str]:
    """The framed page and the line it ends with."""
    framed = await inner(tab)
    banner = framed.page.locator("#banner.final")
    await banner.wait_for(timeout=20_000)
    return framed, await banner.inner_text()


async def test_a_discord_activity_plays_a_whole_game_inside_discords_frame(
    tr: Translator, open_tab: OpenTab, discord: FakeDiscord
) -> None:
    async with web_table(tr, **activity(discord)) as table:
        game = await solo_game(table)
        discord.add_activity_instance(INSTANCE, CHANNEL, [ANNA, BORIS])
        tab = await open_in_discord(open_tab, table, discord.oauth_code(ANNA), "anna")
        anna = Player(await inner(tab), 0)
        await anna.tab.until(lambda: tab.states() or None, 20)
        # The SDK's handshake, then authorize with the scope identify, nothing else asked.
        log = await tab.page.evaluate("window.sdkLog")
        assert [entry[:2] for entry in log] == [[0, None], [1, "AUTHORIZE"]], log
        assert log[1][2]["scope"] == ["identify"]
        assert log[1][2]["client_id"] == str(discord.app_id)
        view = tab.states()[0]["view"]
        assert view["you"] == 0 and view["hand"] and tab.frames[0]["type"] == "state"
        await anna.shows(game.version)
        await tab.page.screenshot(path=screenshot_path("activity-start"))

        secrets = Secrets(table.played)
        game = await play_by_taps(table, game.id, [anna], lambda game: False, secrets=secrets)
        assert game.status is GameStatus.FINISHED, game.status
        assert secrets.checked > 20
        await anna.shows(game.version)
        assert anna.tab.last_view()["result"] is not None
        await anna.page.locator("#result:not(.hidden)").wait_for(timeout=10_000)
        await tab.page.screenshot(path=screenshot_path("activity-over"))
        # One exchange and one socket for the whole game: the page never asked again.
        assert len([c for c in discord.calls if c.path == "/oauth2/token"]) == 1
        assert len(tab.sockets) == 1


@pytest.mark.parametrize(
    ("who", "said"),
    [("not a participant", "web-error-not-participant"), ("a forged code", "web-error-auth")],
)
async def test_a_refused_user_gets_the_pages_line_and_nothing_of_the_table(
    tr: Translator, open_tab: OpenTab, discord: FakeDiscord, who: str, said: str
) -> None:
    """Boris, who is not in the instance, is refused at the hello; a code Discord does
    not take, at the exchange, before any socket."""
    async with web_table(tr, **activity(discord)) as table:
        await solo_game(table)
        discord.add_activity_instance(INSTANCE, CHANNEL, [ANNA])
        forged = who == "a forged code"
        code = "forged-code" if forged else discord.oauth_code(BORIS)
        tab = await open_in_discord(open_tab, table, code, who)
        framed, line = await final_line(tab)
        assert line == tr.t("en", said)
        assert await framed.page.locator("#hand .card").count() == 0
        if forged:
            assert tab.sockets == [] and tab.frames == []
        else:
            assert [f.get("code") for f in tab.frames] == ["not-participant"]
            await tab.page.screenshot(path=screenshot_path("activity-not-participant"))


async def test_the_page_asks_again_while_discord_does_not_answer_the_exchange(
    tr: Translator, open_tab: OpenTab, discord: FakeDiscord
) -> None:
    """Discord's token endpoint answers 429 twice (the code unused): the page says
    Discord does not answer, asks ``authorize`` again and gets in on the third try."""
    async with web_table(tr, **activity(discord)) as table:
        await solo_game(table)
        discord.add_activity_instance(INSTANCE, CHANNEL, [ANNA])
        discord.rate_limit("POST /oauth2/token", times=2)
        tab = await open_in_discord(open_tab, table, discord.oauth_code(ANNA), "retry")
        await tab.until(lambda: tab.states() or None, 30)
        assert tab.states()[0]["view"]["you"] == 0
        log = await tab.page.evaluate("window.sdkLog")
        assert [entry[1] for entry in log].count("AUTHORIZE") == 3, log
        assert [c.status for c in discord.calls if c.path == "/oauth2/token"] == [429, 429, 200]
