"""The statements the SQL storages share (:mod:`adapters.sql`): each one written once
must be valid in both dialects, against each one's migrated schema, with the
parameters it names; ``:name`` becomes ``$n`` the same way every time; and where
the dialects need other words (names sorted by code point) both answer alike."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from adapters import ratings, sql
from adapters.postgres import PostgresStorage
from adapters.postgres.local import LocalServer
from adapters.sqlite import SqliteStorage
from bot import ratings as ratings_model
from bot.models import ChatRef, Game, GameStatus, Platform, Seat, UserRef
from bot.ports import LeaderboardRow, Storage
from core.seats import Team
from tests.bot.test_storage import human, series_lost_by

STATEMENTS = {
    **{name: value for name, value in vars(sql).items() if isinstance(value, sql.Sql)},
    **{f"ratings.{name}": value for name, value in ratings.STATEMENTS.items()},
}


def test_the_module_shares_the_statements_of_every_part_of_the_storage() -> None:
    # A guard that the collection above finds them (a rename would empty it).
    assert {"INSERT_GAME", "USER_TOTALS", "CHAT_LEADERBOARD", "KEEP_SECRET"} <= set(STATEMENTS)
    assert {"ratings.PLATFORM_BOARD", "ratings.RATINGS_OF"} <= set(STATEMENTS)


async def test_every_shared_statement_is_valid_sqlite(tmp_path: Path) -> None:
    path = tmp_path / "k.sqlite3"
    await (await SqliteStorage.open(path)).close()  # migrated
    with sqlite3.connect(path) as db:
        for name, statement in STATEMENTS.items():
            assert "$" not in statement.sqlite, name
            parameters = dict.fromkeys(statement.names)
            try:
                db.execute("EXPLAIN " + statement.sqlite, parameters)
            except sqlite3.Error as error:
                pytest.fail(f"{name}: {error}")


async def test_every_shared_statement_is_valid_postgresql(postgres: PostgresStorage) -> None:
    async with postgres.pool.acquire() as conn:
        for name, statement in STATEMENTS.items():
            prepared = await conn.prepare(statement.postgres)
            assert len(prepared.get_parameters()) == len(statement.names), name


def test_a_parameter_named_twice_is_one_numbered_parameter_cast_everywhere() -> None:
    statement = sql.Sql.of("SELECT :b, :a::int, :b FROM t WHERE x = :a", casts={"b": "text"})
    assert statement.sqlite == "SELECT :b, :a::int, :b FROM t WHERE x = :a"
    assert statement.postgres == "SELECT $1::text, $2::int, $1::text FROM t WHERE x = $2"
    assert statement.names == ("b", "a")
    assert statement.args({"a": 1, "b": "x", "unused": 3}) == ("x", 1)
    with pytest.raises(KeyError):
        statement.args({"a": 1})


def test_a_cast_of_no_parameter_is_refused() -> None:
    with pytest.raises(ValueError, match="typo"):
        sql.Sql.of("SELECT :a", casts={"typo": "text"})


def test_inserts_that_skip_a_kept_row_say_so_in_each_dialect() -> None:
    assert sql.INSERT_DEAL.sqlite.startswith("INSERT OR IGNORE INTO deal_results")
    assert "ON CONFLICT" not in sql.INSERT_DEAL.sqlite
    assert sql.INSERT_DEAL.postgres.startswith("INSERT INTO deal_results")
    assert sql.INSERT_DEAL.postgres.endswith(" ON CONFLICT DO NOTHING")
    assert "OR IGNORE" not in sql.INSERT_GAME.sqlite + sql.INSERT_GAME.postgres


def test_the_leaderboard_asks_nothing_for_no_room_or_another_platforms_chat() -> None:
    telegram, discord = Platform.TELEGRAM, Platform.DISCORD
    assert sql.leaderboard_query(telegram, None, 0, 1, None) is None
    assert sql.leaderboard_query(telegram, ChatRef(discord, "-1"), 10, 1, None) is None
    assert sql.leaderboard_query(telegram, None, 10, 2, None) == (
        sql.PLATFORM_LEADERBOARD,
        {"platform": "telegram", "min_series": 2, "limit": 10, "rule_set": sql.EVERY_RULE_SET},
    )
    assert sql.leaderboard_query(telegram, ChatRef(telegram, "-1"), 5, 1, None) == (
        sql.CHAT_LEADERBOARD,
        {"platform": "telegram", "min_series": 1, "limit": 5, "rule_set": None, "chat_id": "-1"},
    )


# --- Ties sort by code point in both dialects -------------------------------------------

#: Tied players whose order by code point ("Bob" < "alice", "Zed" < "Émile") is not
#: a language's ("alice" < "Bob", "Émile" < "Zed"). Seats 0 and 2 (team A) win.
TIED = [("1", "alice"), ("2", "Zed"), ("3", "Bob"), ("4", "Émile")]
BY_CODE_POINT = [
    LeaderboardRow(UserRef(Platform.TELEGRAM, "3"), "Bob", 1, 1),
    LeaderboardRow(UserRef(Platform.TELEGRAM, "1"), "alice", 1, 1),
    LeaderboardRow(UserRef(Platform.TELEGRAM, "2"), "Zed", 1, 0),
    LeaderboardRow(UserRef(Platform.TELEGRAM, "4"), "Émile", 1, 0),
]


async def board_of_tied_players(storage: Storage) -> tuple[list[LeaderboardRow], ...]:
    chat = ChatRef(Platform.TELEGRAM, "-1")
    seats: list[Seat | None] = [
        human(UserRef(Platform.TELEGRAM, user), name) for user, name in TIED
    ]
    game = await storage.create_game(Game(0, chat, UserRef(Platform.TELEGRAM, "1"), seats=seats))
    game.status = GameStatus.FINISHED
    await storage.save_game(game, series=series_lost_by(Team.B))
    return (
        await storage.leaderboard(Platform.TELEGRAM, chat),
        await storage.leaderboard(Platform.TELEGRAM, None),
    )


async def test_ties_sort_by_code_point_on_sqlite(tmp_path: Path) -> None:
    async with await SqliteStorage.open(tmp_path / "k.sqlite3") as storage:
        assert await board_of_tied_players(storage) == (BY_CODE_POINT, BY_CODE_POINT)


async def test_ties_sort_by_code_point_whatever_the_postgresql_databases_collation(
    postgres_server: LocalServer, postgres: PostgresStorage
) -> None:
    name = f"kozel_icu_{os.urandom(6).hex()}"
    await postgres.pool.execute(
        f"CREATE DATABASE {name} TEMPLATE template0 ENCODING 'UTF8'"
        " LOCALE_PROVIDER icu ICU_LOCALE 'en' LOCALE 'C'"
    )
    async with await PostgresStorage.open(postgres_server.url(name), min_size=1) as storage:
        # The guard: this database's own order is the language's.
        english = await storage.pool.fetch(
            "SELECT n FROM unnest($1::text[]) AS n ORDER BY n", [n for _, n in TIED]
        )
        assert [row["n"] for row in english] == ["alice", "Bob", "Émile", "Zed"]
        assert await board_of_tied_players(storage) == (BY_CODE_POINT, BY_CODE_POINT)


def _season_board_parameters() -> dict[str, object]:
    found = ratings.board_query(
        Platform.TELEGRAM,
        ChatRef(Platform.TELEGRAM, "-1"),
        ratings_model.Board(season="2025-11"),
        10,
    )
    assert found is not None and found[0] is ratings.SEASON_BOARD
    return found[1]


async def test_a_past_seasons_board_is_an_index_read_in_sqlite(tmp_path: Path) -> None:
    # Any month's board reads the rows of its (chat, season) key, never the table.
    path = tmp_path / "k.sqlite3"
    await (await SqliteStorage.open(path)).close()  # migrated
    statement = ratings.SEASON_BOARD
    with sqlite3.connect(path) as db:
        plan = db.execute(
            "EXPLAIN QUERY PLAN " + statement.sqlite, _season_board_parameters()
        ).fetchall()
    details = [str(row[-1]) for row in plan]
    assert any(d.startswith("SEARCH season_ratings USING") and "INDEX" in d for d in details)
    assert not any(d.startswith("SCAN season_ratings") for d in details), details


async def test_a_past_seasons_board_is_an_index_read_in_postgresql(
    postgres: PostgresStorage,
) -> None:
    statement = ratings.SEASON_BOARD
    async with postgres.pool.acquire() as conn:
        await conn.execute("SET enable_seqscan = off")  # an index that fits is taken
        rows = await conn.fetch(
            "EXPLAIN " + statement.postgres, *statement.args(_season_board_parameters())
        )
        await conn.execute("RESET enable_seqscan")
    plan = "\n".join(str(row[0]) for row in rows)
    assert "Index" in plan and "season_ratings" in plan, plan
    assert "Seq Scan" not in plan, plan
