"""Who a page is: Telegram Mini App launch data checked as Telegram documents (valid,
forged, expired, another bot's, a user not seated), and signed links (valid, forged,
of another game or seat, revoked, of a game long over); every refusal closes the
socket with its code and shows nothing of the game."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from adapters.sqlite import SqliteStorage
from adapters.web import links
from adapters.web.connection import Limits
from adapters.web.hub import Identity
from adapters.web.telegram import init_data_check
from bot.models import GameStatus
from tests.adapters.web.harness import PLAYERS, Clock, Web

TOKEN = "123456:TEST-token"
OTHER_BOT = "654321:OTHER-token"


def init_data(token: str, user_id: int, start: str, auth_date: float, *, name: str = "Аня") -> str:
    """Launch data as Telegram signs it: the fields sorted into a check string, an
    HMAC-SHA256 under HMAC-SHA256("WebAppData", token)."""
    fields = {
        "auth_date": str(int(auth_date)),
        "query_id": "AAHdF6IQAAAAAN0XohDhrOrc",
        "start_param": start,
        "user": json.dumps({"id": user_id, "first_name": name, "language_code": "ru"}),
    }
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    fields["hash"] = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return urlencode(fields)


@pytest.fixture
async def web() -> AsyncIterator[Web]:
    clock = Clock()
    check = init_data_check(TOKEN, 3600, clock.now)
    harness = Web(init_data=check, clock=clock)
    await harness.start()
    try:
        yield harness
    finally:
        await harness.stop()


def user_id(seat: int) -> int:
    return int(PLAYERS[seat].ref.id)


async def test_valid_init_data_seats_the_user_at_his_seat(web: Web) -> None:
    game = await web.game()
    start = web.link(game, None)
    page = await web.page({"init_data": init_data(TOKEN, user_id(2), start, web.clock.now())})
    state = await page.state_at(game.version)
    assert state["view"]["you"] == 2 and len(state["view"]["hand"]) == 4


async def test_init_data_of_a_user_not_seated_gets_the_spectators_view(web: Web) -> None:
    game = await web.game()
    data = init_data(TOKEN, 999, web.link(game, None), web.clock.now(), name="Ира")
    page = await web.page({"init_data": data})
    view = (await page.state_at(game.version))["view"]
    assert view["you"] is None and view["hand"] is None and view["actions"] == []
    assert page.of("error") == []


@pytest.mark.parametrize(
    ("case", "code", "close"),
    [
        ("forged", "auth", 4401),
        ("another bot's", "auth", 4401),
        ("expired", "expired", 4401),
        ("from the future", "auth", 4401),
        ("no game", "not-found", 4404),
        ("a seat's link as start", "not-found", 4404),
        ("malformed", "auth", 4401),
    ],
)
async def test_bad_init_data_is_refused_and_shows_nothing(
    web: Web, case: str, code: str, close: int
) -> None:
    game = await web.game()
    now, start = web.clock.now(), web.link(game, None)
    data = {
        "forged": init_data(TOKEN, user_id(0), start, now).replace(
            "%22id%22%3A+101", "%22id%22%3A+102"
        ),
        "another bot's": init_data(OTHER_BOT, user_id(0), start, now),
        "expired": init_data(TOKEN, user_id(0), start, now - 3601),
        "from the future": init_data(TOKEN, user_id(0), start, now + 3600),
        "no game": init_data(TOKEN, user_id(0), links.sign(b"w" * 32, 999, None, 0), now),
        "a seat's link as start": init_data(TOKEN, user_id(0), web.link(game, 0), now),
        "malformed": "user=%7B%7D&hash=00",
    }[case]
    assert "%22id%22%3A+101" in init_data(TOKEN, user_id(0), start, now)
    page = await web.page({"init_data": data})
    await page.wait(lambda r: page.closed is not None)
    assert [m["code"] for m in page.of("error")] == [code]
    assert page.states == [] and page.closed == close


async def test_a_signed_link_names_its_seat_and_nothing_else(web: Web) -> None:
    game = await web.game()
    other = await web.game(humans=2)
    pages = {seat: await web.page({"link": web.link(game, seat)}) for seat in range(4)}
    for seat, page in pages.items():
        view = (await page.state_at(game.version))["view"]
        assert view["you"] == seat
        assert len(view["hand"]) == 4
    forged = [
        web.link(game, 0).replace("_0", "_1", 1),  # another seat, the same signature
        web.link(game, 0).replace("w1_", "w2_", 1),  # another game
        web.link(other, 0)[:-1] + ("A" if web.link(other, 0)[-1] != "A" else "B"),
        links.sign(b"x" * 32, game.id, 0, 0, "telegram:101"),  # another key
        "w1_0",
        "k:p:1:1:lAS",
    ]
    for token in forged:
        page = await web.page({"link": token})
        await page.wait(lambda r, p=page: p.closed is not None)
        assert [m["code"] for m in page.of("error")] == ["auth"], token
        assert page.states == [] and page.closed == 4401


async def test_a_revoked_link_is_refused_and_its_pages_are_closed(web: Web) -> None:
    game = await web.game()
    old = web.link(game, 1)
    page = await web.page({"link": old})
    await page.state_at(game.version)
    await web.hub.revoke(game.id, 1)
    await page.wait(lambda r: page.closed is not None)
    assert page.of("error")[-1]["code"] == "revoked" and page.closed == 4403
    again = await web.page({"link": old})
    await again.wait(lambda r: again.closed is not None)
    assert [m["code"] for m in again.of("error")] == ["revoked"] and again.states == []
    game = await web.service.game(game.id)
    fresh = await web.page({"link": web.link(game, 1)})
    assert (await fresh.state_at(game.version))["view"]["you"] == 1


async def test_a_revoked_link_stays_revoked_after_the_storage_is_reopened(
    tmp_path: Path,
) -> None:
    """The generation is kept with the game: a bot started again on the same database
    still refuses the old link and takes the new one."""
    path = f"sqlite:///{tmp_path / 'kozel.sqlite3'}"
    async with await SqliteStorage.open(path) as storage:
        before = Web(storage)
        await before.start()
        try:
            game = await before.game()
            old = before.link(game, 1)
            await before.hub.revoke(game.id, 1)
            new = before.link(await before.service.game(game.id), 1)
        finally:
            await before.stop()
    assert new != old
    async with await SqliteStorage.open(path) as storage:
        after = Web(storage)
        await after.start()
        try:
            page = await after.page({"link": old})
            await page.wait(lambda r: page.closed is not None)
            assert [m["code"] for m in page.of("error")] == ["revoked"] and page.states == []
            game = await after.service.game(game.id)
            assert after.link(game, 1) == new
            fresh = await after.page({"link": new})
            assert (await fresh.state_at(game.version))["view"]["you"] == 1
        finally:
            await after.stop()


async def test_a_page_whose_link_is_revoked_while_it_says_hello_is_refused(web: Web) -> None:
    """A revoke between the check of a page's link and its joining the game's pages
    (the revoke closes only the pages it finds) refuses the page: it is not left open
    with a revoked link."""
    game = await web.game()
    old = web.link(game, 2)
    identify = web.hub.identify

    async def identify_then_revoke(message: dict[str, Any]) -> Identity:
        who = await identify(message)
        await web.hub.revoke(game.id, 2)  # after the check, before the page is counted
        return who

    web.hub.identify = identify_then_revoke  # type: ignore[method-assign]
    page = await web.page({"link": old})
    await page.wait(lambda r: page.closed is not None)
    assert [m["code"] for m in page.of("error")] == ["revoked"] and page.states == []
    assert web.hub.sockets == 0


async def test_a_link_of_a_game_long_over_is_expired(web: Web) -> None:
    game = await web.game()
    link = web.link(game, 0)
    await web.service.cancel(game.id, None, PLAYERS[0].ref)
    game = await web.service.game(game.id)
    assert game.status is GameStatus.CANCELLED
    page = await web.page({"link": link})
    assert (await page.state_at(game.version))["view"]["phase"] == "cancelled"
    web.clock.value += Limits().grace + 1
    late = await web.page({"link": link})
    await late.wait(lambda r: late.closed is not None)
    assert [m["code"] for m in late.of("error")] == ["expired"] and late.states == []


async def test_a_player_who_left_his_seat_loses_its_view(web: Web) -> None:
    game = await web.game(start=False)
    page = await web.page({"link": web.link(game, 1)})
    await page.state_at(game.version)
    await web.service.leave(game.id, None, PLAYERS[1].ref)
    await page.wait(lambda r: page.closed is not None)
    assert page.of("error")[-1]["code"] == "revoked"
