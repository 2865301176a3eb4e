"""The production :class:`bot.ports.Storage`: one SQLite file through aiosqlite.

Rows are those of :mod:`bot.rows`, the codec :class:`bot.memory.MemoryStorage` keeps
too. The database runs in WAL mode with foreign keys on and a busy timeout; the
schema is migrated when the storage opens (:mod:`adapters.sqlite.migrations`).

One connection serves the whole bot. aiosqlite runs its statements one by one on a
worker thread, but a transaction spans several awaits, so a lock keeps each
transaction (and each read) whole: another task never slips a statement into it
nor reads what it has not committed yet. A chat bot's load is far below what one
connection writes.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import unquote

import aiosqlite

from adapters.sqlite.migrations import migrate
from bot.models import ChatRef, Game, Platform, User, UserRef
from bot.ports import ChatInfo, LeaderboardRow, LoggedAction, UserStats
from bot.rows import (
    DuplicateAction,
    NoSuchGame,
    action_from_row,
    chat_from_row,
    chat_to_row,
    check_actions,
    deal_row,
    game_from_row,
    game_to_row,
    participant_rows,
    series_row,
    user_from_row,
    user_to_row,
)
from core.events import DealResult, SeriesResult, Title

MEMORY = ":memory:"
_SCHEMES = ("sqlite", "sqlite3", "sqlite+aiosqlite")


def database_path(target: str | os.PathLike[str]) -> str:
    """The file a ``DATABASE_URL`` (SQLAlchemy style) or a plain path names.

    >>> database_path("sqlite:///./data/kozel.sqlite3")
    './data/kozel.sqlite3'
    >>> database_path("sqlite:////var/lib/kozel/kozel.sqlite3")
    '/var/lib/kozel/kozel.sqlite3'
    >>> database_path("sqlite+aiosqlite:///kozel%20test.db")
    'kozel test.db'
    >>> database_path("data/kozel.sqlite3"), database_path("sqlite://")
    ('data/kozel.sqlite3', ':memory:')
    """
    text = os.fspath(target)
    scheme, separator, rest = text.partition("://")
    if not separator:
        return text
    if scheme.lower() not in _SCHEMES:
        raise ValueError(f"not an SQLite URL: {text!r}")
    if not rest:
        return MEMORY
    if not rest.startswith("/") or "?" in rest:
        raise ValueError(f"expected sqlite:///<path> without a host or options, not {text!r}")
    return unquote(rest[1:]) or MEMORY


# --- SQL -------------------------------------------------------------------------------

_INSERT_GAME = """
INSERT INTO games (
    platform, chat_id, thread_id, creator_platform, creator, status, rule_set, settings,
    seats, snapshot, version, created_at, updated_at, turn_deadline, reminded, messages,
    rematch_of
) VALUES (
    :platform, :chat_id, :thread_id, :creator_platform, :creator, :status, :rule_set,
    :settings, :seats, :snapshot, :version, :created_at, :updated_at, :turn_deadline,
    :reminded, :messages, :rematch_of
)
"""

_UPDATE_GAME = """
UPDATE games SET
    platform = :platform, chat_id = :chat_id, thread_id = :thread_id,
    creator_platform = :creator_platform, creator = :creator, status = :status,
    rule_set = :rule_set, settings = :settings, seats = :seats, snapshot = :snapshot,
    version = :version, created_at = :created_at, updated_at = :updated_at,
    turn_deadline = :turn_deadline, reminded = :reminded, messages = :messages,
    rematch_of = :rematch_of
WHERE id = :id
"""

_INSERT_PARTICIPANT = """
INSERT INTO participants (game_id, seat, platform, user_id, kind, name)
VALUES (:game_id, :seat, :platform, :user_id, :kind, :name)
"""

_INSERT_ACTION = """
INSERT INTO game_actions (game_id, version, seat, platform, user_id, action, at, auto)
VALUES (:game_id, :version, :seat, :platform, :user_id, :action, :at, :auto)
"""

_USER_SERIES = """
SELECT
    COUNT(*) AS seats,
    COUNT(s.game_id) AS series_played,
    COALESCE(SUM(s.loser != p.seat % 2), 0) AS series_won,
    COALESCE(SUM(s.loser = p.seat % 2), 0) AS goat,
    COALESCE(SUM(s.loser = p.seat % 2 AND s.title = :eggs_title), 0) AS goat_with_eggs
FROM participants AS p
JOIN games AS g ON g.id = p.game_id
LEFT JOIN series_results AS s ON s.game_id = p.game_id
WHERE p.kind = 'human' AND p.platform = :platform AND p.user_id = :user_id
    AND g.platform = :platform AND g.status IN ('playing', 'finished')
"""

_USER_DEALS = """
SELECT
    COUNT(*) AS deals_played,
    COALESCE(SUM(d.winner = p.seat % 2), 0) AS deals_won,
    COALESCE(SUM(d.winner = 1 - p.seat % 2), 0) AS deals_lost,
    COALESCE(SUM(d.eggs), 0) AS deals_eggs,
    COALESCE(SUM(CASE p.seat % 2 WHEN 0 THEN d.points_a ELSE d.points_b END), 0) AS points
FROM participants AS p
JOIN games AS g ON g.id = p.game_id
JOIN deal_results AS d ON d.game_id = p.game_id
WHERE p.kind = 'human' AND p.platform = :platform AND p.user_id = :user_id
    AND g.platform = :platform AND g.status IN ('playing', 'finished')
"""

_USER_NAME = """
SELECT COALESCE(
    (SELECT u.name FROM users AS u WHERE u.platform = :platform AND u.id = :user_id),
    (SELECT q.name FROM participants AS q
     WHERE q.kind = 'human' AND q.platform = :platform AND q.user_id = :user_id
     ORDER BY q.game_id DESC, q.seat LIMIT 1)
) AS name
"""

_LEADERBOARD = """
WITH played AS (
    SELECT
        p.user_id AS user_id,
        COUNT(*) AS series_played,
        SUM(s.loser != p.seat % 2) AS series_won
    FROM participants AS p
    JOIN games AS g ON g.id = p.game_id
    JOIN series_results AS s ON s.game_id = p.game_id
    WHERE p.kind = 'human' AND p.platform = :platform AND p.user_id IS NOT NULL
        AND g.platform = :platform AND g.status IN ('playing', 'finished')
        AND (:chat_platform IS NULL
             OR (g.platform = :chat_platform AND g.chat_id = :chat_id))
    GROUP BY p.user_id
    HAVING COUNT(*) >= :min_series
)
SELECT
    played.user_id AS user_id,
    played.series_played AS series_played,
    played.series_won AS series_won,
    -- the saved name, else the name at the latest seat (as _USER_NAME)
    COALESCE(
        (SELECT u.name FROM users AS u
         WHERE u.platform = :platform AND u.id = played.user_id),
        (SELECT q.name FROM participants AS q
         WHERE q.kind = 'human' AND q.platform = :platform AND q.user_id = played.user_id
         ORDER BY q.game_id DESC, q.seat LIMIT 1)
    ) AS name
FROM played
ORDER BY
    played.series_won DESC,
    CAST(played.series_won AS REAL) / played.series_played DESC,
    name,
    played.user_id
LIMIT :limit
"""


_INSERT_DEAL = """
    INSERT OR IGNORE INTO deal_results (
        game_id, number, points_a, points_b, tricks_a, tricks_b, loss_a, loss_b, eggs, winner, at
    ) VALUES (
        :game_id, :number, :points_a, :points_b, :tricks_a, :tricks_b,
        :loss_a, :loss_b, :eggs, :winner, :at
    )
"""
_INSERT_SERIES = """
    INSERT OR IGNORE INTO series_results (game_id, loser, title, loss_a, loss_b, eggs, deals, at)
    VALUES (:game_id, :loser, :title, :loss_a, :loss_b, :eggs, :deals, :at)
"""


class SqliteStorage:
    """A :class:`~bot.ports.Storage` in one SQLite file. Open it with :meth:`open`."""

    def __init__(
        self, db: aiosqlite.Connection, path: str, now: Callable[[], float] = time.time
    ) -> None:
        self._db = db
        self._lock = asyncio.Lock()
        self._now = now
        self.path = path

    @classmethod
    async def open(
        cls,
        target: str | os.PathLike[str],
        *,
        busy_timeout_ms: int = 5000,
        now: Callable[[], float] = time.time,
    ) -> SqliteStorage:
        """Open (creating it and its folders if need be) and migrate the database at
        ``target``: a path or a ``sqlite:///path`` URL. ``now`` stamps saved users."""
        path = database_path(target)
        if path != MEMORY:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(path, isolation_level=None)
        try:
            db.row_factory = sqlite3.Row
            # PRAGMAs take no parameters; the values are our own integers and words.
            await db.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            await db.execute("PRAGMA foreign_keys = ON")
            await db.execute("PRAGMA journal_mode = WAL")
            # In WAL mode NORMAL loses no committed transaction when the process dies,
            # only (at worst) the last ones on a power cut.
            await db.execute("PRAGMA synchronous = NORMAL")
            await migrate(db)
        except BaseException:
            await db.close()
            raise
        return cls(db, path, now)

    async def close(self) -> None:
        """Finish the running transaction, then close; closing twice is harmless."""
        async with self._lock:
            await self._db.close()

    async def __aenter__(self) -> SqliteStorage:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

    @property
    def connection(self) -> aiosqlite.Connection:
        """The underlying connection, for tests and maintenance; the storage's own
        methods serialize through a lock that direct use bypasses."""
        return self._db

    # --- Plumbing --------------------------------------------------------------------

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction, taken at once (``BEGIN IMMEDIATE``) so it never
        fails half-way on a lock; rolled back on any error or cancellation."""
        async with self._lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
                await self._db.execute("COMMIT")
            except BaseException:
                with suppress(sqlite3.OperationalError):  # no transaction left to end
                    await self._db.execute("ROLLBACK")
                raise

    async def _fetchall(self, sql: str, parameters: Any = ()) -> list[dict[str, Any]]:
        async with self._lock:
            rows = await self._db.execute_fetchall(sql, parameters)
        return [dict(row) for row in rows]

    async def _fetchone(self, sql: str, parameters: Any = ()) -> dict[str, Any] | None:
        rows = await self._fetchall(sql, parameters)
        return rows[0] if rows else None

    @staticmethod
    async def _game_exists(db: aiosqlite.Connection, game_id: int) -> bool:
        async with db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)) as cursor:
            return await cursor.fetchone() is not None

    # --- Users and chats -------------------------------------------------------------

    async def get_user(self, ref: UserRef) -> User | None:
        row = await self._fetchone(
            "SELECT platform, id, name, locale FROM users WHERE platform = ? AND id = ?",
            (ref.platform.value, ref.id),
        )
        return None if row is None else user_from_row(row)

    async def save_user(self, user: User) -> None:
        async with self._transaction() as db:
            await db.execute(
                """
                INSERT INTO users (platform, id, name, locale, updated_at)
                VALUES (:platform, :id, :name, :locale, :updated_at)
                ON CONFLICT (platform, id) DO UPDATE SET
                    name = excluded.name,
                    locale = excluded.locale,
                    updated_at = excluded.updated_at
                """,
                {**user_to_row(user), "updated_at": self._now()},
            )

    async def get_chat(self, ref: ChatRef) -> ChatInfo | None:
        row = await self._fetchone(
            "SELECT platform, id, locale, turn_timeout FROM chats WHERE platform = ? AND id = ?",
            (ref.platform.value, ref.id),
        )
        return None if row is None else chat_from_row(row)

    async def save_chat(self, chat: ChatInfo) -> None:
        async with self._transaction() as db:
            await db.execute(
                """
                INSERT INTO chats (platform, id, locale, turn_timeout)
                VALUES (:platform, :id, :locale, :turn_timeout)
                ON CONFLICT (platform, id) DO UPDATE SET
                    locale = excluded.locale,
                    turn_timeout = excluded.turn_timeout
                """,
                chat_to_row(chat),
            )

    # --- Games ------------------------------------------------------------------------

    async def create_game(self, game: Game) -> Game:
        """Store a new game; return a copy of it with the id the database gave it (the
        ``id`` passed in is ignored)."""
        row = game_to_row(game)
        seats = participant_rows(game)
        async with self._transaction() as db:
            async with db.execute(_INSERT_GAME, row) as cursor:
                game_id = cursor.lastrowid
            if game_id is None:  # pragma: no cover - an INSERT always sets it
                raise RuntimeError("SQLite gave the new game no id")
            await db.executemany(_INSERT_PARTICIPANT, [{**s, "game_id": game_id} for s in seats])
        row["id"] = game_id
        return game_from_row(row)

    async def save_game(
        self,
        game: Game,
        actions: Sequence[LoggedAction] = (),
        *,
        deals: Sequence[tuple[int, DealResult]] = (),
        series: SeriesResult | None = None,
    ) -> None:
        """Update the game's row, replace its seats, append its new actions and keep
        the results it reached, in one transaction: on any error nothing of it is
        kept."""
        new = check_actions(game, actions)
        row = game_to_row(game)
        seats = participant_rows(game)
        async with self._transaction() as db:
            async with db.execute(_UPDATE_GAME, row) as cursor:
                if cursor.rowcount == 0:
                    raise NoSuchGame(game.id)
            await db.execute("DELETE FROM participants WHERE game_id = ?", (game.id,))
            await db.executemany(_INSERT_PARTICIPANT, seats)
            for action in new:
                try:
                    await db.execute(_INSERT_ACTION, action)
                except sqlite3.IntegrityError as error:
                    if error.sqlite_errorcode == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
                        raise DuplicateAction(game.id, action["version"]) from error
                    raise
            for number, result in deals:
                await db.execute(_INSERT_DEAL, deal_row(game.id, number, result, game.updated_at))
            if series is not None:
                await db.execute(_INSERT_SERIES, series_row(game.id, series, game.updated_at))

    async def load_game(self, game_id: int) -> Game | None:
        row = await self._fetchone("SELECT * FROM games WHERE id = ?", (game_id,))
        return None if row is None else game_from_row(row)

    async def open_game(self, chat: ChatRef) -> Game | None:
        row = await self._fetchone(
            "SELECT * FROM games WHERE platform = ? AND chat_id = ?"
            " AND status IN ('lobby', 'playing')"
            " ORDER BY id DESC LIMIT 1",
            (chat.platform.value, chat.id),
        )
        return None if row is None else game_from_row(row)

    async def active_games(self) -> list[Game]:
        rows = await self._fetchall(
            "SELECT * FROM games WHERE status IN ('lobby', 'playing') ORDER BY id"
        )
        return [game_from_row(row) for row in rows]

    async def game_actions(self, game_id: int) -> list[LoggedAction]:
        rows = await self._fetchall(
            "SELECT * FROM game_actions WHERE game_id = ? ORDER BY version", (game_id,)
        )
        return [action_from_row(row) for row in rows]

    # --- Results ------------------------------------------------------------------------

    async def record_deal(self, game: Game, number: int, result: DealResult, at: float) -> None:
        """Keep a deal's result once; a repeated call with the same number changes
        nothing (``INSERT OR IGNORE`` on the key)."""
        async with self._transaction() as db:
            if not await self._game_exists(db, game.id):
                raise NoSuchGame(game.id)
            await db.execute(_INSERT_DEAL, deal_row(game.id, number, result, at))

    async def record_series(self, game: Game, result: SeriesResult, at: float) -> None:
        """Keep a series' result once; a repeated call changes nothing."""
        async with self._transaction() as db:
            if not await self._game_exists(db, game.id):
                raise NoSuchGame(game.id)
            await db.execute(_INSERT_SERIES, series_row(game.id, result, at))

    # --- Statistics -----------------------------------------------------------------------

    async def user_stats(self, user: UserRef) -> UserStats | None:
        """The user's totals over the human seats he took in playing or finished games;
        None if he never took one."""
        parameters = {
            "platform": user.platform.value,
            "user_id": user.id,
            "eggs_title": Title.GOATS_WITH_EGGS.value,
        }
        async with self._lock:
            # One read transaction: the three answers agree with each other.
            await self._db.execute("BEGIN")
            try:
                series = await self._one(_USER_SERIES, parameters)
                deals = await self._one(_USER_DEALS, parameters)
                name = await self._one(_USER_NAME, parameters)
            finally:
                await self._db.execute("COMMIT")
        if not series["seats"]:
            return None
        return UserStats(
            user=user,
            name=name["name"] if name["name"] is not None else user.id,
            series_played=series["series_played"],
            series_won=series["series_won"],
            goat=series["goat"],
            goat_with_eggs=series["goat_with_eggs"],
            deals_played=deals["deals_played"],
            deals_won=deals["deals_won"],
            deals_lost=deals["deals_lost"],
            deals_eggs=deals["deals_eggs"],
            points=deals["points"],
        )

    async def _one(self, sql: str, parameters: Mapping[str, object]) -> dict[str, Any]:
        """The one row of an aggregate query (the lock is the caller's)."""
        async with self._db.execute(sql, parameters) as cursor:
            row = await cursor.fetchone()
        if row is None:  # pragma: no cover - aggregates always return a row
            raise RuntimeError("an aggregate query returned no row")
        return dict(row)

    async def leaderboard(
        self, platform: Platform, chat: ChatRef | None, limit: int = 10, min_series: int = 1
    ) -> list[LeaderboardRow]:
        """Players by series won, then win rate, then name; only those with
        ``min_series`` or more series; ``chat`` None means the whole platform."""
        rows: Iterable[dict[str, Any]] = await self._fetchall(
            _LEADERBOARD,
            {
                "platform": platform.value,
                "chat_platform": None if chat is None else chat.platform.value,
                "chat_id": None if chat is None else chat.id,
                "min_series": min_series,
                "limit": max(limit, 0),
            },
        )
        return [
            LeaderboardRow(
                user=UserRef(platform, row["user_id"]),
                name=row["name"],
                series_played=row["series_played"],
                series_won=row["series_won"],
            )
            for row in rows
        ]

    # --- Chats changing ids ---------------------------------------------------------------

    async def migrate_chat(self, old: ChatRef, new: ChatRef) -> None:
        """Move the old chat's games and settings to the new id, in one transaction.
        Settings already saved for the new id are newer, so they stay."""
        if (old.platform, old.id) == (new.platform, new.id):
            return
        ids = {
            "old_platform": old.platform.value,
            "old_id": old.id,
            "new_platform": new.platform.value,
            "new_id": new.id,
        }
        async with self._transaction() as db:
            await db.execute(
                "UPDATE games SET platform = :new_platform, chat_id = :new_id"
                " WHERE platform = :old_platform AND chat_id = :old_id",
                ids,
            )
            await db.execute(
                "INSERT OR IGNORE INTO chats (platform, id, locale, turn_timeout)"
                " SELECT :new_platform, :new_id, locale, turn_timeout FROM chats"
                " WHERE platform = :old_platform AND id = :old_id",
                ids,
            )
            await db.execute(
                "DELETE FROM chats WHERE platform = :old_platform AND id = :old_id", ids
            )
