"""The classic engine benchmark runs (tiny sizes; no figures checked) and plays games to
their end."""

from __future__ import annotations

import random

from bench.classic import figures, random_game, random_options


def test_the_classic_figures_are_printed_for_both_names() -> None:
    result = figures(deals=8, repeat=1, seed=3)
    assert set(result) == {"classic_random_deals_per_second", "classic_random_games_per_second"}
    assert all(value > 0 for value in result.values())


def test_a_benchmark_game_ends_at_six_pairs() -> None:
    rng = random.Random(5)
    game = random_game(rng, random_options(rng))
    assert game.is_over and max(game.pairs) >= 6
