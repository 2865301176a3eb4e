"""Fixtures: the fake Bot API server, storages, and the adapter polling it."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from adapters.sqlite import SqliteStorage
from adapters.telegram import Pacing
from bot.i18n import Translator
from bot.memory import MemoryStorage
from bot.ports import Storage
from testing.fakes.telegram import FakeTelegram
from tests.adapters.telegram.harness import FAST, GROUP, ErrorLog, Harness


@pytest.fixture(scope="session")
def tr() -> Translator:
    return Translator.from_dir()


@pytest.fixture
async def tg(request: pytest.FixtureRequest) -> AsyncIterator[FakeTelegram]:
    kwargs: dict[str, Any] = {"group_limit": 10_000, **getattr(request, "param", {})}
    async with FakeTelegram(**kwargs) as fake:
        yield fake


@pytest.fixture(params=["memory"])
async def storage(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Storage]:
    """In memory; tests that need the SQLite file too parametrize it indirectly."""
    if request.param == "memory":
        yield MemoryStorage()
        return
    async with await SqliteStorage.open(tmp_path / "kozel.sqlite3") as sqlite:
        yield sqlite


@pytest.fixture
def pacing(request: pytest.FixtureRequest) -> Pacing:
    """Practically no waits, unless a test parametrizes it."""
    return getattr(request, "param", FAST)


@pytest.fixture
def webhook(request: pytest.FixtureRequest) -> bool:
    """Long polling, unless a test parametrizes it: then the fake posts to a webhook."""
    return bool(getattr(request, "param", False))


@pytest.fixture
def web(request: pytest.FixtureRequest) -> dict[str, Any] | None:
    """No web table, unless a test parametrizes its settings (``WEB_*``)."""
    settings: dict[str, Any] | None = getattr(request, "param", None)
    return settings


@pytest.fixture
async def h(
    tg: FakeTelegram,
    storage: Storage,
    tr: Translator,
    pacing: Pacing,
    webhook: bool,
    web: dict[str, Any] | None,
) -> AsyncIterator[Harness]:
    """The adapter polling the fake (or serving its webhook); fails the test on any
    handler exception, failed message, ERROR log or unanswered callback query."""
    errors = ErrorLog()
    logging.getLogger().addHandler(errors)
    harness = Harness(tg, storage, tr, pacing, webhook, web=web)
    tg.add_group(GROUP, "Kozel club", admins=[1])
    try:
        await harness.start()
        yield harness
        await harness.stop()
    finally:
        if harness.task is not None:  # the test failed: stop anyway
            harness.task.cancel()
            with contextlib.suppress(BaseException):
                await harness.task
            await harness.service.close()
        logging.getLogger().removeHandler(errors)
    problems = [*harness.errors, *(r.getMessage() for r in errors.records)]
    assert not problems, problems
    assert tg.unanswered_callbacks() == []
