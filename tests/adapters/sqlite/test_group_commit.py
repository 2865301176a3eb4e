"""Group commit: concurrent ``save_game`` calls share one transaction on the worker
thread, yet each keeps the all-or-nothing contract of :meth:`Storage.save_game`.

The contract itself (on both storages) is pinned in tests/bot/test_storage.py; these
cases look inside: how saves are batched, and what happens when a batch, a save or a
caller fails half-way.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from adapters.sqlite import SqliteStorage
from adapters.sqlite import storage as module
from bot.models import ChatRef, Game, GameStatus, Platform, Seat, SeatKind, UserRef
from bot.ports import LoggedAction
from bot.rows import DuplicateAction, NoSuchGame
from core.seats import Team
from core.yard.events import DealResult
from core.yard.ruleset import deal_outcome

TG = Platform.TELEGRAM
ALICE = UserRef(TG, "1")
WON = DealResult((70, 50), (5, 3), (0, 2), False, Team.A, 0)
TIMEOUT = 10


def game_in(chat: str) -> Game:
    return Game(
        0,
        ChatRef(TG, chat),
        ALICE,
        status=GameStatus.PLAYING,
        seats=[Seat(SeatKind.HUMAN, "Alice", ALICE), Seat(SeatKind.COMPUTER, "Bot"), None, None],
    )


async def new_games(storage: SqliteStorage, count: int) -> list[Game]:
    return [await storage.create_game(game_in(str(-i))) for i in range(count)]


def action(game: Game, version: int) -> LoggedAction:
    return LoggedAction(game.id, version, 0, ALICE, {"seat": 0, "type": "lead"}, float(version))


async def count(storage: SqliteStorage, sql: str, *parameters: object) -> int:
    async with storage.connection.execute(sql, parameters) as cursor:
        row = await cursor.fetchone()
    assert row is not None
    return int(row[0])


async def versions(storage: SqliteStorage, game: Game) -> list[int]:
    return [a.version for a in await storage.game_actions(game.id)]


@pytest.fixture
def batches(monkeypatch: pytest.MonkeyPatch) -> list[list[int | str]]:
    """The game ids of each batch the writer sends to the worker thread (a chat's
    send times as ``times:<chat>``)."""
    seen: list[list[int | str]] = []
    write_batch = module._write_batch

    def spy(db: sqlite3.Connection, saves: list[module._Write]) -> list[Exception | None]:
        seen.append(
            [s.game_id if isinstance(s, module._Save) else f"times:{s.chat}" for s in saves]
        )
        return write_batch(db, saves)

    monkeypatch.setattr(module, "_write_batch", spy)
    return seen


@dataclass
class Gate:
    """Holds the worker thread inside the batch that saves ``game_id``, right after
    that save's statements, until :meth:`open`."""

    loop: asyncio.AbstractEventLoop
    game_id: int = -1
    inside: asyncio.Event = field(default_factory=asyncio.Event)
    released: threading.Event = field(default_factory=threading.Event)

    def hold(self, game: Game) -> None:
        self.game_id = game.id

    async def reached(self) -> None:
        await asyncio.wait_for(self.inside.wait(), TIMEOUT)

    def open(self) -> None:
        self.released.set()


@pytest.fixture
async def gate(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Gate]:
    gate = Gate(asyncio.get_running_loop())
    write_save = module._write_save

    def held(db: sqlite3.Connection, save: module._Save) -> None:
        write_save(db, save)
        if save.game_id == gate.game_id:
            gate.loop.call_soon_threadsafe(gate.inside.set)
            assert gate.released.wait(TIMEOUT)

    monkeypatch.setattr(module, "_write_save", held)
    yield gate
    gate.open()  # never leave the worker thread stuck


# --- Batching ---------------------------------------------------------------------------


async def test_concurrent_saves_share_one_transaction(
    storage: SqliteStorage, batches: list[list[int | str]]
) -> None:
    games = await new_games(storage, 30)
    for game in games:
        game.version = 1
    await asyncio.gather(*(storage.save_game(game, [action(game, 1)]) for game in games))
    assert batches == [[game.id for game in games]]
    for game in games:
        assert await storage.load_game(game.id) == game


async def test_send_times_share_the_games_transaction_and_the_last_call_wins(
    storage: SqliteStorage, batches: list[list[int | str]]
) -> None:
    games = await new_games(storage, 3)
    for game in games:
        game.version = 1
    await asyncio.gather(
        storage.save_send_times(TG, "-7", [1.0]),
        *(storage.save_game(game, [action(game, 1)]) for game in games),
        storage.save_send_times(TG, "-7", [1.0, 2.0]),
    )
    assert batches == [["times:-7", *(game.id for game in games), "times:-7"]]
    assert await storage.send_times(TG) == {"-7": [1.0, 2.0]}
    for game in games:
        assert await storage.load_game(game.id) == game


async def test_a_batch_keeps_every_save_but_the_failing_ones(
    storage: SqliteStorage, batches: list[list[int | str]]
) -> None:
    first, duplicate, last = await new_games(storage, 3)
    duplicate.version = 1
    await storage.save_game(duplicate, [action(duplicate, 1)])
    before = await storage.load_game(duplicate.id)
    ghost = game_in("ghost")
    ghost.id = 404

    for game in (first, duplicate, last, ghost):
        game.version = 2
        game.seats = [None, Seat(SeatKind.HUMAN, "Alice", ALICE), None, None]
    outcomes = await asyncio.gather(
        storage.save_game(
            first, [action(first, 1), action(first, 2)], deals=[deal_outcome(0, WON)]
        ),
        storage.save_game(
            duplicate, [action(duplicate, 2), action(duplicate, 1)], deals=[deal_outcome(0, WON)]
        ),
        storage.save_game(ghost, [action(ghost, 1)]),
        storage.save_game(last, [action(last, 2)]),
        return_exceptions=True,
    )
    assert batches[-1] == [first.id, duplicate.id, ghost.id, last.id]
    assert outcomes[0] is None and outcomes[3] is None
    assert isinstance(outcomes[1], DuplicateAction) and outcomes[1].version == 1
    assert isinstance(outcomes[2], NoSuchGame) and outcomes[2].game_id == 404

    assert await storage.load_game(first.id) == first
    assert await storage.load_game(last.id) == last
    assert await versions(storage, first) == [1, 2]
    assert await versions(storage, last) == [2]
    # Nothing of the refused save: not its row, seats, actions nor results.
    assert await storage.load_game(duplicate.id) == before
    assert await versions(storage, duplicate) == [1]
    assert (
        await count(storage, "SELECT seat FROM participants WHERE game_id = ?", duplicate.id) == 0
    )
    assert await count(storage, "SELECT COUNT(*) FROM deal_results") == 1
    assert await count(storage, "SELECT COUNT(*) FROM game_actions WHERE game_id = 404") == 0


async def test_saves_of_one_game_in_one_batch_apply_in_order(
    storage: SqliteStorage, batches: list[list[int | str]], gate: Gate
) -> None:
    blocker, game = await new_games(storage, 2)
    gate.hold(blocker)
    blocked = asyncio.create_task(storage.save_game(blocker))
    await gate.reached()
    saves = []
    for version in (1, 2, 3, 4):
        game.version = version
        game.messages = {"table": str(version)}
        # Version 4 retries the action of version 3: refused.
        logged = action(game, min(version, 3))
        saves.append(asyncio.create_task(storage.save_game(game, [logged])))
        await asyncio.sleep(0)  # the save takes the game as it is now
    gate.open()
    outcomes = await asyncio.gather(*saves, return_exceptions=True)
    await blocked
    assert batches == [[blocker.id], [game.id] * 4]
    assert outcomes[:3] == [None, None, None]
    assert isinstance(outcomes[3], DuplicateAction)
    loaded = await storage.load_game(game.id)
    assert loaded is not None and (loaded.version, loaded.messages) == (3, {"table": "3"})
    assert await versions(storage, game) == [1, 2, 3]


async def test_a_game_is_saved_as_it_was_when_save_was_called(storage: SqliteStorage) -> None:
    (game,) = await new_games(storage, 1)
    game.version = 1
    saving = asyncio.create_task(storage.save_game(game, [action(game, 1)]))
    await asyncio.sleep(0)  # queued, not yet written
    game.version = 99
    await saving
    loaded = await storage.load_game(game.id)
    assert loaded is not None and loaded.version == 1


async def test_many_concurrent_saves_are_durable(
    db_file: Path, batches: list[list[int | str]]
) -> None:
    async with await SqliteStorage.open(db_file) as storage:
        games = await new_games(storage, 100)

        async def play(game: Game) -> None:
            for version in range(1, 11):
                game.version = version
                await storage.save_game(game, [action(game, version)])

        await asyncio.gather(*(play(game) for game in games))
    assert len(batches) < 100 * 10 / 2  # saves were grouped

    async with await SqliteStorage.open(db_file) as storage:
        for game in games:
            assert await storage.load_game(game.id) == game
            assert await versions(storage, game) == list(range(1, 11))
        assert await count(storage, "SELECT COUNT(*) FROM game_actions") == 1000
        async with storage.connection.execute("PRAGMA integrity_check") as cursor:
            assert tuple(await cursor.fetchone()) == ("ok",)


# --- Failures ---------------------------------------------------------------------------


def poison(
    monkeypatch: pytest.MonkeyPatch, game_id: int, harm: Callable[[sqlite3.Connection], None]
) -> None:
    """Make the save of ``game_id`` run ``harm`` after its statements."""
    write_save = module._write_save

    def poisoned(db: sqlite3.Connection, save: module._Save) -> None:
        write_save(db, save)
        if save.game_id == game_id:
            harm(db)

    monkeypatch.setattr(module, "_write_save", poisoned)


async def check_only_the_poisoned_save_failed(
    storage: SqliteStorage, games: list[Game], poisoned: Game, error: type[Exception]
) -> None:
    for game in games:
        game.version = 1
    outcomes = await asyncio.gather(
        *(storage.save_game(game, [action(game, 1)]) for game in games), return_exceptions=True
    )
    for game, outcome in zip(games, outcomes, strict=True):
        if game is poisoned:
            assert isinstance(outcome, error)
            loaded = await storage.load_game(game.id)
            assert loaded is not None and loaded.version == 0
            assert await versions(storage, game) == []
        else:
            assert outcome is None
            assert await storage.load_game(game.id) == game
            assert await versions(storage, game) == [1]


async def test_an_error_that_ends_the_transaction_retries_each_save_alone(
    storage: SqliteStorage, batches: list[list[int | str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    games = await new_games(storage, 4)

    def end_the_transaction(db: sqlite3.Connection) -> None:
        db.execute("ROLLBACK")
        raise sqlite3.OperationalError("the disk is full")

    poison(monkeypatch, games[2].id, end_the_transaction)
    await check_only_the_poisoned_save_failed(storage, games, games[2], sqlite3.OperationalError)
    assert batches[-5:] == [[game.id for game in games], *([game.id] for game in games)]


async def test_a_failing_commit_retries_each_save_alone(
    storage: SqliteStorage, batches: list[list[int | str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    games = await new_games(storage, 4)

    def break_the_commit(db: sqlite3.Connection) -> None:
        # A deferred foreign key is checked only at COMMIT.
        db.execute("PRAGMA defer_foreign_keys = ON")
        db.execute(
            "INSERT INTO participants (game_id, seat, kind, name) VALUES (404, 0, 'computer', 'x')"
        )

    poison(monkeypatch, games[1].id, break_the_commit)
    await check_only_the_poisoned_save_failed(storage, games, games[1], sqlite3.IntegrityError)
    assert len(batches) == 1 + len(games)


async def test_a_python_error_in_a_save_is_its_own(
    storage: SqliteStorage, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = await new_games(storage, 3)

    def crash(db: sqlite3.Connection) -> None:
        raise RuntimeError("a bug")

    poison(monkeypatch, games[0].id, crash)
    await check_only_the_poisoned_save_failed(storage, games, games[0], RuntimeError)


async def test_a_busy_database_fails_the_batch_and_the_storage_goes_on(db_file: Path) -> None:
    async with await SqliteStorage.open(db_file, busy_timeout_ms=0) as storage:
        games = await new_games(storage, 2)
        other = sqlite3.connect(db_file, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
            for game in games:
                game.version = 1
            outcomes = await asyncio.gather(
                *(storage.save_game(game, [action(game, 1)]) for game in games),
                return_exceptions=True,
            )
            assert all(isinstance(o, sqlite3.OperationalError) for o in outcomes)
            other.execute("ROLLBACK")
        finally:
            other.close()
        for game in games:
            assert await versions(storage, game) == []
            await storage.save_game(game, [action(game, 1)])
            assert await storage.load_game(game.id) == game


# --- Reads, cancellation, closing ----------------------------------------------------------


async def test_reads_wait_for_the_batch_and_see_only_committed_data(
    storage: SqliteStorage, db_file: Path, gate: Gate
) -> None:
    (game,) = await new_games(storage, 1)
    gate.hold(game)
    game.version = 1
    saving = asyncio.create_task(storage.save_game(game, [action(game, 1)]))
    await gate.reached()

    reading = asyncio.create_task(storage.load_game(game.id))
    for _ in range(5):
        await asyncio.sleep(0)
    assert not reading.done()
    # Another connection sees the last committed state meanwhile.
    other = sqlite3.connect(db_file)
    try:
        row = other.execute("SELECT version FROM games WHERE id = ?", (game.id,)).fetchone()
        assert row == (0,)
    finally:
        other.close()

    gate.open()
    await asyncio.wait_for(saving, TIMEOUT)
    assert await asyncio.wait_for(reading, TIMEOUT) == game


async def test_a_save_cancelled_in_the_queue_keeps_nothing(
    storage: SqliteStorage, gate: Gate
) -> None:
    first, second = await new_games(storage, 2)
    gate.hold(first)
    first.version = second.version = 1
    saving_first = asyncio.create_task(storage.save_game(first, [action(first, 1)]))
    await gate.reached()
    saving_second = asyncio.create_task(storage.save_game(second, [action(second, 1)]))
    await asyncio.sleep(0)  # queued behind the held batch
    saving_second.cancel()
    gate.open()
    await asyncio.wait_for(saving_first, TIMEOUT)
    with pytest.raises(asyncio.CancelledError):
        await saving_second

    loaded = await storage.load_game(second.id)
    assert loaded is not None and loaded.version == 0
    assert await versions(storage, second) == []
    # The storage goes on working.
    await storage.save_game(second, [action(second, 1)])
    assert await storage.load_game(second.id) == second


async def test_a_save_cancelled_in_flight_is_kept_whole(storage: SqliteStorage, gate: Gate) -> None:
    (game,) = await new_games(storage, 1)
    gate.hold(game)
    game.version = 1
    game.seats = [None, None, None, Seat(SeatKind.HUMAN, "Alice", ALICE)]
    saving = asyncio.create_task(
        storage.save_game(game, [action(game, 1)], deals=[deal_outcome(0, WON)])
    )
    await gate.reached()
    saving.cancel()
    gate.open()
    with pytest.raises(asyncio.CancelledError):
        await saving
    # Its batch was on the thread already: committed whole, never in part.
    assert await storage.load_game(game.id) == game
    assert await versions(storage, game) == [1]
    assert await count(storage, "SELECT COUNT(*) FROM deal_results") == 1


async def test_close_waits_for_queued_saves(db_file: Path) -> None:
    storage = await SqliteStorage.open(db_file)
    games = await new_games(storage, 20)
    for game in games:
        game.version = 1
    saving = [asyncio.create_task(storage.save_game(game, [action(game, 1)])) for game in games]
    await asyncio.sleep(0)
    await storage.close()
    await asyncio.gather(*saving)

    async with await SqliteStorage.open(db_file) as reopened:
        for game in games:
            assert await reopened.load_game(game.id) == game


async def test_a_save_after_close_is_refused(storage: SqliteStorage) -> None:
    (game,) = await new_games(storage, 1)
    await storage.close()
    with pytest.raises(ValueError, match="closed"):
        await storage.save_game(game)
