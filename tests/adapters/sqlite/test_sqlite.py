"""What only the SQLite storage has: a file, a schema, pragmas, a crash, concurrency.

The behaviour it shares with MemoryStorage is pinned in tests/bot/test_storage.py.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from adapters.sqlite import SCHEMA_VERSION, SchemaTooNew, SqliteStorage, database_path, migrations
from bot.models import ChatRef, Game, GameStatus, Platform, Seat, SeatKind, User, UserRef
from bot.ports import ChatInfo, LoggedAction, Owed, OwedKind
from bot.rows import DatabaseInUse, DuplicateAction
from core.seats import Team
from core.yard.events import DealResult, SeriesResult, Title
from core.yard.ruleset import deal_outcome, game_outcome
from tests.adapters import release_v4

ROOT = Path(__file__).resolve().parents[3]
TG = Platform.TELEGRAM
ALICE = UserRef(TG, "1")
BOB = UserRef(TG, "2")
CHAT = ChatRef(TG, "-100", "7")
TABLES = {
    "users",
    "chats",
    "games",
    "game_actions",
    "participants",
    "deal_results",
    "series_results",
    "owed_messages",
    "send_times",
    "alive",
    "secrets",
}


async def scalar(storage: SqliteStorage, sql: str, parameters: tuple[object, ...] = ()) -> object:
    async with storage.connection.execute(sql, parameters) as cursor:
        row = await cursor.fetchone()
    assert row is not None
    return row[0]


def seated_game(chat: ChatRef = CHAT) -> Game:
    return Game(
        0,
        chat,
        ALICE,
        seats=[
            Seat(SeatKind.HUMAN, "Alice", ALICE),
            Seat(SeatKind.COMPUTER, "Bot"),
            None,
            Seat(SeatKind.HUMAN, "Bob", BOB),
        ],
    )


def action(game: Game, version: int) -> LoggedAction:
    return LoggedAction(game.id, version, 0, ALICE, {"seat": 0, "type": "lead"}, float(version))


# --- Opening --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "path"),
    [
        ("sqlite:///./data/kozel.sqlite3", "./data/kozel.sqlite3"),
        ("sqlite:///data/kozel.sqlite3", "data/kozel.sqlite3"),
        ("sqlite:////var/lib/kozel/db.sqlite3", "/var/lib/kozel/db.sqlite3"),
        ("sqlite+aiosqlite:///kozel.db", "kozel.db"),
        ("SQLITE:///kozel.db", "kozel.db"),
        ("sqlite:///my%20games.db", "my games.db"),
        ("sqlite://", ":memory:"),
        ("sqlite:///:memory:", ":memory:"),
        ("data/kozel.sqlite3", "data/kozel.sqlite3"),
        (Path("/tmp/k.db"), "/tmp/k.db"),
    ],
)
def test_database_path(target: str | Path, path: str) -> None:
    assert database_path(target) == path


@pytest.mark.parametrize(
    "target",
    ["postgresql://localhost/kozel", "sqlite://host/kozel.db", "sqlite:///kozel.db?mode=ro"],
)
def test_database_path_refuses_other_urls(target: str) -> None:
    with pytest.raises(ValueError):
        database_path(target)


async def test_open_a_url_creates_the_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    async with await SqliteStorage.open("sqlite:///./data/deep/kozel.sqlite3") as storage:
        await storage.save_user(User(ALICE, "Alice"))
    assert (tmp_path / "data" / "deep" / "kozel.sqlite3").is_file()


async def test_in_memory_database_works() -> None:
    async with await SqliteStorage.open("sqlite://") as storage:
        game = await storage.create_game(seated_game())
        assert await storage.load_game(game.id) == game


async def test_context_manager_closes(db_file: Path) -> None:
    async with await SqliteStorage.open(db_file) as storage:
        pass
    with pytest.raises(ValueError, match="closed"):
        await storage.get_user(ALICE)
    await storage.close()  # closing twice is harmless


# --- Schema and pragmas ---------------------------------------------------------------


async def test_migrations_are_applied_once(db_file: Path) -> None:
    async with await SqliteStorage.open(db_file) as storage:
        assert await scalar(storage, "PRAGMA user_version") == SCHEMA_VERSION
        async with storage.connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'"
        ) as cursor:
            tables = {row[0] for row in await cursor.fetchall()}
        assert tables >= TABLES
        await storage.save_user(User(ALICE, "Alice"))
        # Running them again finds nothing to do (a second CREATE TABLE would fail).
        assert await migrations.migrate(storage.connection) == SCHEMA_VERSION

    async with await SqliteStorage.open(db_file) as storage:
        assert await scalar(storage, "PRAGMA user_version") == SCHEMA_VERSION
        assert await storage.get_user(ALICE) == User(ALICE, "Alice")


async def test_a_database_of_an_older_schema_gains_owed_messages_and_keeps_its_games(
    db_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as patched:
        patched.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS[:3])
        patched.setattr(migrations, "SCHEMA_VERSION", 3)
        async with await SqliteStorage.open(db_file) as storage:
            game = await storage.create_game(seated_game())
    async with await SqliteStorage.open(db_file) as storage:
        assert (
            await scalar(storage, "PRAGMA user_version")
            == SCHEMA_VERSION
            == len(migrations.MIGRATIONS)
        )
        assert await storage.load_game(game.id) == game
        game.version = 1
        owed = Owed(game.id, 1, 0, OwedKind.DEAL_RESULT, 0)
        await storage.save_game(game, [action(game, 1)], owed=[owed])
        assert await storage.owed_messages() == [owed]


def schema(path: Path) -> list[tuple[str, str, str]]:
    """Every table, index and trigger of a database, its SQL with spaces evened out."""
    with sqlite3.connect(path) as plain:
        rows = plain.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
            " ORDER BY type, name"
        ).fetchall()
    plain.close()
    return [(kind, name, " ".join(sql.split())) for kind, name, sql in rows]


async def test_a_database_of_the_release_before_the_sql_files_opens_unchanged(
    tmp_path: Path,
) -> None:
    """fixtures/schema_v1.db was made by the code that kept its migrations in a
    Python list (schema version 1): one game of three logged moves, a user and a
    chat. It opens, migrates on to the current version, and its tables stay as they
    were, statement for statement: the SQL files are the same steps."""
    old = tmp_path / "old.sqlite3"
    old.write_bytes((Path(__file__).parent / "fixtures" / "schema_v1.db").read_bytes())
    before = schema(old)
    async with await SqliteStorage.open(old) as storage:
        assert await scalar(storage, "PRAGMA user_version") == SCHEMA_VERSION
        (game,) = await storage.active_games()
        assert (game.version, game.status) == (6, GameStatus.PLAYING)
        assert [a.version for a in await storage.game_actions(game.id)] == [4, 5, 6]
        assert await storage.get_user(ALICE) == User(ALICE, "Alice", "en")
        game.version += 1
        await storage.save_game(game, base=6)
    after = schema(old)
    # Version 1's tables, indexes and triggers as made; step 5 added a column to two,
    # step 6 ordered a player's seats by game in his index, step 9 added the chats'
    # picture setting.
    altered = {"deal_results", "series_results"}
    replaced = {"participants_by_user", "chats"}
    assert {item for item in before if item[1] not in altered | replaced} <= set(after)
    assert any(name == "chats" and "pictures INTEGER" in sql for _, name, sql in after)
    assert (
        "index",
        "participants_by_user",
        "CREATE INDEX participants_by_user ON participants (platform, user_id, game_id DESC, seat)",
    ) in after
    for _, name, sql in after:
        if name in altered:
            assert "rule_set TEXT NOT NULL DEFAULT 'yard'" in sql
    fresh = tmp_path / "fresh.sqlite3"
    async with await SqliteStorage.open(fresh):
        pass
    assert schema(fresh) == after


async def test_a_database_of_the_release_before_rule_set_results_keeps_games_and_stats(
    tmp_path: Path,
) -> None:
    """fixtures/schema_v4.db (see tests/adapters/release_v4.py) migrates; its games
    and stats are intact, its running game plays on."""
    old = tmp_path / "old.sqlite3"
    old.write_bytes(release_v4.FIXTURE.read_bytes())
    async with await SqliteStorage.open(old) as storage:
        assert await scalar(storage, "PRAGMA user_version") == SCHEMA_VERSION
        assert (
            await scalar(storage, "SELECT COUNT(*) FROM deal_results WHERE rule_set = 'yard'") == 4
        )
        await release_v4.check_games_and_stats(storage)


def test_the_sql_files_split_into_whole_statements() -> None:
    (first,) = migrations.MIGRATIONS[:1]
    assert len(first) == 12  # as many as the list in Python had
    assert all(sqlite3.complete_statement(statement) for statement in first)
    assert sum("CREATE TRIGGER" in statement for statement in first) == 2
    with pytest.raises(ValueError, match="ends inside a statement"):
        migrations.statements("CREATE TABLE t (x);\nCREATE TABLE u (")


async def test_a_failing_migration_leaves_the_version_before_it(
    db_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with await SqliteStorage.open(db_file):
        pass
    broken = (*migrations.MIGRATIONS, ("CREATE TABLE extra (x INTEGER)", "NOT SQL AT ALL"))
    monkeypatch.setattr(migrations, "MIGRATIONS", broken)
    monkeypatch.setattr(migrations, "SCHEMA_VERSION", len(broken))
    with pytest.raises(sqlite3.OperationalError):
        await SqliteStorage.open(db_file)

    with sqlite3.connect(db_file) as plain:
        assert plain.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        assert plain.execute("SELECT name FROM sqlite_master WHERE name = 'extra'").fetchall() == []
    plain.close()


async def test_a_database_of_the_first_schema_gains_the_secrets_and_keeps_its_rows(
    db_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = migrations.MIGRATIONS[:1]
    monkeypatch.setattr(migrations, "MIGRATIONS", first)
    monkeypatch.setattr(migrations, "SCHEMA_VERSION", 1)
    async with await SqliteStorage.open(db_file) as storage:
        await storage.save_user(User(ALICE, "Alice"))
    monkeypatch.undo()
    async with await SqliteStorage.open(db_file) as storage:
        assert await scalar(storage, "PRAGMA user_version") == SCHEMA_VERSION
        assert await storage.get_user(ALICE) == User(ALICE, "Alice")
        key = await storage.secret("join-links")
        assert len(key) == 32 and await storage.secret("join-links") == key
        assert await storage.secret("other") != key
    async with await SqliteStorage.open(db_file) as storage:  # kept: links outlive a restart
        assert await storage.secret("join-links") == key


async def test_a_newer_schema_is_refused(db_file: Path) -> None:
    with sqlite3.connect(db_file) as plain:
        plain.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    plain.close()
    with pytest.raises(SchemaTooNew):
        await SqliteStorage.open(db_file)


async def test_wal_foreign_keys_and_busy_timeout(storage: SqliteStorage) -> None:
    assert await scalar(storage, "PRAGMA journal_mode") == "wal"
    assert await scalar(storage, "PRAGMA foreign_keys") == 1
    assert await scalar(storage, "PRAGMA busy_timeout") == 5000
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
        await storage.connection.execute(
            "INSERT INTO game_actions (game_id, version, seat, action, at) VALUES (?, ?, ?, ?, ?)",
            (404, 1, 0, "{}", 0.0),
        )


async def test_the_action_log_cannot_be_rewritten(storage: SqliteStorage) -> None:
    game = await storage.create_game(seated_game())
    await storage.save_game(game, [action(game, 1)])
    for statement in ("UPDATE game_actions SET seat = 3", "DELETE FROM game_actions"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            await storage.connection.execute(statement)
    assert await storage.game_actions(game.id) == [action(game, 1)]


async def test_participants_follow_the_seats(storage: SqliteStorage) -> None:
    async def participants(game_id: int) -> list[tuple[object, ...]]:
        async with storage.connection.execute(
            "SELECT seat, platform, user_id, kind, name FROM participants"
            " WHERE game_id = ? ORDER BY seat",
            (game_id,),
        ) as cursor:
            return [tuple(row) for row in await cursor.fetchall()]

    game = await storage.create_game(seated_game())
    assert await participants(game.id) == [
        (0, "telegram", "1", "human", "Alice"),
        (1, None, None, "computer", "Bot"),
        (3, "telegram", "2", "human", "Bob"),
    ]
    game.seats[3] = None
    game.seats[2] = Seat(SeatKind.HUMAN, "Bob", BOB)
    game.version = 1
    await storage.save_game(game, [action(game, 1)])
    assert await participants(game.id) == [
        (0, "telegram", "1", "human", "Alice"),
        (1, None, None, "computer", "Bot"),
        (2, "telegram", "2", "human", "Bob"),
    ]

    # A refused save keeps the seats it would have replaced.
    game.seats = [None, None, None, None]
    game.version = 2
    with pytest.raises(DuplicateAction):
        await storage.save_game(game, [action(game, 1)])
    assert len(await participants(game.id)) == 3


async def test_results_are_kept_once(storage: SqliteStorage) -> None:
    game = await storage.create_game(seated_game())
    result = DealResult((70, 50), (5, 3), (0, 2), False, Team.A, 0)
    series = SeriesResult(Team.B, Title.GOATS, (0, 12), 1, 0)
    for at in (1.0, 2.0):
        await storage.record_deal(game, deal_outcome(0, result), at)
        await storage.record_series(game, game_outcome(series), at)
    assert await scalar(storage, "SELECT COUNT(*) FROM deal_results") == 1
    assert await scalar(storage, "SELECT at FROM deal_results") == 1.0
    assert await scalar(storage, "SELECT COUNT(*) FROM series_results") == 1


# --- Durability -----------------------------------------------------------------------


async def test_a_fresh_storage_on_the_same_file_sees_everything(db_file: Path) -> None:
    async with await SqliteStorage.open(db_file) as first:
        await first.save_user(User(ALICE, "Alice", "en"))
        await first.save_chat(ChatInfo(CHAT, "en", 60))
        game = await first.create_game(seated_game())
        game.status = GameStatus.FINISHED
        game.version = 2
        await first.save_game(game, [action(game, 1), action(game, 2)])
        await first.record_series(
            game, game_outcome(SeriesResult(Team.B, Title.GOATS, (0, 12), 1, 0)), 5.0
        )
        stats = await first.user_stats(ALICE)
        board = await first.leaderboard(TG, None)

    async with await SqliteStorage.open(db_file) as second:
        assert await second.get_user(ALICE) == User(ALICE, "Alice", "en")
        assert await second.get_chat(CHAT) == ChatInfo(ChatRef(TG, CHAT.id), "en", 60)
        assert await second.load_game(game.id) == game
        assert await second.game_actions(game.id) == [action(game, 1), action(game, 2)]
        assert await second.user_stats(ALICE) == stats
        assert await second.leaderboard(TG, None) == board
        # New ids continue after the old ones.
        assert (await second.create_game(seated_game())).id == game.id + 1


def wal_size(db_file: Path) -> int:
    wal = db_file.with_name(db_file.name + "-wal")
    return wal.stat().st_size if wal.exists() else 0


CRASHING_WRITER = textwrap.dedent(
    """
    import asyncio, os, sys
    from adapters.sqlite import SqliteStorage
    from bot.models import ChatRef, Game, Platform, UserRef
    from bot.ports import LoggedAction

    async def main() -> None:
        storage = await SqliteStorage.open(sys.argv[1])
        game = await storage.create_game(
            Game(0, ChatRef(Platform.TELEGRAM, "-100"), UserRef(Platform.TELEGRAM, "1"))
        )
        game.version = 1
        await storage.save_game(
            game, [LoggedAction(game.id, 1, 0, None, {"seat": 0, "type": "lead"}, 1.0)]
        )
        print(game.id, flush=True)
        os._exit(0)  # die with the connection open: no close, no checkpoint

    asyncio.run(main())
    """
)


async def test_committed_writes_survive_a_crash(db_file: Path) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        CRASHING_WRITER,
        str(db_file),
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), timeout=60)
    assert process.returncode == 0, err.decode()
    game_id = int(out)
    # The writes sit in the WAL, not yet checkpointed into the database file.
    assert wal_size(db_file) > 0

    async with await SqliteStorage.open(db_file) as storage:
        game = await storage.load_game(game_id)
        assert game is not None and game.version == 1
        assert [a.version for a in await storage.game_actions(game_id)] == [1]
        assert await scalar(storage, "PRAGMA integrity_check") == "ok"


async def test_concurrent_saves_do_not_corrupt(storage: SqliteStorage) -> None:
    games = [await storage.create_game(seated_game(ChatRef(TG, str(-i)))) for i in range(20)]

    async def play(game: Game) -> None:
        for version in (1, 2, 3):
            game.version = version
            game.messages = {"table": f"{game.id}-{version}"}
            await storage.save_game(game, [action(game, version)])
            await storage.load_game(game.id)

    await asyncio.gather(*(play(game) for game in games))

    for game in games:
        loaded = await storage.load_game(game.id)
        assert loaded is not None
        assert (loaded.version, loaded.messages) == (3, {"table": f"{game.id}-3"})
        assert [a.version for a in await storage.game_actions(game.id)] == [1, 2, 3]
    assert await scalar(storage, "SELECT COUNT(*) FROM game_actions") == 60
    assert await scalar(storage, "SELECT COUNT(*) FROM participants") == 60
    assert await scalar(storage, "PRAGMA integrity_check") == "ok"


async def test_a_create_cancelled_mid_transaction_is_rolled_back(
    storage: SqliteStorage, monkeypatch: pytest.MonkeyPatch
) -> None:
    inside = asyncio.Event()
    executemany = storage.connection.executemany

    async def stall(sql: str, parameters: Any) -> object:
        """Write the seats, then hang inside the transaction until cancelled."""
        cursor = await executemany(sql, parameters)
        inside.set()
        await asyncio.Event().wait()
        return cursor

    monkeypatch.setattr(storage.connection, "executemany", stall)
    task = asyncio.create_task(storage.create_game(seated_game()))
    await asyncio.wait_for(inside.wait(), timeout=10)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    monkeypatch.undo()

    assert await scalar(storage, "SELECT COUNT(*) FROM games") == 0
    assert await scalar(storage, "SELECT COUNT(*) FROM participants") == 0
    # The storage goes on working.
    game = await storage.create_game(seated_game())
    game.version = 1
    await storage.save_game(game, [action(game, 1)])
    assert await storage.load_game(game.id) == game


# --- One process on a database ---------------------------------------------------------


async def test_a_second_exclusive_storage_on_a_database_is_refused(db_file: Path) -> None:
    """Regression: two bots on one database each played the same games from their own
    memory; the second died with a DuplicateAction traceback."""
    async with await SqliteStorage.open(db_file, exclusive=True) as first:
        game = await first.create_game(seated_game())
        with pytest.raises(DatabaseInUse) as refused:
            await SqliteStorage.open(f"sqlite:///{db_file}", exclusive=True)
        assert str(refused.value) == (
            f"the database {db_file} is in use by another Kozel process "
            f"(process {os.getpid()}): stop that one first, or give this one another "
            "DATABASE_URL"
        )
        # Maintenance (and the tests) may still read it.
        async with await SqliteStorage.open(db_file) as reader:
            assert await reader.load_game(game.id) == game
    # Closed: free again.
    async with await SqliteStorage.open(db_file, exclusive=True) as again:
        assert await again.load_game(game.id) == game


async def test_the_lock_of_a_process_that_died_is_free(db_file: Path) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        "import asyncio, os, sys\n"
        "from adapters.sqlite import SqliteStorage\n"
        "async def main():\n"
        "    await SqliteStorage.open(sys.argv[1], exclusive=True)\n"
        "    print('locked', flush=True)\n"
        "    os._exit(0)  # no close\n"
        "asyncio.run(main())\n",
        str(db_file),
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), timeout=120)
    assert out == b"locked\n", err.decode()
    async with await SqliteStorage.open(db_file, exclusive=True):
        pass


def test_a_second_bot_on_the_same_database_refuses_to_start(db_file: Path) -> None:
    async def while_held() -> subprocess.CompletedProcess[str]:
        async with await SqliteStorage.open(db_file, exclusive=True):
            return await asyncio.to_thread(
                subprocess.run,
                [sys.executable, "-m", "bot"],
                cwd=db_file.parent,
                env={
                    "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                    "PYTHONPATH": str(ROOT),
                    "DATABASE_URL": f"sqlite:///{db_file}",
                    "TELEGRAM_BOT_TOKEN": "123:not-used",
                    "TELEGRAM_API_URL": "http://127.0.0.1:9",
                },
                capture_output=True,
                text=True,
                timeout=300,
                check=False,
            )

    done = asyncio.run(while_held())
    assert done.returncode == 1
    assert "Kozel cannot start: the database" in done.stderr
    assert "is in use by another Kozel process" in done.stderr
    assert "Traceback" not in done.stderr and "DuplicateAction" not in done.stderr
