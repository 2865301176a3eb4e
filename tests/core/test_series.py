"""A series of deals until a team has 12 loss points (docs/rules/reference.md §1.2.3 and §1.7)."""

from __future__ import annotations

import random

import pytest

from core.errors import KozelError, Reason
from core.seats import Team
from core.yard.errors import YardReason
from core.yard.events import (
    DealScored,
    DealStarted,
    SeriesFinished,
    SeriesResult,
    Title,
    TrickStarted,
)
from core.yard.series import Series

from .decks import PILES, Plan, three_tricks

#: Seat 0 leads (dealer 3) and takes every trick: team B gets 6, seat 0 leads next.
A_SHUTOUT = three_tricks(3, PILES[0], shutout=True)
#: Seat 1 leads (dealer 0) and takes every trick: team A gets 6, seat 1 leads next.
B_SHUTOUT = three_tricks(0, PILES[0], shutout=True)
#: Seat 0 leads; team B ends with 30 points: B gets 4, seat 1 leads next.
B_30 = three_tricks(3, PILES[90])
#: Seat 1 leads (dealer 0) and team B takes 30 points: B gets 4, seat 1 leads next.
B_LEADS_30 = three_tricks(0, PILES[30])
#: Seat 0 leads; 60-60: eggs, seat 1 leads next.
EGGS = three_tricks(3, PILES[60])


def play(series: Series, *plans: Plan) -> list[object]:
    """Deal and play each plan in turn; the events of the last one."""
    events: list[object] = []
    for plan in plans:
        events = list(series.deal_from(plan.deck, plan.trump_index, dealer=plan.dealer))
        for action in plan.actions:
            events += series.apply(action)
    return events


def refused(series: Series, call: object, *args: object, **kwargs: object) -> Reason:
    before = series.state_key()
    with pytest.raises(KozelError) as caught:
        call(*args, **kwargs)  # type: ignore[operator]
    assert series.state_key() == before
    return caught.value.reason


def test_series_ends_at_exactly_12() -> None:
    series = Series()
    events = play(series, A_SHUTOUT)
    assert series.loss_points == (0, 6) and not series.is_over and series.result is None
    assert not any(isinstance(e, SeriesFinished) for e in events)
    assert series.next_dealer == 3
    events = play(series, A_SHUTOUT)
    expected = SeriesResult(loser=Team.B, title=Title.GOATS, loss_points=(0, 12), deals=2, eggs=0)
    assert series.is_over and series.result == expected
    assert isinstance(events[-2], DealScored) and events[-1] == SeriesFinished(expected)
    plan = A_SHUTOUT
    assert refused(series, series.deal_from, plan.deck, plan.trump_index) is YardReason.SERIES_OVER
    assert refused(series, series.deal, random.Random(1)) is YardReason.SERIES_OVER
    assert refused(series, series.apply, plan.actions[0]) is YardReason.SERIES_OVER


def test_series_ends_above_12() -> None:
    series = Series()
    play(series, A_SHUTOUT, B_30)
    assert series.loss_points == (0, 10) and not series.is_over
    assert series.next_dealer == 0  # seat 1 won the last trick
    events = play(series, B_LEADS_30)
    assert [r.loss_points for r in series.results] == [(0, 6), (0, 4), (0, 4)]
    result = series.result
    assert result == SeriesResult(Team.B, Title.GOATS, (0, 14), deals=3, eggs=0)
    assert events[-1] == SeriesFinished(result)


def test_goats_with_eggs() -> None:
    series = Series()
    play(series, EGGS)
    assert series.loss_points == (0, 0) and series.eggs == 1
    assert series.next_dealer == 0
    play(series, B_SHUTOUT)
    assert series.loss_points == (6, 0) and not series.is_over
    events = play(series, B_SHUTOUT)
    result = SeriesResult(Team.A, Title.GOATS_WITH_EGGS, (12, 0), deals=3, eggs=1)
    assert series.result == result and events[-1] == SeriesFinished(result)


def test_next_deal_is_led_by_the_last_trick_winner_and_dealt_by_the_seat_before() -> None:
    series = Series(first_dealer=3)
    play(series, B_30)
    last = series.current
    assert last is not None and last.last_trick_winner == 1
    assert series.next_dealer == 0
    events = series.deal_from(B_LEADS_30.deck, B_LEADS_30.trump_index)  # dealer chosen
    deal = series.current
    assert deal is not None and deal is not last and deal.number == 1
    assert (deal.dealer, deal.first_leader, deal.turn) == (0, 1, 1)
    assert events == [DealStarted(1, 0, 1, deal.trump_card, 20), TrickStarted(1, 0)]


@pytest.mark.parametrize("wrong", [1, 2, 3])
def test_deal_from_with_a_wrong_dealer_is_refused(wrong: int) -> None:
    series = Series()
    play(series, B_30)  # seat 1 won the last trick: dealer 0
    plan = B_LEADS_30
    reason = refused(series, series.deal_from, plan.deck, plan.trump_index, dealer=wrong)
    assert reason is Reason.BAD_DEALER
    assert len(series.deals) == 1
    series.deal_from(plan.deck, plan.trump_index, dealer=0)
    assert len(series.deals) == 2


def test_the_first_deal_may_have_any_dealer() -> None:
    series = Series(first_dealer=3)
    series.deal_from(B_SHUTOUT.deck, B_SHUTOUT.trump_index, dealer=0)
    assert series.first_dealer == 0 and series.current is not None
    assert series.current.first_leader == 1


def test_no_new_deal_while_one_is_played() -> None:
    series = Series()
    assert refused(series, series.apply, A_SHUTOUT.actions[0]) is Reason.DEAL_NOT_OVER
    series.deal_from(A_SHUTOUT.deck, A_SHUTOUT.trump_index)
    series.apply(A_SHUTOUT.actions[0])
    plan = A_SHUTOUT
    assert refused(series, series.deal_from, plan.deck, plan.trump_index) is (Reason.DEAL_NOT_OVER)
    assert refused(series, series.deal, random.Random(0)) is Reason.DEAL_NOT_OVER
    with pytest.raises(KozelError) as caught:
        _ = series.next_dealer
    assert caught.value.reason is Reason.DEAL_NOT_OVER


def test_a_finished_deal_refuses_actions_until_the_next_deal() -> None:
    series = Series()
    play(series, B_30)
    assert refused(series, series.apply, B_30.actions[0]) is Reason.DEAL_OVER
    assert not series.can(B_30.actions[0])
    assert series.legal_actions() == []


def test_shuffled_deals_follow_the_dealer_rule() -> None:
    rng = random.Random(12)
    series = Series(first_dealer=2)
    for _ in range(3):
        dealer = series.next_dealer
        series.deal(rng)
        deal = series.current
        assert deal is not None and deal.dealer == dealer
        while not deal.is_over:
            series.apply(rng.choice(series.legal_actions()))
        assert series.next_dealer == (deal.last_trick_winner - 1) % 4  # type: ignore[operator]
        if series.is_over:
            break


@pytest.mark.parametrize("seat", [-1, 4, "0"])
def test_series_with_a_bad_first_dealer(seat: object) -> None:
    with pytest.raises(KozelError) as caught:
        Series(first_dealer=seat)  # type: ignore[arg-type]
    assert caught.value.reason is Reason.BAD_SEAT
