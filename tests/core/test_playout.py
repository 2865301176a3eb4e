"""The engine's random playout makes exactly the moves of a step-by-step random loop."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from core.cards import Card
from core.yard.deal import MOLODKA, Deal


def with_molodka(seed: int) -> Deal:
    """A random deal in which seat 2 holds the four lowest hearts."""
    rng = random.Random(seed)
    dealer = seed & 3
    hearts = [Card.parse(code).index for code in ("6H", "7H", "8H", "9H")]
    rest = [i for i in range(36) if i not in hearts]
    rng.shuffle(rest)
    deck: list[int] = []
    for i in range(36):
        if i < 16 and (dealer + 1 + i) % 4 == 2:
            deck.append(hearts.pop())
        else:
            deck.append(rest.pop())
    return Deal(dealer, deck, rng.randrange(20))


def stepwise(deal: Deal, rand: random.Random) -> None:
    while not deal.is_over:
        legal = deal.legal_raw()
        deal.step_raw(*legal[int(rand.random() * len(legal))], None)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 40))
def test_playout_equals_the_stepwise_loop(seed: int, steps: int) -> None:
    """From the start or from a random position part-way through the deal."""
    rng = random.Random(seed)
    deal = Deal.shuffled(seed & 3, rng)
    for _ in range(steps):
        if deal.is_over:
            break
        legal = deal.legal_raw()
        deal.step_raw(*legal[int(rng.random() * len(legal))], None)
    other = deal.copy()
    result = deal.playout(random.Random(seed + 1).random)
    stepwise(other, random.Random(seed + 1))
    assert deal == other
    assert result == other.result
    assert deal.table_view() == other.table_view()


def test_playout_declares_molodkas_like_the_stepwise_loop() -> None:
    """Deals where seat 2 holds four hearts: the molodka is among the random moves."""
    declared = 0
    for seed in range(300):
        deal = with_molodka(seed)
        other = deal.copy()
        deal.playout(random.Random(seed).random)
        stepwise(other, random.Random(seed))
        assert deal == other
        declared += any(kind == MOLODKA for _, kind, _ in deal.log_raw())
    assert declared > 10
