"""Classic engine figures for ``python -m bench.engine``.

- ``classic_random_deals_per_second``: dealings from a shuffle to their end (last
  trick, kocherga catch or redeal request) with random options (a new random set
  for each dealing), every choice uniformly random among ALL the legal actions of
  the position (every seat's: the praise decision, lays, cuts, the naming, offers,
  answers, redeals, plays): ``Dealing.shuffled`` then ``Dealing.playout``, which the
  tests show makes exactly the moves of the step-by-step loop.
- ``classic_random_games_per_second``: whole games to 6 pairs the same way, with one
  random set of options per game.

The classic figures count CPU time of the process (``time.process_time``), so that
other work on a shared machine does not count against one core; each is the median
of the timed runs.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from core.classic.dealing import Dealing
from core.classic.game import ClassicGame
from core.classic.options import ClassicOptions, Follow, Praise, TrumpLead, TrumpSuit

#: The praise option's values of §2.1 (``one_by_one``, §2.16, needs a trump suit).
_PRAISES = [Praise.SIMPLE, Praise.PANTS, Praise.MIRROR, Praise.CHOOSE]
#: The trump-lead values of §2.1.
_TRUMP_LEADS = [TrumpLead.DECLARER, TrumpLead.TEAM]


def random_options(rng: random.Random) -> ClassicOptions:
    """Every option of docs/rules/reference.md §2.1 uniformly at random (the trump suit: none
    or one of four); §2.16's keep their defaults, so the figures compare with earlier
    runs."""
    return ClassicOptions(
        praise=rng.choice(_PRAISES),
        kocherga=rng.random() < 0.5,
        trump_roulette=rng.random() < 0.5,
        ace_ban=rng.random() < 0.5,
        last_trump=rng.random() < 0.5,
        redeal=rng.random() < 0.5,
        trump_suit=rng.choice([None, *TrumpSuit]),
        follow=rng.choice(list(Follow)),
        trump_lead=rng.choice(_TRUMP_LEADS),
    )


def random_game(rng: random.Random, options: ClassicOptions) -> ClassicGame:
    """A whole game to 6 pairs, every choice uniformly random among the legal actions."""
    game = ClassicGame(options, first_dealer=rng.randrange(4))
    rand = rng.random
    while not game.is_over:
        game.deal(rng)
        game.playout_dealing(rand)
    return game


def _rate(run: Callable[[int], None], count: int, repeat: int) -> float:
    run(max(1, count // 4))  # warm-up
    rates = []
    for _ in range(repeat):
        start = time.process_time()
        run(count)
        rates.append(count / max(time.process_time() - start, 1e-9))
    return statistics.median(rates)


def figures(deals: int, repeat: int, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    options = [random_options(rng) for _ in range(256)]

    def run_deals(count: int) -> None:
        for i in range(count):
            dealing = Dealing.shuffled(options[i & 255], i & 3, rng, number=(i >> 2) & 1)
            dealing.playout(rng.random)

    def run_games(count: int) -> None:
        for i in range(count):
            random_game(rng, options[i & 255])

    return {
        "classic_random_deals_per_second": _rate(run_deals, deals, repeat),
        "classic_random_games_per_second": _rate(run_games, max(1, deals // 20), repeat),
    }


def main(argv: list[str] | None = None) -> None:
    """``python -m bench.classic``: only the classic figures of ``bench.engine``."""
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=5_000, help="dealings per timed run")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs; the median is shown")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    for name, value in figures(args.deals, args.repeat, args.seed).items():
        print(f"{name}: {value:.0f}")


if __name__ == "__main__":
    main()
