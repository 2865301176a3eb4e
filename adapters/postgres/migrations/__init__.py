"""PostgreSQL schema migrations: the numbered SQL files of this folder
(:mod:`adapters.migrations`), recorded in ``schema_migrations`` (one row a step).

Each step runs in a transaction of its own that first takes a transaction-level
advisory lock (:data:`LOCK_KEY`), then reads the version reached: two processes
starting at once on a new database never both apply a step; the second waits for the
first one's step and then finds it done. A step that fails is rolled back whole
(PostgreSQL's DDL is transactional), leaving the version before it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import asyncpg

from adapters import ratings
from adapters.migrations import Migration, SchemaTooNew, load
from adapters.sql import Sql

if TYPE_CHECKING:  # asyncpg's classes are generic in its stubs only
    Connection = (
        asyncpg.Connection[asyncpg.Record] | asyncpg.pool.PoolConnectionProxy[asyncpg.Record]
    )

#: The steps, from ``NNNN_*.sql`` in order.
MIGRATIONS: tuple[Migration, ...] = load(__name__)
#: The schema version this code reads and writes.
SCHEMA_VERSION = len(MIGRATIONS)
#: The advisory lock the migrations take: "kozel" in ASCII.
LOCK_KEY = 0x6B6F7A656C

__all__ = ["LOCK_KEY", "MIGRATIONS", "SCHEMA_VERSION", "SchemaTooNew", "migrate", "schema_version"]

_CREATE_VERSIONS = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
)
"""


async def schema_version(conn: Connection) -> int:
    """The version a database is at (0: none applied yet)."""
    exists = await conn.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL")
    if not exists:
        return 0
    return int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_migrations"))


async def migrate(conn: Connection) -> int:
    """Apply the steps the database lacks, each in its own transaction under the
    advisory lock; return the version reached."""
    while True:
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", LOCK_KEY)
            await conn.execute(_CREATE_VERSIONS)
            current = await schema_version(conn)
            if current > SCHEMA_VERSION:
                raise SchemaTooNew(
                    f"the database is at schema version {current}, "
                    f"this release knows up to {SCHEMA_VERSION}"
                )
            if current == SCHEMA_VERSION:
                return current
            step = MIGRATIONS[current]
            await conn.execute(step.sql)
            if step.name == ratings.MIGRATION:  # the finished games are rated
                await ratings.replay_history(_Migrating(conn))
            await conn.execute(
                "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
                current + 1,
                step.name,
            )


class _Migrating:
    """A migrating connection as :func:`adapters.ratings.replay_history` asks it."""

    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    async def stream(
        self, statement: Sql, values: Mapping[str, Any]
    ) -> AsyncIterator[Mapping[str, Any]]:
        # A cursor: the migration's transaction holds it open.
        async for row in self._conn.cursor(*statement.bind(values), prefetch=ratings.CHUNK):
            yield dict(row)

    async def execute_many(self, statement: Sql, rows: Sequence[Mapping[str, Any]]) -> None:
        if rows:
            await self._conn.executemany(statement.postgres, [statement.args(r) for r in rows])
