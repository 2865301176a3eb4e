"""Fixtures every test folder may use: a real PostgreSQL server for the session.

The server (Debian's ``postgresql`` package, see :mod:`adapters.postgres.local`) is
started once, in a temporary folder, the first time a test asks for it, and stopped
at the end. Without the server binaries the PostgreSQL tests are skipped on a
developer's machine and FAIL in CI (``CI=true``), which installs the package.
"""

from __future__ import annotations

import gc
import os
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import pytest

from adapters.postgres import PostgresStorage
from adapters.postgres.local import LocalServer, ServerUnavailable
from tests.in_process import Ran, python_m_bot

#: The database the storage tests share, emptied before each test.
DATABASE = "kozel_test"


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[LocalServer]:
    try:
        server = LocalServer()
    except ServerUnavailable as error:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI needs the PostgreSQL server: {error}")
        pytest.skip(str(error))
    with server:
        server.create_database(DATABASE)
        yield server


@pytest.fixture
def new_database(postgres_server: LocalServer) -> Iterator[str]:
    """The URL of a new, empty database of its own (for migration tests)."""
    yield postgres_server.create_database(f"kozel_{os.urandom(6).hex()}")


async def empty_postgres_storage(server: LocalServer) -> PostgresStorage:
    """The storage on the shared test database, with every table emptied."""
    storage = await PostgresStorage.open(server.url(DATABASE), min_size=1)
    tables = await storage.pool.fetch(
        "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
        " AND tablename <> 'schema_migrations'"
    )
    names = ", ".join(f'"{row["tablename"]}"' for row in tables)
    await storage.pool.execute(f"TRUNCATE {names} RESTART IDENTITY CASCADE")
    return storage


@pytest.fixture
async def postgres(postgres_server: LocalServer) -> AsyncIterator[PostgresStorage]:
    storage = await empty_postgres_storage(postgres_server)
    try:
        yield storage
    finally:
        await storage.close()


@pytest.fixture(autouse=True)
def _collector_as_it_was() -> Iterator[None]:
    """A test that starts the bot (``run_platforms``) settles its heap
    (``bot.loop.settle_heap``: frozen objects, other thresholds): the next test gets
    the collector as it was."""
    thresholds = gc.get_threshold()
    yield
    if gc.get_threshold() != thresholds or gc.get_freeze_count():
        gc.set_threshold(*thresholds)
        gc.unfreeze()


@pytest.fixture
def bot_here(tmp_path: Path) -> Callable[..., Ran]:
    """``python -m bot`` run in this process (see :mod:`tests.in_process`) in
    ``tmp_path``, with only the settings given as keywords and no terminal
    (``stdin=None``: standard input closed)."""

    def run(*, stdin: str | None = "", **env: str) -> Ran:
        return python_m_bot(tmp_path, stdin=stdin, **env)

    return run
