"""The C endgame and baseline (core/yard/ai/_playout.c) value and choose exactly as the
Python ones: the same floats, the same nodes counted against the budget."""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType

import pytest

from core.yard.ai import endgame, rollout
from core.yard.ai.endgame import py_solve_model
from core.yard.ai.policy import baseline_move
from core.yard.ai.search import SearchSettings
from core.yard.ai.worlds import World, start_hands
from core.yard.deal import DISCARD

from .positions import sampled_worlds, search_choices

#: The largest budget the endgame tests solve up to in Python.
CAP = 2_000
#: (weight, win, smooth) of the values compared: the step at 60, its smooth
#: form, loss points alone.
VALUATIONS = ((3.0, 3.0, 0.0), (1.0, 6.0, 10.0), (0.0, 0.0, 0.0))


def c_playout() -> ModuleType:
    fast = rollout.c_playout
    assert fast is not None, "core/yard/ai/_playout.c was not built: make install-dev"
    return fast


#: baseline_move's arguments.
Position = tuple[list[int], int, list[tuple[int, int, int]], int, int, int, int, int, int, int, int]


def _choices(world: World) -> Iterator[Position]:
    """baseline_move's arguments for the seat to play in ``world``, and for each play
    already made to the trick, the arguments its seat chose it from (the hands as
    they were then)."""
    trump, card, holder, stock, gone = (
        world.trump,
        world.trump_card,
        world.trump_holder,
        len(world.stock),
        world.gone,
    )
    if world.hands[world.turn]:
        yield (
            world.hands,
            world.turn,
            world.plays,
            world.n,
            world.win_seat,
            world.win_mask,
            trump,
            card,
            holder,
            stock,
            gone,
        )
    hands = start_hands(world.hands, world.plays)
    n = win_seat = win_mask = 0
    for i, (seat, kind, mask) in enumerate(world.plays):
        yield (
            list(hands),
            seat,
            world.plays[:i],
            n,
            win_seat,
            win_mask,
            trump,
            card,
            holder,
            stock,
            gone,
        )
        hands[seat] ^= mask
        if i == 0:
            n = mask.bit_count()
        if kind != DISCARD:
            win_seat, win_mask = seat, mask


def test_the_c_baseline_chooses_as_the_python_one() -> None:
    fast = c_playout()
    compared = stock_empty = 0
    for world in sampled_worlds(31, 60):
        for arguments in _choices(world):
            assert fast.baseline_move(*arguments) == baseline_move(*arguments)
            compared += 1
            stock_empty += not world.stock
    assert compared > 3_000
    assert stock_empty > 500


def _least_budget(world: World, team: int, valuation: tuple[float, float, float]) -> int:
    """The least budget the C endgame solves ``world`` within, or ``CAP + 1``."""
    weight, win, smooth = valuation
    fast = c_playout()
    if fast.solve_model(world, team, weight, CAP, win, smooth) is None:
        return CAP + 1
    low, high = 0, CAP  # None at low, a value at high
    while high - low > 1:
        middle = (low + high) // 2
        if fast.solve_model(world, team, weight, middle, win, smooth) is None:
            low = middle
        else:
            high = middle
    return high


def test_the_c_endgame_values_as_the_python_one_within_the_same_budget() -> None:
    # The least budget the C endgame needs is the Python's too: the Python gives the
    # same value at that budget and None one node short of it.
    fast = c_playout()
    pairs = over = 0
    for index, world in enumerate(w for w in sampled_worlds(32, 80) if not w.stock):
        valuation = VALUATIONS[index % len(VALUATIONS)]
        weight, win, smooth = valuation
        for team in (0, 1):
            least = _least_budget(world, team, valuation)
            if least > CAP:
                assert py_solve_model(world, team, weight, CAP, win, smooth) is None
                over += 1
            else:
                value = fast.solve_model(world, team, weight, least, win, smooth)
                assert py_solve_model(world, team, weight, least, win, smooth) == value
                assert py_solve_model(world, team, weight, least - 1, win, smooth) is None
            pairs += 1
    assert pairs > 2_000
    assert 0 < over < pairs // 10


def test_the_c_endgame_leaves_the_world_as_it_was() -> None:
    fast = c_playout()
    for world in sampled_worlds(33, 5):
        if not world.stock:
            before = world.copy()
            fast.solve_model(world, world.turn & 1, 3.0, CAP, 3.0)
            assert world == before


def test_the_c_endgame_refuses_a_stock() -> None:
    world = next(w for w in sampled_worlds(34, 1) if w.stock)
    with pytest.raises(ValueError, match="stock"):
        c_playout().solve_model(world, 0, 3.0, CAP)


class _Counted:
    """The C module's solve_model, its calls counted."""

    def __init__(self, fast: ModuleType) -> None:
        self.fast = fast
        self.calls = 0

    def solve_model(self, *arguments: object) -> float | None:
        self.calls += 1
        value: float | None = self.fast.solve_model(*arguments)
        return value


def test_the_search_chooses_the_same_with_and_without_the_c_endgame(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings = SearchSettings(
        worlds=12, confirm_worlds=12, endgame_worlds=12, endgame_confirm_worlds=12
    )
    counted = _Counted(c_playout())
    monkeypatch.setattr(endgame, "c_playout", counted)
    with_c = search_choices(settings, 12, 7)
    assert counted.calls > 1_000
    monkeypatch.setattr(endgame, "c_playout", None)
    assert len(with_c) > 200
    assert with_c == search_choices(settings, 12, 7)
