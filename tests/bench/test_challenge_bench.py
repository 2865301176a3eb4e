"""The challenge standings benchmark still runs end to end (tiny sizes; no figures
checked): bench/challenge.py."""

from __future__ import annotations

from pathlib import Path

from bench import challenge


async def test_the_challenge_benchmark_reads_the_table_of_every_result(tmp_path: Path) -> None:
    result = await challenge.measure(tmp_path, entrants=50, deals=8, reads=5, runs=2, seed=3)
    assert result["results"] == 400
    assert 0 < result["median_p50_ms"] <= result["run1_max_ms"] + result["run2_max_ms"]
