"""PostgreSQL storage (asyncpg): a :class:`bot.ports.Storage` several processes share.

``storage = await PostgresStorage.open("postgresql://kozel@db/kozel")`` connects a
pool and migrates the database; ``await storage.close()`` or ``async with`` closes it.
"""

from adapters.migrations import SchemaTooNew
from adapters.postgres.migrations import SCHEMA_VERSION
from adapters.postgres.storage import PostgresStorage, dsn, is_postgres_url

__all__ = ["SCHEMA_VERSION", "PostgresStorage", "SchemaTooNew", "dsn", "is_postgres_url"]
