"""``bench.ratings`` still runs end to end on both storages (tiny sizes; no figures
checked beyond their shape): it fills, migrates, loads and rates."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from bench import ratings


def arguments(storage: str, cache_dir: Path) -> argparse.Namespace:
    return argparse.Namespace(
        storage=storage,
        games=400,
        users=60,
        chats=8,
        months=2,
        readers=4,
        rate=[0.0, 40.0],
        seconds=1.0,
        moves=12,
        updates=20,
        cache_ttl=0.0,
        think=0.001,
        seed=3,
        repeat=1,
        cache_dir=cache_dir,
    )


@pytest.mark.parametrize("storage", ["sqlite", "postgres"])
async def test_the_ratings_benchmark_loads_and_rates_on(storage: str, tmp_path: Path) -> None:
    runs = await ratings.run(arguments(storage, tmp_path))
    assert [run["rate"] for run in runs] == [0.0, 40.0]
    assert runs[0]["migrate_seconds"] > 0
    for run in runs:
        assert run["update_count"] == 20
        assert 0 < run["update_p50_ms"] <= run["update_p99_ms"] <= run["update_max_ms"]
        assert run["move_count"] == 12 and run["stats_count"] > 0
        # Only PostgreSQL times the update's statements apart from its commit.
        assert ("update_statements_p50_ms" in run) is (storage == "postgres")
        if storage == "postgres":
            assert 0 < run["update_statements_p50_ms"] <= run["update_p50_ms"]
