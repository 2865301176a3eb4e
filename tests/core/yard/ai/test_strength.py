"""The baseline beats the random player clearly (a small run of ``bench.yard_ai``)."""

from __future__ import annotations

import pytest

from bench import yard_ai_gain
from bench.yard_ai import main, measure


def test_the_baseline_wins_most_deals_and_series_against_random_players() -> None:
    figures = measure(deals=200, series=20, seed=1)
    decided = figures.deals - figures.eggs
    assert figures.wins > 0.6 * decided
    assert figures.points > 2 * figures.opponent_points
    assert figures.loss_points_given > 3 * figures.loss_points_taken
    assert figures.series_wins >= 16


def test_the_measurement_is_the_same_for_the_same_seed() -> None:
    assert measure(deals=20, series=2, seed=3) == measure(deals=20, series=2, seed=3)


def test_the_measurement_prints_name_value_lines(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--deals", "8", "--series", "1", "--seed", "2"])
    lines = capsys.readouterr().out.splitlines()
    names = [line.split(": ")[0] for line in lines]
    assert "baseline_deal_win_rate" in names
    assert "baseline_series_win_rate" in names
    figures = {name: float(line.split(": ")[1]) for name, line in zip(names, lines, strict=True)}
    # Every figure is a count, a rate or a mean, none negative, but the net loss points
    # (taken minus given), and the interval holds the rate.
    assert all(value >= 0 for name, value in figures.items() if "_net_" not in name)
    taken, given = (
        figures["baseline_mean_loss_points_taken"],
        figures["baseline_mean_loss_points_given"],
    )
    assert abs(figures["baseline_net_loss_points"] - (taken - given)) < 0.002
    rate = figures["baseline_deal_win_rate"]
    assert (
        figures["baseline_deal_win_rate_95_low"]
        <= rate
        <= figures["baseline_deal_win_rate_95_high"]
    )


def test_the_strong_level_s_settings_may_be_changed_for_a_run() -> None:
    # --strong '{"worlds": 2}': a variant measured without changing the code; the
    # figures depend on the settings and the seed alone.
    first = measure(
        deals=2, series=0, seed=4, player="strong", opponent="normal", strong='{"worlds": 2}'
    )
    again = measure(
        deals=2, series=0, seed=4, player="strong", opponent="normal", strong='{"worlds": 2}'
    )
    assert first == again
    assert first.decisions > 0


def test_the_gain_per_decision_is_zero_when_the_search_is_the_baseline(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A confidence no difference can pass: the search plays the baseline's choices.
    yard_ai_gain.main(["--deals", "2", "--strong", '{"worlds": 2, "confidence": 1e9}'])
    lines = dict(line.split(": ", 1) for line in capsys.readouterr().out.splitlines())
    assert int(lines["decisions"]) > 0
    assert lines["differ"] == "0"
    assert lines["gain_per_decision"].startswith("+0.0000")


def test_the_paired_gain_compares_two_settings_on_the_same_decisions(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The same settings on both sides: every decision's gains are equal.
    same = '{"worlds": 3}'
    yard_ai_gain.main(["--deals", "2", "--strong", same, "--against", same])
    lines = dict(line.split(": ", 1) for line in capsys.readouterr().out.splitlines())
    assert lines["paired_gain_per_decision"].startswith("+0.0000")
    assert lines["paired_outcomes_differ"] == "0"
    assert int(lines["decisions"]) > 0
