"""The C playout (core/yard/ai/_playout.c) plays exactly as the Python one."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest

from core.yard.ai import rollout
from core.yard.ai.rollout import baseline_playout, legal_moves, played_out, py_playout, step
from core.yard.ai.search import SearchSettings
from core.yard.ai.worlds import Sampler, World
from core.yard.deal import MOLODKA

from .positions import deal_from_hands, sampled_worlds, search_choices

#: The search with settings small enough for a test (the baseline's choices in the
#: playouts, as by default), the C playout's path.
SMALL = SearchSettings(worlds=12, confirm_worlds=12, endgame_nodes=0)


def test_the_c_playout_is_built() -> None:
    # setup.py builds it as an optional extension: on a machine with a C compiler a
    # failed build must not pass unseen (the search would be some ten times slower).
    assert rollout.c_playout is not None, "core/yard/ai/_playout.c was not built: make install-dev"
    assert rollout.c_playout.__name__ == "core.yard.ai._playout"


@pytest.mark.parametrize("sighted", [True, False])
def test_the_c_playout_plays_as_the_python_one(sighted: bool) -> None:
    assert rollout.c_playout is not None
    compared = 0
    for world in sampled_worlds(1, 60):
        fast = rollout.c_playout.playout(world.copy(), sighted)
        slow = py_playout(world.copy(), random.Random(0).random, 0.0, sighted)
        assert fast == slow
        compared += 1
    assert compared > 1_500


def test_the_c_playout_leaves_the_world_as_it_was() -> None:
    assert rollout.c_playout is not None
    for world in sampled_worlds(2, 5):
        before = world.copy()
        rollout.c_playout.playout(world, True)
        assert world == before


def _moves(world: World) -> Iterator[tuple[int, int, int]]:
    """``(seat, kind, mask)``: every legal move of the seat to play, and a molodka on
    offer declared (kind 3) and passed (kind -1) by its seat."""
    if world.molodka_seat >= 0 and not world.molodka_done and not world.plays:
        yield world.molodka_seat, MOLODKA, 0
        yield world.molodka_seat, -1, 0
    if world.hands[world.turn]:
        for kind, mask in legal_moves(world):
            yield world.turn, kind, mask


@pytest.mark.parametrize(
    ("plays", "sighted"), [(0, True), (0, False), (3, True), (9, False), (1_000, True)]
)
def test_each_move_played_out_in_c_is_the_move_then_the_python_playout(
    plays: int, sighted: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The reference is all Python: the move, ``plays`` plays by the baseline's choices,
    # then the Python playout.
    fast = rollout.c_playout
    assert fast is not None
    monkeypatch.setattr(rollout, "c_playout", None)
    compared = molodkas = 0
    for world in sampled_worlds(3, 16):
        by_seat: dict[int, list[tuple[int, int]]] = {}
        for seat, kind, mask in _moves(world):
            by_seat.setdefault(seat, []).append((kind, mask))
        for seat, moves in by_seat.items():
            results = fast.values(world, seat, moves, sighted, plays)
            for (kind, mask), result in zip(moves, results, strict=True):
                played = world.copy()
                if kind < 0:
                    played.molodka_seat, played.molodka_done = -1, True
                else:
                    step(played, seat, kind, mask)
                rand = random.Random(0).random
                assert result == baseline_playout(played, plays, rand, 0.0, sighted)
                compared += 1
                molodkas += kind in (MOLODKA, -1)
    assert compared > 1_500
    assert molodkas > 0


def test_a_molodka_declared_or_passed_in_c() -> None:
    # Seat 1 holds four trumps with the ace and the ten: declaring takes the first
    # trick's 25 points at least; passing lets seat 0 lead.
    deal = deal_from_hands(["6C 7C 8C 9C", "AH TH KH QH", "6S 7S 8S 9S", "6D 7D 8D 9D"], "JH")
    world = Sampler(deal.view(1), None).sample(random.Random(1))
    results = played_out(world, 1, [(MOLODKA, 0), (-1, 0)], True)
    assert results is not None
    declared, passed = results
    assert declared[1] >= 0 and 120 - declared[0] >= 25  # team B took the molodka's trick
    assert declared != passed


@pytest.mark.parametrize("settings", [dataclasses.replace(SMALL, policy_plays=0), SMALL])
def test_the_search_chooses_the_same_with_and_without_the_c_playout(
    settings: SearchSettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    with_c = search_choices(settings, 2, 5)
    monkeypatch.setattr(rollout, "c_playout", None)
    assert len(with_c) > 30
    assert with_c == search_choices(settings, 2, 5)
