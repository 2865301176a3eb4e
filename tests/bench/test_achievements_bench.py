"""The achievements benchmark still runs end to end (a few runs; no figures checked)."""

from __future__ import annotations

from bench import achievements


async def test_the_achievements_benchmark_runs_both_rule_sets() -> None:
    figures = await achievements.run(runs=3, seed=1)
    for rule_set in ("yard", "classic"):
        for name in ("decide", "save", "total", "cpu"):
            p50, p99 = figures[f"{rule_set}_{name}_p50_ms"], figures[f"{rule_set}_{name}_p99_ms"]
            assert 0 <= p50 <= p99
        assert figures[f"{rule_set}_decide_p50_ms"] > 0
