"""Which storage a ``DATABASE_URL`` names: ``sqlite:///path`` (the default) or
``postgresql://...``, opened and migrated."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from urllib.parse import unquote, urlsplit

import asyncpg

from adapters.postgres import PostgresStorage, is_postgres_url
from adapters.sqlite import SqliteStorage
from adapters.sqlite.storage import MEMORY, database_path
from bot.rows import DatabaseUnavailable

OpenStorage = SqliteStorage | PostgresStorage


async def open_storage(url: str) -> OpenStorage:
    """Open the database ``url`` names; close it with ``close()`` or ``async with``.
    An SQLite database is this process's alone (``exclusive``: a second process is
    refused with :class:`~bot.rows.DatabaseInUse`); a PostgreSQL one is shared. One
    that cannot be opened raises :class:`~bot.rows.DatabaseUnavailable`."""
    if is_postgres_url(url):
        return await open_postgres(url)
    return await open_sqlite(url)


async def open_sqlite(url: str) -> SqliteStorage:
    """Open the SQLite database at ``url`` (``sqlite:///path``) for this process
    alone; raises :class:`~bot.rows.DatabaseUnavailable` (with the reason in a few
    words) where it cannot be opened or created."""
    try:
        path = database_path(url)
    except ValueError as problem:
        raise DatabaseUnavailable(f"DATABASE_URL names no SQLite database: {problem}") from None
    if path != MEMORY and Path(path).is_dir():  # noqa: ASYNC240 - once, at start
        raise DatabaseUnavailable(
            f"the SQLite database {path} is a folder: name a file in it,"
            f" e.g. sqlite:///{Path(path) / 'kozel.sqlite3'}"
        )
    try:
        return await SqliteStorage.open(url, exclusive=True)
    except (OSError, sqlite3.Error) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise DatabaseUnavailable(
            f"the SQLite database {path} cannot be opened: {reason}"
            " (is its folder writable by this user?)"
        ) from None


async def open_postgres(url: str) -> PostgresStorage:
    """Connect to the PostgreSQL database at ``url`` and migrate it; raises
    :class:`~bot.rows.DatabaseUnavailable` (naming the server, never the password)
    where it cannot be reached or refuses."""
    try:
        return await PostgresStorage.open(url)
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        parts = urlsplit(url)
        reason = str(error) or type(error).__name__
        if parts.password:  # as the URL writes it, and percent-decoded
            for form in (parts.password, unquote(parts.password)):
                reason = reason.replace(form, "***")
        where = parts.hostname or "the local socket"
        if parts.port is not None:
            where = f"{where}:{parts.port}"
        name = parts.path.strip("/")
        raise DatabaseUnavailable(
            f"the PostgreSQL database {name + ' ' if name else ''}at {where} cannot be used:"
            f" {reason}"
        ) from None


def describe(storage: OpenStorage) -> str:
    """What the log says at start: the kind and schema version, never the URL (it may
    hold a password)."""
    if isinstance(storage, PostgresStorage):
        return f"PostgreSQL, schema version {storage.schema_version}"
    return f"SQLite at {storage.path}, schema version {storage.schema_version}"
