"""``kozel play --web`` (issue 31, point 16): the terminal game's table in a real
headless Chromium, before any platform is set up. The ``kozel`` script runs as a
child process, as an operator runs it; the test opens the link it prints, plays a
card on the page, watches the terminal show that move, then plays in the terminal
and watches the page follow; closing the terminal game stops the page's server.

The terminal's standard input and output are pipes the test holds (the game reads a
pipe as it reads a terminal); log lines go to standard error, a file here.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import IO, Any

import aiohttp
import pytest_asyncio

from tests.adapters.console.test_console_web import KOZEL, LINKS, PROMPT, WAIT
from tests.browser.conftest import BROWSER, Tab, screenshot_path
from tests.browser.table import Player

pytestmark = BROWSER

OpenTab = Callable[..., Awaitable[Tab]]
_SUITS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


class Terminal:
    """``kozel`` as a child process: what it printed so far, and lines typed to it."""

    def __init__(self, process: asyncio.subprocess.Process, errors: Path) -> None:
        self.process = process
        self.errors = errors
        self.seen = ""
        self._more = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.process.stdout is not None
        while chunk := await self.process.stdout.read(65536):
            self.seen += chunk.decode(errors="replace")
            self._more.set()
        self._more.set()

    async def wait_for(self, found: Callable[[str], bool]) -> str:
        """Until ``found(everything printed)`` (failing with the screen after WAIT)."""
        try:
            async with asyncio.timeout(WAIT):
                while not found(self.seen):
                    assert not self._reader.done(), self.screen()
                    self._more.clear()
                    await self._more.wait()
        except TimeoutError:
            raise AssertionError(self.screen()) from None
        return self.seen

    async def prompts(self, count: int) -> str:
        return await self.wait_for(lambda seen: seen.count(PROMPT) >= count)

    def type(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write((line + "\n").encode())

    def screen(self) -> str:
        return f"{self.seen}\n--- stderr ---\n{self.errors.read_text(errors='replace')}"

    def hand(self) -> set[str]:
        """The cards of the terminal's last "Your cards:" line, as codes."""
        line = [row for row in self.seen.splitlines() if row.startswith("Your cards:")][-1]
        return {_code(label) for label in re.findall(r"\d\) (\S+)", line)}


def _code(label: str) -> str:
    """``10♣`` -> ``TC``, ``A♠`` -> ``AS``."""
    rank, suit = label[:-1], label[-1]
    return ("T" if rank == "10" else rank) + _SUITS[suit]


@pytest_asyncio.fixture(loop_scope="session")
async def kozel_play(tmp_path: Path) -> AsyncIterator[Callable[..., Awaitable[Terminal]]]:
    """``await kozel_play(*args)``: ``kozel play --web ... args`` started in
    ``tmp_path`` (its database there, no ``.env``); killed at teardown if still on."""
    started: list[tuple[Terminal, IO[bytes]]] = []

    async def start(*args: str) -> Terminal:
        errors = tmp_path / "stderr.log"
        stderr = errors.open("wb")
        env = {
            "PATH": "/usr/bin:/bin",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'kozel.sqlite3'}",
            "COMPUTER_LEVEL": "normal",
            "HOME": str(tmp_path),
        }
        process = await asyncio.create_subprocess_exec(
            KOZEL,
            "play",
            "--web",
            *args,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=stderr,
            cwd=tmp_path,
            env=env,
        )
        terminal = Terminal(process, errors)
        started.append((terminal, stderr))
        return terminal

    yield start
    for terminal, stderr in started:
        if terminal.process.returncode is None:
            terminal.process.kill()
            await terminal.process.wait()
        await terminal._reader
        stderr.close()


async def answers(url: str) -> bool:
    """Whether the page's server answers at ``url``."""
    try:
        async with aiohttp.ClientSession() as session, session.get(url) as response:
            return response.status == 200
    except aiohttp.ClientConnectionError:
        return False


async def test_kozel_play_web_serves_the_terminal_games_table_and_a_move_on_the_page_shows_in_the_terminal(  # noqa: E501
    kozel_play: Callable[..., Awaitable[Terminal]], open_tab: OpenTab
) -> None:
    terminal = await kozel_play("--lang", "en", "--delay", "0", "--seed", "4")
    screen = await terminal.prompts(1)
    match = LINKS.search(screen)
    assert match is not None, terminal.screen()
    mine, spectators = match.groups()
    assert mine.endswith("&lang=en") and spectators.endswith("&lang=en")

    # The operator opens his link: his hand, the moves he may make now.
    player = Player(await open_tab(mine, name="console"), 0)
    spectator = Player(await open_tab(spectators, name="spectator"), None)

    def playable() -> dict[str, Any] | None:
        view = player.tab.last_view() if player.tab.states() else None
        return view if view and view["actions"] else None

    view = await player.tab.until(playable, WAIT)
    assert view["you"] == 0 and set(view["hand"]) == terminal.hand()
    assert view["seats"][0]["name"] == "Player (you)"
    await player.page.locator(".hand-card").first.wait_for()
    await player.page.get_by_text("you", exact=True).wait_for()  # the page's words are in
    await player.page.screenshot(path=screenshot_path("kozel-play-web"))
    await spectator.tab.until(lambda: spectator.tab.states() or None, WAIT)
    assert spectator.tab.last_view()["you"] is None and spectator.tab.last_view()["hand"] is None

    # A card played on the page: the terminal says the move was his, shows the table
    # again when his turn comes back, and its hand is the page's.
    [action, *_] = view["actions"]
    played = set(action["cards"])
    answer = await player.act(action)
    assert answer["ok"], answer
    screen = await terminal.prompts(2)
    after = screen[match.end() :]
    # On a line of its own: the prompt's line ends before it.
    assert re.search(r"^You (lead|beat|discard)", after, re.MULTILINE), after
    assert not re.search(r"Your move> \S", after), after
    assert not played & terminal.hand()
    await player.tab.until(
        lambda: set(player.tab.last_view()["hand"]) == terminal.hand() or None, WAIT
    )

    # A move typed in the terminal: the page follows it.
    version = player.tab.states()[-1]["version"]
    terminal.type("a")
    await player.shows(version + 1)
    await terminal.prompts(3)
    await player.tab.until(
        lambda: set(player.tab.last_view()["hand"]) == terminal.hand() or None, WAIT
    )
    await player.page.screenshot(path=screenshot_path("kozel-play-web-after"))

    # Closing the terminal game stops the page's server.
    page_url = mine.split("?")[0]
    assert await answers(page_url)
    terminal.type("q")
    async with asyncio.timeout(WAIT):
        status = await terminal.process.wait()
    assert status == 0, terminal.screen()
    await terminal.wait_for(lambda seen: "The game is saved" in seen)
    assert not await answers(page_url)
    assert "Traceback" not in terminal.screen()
