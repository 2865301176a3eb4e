"""A :class:`bot.ports.Storage` on PostgreSQL through asyncpg, for several processes.

Rows are those of :mod:`bot.rows`, the codec SQLite and :class:`bot.memory.MemoryStorage`
keep too, in the same tables (``migrations/0001_first_schema.sql``), and the
statements those of :mod:`adapters.sql`, which SQLite asks too. A pool of
connections serves the process; each write is one transaction on one connection, so
concurrent saves of different games run side by side in the server.

Several processes may share the database. What keeps them from both applying a
press is the fence of :meth:`PostgresStorage.save_game`: the game's row is locked
(``SELECT ... FOR UPDATE``) and updated only from the version the change was made
from (``UPDATE games ... WHERE id = ... AND version = p_base``), in one transaction
with the new rows of the action log, whose key ``(game_id, version)`` refuses an
action logged twice. A save that finds the row moved on raises
:class:`~bot.rows.StaleGame` and keeps nothing; the service refuses the press as
stale.

A save is the hot path (every move saves), so saves are committed in groups, as on
SQLite: a call turns the game into rows at once, queues them and waits; one writer
task sends every save queued so far in ONE statement, the server-side function
``kozel_save_games`` (in the first migration), which applies them in order in one
transaction, each in a subtransaction of its own through ``kozel_save_game`` (the
fence and the inserts above): a save that fails keeps nothing and raises in its
caller alone; the others are kept. One round trip and one commit for the batch. A
caller's ``await`` returns once its save is committed; a save cancelled while it
waits in the queue is dropped.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import replace
from types import TracebackType
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import asyncpg

from adapters import challenges as kept_challenges
from adapters import events as kept_events
from adapters import ratings as kept_ratings
from adapters import sql
from adapters.postgres.migrations import migrate
from bot import ratings
from bot.achievements import Awards, Earned, Progress
from bot.challenge import Challenge, DealTaken, Play, Standings
from bot.event import Event, EventExists, EventTable, GameEnd, StaleEvent
from bot.models import ChatRef, Game, Platform, User, UserRef
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
    CorruptGame,
    DuplicateAction,
    GameRow,
    NoSuchGame,
    StaleGame,
    StorageError,
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

_SCHEMES = ("postgresql", "postgres", "postgresql+asyncpg")
#: The most connections statistics and leaderboards read through.
READ_POOL = 3
#: Seconds a statistics read may take before it fails (a stuck one frees its
#: connection).
READ_TIMEOUT = 10.0

log = logging.getLogger(__name__)

Record = asyncpg.Record
if TYPE_CHECKING:  # asyncpg's classes are generic in its stubs only
    Connection = asyncpg.pool.PoolConnectionProxy[Record]


def is_postgres_url(url: str) -> bool:
    """Whether a ``DATABASE_URL`` names a PostgreSQL database.

    >>> is_postgres_url("postgresql://kozel@db/kozel"), is_postgres_url("sqlite:///k.db")
    (True, False)
    """
    scheme, separator, _ = url.partition("://")
    return bool(separator) and scheme.lower() in _SCHEMES


def dsn(url: str) -> str:
    """The libpq-style URL asyncpg takes (a SQLAlchemy ``+asyncpg`` is dropped).

    >>> dsn("postgresql+asyncpg://kozel:secret@db:5432/kozel")
    'postgresql://kozel:secret@db:5432/kozel'
    >>> dsn("postgres:///kozel?host=/run/postgresql")
    'postgres:///kozel?host=/run/postgresql'
    """
    if not is_postgres_url(url):
        raise ValueError(f"not a PostgreSQL URL: {urlsplit(url).scheme or url!r}")
    scheme, _, rest = url.partition("://")
    if scheme.lower() == "postgresql+asyncpg":
        scheme = "postgresql"
    return f"{scheme}://{rest}"


# --- SQL -------------------------------------------------------------------------------
# The statements both SQL storages ask are in :mod:`adapters.sql`; these are this one's.


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


#: The shared insert of a game (its text with ``:name`` parameters), returning the id
#: the database gives it (SQLite's cursor tells it instead).
_INSERT_GAME = sql.Sql.of(sql.INSERT_GAME.sqlite + " RETURNING id")
_INSERT_EVENT = sql.Sql.of(kept_events.INSERT_EVENT.sqlite + " RETURNING id")
#: The saves waiting at once, one statement: ``kozel_save_games`` (first migration).
_SAVE_GAMES = "SELECT kozel_save_games($1::json)"
#: The most saves one group commit writes; more wait for the next one.
MAX_BATCH = 256
#: Which of a refused save's actions were logged already.
_LOGGED = (
    "SELECT MIN(version) FROM game_actions WHERE game_id = $1 AND version = ANY($2::integer[])"
)


async def rate_game(conn: Connection, game: ratings.RatedGame) -> None:
    """Update the ratings of a finished game's players (:mod:`adapters.ratings`), in
    the caller's transaction, which keeps its result; a game rated already changes
    nothing. Two statements: the rows made if missing and locked, then the update."""
    made = [_json(rows) for _, rows in kept_ratings.new_rows(game)]
    found = await conn.fetch(kept_ratings.MADE_AND_LOCKED, *made, game.game_id)
    if not found:
        return
    _, statements = kept_ratings.writes(game, [dict(row) for row in found])
    await conn.execute(kept_ratings.KEPT, *(_json(rows) for _, rows in statements))


async def _insert_game(conn: Connection, game: Game, row: GameRow) -> int:
    """Insert a new game's row and its seats (the caller holds a transaction); its id."""
    game_id = int(await conn.fetchval(*_INSERT_GAME.bind(row)))
    seats = participant_rows(game)
    if seats:
        await conn.executemany(
            sql.INSERT_PARTICIPANT.postgres,
            [sql.INSERT_PARTICIPANT.args({**s, "game_id": game_id}) for s in seats],
        )
    return game_id


class PostgresStorage:
    """A :class:`~bot.ports.Storage` in a PostgreSQL database. Open it with :meth:`open`."""

    def __init__(
        self,
        pool: asyncpg.Pool[Record],
        schema_version: int,
        now: Callable[[], float] = time.time,
        reads: asyncpg.Pool[Record] | None = None,
    ) -> None:
        self._pool = pool
        #: Statistics and leaderboards read here, never taking the writer's
        #: connections (None: the one pool serves them too).
        self._reads = pool if reads is None else reads
        #: Saves waiting for the writer, each with the future its caller awaits.
        self._queue: list[tuple[dict[str, Any], asyncio.Future[dict[str, Any]]]] = []
        self._writer: asyncio.Task[None] | None = None
        #: The schema version the database was at once migrated.
        self.schema_version = schema_version
        #: Every save snapshots the game's series: this keeps the deals' text.
        self._snapshots = Snapshots()
        self._now = now

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        min_size: int = 2,
        max_size: int = 10,
        read_size: int = READ_POOL,
        now: Callable[[], float] = time.time,
    ) -> PostgresStorage:
        """Connect a pool to the database at ``url`` (``postgresql://...``) and migrate
        it (under the migrations' advisory lock). ``now`` stamps saved users.

        Statistics and leaderboards read through a second pool of up to ``read_size``
        connections (0: through the first one), so however many are asked at once
        the saves keep their connections."""
        pool = await asyncpg.create_pool(dsn(url), min_size=min_size, max_size=max_size)
        reads = None
        try:
            async with pool.acquire() as conn:
                version = await migrate(conn)
            if read_size > 0:
                reads = await asyncpg.create_pool(
                    dsn(url), min_size=1, max_size=read_size, command_timeout=READ_TIMEOUT
                )
        except BaseException:
            await pool.close()
            raise
        return cls(pool, version, now, reads)

    async def close(self) -> None:
        """Finish the queued saves and the running transactions, then close the pool;
        closing twice is harmless."""
        if self._writer is not None:
            await asyncio.wait([self._writer])
        await self._pool.close()
        if self._reads is not self._pool:
            await self._reads.close()

    async def __aenter__(self) -> PostgresStorage:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

    @property
    def pool(self) -> asyncpg.Pool[Record]:
        """The connection pool, for tests and maintenance."""
        return self._pool

    # --- Users and chats -------------------------------------------------------------

    async def get_user(self, ref: UserRef) -> User | None:
        row = await self._pool.fetchrow(
            *sql.GET_USER.bind({"platform": ref.platform.value, "id": ref.id})
        )
        return None if row is None else user_from_row(dict(row))

    async def save_user(self, user: User) -> None:
        row = {**user_to_row(user), "updated_at": float(self._now())}
        await self._pool.execute(*sql.SAVE_USER.bind(row))

    async def get_chat(self, ref: ChatRef) -> ChatInfo | None:
        row = await self._pool.fetchrow(
            *sql.GET_CHAT.bind({"platform": ref.platform.value, "id": ref.id})
        )
        return None if row is None else chat_from_row(dict(row))

    async def save_chat(self, chat: ChatInfo) -> None:
        await self._pool.execute(*sql.SAVE_CHAT.bind(chat_to_row(chat)))

    # --- Games ------------------------------------------------------------------------

    async def create_game(self, game: Game) -> Game:
        """Store a new game; return a copy of it with the id the database gave it (the
        ``id`` passed in is ignored)."""
        row = game_to_row(game)
        async with self._pool.acquire() as conn, conn.transaction():
            row["id"] = await _insert_game(conn, game, row)
        return game_from_row(row)

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
        messages it owes, in one transaction: on any error nothing of it is kept."""
        new = check_actions(game, actions)
        owed_rows = check_owed(game, owed)
        earned_rows, progress_rows = achievement_rows(game, awards)
        row: GameRow = game_to_row(game, self._snapshots)
        save = {
            "game": row,
            "base": base,
            "participants": seat_rows(game.id, game.seats),
            "actions": new,
            "deals": [deal_row(game, outcome, game.updated_at) for outcome in deals],
            "series": None if series is None else series_row(game, series, game.updated_at),
            "owed": owed_rows,
            "achievements": earned_rows,
            "progress": progress_rows,
        }
        rated = None if series is None else ratings.rated_game(game, series.loser, game.updated_at)
        ended = ending_rows(game, endings)
        if rated is not None or ended:
            outcome = await self._save_ending(save, rated, ended, base)
        else:
            done: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
            self._queue.append((save, done))
            if self._writer is None or self._writer.done():
                self._writer = asyncio.create_task(
                    self._write_queued(), name="postgres-group-commit"
                )
            outcome = await done
        if "missing" in outcome:
            raise NoSuchGame(game.id)
        if "duplicate" in outcome:
            if outcome["duplicate"] != "game_actions_pkey":
                raise StorageError(f"game {game.id}: {outcome['duplicate']} refused the save")
            logged = await self._pool.fetchval(
                _LOGGED, game.id, [action["version"] for action in new]
            )
            raise DuplicateAction(game.id, -1 if logged is None else logged)
        if "error" in outcome:
            raise StorageError(f"game {game.id}: {outcome['state']} {outcome['error']}")
        if base is not None and outcome["stored"] != base:
            raise StaleGame(game.id, base, outcome["stored"])

    async def _save_ending(
        self,
        save: dict[str, Any],
        rated: ratings.RatedGame | None,
        ended: list[EndingRow],
        base: int | None,
    ) -> dict[str, Any]:
        """The save that ends a rated game, in a transaction of its own with its
        players' new ratings (the ratings are computed here, in Python) and their
        endings (:mod:`bot.reliability`): all are kept or none. Rare (once a game), so
        it skips the group commit."""
        async with self._pool.acquire() as conn, conn.transaction():
            outcome: dict[str, Any] = json.loads(await conn.fetchval(_SAVE_GAMES, _json([save])))[0]
            kept = not {"missing", "duplicate", "error"} & set(outcome)
            if kept and (base is None or outcome["stored"] == base):
                if rated is not None:
                    await rate_game(conn, rated)
                if ended:
                    insert = sql.INSERT_ENDING
                    await conn.executemany(insert.postgres, [insert.args(row) for row in ended])
        return outcome

    async def _write_queued(self) -> None:
        """The writer: commit the queued saves, a batch at a time, until none is left."""
        batch: list[tuple[dict[str, Any], asyncio.Future[dict[str, Any]]]] = []
        try:
            while self._queue:
                batch = [item for item in self._queue[:MAX_BATCH] if not item[1].done()]
                del self._queue[:MAX_BATCH]
                if not batch:
                    continue
                # Every batch locks its games' rows in the order of their ids (a
                # stable sort: one game's saves keep their order), so the batches of
                # two processes never wait on each other in a cycle (a deadlock).
                batch.sort(key=lambda item: int(item[0]["game"]["id"]))
                try:
                    text = await self._pool.fetchval(
                        _SAVE_GAMES, _json([save for save, _ in batch])
                    )
                    outcomes: list[Any] = json.loads(text)
                except Exception as error:  # the connection broke, say: the batch fails
                    outcomes = [error] * len(batch)
                for (_, done), outcome in zip(batch, outcomes, strict=True):
                    if done.done():  # the caller was cancelled
                        continue
                    if isinstance(outcome, Exception):
                        done.set_exception(outcome)
                    else:
                        done.set_result(outcome)
                batch = []
        finally:
            # Only if the writer itself was cancelled or broke: nobody may wait forever.
            for _, done in [*batch, *self._queue]:
                done.cancel()
            self._queue.clear()

    # --- Owed messages and send times ----------------------------------------------------

    async def owed_messages(self) -> list[Owed]:
        rows = await self._pool.fetch(*sql.OWED_MESSAGES.bind())
        return [owed_from_row(dict(row)) for row in rows]

    async def message_sent(self, owed: Owed) -> None:
        key = {"game_id": owed.game_id, "version": owed.version, "idx": owed.index}
        await self._pool.execute(*sql.MESSAGE_SENT.bind(key))

    async def send_times(self, platform: Platform) -> dict[str, list[float]]:
        rows = await self._pool.fetch(*sql.SEND_TIMES.bind({"platform": platform.value}))
        return {row["chat_id"]: send_times_from_text(row["times"]) for row in rows}

    async def save_send_times(self, platform: Platform, chat: str, times: Sequence[float]) -> None:
        row = {"platform": platform.value, "chat_id": chat, "times": send_times_to_text(times)}
        await self._pool.execute(*sql.SAVE_SEND_TIMES.bind(row))

    async def last_alive(self) -> dict[Platform, float]:
        rows = await self._pool.fetch(*sql.LAST_ALIVE.bind())
        return {Platform(row["platform"]): row["at"] for row in rows}

    async def save_alive(self, platforms: Collection[Platform], at: float) -> None:
        await self._pool.executemany(
            sql.SAVE_ALIVE.postgres,
            [sql.SAVE_ALIVE.args({"platform": platform.value, "at": at}) for platform in platforms],
        )

    async def load_game(self, game_id: int) -> Game | None:
        row = await self._pool.fetchrow(*sql.LOAD_GAME.bind({"id": game_id}))
        return None if row is None else await self._game(dict(row))

    async def open_game(self, chat: ChatRef) -> Game | None:
        rows = await self._pool.fetch(
            *sql.OPEN_GAMES.bind({"platform": chat.platform.value, "chat_id": chat.id})
        )
        for row in rows:  # one, unless a newer one was set aside
            game = await self._game(dict(row))
            if game is not None:
                return game
        return None

    async def active_games(self) -> list[Game]:
        rows = await self._pool.fetch(*sql.ACTIVE_GAMES.bind())
        games = [await self._game(dict(row)) for row in rows]
        return [game for game in games if game is not None]

    async def set_aside(self) -> dict[int, str]:
        """The games set aside (they no longer load), with the reason of each."""
        rows = await self._pool.fetch(*sql.SET_ASIDE.bind())
        return {row["game_id"]: row["reason"] for row in rows}

    async def _game(self, row: dict[str, Any]) -> Game | None:
        """The game of a row; a row that does not make one is set aside (logged, kept
        in ``set_aside_games`` and skipped by every read from then on): None."""
        try:
            return game_from_row(row)
        except CorruptGame as corrupt:
            sql.log_set_aside(log, corrupt, row)
            aside = sql.set_aside_row(corrupt, self._now())
            await self._pool.execute(*sql.INSERT_SET_ASIDE.bind(aside))
            return None

    async def game_actions(self, game_id: int) -> list[LoggedAction]:
        rows = await self._pool.fetch(*sql.GAME_ACTIONS.bind({"game_id": game_id}))
        return [action_from_row(dict(row)) for row in rows]

    # --- Results ------------------------------------------------------------------------

    async def record_deal(self, game: Game, outcome: DealOutcome, at: float) -> None:
        """Keep a deal's result once; a repeated call with the same number changes
        nothing (``ON CONFLICT DO NOTHING`` on the key)."""
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
        async with self._pool.acquire() as conn, conn.transaction():
            if await conn.fetchval(*sql.GAME_EXISTS.bind({"id": game.id})) is None:
                raise NoSuchGame(game.id)
            await conn.execute(*insert.bind(row))
            if rated is not None:
                await rate_game(conn, rated)

    # --- Achievements -----------------------------------------------------------------------

    async def achievement_progress(self, users: Collection[UserRef]) -> dict[UserRef, Progress]:
        progress: list[dict[str, Any]] = []
        held: list[dict[str, Any]] = []
        for parameters in sql.four_users(list(users)):
            rows = await self._pool.fetch(*sql.ACHIEVEMENT_PROGRESS.bind(parameters))
            progress += [dict(row) for row in rows]
            rows = await self._pool.fetch(*sql.ACHIEVEMENTS_HELD.bind(parameters))
            held += [dict(row) for row in rows]
        return progress_from_rows(users, progress, held)

    async def achievements_of(self, user: UserRef) -> list[Earned]:
        parameters = {"platform": user.platform.value, "user_id": user.id}
        rows = await self._reads.fetch(*sql.ACHIEVEMENTS_OF.bind(parameters))
        return [earned_from_row(dict(row)) for row in rows]

    async def achievements_earned(self, game_id: int, version: int) -> list[Earned]:
        parameters = {"game_id": game_id, "version": version}
        rows = await self._pool.fetch(*sql.ACHIEVEMENTS_EARNED.bind(parameters))
        return [earned_from_row(dict(row)) for row in rows]

    # --- Statistics -----------------------------------------------------------------------

    async def reliability(self, user: UserRef, last: int = WINDOW) -> Reliability:
        """Read on the read pool, apart from the saves, as :meth:`user_stats`."""
        parameters = {"platform": user.platform.value, "user_id": user.id, "last": last}
        rows = await self._read(sql.RELIABILITY, parameters)
        return reliability_from_row(rows[0])

    async def user_stats(self, user: UserRef, rule_set: str | None = None) -> UserStats | None:
        """The user's totals over the human seats he took in playing or finished games
        (of ``rule_set`` if given); None if he never took one. One statement, on the
        read pool: the totals and the name agree with each other."""
        parameters = {"platform": user.platform.value, "user_id": user.id, "rule_set": rule_set}
        totals = await self._reads.fetchrow(*sql.USER_TOTALS.bind(parameters))
        if totals is None:  # pragma: no cover - an aggregate returns a row
            raise RuntimeError("an aggregate query returned no row")
        return sql.user_stats(user, dict(totals))

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
        ``rule_set`` None: every rule set's games. Read on the read pool."""
        query = sql.leaderboard_query(platform, chat, limit, min_series, rule_set)
        if query is None:
            return []
        statement, parameters = query
        rows = await self._reads.fetch(*statement.bind(parameters))
        return leaderboard_rows(platform, rows)

    # --- Ratings ---------------------------------------------------------------------------

    async def rate(self, game: ratings.RatedGame) -> None:
        """Rate a finished game in a transaction of its own (maintenance, the
        benchmark); a game rated already changes nothing. A save that keeps a
        result rates its game itself."""
        async with self._pool.acquire() as conn, conn.transaction():
            await rate_game(conn, game)

    async def rating_board(
        self, platform: Platform, chat: ChatRef | None, board: ratings.Board, limit: int = 10
    ) -> list[ratings.BoardRow]:
        """The best rated players (:mod:`adapters.ratings`), on the read pool."""
        query = kept_ratings.board_query(platform, chat, board, limit)
        if query is None:
            return []
        statement, parameters = query
        rows = await self._reads.fetch(*statement.bind(parameters))
        return kept_ratings.board_rows(platform, [dict(row) for row in rows])

    async def player_ratings(self, user: UserRef) -> list[ratings.PlayerRating]:
        """A player's ratings, with his latest changes and best partner in each."""
        return await kept_ratings.player_ratings(user, self._read)

    async def game_ratings(self, game_id: int) -> tuple[ratings.RatingChange, ...]:
        """What a rated game changed (nothing: it was not rated)."""
        rows = await self._read(kept_ratings.GAME_CHANGES, {"game_id": game_id})
        return kept_ratings.changes_from_rows(rows)

    async def _read(self, statement: sql.Sql, values: Mapping[str, Any]) -> list[dict[str, Any]]:
        return [dict(row) for row in await self._reads.fetch(*statement.bind(values))]

    # --- Chats changing ids ---------------------------------------------------------------

    async def migrate_chat(self, old: ChatRef, new: ChatRef) -> None:
        """Move the old chat's games and settings to the new id, in one transaction.
        Settings already saved for the new id are newer, so they stay."""
        if (old.platform, old.id) == (new.platform, new.id):
            return
        ids = sql.chat_ids(old, new)
        async with self._pool.acquire() as conn, conn.transaction():
            for statement in (sql.MOVE_CHAT_GAMES, sql.COPY_CHAT, sql.DELETE_CHAT):
                await conn.execute(*statement.bind(ids))
            await conn.execute(*kept_ratings.MOVE_SEASON_RATINGS.bind(ids))

    # --- Secrets ----------------------------------------------------------------------

    async def secret(self, name: str) -> bytes:
        """The named key: the first caller's random bytes are kept (``ON CONFLICT DO
        NOTHING``), so every process on the database reads the same."""
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.execute(
                *sql.KEEP_SECRET.bind({"name": name, "value": secrets.token_bytes(32)})
            )
            value = await conn.fetchval(*sql.SECRET.bind({"name": name}))
        if value is None:  # pragma: no cover - the row was just inserted or was there
            raise RuntimeError(f"secret {name!r} was not kept")
        return bytes(value)

    # --- Duplicate challenges (adapters.challenges) -------------------------------------

    async def challenge(self, challenge_id: str) -> Challenge | None:
        rows = await self._read(kept_challenges.GET_CHALLENGE, {"id": challenge_id})
        return kept_challenges.challenge_from_row(rows[0]) if rows else None

    async def keep_challenge(self, challenge: Challenge) -> Challenge:
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.execute(
                *kept_challenges.KEEP_CHALLENGE.bind(kept_challenges.challenge_row(challenge))
            )
            row = await conn.fetchrow(*kept_challenges.GET_CHALLENGE.bind({"id": challenge.id}))
        if row is None:  # pragma: no cover - the row was just inserted or was there
            raise RuntimeError(f"challenge {challenge.id!r} was not kept")
        return kept_challenges.challenge_from_row(dict(row))

    async def challenge_plays(self, challenge_id: str, user: UserRef) -> list[Play]:
        values = {"challenge_id": challenge_id, "platform": user.platform.value}
        rows = await self._pool.fetch(*kept_challenges.PLAYS.bind({**values, "user_id": user.id}))
        return kept_challenges.plays_from_rows([dict(row) for row in rows])

    async def start_challenge_deal(
        self, game: Game, challenge: Challenge, deal: int, name: str
    ) -> Game:
        """The game, its seats, the entrant's deal and his entry, in one transaction."""
        row = game_to_row(game, self._snapshots)
        user = kept_challenges.player(game)
        async with self._pool.acquire() as conn, conn.transaction():
            game_id = await _insert_game(conn, game, row)
            try:
                await conn.execute(
                    *kept_challenges.INSERT_PLAY.bind(
                        kept_challenges.play_row(challenge, user, deal, game_id)
                    )
                )
            except asyncpg.UniqueViolationError:
                raise DealTaken(challenge.id, deal) from None
            await conn.execute(
                *kept_challenges.KEEP_ENTRANT.bind(
                    kept_challenges.entrant_row(challenge, user, name)
                )
            )
        row["id"] = game_id
        return game_from_row(row)

    async def challenge_standings(
        self, challenge: Challenge, user: UserRef | None, limit: int = 10
    ) -> Standings:
        return await kept_challenges.standings(self._read, challenge, user, limit)

    # --- Swiss evenings (adapters.events) -----------------------------------------------

    async def create_event(self, event: Event) -> Event:
        async with self._pool.acquire() as conn, conn.transaction():
            try:
                event_id = await conn.fetchval(*_INSERT_EVENT.bind(kept_events.event_row(event)))
            except asyncpg.UniqueViolationError:
                raise EventExists(event.chat) from None
            event = event.with_(id=int(event_id))
            rows = kept_events.team_rows(event)
            if rows:
                await conn.executemany(
                    kept_events.INSERT_TEAM.postgres,
                    [kept_events.INSERT_TEAM.args(row) for row in rows],
                )
        return event

    async def _event(self, conn: Connection, row: Record | None) -> Event | None:
        if row is None:
            return None
        key = {"event_id": row["id"]}
        teams = [dict(t) for t in await conn.fetch(*kept_events.TEAMS.bind(key))]
        tables = [dict(t) for t in await conn.fetch(*kept_events.TABLES.bind(key))]
        return kept_events.event_from_rows(dict(row), teams, tables)

    async def load_event(self, event_id: int) -> Event | None:
        async with self._pool.acquire() as conn:
            row = await conn.fetchrow(*kept_events.GET_EVENT.bind({"id": event_id}))
            return await self._event(conn, row)

    async def chat_event(self, chat: ChatRef) -> Event | None:
        values = {"platform": chat.platform.value, "chat_id": chat.id}
        async with self._pool.acquire() as conn:
            row = await conn.fetchrow(*kept_events.LIVE_IN_CHAT.bind(values))
            return await self._event(conn, row)

    async def events_to_resume(self) -> list[Event]:
        async with self._pool.acquire() as conn:
            rows = await conn.fetch(*kept_events.TO_RESUME.bind())
            return [e for row in rows if (e := await self._event(conn, row)) is not None]

    async def save_event(
        self, event: Event, base: int, new_tables: Sequence[tuple[EventTable, Game]] = ()
    ) -> Event:
        async with self._pool.acquire() as conn:
            async with conn.transaction():
                status = await conn.execute(
                    *kept_events.UPDATE_EVENT.bind(kept_events.update_row(event, base))
                )
                if status != "UPDATE 1":
                    raise StaleEvent(event.id)
                await conn.execute(*kept_events.DELETE_TEAMS.bind({"event_id": event.id}))
                for row in kept_events.team_rows(event):
                    await conn.execute(*kept_events.INSERT_TEAM.bind(row))
                for row in kept_events.result_rows(event):
                    await conn.execute(*kept_events.SET_RESULT.bind(row))
                for table, game in new_tables:
                    game_id = await _insert_game(conn, game, game_to_row(game, self._snapshots))
                    table = replace(table, game_id=game_id)
                    try:
                        await conn.execute(
                            *kept_events.INSERT_TABLE.bind(kept_events.table_row(event.id, table))
                        )
                    except asyncpg.UniqueViolationError:
                        raise StaleEvent(event.id) from None
            found = await conn.fetchrow(*kept_events.GET_EVENT.bind({"id": event.id}))
            kept = await self._event(conn, found)
        if kept is None:  # pragma: no cover - it was just saved
            raise StaleEvent(event.id)
        return kept

    async def game_end(self, game: Game) -> GameEnd:
        key = {"game_id": game.id}
        async with self._pool.acquire() as conn:
            series = [dict(r) for r in await conn.fetch(*kept_events.SERIES_LOSER.bind(key))]
            deals = [dict(r) for r in await conn.fetch(*kept_events.DEALS.bind(key))]
            walked = [dict(r) for r in await conn.fetch(*kept_events.WALKED_OUT.bind(key))]
        return kept_events.game_end(game, series, deals, walked)
