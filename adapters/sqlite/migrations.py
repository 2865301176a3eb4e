"""Schema migrations: an ordered list of steps, the database's ``user_version`` counting
how many are applied.

Step *n* (1-based) brings a database from version *n - 1* to *n*. Steps are only ever
appended: a released step is never edited, since databases out there already ran it.
Each step runs in one ``BEGIN IMMEDIATE`` transaction together with the new
``user_version``, so a crash mid-step leaves the database at the version before it,
and two processes opening a new file at once do not both apply it.
"""

from __future__ import annotations

import aiosqlite

#: Each step is a sequence of SQL statements.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # 1: the first schema.
    (
        """
        CREATE TABLE users (
            platform   TEXT NOT NULL,
            id         TEXT NOT NULL,
            name       TEXT NOT NULL,
            locale     TEXT,
            updated_at REAL NOT NULL,
            PRIMARY KEY (platform, id)
        )
        """,
        """
        CREATE TABLE chats (
            platform     TEXT NOT NULL,
            id           TEXT NOT NULL,
            locale       TEXT,
            turn_timeout INTEGER,
            PRIMARY KEY (platform, id)
        )
        """,
        """
        CREATE TABLE games (
            id               INTEGER PRIMARY KEY AUTOINCREMENT,
            platform         TEXT NOT NULL,
            chat_id          TEXT NOT NULL,
            thread_id        TEXT,
            creator_platform TEXT NOT NULL,
            creator          TEXT NOT NULL,
            status           TEXT NOT NULL
                             CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled')),
            rule_set         TEXT NOT NULL,
            settings         TEXT NOT NULL,  -- JSON: TableSettings
            seats            TEXT NOT NULL,  -- JSON: [Seat | null, ...]
            snapshot         TEXT NOT NULL,  -- core.yard.record.snapshot of the series
            version          INTEGER NOT NULL,
            created_at       REAL NOT NULL,
            updated_at       REAL NOT NULL,
            turn_deadline    REAL,
            reminded         INTEGER NOT NULL DEFAULT 0,
            messages         TEXT NOT NULL DEFAULT '{}',  -- JSON: {key: message id}
            rematch_of       INTEGER
        )
        """,
        "CREATE INDEX games_by_chat ON games (platform, chat_id, status)",
        "CREATE INDEX games_by_status ON games (status)",
        """
        CREATE TABLE game_actions (
            game_id  INTEGER NOT NULL REFERENCES games (id),
            version  INTEGER NOT NULL,
            seat     INTEGER NOT NULL,
            platform TEXT,
            user_id  TEXT,
            action   TEXT NOT NULL,  -- JSON: the record form of the action
            at       REAL NOT NULL,
            auto     INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (game_id, version)
        )
        """,
        """
        CREATE TRIGGER game_actions_no_update BEFORE UPDATE ON game_actions
        BEGIN SELECT RAISE(ABORT, 'game_actions is append-only'); END
        """,
        """
        CREATE TRIGGER game_actions_no_delete BEFORE DELETE ON game_actions
        BEGIN SELECT RAISE(ABORT, 'game_actions is append-only'); END
        """,
        """
        CREATE TABLE participants (
            game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seat     INTEGER NOT NULL,
            platform TEXT,  -- NULL for a computer player
            user_id  TEXT,
            kind     TEXT NOT NULL,
            name     TEXT NOT NULL,
            PRIMARY KEY (game_id, seat)
        )
        """,
        "CREATE INDEX participants_by_user ON participants (platform, user_id)",
        """
        CREATE TABLE deal_results (
            game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            number   INTEGER NOT NULL,
            points_a INTEGER NOT NULL,
            points_b INTEGER NOT NULL,
            tricks_a INTEGER NOT NULL,
            tricks_b INTEGER NOT NULL,
            loss_a   INTEGER NOT NULL,
            loss_b   INTEGER NOT NULL,
            eggs     INTEGER NOT NULL,
            winner   INTEGER,  -- 0: team A, 1: team B, NULL: neither
            at       REAL NOT NULL,
            PRIMARY KEY (game_id, number)
        )
        """,
        """
        CREATE TABLE series_results (
            game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            loser   INTEGER NOT NULL,  -- 0: team A, 1: team B
            title   TEXT NOT NULL,
            loss_a  INTEGER NOT NULL,
            loss_b  INTEGER NOT NULL,
            eggs    INTEGER NOT NULL,
            deals   INTEGER NOT NULL,
            at      REAL NOT NULL
        )
        """,
    ),
    # 2: games that no longer load, set aside (see SqliteStorage): kept, not played.
    (
        """
        CREATE TABLE set_aside_games (
            game_id INTEGER PRIMARY KEY REFERENCES games (id),
            reason  TEXT NOT NULL,
            at      REAL NOT NULL
        )
        """,
    ),
    # 3: the messages a game owes its players (saved with the move that owes them,
    # deleted once sent), and the times the bot last wrote into each paced chat.
    (
        """
        CREATE TABLE owed_messages (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            version INTEGER NOT NULL,  -- the game's version that owes it
            idx     INTEGER NOT NULL,  -- its place among that version's
            kind    TEXT NOT NULL,  -- bot.ports.OwedKind
            number  INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (game_id, version, idx)
        )
        """,
        """
        CREATE TABLE send_times (
            platform TEXT NOT NULL,
            chat_id  TEXT NOT NULL,
            times    TEXT NOT NULL,  -- JSON: [epoch seconds, ...], the latest last
            PRIMARY KEY (platform, chat_id)
        )
        """,
    ),
)

#: The schema version this code reads and writes.
SCHEMA_VERSION = len(MIGRATIONS)


class SchemaTooNew(RuntimeError):
    """The database was migrated by a newer release than this one."""


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
            # PRAGMA takes no parameters; the value is our own integer, not input.
            await db.execute(f"PRAGMA user_version = {int(current + 1)}")
            await db.execute("COMMIT")
        except BaseException:
            await db.execute("ROLLBACK")
            raise
