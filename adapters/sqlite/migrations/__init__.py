"""SQLite schema migrations: the numbered SQL files of this folder
(:mod:`adapters.migrations`), the database's ``user_version`` counting how many are
applied.

Each step runs in one ``BEGIN IMMEDIATE`` transaction together with the new
``user_version``, so a crash mid-step leaves the database at the version before it,
and two processes opening a new file at once do not both apply it (the second waits
on the write lock, then finds the step done).

``0001_first_schema.sql`` holds, statement for statement, the schema the releases
before the SQL files created from a list in Python, and ``user_version`` counts the
same steps: their databases open unchanged.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

import aiosqlite

from adapters import ratings
from adapters.migrations import SchemaTooNew, load
from adapters.sql import Sql


def statements(script: str) -> tuple[str, ...]:
    """The statements of an SQL script, each whole (a trigger's ``BEGIN ... END;``
    is one), as SQLite's own parser sees where they end.

    >>> statements("CREATE TABLE t (x);\\n-- a note\\nCREATE TRIGGER r AFTER INSERT ON t"
    ...            " BEGIN SELECT 1; END;")
    ('CREATE TABLE t (x);', '-- a note\\nCREATE TRIGGER r AFTER INSERT ON t BEGIN SELECT 1; END;')
    """
    found: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            found.append(buffer.strip())
            buffer = ""
    if buffer.strip() and any(
        not line.strip().startswith("--") for line in buffer.splitlines() if line.strip()
    ):
        raise ValueError(f"an SQL script ends inside a statement: {buffer.strip()[:60]!r}")
    return tuple(found)


#: Each step is a sequence of SQL statements, from ``NNNN_*.sql`` in order.
MIGRATIONS: tuple[tuple[str, ...], ...] = tuple(
    statements(migration.sql) for migration in load(__name__)
)

#: Each step's name (``ratings`` for ``0009_ratings.sql``).
NAMES: tuple[str, ...] = tuple(migration.name for migration in load(__name__))

#: The schema version this code reads and writes.
SCHEMA_VERSION = len(MIGRATIONS)

__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "SchemaTooNew", "migrate", "statements", "user_version"]


async def user_version(db: aiosqlite.Connection) -> int:
    async with db.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row is not None else 0


async def migrate(db: aiosqlite.Connection) -> int:
    """Apply the steps the database lacks, each in its own transaction; return the
    version reached. ``db`` must be in autocommit mode (``isolation_level=None``)."""
    while True:
        await db.execute("BEGIN IMMEDIATE")
        try:
            current = await user_version(db)
            if current > SCHEMA_VERSION:
                raise SchemaTooNew(
                    f"the database is at schema version {current}, "
                    f"this release knows up to {SCHEMA_VERSION}"
                )
            if current == SCHEMA_VERSION:
                await db.execute("COMMIT")
                return current
            for statement in MIGRATIONS[current]:
                await db.execute(statement)
            if NAMES[current] == ratings.MIGRATION:  # the finished games are rated
                await ratings.replay_history(_Migrating(db))
            # PRAGMA takes no parameters; the value is our own integer, not input.
            await db.execute(f"PRAGMA user_version = {int(current + 1)}")
            await db.execute("COMMIT")
        except BaseException:
            await db.execute("ROLLBACK")
            raise


class _Migrating:
    """A migrating connection as :func:`adapters.ratings.replay_history` asks it."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def stream(
        self, statement: Sql, values: Mapping[str, Any]
    ) -> AsyncIterator[Mapping[str, Any]]:
        async with self._db.execute(statement.sqlite, values) as cursor:
            names = [column[0] for column in cursor.description]
            while rows := await cursor.fetchmany(ratings.CHUNK):
                for row in rows:
                    yield dict(zip(names, row, strict=True))

    async def execute_many(self, statement: Sql, rows: Sequence[Mapping[str, Any]]) -> None:
        if rows:
            await self._db.executemany(statement.sqlite, rows)
