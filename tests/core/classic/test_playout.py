"""The engine's random playout makes exactly the moves of the step-by-step loop."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from core.classic.dealing import Dealing
from core.classic.options import ClassicOptions
from tests.core.classic.test_properties import OPTIONS, SEEDS


def stepwise(dealing: Dealing, rand: random.Random) -> None:
    while not dealing.is_over:
        legal = dealing.legal_raw()
        dealing.step_raw(*legal[int(rand.random() * len(legal))], None)


@settings(max_examples=200, deadline=None)
@given(SEEDS, OPTIONS, st.integers(min_value=0, max_value=3), st.integers(0, 2))
def test_playout_equals_the_stepwise_random_loop(
    seed: int, options: ClassicOptions, dealer: int, number: int
) -> None:
    rng = random.Random(seed)
    dealing = Dealing.shuffled(options, dealer, rng, number=number)
    other = dealing.copy()
    result = dealing.playout(random.Random(seed + 1).random)
    stepwise(other, random.Random(seed + 1))
    assert dealing == other and result == other.result
