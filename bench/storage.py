"""Storage benchmark: ``python -m bench.storage``.

Prints ``name: value`` lines:

- ``sqlite_saves_per_second``: ``SqliteStorage.save_game`` calls completed per second
  while ``--games`` games save at once, each a task that plays its series move by
  move and saves after every move (the game with its one new logged action, and the
  deal and series results when a move scored them), as the bot does. The database
  is a fresh file in a temporary folder (WAL, ``synchronous = NORMAL``).
- ``memory_saves_per_second``: the same against ``MemoryStorage``.
- ``postgres_saves_per_second`` (``--storage postgres``, printed next to SQLite's):
  the same against ``PostgresStorage`` on a PostgreSQL server the benchmark starts
  in a temporary folder (:class:`adapters.postgres.local.LocalServer`, with the
  server's default durability: ``fsync`` and ``synchronous_commit`` on), a fresh
  database each run, the pool's default ten connections, over a Unix socket. Every
  save is fenced on the version it starts from, as the service's are.
- ``game_rows_per_second``: ``bot.rows.game_to_row`` (mostly the series snapshot)
  of the games at the end of a run, without a snapshot cache: what a save paid
  before the storages kept one, and what ``create_game`` pays.

Each task applies its move (``Series.legal_actions`` and ``Series.apply``) inside
the timed loop, as the bot does before it saves; that costs a few tens of
microseconds per move, little next to a save. Every figure is the median of
``--repeat`` timed runs after an untimed warm-up run.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from adapters.postgres import PostgresStorage
from adapters.postgres.local import LocalServer
from adapters.sqlite import SqliteStorage
from bot.memory import MemoryStorage
from bot.models import ChatRef, Game, GameStatus, Platform, Seat, SeatKind, UserRef
from bot.ports import LoggedAction, Storage
from bot.rows import game_to_row
from core.ruleset import DealOutcome, GameOutcome
from core.yard.events import DealScored, SeriesFinished
from core.yard.record import action_to_json
from core.yard.ruleset import deal_outcome, game_outcome

PLATFORM = Platform.TELEGRAM


def new_game(index: int) -> Game:
    """A playing game of four humans in a chat of its own."""
    users = [UserRef(PLATFORM, str(4 * index + seat)) for seat in range(4)]
    return Game(
        id=0,
        chat=ChatRef(PLATFORM, str(-1000 - index)),
        creator=users[0],
        status=GameStatus.PLAYING,
        seats=[Seat(SeatKind.HUMAN, f"Player {user.id}", user) for user in users],
    )


async def play(storage: Storage, game: Game, rng: random.Random, moves: int) -> int:
    """Play up to ``moves`` random legal moves of ``game``'s series, saving after
    each; return the number of saves."""
    series = game.play.series
    saves = 0
    while saves < moves and not series.is_over:
        current = series.current
        if current is None or current.is_over:
            series.deal(rng)
        action = rng.choice(series.legal_actions())
        events = series.apply(action)
        deals: list[DealOutcome] = []
        result: GameOutcome | None = None
        for event in events:
            if isinstance(event, DealScored):
                deals.append(deal_outcome(event.number, event.result))
            elif isinstance(event, SeriesFinished):
                result = game_outcome(event.result)
                game.status = GameStatus.FINISHED
        game.version += 1
        game.updated_at = float(game.version)
        seat = game.seats[action.seat]
        logged = LoggedAction(
            game.id,
            game.version,
            action.seat,
            None if seat is None else seat.user,
            action_to_json(action),
            game.updated_at,
        )
        await storage.save_game(game, [logged], deals=deals, series=result, base=game.version - 1)
        saves += 1
    return saves


async def saves_per_second(
    open_storage: Callable[[Path], Awaitable[Storage]],
    close: Callable[[Storage], Awaitable[None]],
    games: int,
    moves: int,
    seed: int,
) -> tuple[float, list[Game]]:
    """One timed run on a fresh storage: saves per second, and the games played."""
    with tempfile.TemporaryDirectory() as folder:
        storage = await open_storage(Path(folder) / "bench.sqlite3")
        try:
            created = [await storage.create_game(new_game(i)) for i in range(games)]
            rngs = [random.Random(seed * 100_003 + i) for i in range(games)]
            start = time.perf_counter()
            counts = await asyncio.gather(
                *(play(storage, game, rng, moves) for game, rng in zip(created, rngs, strict=True))
            )
            elapsed = time.perf_counter() - start
        finally:
            await close(storage)
    return sum(counts) / elapsed, created


async def _open_sqlite(path: Path) -> Storage:
    return await SqliteStorage.open(path)


async def _open_memory(path: Path) -> Storage:
    return MemoryStorage()


class _Postgres:
    """Opens a fresh database on the benchmark's own server for each run."""

    def __init__(self, server: LocalServer) -> None:
        self.server = server
        self.runs = 0

    async def __call__(self, path: Path) -> Storage:
        self.runs += 1
        return await PostgresStorage.open(self.server.create_database(f"bench_{self.runs}"))


async def _close(storage: Storage) -> None:
    if isinstance(storage, SqliteStorage | PostgresStorage):
        await storage.close()


def _median_rate(
    open_storage: Callable[[Path], Awaitable[Storage]], args: argparse.Namespace
) -> tuple[float, list[Game]]:
    asyncio.run(saves_per_second(open_storage, _close, args.games, args.moves, 0))  # warm-up
    rates = []
    games: list[Game] = []
    for run in range(1, args.repeat + 1):
        rate, games = asyncio.run(
            saves_per_second(open_storage, _close, args.games, args.moves, run)
        )
        rates.append(rate)
    return statistics.median(rates), games


def _rows_per_second(games: list[Game], repeat: int) -> float:
    rates = []
    for _ in range(repeat):
        start = time.perf_counter()
        for game in games:
            game_to_row(game)
        rates.append(len(games) / (time.perf_counter() - start))
    return statistics.median(rates)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games saving at once")
    parser.add_argument("--moves", type=int, default=60, help="moves (saves) per game")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs; the median is shown")
    parser.add_argument(
        "--storage",
        choices=["all", "postgres"],
        default="all",
        help="all: SQLite, memory and the row codec; postgres: PostgreSQL next to SQLite",
    )
    args = parser.parse_args(argv)

    sqlite_rate, _ = _median_rate(_open_sqlite, args)
    print(f"sqlite_saves_per_second: {sqlite_rate:.0f}")
    if args.storage == "postgres":
        with LocalServer(durable=True) as server:
            postgres_rate, _ = _median_rate(_Postgres(server), args)
        print(f"postgres_saves_per_second: {postgres_rate:.0f}")
        return
    memory_rate, games = _median_rate(_open_memory, args)
    print(f"memory_saves_per_second: {memory_rate:.0f}")
    print(f"game_rows_per_second: {_rows_per_second(games, max(args.repeat, 5)):.0f}")


if __name__ == "__main__":
    main()
