"""The classic levels' benchmark runs (tiny sizes; no figures checked)."""

from __future__ import annotations

from bench import classic_ai
from core.classic.options import ClassicOptions


def test_the_classic_levels_are_measured_with_an_interval_and_times() -> None:
    lines, timing = classic_ai.measure(2, 0, 1, ClassicOptions(), "easy", "baseline")
    names = {line.split(":")[0] for line in lines}
    assert {"easy_deal_win_rate_95_low", "easy_net_pairs", "normal_mean_points"} <= names
    assert timing and timing[0].startswith("easy_ms_per_decision: median")
