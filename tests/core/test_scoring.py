"""The end of a deal: points, eggs and loss points (docs/rules/reference.md §1.6), through
played deals."""

from __future__ import annotations

import pytest

from core.seats import Team
from core.yard.deal import loss_points_for
from core.yard.events import DealResult, DealScored

from .decks import PILES, pile_points, three_tricks


@pytest.mark.parametrize(
    ("points", "tricks", "loss"),
    [
        (0, 0, 6),  # no trick at all
        (0, 1, 4),  # a trick, but no points
        (2, 1, 4),
        (30, 1, 4),
        (30, 8, 4),
        (31, 1, 2),
        (45, 3, 2),
        (59, 2, 2),
    ],
)
def test_loss_points_for(points: int, tricks: int, loss: int) -> None:
    assert loss_points_for(points, tricks) == loss


def test_the_piles_are_worth_what_they_say() -> None:
    for points, pile in PILES.items():
        assert pile_points(pile) == points


@pytest.mark.parametrize(
    ("a_points", "loss", "winner"),
    [
        (90, (0, 4), Team.A),  # B has 30: 4
        (89, (0, 2), Team.A),  # B has 31: 2
        (61, (0, 2), Team.A),  # B has 59: 2
        (60, (0, 0), None),  # eggs
        (59, (2, 0), Team.B),  # A has 59: 2
        (31, (2, 0), Team.B),
        (30, (4, 0), Team.B),  # A has 30: 4
        (0, (4, 0), Team.B),  # A took a trick worth nothing: still 4, not 6
    ],
)
def test_scoring_edges_through_played_deals(
    a_points: int, loss: tuple[int, int], winner: Team | None
) -> None:
    plan = three_tricks(3, PILES[a_points])
    deal = plan.deal()
    events: list[object] = []
    for action in plan.actions:
        assert not deal.is_over
        events += deal.apply(action)
    expected = DealResult(
        points=(a_points, 120 - a_points),
        tricks=(1, 2),
        loss_points=loss,
        eggs=winner is None,
        winner=winner,
        next_leader=1,
    )
    assert deal.result == expected
    assert events[-1] == DealScored(0, expected)
    assert deal.pile_points() == expected.points


def test_eggs_with_team_b_leading() -> None:
    """Dealer 0: seat 1 (team B) leads and takes the 60-point pile."""
    deal = three_tricks(0, PILES[60]).played()
    result = deal.result
    assert result is not None
    assert (result.points, result.tricks, result.eggs) == ((60, 60), (2, 1), True)
    assert (result.loss_points, result.winner, result.next_leader) == ((0, 0), None, 2)


@pytest.mark.parametrize(("dealer", "loser"), [(3, Team.B), (0, Team.A), (1, Team.B)])
def test_a_team_with_no_trick_gets_6(dealer: int, loser: Team) -> None:
    deal = three_tricks(dealer, PILES[0], shutout=True).played()
    result = deal.result
    assert result is not None
    tricks = [3, 3]
    tricks[loser] = 0
    points = [120, 120]
    points[loser] = 0
    loss = [0, 0]
    loss[loser] = 6
    assert result.points == tuple(points)
    assert result.tricks == tuple(tricks)
    assert result.loss_points == tuple(loss)
    assert result.winner is loser.other and not result.eggs
    assert result.next_leader == (dealer + 1) % 4
