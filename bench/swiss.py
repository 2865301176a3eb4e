"""Swiss pairing benchmark: ``python -m bench.swiss``.

``--events`` simulated events (default 5, seeds ``--seed`` upwards) of ``--entrants``
teams (default 1,000; ``--odd`` adds one, so that every round has a bye) are
played round after round: each round paired by :func:`core.swiss.pair_round` with
the meetings and byes so far, each table won by the stronger team with the odds of
its rating difference (Elo's formula, ratings 1,000 to 2,000), a bye scoring 1. At
each round of ``--rounds`` (default 1, 5 and 10) the pairing of that round's field
is timed ``--runs`` times (default 10) in each event: wall time and this process's
CPU time (the machine is shared).

``--search-steps 0`` pairs every round by the matching alone (what a round costs whose
search runs out of steps).

Prints ``name: value`` lines per round: the p50, p99 and max of a pairing in
milliseconds (over every run of every event), the rematches and the rounds whose
search ran out of steps (paired by the matching instead), in all events.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import time
from collections.abc import Iterator, Sequence
from typing import Any

from bench.leaderboard import quantile
from core import swiss
from core.swiss import Entrant, Pairing, pair_round

ROUNDS = (1, 5, 10)


def play(
    rng: random.Random, pairing: Pairing, score: dict[str, float], rating: dict[str, float]
) -> None:
    """The round's results into ``score``: the stronger team wins more often."""
    if pairing.bye is not None:
        score[pairing.bye] += 1
    for a, b in pairing.tables:
        odds = 1 / (1 + 10 ** ((rating[b] - rating[a]) / 400))
        score[a if rng.random() < odds else b] += 1


def timed(
    field: Sequence[Entrant], met: set[frozenset[str]], byes: set[str], runs: int
) -> tuple[list[float], list[float], Pairing]:
    """Wall and CPU seconds of ``runs`` pairings of a round, and its pairing."""
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        pairing = pair_round(field, met, byes)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return walls, cpus, pairing


def event(entrants: int, rounds: Sequence[int], runs: int, seed: int) -> dict[int, dict[str, Any]]:
    """One simulated event: by timed round, its wall and CPU times, rematches and
    whether its search ran out of steps."""
    rng = random.Random(seed)
    rating = {f"team{n}": float(rng.randrange(1000, 2000)) for n in range(entrants)}
    score = dict.fromkeys(rating, 0.0)
    met: set[frozenset[str]] = set()
    byes: set[str] = set()
    results: dict[int, dict[str, Any]] = {}
    for number in range(1, max(rounds) + 1):
        field = [Entrant(id_, score[id_], rating[id_]) for id_ in rating]
        if number in rounds:
            with counting_matchings() as matched:
                walls, cpus, pairing = timed(field, met, byes, runs)
            results[number] = {
                "wall": walls,
                "cpu": cpus,
                "rematches": pairing.rematches,
                "matched": matched[0] > 0,
            }
        else:
            pairing = pair_round(field, met, byes)
        met.update(frozenset(table) for table in pairing.tables)
        byes.update([pairing.bye] if pairing.bye is not None else [])
        play(rng, pairing, score, rating)
    return results


@contextlib.contextmanager
def counting_matchings() -> Iterator[list[int]]:
    """Meanwhile, ``[n]``: how many pairings fell back on the matching (their search
    ran out of steps)."""
    calls = [0]
    fallback = swiss._fewest_rematches

    def counted(*args: Any) -> Any:
        calls[0] += 1
        return fallback(*args)

    swiss._fewest_rematches = counted  # type: ignore[assignment]
    try:
        yield calls
    finally:
        swiss._fewest_rematches = fallback


def run(
    entrants: int, rounds: Sequence[int], runs: int, events: int, seed: int
) -> dict[str, float]:
    """The figures by name over ``events`` events."""
    played = [event(entrants, rounds, runs, seed + n) for n in range(events)]
    figures: dict[str, float] = {}
    for number in rounds:
        for kind in ("wall", "cpu"):
            times = [t for results in played for t in results[number][kind]]
            for name, q in (("p50", 0.5), ("p99", 0.99), ("max", 1.0)):
                figures[f"round{number}_{kind}_{name}_ms"] = 1000 * quantile(times, q)
        figures[f"round{number}_rematches"] = sum(r[number]["rematches"] for r in played)
        figures[f"round{number}_matched"] = sum(r[number]["matched"] for r in played)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entrants", type=int, default=1_000)
    parser.add_argument("--odd", action="store_true", help="one entrant more, so a bye a round")
    parser.add_argument("--rounds", type=int, nargs="+", default=list(ROUNDS))
    parser.add_argument("--runs", type=int, default=10, help="timed pairings of each round")
    parser.add_argument("--events", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--search-steps",
        type=int,
        default=swiss.SEARCH_STEPS,
        help="the search's steps (0: every round paired by the matching alone)",
    )
    args = parser.parse_args()
    swiss.SEARCH_STEPS = args.search_steps
    entrants = args.entrants + args.odd
    figures = run(entrants, sorted(args.rounds), args.runs, args.events, args.seed)
    print(f"entrants: {entrants}")
    print(f"events: {args.events}")
    print(f"runs: {args.runs}")
    for name, value in figures.items():
        print(f"{name}: {value:.2f}")


if __name__ == "__main__":
    main()
