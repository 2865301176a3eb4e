"""``kozel play --web`` (issue 31, point 16): the terminal game's table served in the
browser too. A page's socket plays here (aiohttp); ``tests/browser/test_play_web.py``
plays it in a real Chromium through the ``kozel`` script."""

from __future__ import annotations

import asyncio
import io
import json
import re
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import aiohttp

from adapters.console import play_main
from adapters.console.play import build_parser, run
from adapters.sqlite import SqliteStorage
from tests.adapters.console.test_console import lines, run_console, settings

KOZEL = str(Path(sys.executable).parent / "kozel")
#: The line ``--web`` prints (English): the player's link and the spectators'.
LINKS = re.compile(
    r"The table in the browser: (http://127\.0\.0\.1:\d+/\?t=\S+&lang=en) "
    r"\(for spectators: (http://127\.0\.0\.1:\d+/\?t=\S+&lang=en)\)"
)
PROMPT = "Your move>"
#: A safety net only: each wait ends as soon as what it waits for shows.
WAIT = 60.0


class Screen(io.StringIO):
    """The terminal's output, with a wait for what it should show."""

    def __init__(self) -> None:
        super().__init__()
        self.changed = asyncio.Event()

    def write(self, text: str) -> int:
        self.changed.set()
        return super().write(text)

    async def until(self, found: Any) -> str:
        async with asyncio.timeout(WAIT):
            while not found(self.getvalue()):
                self.changed.clear()
                await self.changed.wait()
        return self.getvalue()


async def receive(ws: aiohttp.ClientWebSocketResponse, kind: str) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads((await ws.receive(timeout=WAIT)).data)
        if message["type"] == kind:
            return message


async def test_a_move_made_on_the_page_redraws_the_terminal_and_keeps_the_line_being_typed(
    tmp_path: Path,
) -> None:
    """The terminal waits at its prompt while the player moves on the page: the move is
    said on a line of its own, the table and the prompt are shown again when his turn
    comes back, and the line he was typing meanwhile is not lost: it plays on the new
    screen."""
    typed: asyncio.Queue[str | None] = asyncio.Queue()
    screen = Screen()
    args = build_parser().parse_args(["--web", "--lang", "en", "--delay", "0", "--seed", "4"])
    game = asyncio.create_task(run(args, settings(tmp_path), screen, typed.get))
    text = await screen.until(lambda seen: PROMPT in seen)
    match = LINKS.search(text)
    assert match is not None, text
    mine, spectators = (urlsplit(url) for url in match.groups())
    port, token = mine.port, parse_qs(mine.query)["t"][0]
    assert token != parse_qs(spectators.query)["t"][0]

    async with aiohttp.ClientSession() as session:
        ws = await session.ws_connect(f"http://127.0.0.1:{port}/ws")
        await ws.send_str(json.dumps({"type": "hello", "link": token}))
        state = await receive(ws, "state")
        assert state["view"]["you"] == 0 and state["view"]["locale"] == "en"
        [action, *_] = state["view"]["actions"]
        await ws.send_str(json.dumps({"type": "press", "id": 1, "token": action["token"]}))
        assert (await receive(ws, "answer"))["ok"] is True
        text = await screen.until(lambda seen: seen.count(PROMPT) >= 2)
        after = text[match.end() :]
        assert re.search(r"^You (lead|beat|discard)", after, re.MULTILINE), after
        assert not re.search(r"Your move> \S", after), after

        # The line typed while the page played (the read waiting since the first
        # prompt) plays on the screen shown since.
        version = (await receive(ws, "state"))["version"]
        await typed.put("a")
        while (await receive(ws, "state"))["version"] == version:
            pass
        await screen.until(lambda seen: seen.count(PROMPT) >= 3)
        assert "Not understood" not in screen.getvalue()
        await ws.close()
    await typed.put("q")
    assert await asyncio.wait_for(game, WAIT) == 0
    assert screen.getvalue().endswith("The game is saved. To go on, run: kozel play\n")


def test_the_printed_link_opens_the_saved_game_again_in_the_next_run(tmp_path: Path) -> None:
    """The links are signed with the database's secret, as the bots' are: a page kept
    open (or a link kept) works again once the saved game is resumed."""

    def token() -> str:
        status, text = run_console(tmp_path, lines("q"), "--web", "--lang", "en", "--seed", "4")
        match = LINKS.search(text)
        assert status == 0 and match is not None, text
        return parse_qs(urlsplit(match.group(1)).query)["t"][0]

    assert token() == token()


def test_a_web_port_in_use_is_one_line_and_nothing_is_played(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [KOZEL, "play", "--lang", "en", "--web-port", str(port)],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env={
                "PATH": "/usr/bin:/bin",
                "DATABASE_URL": f"sqlite:///{tmp_path / 'kozel.sqlite3'}",
                "HOME": str(tmp_path),
            },
            timeout=120,
            check=False,
        )
    assert done.returncode == 1, done
    assert done.stdout == (
        f"Cannot serve the table in the browser on 127.0.0.1:{port}: Address already in use."
        " Nothing was played; choose another --web-port.\n"
    )
    assert "Traceback" not in done.stderr

    async def games() -> list[int]:
        async with await SqliteStorage.open(tmp_path / "kozel.sqlite3") as storage:
            return [game.id for game in await storage.active_games()]

    assert asyncio.run(games()) == []


def test_a_web_port_out_of_range_is_one_line(tmp_path: Path) -> None:
    out = io.StringIO()
    args = ["--lang", "en", "--web-port", "70000"]
    status = play_main(args, settings=settings(tmp_path), out=out)
    assert status == 2
    assert out.getvalue() == (
        "--web-port 70000: a port is a number from 0 to 65535 (0: any free one).\n"
    )
    assert not (tmp_path / "kozel.sqlite3").exists()
