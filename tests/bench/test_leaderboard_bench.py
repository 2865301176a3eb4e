"""The leaderboard benchmark still runs end to end (tiny sizes; no figures checked)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import leaderboard

SIZES = {"games": 300, "users": 40, "chats": 10, "readers": 6, "moves": 20, "seed": 1}


@pytest.mark.parametrize("cache_ttl", [0.0, 5.0])
async def test_the_leaderboard_benchmark_runs_on_sqlite(tmp_path: Path, cache_ttl: float) -> None:
    (first,) = await leaderboard.run("sqlite", cache_ttl=cache_ttl, cache_dir=tmp_path, **SIZES)
    assert first["migrate_seconds"] > 0  # filled at schema 5, then migrated
    assert first["move_count"] == SIZES["moves"]
    assert first["top_all_count"] > 0 and first["stats_count"] > 0
    assert 0 < first["move_p50_ms"] <= first["move_p99_ms"] <= first["move_max_ms"]
    again = await leaderboard.run(
        "sqlite", cache_ttl=cache_ttl, cache_dir=tmp_path, repeat=2, **SIZES
    )
    assert "fill_seconds" not in again[0]  # the filled file was kept
    assert [figures["move_count"] for figures in again] == [SIZES["moves"]] * 2


async def test_the_leaderboard_benchmark_runs_on_postgresql(
    tmp_path: Path, postgres_server: object
) -> None:
    """(The benchmark starts a server of its own; the fixture only skips the test
    where none can run.)"""
    (result,) = await leaderboard.run("postgres", cache_ttl=0.0, cache_dir=tmp_path, **SIZES)
    assert result["move_count"] == SIZES["moves"]
    assert result["top_all_count"] > 0 and result["stats_count"] > 0
    assert result["fill_seconds"] > 0 and result["migrate_seconds"] > 0


def test_the_filled_history_counts_what_it_says() -> None:
    rows: dict[str, int] = {}
    for table, chunk in leaderboard.filled_rows(games=50, users=10, chats=3, seed=2):
        rows[table] = rows.get(table, 0) + len(chunk)
    assert rows == {
        "users": 10,
        "games": 50,
        "participants": 200,
        "deal_results": 50 * leaderboard.DEALS,
        "series_results": 50,
    }
