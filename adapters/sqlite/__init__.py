"""SQLite storage (aiosqlite): the production :class:`bot.ports.Storage`.

``storage = await SqliteStorage.open("sqlite:///./data/kozel.sqlite3")`` opens (and
creates, and migrates) the database; ``await storage.close()`` or ``async with``
closes it.
"""

from adapters.migrations import SchemaTooNew
from adapters.sqlite.migrations import SCHEMA_VERSION
from adapters.sqlite.storage import SqliteStorage, database_path

__all__ = ["SCHEMA_VERSION", "SchemaTooNew", "SqliteStorage", "database_path"]
