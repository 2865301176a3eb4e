"""Classic computer player measurement: ``python -m bench.ai --rules classic``.

The computer player plays against the random player (:mod:`core.classic.ai`) with the
default options (or ``--options JSON``). Every shuffle is played twice, once with the
computer as team A (seats 0 and 2) and once as team B, from the same dealer; the
dealings are later deals (with the praise decision), the dealer rotating from shuffle
to shuffle. Then whole games are played, the computer's team alternating. Shuffles
and the players' choices come from seeded generators, so the figures are the same
for the same ``--seed``.

Prints ``name: value`` lines:

- ``computer_deal_win_rate``: dealings won by the computer's team / dealings;
- ``computer_decided_win_rate``: the same among dealings that had a winner (not
  eggs, not a performed redeal);
- ``eggs``, ``redeals``: dealings that ended 60 to 60, or by a redeal;
- ``computer_mean_points``, ``random_mean_points``: card points per dealing;
- ``computer_mean_pairs``, ``random_mean_pairs``: pairs per dealing;
- ``kocherga_catches_by_computer``, ``kocherga_catches_by_random``;
- ``computer_game_win_rate``: games won by the computer's team / games;
- ``games_mean_deals``: dealings per game.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

from core.classic.ai import ClassicPlayer, new_player, play_dealing, play_game
from core.classic.dealing import Dealing
from core.classic.events import DealEnd
from core.classic.options import ClassicOptions


def _players(team: int, rng: random.Random) -> list[ClassicPlayer]:
    return [new_player("computer" if seat % 2 == team else "random", rng) for seat in range(4)]


def measure(deals: int, games: int, seed: int, options: ClassicOptions) -> list[str]:
    master = random.Random(seed)
    shuffle_seeds = [master.getrandbits(64) for _ in range((deals + 1) // 2)]
    play_rng = random.Random(master.getrandbits(64))
    wins = decided = eggs = redeals = points = other_points = pairs = other_pairs = 0
    catches = [0, 0]
    for i in range(deals):
        team = i % 2
        dealing = Dealing.shuffled(
            options, (i // 2) % 4, random.Random(shuffle_seeds[i // 2]), number=1
        )
        result = play_dealing(dealing, _players(team, play_rng))
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
        game = play_game(_players(team, game_rng), game_rng, options, first_dealer=k % 4)
        assert game.result is not None
        game_wins += game.result.winner == team
        game_deals += len(game.dealings)
    n = max(deals, 1)
    return [
        f"computer_deal_win_rate: {wins / n:.4f}",
        f"computer_decided_win_rate: {wins / max(decided, 1):.4f}",
        f"eggs: {eggs}",
        f"redeals: {redeals}",
        f"computer_mean_points: {points / n:.2f}",
        f"random_mean_points: {other_points / n:.2f}",
        f"computer_mean_pairs: {pairs / n:.3f}",
        f"random_mean_pairs: {other_pairs / n:.3f}",
        f"kocherga_catches_by_computer: {catches[0]}",
        f"kocherga_catches_by_random: {catches[1]}",
        f"computer_game_win_rate: {game_wins / max(games, 1):.4f}",
        f"games_mean_deals: {game_deals / max(games, 1):.2f}",
    ]


def main(deals: int, games: int, seed: int, options_json: str | None) -> Sequence[str]:
    options = ClassicOptions.from_json(json.loads(options_json) if options_json else {})
    return measure(deals, games, seed, options)
