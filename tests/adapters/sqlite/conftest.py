"""Fixtures of the SQLite storage's tests: a database file and the storage on it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adapters.sqlite import SqliteStorage


@pytest.fixture
def db_file(tmp_path: Path) -> Path:
    return tmp_path / "kozel.sqlite3"


@pytest.fixture
async def storage(db_file: Path) -> AsyncIterator[SqliteStorage]:
    opened = await SqliteStorage.open(db_file)
    try:
        yield opened
    finally:
        await opened.close()
