"""Engine benchmark: ``python -m bench.engine``.

Prints ``name: value`` lines:

- ``random_deals_per_second``: full deals from a random shuffle to the score, each
  step a uniformly random choice among ALL legal actions of the position (every
  seat's, molodka included): ``Deal.shuffled`` then ``Deal.playout``, the engine's
  random playout (the tests show it makes exactly the moves of the step-by-step
  loop below).
- ``stepwise_random_deals_per_second``: the same deals step by step through the
  engine's form of actions: ``legal_groups`` (every legal action) and ``step_raw``.
- ``legal_action_lists_per_second``: the public ``Deal.legal_actions()`` (a list of
  ``Action`` values with ``Card`` objects) at positions of random deals.
- ``raw_legal_action_lists_per_second``: the engine's flat ``legal_raw()`` list.
- ``public_api_deals_per_second``: the same random deals through the public API
  (``legal_actions`` and ``apply`` with events).

- ``classic_random_deals_per_second``, ``classic_random_games_per_second``: the
  classic engine (see :mod:`bench.classic`; CPU time, random options).

Every figure is the median of ``--repeat`` timed runs on one core, after a warm-up
run that fills the engine's per-hand caches.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from bench.classic import figures as classic_figures
from core.yard.deal import Deal


def playout_deal(rng: random.Random, dealer: int) -> Deal:
    """One deal from a shuffle to the score by the engine's random playout."""
    deal = Deal.shuffled(dealer, rng)
    deal.playout(rng.random)
    return deal


def random_deal(rng: random.Random, dealer: int) -> Deal:
    """Play one deal from a shuffle to the score, uniformly at random among all
    legal actions at every step."""
    deal = Deal.shuffled(dealer, rng)
    rand = rng.random
    while deal.result is None:
        groups = deal.legal_groups()
        total = 0
        for group in groups:
            total += len(group[2])
        pick = int(rand() * total)
        for seat, kind, masks in groups:
            if pick < len(masks):
                deal.step_raw(seat, kind, masks[pick], None)
                break
            pick -= len(masks)
    return deal


def random_deal_public(rng: random.Random, dealer: int) -> Deal:
    """The same random play through the public API: ``legal_actions`` and ``apply``."""
    deal = Deal.shuffled(dealer, rng)
    while not deal.is_over:
        deal.apply(rng.choice(deal.legal_actions()))
    return deal


def _rate(run: Callable[[int], None], count: int, repeat: int) -> float:
    run(max(1, count // 4))  # warm-up
    rates = []
    for _ in range(repeat):
        start = time.perf_counter()
        run(count)
        rates.append(count / (time.perf_counter() - start))
    return statistics.median(rates)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000, help="deals per timed run")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs; the median is shown")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)

    def deals(count: int) -> None:
        for i in range(count):
            playout_deal(rng, i & 3)

    def stepwise_deals(count: int) -> None:
        for i in range(count):
            random_deal(rng, i & 3)

    def public_deals(count: int) -> None:
        for i in range(count):
            random_deal_public(rng, i & 3)

    # Positions for the legal-action figures: every position of some random deals.
    positions: list[Deal] = []
    while len(positions) < 2_000:
        deal = Deal.shuffled(len(positions) & 3, rng)
        while not deal.is_over:
            positions.append(deal.copy())
            legal = deal.legal_raw()
            deal.step_raw(*legal[int(rng.random() * len(legal))], None)

    def public_lists(count: int) -> None:
        n = len(positions)
        for i in range(count):
            positions[i % n].legal_actions()

    def raw_lists(count: int) -> None:
        n = len(positions)
        for i in range(count):
            positions[i % n].legal_raw()

    print(f"random_deals_per_second: {_rate(deals, args.deals, args.repeat):.0f}")
    print(f"stepwise_random_deals_per_second: {_rate(stepwise_deals, args.deals, args.repeat):.0f}")
    print(f"legal_action_lists_per_second: {_rate(public_lists, 100_000, args.repeat):.0f}")
    print(f"raw_legal_action_lists_per_second: {_rate(raw_lists, 100_000, args.repeat):.0f}")
    print(
        "public_api_deals_per_second: "
        f"{_rate(public_deals, max(1, args.deals // 10), args.repeat):.0f}"
    )
    for name, value in classic_figures(max(1, args.deals // 4), args.repeat, args.seed).items():
        print(f"{name}: {value:.0f}")


if __name__ == "__main__":
    main()
