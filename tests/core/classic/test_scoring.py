"""Scoring in pairs, eggs, Люся, kocherga, the redeal penalty, the end at 6 pairs and the
four titles (docs/rules/reference.md §2.12, §2.13)."""

from __future__ import annotations

import pytest

from core.classic.errors import ClassicReason
from core.classic.events import ClassicTitle, DealEnd, GameFinished
from core.classic.game import ClassicGame
from core.classic.options import ClassicOptions
from core.classic.scoring import is_tails, score_dealing, settle, title_for
from core.errors import KozelError
from core.seats import Team
from tests.core.classic.helpers import eggs, lucy, redeal_three_times

A, B = Team.A, Team.B


@pytest.mark.parametrize(
    ("points", "tricks", "winner", "pairs", "lucy_"),
    [
        ((61, 59), (4, 4), A, (1, 0), False),
        ((59, 61), (4, 4), B, (0, 1), False),
        ((89, 31), (6, 2), A, (1, 0), False),
        ((90, 30), (6, 2), A, (2, 0), False),
        ((30, 90), (2, 6), B, (0, 2), False),
        ((120, 0), (7, 1), A, (2, 0), False),  # a trick without points is still a trick
        ((120, 0), (8, 0), A, (2, 0), True),
        ((0, 120), (0, 8), B, (0, 2), True),
    ],
)
def test_a_played_deal_gives_one_pair_under_90_and_two_from_90(
    points: tuple[int, int],
    tricks: tuple[int, int],
    winner: Team,
    pairs: tuple[int, int],
    lucy_: bool,
) -> None:
    result = score_dealing(DealEnd.PLAYED, points, tricks, None, egg_pairs=0, next_dealer=1)
    assert (result.winner, result.pairs, result.lucy, result.eggs) == (winner, pairs, lucy_, False)
    assert result.egg_pairs == 0 and result.next_dealer == 1


def test_sixty_all_is_eggs_one_egg_pair_put_aside() -> None:
    result = score_dealing(DealEnd.PLAYED, (60, 60), (4, 4), None, egg_pairs=0, next_dealer=0)
    assert result.eggs and result.winner is None and result.pairs == (0, 0)
    assert result.egg_pairs == 1
    again = score_dealing(DealEnd.PLAYED, (60, 60), (3, 5), None, egg_pairs=1, next_dealer=0)
    assert again.egg_pairs == 2  # two eggs in a row: they accumulate


@pytest.mark.parametrize(
    ("end", "points", "winner", "pairs"),
    [
        (DealEnd.PLAYED, (61, 59), None, (3, 0)),
        (DealEnd.KOCHERGA, (10, 20), B, (0, 6)),
        (DealEnd.REDEAL_PENALTY, (0, 0), A, (3, 0)),
    ],
)
def test_the_winner_of_a_deal_takes_every_egg_pair(
    end: DealEnd, points: tuple[int, int], winner: Team | None, pairs: tuple[int, int]
) -> None:
    result = score_dealing(end, points, (4, 3), winner, egg_pairs=2, next_dealer=0)
    assert result.pairs == pairs and result.egg_pairs == 0


def test_a_performed_redeal_scores_nothing_and_keeps_the_egg_pairs() -> None:
    result = score_dealing(DealEnd.REDEAL, (0, 0), (0, 0), None, egg_pairs=2, next_dealer=3)
    assert result.pairs == (0, 0) and result.egg_pairs == 2 and result.winner is None


def test_lucy_resets_the_losers_and_the_winners_still_get_two() -> None:
    result = score_dealing(DealEnd.PLAYED, (120, 0), (8, 0), None, egg_pairs=1, next_dealer=0)
    assert settle((3, 5), result) == (6, 0)


@pytest.mark.parametrize(
    ("before", "end", "points", "tails"),
    [
        (5, DealEnd.PLAYED, (90, 30), True),
        (5, DealEnd.PLAYED, (120, 0), True),
        (5, DealEnd.PLAYED, (89, 31), False),
        (4, DealEnd.PLAYED, (120, 0), False),
        (5, DealEnd.KOCHERGA, (0, 0), False),
        (5, DealEnd.REDEAL_PENALTY, (0, 0), False),
    ],
)
def test_tails_need_exactly_five_and_a_win_by_90_card_points(
    before: int, end: DealEnd, points: tuple[int, int], tails: bool
) -> None:
    winner = A if end is not DealEnd.PLAYED else None
    result = score_dealing(end, points, (5, 3), winner, egg_pairs=0, next_dealer=0)
    assert is_tails(before, result) is tails


def test_the_four_titles() -> None:
    assert title_for(eggs=False, tails=False) is ClassicTitle.GOATS
    assert title_for(eggs=True, tails=False) is ClassicTitle.GOATS_WITH_EGGS
    assert title_for(eggs=False, tails=True) is ClassicTitle.GOATS_WITH_TAILS
    assert title_for(eggs=True, tails=True) is ClassicTitle.GOATS_WITH_EGGS_AND_TAILS


# --- Whole games ------------------------------------------------------------------------------


def test_lucy_played_to_the_end_resets_the_losers_total() -> None:
    game = ClassicGame(ClassicOptions(), first_dealer=3)
    lucy(game, team=1)
    assert game.pairs == (0, 2)
    dealing = lucy(game, team=0)
    assert dealing.points == (120, 0) and dealing.tricks == (8, 0)
    assert game.pairs == (2, 0)


def test_lucy_with_eggs_waiting_takes_them() -> None:
    game = ClassicGame(ClassicOptions(), first_dealer=3)
    lucy(game, team=1)
    game = eggs(game)
    assert game.egg_pairs == 1 and game.pairs == (0, 2)
    dealing = lucy(game, team=0)
    assert dealing.result is not None and dealing.result.pairs == (3, 0)
    assert game.pairs == (3, 0) and game.egg_pairs == 0


def test_two_eggs_in_a_row_then_a_win_takes_both() -> None:
    game = eggs(eggs(ClassicGame(ClassicOptions(), first_dealer=0)), seed=1)
    assert game.egg_pairs == 2 and game.pairs == (0, 0) and game.eggs == 2
    lucy(game, team=1)
    assert game.pairs == (0, 4) and game.egg_pairs == 0


def test_the_third_redeal_gives_the_other_team_a_pair_and_the_egg_pairs() -> None:
    game = eggs(ClassicGame(ClassicOptions(), first_dealer=0))
    dealer_team = game.next_dealer % 2
    dealing = redeal_three_times(game)
    assert dealing.end is DealEnd.REDEAL_PENALTY
    expected = [0, 0]
    expected[1 - dealer_team] = 2
    assert game.pairs == tuple(expected) and game.egg_pairs == 0


def test_the_game_ends_at_six_pairs_and_above() -> None:
    game = ClassicGame(ClassicOptions(), first_dealer=3)
    lucy(game, team=0)
    lucy(game, team=0)
    assert not game.is_over and game.pairs == (4, 0)
    events: list[object] = []
    dealing = lucy(game, team=0, events=events)
    assert game.is_over and game.pairs == (6, 0)
    assert isinstance(events[-1], GameFinished) and events[-1].result == game.result
    result = game.result
    assert result is not None and result.winner is A and result.loser is B
    assert result.title is ClassicTitle.GOATS  # 4 before the last deal: no tails
    assert dealing.result is not None
    with pytest.raises(KozelError) as error:
        game.deal_from(list(dealing.deck))
    assert error.value.reason is ClassicReason.GAME_OVER


def test_tails_from_exactly_five_and_eggs_and_tails() -> None:
    game = eggs(ClassicGame(ClassicOptions(), first_dealer=3))
    lucy(game, team=1)  # B takes 2 + the egg pair
    lucy(game, team=0)  # A 2, B reset to 0
    lucy(game, team=0)  # A 4
    assert game.pairs == (4, 0)
    while game.next_dealer % 2 == 0:  # the redeal penalty must go to team A
        lucy(game, team=1)
        lucy(game, team=0)
        lucy(game, team=0)
    redeal_three_times(game)
    assert game.pairs == (5, 0)
    lucy(game, team=0)
    result = game.result
    assert result is not None and game.pairs == (7, 0)
    assert result.title is ClassicTitle.GOATS_WITH_EGGS_AND_TAILS


def test_tails_without_eggs() -> None:
    game = ClassicGame(ClassicOptions(), first_dealer=3)
    lucy(game, team=0)
    lucy(game, team=0)
    while game.next_dealer % 2 == 0:
        lucy(game, team=1)
        lucy(game, team=0)
        lucy(game, team=0)
    redeal_three_times(game)
    assert game.pairs == (5, 0)
    events: list[object] = []
    lucy(game, team=0, events=events)
    assert game.result is not None and game.result.title is ClassicTitle.GOATS_WITH_TAILS
    assert events[-1] == GameFinished(game.result)
