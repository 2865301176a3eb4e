"""The totals statistics and leaderboards read (migration 0006) always equal a full
count of the results, on SQLite and PostgreSQL: random histories of games (seats
taken and left, games started, finished, cancelled, moved to another chat, deal and
series results kept, some twice) go to the storage, and every player's statistics
and every leaderboard must be what the queries of schema 5 count from the results
themselves (:mod:`tests.adapters.schema5_counts`). Then the totals are dropped and
the migration rebuilds them from the results (its backfill): the answers stay the
same."""

from __future__ import annotations

import random
import re
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import asyncpg
import pytest

from adapters.postgres import PostgresStorage
from adapters.sqlite import SqliteStorage
from bot.models import (
    ChatRef,
    Game,
    GameStatus,
    Platform,
    Seat,
    SeatKind,
    TableSettings,
    User,
    UserRef,
)
from bot.ports import LeaderboardRow, Storage, UserStats
from core.ruleset import EGGS_TITLES, DealOutcome, GameOutcome
from core.seats import Team
from tests.adapters import schema5_counts

PLATFORMS = (Platform.TELEGRAM, Platform.DISCORD)
USERS = [UserRef(platform, str(n)) for platform in PLATFORMS for n in range(1, 7)]
CHATS = [ChatRef(platform, f"-{n}") for platform in PLATFORMS for n in range(1, 4)]
RULE_SETS = ("yard", "classic")
TITLES = ("goats", *sorted(EGGS_TITLES))
MIGRATIONS = Path(__file__).parents[2] / "adapters"


def random_seats(rng: random.Random, platform: Platform) -> list[Seat | None]:
    seats: list[Seat | None] = []
    for _ in range(4):
        roll = rng.random()
        if roll < 0.6:
            # Mostly the chat's platform; now and then a user of another one, or a
            # user twice at one table: rows no query may count wrongly either.
            user = rng.choice(
                [u for u in USERS if u.platform is platform] if rng.random() < 0.9 else USERS
            )
            seats.append(Seat(SeatKind.HUMAN, f"{user.id}-{rng.randrange(3)}", user))
        elif roll < 0.85:
            seats.append(Seat(SeatKind.COMPUTER, "Bot", level="baseline"))
        else:
            seats.append(None)
    return seats


def random_deal(rng: random.Random, number: int) -> DealOutcome:
    winner = rng.choice([Team.A, Team.B, None])
    points = (rng.randrange(121), rng.randrange(121))
    return DealOutcome(
        number, winner, points, (rng.randrange(9), rng.randrange(9)), (2, 0), rng.random() < 0.2
    )


def random_series(rng: random.Random) -> GameOutcome:
    return GameOutcome(
        rng.choice([Team.A, Team.B]), rng.choice(TITLES), (12, 2), 3, rng.randrange(3)
    )


async def play_history(rng: random.Random, storage: Storage, steps: int) -> None:
    """A random history of games, through the storage's own methods."""
    games: list[Game] = []
    deals: dict[int, int] = {}  # by game: the deals numbered so far
    for _ in range(steps):
        roll = rng.random()
        if roll < 0.2 or not games:
            chat = rng.choice(CHATS)
            status = rng.choice([GameStatus.LOBBY, GameStatus.PLAYING, GameStatus.PLAYING])
            settings = TableSettings(rule_set=rng.choice(RULE_SETS))
            seats = random_seats(rng, chat.platform)
            games.append(
                await storage.create_game(Game(0, chat, USERS[0], status, settings, seats))
            )
            continue
        game = rng.choice(games)
        if roll < 0.35:  # seats change
            game.seats = random_seats(rng, game.chat.platform)
            await storage.save_game(game)
        elif roll < 0.5:  # the game starts, ends or is cancelled (or worse)
            game.status = rng.choice(list(GameStatus))
            await storage.save_game(game)
        elif roll < 0.55:  # the chat changes its id
            old = game.chat
            new = rng.choice([chat for chat in CHATS if chat.platform is old.platform])
            await storage.migrate_chat(old, new)
            for other in games:
                if other.chat == old:
                    other.chat = new
        elif roll < 0.65:
            await storage.save_user(User(rng.choice(USERS), f"saved-{rng.randrange(5)}"))
        elif roll < 0.85:  # a deal's result, kept by a save or on its own (again, maybe)
            number = deals.get(game.id, 0)
            if rng.random() < 0.2 and number:
                number -= 1  # repeated: kept once
            deals[game.id] = max(number + 1, deals.get(game.id, 0))
            outcome = random_deal(rng, number)
            if rng.random() < 0.5:
                await storage.save_game(game, deals=[outcome])
            else:
                await storage.record_deal(game, outcome, 1.0)
        else:  # the series' result (again, maybe: kept once)
            outcome = random_series(rng)
            if rng.random() < 0.7:
                game.status = GameStatus.FINISHED
                await storage.save_game(game, series=outcome)
            else:
                await storage.record_series(game, outcome, 1.0)


class FullCount(Protocol):
    """Schema 5's count of one storage's database."""

    async def user_stats(self, user: UserRef, rule_set: str | None) -> UserStats | None: ...

    async def leaderboard(
        self,
        platform: Platform,
        chat: ChatRef | None,
        limit: int,
        min_series: int,
        rule_set: str | None,
    ) -> list[LeaderboardRow]: ...


class SqliteCount:
    def __init__(self, path: Path) -> None:
        self.path = path

    async def user_stats(self, user: UserRef, rule_set: str | None) -> UserStats | None:
        with closing(self._connect()) as db:
            return schema5_counts.sqlite_user_stats(db, user, rule_set)

    async def leaderboard(
        self,
        platform: Platform,
        chat: ChatRef | None,
        limit: int,
        min_series: int,
        rule_set: str | None,
    ) -> list[LeaderboardRow]:
        with closing(self._connect()) as db:
            return schema5_counts.sqlite_leaderboard(
                db, platform, chat, limit, min_series, rule_set
            )

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path)
        db.row_factory = sqlite3.Row
        return db


class PostgresCount:
    def __init__(self, url: str) -> None:
        self.url = url
        self._conn: asyncpg.Connection[Any] | None = None

    async def user_stats(self, user: UserRef, rule_set: str | None) -> UserStats | None:
        return await schema5_counts.postgres_user_stats(await self._connect(), user, rule_set)

    async def leaderboard(
        self,
        platform: Platform,
        chat: ChatRef | None,
        limit: int,
        min_series: int,
        rule_set: str | None,
    ) -> list[LeaderboardRow]:
        return await schema5_counts.postgres_leaderboard(
            await self._connect(), platform, chat, limit, min_series, rule_set
        )

    async def _connect(self) -> asyncpg.Connection[Any]:
        if self._conn is None:
            self._conn = await asyncpg.connect(self.url)
        return self._conn

    async def close(self) -> None:
        if self._conn is not None:
            await self._conn.close()
            self._conn = None


async def assert_same_answers(storage: Storage, reference: FullCount) -> None:
    for user in [*USERS, UserRef(Platform.TELEGRAM, "nobody")]:
        for rule_set in (None, *RULE_SETS):
            assert await storage.user_stats(user, rule_set) == await reference.user_stats(
                user, rule_set
            ), (user, rule_set)
    for platform in PLATFORMS:
        for chat in [None, *CHATS]:
            for rule_set in (None, *RULE_SETS):
                for min_series, limit in ((0, 100), (1, 100), (2, 3), (3, 10), (1, 1)):
                    answer = await storage.leaderboard(platform, chat, limit, min_series, rule_set)
                    expected = await reference.leaderboard(
                        platform, chat, limit, min_series, rule_set
                    )
                    assert answer == expected, (platform, chat, rule_set, min_series, limit)


#: The tables of the migrations after 0007 (0008's achievements, 0009's ratings,
#: 0010's reliability).
LATER_TABLES = ("achievements", "achievement_progress")
LATER_TABLES += ("ratings", "season_ratings", "rating_changes", "partners")
LATER_TABLES += ("reliability",)
#: The challenges' (docs/tournaments.md), with the trigger on deal_results that keeps them.
LATER_TABLES += ("challenge_plays", "challenge_entrants", "challenge_scores")
LATER_TABLES += ("challenge_deal_totals", "challenges")
#: The Swiss evenings' (docs/tournaments.md), tables before the events they name.
LATER_TABLES += ("event_tables", "event_teams", "events")


def migration_objects(dialect: str) -> tuple[list[str], list[str]]:
    """The tables and the triggers (SQLite) or functions (PostgreSQL) 0006 makes."""
    sql = (MIGRATIONS / dialect / "migrations" / "0006_result_totals.sql").read_text()
    tables = re.findall(r"^CREATE TABLE (\w+)", sql, re.MULTILINE)
    routines = re.findall(r"^CREATE (?:TRIGGER|FUNCTION) (\w+)", sql, re.MULTILINE)
    return tables, routines


async def back_to_schema_5_sqlite(path: Path) -> None:
    tables, triggers = migration_objects("sqlite")
    storage = await SqliteStorage.open(path)
    db = storage.connection
    for trigger in triggers:
        await db.execute(f"DROP TRIGGER {trigger}")
    await db.execute("DROP VIEW seat_tally")
    for table in tables:
        await db.execute(f"DROP TABLE {table}")
    await db.execute("DROP INDEX participants_by_user")
    await db.execute("CREATE INDEX participants_by_user ON participants (platform, user_id)")
    await db.execute("DROP TABLE alive")  # 0007's, made after 0006
    await db.execute("DROP TRIGGER challenge_deal_scored")
    for table in LATER_TABLES:
        await db.execute(f"DROP TABLE {table}")
    await db.execute("ALTER TABLE chats DROP COLUMN pictures")  # 0008's
    await db.execute("PRAGMA user_version = 5")
    await storage.close()


async def back_to_schema_5_postgres(url: str) -> None:
    tables, routines = migration_objects("postgres")
    conn = await asyncpg.connect(url)
    try:
        functions = [name for name in routines if name.startswith("kozel_")]
        await conn.execute(f"DROP FUNCTION {', '.join(functions)} CASCADE")
        await conn.execute(f"DROP TABLE {', '.join(tables)}, alive")  # and 0007's
        await conn.execute("DROP FUNCTION challenge_deal_scored CASCADE")
        await conn.execute(f"DROP TABLE {', '.join(LATER_TABLES)}")
        await conn.execute("ALTER TABLE chats DROP COLUMN pictures")  # 0008's
        await conn.execute("DROP INDEX participants_by_user")
        await conn.execute("CREATE INDEX participants_by_user ON participants (platform, user_id)")
        await conn.execute("DELETE FROM schema_migrations WHERE version >= 6")
    finally:
        await conn.close()


@dataclass
class Case:
    """How to open the storage, take its database back to schema 5, count in full."""

    open: Callable[[], Awaitable[Storage]]
    back_to_schema_5: Callable[[], Awaitable[None]]
    full_count: FullCount


@pytest.fixture(params=["sqlite", "postgres"])
async def case(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Case]:
    if request.param == "sqlite":
        path = tmp_path / "kozel.sqlite3"

        async def open_sqlite() -> Storage:
            return await SqliteStorage.open(path)

        yield Case(open_sqlite, lambda: back_to_schema_5_sqlite(path), SqliteCount(path))
        return
    url = request.getfixturevalue("new_database")

    async def open_postgres() -> Storage:
        return await PostgresStorage.open(url, min_size=1)

    count = PostgresCount(url)
    try:
        yield Case(open_postgres, lambda: back_to_schema_5_postgres(url), count)
    finally:
        await count.close()


async def close(storage: Storage) -> None:
    assert isinstance(storage, SqliteStorage | PostgresStorage)
    await storage.close()


@pytest.mark.parametrize("seed", range(6))
async def test_the_totals_equal_a_full_count_of_the_results(seed: int, case: Case) -> None:
    rng = random.Random(seed)
    storage = await case.open()
    try:
        await play_history(rng, storage, steps=120)
        await assert_same_answers(storage, case.full_count)
    finally:
        await close(storage)
    # The migration counts the same from the results it finds.
    await case.back_to_schema_5()
    storage = await case.open()
    try:
        await assert_same_answers(storage, case.full_count)
        await play_history(rng, storage, steps=40)
        await assert_same_answers(storage, case.full_count)
    finally:
        await close(storage)


@pytest.mark.parametrize("dialect", ["sqlite", "postgres"])
def test_the_totals_know_the_titles_with_eggs(dialect: str) -> None:
    """The migration names the titles a goat with eggs has: every one of EGGS_TITLES
    (a new title would need a migration that recounts)."""
    sql = (MIGRATIONS / dialect / "migrations" / "0006_result_totals.sql").read_text()
    named = re.findall(r"title IN \('(\w+)', '(\w+)'\)", sql)
    assert named and all(set(titles) == EGGS_TITLES for titles in named)
