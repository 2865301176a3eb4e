"""The classic levels' benchmark runs (tiny sizes; no figures checked)."""

from __future__ import annotations

import pytest

from bench import classic_ai
from core.classic.options import ClassicOptions


def test_the_classic_levels_are_measured_with_an_interval_and_times() -> None:
    lines, timing = classic_ai.measure(2, 0, 1, ClassicOptions(), "easy", "baseline")
    names = {line.split(":")[0] for line in lines}
    assert {"easy_deal_win_rate_95_low", "easy_net_pairs", "normal_mean_points"} <= names
    assert timing and timing[0].startswith("easy_ms_per_decision: median")


def test_the_classic_levels_benchmark_prints_name_value_lines(
    capsys: pytest.CaptureFixture[str],
) -> None:
    classic_ai.main(["--deals", "2", "--games", "0", "--x", "easy", "--y", "baseline"])
    captured = capsys.readouterr()
    names = {line.split(": ")[0] for line in captured.out.splitlines()}
    assert {"easy_deal_win_rate", "easy_net_pairs", "normal_mean_points"} <= names
    assert "elapsed_seconds" in captured.err and "easy_ms_per_decision" in captured.err
