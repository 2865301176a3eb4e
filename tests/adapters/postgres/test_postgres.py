"""What only the PostgreSQL storage has: URLs, migrations under an advisory lock, the
schema version, the append-only log, a pool shared by concurrent writers.

The behaviour it shares with the other storages is pinned in tests/bot/test_storage.py,
which runs on this server too.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections import Counter
from dataclasses import replace
from typing import Any

import asyncpg
import pytest

from adapters.migrations import Migration, load
from adapters.postgres import (
    SCHEMA_VERSION,
    PostgresStorage,
    SchemaTooNew,
    dsn,
    is_postgres_url,
    migrations,
)
from adapters.postgres.local import LocalServer
from adapters.sqlite import SqliteStorage
from adapters.storage import describe, open_storage
from bot.models import ChatRef, Game, Platform, Seat, SeatKind, User, UserRef
from bot.ports import LoggedAction
from bot.ratings import RatedGame
from tests.adapters import release_v4
from tests.conftest import DATABASE

TG = Platform.TELEGRAM
ALICE = UserRef(TG, "1")
TABLES = {
    "users",
    "chats",
    "games",
    "game_actions",
    "participants",
    "deal_results",
    "series_results",
    "set_aside_games",
    "secrets",
    "owed_messages",
    "send_times",
    "alive",
    "achievements",
    "achievement_progress",
    "schema_migrations",
    "user_results",
    "chat_board",
    "platform_board",
    # 0009: ratings
    "ratings",
    "season_ratings",
    "rating_changes",
    "partners",
    # 0010: reliability
    "reliability",
    # challenges (docs/tournaments.md)
    "challenges",
    "challenge_plays",
    "challenge_entrants",
    "challenge_scores",
    "challenge_deal_totals",
    # Swiss evenings (docs/tournaments.md)
    "events",
    "event_teams",
    "event_tables",
}


def seated_game() -> Game:
    return Game(
        0, ChatRef(TG, "-100"), ALICE, seats=[Seat(SeatKind.HUMAN, "Alice", ALICE)] + [None] * 3
    )


async def applied(url: str) -> list[tuple[int, str]]:
    conn = await asyncpg.connect(url)
    try:
        exists = await conn.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL")
        if not exists:
            return []
        rows = await conn.fetch("SELECT version, name FROM schema_migrations ORDER BY version")
        return [(row["version"], row["name"]) for row in rows]
    finally:
        await conn.close()


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("postgresql://kozel@db/kozel", "postgresql://kozel@db/kozel"),
        ("POSTGRES://db/kozel", "POSTGRES://db/kozel"),
        ("postgresql+asyncpg://u:p@db:5433/k", "postgresql://u:p@db:5433/k"),
    ],
)
def test_postgresql_urls(url: str, expected: str) -> None:
    assert is_postgres_url(url)
    assert dsn(url) == expected


@pytest.mark.parametrize("url", ["sqlite:///kozel.db", "kozel.db", "mysql://db/kozel"])
def test_other_urls_are_not_postgresql(url: str) -> None:
    assert not is_postgres_url(url)
    with pytest.raises(ValueError, match="not a PostgreSQL URL"):
        dsn(url)


async def test_database_url_picks_the_storage(new_database: str, tmp_path: object) -> None:
    async with await open_storage(new_database) as storage:
        assert isinstance(storage, PostgresStorage)
        assert describe(storage) == f"PostgreSQL, schema version {SCHEMA_VERSION}"
        assert "host" not in describe(storage)  # the URL (and a password in it) stays out
    async with await open_storage(f"sqlite:///{tmp_path}/k.sqlite3") as sqlite:
        assert isinstance(sqlite, SqliteStorage)
        assert describe(sqlite).endswith(f"schema version {SCHEMA_VERSION}")


async def test_migrations_are_applied_once_and_the_version_is_visible(new_database: str) -> None:
    assert await applied(new_database) == []
    async with await PostgresStorage.open(new_database) as storage:
        assert storage.schema_version == SCHEMA_VERSION == len(migrations.MIGRATIONS)
        tables = await storage.pool.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
        )
        assert {row["tablename"] for row in tables} == TABLES
        await storage.save_user(User(ALICE, "Alice"))
    async with await PostgresStorage.open(new_database) as storage:
        assert storage.schema_version == SCHEMA_VERSION
        assert await storage.get_user(ALICE) == User(ALICE, "Alice")
    assert await applied(new_database) == [
        (1, "first_schema"),
        (2, "set_aside_games"),
        (3, "secrets"),
        (4, "owed_messages"),
        (5, "result_rule_sets"),
        (6, "result_totals"),
        (7, "alive"),
        (8, "achievements"),
        (9, "ratings"),
        (10, "reliability"),
        # Then every later one, in order (numbered at merge).
        *[(m.version, m.name) for m in load("adapters.postgres.migrations")[10:]],
    ]


async def test_processes_starting_at_once_apply_each_step_once(
    new_database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A second CREATE TABLE of the same name would fail the start that ran it.
    extra = Migration(SCHEMA_VERSION + 1, "extra", "CREATE TABLE extra (x INTEGER);")
    monkeypatch.setattr(migrations, "MIGRATIONS", (*migrations.MIGRATIONS, extra))
    monkeypatch.setattr(migrations, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    storages = await asyncio.gather(
        *(PostgresStorage.open(new_database, min_size=1) for _ in range(4))
    )
    try:
        assert [s.schema_version for s in storages] == [SCHEMA_VERSION + 1] * 4
    finally:
        await asyncio.gather(*(s.close() for s in storages))
    assert [step for step, _ in await applied(new_database)] == list(range(1, SCHEMA_VERSION + 2))


async def test_migrations_wait_for_the_advisory_lock(new_database: str) -> None:
    holder = await asyncpg.connect(new_database)
    try:
        await holder.execute("SELECT pg_advisory_lock($1)", migrations.LOCK_KEY)
        opening = asyncio.create_task(PostgresStorage.open(new_database, min_size=1))

        # The event: the start's session is queued on the lock. The server tells
        # nobody, so its lock table is read until it shows (30 s at most).
        for _ in range(3000):
            if await holder.fetchval(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
            ):
                break
            await asyncio.sleep(0.01)
        else:
            pytest.fail("the start never waited on the migrations' lock")
        assert not opening.done()
        assert await applied(new_database) == []
        await holder.execute("SELECT pg_advisory_unlock($1)", migrations.LOCK_KEY)
        storage = await asyncio.wait_for(opening, timeout=30)
        await storage.close()
    finally:
        await holder.close()
    assert len(await applied(new_database)) == SCHEMA_VERSION


async def test_a_failing_migration_leaves_the_version_before_it(
    new_database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with await PostgresStorage.open(new_database):
        pass
    broken = Migration(
        SCHEMA_VERSION + 1, "broken", "CREATE TABLE extra (x INTEGER);\nNOT SQL AT ALL;"
    )
    monkeypatch.setattr(migrations, "MIGRATIONS", (*migrations.MIGRATIONS, broken))
    monkeypatch.setattr(migrations, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    with pytest.raises(asyncpg.PostgresSyntaxError):
        await PostgresStorage.open(new_database)
    assert len(await applied(new_database)) == SCHEMA_VERSION
    conn = await asyncpg.connect(new_database)
    try:
        assert await conn.fetchval("SELECT to_regclass('extra')") is None
    finally:
        await conn.close()


async def test_a_database_of_the_release_before_rule_set_results_keeps_games_and_stats(
    new_database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rows of the release before results carried their rule set (the SQLite
    fixture of tests/adapters/release_v4.py, which that release wrote through the
    shared row codec) in a database of its schema (version 4): the next start migrates
    it; its games and stats are intact, its running game plays on."""
    with monkeypatch.context() as patched:
        patched.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS[:4])
        patched.setattr(migrations, "SCHEMA_VERSION", 4)
        async with await PostgresStorage.open(new_database) as storage:
            assert storage.schema_version == 4
    with sqlite3.connect(release_v4.FIXTURE) as old:
        old.row_factory = sqlite3.Row
        rows = {
            table: old.execute(f"SELECT * FROM {table}").fetchall() for table in release_v4.TABLES
        }
    old.close()
    conn = await asyncpg.connect(new_database)
    try:
        for table, table_rows in rows.items():
            columns = list(table_rows[0].keys())
            values = ", ".join(f"${i}" for i in range(1, len(columns) + 1))
            await conn.executemany(
                f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({values})",
                [tuple(row) for row in table_rows],
            )
    finally:
        await conn.close()
    async with await PostgresStorage.open(new_database) as storage:
        assert storage.schema_version == SCHEMA_VERSION
        await release_v4.check_games_and_stats(storage)


async def test_a_newer_schema_is_refused(new_database: str) -> None:
    async with await PostgresStorage.open(new_database) as storage:
        await storage.pool.execute(
            "INSERT INTO schema_migrations (version, name) VALUES ($1, 'future')",
            SCHEMA_VERSION + 1,
        )
    with pytest.raises(SchemaTooNew, match=f"version {SCHEMA_VERSION + 1}"):
        await PostgresStorage.open(new_database)


async def test_the_action_log_cannot_be_rewritten(postgres: PostgresStorage) -> None:
    game = await postgres.create_game(seated_game())
    game.version = 1
    first = LoggedAction(game.id, 1, 0, ALICE, {"seat": 0, "type": "lead"}, 1.0)
    await postgres.save_game(game, [first], base=0)
    for statement in ("UPDATE game_actions SET seat = 3", "DELETE FROM game_actions"):
        with pytest.raises(asyncpg.IntegrityConstraintViolationError, match="append-only"):
            await postgres.pool.execute(statement)
    assert await postgres.game_actions(game.id) == [first]


async def test_many_writers_racing_on_one_game_keep_one_action_per_version(
    postgres: PostgresStorage,
) -> None:
    """Writers on separate connections, as processes would be: for each version,
    eight saves race from the version before; exactly one is kept each time."""
    game = await postgres.create_game(seated_game())
    for version in range(1, 11):
        attempts = [
            postgres.save_game(
                Game(game.id, game.chat, ALICE, seats=game.seats, version=version),
                [LoggedAction(game.id, version, 0, ALICE, {"seat": 0, "w": w}, 1.0)],
                base=version - 1,
            )
            for w in range(8)
        ]
        results = await asyncio.gather(*attempts, return_exceptions=True)
        assert sum(result is None for result in results) == 1, results
    log = await postgres.game_actions(game.id)
    assert [a.version for a in log] == list(range(1, 11))
    stored = await postgres.load_game(game.id)
    assert stored is not None and stored.version == 10


async def test_concurrent_saves_share_one_statement_and_one_transaction(
    postgres: PostgresStorage, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = [await postgres.create_game(seated_game()) for _ in range(20)]
    statements: list[str] = []

    class Counting:
        """The pool, telling which statements the saves sent."""

        def __init__(self, pool: Any) -> None:
            self.pool = pool

        def __getattr__(self, name: str) -> Any:
            return getattr(self.pool, name)

        async def fetchval(self, query: str, *args: object) -> object:
            statements.append(query)
            return await self.pool.fetchval(query, *args)

    monkeypatch.setattr(postgres, "_pool", Counting(postgres.pool))
    for game in games:
        game.version = 1
    await asyncio.gather(
        *(
            postgres.save_game(game, [LoggedAction(game.id, 1, 0, ALICE, {"n": 1}, 1.0)], base=0)
            for game in games
        )
    )
    assert statements == ["SELECT kozel_save_games($1::json)"]
    for game in games:
        assert [a.version for a in await postgres.game_actions(game.id)] == [1]


async def test_a_save_cancelled_in_the_queue_keeps_nothing(postgres: PostgresStorage) -> None:
    game = await postgres.create_game(seated_game())
    game.version = 1
    first = asyncio.create_task(postgres.save_game(game, [], base=0))
    second = asyncio.create_task(
        postgres.save_game(
            replace(game, version=2), [LoggedAction(game.id, 2, 0, ALICE, {}, 1.0)], base=1
        )
    )
    await asyncio.sleep(0)  # a turn of the loop: both queued, the writer not run yet
    second.cancel()
    await first
    with pytest.raises(asyncio.CancelledError):
        await second
    stored = await postgres.load_game(game.id)
    assert stored is not None and stored.version == 1
    assert await postgres.game_actions(game.id) == []


async def test_two_processes_batches_of_the_same_games_do_not_deadlock(
    postgres: PostgresStorage, postgres_server: LocalServer
) -> None:
    """Regression: two processes' group commits locked the same games' rows in
    opposite orders, and PostgreSQL killed one as a deadlock."""
    other = await PostgresStorage.open(postgres_server.url(DATABASE), min_size=1)
    try:
        games = [await postgres.create_game(seated_game()) for _ in range(12)]
        for version in range(1, 6):
            results = await asyncio.gather(
                *(postgres.save_game(replace(g, version=version)) for g in games),
                *(other.save_game(replace(g, version=version)) for g in reversed(games)),
                return_exceptions=True,
            )
            assert all(result is None for result in results), results
    finally:
        await other.close()


async def test_two_processes_rating_games_of_the_same_players_lose_no_update(
    postgres: PostgresStorage, postgres_server: LocalServer
) -> None:
    """A game's rows are made, locked and read in one statement, in one order: two
    processes rating games of the same six players at once neither deadlock nor lose
    an update (each count is every game's), and a game rated again changes nothing."""
    other = await PostgresStorage.open(postgres_server.url(DATABASE), min_size=4)
    rng = random.Random(5)
    users = [str(n) for n in range(6)]
    games = [
        RatedGame(
            1_000 + n,
            TG.value,
            "-100",
            rng.choice(("yard", "classic")),
            1_764_547_200.0,
            tuple(rng.sample(users, 4)),  # type: ignore[arg-type]
            rng.randrange(2),
        )
        for n in range(40)
    ]
    try:
        results = await asyncio.gather(
            *((postgres if n % 2 else other).rate(game) for n, game in enumerate(games)),
            return_exceptions=True,
        )
        assert all(result is None for result in results), results
        for game in games[:5]:
            await other.rate(game)
    finally:
        await other.close()
    played: Counter[tuple[str, str]] = Counter()
    won: Counter[tuple[str, str]] = Counter()
    for game in games:
        for seat, user in enumerate(game.players):
            for rule_set in (game.rule_set, "*"):
                played[user, rule_set] += 1
                won[user, rule_set] += game.won(seat)
    rows = await postgres.pool.fetch("SELECT user_id, rule_set, games, wins FROM ratings")
    assert {(r["user_id"], r["rule_set"]): (r["games"], r["wins"]) for r in rows} == {
        key: (played[key], won[key]) for key in played
    }
    assert await postgres.pool.fetchval("SELECT count(*) FROM rating_changes") == 4 * len(games)
    assert await postgres.pool.fetchval("SELECT sum(games) FROM partners") == 2 * 4 * len(games)
