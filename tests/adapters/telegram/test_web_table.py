"""The web table beside the Telegram bot: the group's table carries "🃏 Table" (the
Mini App on this game, or the spectators' link), a player's DM hand a ``web_app``
button with his own link; a move made on the page shows in the chat and the DMs."""

from __future__ import annotations

import json
import random
from typing import Any
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest

from bot.codec import Verb
from bot.errors import ErrorCode
from bot.models import ChatRef, Game, GameStatus, Platform, UserRef
from tests.adapters.telegram.harness import GROUP, Harness, button

CHAT = ChatRef(Platform.TELEGRAM, str(GROUP))
MINI_APP = {"web_public_url": "https://kozel.example.org/", "web_app_name": "table"}


async def started(h: Harness, humans: int = 2) -> Game:
    """A started game of ``humans`` players (Alice, Bob) and computers."""
    alice, bob = h.user(1, "Alice"), h.user(2, "Bob")
    lobby = await h.command(alice, GROUP, "/kozel")
    await h.press_lobby(alice, lobby, Verb.JOIN, "A")
    if humans > 1:
        await h.press_lobby(bob, lobby, Verb.JOIN, "B")
    for team in ("A", "B") if humans > 1 else ("A", "B", "B"):
        await h.press_lobby(alice, lobby, Verb.ADD_COMPUTER, team)
    await h.press_lobby(alice, lobby, Verb.START)
    await h.settle()
    game = await h.service.open_game(CHAT)
    assert game is not None
    return game


def urls(h: Harness, chat: int, message_id: int) -> list[tuple[str, str]]:
    return [
        (label, str(data))
        for label, data in h.tg.buttons(chat, message_id)
        if str(data).startswith(("https://", "http://"))
    ]


def raw_buttons(h: Harness, chat: int, message_id: int) -> list[dict[str, Any]]:
    message = next(m for m in h.tg.messages(chat) if m.message_id == message_id)
    rows = (message.reply_markup or {}).get("inline_keyboard", [])
    return [b for row in rows for b in row]


@pytest.mark.parametrize("web", [MINI_APP], indirect=True)
async def test_the_table_opens_the_mini_app_and_the_hand_carries_a_web_app_button(
    h: Harness,
) -> None:
    game = await started(h)
    table = h.table_message(game)
    assert table is not None
    [(label, url)] = urls(h, GROUP, table.message_id)
    assert label in ("🃏 Стол", "🃏 Table")
    assert url.startswith("https://t.me/kozel_test_bot/table?startapp=w")
    assert all("web_app" not in b for b in raw_buttons(h, GROUP, table.message_id))
    hand = h.hand_message(game, 0)
    assert hand is not None
    [app] = [b for b in raw_buttons(h, hand.chat_id, hand.message_id) if "web_app" in b]
    link = app["web_app"]["url"]
    assert link.startswith("https://kozel.example.org/?t=w")
    assert h.web_app is not None and h.web_app.hub is not None
    query = parse_qs(urlsplit(link).query)
    assert query["t"] == [h.web_app.hub.link(game, 0)]
    assert query["lang"] == [game.settings.locale]  # the hand's language: the page's


@pytest.mark.parametrize("web", [{}], indirect=True)
async def test_no_button_leads_telegram_users_to_this_machine(h: Harness) -> None:
    # Without WEB_PUBLIC_URL the page is at http://127.0.0.1:<port>/: Telegram would
    # refuse the message that carries a button there (the table would not show).
    game = await started(h)
    table, hand = h.table_message(game), h.hand_message(game, 0)
    assert table is not None and hand is not None
    assert urls(h, GROUP, table.message_id) == [] and urls(h, hand.chat_id, hand.message_id) == []


@pytest.mark.parametrize("web", [{"web_public_url": "http://kozel.example.org/"}], indirect=True)
async def test_a_move_made_on_the_web_shows_in_the_chat_and_in_the_dms(h: Harness) -> None:
    game = await started(h)
    game = await h.play_until(game.id, lambda g: g.play.turn == 0)
    hand = h.hand_message(game, 0)
    assert hand is not None
    # The page is not https here: a plain link (Telegram opens web_app buttons on https only).
    [(_, url)] = urls(h, hand.chat_id, hand.message_id)
    token = parse_qs(urlsplit(url).query)["t"][0]
    assert h.web_app is not None and h.web_app.port is not None
    version = game.version
    async with aiohttp.ClientSession() as session:
        ws = await session.ws_connect(f"http://127.0.0.1:{h.web_app.port}/ws")
        await ws.send_str(json.dumps({"type": "hello", "link": token}))
        state = json.loads((await ws.receive()).data)
        assert state["type"] == "state" and state["view"]["you"] == 0
        action = next(a for a in state["view"]["actions"] if a["cards"])
        await ws.send_str(json.dumps({"type": "press", "id": 7, "token": action["token"]}))
        messages = [json.loads((await ws.receive()).data) for _ in range(2)]
        answer = next(m for m in messages if m["type"] == "answer")
        assert answer == {"type": "answer", "id": 7, "ok": True, "text": ""}
        await ws.close()
    await h.settle()
    game = await h.game(game.id)
    assert game.version > version
    table = h.table_message(game)
    assert table is not None
    assert table.text == h.expected_table(game)
    hand = h.hand_message(game, 0)
    assert hand is not None and hand.text == h.hand_text(game, 0, game.settings.locale)


# --- /hand new: a player revokes the links his hands carried --------------------------

PUBLIC_HTTP = {"web_public_url": "http://kozel.example.org/"}


def hand_token(h: Harness, game: Game, seat: int) -> str:
    hand = h.hand_message(game, seat)
    assert hand is not None
    [(_, url)] = urls(h, hand.chat_id, hand.message_id)
    return parse_qs(urlsplit(url).query)["t"][0]


async def hello(ws: aiohttp.ClientWebSocketResponse, token: str) -> dict[str, Any]:
    await ws.send_str(json.dumps({"type": "hello", "link": token}))
    message: dict[str, Any] = json.loads((await ws.receive()).data)
    return message


@pytest.mark.parametrize("web", [PUBLIC_HTTP], indirect=True)
async def test_hand_new_revokes_the_links_the_hands_carried_and_sends_new_ones(
    h: Harness,
) -> None:
    game = await started(h)
    old, bobs = hand_token(h, game, 0), hand_token(h, game, 1)
    assert h.web_app is not None and h.web_app.port is not None
    address = f"http://127.0.0.1:{h.web_app.port}/ws"
    async with aiohttp.ClientSession() as session:
        page = await session.ws_connect(address)
        assert (await hello(page, old))["view"]["you"] == 0

        line = await h.command(h.tg.users[1], 1, "/hand new")

        assert line.text == h.tr.t("en", "web-renew-hands")
        await h.settle()
        error = json.loads((await page.receive()).data)
        assert error["code"] == "revoked"
        closing = await page.receive()
        assert closing.type is aiohttp.WSMsgType.CLOSE and closing.data == 4403
        again = await session.ws_connect(address)
        assert (await hello(again, old))["code"] == "revoked"
        new = hand_token(h, game, 0)  # the hand sent after the line
        assert new != old
        fresh = await session.ws_connect(address)
        assert (await hello(fresh, new))["view"]["you"] == 0
        # Bob's link is his: it still works.
        assert hand_token(h, game, 1) == bobs
        bob = await session.ws_connect(address)
        assert (await hello(bob, bobs))["view"]["you"] == 1
        for ws in (fresh, bob):
            await ws.close()


@pytest.mark.parametrize(("web", "asker"), [({}, 1), (PUBLIC_HTTP, 3)], indirect=["web"])
async def test_hand_new_without_a_link_to_revoke_says_so_and_changes_nothing(
    h: Harness, asker: int
) -> None:
    # {}: the page is on this machine: Telegram's hands carry no link (Alice, seated,
    # asks); the public address: Carol sits at no table.
    game = await started(h)
    user = h.tg.users[1] if asker == 1 else h.user(asker, "Carol")
    line = await h.command(user, asker, "/hand new")
    assert line.text == h.tr.t("en", "web-renew-no-links")
    await h.settle()
    after = await h.game(game.id)
    assert not any(key.startswith("web:") for key in after.messages)


# --- A seat watched on the web: its DM hand is not edited (issue 32, part 2) ----------

WRITES = ("sendMessage", "editMessageText")


def dm_writes(h: Harness, chat: int, since: int) -> int:
    return sum(
        1 for c in h.tg.calls[since:] if c.method in WRITES and int(c.params["chat_id"]) == chat
    )


async def latest_state(
    ws: aiohttp.ClientWebSocketResponse, view: dict[str, Any], version: int
) -> dict[str, Any]:
    """The page's view of the game's ``version``: ``view`` (the last one read) or a
    state frame still to read."""
    while view["version"] < version:
        message = json.loads((await ws.receive(timeout=WAIT)).data)
        if message["type"] == "state":
            view = message["view"]
    return view


WAIT = 30.0


async def play_from_the_page(
    h: Harness, game: Game, page: aiohttp.ClientWebSocketResponse, moves: int, seat: int = 0
) -> Game:
    """The player of ``seat`` (Alice's) moves ``moves`` times from his page; the other
    person through his DM hand."""
    done = 0
    view = (await hello(page, hand_token(h, game, seat)))["view"]
    assert view["you"] == seat
    while done < moves:
        game = await h.play_until(game.id, lambda g: g.play.turn == seat)
        assert game.status is GameStatus.PLAYING
        view = await latest_state(page, view, game.version)
        action = next(a for a in view["actions"] if a["cards"])
        await page.send_str(json.dumps({"type": "press", "id": done, "token": action["token"]}))
        while (message := json.loads((await page.receive(timeout=WAIT)).data))["type"] != "answer":
            view = message["view"] if message["type"] == "state" else view
        assert message == {"type": "answer", "id": done, "ok": True, "text": ""}
        await h.settle()
        done += 1
    return game


@pytest.mark.parametrize("web", [PUBLIC_HTTP], indirect=True)
async def test_a_seat_with_its_page_open_gets_no_dm_edits_and_one_redraw_when_it_closes(
    h: Harness,
) -> None:
    game = await started(h)
    assert h.web_app is not None and h.web_app.port is not None
    since = len(h.tg.calls)
    async with aiohttp.ClientSession() as session:
        page = await session.ws_connect(f"http://127.0.0.1:{h.web_app.port}/ws")
        game = await play_from_the_page(h, game, page, 6)
        assert dm_writes(h, 1, since) == 0, "Alice's DM hand is left as it was"
        assert dm_writes(h, 2, since) > 0, "Bob (no page) sees his hand change"
        hand = h.hand_message(game, 0)
        assert hand is not None and hand.text != h.hand_text(game, 0, game.settings.locale)
        closed = len(h.tg.calls)
        await page.close()
    await h.tg.wait_for(
        lambda _: (
            (m := h.hand_message(game, 0)) is not None
            and m.text == h.hand_text(game, 0, game.settings.locale)
        ),
        timeout=WAIT,
    )
    await h.settle()
    assert dm_writes(h, 1, closed) == 1, "redrawn once, with what she holds"


@pytest.mark.parametrize("web", [PUBLIC_HTTP], indirect=True)
async def test_a_dm_hand_press_while_its_page_is_open_is_checked_as_before(h: Harness) -> None:
    game = await started(h)
    assert h.web_app is not None and h.web_app.port is not None
    async with aiohttp.ClientSession() as session:
        page = await session.ws_connect(f"http://127.0.0.1:{h.web_app.port}/ws")
        game = await play_from_the_page(h, game, page, 2)
        game = await h.play_until(game.id, lambda g: g.play.turn == 0)
        version = game.version
        hand = h.hand_message(game, 0)
        assert hand is not None  # as it was before the page opened: its buttons stale
        query = await h.press(h.tg.users[1], hand, button(h.tg, hand, Verb.SELECT))
        stale = {h.interactions.error_text(ErrorCode.STALE, locale) for locale in ("en", "ru")}
        assert h.tg.callback_answers[query].get("text") in stale
        assert (await h.game(game.id)).version == version, "a stale press changes nothing"
        # The refusal shows his hand as it is (as before): its buttons now play.
        await h.play_turn(game.id, random.Random(2))
        assert (await h.game(game.id)).version > version
        await page.close()


@pytest.mark.parametrize("web", [PUBLIC_HTTP], indirect=True)
async def test_a_spectators_page_or_another_seats_page_leaves_the_dm_hand_edited(
    h: Harness,
) -> None:
    game = await started(h)
    bob = game.seat_of(UserRef(Platform.TELEGRAM, "2"))
    assert h.web_app is not None and h.web_app.hub is not None and bob is not None
    spectators = h.web_app.hub.link(game, None)
    assert spectators is not None
    since = len(h.tg.calls)
    async with aiohttp.ClientSession() as session:
        address = f"http://127.0.0.1:{h.web_app.port}/ws"
        watching = await session.ws_connect(address)
        assert (await hello(watching, spectators))["view"]["you"] is None
        page = await session.ws_connect(address)
        game = await play_from_the_page(h, game, page, 4, seat=bob)  # Alice by her DM
        game = await h.play_until(game.id, lambda g: g.play.turn == bob)
        assert dm_writes(h, 1, since) > 0
        hand = h.hand_message(game, 0)
        assert hand is not None and hand.text == h.hand_text(game, 0, game.settings.locale)
        for ws in (watching, page):
            await ws.close()
