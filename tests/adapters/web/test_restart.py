"""``python -m bot`` (a real child process) with ``WEB_PORT``: a page opened from the
DM hand's link plays a move; the bot is killed (the page's socket drops) and started
again; a move made meanwhile in the Telegram DM, and the page reconnecting with its
last version catches up to the saved game."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest

from bot.codec import Verb, decode
from bot.i18n import Translator
from bot.models import GameStatus
from core.yard.ai import safe_move
from testing.fakes.telegram import FakeTelegram
from tests.adapters.telegram.harness import free_port
from tests.adapters.telegram.test_kill import GROUP, NAMES, SEATS, WAIT, Table


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(group_limit=1_000_000) as fake:
        for user_id, name in NAMES.items():
            fake.user_starts(fake.add_user(user_id, name))
        fake.add_group(GROUP, "Club")
        yield fake


async def hello(
    session: aiohttp.ClientSession, port: int, link: str, version: int | None = None
) -> tuple[aiohttp.ClientWebSocketResponse, dict[str, Any]]:
    ws = await session.ws_connect(f"http://127.0.0.1:{port}/ws")
    message: dict[str, Any] = {"type": "hello", "link": link}
    if version is not None:
        message["version"] = version
    await ws.send_str(json.dumps(message))
    state = json.loads((await ws.receive(timeout=WAIT)).data)
    assert state["type"] == "state", state
    return ws, state


async def test_a_page_reconnects_to_a_restarted_bot_and_catches_up(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    table = Table(tg, Translator.from_dir(), tmp_path)
    port = free_port()
    public = "http://kozel.example.org/"  # behind a proxy: Telegram takes its buttons
    table.bot.env.update({"WEB_PORT": str(port), "WEB_HOST": "127.0.0.1", "WEB_PUBLIC_URL": public})
    await table.start()
    try:
        lobby = await table.open(seated=4)
        await table.wait(lambda: table.lobby_current(lobby))
        start = next(
            data
            for _, data in tg.buttons(GROUP, lobby.message_id)
            if data is not None and decode(data).verb is Verb.START
        )
        await table.press(1, GROUP, lobby.message_id, start)
        await table.wait(lambda: table.game().status is GameStatus.PLAYING)
        game = table.game()
        seat = game.play.turn
        assert seat is not None
        user = SEATS[seat]
        # His DM hand carries his link to the web table (http here: a plain link).
        await table.wait(lambda: f"hand:{seat}" in table.game().messages)
        hand = int(table.game().messages[f"hand:{seat}"])
        await table.wait(lambda: any(
            str(data).startswith(public) for _, data in tg.buttons(user, hand)
        ))  # fmt: skip
        url = next(str(d) for _, d in tg.buttons(user, hand) if str(d).startswith(public))
        assert url.startswith(f"{public}?t=")
        link = parse_qs(urlsplit(url).query)["t"][0]
        async with aiohttp.ClientSession() as session:
            ws, state = await hello(session, port, link)
            assert state["view"]["you"] == seat and state["version"] == game.version
            action = next(a for a in state["view"]["actions"] if a["cards"])
            await ws.send_str(json.dumps({"type": "press", "id": 1, "token": action["token"]}))
            answer = None
            while answer is None:
                message = json.loads((await ws.receive(timeout=WAIT)).data)
                answer = message if message["type"] == "answer" else None
            assert answer["ok"] is True
            await table.wait(lambda: table.game().version > game.version)
            shown = table.game().version

            await table.bot.kill()
            closed = await ws.receive(timeout=WAIT)
            assert closed.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED,
                                   aiohttp.WSMsgType.CLOSING, aiohttp.WSMsgType.ERROR)  # fmt: skip
            await table.start()
            # A move in the Telegram DM while the page is away.
            await table.wait(lambda: all(f"hand:{s}" in table.game().messages for s in SEATS))
            game = table.game()
            deal = game.play.series.current
            assert deal is not None and deal.turn is not None
            await table.play(game, safe_move(deal.view(deal.turn)))
            await table.wait(lambda: table.game().version > game.version)
            ws, state = await hello(session, port, link, version=shown)
            saved = table.game()
            assert state["version"] >= saved.version > shown
            assert state["view"]["you"] == seat
            await ws.close()
        assert table.bot.errors() == [], table.bot.output()[-3000:]
    finally:
        await table.bot.kill()
