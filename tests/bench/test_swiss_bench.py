"""``bench.swiss`` still runs end to end (tiny sizes; no figures checked beyond their
shape): events are simulated and their rounds paired and timed."""

from __future__ import annotations

import pytest

from bench import swiss
from core import swiss as core_swiss


@pytest.mark.parametrize("entrants", [40, 41])
def test_the_swiss_benchmark_times_every_round_asked(entrants: int) -> None:
    figures = swiss.run(entrants, rounds=[1, 3], runs=3, events=2, seed=1)
    for number in (1, 3):
        for kind in ("wall", "cpu"):
            p50, p99 = (
                figures[f"round{number}_{kind}_p50_ms"],
                figures[f"round{number}_{kind}_p99_ms"],
            )
            assert 0 <= p50 <= p99 <= figures[f"round{number}_{kind}_max_ms"]
        assert figures[f"round{number}_rematches"] == 0  # a young event avoids them all
    assert figures["round1_wall_p50_ms"] > 0


def test_a_round_paired_by_the_matching_is_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(core_swiss, "SEARCH_STEPS", 0)
    figures = swiss.run(12, rounds=[2], runs=1, events=3, seed=1)
    assert figures["round2_matched"] == 3
