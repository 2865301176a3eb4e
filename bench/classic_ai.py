"""Classic computer player measurement: ``python -m bench.classic_ai --x strong --y normal``
(yard's: :mod:`bench.yard_ai`).

Level ``--x`` (``easy``, ``normal``, ``strong``; yard's ``baseline`` is ``normal``)
plays against level ``--y`` (by default the random player, :mod:`core.classic.ai`)
with the default options (or ``--options JSON``, or ``--preset 001`` for the
compendium's four-player game, docs/rules/reference.md §2.16; ``--options`` then
changes the preset's). Every shuffle is played twice, once with x as team A (seats 0
and 2) and once as team B, from the same dealer; the dealings are later deals (with
the praise decision), the dealer rotating from shuffle to shuffle. Then whole games are
played, x's team alternating. Shuffles and the players' choices come from seeded
generators, so the figures are the same for the same ``--seed``.

Prints ``name: value`` lines (``x`` and ``y`` stand for the levels' names):

- ``x_deal_win_rate``: dealings won by x's team / dealings, and
  ``x_deal_win_rate_95_low`` / ``_high``: its 95 % interval (Wilson);
- ``x_decided_win_rate``: the same among dealings that had a winner (not eggs, not a
  performed redeal);
- ``eggs``, ``redeals``: dealings that ended 60 to 60, or by a redeal;
- ``x_mean_points``, ``y_mean_points``: card points per dealing;
- ``x_mean_pairs``, ``y_mean_pairs``: pairs per dealing, and ``x_net_pairs``: x's
  minus y's, per dealing;
- ``kocherga_catches_by_x``, ``kocherga_catches_by_y``;
- ``x_game_win_rate``: games won by x's team / games, with its 95 % interval;
- ``games_mean_deals``: dealings per game.

The time goes to stderr: each level's CPU milliseconds per decision in the tricks
(median, p95, max).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

from bench.stats import wilson
from core.classic.actions import ClassicAction, ClassicActionKind
from core.classic.ai import LEVELS, ClassicPlayer, new_player, play_dealing, play_game
from core.classic.dealing import Dealing
from core.classic.events import DealEnd
from core.classic.options import PRESETS, ClassicOptions
from core.classic.views import ClassicSeatView

#: Yard's level names as classic knows them.
_NAMES = {"baseline": "normal", "computer": "normal"}


class Timed:
    """A player that records the CPU time of each of its plays in the tricks."""

    def __init__(self, player: ClassicPlayer, times: list[float]) -> None:
        self.player = player
        self.times = times

    def choose(self, view: ClassicSeatView, options: ClassicOptions) -> ClassicAction | None:
        start = time.process_time()
        action = self.player.choose(view, options)
        if action is not None and action.kind is ClassicActionKind.PLAY:
            self.times.append(time.process_time() - start)
        return action


def _players(
    x: str, y: str, team: int, rng: random.Random, times: dict[str, list[float]] | None = None
) -> list[ClassicPlayer]:
    players: list[ClassicPlayer] = []
    for seat in range(4):
        mine = seat % 2 == team
        player = new_player(x if mine else y, rng)
        if times is not None:
            player = Timed(player, times["x" if mine else "y"])
        players.append(player)
    return players


def measure(
    deals: int,
    games: int,
    seed: int,
    options: ClassicOptions,
    x: str = "normal",
    y: str = "random",
) -> tuple[list[str], list[str]]:
    """The figures (stdout lines) and the times (stderr lines)."""
    x, y = _NAMES.get(x, x), _NAMES.get(y, y)
    master = random.Random(seed)
    shuffle_seeds = [master.getrandbits(64) for _ in range((deals + 1) // 2)]
    play_rng = random.Random(master.getrandbits(64))
    wins = decided = eggs = redeals = points = other_points = pairs = other_pairs = 0
    catches = [0, 0]
    times: dict[str, list[float]] = {"x": [], "y": []}
    for i in range(deals):
        team = i % 2
        dealing = Dealing.shuffled(
            options, (i // 2) % 4, random.Random(shuffle_seeds[i // 2]), number=1
        )
        result = play_dealing(dealing, _players(x, y, team, play_rng, times))
        points += result.points[team]
        other_points += result.points[1 - team]
        pairs += result.pairs[team]
        other_pairs += result.pairs[1 - team]
        eggs += result.eggs
        redeals += result.end is DealEnd.REDEAL
        if result.winner is not None:
            decided += 1
            wins += result.winner == team
            if result.end is DealEnd.KOCHERGA:
                catches[0 if result.winner == team else 1] += 1
    game_wins = game_deals = 0
    game_rng = random.Random(master.getrandbits(64))
    for k in range(games):
        team = k % 2
        game = play_game(_players(x, y, team, game_rng), game_rng, options, first_dealer=k % 4)
        assert game.result is not None
        game_wins += game.result.winner == team
        game_deals += len(game.dealings)
    n = max(deals, 1)
    low, high = wilson(wins, deals)
    game_low, game_high = wilson(game_wins, games)
    lines = [
        f"{x}_deal_win_rate: {wins / n:.4f}",
        f"{x}_deal_win_rate_95_low: {low:.4f}",
        f"{x}_deal_win_rate_95_high: {high:.4f}",
        f"{x}_decided_win_rate: {wins / max(decided, 1):.4f}",
        f"eggs: {eggs}",
        f"redeals: {redeals}",
        f"{x}_mean_points: {points / n:.2f}",
        f"{y}_mean_points: {other_points / n:.2f}",
        f"{x}_mean_pairs: {pairs / n:.3f}",
        f"{y}_mean_pairs: {other_pairs / n:.3f}",
        f"{x}_net_pairs: {(pairs - other_pairs) / n:.3f}",
        f"kocherga_catches_by_{x}: {catches[0]}",
        f"kocherga_catches_by_{y}: {catches[1]}",
        f"{x}_game_win_rate: {game_wins / max(games, 1):.4f}",
        f"{x}_game_win_rate_95_low: {game_low:.4f}",
        f"{x}_game_win_rate_95_high: {game_high:.4f}",
        f"games_mean_deals: {game_deals / max(games, 1):.2f}",
    ]
    timing = []
    for key, level in (("x", x), ("y", y)):
        ms = sorted(t * 1000 for t in times[key])
        if ms and (key == "x" or x != y):
            p95 = ms[min(len(ms) - 1, -(-95 * len(ms) // 100) - 1)]
            timing.append(
                f"{level}_ms_per_decision: median {ms[len(ms) // 2]:.1f} p95 {p95:.1f} "
                f"max {ms[-1]:.1f} ({len(ms)} plays)"
            )
    return lines, timing


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000, help="dealings (shuffles played twice)")
    parser.add_argument("--games", type=int, default=200, help="whole games")
    parser.add_argument("--seed", type=int, default=1)
    levels = (*LEVELS, *_NAMES)
    parser.add_argument("--x", "--player", dest="x", choices=levels, default="baseline")
    parser.add_argument("--y", "--opponent", dest="y", choices=levels, default="random")
    parser.add_argument("--options", default=None, help="the options as JSON")
    parser.add_argument(
        "--preset", choices=sorted(PRESETS), default=None, help="a preset of the options"
    )
    args = parser.parse_args(argv)
    start = time.perf_counter()
    base = PRESETS[args.preset].to_json() if args.preset else {}
    changed = json.loads(args.options) if args.options else {}
    options = ClassicOptions.from_json(base | changed)
    lines, timing = measure(args.deals, args.games, args.seed, options, args.x, args.y)
    for line in lines:
        print(line)
    sys.stdout.flush()
    print(f"elapsed_seconds: {time.perf_counter() - start:.1f}", file=sys.stderr)
    for line in timing:
        print(line, file=sys.stderr)


if __name__ == "__main__":
    main()
