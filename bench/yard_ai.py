"""Yard computer player measurement: ``python -m bench.yard_ai --x strong --y normal
--deals 2000`` (classic's: :mod:`bench.classic_ai`).

Level ``--x`` (by default the baseline) plays against level ``--y`` (by default the
random player). Every shuffle is played twice, once with x as team A (seats 0 and
2) and once as team B (mirrored shuffles), and the dealer rotates from shuffle to
shuffle; every deal and series has its own seeds, drawn from ``--seed``, so the
figures are the same for the same ``--seed`` whether played in one process or in
``--jobs N`` worker processes. Then whole series are played, x's team alternating.

``--strong '{"worlds": 60}'`` sets fields of the strong level's
:class:`~core.yard.ai.search.SearchSettings` (JSON) for a run, to measure a variant.

Prints ``name: value`` lines (``x`` and ``y`` stand for the levels' names):

- ``x_deal_win_rate``: deals won by x's team / deals (eggs are neither won nor
  lost), and ``x_deal_win_rate_95_low`` / ``_high``: its 95 % interval (Wilson);
- ``x_decided_win_rate``: the same among deals that were not eggs;
- ``eggs``: deals that ended 60 to 60;
- ``x_mean_points`` and ``y_mean_points``: card points per deal;
- ``x_mean_loss_points_given``: loss points x's team gave its opponents per deal,
  ``x_mean_loss_points_taken`` those it received, and ``x_net_loss_points``: taken
  minus given, per deal (negative: x's team gets fewer than it gives);
- ``x_series_win_rate``: series x's team won / series, with its 95 % interval
  (``x_series_win_rate_95_low`` / ``_high``);
- ``series_mean_deals``: deals per series;
- ``x_decisions``: decisions x's players made in the deals.

The time goes to stderr, so that stdout depends on the seed alone: the elapsed
seconds and each level's CPU milliseconds per decision (median, p95, max; the
process's CPU time, so another process on the same core does not inflate it).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import functools
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from bench.stats import wilson
from core.seats import Team
from core.yard.actions import Action
from core.yard.ai import LEVELS, SearchPlayer, make_player, play_deal, play_series
from core.yard.ai.players import Observer, Player
from core.yard.ai.search import STRONG
from core.yard.deal import Deal
from core.yard.events import Event
from core.yard.views import SeatView


class Timed:
    """A player that records the CPU time of each of its decisions."""

    __slots__ = ("player", "times")

    def __init__(self, player: Player, times: list[float]) -> None:
        self.player = player
        self.times = times

    def choose(self, view: SeatView, rng: random.Random) -> Action | None:
        start = time.process_time()
        action = self.player.choose(view, rng)
        if action is not None:
            self.times.append(time.process_time() - start)
        return action

    def observe(self, event: Event) -> None:
        if isinstance(self.player, Observer):
            self.player.observe(event)


@dataclass(frozen=True, slots=True)
class Figures:
    """What :func:`measure` found, from the point of view of ``player``'s team."""

    deals: int
    wins: int
    eggs: int
    points: int
    opponent_points: int
    loss_points_given: int
    loss_points_taken: int
    series: int
    series_wins: int
    series_deals: int
    decisions: int = 0
    times: dict[str, list[float]] = field(default_factory=dict, compare=False, repr=False)

    def lines(self, player: str, opponent: str) -> list[str]:
        decided = self.deals - self.eggs
        deals = max(self.deals, 1)
        low, high = wilson(self.wins, self.deals)
        series_low, series_high = wilson(self.series_wins, self.series)
        net = (self.loss_points_taken - self.loss_points_given) / deals
        return [
            f"{player}_deal_win_rate: {self.wins / deals:.4f}",
            f"{player}_deal_win_rate_95_low: {low:.4f}",
            f"{player}_deal_win_rate_95_high: {high:.4f}",
            f"{player}_decided_win_rate: {self.wins / max(decided, 1):.4f}",
            f"eggs: {self.eggs}",
            f"{player}_mean_points: {self.points / deals:.2f}",
            f"{opponent}_mean_points: {self.opponent_points / deals:.2f}",
            f"{player}_mean_loss_points_given: {self.loss_points_given / deals:.3f}",
            f"{player}_mean_loss_points_taken: {self.loss_points_taken / deals:.3f}",
            f"{player}_net_loss_points: {net:.3f}",
            f"{player}_series_win_rate: {self.series_wins / max(self.series, 1):.4f}",
            f"{player}_series_win_rate_95_low: {series_low:.4f}",
            f"{player}_series_win_rate_95_high: {series_high:.4f}",
            f"series_mean_deals: {self.series_deals / max(self.series, 1):.2f}",
            f"{player}_decisions: {self.decisions}",
        ]

    def timing_lines(self) -> list[str]:
        """CPU milliseconds per decision, by level (median, p95, max)."""
        lines = []
        for level, times in self.times.items():
            if not times:
                continue
            ms = sorted(t * 1000 for t in times)
            p95 = ms[min(len(ms) - 1, math.ceil(0.95 * len(ms)) - 1)]
            lines.append(
                f"{level}_ms_per_decision: median {statistics.median(ms):.1f} "
                f"p95 {p95:.1f} max {ms[-1]:.1f} ({len(ms)} decisions)"
            )
        return lines


def _make(level: str, strong: str) -> Player:
    """A player of ``level``; the strong level with the settings' fields ``strong``
    (JSON) changed, when given."""
    if level == "strong" and strong:
        return SearchPlayer(dataclasses.replace(STRONG, **json.loads(strong)))
    return make_player(level)


def _players(
    player: str,
    opponent: str,
    team: Team,
    times: dict[str, list[float]] | None = None,
    strong: str = "",
) -> list[Player]:
    """Four players: ``player`` on ``team``'s seats, ``opponent`` on the others (timed
    into ``times`` by level when given)."""
    players: list[Player] = []
    for seat in range(4):
        level = player if seat % 2 == team else opponent
        made = _make(level, strong)
        if times is not None:
            key = "x" if seat % 2 == team else "y"
            made = Timed(made, times.setdefault(key, []))
        players.append(made)
    return players


@dataclass(slots=True)
class _Tally:
    """What a run of deals added up (summed over the worker processes)."""

    wins: int = 0
    eggs: int = 0
    points: int = 0
    opponent_points: int = 0
    given: int = 0
    taken: int = 0
    series_wins: int = 0
    series_deals: int = 0
    times: dict[str, list[float]] = field(default_factory=lambda: {"x": [], "y": []})

    def add(self, other: _Tally) -> None:
        self.wins += other.wins
        self.eggs += other.eggs
        self.points += other.points
        self.opponent_points += other.opponent_points
        self.given += other.given
        self.taken += other.taken
        self.series_wins += other.series_wins
        self.series_deals += other.series_deals
        for key, times in other.times.items():
            self.times[key].extend(times)


def _deal(job: tuple[int, int, int, str, str, str]) -> _Tally:
    """Deal ``i`` (shuffle ``i // 2``, x's team ``i % 2``) from its own seeds."""
    i, shuffle_seed, play_seed, player, opponent, strong = job
    tally = _Tally()
    team = Team(i % 2)
    deal = Deal.shuffled((i // 2) % 4, random.Random(shuffle_seed))
    players = _players(player, opponent, team, tally.times, strong)
    result = play_deal(deal, players, random.Random(play_seed))
    tally.points += result.points[team]
    tally.opponent_points += result.points[team.other]
    tally.given += result.loss_points[team.other]
    tally.taken += result.loss_points[team]
    tally.eggs += result.eggs
    tally.wins += result.winner is team
    return tally


def _series(job: tuple[int, int, int, str, str, str]) -> _Tally:
    """Series ``k`` (x's team ``k % 2``) from its own seed."""
    k, _, play_seed, player, opponent, strong = job
    tally = _Tally()
    team = Team(k % 2)
    players = _players(player, opponent, team, strong=strong)
    played = play_series(players, random.Random(play_seed), first_dealer=k % 4)
    outcome = played.result
    assert outcome is not None
    tally.series_wins += outcome.loser is team.other
    tally.series_deals += outcome.deals
    return tally


def measure(
    deals: int,
    series: int,
    seed: int,
    player: str = "baseline",
    opponent: str = "random",
    *,
    progress: bool = False,
    jobs: int = 1,
    strong: str = "",
) -> Figures:
    """Play ``deals`` deals (each shuffle twice, teams swapped) and ``series`` series
    of ``player`` against ``opponent``. Every deal and series has its own seeds drawn
    from ``seed``, so ``jobs`` worker processes give the same figures as one.
    ``strong``: fields of the strong level's settings to change (JSON), if any."""
    master = random.Random(seed)
    shuffle_seeds = [master.getrandbits(64) for _ in range((deals + 1) // 2)]
    deal_jobs = [
        (i, shuffle_seeds[i // 2], master.getrandbits(64), player, opponent, strong)
        for i in range(deals)
    ]
    series_jobs = [(k, 0, master.getrandbits(64), player, opponent, strong) for k in range(series)]
    total = _Tally()
    with contextlib.ExitStack() as stack:
        run: Callable[..., Iterable[_Tally]] = map
        if jobs > 1:
            pool = stack.enter_context(multiprocessing.get_context("fork").Pool(jobs))
            run = functools.partial(pool.imap, chunksize=1)
        for done, tally in enumerate(run(_deal, deal_jobs), 1):
            total.add(tally)
            if progress and done % 50 == 0:
                print(
                    f"after {done} deals: wins {total.wins}, eggs {total.eggs}, points "
                    f"{total.points} / {total.opponent_points}, loss points given "
                    f"{total.given}, taken {total.taken}",
                    file=sys.stderr,
                    flush=True,
                )
        for tally in run(_series, series_jobs):
            total.add(tally)
    times = total.times
    return Figures(
        deals=deals,
        wins=total.wins,
        eggs=total.eggs,
        points=total.points,
        opponent_points=total.opponent_points,
        loss_points_given=total.given,
        loss_points_taken=total.taken,
        series=series,
        series_wins=total.series_wins,
        series_deals=total.series_deals,
        decisions=len(times["x"]),
        times={player: times["x"], opponent: times["y"]} if player != opponent else times,
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000, help="deals (shuffles played twice)")
    parser.add_argument("--series", type=int, default=200, help="whole series")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--jobs", type=int, default=1, help="worker processes (the figures do not change)"
    )
    parser.add_argument("--x", "--player", dest="x", choices=LEVELS, default="baseline")
    parser.add_argument("--y", "--opponent", dest="y", choices=LEVELS, default="random")
    parser.add_argument(
        "--strong", default="", help="fields of the strong level's SearchSettings (JSON)"
    )
    args = parser.parse_args(argv)
    start = time.perf_counter()
    if args.strong:
        print(f"strong_settings: {args.strong}", file=sys.stderr)
    figures = measure(
        args.deals,
        args.series,
        args.seed,
        args.x,
        args.y,
        progress=True,
        jobs=args.jobs,
        strong=args.strong,
    )
    for line in figures.lines(args.x, args.y):
        print(line)
    sys.stdout.flush()
    print(f"elapsed_seconds: {time.perf_counter() - start:.1f}", file=sys.stderr)
    for line in figures.timing_lines():
        print(line, file=sys.stderr)


if __name__ == "__main__":
    main()
