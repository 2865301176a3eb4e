"""Ratings benchmark (issue 25): ``python -m bench.ratings``.

A database of ``--games`` finished games (default 1,000,000, all rated: four human
seats from ``--users`` players, in ``--chats`` chats, both rule sets, their results
spread over ``--months`` months) is filled by bulk inserts at schema version 5 (as
:mod:`bench.leaderboard` fills it), then opened by the storage, which migrates it:
migration 0006 counts the totals, 0009 rates the whole history in order
(``migrate_seconds``). A SQLite file is kept in ``--cache-dir`` between runs;
PostgreSQL runs on a server the benchmark starts and is filled each run.

Then ``--readers`` tasks ask at once, as the handlers ask
(:class:`bot.interactions.Interactions`), each its next request ``--think`` seconds
after its answer: in turn ``/top`` of a random chat, ``/top all``, ``/top season`` of
a random chat and ``/stats`` of a random player, while four people play in another
chat, move after move (``--moves``). With ``--cache-ttl 0`` (the default here) every
request reads the storage. With ``--rate R`` the reads come instead at random, R a
second in all (a Poisson process, the kinds in turn), each on its own task, for
``--seconds`` (the moves spread over them): what a user waits at that traffic,
where the closed loop of ``--readers`` measures how many reads a second are
answered (its latencies grow with the readers). Last, the rating update of a
finished game alone: ``--updates`` rated games of random players are rated in a
transaction each (SQLite: on the storage's connection, as the save does;
PostgreSQL: on a pooled connection, rows locked), and the time of each is taken.

Prints ``name: value`` lines: p50/p99/max in milliseconds of a move, each read and
the update, how many of each were answered and how many reads a second in all, and
the fill and migration times.

Targets (issue 25): ``/top``, ``/top all``, ``/stats`` p99 under 50 ms on SQLite and
PostgreSQL with 1,000,000 rated games and 100,000 players, a move elsewhere
unaffected, the update of a finished game under 5 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import asyncpg

from adapters.postgres import PostgresStorage
from adapters.postgres import migrations as postgres_migrations
from adapters.postgres.local import LocalServer
from adapters.postgres.storage import rate_game
from adapters.sqlite import SqliteStorage
from adapters.sqlite import migrations as sqlite_migrations
from bench.leaderboard import (
    CHUNK,
    COLUMNS,
    DEALS,
    FILLED_AT,
    PLATFORM,
    TITLES,
    durable_copy,
    fresh_path,
    insert_sql,
    play_moves,
    quantile,
    schema_at,
    template_row,
)
from bot.i18n import Translator
from bot.interactions import Interactions
from bot.models import ChatRef, UserRef
from bot.ratings import RatedGame
from bot.readcache import ReadCache
from bot.service import GameService

#: Seconds a reader waits between an answer and its next request.
THINK = 0.005
#: The first result's time: 2024-01-01 UTC.
START = 1_704_067_200.0
MONTH = 30 * 86400.0
READS = ("top_chat", "top_all", "top_season", "stats")


def filled_rows(
    games: int, users: int, chats: int, months: int, seed: int
) -> Iterator[tuple[str, list[tuple[Any, ...]]]]:
    """``(table, rows)`` chunks of the filled history, parents first in each chunk:
    the games in the order of their results, which spread over ``months``."""
    rng = random.Random(seed)
    row = template_row()
    game_columns = [c for c in row if c != "id"]
    step = months * MONTH / games
    yield "users", [(PLATFORM.value, f"u{n}", f"Player {n}", None, 0.0) for n in range(users)]
    for start in range(1, games + 1, CHUNK):
        game_rows, seats, deals, series = [], [], [], []
        for game_id in range(start, min(start + CHUNK, games + 1)):
            chat = f"-{rng.randrange(chats) + 1}"
            rule_set = "yard" if rng.random() < 0.6 else "classic"
            values = {"chat_id": chat, "rule_set": rule_set}
            game_rows.append((game_id, *(values.get(c, row[c]) for c in game_columns)))
            for seat, user in enumerate(rng.sample(range(users), 4)):
                seats.append((game_id, seat, PLATFORM.value, f"u{user}", "human", f"P{user}"))
            at = START + game_id * step
            for number in range(DEALS):
                points_a = rng.randrange(121)
                winner = rng.choice((0, 1, None)) if points_a != 60 else None
                deals.append(
                    (game_id, number, rule_set, points_a, 120 - points_a, 4, 4, 2, 0, 0, winner, at)
                )
            loser = rng.randrange(2)
            series.append((game_id, rule_set, loser, rng.choice(TITLES), 12, 2, 0, DEALS, at))
        yield "games", game_rows
        yield "participants", seats
        yield "deal_results", deals
        yield "series_results", series


def fill_sqlite_file(
    path: Path, games: int, users: int, chats: int, months: int, seed: int
) -> None:
    with sqlite3.connect(path, isolation_level=None) as db:
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = OFF")
        db.execute("BEGIN")
        for table, rows in filled_rows(games, users, chats, months, seed):
            db.executemany(insert_sql(table), rows)
        db.execute("COMMIT")
    db.close()


async def filled_sqlite(
    cache: Path, games: int, users: int, chats: int, months: int, seed: int
) -> tuple[Path, dict[str, float]]:
    """The filled and migrated file (made once, then kept in ``cache``)."""
    version = sqlite_migrations.SCHEMA_VERSION
    name = f"ratings-{games}-{users}-{chats}-{months}-{seed}-v{version}"
    path = cache / f"{name}.sqlite3"
    if path.exists():
        return path, {}
    partial = fresh_path(cache, f"{name}.partial.sqlite3")
    with schema_at(sqlite_migrations, FILLED_AT):
        await (await SqliteStorage.open(partial)).close()
    started = time.perf_counter()
    await asyncio.to_thread(fill_sqlite_file, partial, games, users, chats, months, seed)
    filled = time.perf_counter() - started
    started = time.perf_counter()
    await (await SqliteStorage.open(partial)).close()  # migrates: totals, then ratings
    migrated = time.perf_counter() - started
    with sqlite3.connect(partial) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.execute("ANALYZE")
    db.close()
    partial.rename(path)
    return path, {"fill_seconds": filled, "migrate_seconds": migrated}


async def filled_postgres(
    server: LocalServer, games: int, users: int, chats: int, months: int, seed: int
) -> tuple[str, dict[str, float]]:
    url = server.create_database(f"ratings_{games}")
    with schema_at(postgres_migrations, FILLED_AT):
        await (await PostgresStorage.open(url, min_size=1)).close()
    started = time.perf_counter()
    conn = await asyncpg.connect(url)
    try:
        for table, rows in filled_rows(games, users, chats, months, seed):
            await conn.copy_records_to_table(table, records=rows, columns=COLUMNS[table])
        await conn.execute("SELECT setval('games_id_seq', $1)", games)
    finally:
        await conn.close()
    return url, {"fill_seconds": time.perf_counter() - started}


# --- The load -------------------------------------------------------------------------


async def read_on(
    ui: Interactions,
    kind: str,
    users: int,
    chats: int,
    rng: random.Random,
    think: float,
    stop: asyncio.Event,
) -> list[float]:
    """One reader asking ``kind`` again and again, ``think`` seconds apart."""
    times: list[float] = []
    while not stop.is_set():
        started = time.perf_counter()
        await read_once(ui, kind, users, chats, rng)
        times.append(time.perf_counter() - started)
        await asyncio.sleep(think)
    return times


async def read_once(
    ui: Interactions, kind: str, users: int, chats: int, rng: random.Random
) -> None:
    chat = ChatRef(PLATFORM, f"-{rng.randrange(chats) + 1}")
    if kind == "top_chat":
        await ui.top_command(chat, None)
    elif kind == "top_all":
        await ui.top_command(chat, "all")
    elif kind == "top_season":
        await ui.top_command(chat, "season")
    else:
        await ui.stats(chat, UserRef(PLATFORM, f"u{rng.randrange(users)}"))


async def read_at_rate(
    ui: Interactions,
    rate: float,
    users: int,
    chats: int,
    rng: random.Random,
    stop: asyncio.Event,
) -> dict[str, list[float]]:
    """Requests arriving at random (a Poisson process of ``rate`` a second), the kinds
    in turn, each answered on its own task whatever the others are doing: an open
    load, whose latencies are what a user waits at that traffic (a closed loop of
    ``--readers`` measures how many requests a second the storage answers, its
    latencies grow with the readers)."""
    times: dict[str, list[float]] = {kind: [] for kind in READS}
    running: set[asyncio.Task[None]] = set()

    async def one(kind: str, due: float) -> None:
        await read_once(ui, kind, users, chats, rng)
        times[kind].append(time.perf_counter() - due)

    due = time.perf_counter()
    n = 0
    while not stop.is_set():
        due += rng.expovariate(rate)
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        task = asyncio.create_task(one(READS[n % len(READS)], due))
        running.add(task)
        task.add_done_callback(running.discard)
        n += 1
    await asyncio.gather(*running)
    return times


async def load(
    storage: SqliteStorage | PostgresStorage,
    *,
    rate: float,
    seconds: float,
    readers: int,
    moves: int,
    users: int,
    chats: int,
    cache_ttl: float,
    think: float,
    seed: int,
    season_at: float,
) -> dict[str, float]:
    # The clock stands in the last month of the history: /top season has rows.
    service = GameService(storage, rng=random.Random(seed), computer_delay=0)
    service.tables.clock = _Clock(season_at)
    service.read_cache = ReadCache(ttl=cache_ttl)
    ui = Interactions(service, Translator.from_dir())
    rng = random.Random(seed)
    stop = asyncio.Event()
    kinds = [] if rate else [READS[n % len(READS)] for n in range(readers)]
    tasks = [
        asyncio.create_task(
            read_on(ui, kind, users, chats, random.Random(rng.random()), think, stop)
        )
        for kind in kinds
    ]
    arrivals = (
        asyncio.create_task(read_at_rate(ui, rate, users, chats, random.Random(seed), stop))
        if rate
        else None
    )
    started = time.perf_counter()
    try:
        await asyncio.sleep(0.2)
        move_times = await play_moves(service, moves, seconds / moves if rate else 0.001)
    finally:
        stop.set()
        read_times = await asyncio.gather(*tasks)
        at_rate = {} if arrivals is None else await arrivals
        await service.close()
    elapsed = time.perf_counter() - started
    figures: dict[str, float] = {}
    groups = {"move": move_times}
    for kind in READS:
        groups[kind] = at_rate.get(kind, []) + [
            t for k, times in zip(kinds, read_times, strict=True) if k == kind for t in times
        ]
    for name, times in groups.items():
        figures[f"{name}_count"] = len(times)
        figures[f"{name}_p50_ms"] = 1000 * quantile(times, 0.50)
        figures[f"{name}_p99_ms"] = 1000 * quantile(times, 0.99)
        figures[f"{name}_max_ms"] = 1000 * max(times, default=float("nan"))
    figures["reads_per_second"] = sum(len(groups[kind]) for kind in READS) / elapsed
    return figures


class _Clock:
    """The wall clock moved to the history's last month."""

    def __init__(self, at: float) -> None:
        self._offset = at - time.time()

    def now(self) -> float:
        return time.time() + self._offset


def rated_games(
    count: int, users: int, chats: int, seed: int, at: float, first_id: int
) -> list[RatedGame]:
    """Games finishing now, of random players: the update's workload."""
    rng = random.Random(seed + 1)
    return [
        RatedGame(
            first_id + n,
            PLATFORM.value,
            f"-{rng.randrange(chats) + 1}",
            rng.choice(("yard", "classic")),
            at,
            tuple(f"u{u}" for u in rng.sample(range(users), 4)),  # type: ignore[arg-type]
            rng.randrange(2),
        )
        for n in range(count)
    ]


async def updates(
    storage: SqliteStorage | PostgresStorage, games: list[RatedGame]
) -> dict[str, float]:
    """Each game rated in a transaction of its own (as the storage's ``rate``): the
    time of the update with a commit of its own (``update``). On PostgreSQL also its
    statements alone (``update_statements``), without the transaction's begin and
    commit: in the bot they are those of the save that keeps the result, there
    anyway (whose commit then flushes the update's WAL too)."""
    times: list[float] = []
    statements: list[float] = []
    for game in games:
        started = time.perf_counter()
        if isinstance(storage, PostgresStorage):
            async with storage.pool.acquire() as conn, conn.transaction():
                begun = time.perf_counter()
                await rate_game(conn, game)
                statements.append(time.perf_counter() - begun)
        else:
            await storage.rate(game)
        times.append(time.perf_counter() - started)
    figures = {"update_count": float(len(times))}
    for name, sample in (("update", times), ("update_statements", statements)):
        if sample:
            figures[f"{name}_p50_ms"] = 1000 * quantile(sample, 0.50)
            figures[f"{name}_p99_ms"] = 1000 * quantile(sample, 0.99)
            figures[f"{name}_max_ms"] = 1000 * max(sample)
    return figures


async def run(args: argparse.Namespace) -> list[dict[str, float]]:
    runs: list[dict[str, float]] = []
    season_at = START + args.months * MONTH - 86400.0  # in the history's last month

    async def measure(storage: SqliteStorage | PostgresStorage) -> None:
        for n, rate in enumerate(rate for _ in range(args.repeat) for rate in args.rate):
            figures = await load(
                storage,
                rate=rate,
                seconds=args.seconds,
                readers=args.readers,
                moves=args.moves,
                users=args.users,
                chats=args.chats,
                cache_ttl=args.cache_ttl,
                think=args.think,
                seed=args.seed,
                season_at=season_at,
            )
            first_id = 100_000_000 + n * args.updates
            games = rated_games(
                args.updates, args.users, args.chats, args.seed + n, season_at, first_id
            )
            figures.update(await updates(storage, games))
            figures["rate"] = rate
            runs.append(figures)

    if args.storage == "sqlite":
        path, setup = await filled_sqlite(
            args.cache_dir, args.games, args.users, args.chats, args.months, args.seed
        )
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
        url, setup = await filled_postgres(
            server, args.games, args.users, args.chats, args.months, args.seed
        )
        started = time.perf_counter()
        storage = await PostgresStorage.open(url)  # migrates: totals, then ratings
        setup["migrate_seconds"] = time.perf_counter() - started
        try:
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
    parser.add_argument("--months", type=int, default=24)
    parser.add_argument("--readers", type=int, default=40)
    parser.add_argument(
        "--rate",
        type=float,
        nargs="+",
        default=[0.0],
        help="reads a second arriving at random instead of --readers in a closed loop "
        "(0); several: a load at each in turn, --repeat times, on one filled database",
    )
    parser.add_argument(
        "--seconds", type=float, default=20.0, help="with --rate: the moves spread over so long"
    )
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--updates", type=int, default=500)
    parser.add_argument("--cache-ttl", type=float, default=0.0)
    parser.add_argument("--think", type=float, default=THINK)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument(
        "--cache-dir", type=Path, default=Path(tempfile.gettempdir()) / "kozel-bench"
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per run too")
    args = parser.parse_args()
    runs = asyncio.run(run(args))
    if args.json:
        for figures in runs:
            print(json.dumps(figures))
    for name in ("storage", "games", "users", "readers", "cache_ttl", "think"):
        print(f"{name}: {getattr(args, name)}")
    for name in ("fill_seconds", "migrate_seconds"):
        if name in runs[0]:
            print(f"{name}: {runs[0][name]:.2f}")
    for rate in args.rate:
        same = [figures for figures in runs if figures["rate"] == rate]
        print(f"\nrate: {rate} ({'closed loop of --readers' if not rate else 'reads a second'})")
        print(f"runs: {len(same)}")
        for name in same[0]:
            if name not in ("rate", "fill_seconds", "migrate_seconds"):
                print(f"{name}: {statistics.median(run[name] for run in same):.2f}")


if __name__ == "__main__":
    main()
