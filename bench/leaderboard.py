"""Leaderboard benchmark (issue 23): ``python -m bench.leaderboard``.

A database of ``--games`` finished games (default 1,000,000: four human seats each
from ``--users`` players, in ``--chats`` chats, three deal results and a series
result a game) is filled by bulk inserts at schema version 5, the release before the
result totals, then opened by the storage, which migrates it (the totals are counted
from the results: ``migrate_seconds``). A SQLite file is kept in ``--cache-dir``
between runs (keyed by the sizes and the schema); PostgreSQL runs on a server the
benchmark starts in a temporary folder (:class:`adapters.postgres.local.LocalServer`,
with its default durability) and is filled each run.

Then ``--readers`` tasks ask at once, each its next request ``--think`` seconds
after its answer (default 5 ms: 50 readers send thousands of requests a second, far
more than any chats do): half ``/top all``, half ``/stats`` of a random player, as
the handlers ask them (:class:`bot.interactions.Interactions`: the chat's language,
the service and its cache, the screen), while four people play a game in another
chat, move after move (``service.play``), ``--moves`` moves. Prints ``name:
value`` lines: p50/p99/max of a move, of ``/top all`` and of ``/stats`` in
milliseconds, how many of each were answered, and the fill and migration times.
``--cache-ttl`` sets the service's cache of answers (``0``: every request reads the
storage); the figures of both are worth printing.

Targets (issue 23): a move's p99 under 20 ms, ``/top all``'s under 100 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import asyncpg

from adapters.postgres import PostgresStorage
from adapters.postgres import migrations as postgres_migrations
from adapters.postgres.local import LocalServer
from adapters.sqlite import SqliteStorage
from adapters.sqlite import migrations as sqlite_migrations
from bot.i18n import Translator
from bot.interactions import Interactions
from bot.models import ChatRef, Game, GameStatus, Platform, Seat, SeatKind, User, UserRef
from bot.readcache import TTL, ReadCache
from bot.rows import game_to_row
from bot.service import GameService
from core.ruleset import EGGS_TITLES

PLATFORM = Platform.TELEGRAM
#: The schema the database is filled at: the one before the totals.
FILLED_AT = 5
TITLES = ("goats", "goats", "goats", *sorted(EGGS_TITLES))
DEALS = 3
#: Seconds a reader waits between an answer and its next request.
THINK = 0.005
#: Rows a bulk insert sends at once.
CHUNK = 20_000


# --- Filling --------------------------------------------------------------------------


def template_row() -> dict[str, Any]:
    """The ``games`` row every filled game shares but for its id and chat."""
    users = [UserRef(PLATFORM, str(n)) for n in range(4)]
    game = Game(
        0,
        ChatRef(PLATFORM, "-1"),
        users[0],
        status=GameStatus.FINISHED,
        seats=[Seat(SeatKind.HUMAN, f"Player {u.id}", u) for u in users],
    )
    return dict(game_to_row(game))


def filled_rows(
    games: int, users: int, chats: int, seed: int
) -> Iterator[tuple[str, list[tuple[Any, ...]]]]:
    """``(table, rows)`` chunks of the filled history, parents first in each chunk."""
    rng = random.Random(seed)
    row = template_row()
    game_columns = [c for c in row if c != "id"]
    yield "users", [(PLATFORM.value, f"u{n}", f"Player {n}", None, 0.0) for n in range(users)]
    for start in range(1, games + 1, CHUNK):
        game_rows, seats, deals, series = [], [], [], []
        for game_id in range(start, min(start + CHUNK, games + 1)):
            chat = f"-{rng.randrange(chats) + 1}"
            game_rows.append((game_id, *(chat if c == "chat_id" else row[c] for c in game_columns)))
            for seat, user in enumerate(rng.sample(range(users), 4)):
                seats.append((game_id, seat, PLATFORM.value, f"u{user}", "human", f"P{user}"))
            for number in range(DEALS):
                points_a = rng.randrange(121)
                winner = rng.choice((0, 1, None)) if points_a != 60 else None
                deals.append(
                    (game_id, number, "yard", points_a, 120 - points_a, 4, 4, 2, 0, 0, winner, 1.0)
                )
            loser = rng.randrange(2)
            title = rng.choice(TITLES)
            series.append((game_id, "yard", loser, title, 12, 2, 0, DEALS, 1.0))
        yield "games", game_rows
        yield "participants", seats
        yield "deal_results", deals
        yield "series_results", series


COLUMNS = {
    "users": ("platform", "id", "name", "locale", "updated_at"),
    "games": ("id", *[c for c in template_row() if c != "id"]),
    "participants": ("game_id", "seat", "platform", "user_id", "kind", "name"),
    "deal_results": (
        "game_id",
        "number",
        "rule_set",
        "points_a",
        "points_b",
        "tricks_a",
        "tricks_b",
        "loss_a",
        "loss_b",
        "eggs",
        "winner",
        "at",
    ),
    "series_results": (
        "game_id",
        "rule_set",
        "loser",
        "title",
        "loss_a",
        "loss_b",
        "eggs",
        "deals",
        "at",
    ),
}


@contextlib.contextmanager
def schema_at(module: ModuleType, version: int) -> Iterator[None]:
    """The storages migrate only up to ``version`` meanwhile."""
    migrations, top = module.MIGRATIONS, module.SCHEMA_VERSION
    module.MIGRATIONS, module.SCHEMA_VERSION = migrations[:version], version
    try:
        yield
    finally:
        module.MIGRATIONS, module.SCHEMA_VERSION = migrations, top


def insert_sql(table: str, marker: str = "?") -> str:
    columns = COLUMNS[table]
    values = ", ".join(marker if marker == "?" else f"${i}" for i in range(1, len(columns) + 1))
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({values})"


def fill_sqlite_file(path: Path, games: int, users: int, chats: int, seed: int) -> None:
    with sqlite3.connect(path, isolation_level=None) as db:
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = OFF")
        db.execute("BEGIN")
        for table, rows in filled_rows(games, users, chats, seed):
            db.executemany(insert_sql(table), rows)
        db.execute("COMMIT")
    db.close()


def fresh_path(folder: Path, name: str) -> Path:
    """``folder / name``, with nothing left there of an earlier run."""
    folder.mkdir(parents=True, exist_ok=True)
    for leftover in folder.glob(f"{name}*"):
        leftover.unlink()
    return folder / name


def durable_copy(source: Path, target: Path) -> None:
    """A copy of the kept file for a run (whose moves never change the kept one),
    on the disk before the run starts: else the first checkpoint of the run would
    write the whole copy out, and a move would wait for it."""
    shutil.copyfile(source, target)
    with target.open("rb+") as copy:
        os.fsync(copy.fileno())


async def filled_sqlite(
    cache: Path, games: int, users: int, chats: int, seed: int
) -> tuple[Path, dict[str, float]]:
    """The filled and migrated file (made once, then kept in ``cache``)."""
    name = f"leaderboard-{games}-{users}-{chats}-{seed}-v{sqlite_migrations.SCHEMA_VERSION}"
    path = cache / f"{name}.sqlite3"
    if path.exists():
        return path, {}
    partial = fresh_path(cache, f"{name}.partial.sqlite3")
    with schema_at(sqlite_migrations, FILLED_AT):
        await (await SqliteStorage.open(partial)).close()
    started = time.perf_counter()
    await asyncio.to_thread(fill_sqlite_file, partial, games, users, chats, seed)
    filled = time.perf_counter() - started
    started = time.perf_counter()
    await (await SqliteStorage.open(partial)).close()  # migrates: counts the totals
    migrated = time.perf_counter() - started
    with sqlite3.connect(partial) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.execute("ANALYZE")
    db.close()
    partial.rename(path)
    return path, {"fill_seconds": filled, "migrate_seconds": migrated}


async def filled_postgres(
    server: LocalServer, games: int, users: int, chats: int, seed: int
) -> tuple[str, dict[str, float]]:
    url = server.create_database(f"leaderboard_{games}")
    with schema_at(postgres_migrations, FILLED_AT):
        await (await PostgresStorage.open(url, min_size=1)).close()
    started = time.perf_counter()
    conn = await asyncpg.connect(url)
    try:
        for table, rows in filled_rows(games, users, chats, seed):
            await conn.copy_records_to_table(table, records=rows, columns=COLUMNS[table])
        await conn.execute("SELECT setval('games_id_seq', $1)", games)
    finally:
        await conn.close()
    filled = time.perf_counter() - started
    return url, {"fill_seconds": filled}


# --- The load -------------------------------------------------------------------------


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def start_table(service: GameService, chat: ChatRef, players: list[User]) -> Game:
    game = await service.open_table(chat, players[0], join=True)
    for player in players[1:]:
        game = await service.join(game.id, None, player)
    return (await service.start(game.id, None, players[0].ref)).game


async def play_moves(service: GameService, moves: int, gap: float = 0.001) -> list[float]:
    """Four people play in a chat of their own, move after move, ``gap`` seconds
    apart: each move's time."""
    chat = ChatRef(PLATFORM, f"-{time.time_ns()}")  # a chat of this load's own
    players = [User(UserRef(PLATFORM, f"mover{n}"), f"Mover {n}") for n in range(4)]
    game = await start_table(service, chat, players)
    times: list[float] = []
    while len(times) < moves:
        game = await service.game(game.id)
        if game.status is not GameStatus.PLAYING:
            game = await start_table(service, chat, players)
            continue
        seat = game.play.turn
        if seat is None:  # between deals: the service deals on
            await asyncio.sleep(0)
            continue
        seated = game.seats[seat]
        assert seated is not None and seated.user is not None
        action = game.play.safe_action(seat)
        started = time.perf_counter()
        await service.play(game.id, game.version, seated.user, action)
        times.append(time.perf_counter() - started)
        await asyncio.sleep(gap)  # people do not press in the same millisecond
    return times


async def read_on(
    ui: Interactions,
    top: bool,
    users: int,
    rng: random.Random,
    think: float,
    stop: asyncio.Event,
) -> list[float]:
    """One reader: ``/top all`` (or ``/stats`` of a random player) in a chat of its
    own, as the handlers ask (the chat's language, the service, the screen), again
    ``think`` seconds after each answer."""
    times: list[float] = []
    chat = ChatRef(PLATFORM, f"-{rng.randrange(1, 1000)}")
    while not stop.is_set():
        started = time.perf_counter()
        if top:
            await ui.top_command(chat, "all")
        else:
            await ui.stats(chat, UserRef(PLATFORM, f"u{rng.randrange(users)}"))
        times.append(time.perf_counter() - started)
        # The next request comes over the network: never in the same instant (an
        # answer from the cache would else never give the loop back).
        await asyncio.sleep(think)
    return times


async def load(
    storage: SqliteStorage | PostgresStorage,
    *,
    readers: int,
    moves: int,
    users: int,
    cache_ttl: float,
    think: float,
    seed: int,
) -> dict[str, float]:
    service = GameService(storage, rng=random.Random(seed), computer_delay=0)
    service.read_cache = ReadCache(ttl=cache_ttl)
    ui = Interactions(service, Translator.from_dir())
    rng = random.Random(seed)
    stop = asyncio.Event()
    tasks = [
        asyncio.create_task(
            read_on(ui, n % 2 == 0, users, random.Random(rng.random()), think, stop)
        )
        for n in range(readers)
    ]
    try:
        await asyncio.sleep(0.2)  # every reader under way
        move_times = await play_moves(service, moves)
    finally:
        stop.set()
        read_times = await asyncio.gather(*tasks)
        await service.close()
    top = [t for n, times in enumerate(read_times) if n % 2 == 0 for t in times]
    stats = [t for n, times in enumerate(read_times) if n % 2 == 1 for t in times]
    figures: dict[str, float] = {}
    for name, times in (("move", move_times), ("top_all", top), ("stats", stats)):
        figures[f"{name}_count"] = len(times)
        figures[f"{name}_p50_ms"] = 1000 * quantile(times, 0.50)
        figures[f"{name}_p99_ms"] = 1000 * quantile(times, 0.99)
        figures[f"{name}_max_ms"] = 1000 * max(times, default=float("nan"))
    return figures


async def run(
    storage_kind: str,
    *,
    games: int,
    users: int,
    chats: int,
    readers: int,
    moves: int,
    cache_ttl: float,
    seed: int,
    cache_dir: Path,
    think: float = THINK,
    repeat: int = 1,
) -> list[dict[str, float]]:
    """The figures by name of ``repeat`` loads on one filled database (their fill
    and migration times in the first one's)."""
    runs: list[dict[str, float]] = []

    async def measure(storage: SqliteStorage | PostgresStorage) -> None:
        for _ in range(repeat):
            runs.append(
                await load(
                    storage,
                    readers=readers,
                    moves=moves,
                    users=users,
                    cache_ttl=cache_ttl,
                    think=think,
                    seed=seed,
                )
            )

    if storage_kind == "sqlite":
        path, setup = await filled_sqlite(cache_dir, games, users, chats, seed)
        with tempfile.TemporaryDirectory() as folder:
            copy = Path(folder) / "bench.sqlite3"
            await asyncio.to_thread(durable_copy, path, copy)
            storage: SqliteStorage | PostgresStorage = await SqliteStorage.open(copy)
            try:
                await measure(storage)
            finally:
                await storage.close()
        runs[0].update(setup)
        return runs
    with LocalServer(durable=True) as server:
        url, setup = await filled_postgres(server, games, users, chats, seed)
        started = time.perf_counter()
        storage = await PostgresStorage.open(url)  # migrates: counts the totals
        setup["migrate_seconds"] = time.perf_counter() - started
        try:
            # What a bulk load leaves the server to do (vacuum, statistics, writing
            # its buffers out) is done before the load, not during it.
            await storage.pool.execute("VACUUM (ANALYZE)", timeout=None)
            await storage.pool.execute("CHECKPOINT", timeout=None)
            await measure(storage)
        finally:
            await storage.close()
    runs[0].update(setup)
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--storage", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--users", type=int, default=100_000)
    parser.add_argument("--chats", type=int, default=20_000)
    parser.add_argument("--readers", type=int, default=50)
    parser.add_argument("--moves", type=int, default=500)
    parser.add_argument("--cache-ttl", type=float, default=TTL)
    parser.add_argument(
        "--think", type=float, default=THINK, help="seconds a reader waits between requests"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="loads on the one filled database; the median of each figure is printed",
    )
    parser.add_argument(
        "--cache-dir", type=Path, default=Path(tempfile.gettempdir()) / "kozel-bench"
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per run too")
    args = parser.parse_args()
    runs = asyncio.run(
        run(
            args.storage,
            games=args.games,
            users=args.users,
            chats=args.chats,
            readers=args.readers,
            moves=args.moves,
            cache_ttl=args.cache_ttl,
            seed=args.seed,
            cache_dir=args.cache_dir,
            think=args.think,
            repeat=args.repeat,
        )
    )
    if args.json:
        for figures in runs:
            print(json.dumps(figures))
    print(f"storage: {args.storage}")
    print(f"games: {args.games}")
    print(f"readers: {args.readers}")
    print(f"cache_ttl: {args.cache_ttl}")
    print(f"think: {args.think}")
    print(f"runs: {len(runs)}")
    for name in runs[0]:
        values = [run[name] for run in runs if name in run]
        print(f"{name}: {statistics.median(values):.2f}")


if __name__ == "__main__":
    main()
