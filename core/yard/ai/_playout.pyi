"""The greedy playout of :mod:`core.yard.ai.rollout` and the endgame of :mod:`core.yard.ai.endgame`
in C (``core/yard/ai/_playout.c``)."""

from collections.abc import Sequence

from core.yard.ai.worlds import World

def init(
    beaters: Sequence[Sequence[int]],
    keep: Sequence[Sequence[float]],
    points: Sequence[int],
    beat_factor: float,
) -> None: ...
def playout(world: World, sighted: bool) -> tuple[int, int, int]: ...
def values(
    world: World, seat: int, moves: Sequence[tuple[int, int]], sighted: bool, plays: int = 0
) -> list[tuple[int, int, int]]: ...
def init_baseline(
    spent: Sequence[Sequence[float]], load: float, dump: float, will: float, overtake: float
) -> None: ...
def baseline_move(
    hands: Sequence[int],
    seat: int,
    plays: Sequence[tuple[int, int, int]],
    n: int,
    win_seat: int,
    win_mask: int,
    trump: int,
    trump_card: int,
    trump_holder: int,
    stock_size: int,
    gone: int,
) -> tuple[int, int]: ...
def solve_model(
    world: World, team: int, weight: float, budget: int, win: float = ..., smooth: float = ...
) -> float | None: ...
