"""The WAL is copied into the database file off the writer's path
(:class:`adapters.sqlite.storage._Checkpointer`): SQLite's own checkpoint ran inside
the commit that pushed the WAL past 1,000 pages, so that save (a move in some chat)
also wrote and synced them (the update p99 of ``bench.ratings``: 18-25 ms, against
2 ms without)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from adapters.sqlite import SqliteStorage
from bot.ratings import RatedGame


def rated(n: int) -> RatedGame:
    players = tuple(f"u{(n * 4 + seat) % 997}" for seat in range(4))
    return RatedGame(10_000 + n, "telegram", f"-{n % 50}", "yard", 1.7e9, players, n % 2)  # type: ignore[arg-type]


def pages_in_file(path: Path) -> int:
    return path.stat().st_size // 4096


async def test_a_commit_never_checkpoints_on_the_writers_connection(tmp_path: Path) -> None:
    async with await SqliteStorage.open(tmp_path / "kozel.sqlite3") as storage:
        rows = await storage.connection.execute_fetchall("PRAGMA wal_autocheckpoint")
        assert [tuple(row) for row in rows] == [(0,)]


async def test_the_checkpointer_copies_the_commits_into_the_file_while_open(
    tmp_path: Path,
) -> None:
    path = tmp_path / "kozel.sqlite3"
    async with await SqliteStorage.open(path) as storage:
        before = pages_in_file(path)
        for n in range(400):  # thousands of WAL pages: new players' rating rows
            await storage.rate(rated(n))
        for _ in range(200):
            if pages_in_file(path) > before + 100:
                break
            await asyncio.sleep(0.05)
        assert pages_in_file(path) > before + 100
        # Everything committed is in the file or the WAL: a plain reader sees it all.
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            assert db.execute("SELECT COUNT(*) FROM rating_changes").fetchone() == (1600,)
        db.close()


async def test_closing_leaves_no_wal_behind(tmp_path: Path) -> None:
    path = tmp_path / "kozel.sqlite3"
    async with await SqliteStorage.open(path) as storage:
        for n in range(20):
            await storage.rate(rated(n))
    wal = path.with_name(path.name + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT COUNT(*) FROM rating_changes").fetchone() == (80,)
    db.close()
