"""The web table under test: a game service on a memory storage, the hub and its
aiohttp app behind aiohttp's test server, and pages (sockets) that record every
message they receive."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import ClientWebSocketResponse, WSMsgType
from aiohttp.test_utils import TestClient, TestServer

from adapters.web.activity import DiscordActivity
from adapters.web.connection import Limits
from adapters.web.hub import InitDataCheck, WebHub
from adapters.web.server import WebServer
from bot.i18n import Translator
from bot.interactions import Interactions
from bot.memory import MemoryStorage
from bot.models import ChatRef, Game, Platform, User, UserRef
from bot.ports import Storage
from bot.service import GameService
from core.seats import Team

KEY = b"w" * 32
#: Seconds a page waits for what a test expects (a generous bound, not a measure).
WAIT = 20.0
GROUP = ChatRef(Platform.TELEGRAM, "-100500")
PLAYERS = tuple(User(UserRef(Platform.TELEGRAM, str(101 + i)), name) for i, name in enumerate(
    ("Аня", "Боря", "Вика", "Гоша")
))  # fmt: skip


class Clock:
    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.value = now

    def now(self) -> float:
        return self.value


@dataclass
class Page:
    """One page's socket and everything it received."""

    ws: ClientWebSocketResponse
    received: list[dict[str, Any]] = field(default_factory=list)
    closed: int | None = None
    _new: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None

    async def _read(self) -> None:
        async for message in self.ws:
            if message.type is WSMsgType.TEXT:
                self.received.append(json.loads(message.data))
                self._new.set()
        self.closed = self.ws.close_code if self.ws.close_code is not None else 1005
        self._new.set()

    async def send(self, message: dict[str, Any] | str) -> None:
        await self.ws.send_str(message if isinstance(message, str) else json.dumps(message))

    async def wait(self, predicate: Callable[[list[dict[str, Any]]], Any]) -> Any:
        """Until ``predicate(received)`` is truthy (or the socket closed): its value."""
        async with asyncio.timeout(WAIT):
            while True:
                found = predicate(self.received)
                if found or self.closed is not None:
                    return found
                self._new.clear()
                await self._new.wait()

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.received if m.get("type") == kind]

    @property
    def states(self) -> list[dict[str, Any]]:
        return self.of("state")

    @property
    def view(self) -> dict[str, Any]:
        return self.states[-1]["view"]

    async def state_at(self, version: int) -> dict[str, Any]:
        found = await self.wait(
            lambda r: [m for m in r if m.get("type") == "state" and m["version"] >= version]
        )
        assert found, f"no state of version {version}: {self.received[-3:]}"
        return found[-1]

    async def answer(self, press_id: int) -> dict[str, Any]:
        found = await self.wait(
            lambda r: [m for m in r if m.get("type") == "answer" and m["id"] == press_id]
        )
        assert found, f"no answer {press_id}: {self.received[-3:]}"
        return found[-1]


class Web:
    """A service, the hub and a test client of the web server."""

    def __init__(
        self,
        storage: Storage | None = None,
        *,
        limits: Limits | None = None,
        init_data: InitDataCheck | None = None,
        clock: Clock | None = None,
        activity: DiscordActivity | None = None,
        players: Callable[[str], Any] | None = None,
    ) -> None:
        self.clock = clock or Clock()
        self.storage = storage or MemoryStorage()
        self.tr = Translator.from_dir()
        self.service = GameService(
            self.storage, clock=self.clock, rng=random.Random(7), computer_delay=0.0,
            turn_timeout=0, players=players,
        )  # fmt: skip
        self.interactions = Interactions(self.service, self.tr)
        check = None if activity is None else activity.participant
        self.hub = WebHub(
            self.interactions, self.tr, key=KEY, limits=limits, init_data=init_data, activity=check
        )
        self.service.add_watcher(self.hub)
        self.server = WebServer(self.hub, self.tr, activity=activity)
        self.client: TestClient[Any, Any] | None = None
        self.pages: list[Page] = []
        self.tables = 0

    async def start(self) -> None:
        self.client = TestClient(TestServer(self.server.app()))
        await self.client.start_server()

    async def stop(self) -> None:
        for page in self.pages:
            await page.ws.close()
            if page.task is not None:
                await page.task
        await self.hub.close()
        if self.client is not None:
            await self.client.close()
        await self.service.close()

    async def page(self, hello: dict[str, Any] | None = None) -> Page:
        assert self.client is not None
        ws = await self.client.ws_connect("/ws")
        page = Page(ws)
        page.task = asyncio.create_task(page._read())
        self.pages.append(page)
        if hello is not None:
            await page.send({"type": "hello", **hello})
        return page

    async def game(self, humans: int = 4, rule_set: str = "yard", start: bool = True) -> Game:
        """A game in the group: ``humans`` players (the rest computers), started."""
        creator = PLAYERS[0]
        self.tables += 1  # a chat runs one game at a time: each its own group
        chat = GROUP if self.tables == 1 else ChatRef(Platform.TELEGRAM, f"-100{500 + self.tables}")
        game = await self.service.open_table(chat, creator, rule_set=rule_set)
        for seat in range(4):
            team = Team.A if seat % 2 == 0 else Team.B
            if seat < humans:
                game = await self.service.join(game.id, None, PLAYERS[seat], team)
            else:
                game = await self.service.add_computer(game.id, None, creator.ref, team)
        if start:
            game = (await self.service.start(game.id, None, creator.ref)).game
        return game

    def link(self, game: Game, seat: int | None) -> str:
        token = self.hub.link(game, seat)
        assert token is not None
        return token

    async def settle(self) -> None:
        await self.service.settle()
