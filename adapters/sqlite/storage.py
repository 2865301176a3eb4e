"""The production :class:`bot.ports.Storage`: one SQLite file through aiosqlite.

Rows are those of :mod:`bot.rows`, the codec :class:`bot.memory.MemoryStorage` keeps
too, and the statements those of :mod:`adapters.sql`, which PostgreSQL asks too. The
database runs in WAL mode with foreign keys on and a busy timeout; the schema is
migrated when the storage opens (:mod:`adapters.sqlite.migrations`).

One connection writes for the whole bot. aiosqlite runs its statements one by one on
a worker thread, but a transaction spans several awaits, so a lock keeps each
transaction whole: another task never slips a statement into it. Statistics and
leaderboards are read through a few read-only connections of their own
(:class:`_Readers`; WAL lets them read the last committed state while the writer
writes), and users and chats are looked up on another one, so a burst of ``/top``
never makes a move's save wait, nor waits for it, nor delays a lookup. Games are
read through the writer's connection under the lock, between transactions, so a
read waits for a batch already on its way; so does every read of a database in
memory (one connection's).

Saving a game is the hot path (every move saves), so :meth:`SqliteStorage.save_game`
commits in groups (and so does :meth:`SqliteStorage.save_send_times`, which the
Telegram outbox calls before each request into a group). A call turns the game into
rows at once, queues them and waits; one writer task takes every save queued so far
and, holding the lock, writes them all in ONE transaction by ONE call on the
connection's worker thread (aiosqlite's ``Connection._execute``, see
:func:`_on_connection_thread`), so a batch costs one thread round trip and one commit
instead of several of each per save. (A second, plain sqlite3 connection on an
executor thread would avoid aiosqlite's private method, but ``sqlite://`` in memory
would then be two databases, and the two connections' write transactions would wait on
each other through SQLite's file lock and busy timeout instead of the lock.)

Inside the transaction each save runs in a savepoint: a save that fails
(``NoSuchGame``, ``DuplicateAction``, any error) is rolled back to its savepoint and
raises in its caller alone, while the others of the batch commit. Should the
transaction fail as a whole (its commit, or an error that ends it), nothing of it is
kept and each save is tried again alone, in a transaction of its own; if it cannot
begin (the database is locked past the busy timeout), every save of the batch
raises that error. A caller's ``await`` returns only once its save is committed. A
save cancelled while it waits in the queue is dropped; one cancelled after its batch
went to the thread is committed or not, never in part. Reads see only committed data.

A save made from a version (``base``, every save of the service) is fenced: the
game's row is updated only while it still has that version (``UPDATE ... WHERE id =
:id AND version = :base``), in the transaction that appends the actions, whose key
``(game_id, version)`` is the second guard; otherwise it raises
:class:`~bot.rows.StaleGame`. Within one process the service's lock already orders
a game's saves; the fence is what keeps a second process on the same file honest.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Collection, Mapping, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar
from urllib.parse import unquote

import aiosqlite

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no lock on the database
    fcntl = None  # type: ignore[assignment]

from adapters import challenges as kept_challenges
from adapters import events as kept_events
from adapters import ratings as kept_ratings
from adapters import sql
from adapters.sqlite.migrations import SCHEMA_VERSION, migrate
from bot import ratings
from bot.achievements import Awards, Earned, Progress
from bot.challenge import Challenge, DealTaken, Play, Standings
from bot.event import Event, EventExists, EventTable, GameEnd, StaleEvent
from bot.models import ChatRef, Game, Platform, Seat, User, UserRef
from bot.ports import ChatInfo, LeaderboardRow, LoggedAction, Owed, UserStats
from bot.reliability import (
    WINDOW,
    Ending,
    EndingRow,
    Reliability,
    ending_rows,
    reliability_from_row,
)
from bot.rows import (
    AchievementRow,
    ActionRow,
    CorruptGame,
    DatabaseInUse,
    DealRow,
    DuplicateAction,
    GameRow,
    NoSuchGame,
    OwedRow,
    ProgressRow,
    SeriesRow,
    StaleGame,
    achievement_rows,
    action_from_row,
    chat_from_row,
    chat_to_row,
    check_actions,
    check_owed,
    deal_row,
    earned_from_row,
    game_from_row,
    game_to_row,
    leaderboard_rows,
    owed_from_row,
    participant_rows,
    progress_from_rows,
    seat_rows,
    send_times_from_text,
    send_times_to_text,
    series_row,
    user_from_row,
    user_to_row,
)
from core.ruleset import DealOutcome, GameOutcome, Snapshots

MEMORY = ":memory:"
#: The most saves one group commit writes; more wait for the next one.
MAX_BATCH = 512
_SCHEMES = ("sqlite", "sqlite3", "sqlite+aiosqlite")
#: How many read-only connections serve the reads of a database file.
READERS = 2
#: Seconds between a commit and the checkpoint that copies it from the WAL into the
#: database file (:class:`_Checkpointer`).
CHECKPOINT_DELAY = 0.5
log = logging.getLogger(__name__)


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
# The statements both SQL storages ask are in :mod:`adapters.sql`; this is this one's
# (PostgreSQL updates a game in ``kozel_save_game``, a function of its schema).

_UPDATE_GAME = (
    "UPDATE games SET "
    + ", ".join(f"{column} = :{column}" for column in sql.GAME_COLUMNS)
    + " WHERE id = :id"
)


# --- Group commit (runs on the connection's worker thread) ------------------------------

_T = TypeVar("_T")


async def _on_connection_thread(
    db: aiosqlite.Connection, function: Callable[[sqlite3.Connection], _T]
) -> _T:
    """Run ``function`` with the sqlite3 connection on ``db``'s worker thread, as one
    call, and return what it returns.

    aiosqlite offers no public way to do this. ``Connection._execute`` queues a call
    on the worker thread, as every aiosqlite method does, and ``Connection._conn`` is
    the sqlite3 connection (aiosqlite 0.20 to 0.22); the tests in
    tests/adapters/sqlite run through both. A closed connection raises ``ValueError``.
    """
    # aiosqlite leaves ``_execute`` unannotated.
    result: _T = await db._execute(lambda: function(db._conn))  # type: ignore[no-untyped-call]
    return result


@dataclass(frozen=True, slots=True)
class _Save:
    """The rows of one :meth:`SqliteStorage.save_game` call."""

    game_id: int
    base: int | None  # the version the stored game must have, if fenced
    game: GameRow
    seats: tuple[Seat | None, ...]  # their participant rows only if they changed
    actions: list[ActionRow]
    deals: list[DealRow]
    series: SeriesRow | None
    owed: list[OwedRow]
    achievements: list[AchievementRow]
    progress: list[ProgressRow]
    #: The series' result rates its players (four humans), in its transaction.
    rated: ratings.RatedGame | None = None
    #: Its players' rows of a rated game that ends (:mod:`bot.reliability`).
    endings: list[EndingRow] = field(default_factory=list)

    def write(self, db: sqlite3.Connection) -> None:
        _write_save(db, self)


@dataclass(frozen=True, slots=True)
class _SendTimes:
    """One :meth:`SqliteStorage.save_send_times` call: a chat's kept send times."""

    platform: str
    chat: str
    times: str

    def write(self, db: sqlite3.Connection) -> None:
        db.execute(
            sql.SAVE_SEND_TIMES.sqlite,
            {"platform": self.platform, "chat_id": self.chat, "times": self.times},
        )


_Write = _Save | _SendTimes
"""What the group commit writes (see :meth:`SqliteStorage._commit`)."""


def _write_save(db: sqlite3.Connection, save: _Save) -> None:
    """One save's statements (the caller holds a transaction)."""
    stored = db.execute("SELECT seats, version FROM games WHERE id = ?", (save.game_id,)).fetchone()
    if stored is None:
        raise NoSuchGame(save.game_id)
    if save.base is None:
        db.execute(_UPDATE_GAME, save.game)
    else:
        # The fence: the row moves on only from the version the change was made
        # from. The write transaction holds SQLite's lock since the SELECT, so the
        # check and the update cannot be split by another connection or process.
        updated = db.execute(
            _UPDATE_GAME + " AND version = :base", {**save.game, "base": save.base}
        )
        if updated.rowcount != 1:
            raise StaleGame(save.game_id, save.base, stored[1])
    # The participants are the seats' (``participant_rows``), written with them every
    # time: unchanged seats need no rewrite, the costliest part of a save otherwise.
    if stored[0] != save.game["seats"]:
        db.execute("DELETE FROM participants WHERE game_id = ?", (save.game_id,))
        db.executemany(sql.INSERT_PARTICIPANT.sqlite, seat_rows(save.game_id, save.seats))
    for action in save.actions:
        try:
            db.execute(sql.INSERT_ACTION.sqlite, action)
        except sqlite3.IntegrityError as error:
            if error.sqlite_errorcode == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
                raise DuplicateAction(save.game_id, action["version"]) from error
            raise
    db.executemany(sql.INSERT_DEAL.sqlite, save.deals)
    if save.series is not None:
        db.execute(sql.INSERT_SERIES.sqlite, save.series)
    if save.rated is not None:
        _rate(db, save.rated)
    if save.owed:
        db.executemany(sql.INSERT_OWED.sqlite, save.owed)
    if save.achievements:
        db.executemany(sql.INSERT_ACHIEVEMENT.sqlite, save.achievements)
    if save.progress:
        db.executemany(sql.SAVE_PROGRESS.sqlite, save.progress)
    if save.endings:
        db.executemany(sql.INSERT_ENDING.sqlite, save.endings)


def _rate(db: sqlite3.Connection, game: ratings.RatedGame) -> None:
    """Update the ratings of a finished game's players (:mod:`adapters.ratings`), in
    the caller's transaction, which keeps its result; a game rated already changes
    nothing."""
    if db.execute(kept_ratings.RATED_ALREADY.sqlite, {"game_id": game.game_id}).fetchone():
        return
    for statement, rows in kept_ratings.new_rows(game):
        db.executemany(statement.sqlite, rows)
    found: list[dict[str, Any]] = []
    for statement, values in kept_ratings.reads(game):
        cursor = db.execute(statement.sqlite, values)
        names = [column[0] for column in cursor.description]
        found.extend(dict(zip(names, row, strict=True)) for row in cursor)
    _, statements = kept_ratings.writes(game, found)
    for statement, rows in statements:
        db.executemany(statement.sqlite, rows)


def _rollback(db: sqlite3.Connection) -> None:
    if db.in_transaction:
        with suppress(sqlite3.Error):
            db.execute("ROLLBACK")


def _write_batch(db: sqlite3.Connection, saves: Sequence[_Write]) -> list[Exception | None]:
    """Write ``saves`` in one transaction, each in a savepoint; return what each one
    raised (None: kept). A save that raised kept nothing; the others are committed.

    If the transaction cannot begin, every save fails with that error. If it fails
    later as a whole (an error that ended it, or the commit), nothing of it is kept
    and each save is tried again alone.
    """
    try:
        db.execute("BEGIN IMMEDIATE")
    except sqlite3.Error as error:
        return [error] * len(saves)
    outcomes: list[Exception | None] = []
    try:
        for save in saves:
            db.execute("SAVEPOINT save")
            try:
                save.write(db)
            except Exception as error:
                if not db.in_transaction:
                    raise  # the error ended the whole transaction
                db.execute("ROLLBACK TO save")
                outcomes.append(error)
            else:
                outcomes.append(None)
            db.execute("RELEASE save")
        db.execute("COMMIT")
    except sqlite3.Error as error:
        _rollback(db)
        if len(saves) == 1:
            return [error]
        return [_write_batch(db, [save])[0] for save in saves]
    except BaseException:
        _rollback(db)
        raise
    return outcomes


class _FileLock:
    """An exclusive ``flock`` on ``<database>.lock``, which holds the holder's pid."""

    def __init__(self, fd: int) -> None:
        self._fd: int | None = fd

    @classmethod
    def take(cls, path: str) -> _FileLock | None:
        """The lock of the database at ``path``; raises :class:`DatabaseInUse` if it
        is held. None where the system has no ``flock`` (no lock is taken there)."""
        if fcntl is None:  # pragma: no cover - not on Linux or macOS
            return None
        fd = os.open(f"{path}.lock", os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 32).decode(errors="replace").strip()
            os.close(fd)
            raise DatabaseInUse(path, holder) from None
        except BaseException:
            os.close(fd)
            raise
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        return cls(fd)

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the last descriptor drops the lock
            self._fd = None


def _read_only_uri(path: str) -> str:
    """The URI that opens the database file at ``path`` read-only.

    >>> _read_only_uri("/var/lib/kozel/kozel db.sqlite3")
    'file:///var/lib/kozel/kozel%20db.sqlite3?mode=ro'
    """
    return Path(path).absolute().as_uri() + "?mode=ro"


class _Readers:
    """Read-only connections to a database file, each serving one read at a time.

    In WAL mode a reader sees the last committed state and neither waits for the
    writer nor makes it wait: reads through these never take the writer's lock.
    """

    def __init__(self, connections: Sequence[aiosqlite.Connection]) -> None:
        self._all = list(connections)
        self._idle: asyncio.Queue[aiosqlite.Connection] = asyncio.Queue()
        for db in self._all:
            self._idle.put_nowait(db)

    @classmethod
    async def open(cls, path: str, count: int, busy_timeout_ms: int) -> _Readers:
        uri = _read_only_uri(path)
        connections: list[aiosqlite.Connection] = []
        try:
            for _ in range(count):
                db = await aiosqlite.connect(uri, uri=True, isolation_level=None)
                connections.append(db)
                db.row_factory = sqlite3.Row
                await db.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        except BaseException:
            for db in connections:
                await db.close()
            raise
        return cls(connections)

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[aiosqlite.Connection]:
        db = await self._idle.get()
        try:
            yield db
        finally:
            self._idle.put_nowait(db)

    async def close(self) -> None:
        for db in self._all:
            await db.close()


class _Checkpointer:
    """Copies committed pages from the WAL into the database file, on a connection
    and thread of its own, half a second after a commit.

    SQLite would otherwise checkpoint on the writer's connection, in the commit that
    pushed the WAL past 1,000 pages: that commit (a move in some chat, a result) then
    also writes and syncs those pages, 15-25 ms on a large file, so one save in every
    few dozen paid for everyone's. A ``PASSIVE`` checkpoint waits for no reader or
    writer and no save waits for it.
    """

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db
        self._written = asyncio.Event()
        self._task = asyncio.create_task(self._run(), name="sqlite-checkpoint")

    @classmethod
    async def open(cls, path: str, busy_timeout_ms: int) -> _Checkpointer:
        db = await aiosqlite.connect(path, isolation_level=None)
        try:
            await db.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        except BaseException:
            await db.close()
            raise
        return cls(db)

    def written(self) -> None:
        """A transaction was committed: checkpoint soon."""
        self._written.set()

    async def _run(self) -> None:
        while True:
            await self._written.wait()
            await asyncio.sleep(CHECKPOINT_DELAY)
            self._written.clear()
            try:
                await self._db.execute("PRAGMA wal_checkpoint(PASSIVE)")
            except sqlite3.Error as error:  # the next commit tries again
                log.warning("checkpoint failed: %s", error)

    async def close(self) -> None:
        self._task.cancel()
        with suppress(asyncio.CancelledError):
            await self._task
        await self._db.close()


class SqliteStorage:
    """A :class:`~bot.ports.Storage` in one SQLite file. Open it with :meth:`open`."""

    def __init__(
        self,
        db: aiosqlite.Connection,
        path: str,
        now: Callable[[], float] = time.time,
        lock: _FileLock | None = None,
        readers: _Readers | None = None,
        lookups: _Readers | None = None,
        checkpointer: _Checkpointer | None = None,
    ) -> None:
        self._db = db
        #: Checkpoints the WAL off the writer's path (None: SQLite's own, on commit).
        self._checkpointer = checkpointer
        #: Where statistics and leaderboards are read, and where users and chats are
        #: looked up by key, apart (None, in memory: through the writer's connection
        #: and lock).
        self._readers = readers
        self._lookups = lookups
        self._file_lock = lock
        self._lock = asyncio.Lock()
        #: Saves waiting for the writer, each with the future its caller awaits.
        self._queue: list[tuple[_Write, asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None
        #: Every save snapshots the game's series: this keeps the deals' text.
        self._snapshots = Snapshots()
        self._now = now
        self.path = path
        #: The schema version (``PRAGMA user_version``) the database was at once
        #: migrated.
        self.schema_version = SCHEMA_VERSION

    @classmethod
    async def open(
        cls,
        target: str | os.PathLike[str],
        *,
        busy_timeout_ms: int = 5000,
        now: Callable[[], float] = time.time,
        exclusive: bool = False,
        readers: int = READERS,
    ) -> SqliteStorage:
        """Open (creating it and its folders if need be) and migrate the database at
        ``target``: a path or a ``sqlite:///path`` URL. ``now`` stamps saved users.

        ``exclusive``: this process is the only one to run on the database (the bot,
        the console). It holds a lock on ``<path>.lock`` until :meth:`close`; raises
        :class:`~bot.rows.DatabaseInUse` if another process (or storage) holds it.
        The system drops the lock of a process that dies, however it dies.

        Reads go through ``readers`` read-only connections of their own (a file only:
        ``:memory:`` is one connection's), so a leaderboard never waits for the
        group commit nor holds it up."""
        path = database_path(target)
        if path != MEMORY:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        lock = _FileLock.take(path) if exclusive and path != MEMORY else None
        try:
            db = await aiosqlite.connect(path, isolation_level=None)
        except BaseException:
            if lock is not None:
                lock.release()
            raise
        read_only: _Readers | None = None
        lookups: _Readers | None = None
        checkpointer: _Checkpointer | None = None
        try:
            db.row_factory = sqlite3.Row
            # PRAGMAs take no parameters; the values are our own integers and words.
            await db.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            await db.execute("PRAGMA foreign_keys = ON")
            await db.execute("PRAGMA journal_mode = WAL")
            # In WAL mode NORMAL loses no committed transaction when the process dies,
            # only (at worst) the last ones on a power cut.
            await db.execute("PRAGMA synchronous = NORMAL")
            version = await migrate(db)
            if path != MEMORY and readers > 0:
                read_only = await _Readers.open(path, readers, busy_timeout_ms)
                lookups = await _Readers.open(path, 1, busy_timeout_ms)
            if path != MEMORY:
                checkpointer = await _Checkpointer.open(path, busy_timeout_ms)
                await db.execute("PRAGMA wal_autocheckpoint = 0")
        except BaseException:
            for opened in (read_only, lookups, checkpointer):
                if opened is not None:
                    await opened.close()
            await db.close()
            if lock is not None:
                lock.release()
            raise
        storage = cls(db, path, now, lock, read_only, lookups, checkpointer)
        storage.schema_version = version
        return storage

    async def close(self) -> None:
        """Finish the queued saves and the running transaction, then close; closing
        twice is harmless."""
        if self._writer is not None:
            await asyncio.wait([self._writer])
        for other in (self._checkpointer, self._readers, self._lookups):
            if other is not None:
                await other.close()
        self._checkpointer = self._readers = self._lookups = None
        async with self._lock:
            await self._db.close()  # the last connection: it checkpoints the whole WAL
        if self._file_lock is not None:
            self._file_lock.release()

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
                if self._checkpointer is not None:
                    self._checkpointer.written()
            except BaseException:
                with suppress(sqlite3.OperationalError):  # no transaction left to end
                    await self._db.execute("ROLLBACK")
                raise

    async def _fetchall(
        self, statement: sql.Sql, parameters: Mapping[str, Any] | None = None
    ) -> list[dict[str, Any]]:
        """The rows of one read between the writer's transactions: it also waits for
        a batch already on the thread (a save whose caller was cancelled, say)."""
        async with self._lock:
            rows = await self._db.execute_fetchall(statement.sqlite, parameters or {})
        return [dict(row) for row in rows]

    async def _read(
        self, statement: sql.Sql, parameters: Mapping[str, Any], *, lookup: bool = False
    ) -> list[dict[str, Any]]:
        """The rows of one read that needs only what is committed, on a read-only
        connection, never under the writer's lock: statistics and leaderboards on
        their own ones, a ``lookup`` by key (a user, a chat) on another, so that a
        burst of the first never delays the second (a move's rendering asks for
        its chat)."""
        readers = self._lookups if lookup else self._readers
        if readers is None:
            return await self._fetchall(statement, parameters)
        async with readers.connection() as db:
            rows = await db.execute_fetchall(statement.sqlite, parameters)
        return [dict(row) for row in rows]

    async def _fetchone(
        self, statement: sql.Sql, parameters: Mapping[str, Any]
    ) -> dict[str, Any] | None:
        rows = await self._fetchall(statement, parameters)
        return rows[0] if rows else None

    async def _lookup(
        self, statement: sql.Sql, parameters: Mapping[str, Any]
    ) -> dict[str, Any] | None:
        rows = await self._read(statement, parameters, lookup=True)
        return rows[0] if rows else None

    @staticmethod
    async def _game_exists(db: aiosqlite.Connection, game_id: int) -> bool:
        async with db.execute(sql.GAME_EXISTS.sqlite, {"id": game_id}) as cursor:
            return await cursor.fetchone() is not None

    # --- Users and chats -------------------------------------------------------------

    async def get_user(self, ref: UserRef) -> User | None:
        row = await self._lookup(sql.GET_USER, {"platform": ref.platform.value, "id": ref.id})
        return None if row is None else user_from_row(row)

    async def save_user(self, user: User) -> None:
        async with self._transaction() as db:
            await db.execute(sql.SAVE_USER.sqlite, {**user_to_row(user), "updated_at": self._now()})

    async def get_chat(self, ref: ChatRef) -> ChatInfo | None:
        row = await self._lookup(sql.GET_CHAT, {"platform": ref.platform.value, "id": ref.id})
        return None if row is None else chat_from_row(row)

    async def save_chat(self, chat: ChatInfo) -> None:
        async with self._transaction() as db:
            await db.execute(sql.SAVE_CHAT.sqlite, chat_to_row(chat))

    # --- Games ------------------------------------------------------------------------

    async def create_game(self, game: Game) -> Game:
        """Store a new game; return a copy of it with the id the database gave it (the
        ``id`` passed in is ignored)."""
        row = game_to_row(game)
        async with self._transaction() as db:
            row["id"] = await self._insert_game(db, game, row)
        return game_from_row(row)

    @staticmethod
    async def _insert_game(db: aiosqlite.Connection, game: Game, row: GameRow) -> int:
        """Insert a new game's row and its seats (the caller holds a transaction); its
        id."""
        async with db.execute(sql.INSERT_GAME.sqlite, row) as cursor:
            game_id = cursor.lastrowid
        if game_id is None:  # pragma: no cover - an INSERT always sets it
            raise RuntimeError("SQLite gave the new game no id")
        await db.executemany(
            sql.INSERT_PARTICIPANT.sqlite,
            [{**s, "game_id": game_id} for s in participant_rows(game)],
        )
        return game_id

    async def save_game(
        self,
        game: Game,
        actions: Sequence[LoggedAction] = (),
        *,
        deals: Sequence[DealOutcome] = (),
        series: GameOutcome | None = None,
        owed: Sequence[Owed] = (),
        base: int | None = None,
        awards: Awards | None = None,
        endings: Sequence[Ending] = (),
    ) -> None:
        """Update the game's row (only from version ``base`` if given, else
        :class:`~bot.rows.StaleGame`), replace its seats, append its new actions, keep
        the results it reached, their achievements, its players' endings and the
        messages it owes, in one transaction: on any error nothing of it is kept.
        Concurrent saves share a transaction (see the module's docstring); the game
        is saved as it is when this is called."""
        new = check_actions(game, actions)
        owed_rows = check_owed(game, owed)
        earned_rows, progress_rows = achievement_rows(game, awards)
        save = _Save(
            game.id,
            base,
            game_to_row(game, self._snapshots),
            tuple(game.seats),
            new,
            [deal_row(game, outcome, game.updated_at) for outcome in deals],
            None if series is None else series_row(game, series, game.updated_at),
            owed_rows,
            earned_rows,
            progress_rows,
            None if series is None else ratings.rated_game(game, series.loser, game.updated_at),
            ending_rows(game, endings),
        )
        await self._commit(save)

    async def _commit(self, write: _Write) -> None:
        """Queue ``write`` for the group commit and wait until it is kept (or raise
        what it raised): every write queued while a batch is being written goes into
        the next batch, one transaction on the worker thread."""
        done = asyncio.get_running_loop().create_future()
        self._queue.append((write, done))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_queued(), name="sqlite-group-commit")
        await done

    async def _write_queued(self) -> None:
        """The writer: commit queued saves, a batch at a time, until none is left."""
        batch: list[tuple[_Write, asyncio.Future[None]]] = []
        try:
            while self._queue:
                async with self._lock:
                    # Saves queued while the lock was busy join this batch.
                    batch = [item for item in self._queue[:MAX_BATCH] if not item[1].done()]
                    del self._queue[:MAX_BATCH]
                    if not batch:
                        continue
                    saves = [save for save, _ in batch]
                    try:
                        outcomes = await _on_connection_thread(
                            self._db, partial(_write_batch, saves=saves)
                        )
                    except Exception as error:  # the connection is closed, say
                        outcomes = [error] * len(batch)
                    if self._checkpointer is not None:
                        self._checkpointer.written()
                for (_, done), outcome in zip(batch, outcomes, strict=True):
                    if done.done():  # the caller was cancelled
                        continue
                    if outcome is None:
                        done.set_result(None)
                    else:
                        done.set_exception(outcome)
                batch = []
        finally:
            # Only if the writer itself was cancelled or broke: nobody may wait forever.
            for _, done in [*batch, *self._queue]:
                done.cancel()
            self._queue.clear()

    async def load_game(self, game_id: int) -> Game | None:
        row = await self._fetchone(sql.LOAD_GAME, {"id": game_id})
        return None if row is None else await self._game(row)

    async def open_game(self, chat: ChatRef) -> Game | None:
        rows = await self._fetchall(
            sql.OPEN_GAMES, {"platform": chat.platform.value, "chat_id": chat.id}
        )
        for row in rows:  # one, unless a newer one was set aside
            game = await self._game(row)
            if game is not None:
                return game
        return None

    async def active_games(self) -> list[Game]:
        rows = await self._fetchall(sql.ACTIVE_GAMES)
        games = [await self._game(row) for row in rows]
        return [game for game in games if game is not None]

    async def set_aside(self) -> dict[int, str]:
        """The games set aside (they no longer load), with the reason of each."""
        rows = await self._fetchall(sql.SET_ASIDE)
        return {row["game_id"]: row["reason"] for row in rows}

    async def _game(self, row: Mapping[str, Any]) -> Game | None:
        """The game of a row; a row that does not make one is set aside (logged, kept
        in ``set_aside_games`` and skipped by every read from then on): None."""
        try:
            return game_from_row(row)
        except CorruptGame as corrupt:
            sql.log_set_aside(log, corrupt, row)
            async with self._transaction() as db:
                await db.execute(
                    sql.INSERT_SET_ASIDE.sqlite, sql.set_aside_row(corrupt, self._now())
                )
            return None

    async def game_actions(self, game_id: int) -> list[LoggedAction]:
        rows = await self._fetchall(sql.GAME_ACTIONS, {"game_id": game_id})
        return [action_from_row(row) for row in rows]

    # --- Owed messages and send times ----------------------------------------------------

    async def owed_messages(self) -> list[Owed]:
        rows = await self._fetchall(sql.OWED_MESSAGES)
        return [owed_from_row(row) for row in rows]

    async def message_sent(self, owed: Owed) -> None:
        key = {"game_id": owed.game_id, "version": owed.version, "idx": owed.index}
        async with self._transaction() as db:
            await db.execute(sql.MESSAGE_SENT.sqlite, key)

    async def send_times(self, platform: Platform) -> dict[str, list[float]]:
        rows = await self._fetchall(sql.SEND_TIMES, {"platform": platform.value})
        return {row["chat_id"]: send_times_from_text(row["times"]) for row in rows}

    async def save_send_times(self, platform: Platform, chat: str, times: Sequence[float]) -> None:
        """Kept through the group commit: a busy bot keeps a group's times before
        each request into it, and those share a transaction with the games' saves."""
        await self._commit(_SendTimes(platform.value, chat, send_times_to_text(times)))

    async def last_alive(self) -> dict[Platform, float]:
        rows = await self._fetchall(sql.LAST_ALIVE)
        return {Platform(row["platform"]): row["at"] for row in rows}

    async def save_alive(self, platforms: Collection[Platform], at: float) -> None:
        async with self._transaction() as db:
            await db.executemany(
                sql.SAVE_ALIVE.sqlite,
                [{"platform": platform.value, "at": at} for platform in platforms],
            )

    # --- Results ------------------------------------------------------------------------

    async def record_deal(self, game: Game, outcome: DealOutcome, at: float) -> None:
        """Keep a deal's result once; a repeated call with the same number changes
        nothing (``INSERT OR IGNORE`` on the key)."""
        await self._record(game, sql.INSERT_DEAL, deal_row(game, outcome, at))

    async def record_series(self, game: Game, outcome: GameOutcome, at: float) -> None:
        """Keep a series' result once; a repeated call changes nothing."""
        rated = ratings.rated_game(game, outcome.loser, at)
        await self._record(game, sql.INSERT_SERIES, series_row(game, outcome, at), rated)

    async def _record(
        self,
        game: Game,
        insert: sql.Sql,
        row: Mapping[str, Any],
        rated: ratings.RatedGame | None = None,
    ) -> None:
        async with self._transaction() as db:
            if not await self._game_exists(db, game.id):
                raise NoSuchGame(game.id)
            await db.execute(insert.sqlite, row)
            if rated is not None:
                await _on_connection_thread(db, partial(_rate, game=rated))

    # --- Achievements -----------------------------------------------------------------------

    async def achievement_progress(self, users: Collection[UserRef]) -> dict[UserRef, Progress]:
        """Read between the writer's transactions: a save already on its way is
        seen."""
        progress: list[dict[str, Any]] = []
        held: list[dict[str, Any]] = []
        for parameters in sql.four_users(list(users)):
            progress += await self._fetchall(sql.ACHIEVEMENT_PROGRESS, parameters)
            held += await self._fetchall(sql.ACHIEVEMENTS_HELD, parameters)
        return progress_from_rows(users, progress, held)

    async def achievements_of(self, user: UserRef) -> list[Earned]:
        parameters = {"platform": user.platform.value, "user_id": user.id}
        return [earned_from_row(row) for row in await self._read(sql.ACHIEVEMENTS_OF, parameters)]

    async def achievements_earned(self, game_id: int, version: int) -> list[Earned]:
        rows = await self._fetchall(
            sql.ACHIEVEMENTS_EARNED, {"game_id": game_id, "version": version}
        )
        return [earned_from_row(row) for row in rows]

    # --- Statistics -----------------------------------------------------------------------

    async def reliability(self, user: UserRef, last: int = WINDOW) -> Reliability:
        """Read apart from the saves, as :meth:`user_stats`."""
        parameters = {"platform": user.platform.value, "user_id": user.id, "last": last}
        rows = await self._read(sql.RELIABILITY, parameters)
        return reliability_from_row(rows[0])

    async def user_stats(self, user: UserRef, rule_set: str | None = None) -> UserStats | None:
        """The user's totals over the human seats he took in playing or finished games
        (of ``rule_set`` if given); None if he never took one. One statement: the
        totals and the name agree with each other."""
        parameters = {"platform": user.platform.value, "user_id": user.id, "rule_set": rule_set}
        rows = await self._read(sql.USER_TOTALS, parameters)
        return sql.user_stats(user, rows[0])

    async def leaderboard(
        self,
        platform: Platform,
        chat: ChatRef | None,
        limit: int = 10,
        min_series: int = 1,
        rule_set: str | None = None,
    ) -> list[LeaderboardRow]:
        """Players by series won, then win rate, then name; only those with
        ``min_series`` or more series; ``chat`` None means the whole platform;
        ``rule_set`` None: every rule set's games."""
        query = sql.leaderboard_query(platform, chat, limit, min_series, rule_set)
        if query is None:
            return []
        statement, parameters = query
        rows = await self._read(statement, parameters)
        return leaderboard_rows(platform, rows)

    # --- Ratings ---------------------------------------------------------------------------

    async def rate(self, game: ratings.RatedGame) -> None:
        """Rate a finished game in a transaction of its own (maintenance, the
        benchmark); a game rated already changes nothing. A save that keeps a
        result rates its game itself."""
        async with self._transaction() as db:
            await _on_connection_thread(db, partial(_rate, game=game))

    async def rating_board(
        self, platform: Platform, chat: ChatRef | None, board: ratings.Board, limit: int = 10
    ) -> list[ratings.BoardRow]:
        """The best rated players (:mod:`adapters.ratings`), read apart from the saves."""
        query = kept_ratings.board_query(platform, chat, board, limit)
        if query is None:
            return []
        statement, parameters = query
        return kept_ratings.board_rows(platform, await self._read(statement, parameters))

    async def player_ratings(self, user: UserRef) -> list[ratings.PlayerRating]:
        """A player's ratings, with his latest changes and best partner in each."""
        return await kept_ratings.player_ratings(user, self._read)

    async def game_ratings(self, game_id: int) -> tuple[ratings.RatingChange, ...]:
        """What a rated game changed (nothing: it was not rated)."""
        rows = await self._read(kept_ratings.GAME_CHANGES, {"game_id": game_id})
        return kept_ratings.changes_from_rows(rows)

    # --- Chats changing ids ---------------------------------------------------------------

    async def migrate_chat(self, old: ChatRef, new: ChatRef) -> None:
        """Move the old chat's games and settings to the new id, in one transaction.
        Settings already saved for the new id are newer, so they stay."""
        if (old.platform, old.id) == (new.platform, new.id):
            return
        ids = sql.chat_ids(old, new)
        async with self._transaction() as db:
            for statement in (sql.MOVE_CHAT_GAMES, sql.COPY_CHAT, sql.DELETE_CHAT):
                await db.execute(statement.sqlite, ids)
            await db.execute(kept_ratings.MOVE_SEASON_RATINGS.sqlite, ids)

    # --- Secrets ----------------------------------------------------------------------

    async def secret(self, name: str) -> bytes:
        """The named key: the first caller's random bytes are kept (``INSERT OR
        IGNORE`` in one transaction), so every process on the file reads the same."""
        async with self._transaction() as db:
            await db.execute(
                sql.KEEP_SECRET.sqlite, {"name": name, "value": secrets.token_bytes(32)}
            )
            async with db.execute(sql.SECRET.sqlite, {"name": name}) as cursor:
                row = await cursor.fetchone()
        if row is None:  # pragma: no cover - the row was just inserted or was there
            raise RuntimeError(f"secret {name!r} was not kept")
        return bytes(row[0])

    # --- Duplicate challenges (adapters.challenges) -------------------------------------

    async def challenge(self, challenge_id: str) -> Challenge | None:
        row = await self._lookup(kept_challenges.GET_CHALLENGE, {"id": challenge_id})
        return None if row is None else kept_challenges.challenge_from_row(row)

    async def keep_challenge(self, challenge: Challenge) -> Challenge:
        async with self._transaction() as db:
            await db.execute(
                kept_challenges.KEEP_CHALLENGE.sqlite, kept_challenges.challenge_row(challenge)
            )
            rows = await db.execute_fetchall(
                kept_challenges.GET_CHALLENGE.sqlite, {"id": challenge.id}
            )
        return kept_challenges.challenge_from_row(dict(next(iter(rows))))

    async def challenge_plays(self, challenge_id: str, user: UserRef) -> list[Play]:
        parameters = {"challenge_id": challenge_id, "platform": user.platform.value}
        rows = await self._fetchall(kept_challenges.PLAYS, {**parameters, "user_id": user.id})
        return kept_challenges.plays_from_rows(rows)

    async def start_challenge_deal(
        self, game: Game, challenge: Challenge, deal: int, name: str
    ) -> Game:
        """The game, its seats, the entrant's deal and his entry, in one transaction."""
        row = game_to_row(game, self._snapshots)
        user = kept_challenges.player(game)
        async with self._transaction() as db:
            game_id = await self._insert_game(db, game, row)
            try:
                await db.execute(
                    kept_challenges.INSERT_PLAY.sqlite,
                    kept_challenges.play_row(challenge, user, deal, game_id),
                )
            except sqlite3.IntegrityError:
                raise DealTaken(challenge.id, deal) from None
            await db.execute(
                kept_challenges.KEEP_ENTRANT.sqlite,
                kept_challenges.entrant_row(challenge, user, name),
            )
        row["id"] = game_id
        return game_from_row(row)

    async def challenge_standings(
        self, challenge: Challenge, user: UserRef | None, limit: int = 10
    ) -> Standings:
        return await kept_challenges.standings(self._read, challenge, user, limit)

    # --- Swiss evenings (adapters.events) -----------------------------------------------

    async def create_event(self, event: Event) -> Event:
        async with self._transaction() as db:
            try:
                cursor = await db.execute(
                    kept_events.INSERT_EVENT.sqlite, kept_events.event_row(event)
                )
            except sqlite3.IntegrityError:
                raise EventExists(event.chat) from None
            if cursor.lastrowid is None:  # pragma: no cover - an INSERT always sets it
                raise RuntimeError("SQLite gave the new event no id")
            event = event.with_(id=cursor.lastrowid)
            await db.executemany(kept_events.INSERT_TEAM.sqlite, kept_events.team_rows(event))
        return event

    async def _event(self, row: dict[str, Any] | None) -> Event | None:
        if row is None:
            return None
        key = {"event_id": row["id"]}
        teams = await self._fetchall(kept_events.TEAMS, key)
        tables = await self._fetchall(kept_events.TABLES, key)
        return kept_events.event_from_rows(row, teams, tables)

    async def load_event(self, event_id: int) -> Event | None:
        rows = await self._fetchall(kept_events.GET_EVENT, {"id": event_id})
        return await self._event(rows[0] if rows else None)

    async def chat_event(self, chat: ChatRef) -> Event | None:
        values = {"platform": chat.platform.value, "chat_id": chat.id}
        rows = await self._fetchall(kept_events.LIVE_IN_CHAT, values)
        return await self._event(rows[0] if rows else None)

    async def events_to_resume(self) -> list[Event]:
        rows = await self._fetchall(kept_events.TO_RESUME)
        return [e for row in rows if (e := await self._event(row)) is not None]

    async def save_event(
        self, event: Event, base: int, new_tables: Sequence[tuple[EventTable, Game]] = ()
    ) -> Event:
        async with self._transaction() as db:
            cursor = await db.execute(
                kept_events.UPDATE_EVENT.sqlite, kept_events.update_row(event, base)
            )
            if cursor.rowcount != 1:
                raise StaleEvent(event.id)
            await db.execute(kept_events.DELETE_TEAMS.sqlite, {"event_id": event.id})
            await db.executemany(kept_events.INSERT_TEAM.sqlite, kept_events.team_rows(event))
            await db.executemany(kept_events.SET_RESULT.sqlite, kept_events.result_rows(event))
            for table, game in new_tables:
                game_id = await self._insert_game(db, game, game_to_row(game, self._snapshots))
                table = replace(table, game_id=game_id)
                try:
                    await db.execute(
                        kept_events.INSERT_TABLE.sqlite, kept_events.table_row(event.id, table)
                    )
                except sqlite3.IntegrityError:
                    raise StaleEvent(event.id) from None
        kept = await self.load_event(event.id)
        if kept is None:  # pragma: no cover - it was just saved
            raise StaleEvent(event.id)
        return kept

    async def game_end(self, game: Game) -> GameEnd:
        key = {"game_id": game.id}
        return kept_events.game_end(
            game,
            await self._fetchall(kept_events.SERIES_LOSER, key),
            await self._fetchall(kept_events.DEALS, key),
            await self._fetchall(kept_events.WALKED_OUT, key),
        )
