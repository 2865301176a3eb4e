"""Fixtures for the Discord adapter's tests: the fake Discord, storages, a harness,
and a guard that fails a test on any ERROR logged by discord.py, the adapter or the
application (discord.py only logs what fails in commands, views and events)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from adapters.sqlite import SqliteStorage
from bot.i18n import Translator
from bot.memory import MemoryStorage
from testing.fakes.discord import FakeDiscord
from tests.adapters.discord.harness import Harness, world

#: Loggers whose ERROR records fail a test.
GUARDED = ("discord", "adapters.discord", "bot")


class LogGuard:
    """Fails the test on ERROR records of :data:`GUARDED` loggers."""

    def __init__(self, caplog: pytest.LogCaptureFixture) -> None:
        self.caplog = caplog
        self.expected: list[str] = []
        caplog.set_level(logging.INFO)

    def expect(self, fragment: str) -> None:
        """Allow ERROR records whose message or exception contains ``fragment``."""
        self.expected.append(fragment)

    def records(self, level: int = logging.ERROR) -> list[logging.LogRecord]:
        records = self.caplog.get_records("setup") + self.caplog.get_records("call")
        return [r for r in records if r.name.startswith(GUARDED) and r.levelno >= level]

    def warnings(self) -> list[str]:
        return [r.getMessage() for r in self.records(logging.WARNING) if r.levelno < logging.ERROR]

    def check(self) -> None:
        def text(record: logging.LogRecord) -> str:
            return record.getMessage() + (f" {record.exc_info[1]!r}" if record.exc_info else "")

        bad = [text(r) for r in self.records() if not any(f in text(r) for f in self.expected)]
        if bad:
            pytest.fail("errors were logged:\n" + "\n".join(bad))


@pytest.fixture(autouse=True)
def log_guard(caplog: pytest.LogCaptureFixture) -> Iterator[LogGuard]:
    guard = LogGuard(caplog)
    yield guard
    guard.check()


@pytest.fixture(scope="session")
def tr() -> Translator:
    return Translator.from_dir()


@pytest.fixture
async def dc() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as fake:
        world(fake)
        yield fake


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "kozel.sqlite3"


@pytest.fixture
async def sqlite(db_path: Path) -> AsyncIterator[SqliteStorage]:
    storage = await SqliteStorage.open(db_path)
    try:
        yield storage
    finally:
        await storage.close()


@pytest.fixture
async def harness(dc: FakeDiscord, tr: Translator) -> AsyncIterator[Harness]:
    """The bot over in-memory storage, running."""
    h = Harness(dc, MemoryStorage(), tr)
    await h.start()
    try:
        yield h
    finally:
        await h.stop()
