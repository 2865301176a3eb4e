"""Fixtures for the application's tests: storages, a clock, a recording publisher."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adapters.sqlite import SqliteStorage
from bot.i18n import Translator
from bot.interactions import Interactions
from bot.memory import MemoryStorage
from bot.models import ChatRef, Game, Platform, User, UserRef
from bot.ports import Change, Storage
from bot.service import GameService
from tests.conftest import empty_postgres_storage


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.value = now

    def now(self) -> float:
        return self.value

    def advance(self, seconds: float) -> None:
        self.value += seconds


class RecordingPublisher:
    """Keeps every change published, with the game's version at that moment."""

    def __init__(self) -> None:
        self.changes: list[tuple[int, int, Change]] = []
        self.fail = False

    async def publish(self, game: Game, change: Change) -> None:
        self.changes.append((game.id, game.version, change))
        if self.fail:
            raise RuntimeError("the platform is down")

    def kinds(self) -> list[str]:
        return [change.kind.value for _, _, change in self.changes]


CHAT = ChatRef(Platform.CONSOLE, "chat-1")
ALICE = User(UserRef(Platform.CONSOLE, "1"), "Alice")
BOB = User(UserRef(Platform.CONSOLE, "2"), "Bob")
CAROL = User(UserRef(Platform.CONSOLE, "3"), "Carol")
DAN = User(UserRef(Platform.CONSOLE, "4"), "Dan")
EVE = User(UserRef(Platform.CONSOLE, "5"), "Eve")
PLAYERS = (ALICE, BOB, CAROL, DAN)


@pytest.fixture(params=["memory", "sqlite", "postgres"])
async def storage(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Storage]:
    if request.param == "memory":
        yield MemoryStorage()
        return
    if request.param == "postgres":
        postgres = await empty_postgres_storage(request.getfixturevalue("postgres_server"))
        try:
            yield postgres
        finally:
            await postgres.close()
        return
    sqlite = await SqliteStorage.open(tmp_path / "kozel.sqlite3")
    try:
        yield sqlite
    finally:
        await sqlite.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def publisher() -> RecordingPublisher:
    return RecordingPublisher()


@pytest.fixture
async def service(
    storage: Storage, clock: FakeClock, publisher: RecordingPublisher
) -> AsyncIterator[GameService]:
    # Baseline computers keep the tests quick; the strong level has its own tests.
    svc = GameService(
        storage,
        clock=clock,
        rng=random.Random(7),
        computer_delay=0,
        turn_timeout=60,
        computer_level="normal",
    )
    svc.add_publisher(Platform.CONSOLE, publisher)
    try:
        yield svc
    finally:
        await svc.close()


@pytest.fixture
async def quick_ui() -> AsyncIterator[Interactions]:
    """Interactions over a service in memory with easy computers that move at once."""
    service = GameService(
        MemoryStorage(),
        clock=FakeClock(),
        rng=random.Random(3),
        computer_delay=0,
        computer_level="easy",
    )
    try:
        yield Interactions(service, Translator.from_dir())
    finally:
        await service.close()
