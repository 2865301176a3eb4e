"""The greedy playout of :mod:`core.ai.rollout` in C (``core/ai/_playout.c``)."""

from collections.abc import Sequence

from core.ai.worlds import World

def init(
    beaters: Sequence[Sequence[int]],
    keep: Sequence[Sequence[float]],
    points: Sequence[int],
    beat_factor: float,
) -> None: ...
def playout(world: World, sighted: bool) -> tuple[int, int, int]: ...
def values(
    world: World, seat: int, moves: Sequence[tuple[int, int]], sighted: bool
) -> list[tuple[int, int, int]]: ...
