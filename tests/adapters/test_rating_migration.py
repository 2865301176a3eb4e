"""A database of the release before ratings (schema 7) gains them on the migration:
its finished games are rated in the order of their results, as a replay of its
history rates them (migration 0009, :func:`adapters.ratings.replay_history`).

``sqlite/fixtures/schema_v7.db`` was made by that release's code through its
``SqliteStorage``: 13 players (8 of Telegram, 5 of Discord) in three chats, 60
games over two months (November and December 2025) of both rule sets; most finished
with four humans, some with a computer or a player away, some cancelled or still
running.
"""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from adapters.postgres import PostgresStorage
from adapters.postgres import migrations as pg_migrations
from adapters.sqlite import SqliteStorage
from bot import ratings
from bot.models import GameStatus, Platform, UserRef
from bot.ratings import RatedGame
from core.seats import Team
from tests.bot.test_storage_ratings import finished

FIXTURE = Path(__file__).parent / "sqlite" / "fixtures" / "schema_v7.db"
PROGRESS = "SELECT platform, user_id, rated_games FROM achievement_progress"
TABLES = (
    "users",
    "chats",
    "games",
    "participants",
    "game_actions",
    "deal_results",
    "series_results",
)


def fixture_rows() -> dict[str, list[dict[str, Any]]]:
    with sqlite3.connect(FIXTURE) as old:
        old.row_factory = sqlite3.Row
        rows = {
            table: [dict(row) for row in old.execute(f"SELECT * FROM {table}")] for table in TABLES
        }
    old.close()
    return rows


def history(rows: Mapping[str, list[dict[str, Any]]]) -> list[RatedGame]:
    """The games a replay rates, read from the tables as they were: finished, four
    humans of the game's platform, four users; in the order of their results."""
    games = {row["id"]: row for row in rows["games"]}
    seats: dict[int, list[dict[str, Any]]] = {}
    for row in rows["participants"]:
        seats.setdefault(row["game_id"], []).append(row)
    found = []
    for result in sorted(rows["series_results"], key=lambda r: (r["at"], r["game_id"])):
        game = games[result["game_id"]]
        taken = sorted(seats.get(game["id"], []), key=lambda r: r["seat"])
        users = tuple(row["user_id"] for row in taken)
        if (
            game["status"] != GameStatus.FINISHED.value
            or len(taken) != 4
            or any(row["kind"] != "human" or row["platform"] != game["platform"] for row in taken)
            or len(set(users)) != 4
        ):
            continue
        found.append(
            RatedGame(
                game["id"],
                game["platform"],
                game["chat_id"],
                result["rule_set"],
                result["at"],
                users,  # type: ignore[arg-type]
                result["loser"],
            )
        )
    return found


def rated_counts(games: Iterable[RatedGame]) -> dict[tuple[str, str], int]:
    """Each player's rated games: what migration 0008 counts towards the career
    achievements (``achievement_progress.rated_games``)."""
    counts: dict[tuple[str, str], int] = {}
    for game in games:
        for user in game.players:
            counts[(game.platform, user)] = counts.get((game.platform, user), 0) + 1
    return counts


def replayed(games: Iterable[RatedGame]) -> dict[tuple[str, ratings.Key], ratings.Skill]:
    out = {}
    games = list(games)
    for platform in {game.platform for game in games}:
        book, _ = ratings.replay(game for game in games if game.platform == platform)
        out.update({(platform, key): skill for key, skill in book.items()})
    return out


def kept(rows: Iterable[Mapping[str, Any]]) -> dict[tuple[str, ratings.Key], tuple[Any, ...]]:
    out = {}
    for row in rows:
        scope = (row["chat_id"], row["season"]) if "season" in row else None
        key = (scope, row["rule_set"], row["user_id"])
        out[(row["platform"], key)] = (
            round(row["mu"], 9),
            round(row["sigma"], 9),
            row["rating"],
            row["best"],
            row["games"],
            row["wins"],
        )
    return out


def as_kept(book: Mapping[tuple[str, ratings.Key], ratings.Skill]) -> dict[Any, tuple[Any, ...]]:
    return {
        key: (round(s.mu, 9), round(s.sigma, 9), s.rating, s.best, s.games, s.wins)
        for key, s in book.items()
    }


def test_the_fixture_is_a_schema_7_database_with_rated_and_unrated_games() -> None:
    with sqlite3.connect(FIXTURE) as old:
        assert old.execute("PRAGMA user_version").fetchone()[0] == 7
    old.close()
    rows = fixture_rows()
    rated = history(rows)
    assert 30 <= len(rated) < len(rows["series_results"])
    assert {game.platform for game in rated} == {"telegram", "discord"}
    assert {game.season for game in rated} == {"2025-11", "2025-12"}


async def test_an_sqlite_database_of_the_release_before_gains_the_replayed_ratings(
    tmp_path: Path,
) -> None:
    path = tmp_path / "kozel.sqlite3"
    shutil.copy(FIXTURE, path)
    rows = fixture_rows()
    want = replayed(history(rows))
    async with await SqliteStorage.open(path) as storage:
        db = storage.connection
        got: dict[Any, tuple[Any, ...]] = {}
        for table in ("ratings", "season_ratings"):
            async with db.execute(f"SELECT * FROM {table}") as cursor:
                names = [c[0] for c in cursor.description]
                got.update(kept(dict(zip(names, r, strict=True)) for r in await cursor.fetchall()))
        assert got == as_kept(want)
        async with db.execute("SELECT COUNT(*) FROM rating_changes") as cursor:
            assert (await cursor.fetchone())[0] == 4 * len(history(rows))  # type: ignore[index]
        async with db.execute(PROGRESS) as cursor:
            progress = {(r[0], r[1]): r[2] for r in await cursor.fetchall()}
        assert progress == rated_counts(history(rows))
        await goes_on_from_the_replay(storage, want)


async def goes_on_from_the_replay(
    storage: SqliteStorage | PostgresStorage,
    want: Mapping[tuple[str, ratings.Key], ratings.Skill],
) -> None:
    """A game finished after the migration starts from the replayed ratings."""
    telegram = sorted(
        {key[2] for (platform, key) in want if platform == "telegram" and key[0] is None}
    )[:4]
    players = [UserRef(Platform.TELEGRAM, user) for user in telegram]
    game = await finished(storage, players, Team.B)
    changes = await storage.game_ratings(game.id)
    assert [c.before for c in changes] == [
        want[("telegram", (None, "yard", user.id))].rating
        if ("telegram", (None, "yard", user.id)) in want
        else ratings.BASE
        for user in players
    ]


async def test_a_postgresql_database_of_the_release_before_gains_the_replayed_ratings(
    new_database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as patched:
        patched.setattr(pg_migrations, "MIGRATIONS", pg_migrations.MIGRATIONS[:7])
        patched.setattr(pg_migrations, "SCHEMA_VERSION", 7)
        async with await PostgresStorage.open(new_database) as storage:
            assert storage.schema_version == 7
    rows = fixture_rows()
    conn = await asyncpg.connect(new_database)
    try:
        for table in TABLES:
            if not rows[table]:
                continue
            columns = list(rows[table][0])
            values = ", ".join(f"${i}" for i in range(1, len(columns) + 1))
            await conn.executemany(
                f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({values})",
                [tuple(row[c] for c in columns) for row in rows[table]],
            )
        await conn.execute("SELECT setval('games_id_seq', (SELECT MAX(id) FROM games))")
    finally:
        await conn.close()
    want = replayed(history(rows))
    async with await PostgresStorage.open(new_database) as storage:
        got: dict[Any, tuple[Any, ...]] = {}
        for table in ("ratings", "season_ratings"):
            got.update(kept(dict(r) for r in await storage.pool.fetch(f"SELECT * FROM {table}")))
        assert got == as_kept(want)
        progress = {(r[0], r[1]): r[2] for r in await storage.pool.fetch(PROGRESS)}
        assert progress == rated_counts(history(rows))
        await goes_on_from_the_replay(storage, want)
