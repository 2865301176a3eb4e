"""Computer player measurement: ``python -m bench.ai --deals 2000``.

``--rules classic`` measures the classic computer player instead (see
:mod:`bench.classic_ai`).

The baseline plays against the random player. Every shuffle is played twice, once
with the baseline as team A (seats 0 and 2) and once as team B, and the dealer
rotates from shuffle to shuffle; shuffles and the players' choices come from seeded
generators, so the figures are the same for the same ``--seed``. Then whole series
are played, the baseline's team alternating.

Prints ``name: value`` lines:

- ``baseline_deal_win_rate``: deals won by the baseline's team / deals (eggs are
  neither won nor lost);
- ``baseline_decided_win_rate``: the same among deals that were not eggs;
- ``eggs``: deals that ended 60 to 60;
- ``baseline_mean_points`` and ``random_mean_points``: card points per deal;
- ``baseline_mean_loss_points_given``: loss points the baseline's team gave its
  opponents per deal, and ``baseline_mean_loss_points_taken`` those it received;
- ``baseline_series_win_rate``: series the baseline's team won / series;
- ``series_mean_deals``: deals per series.

The time taken goes to stderr, so that stdout depends on the seed alone.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass

from core.ai import LEVELS, make_player, play_deal, play_series
from core.ai.players import Player
from core.seats import Team
from core.yard.deal import Deal


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

    def lines(self, player: str, opponent: str) -> list[str]:
        decided = self.deals - self.eggs
        deals = max(self.deals, 1)
        return [
            f"{player}_deal_win_rate: {self.wins / deals:.4f}",
            f"{player}_decided_win_rate: {self.wins / max(decided, 1):.4f}",
            f"eggs: {self.eggs}",
            f"{player}_mean_points: {self.points / deals:.2f}",
            f"{opponent}_mean_points: {self.opponent_points / deals:.2f}",
            f"{player}_mean_loss_points_given: {self.loss_points_given / deals:.3f}",
            f"{player}_mean_loss_points_taken: {self.loss_points_taken / deals:.3f}",
            f"{player}_series_win_rate: {self.series_wins / max(self.series, 1):.4f}",
            f"series_mean_deals: {self.series_deals / max(self.series, 1):.2f}",
        ]


def _players(player: str, opponent: str, team: Team) -> list[Player]:
    """Four players: ``player`` on ``team``'s seats, ``opponent`` on the others."""
    return [make_player(player if seat % 2 == team else opponent) for seat in range(4)]


def measure(
    deals: int, series: int, seed: int, player: str = "baseline", opponent: str = "random"
) -> Figures:
    """Play ``deals`` deals (each shuffle twice, teams swapped) and ``series`` series
    of ``player`` against ``opponent``."""
    master = random.Random(seed)
    shuffle_seeds = [master.getrandbits(64) for _ in range((deals + 1) // 2)]
    play_rng = random.Random(master.getrandbits(64))
    wins = eggs = points = opponent_points = given = taken = 0
    for i in range(deals):
        team = Team(i % 2)
        deal = Deal.shuffled((i // 2) % 4, random.Random(shuffle_seeds[i // 2]))
        result = play_deal(deal, _players(player, opponent, team), play_rng)
        points += result.points[team]
        opponent_points += result.points[team.other]
        given += result.loss_points[team.other]
        taken += result.loss_points[team]
        eggs += result.eggs
        wins += result.winner is team
    series_wins = series_deals = 0
    series_rng = random.Random(master.getrandbits(64))
    for k in range(series):
        team = Team(k % 2)
        played = play_series(_players(player, opponent, team), series_rng, first_dealer=k % 4)
        outcome = played.result
        assert outcome is not None
        series_wins += outcome.loser is team.other
        series_deals += outcome.deals
    return Figures(
        deals=deals,
        wins=wins,
        eggs=eggs,
        points=points,
        opponent_points=opponent_points,
        loss_points_given=given,
        loss_points_taken=taken,
        series=series,
        series_wins=series_wins,
        series_deals=series_deals,
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000, help="deals (shuffles played twice)")
    parser.add_argument("--series", type=int, default=200, help="whole series")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--player", choices=LEVELS, default="baseline")
    parser.add_argument("--opponent", choices=LEVELS, default="random")
    parser.add_argument(
        "--rules", choices=("yard", "classic"), default="yard", help="the rule set measured"
    )
    parser.add_argument("--games", type=int, default=200, help="classic: whole games")
    parser.add_argument("--options", default=None, help="classic: the options as JSON")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    if args.rules == "classic":
        from bench import classic_ai

        for line in classic_ai.main(args.deals, args.games, args.seed, args.options):
            print(line)
        sys.stdout.flush()
        print(f"elapsed_seconds: {time.perf_counter() - start:.1f}", file=sys.stderr)
        return
    figures = measure(args.deals, args.series, args.seed, args.player, args.opponent)
    for line in figures.lines(args.player, args.opponent):
        print(line)
    sys.stdout.flush()
    print(f"elapsed_seconds: {time.perf_counter() - start:.1f}", file=sys.stderr)


if __name__ == "__main__":
    main()
