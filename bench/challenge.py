"""Challenge standings benchmark: ``python -m bench.challenge``.

A SQLite database (``--storage postgres``: a PostgreSQL server the benchmark starts
in a temporary folder) holds one duplicate challenge played by ``--entrants`` entrants
(default 12,500) over ``--deals`` deals each (default 8: 100,000 entrant x deal
results), filled by bulk inserts into the tables of migration ``0011_challenges``
(each deal's result row, each entrant's totals, each score group's and each deal's,
as the trigger keeps them). Then ``/top challenge``'s read
(:meth:`SqliteStorage.challenge_standings`: the best ten and the asker's own place,
on a read connection, no cache) is asked ``--reads`` times for random askers, ``--runs``
times over. Prints ``name: value`` lines: each run's p50, p99 and max in milliseconds,
and the medians over the runs.

Target (docs/tournaments.md): p99 under 50 ms at 100,000 results.
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
from pathlib import Path
from typing import Any

import asyncpg

from adapters.challenges import challenge_row
from adapters.postgres import PostgresStorage
from adapters.postgres.local import LocalServer
from adapters.sqlite import SqliteStorage
from bot.challenge import Challenge
from bot.models import Platform, UserRef

PLATFORM = Platform.TELEGRAM
CHALLENGE = Challenge("yard-2026-12-04", "yard", {}, 8, 1_796_342_400.0)


def rows(entrants: int, deals: int, seed: int) -> dict[str, list[tuple[Any, ...]]]:
    """Every table's rows of a challenge played to its end by ``entrants``, as the
    trigger would keep them."""
    rng = random.Random(seed)
    plays: list[tuple[Any, ...]] = []
    people: list[tuple[Any, ...]] = []
    totals = [[0, 0] for _ in range(deals)]
    groups: dict[tuple[int, int], int] = {}
    game_id = 0
    mask = (1 << deals) - 1
    for entrant in range(entrants):
        lost_sum = 0
        for deal in range(deals):
            game_id += 1
            lost = rng.choice((-4, -2, -2, -1, 0, 1, 2, 2, 4))
            plays.append((CHALLENGE.id, PLATFORM.value, str(entrant), deal, game_id, lost))
            totals[deal][0] += 1
            totals[deal][1] += lost
            lost_sum += lost
        people.append(
            (CHALLENGE.id, PLATFORM.value, str(entrant), f"player {entrant}", deals, mask, lost_sum)
        )
        groups[mask, lost_sum] = groups.get((mask, lost_sum), 0) + 1
    row = challenge_row(CHALLENGE)
    return {
        "challenges": [tuple(row.values())],
        "challenge_plays": plays,
        "challenge_entrants": people,
        "challenge_scores": [(CHALLENGE.id, m, lost, n) for (m, lost), n in groups.items()],
        "challenge_deal_totals": [
            (CHALLENGE.id, deal, n, lost) for deal, (n, lost) in enumerate(totals)
        ],
    }


def fill_sqlite(path: Path, entrants: int, deals: int, seed: int) -> None:
    """Bulk insert a challenge's results (the storage made the schema)."""
    with sqlite3.connect(path) as db:
        for table, found in rows(entrants, deals, seed).items():
            marks = ", ".join("?" * len(found[0]))
            db.executemany(f"INSERT INTO {table} VALUES ({marks})", found)


async def fill_postgres(url: str, entrants: int, deals: int, seed: int) -> None:
    conn = await asyncpg.connect(url)
    try:
        # The deals' games are not filled: their keys are not checked (a superuser's
        # session on the benchmark's own server).
        await conn.execute("SET session_replication_role = replica")
        for table, found in rows(entrants, deals, seed).items():
            await conn.copy_records_to_table(table, records=found)
    finally:
        await conn.close()


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def measure(
    folder: Path,
    *,
    entrants: int,
    deals: int,
    reads: int,
    runs: int,
    seed: int,
    storage_kind: str = "sqlite",
) -> dict[str, Any]:
    """Fill the database, then time ``runs`` rounds of ``reads`` standings reads."""
    if storage_kind == "postgres":
        with LocalServer(durable=True) as server:
            url = server.create_database("challenge")
            await (await PostgresStorage.open(url, min_size=1)).close()  # the schema
            started = time.perf_counter()
            await fill_postgres(url, entrants, deals, seed)
            filled = time.perf_counter() - started
            async with await PostgresStorage.open(url) as storage:
                return await _timed(storage, filled, entrants, deals, reads, runs, seed)
    path = folder / "challenge.sqlite3"
    async with await SqliteStorage.open(path):
        pass  # the schema, migrated
    started = time.perf_counter()
    fill_sqlite(path, entrants, deals, seed)
    filled = time.perf_counter() - started
    async with await SqliteStorage.open(path) as storage:
        return await _timed(storage, filled, entrants, deals, reads, runs, seed)


async def _timed(
    storage: SqliteStorage | PostgresStorage,
    filled: float,
    entrants: int,
    deals: int,
    reads: int,
    runs: int,
    seed: int,
) -> dict[str, Any]:
    result: dict[str, Any] = {
        "entrants": entrants,
        "results": entrants * deals,
        "fill_seconds": round(filled, 2),
    }
    rng = random.Random(seed)
    p50s, p99s = [], []
    for run in range(runs):
        times = []
        for _ in range(reads):
            asker = UserRef(PLATFORM, str(rng.randrange(entrants)))
            began = time.perf_counter()
            table = await storage.challenge_standings(CHALLENGE, asker)
            times.append((time.perf_counter() - began) * 1000)
            assert table.own is not None and len(table.top) == min(10, entrants)
            assert table.entrants == entrants
        p50, p99 = quantile(times, 0.5), quantile(times, 0.99)
        result[f"run{run + 1}_p50_ms"] = round(p50, 2)
        result[f"run{run + 1}_p99_ms"] = round(p99, 2)
        result[f"run{run + 1}_max_ms"] = round(max(times), 2)
        p50s.append(p50)
        p99s.append(p99)
    result["median_p50_ms"] = round(statistics.median(p50s), 2)
    result["median_p99_ms"] = round(statistics.median(p99s), 2)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--storage", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--entrants", type=int, default=12_500)
    parser.add_argument("--deals", type=int, default=8)
    parser.add_argument("--reads", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one JSON object too")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        result = asyncio.run(
            measure(
                Path(folder),
                entrants=args.entrants,
                deals=args.deals,
                reads=args.reads,
                runs=args.runs,
                seed=args.seed,
                storage_kind=args.storage,
            )
        )
    for name, value in result.items():
        print(f"{name}: {value}")
    if args.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
