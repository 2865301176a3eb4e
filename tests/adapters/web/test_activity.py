"""Issue 32, part 1: who a Discord Activity's page is, as Discord says, against the
fake Discord HTTP API (:class:`testing.fakes.discord.FakeDiscord`).

The page posts its ``authorize`` code to ``POST /discord/token``; the server exchanges
it with Discord (the client secret stays on the server) for an access token; the
``hello`` with the token and the instance binds the socket to the user's seat of the
game in the instance's channel, or to a spectator's view. A forged code, a forged or
expired token, a user who is not a participant of the instance, an instance Discord
does not know: refused with the page's line, the socket closed, and nothing of the
game sent."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from adapters.web.activity import DiscordActivity
from adapters.web.connection import Limits
from adapters.web.hub import CLOSE_CODES
from adapters.web.server import DISCORD_FRAMERS
from bot.models import ChatRef, Game, Platform, User, UserRef
from core.seats import Team
from testing.fakes.discord import TOKEN, FakeDiscord
from tests.adapters.web.harness import Page, Web

GUILD, CHANNEL, EMPTY_CHANNEL = 10, 20, 21
ANNA, BORIS, VIKA = 101, 102, 103  # Anna and Boris sit at the table, Vika watches
INSTANCE = "i-1234567890-gc-10-20"
BOT_TOKEN = TOKEN  # the fake's well-formed bot token


@pytest.fixture
async def discord() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(patch=False, token=BOT_TOKEN) as dc:
        dc.add_guild(GUILD, "Двор", owner_id=ANNA)
        dc.add_channel(GUILD, CHANNEL, "kozel")
        dc.add_channel(GUILD, EMPTY_CHANNEL, "quiet")
        for uid, name, locale in ((ANNA, "Anna", "en-US"), (BORIS, "Boris", "ru"),
                                  (VIKA, "Vika", "ru")):  # fmt: skip
            dc.add_user(uid, name, locale=locale, guild_ids=[GUILD])
        dc.add_activity_instance(INSTANCE, CHANNEL, [ANNA, BORIS, VIKA])
        yield dc


def checks(discord: FakeDiscord) -> DiscordActivity:
    """The server's checks with the fake Discord, as the app's settings make them."""
    return DiscordActivity(
        client_id=str(discord.app_id),
        client_secret=discord.client_secret,
        bot_token=BOT_TOKEN,
        api=discord.api_base,
    )


@pytest.fixture
async def web(discord: FakeDiscord) -> AsyncIterator[Web]:
    activity = checks(discord)
    harness = Web(activity=activity)
    await harness.start()
    try:
        yield harness
    finally:
        await harness.stop()
        await activity.close()


def discord_user(uid: int, name: str) -> User:
    return User(UserRef(Platform.DISCORD, str(uid)), name)


async def table(web: Web) -> Game:
    """A started game in the channel: Anna (seat 0), Boris (seat 1), two computers."""
    anna, boris = discord_user(ANNA, "Anna"), discord_user(BORIS, "Boris")
    game = await web.service.open_table(ChatRef(Platform.DISCORD, str(CHANNEL)), anna)
    game = await web.service.join(game.id, None, anna, Team.A)
    game = await web.service.join(game.id, None, boris, Team.B)
    for team in (Team.A, Team.B):
        game = await web.service.add_computer(game.id, None, anna.ref, team)
    return (await web.service.start(game.id, None, anna.ref)).game


async def exchange(web: Web, code: object, locale: str = "en") -> tuple[int, dict[str, Any]]:
    assert web.client is not None
    response = await web.client.post("/discord/token", json={"code": code, "locale": locale})
    return response.status, await response.json()


async def token_of(web: Web, discord: FakeDiscord, uid: int) -> str:
    status, body = await exchange(web, discord.oauth_code(uid))
    assert status == 200, body
    return str(body["access_token"])


async def hello(web: Web, token: str, instance: str = INSTANCE, locale: str = "en") -> Page:
    discord = {"access_token": token, "instance": instance}
    return await web.page({"discord": discord, "locale": locale})


async def refused(page: Page, code: str) -> None:
    """The page gets one error (its code and its line), the socket closes with the
    code's close code, and not one state (nothing of the game) came before it."""
    await page.wait(lambda received: False)  # until it closes
    assert page.closed == CLOSE_CODES[code]
    (error,) = page.received
    assert error["type"] == "error" and error["code"] == code and error["text"], error


async def test_a_participant_is_bound_to_his_seat_by_his_discord_token(
    web: Web, discord: FakeDiscord
) -> None:
    game = await table(web)
    page = await hello(web, await token_of(web, discord, BORIS))
    state = await page.state_at(game.version)
    view = state["view"]
    assert view["you"] == 1 and view["hand"] and view["seats"][1]["name"] == "Boris"
    assert view["locale"] == "ru"  # his Discord client's language (no /lang of his)
    # The exchange went to Discord with the app's credentials; the page never saw them.
    (grant,) = [c for c in discord.calls if c.path == "/oauth2/token"]
    assert grant.json["grant_type"] == "authorization_code"
    assert grant.json["client_secret"] == discord.client_secret
    assert all(discord.client_secret not in str(message) for message in page.received)


async def test_a_move_on_the_activity_is_a_press_of_his_hand(
    web: Web, discord: FakeDiscord
) -> None:
    await table(web)
    pages = [await hello(web, await token_of(web, discord, uid)) for uid in (ANNA, BORIS)]
    await web.settle()  # the computers moved: one of the two is to move
    game = await web.service.game(await _game_id(web))
    version = game.version
    views = [(await page.state_at(version))["view"] for page in pages]
    ((page, view),) = [(p, v) for p, v in zip(pages, views, strict=True) if v["actions"]]
    await page.send({"type": "press", "id": 1, "token": view["actions"][0]["token"]})
    assert (await page.answer(1))["ok"]
    await page.state_at(version + 1)


async def _game_id(web: Web) -> int:
    game = await web.service.open_game(ChatRef(Platform.DISCORD, str(CHANNEL)))
    assert game is not None
    return game.id


async def test_a_participant_who_does_not_play_sees_the_table_only(
    web: Web, discord: FakeDiscord
) -> None:
    game = await table(web)
    page = await hello(web, await token_of(web, discord, VIKA))
    view = (await page.state_at(game.version))["view"]
    assert view["you"] is None and view["hand"] is None and view["actions"] == []


async def test_a_forged_code_is_refused_and_gives_no_token(web: Web, discord: FakeDiscord) -> None:
    for code in ("forged-code", "", None, 12, "x" * 5000):
        status, body = await exchange(web, code)
        assert status == 401 and body["error"] == "auth" and body["text"], (code, body)
        assert "access_token" not in body
    # A code is good once: a second exchange of it is refused.
    code = discord.oauth_code(ANNA)
    assert (await exchange(web, code))[0] == 200
    status, body = await exchange(web, code, locale="ru")
    assert status == 401 and body["text"] == web.tr.t("ru", "web-error-auth")


async def test_a_forged_token_is_refused_before_any_card(web: Web, discord: FakeDiscord) -> None:
    await table(web)
    await refused(await hello(web, "forged-token"), "auth")
    await refused(await web.page({"discord": {"access_token": 7, "instance": INSTANCE}}), "auth")


async def test_an_expired_token_is_refused_before_any_card(web: Web, discord: FakeDiscord) -> None:
    await table(web)
    token = await token_of(web, discord, ANNA)
    discord.expire_access_tokens()
    await refused(await hello(web, token), "auth")


async def test_a_user_who_is_not_a_participant_is_refused_before_any_card(
    web: Web, discord: FakeDiscord
) -> None:
    await table(web)
    discord.add_activity_instance(INSTANCE, CHANNEL, [ANNA, VIKA])  # Boris left it
    page = await hello(web, await token_of(web, discord, BORIS), locale="ru")
    await refused(page, "not-participant")
    assert page.received[0]["text"] == web.tr.t("ru", "web-error-not-participant")
    # An instance Discord does not know (or another app's): the same.
    await refused(await hello(web, await token_of(web, discord, ANNA), "i-999"), "not-participant")
    await refused(await hello(web, await token_of(web, discord, ANNA), "../x"), "not-participant")


async def test_an_activity_in_a_channel_without_a_game_says_so(
    web: Web, discord: FakeDiscord
) -> None:
    discord.add_activity_instance("i-2", EMPTY_CHANNEL, [ANNA])
    await refused(await hello(web, await token_of(web, discord, ANNA), "i-2"), "no-game")


async def test_discord_not_answering_is_said_and_the_page_may_try_again(
    web: Web, discord: FakeDiscord
) -> None:
    await table(web)
    token = await token_of(web, discord, ANNA)
    discord.rate_limit("GET /users/@me", times=1)
    page = await hello(web, token)
    await refused(page, "unavailable")
    assert CLOSE_CODES["unavailable"] == 1013  # not one of the page's final closes
    state = await (await hello(web, token)).state_at(0)
    assert state["view"]["you"] == 0


async def test_code_exchanges_past_the_servers_rate_are_not_sent_to_discord(
    discord: FakeDiscord,
) -> None:
    """Each exchange is a request to Discord: past ``Limits.exchanges`` the server
    answers ``unavailable`` (the page asks again later) and Discord hears nothing."""
    activity = checks(discord)
    web = Web(activity=activity, limits=Limits(exchanges=0.001, exchange_burst=2))
    await web.start()
    try:
        statuses = [(await exchange(web, discord.oauth_code(ANNA)))[0] for _ in range(4)]
        assert statuses == [200, 200, 503, 503]
        assert len([c for c in discord.calls if c.path == "/oauth2/token"]) == 2
    finally:
        await web.stop()
        await activity.close()


async def test_the_page_names_the_activity_and_discord_may_frame_it(
    web: Web, discord: FakeDiscord
) -> None:
    assert web.client is not None
    response = await web.client.get("/")
    page = await response.text()
    assert f'<meta name="kozel-discord-client" content="{discord.app_id}">' in page
    assert discord.client_secret not in page
    policy = response.headers["Content-Security-Policy"]
    assert all(framer in policy.split("frame-ancestors")[1] for framer in DISCORD_FRAMERS)


async def test_without_the_activity_there_is_no_exchange_and_no_discord_framing() -> None:
    web = Web()
    await web.start()
    try:
        assert web.client is not None
        assert (await web.client.post("/discord/token", json={"code": "c"})).status == 404
        response = await web.client.get("/")
        assert '<meta name="kozel-discord-client" content="">' in await response.text()
        assert "discord.com" not in response.headers["Content-Security-Policy"]
        page = await web.page({"discord": {"access_token": "t", "instance": INSTANCE}})
        await refused(page, "auth")
    finally:
        await web.stop()
