"""Regression (issue 23): ``/top`` stalled every game. Leaderboards and statistics
were read under the SQLite group commit's one lock, and on PostgreSQL through the
pool the writer needs: ten ``/top all`` made a move elsewhere wait 18 s, and
``/readyz`` reported the storage down. Now they read apart (read-only connections,
a read pool of their own): a move's save completes while every read connection is
busy, reads complete while the writer is held, and ``/readyz`` stays up."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from adapters.health import HealthServer
from adapters.postgres import PostgresStorage
from adapters.postgres.local import LocalServer
from adapters.postgres.storage import READ_POOL
from adapters.sqlite import SqliteStorage
from adapters.sqlite import storage as sqlite_module
from bot.metrics import Metrics
from bot.models import ChatRef, Game, GameStatus, Platform, Seat, SeatKind, UserRef
from bot.ports import LoggedAction, Storage
from core.seats import Team
from core.yard.events import SeriesResult, Title
from core.yard.ruleset import game_outcome
from tests.conftest import DATABASE, empty_postgres_storage

TG = Platform.TELEGRAM
PLAYERS = [UserRef(TG, str(n)) for n in range(1, 5)]
TIMEOUT = 10.0
READS = 50


def table(chat: str) -> Game:
    seats: list[Seat | None] = [Seat(SeatKind.HUMAN, f"P{u.id}", u) for u in PLAYERS]
    return Game(0, ChatRef(TG, chat), PLAYERS[0], status=GameStatus.PLAYING, seats=seats)


async def finished_series(storage: Storage, count: int) -> None:
    """``count`` series won by team A in chat -1: the boards have rows to read."""
    for _ in range(count):
        game = await storage.create_game(table("-1"))
        game.status = GameStatus.FINISHED
        lost = game_outcome(SeriesResult(Team.B, Title.GOATS, (2, 12), deals=3, eggs=0))
        await storage.save_game(game, series=lost)


async def a_move(storage: Storage, game: Game) -> None:
    """A move's save, fenced, as the service makes it."""
    game.version += 1
    logged = LoggedAction(game.id, game.version, 0, PLAYERS[0], {"seat": 0, "type": "lead"}, 1.0)
    await storage.save_game(game, [logged], base=game.version - 1)


def start_reads(storage: Storage) -> list[asyncio.Task[object]]:
    """``READS`` readers at once: ``/top all`` and ``/stats`` alternately."""
    reads: list[asyncio.Task[object]] = []
    for n in range(READS):
        if n % 2:
            reads.append(asyncio.create_task(storage.leaderboard(TG, None, min_series=3)))
        else:
            reads.append(asyncio.create_task(storage.user_stats(PLAYERS[n % 4])))
    return reads


@contextlib.asynccontextmanager
async def reads_stuck(storage: Storage) -> AsyncIterator[None]:
    """Every read connection of the storage busy until the block ends. On SQLite:
    every read-only connection taken; on PostgreSQL: the totals' tables locked by
    another session, so reads wait inside the server holding their connections."""
    if isinstance(storage, SqliteStorage):
        readers = storage._readers  # the read-only connections
        assert readers is not None
        async with contextlib.AsyncExitStack() as stack:
            for _ in range(sqlite_module.READERS):
                await stack.enter_async_context(readers.connection())
            yield
        return
    assert isinstance(storage, PostgresStorage)
    blocker = await storage.pool.acquire()
    try:
        async with blocker.transaction():
            await blocker.execute(
                "LOCK TABLE platform_board, user_results, reliability IN ACCESS EXCLUSIVE MODE"
            )
            yield
    finally:
        await storage.pool.release(blocker)


async def wait_until_reads_wait_in_the_server(storage: Storage) -> None:
    """On PostgreSQL: until every connection of the read pool waits on the lock."""
    if not isinstance(storage, PostgresStorage):
        return
    async with asyncio.timeout(TIMEOUT):
        while True:
            waiting = await storage.pool.fetchval(
                "SELECT COUNT(*) FROM pg_stat_activity"
                " WHERE wait_event_type = 'Lock' AND datname = current_database()"
            )
            if waiting >= READ_POOL:
                return
            await asyncio.sleep(0.01)


@pytest.fixture(params=["sqlite", "postgres"])
async def storage(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Storage]:
    if request.param == "sqlite":
        opened: SqliteStorage | PostgresStorage = await SqliteStorage.open(
            tmp_path / "kozel.sqlite3"
        )
    else:
        opened = await empty_postgres_storage(request.getfixturevalue("postgres_server"))
    try:
        yield opened
    finally:
        await opened.close()


async def test_top_all_never_holds_the_writer(storage: Storage) -> None:
    """Fifty ``/top all`` and ``/stats`` in flight, every read connection busy: a move
    in another chat is saved before any of them is answered, and they are answered
    right after, as before."""
    await finished_series(storage, 3)
    expected_board = await storage.leaderboard(TG, None, min_series=3)
    assert [row.series_won for row in expected_board] == [3, 3, 0, 0]
    game = await storage.create_game(table("-2"))
    async with reads_stuck(storage):
        reads = start_reads(storage)
        await wait_until_reads_wait_in_the_server(storage)
        await asyncio.wait_for(a_move(storage, game), TIMEOUT)
        await asyncio.wait_for(a_move(storage, game), TIMEOUT)
        assert not any(read.done() for read in reads)  # the saves went first
    answers = await asyncio.wait_for(asyncio.gather(*reads), TIMEOUT)
    assert all(answer == expected_board for answer in answers[1::2])
    assert all(answer is not None for answer in answers[::2])
    loaded = await storage.load_game(game.id)
    assert loaded is not None and loaded.version == 2


async def test_reliability_is_read_apart_too(storage: Storage) -> None:
    """/stats' reliability line (docs/tournaments.md) reads as the statistics do:
    with every read connection busy, a move is saved before any is answered."""
    game = await storage.create_game(table("-2"))
    async with reads_stuck(storage):
        reads = [asyncio.create_task(storage.reliability(PLAYERS[n % 4])) for n in range(READS)]
        await wait_until_reads_wait_in_the_server(storage)
        await asyncio.wait_for(a_move(storage, game), TIMEOUT)
        assert not any(read.done() for read in reads)  # the save went first
    answers = await asyncio.wait_for(asyncio.gather(*reads), TIMEOUT)
    assert all(not answer for answer in answers)  # nobody has rated games here


async def test_top_all_never_waits_for_the_writer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite: the writer's thread held inside a batch (the lock held meanwhile), yet
    fifty ``/top all`` and ``/stats`` are answered, from what was committed."""
    storage = await SqliteStorage.open(tmp_path / "kozel.sqlite3")
    loop = asyncio.get_running_loop()
    inside, released = asyncio.Event(), threading.Event()
    write_save = sqlite_module._write_save

    def held(db: sqlite3.Connection, save: sqlite_module._Save) -> None:
        write_save(db, save)
        loop.call_soon_threadsafe(inside.set)
        assert released.wait(TIMEOUT)

    try:
        await finished_series(storage, 3)
        expected_board = await storage.leaderboard(TG, None, min_series=3)
        game = await storage.create_game(table("-2"))
        monkeypatch.setattr(sqlite_module, "_write_save", held)
        saving = asyncio.create_task(a_move(storage, game))
        await asyncio.wait_for(inside.wait(), TIMEOUT)
        answers = await asyncio.wait_for(asyncio.gather(*start_reads(storage)), TIMEOUT)
        assert all(answer == expected_board for answer in answers[1::2])
        assert not saving.done()  # the reads went first
        released.set()
        await asyncio.wait_for(saving, TIMEOUT)
    finally:
        released.set()
        await storage.close()


async def test_readyz_stays_up_while_reads_are_busy(storage: Storage) -> None:
    """Readiness asks the writer's path (a game read by key), which busy reads do not
    hold: the storage is not reported down because ``/top`` is popular."""
    server = HealthServer(Metrics(), storage, {}, port=0)
    await server.start()
    try:
        async with reads_stuck(storage), aiohttp.ClientSession() as http:
            reads = start_reads(storage)
            await wait_until_reads_wait_in_the_server(storage)
            async with http.get(f"http://127.0.0.1:{server.port}/readyz") as response:
                assert (response.status, await response.text()) == (200, "storage: ok\n")
            assert not any(read.done() for read in reads)
        await asyncio.wait_for(asyncio.gather(*reads), TIMEOUT)
    finally:
        await server.stop()


async def test_a_read_pool_of_its_own_on_postgresql(postgres_server: LocalServer) -> None:
    """The reads' pool is not the writer's, and no larger than its size."""
    storage = await PostgresStorage.open(postgres_server.url(DATABASE), min_size=1)
    try:
        assert storage._reads is not storage.pool
        assert storage._reads.get_max_size() == READ_POOL
    finally:
        await storage.close()
    shared = await PostgresStorage.open(postgres_server.url(DATABASE), min_size=1, read_size=0)
    try:
        assert shared._reads is shared.pool
    finally:
        await shared.close()
