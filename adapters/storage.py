"""Which storage a ``DATABASE_URL`` names: ``sqlite:///path`` (the default) or
``postgresql://...``, opened and migrated."""

from __future__ import annotations

from adapters.postgres import PostgresStorage, is_postgres_url
from adapters.sqlite import SqliteStorage

OpenStorage = SqliteStorage | PostgresStorage


async def open_storage(url: str) -> OpenStorage:
    """Open the database ``url`` names; close it with ``close()`` or ``async with``.
    An SQLite database is this process's alone (``exclusive``: a second process is
    refused with :class:`~bot.rows.DatabaseInUse`); a PostgreSQL one is shared."""
    if is_postgres_url(url):
        return await PostgresStorage.open(url)
    return await SqliteStorage.open(url, exclusive=True)


def describe(storage: OpenStorage) -> str:
    """What the log says at start: the kind and schema version, never the URL (it may
    hold a password)."""
    if isinstance(storage, PostgresStorage):
        return f"PostgreSQL, schema version {storage.schema_version}"
    return f"SQLite at {storage.path}, schema version {storage.schema_version}"
