"""The baseline's choices on bitmasks (the search player's playout policy) are the
baseline player's choices, and its playouts see only what each seat would see."""

from __future__ import annotations

import random

from core.cards import mask_of
from core.yard.actions import Action, ActionKind
from core.yard.ai import BaselinePlayer, CardCounter
from core.yard.ai.policy import baseline_move
from core.yard.ai.rollout import baseline_playout, world_move
from core.yard.ai.worlds import Sampler, World
from core.yard.deal import Deal

from .positions import cards, deal_from_hands, play


def _fast(deal: Deal, seat: int, gone: int) -> tuple[int, int]:
    holder = deal.view(seat).table.trump_card_holder
    return baseline_move(
        list(deal._hands),
        seat,
        list(deal._plays),
        deal._n,
        deal._win_seat,
        deal._win_mask,
        int(deal.trump),
        deal.trump_card.index,
        -1 if holder is None else holder,
        deal.stock_size,
        gone,
    )


def test_the_policy_chooses_what_the_baseline_player_chooses() -> None:
    rng = random.Random(1)
    checked = 0
    for _ in range(60):
        deal = Deal.shuffled(rng.randrange(4), rng)
        counter = CardCounter()
        while not deal.is_over:
            seat = deal.molodka_seat
            if seat is not None and not deal.view(seat).table.plays:
                for event in deal.apply(Action.molodka(seat)):
                    counter.observe(event)
                continue
            seat = deal.turn
            assert seat is not None
            expected = BaselinePlayer(counter).choose(deal.view(seat), rng)
            assert expected is not None
            assert _fast(deal, seat, counter.gone) == (expected.kind.code, mask_of(expected.cards))
            checked += 1
            # Not only the baseline's positions: a random action now and then.
            if rng.random() < 0.3:
                legal = [a for a in deal.legal_actions(seat) if a.kind is not ActionKind.MOLODKA]
                expected = rng.choice(legal)
            for event in deal.apply(expected):
                counter.observe(event)
    assert checked > 1000


def test_the_policy_beats_a_point_rich_trick_with_the_cheapest_winning_card() -> None:
    # As the baseline does (tests/core/yard/ai/test_situations.py): the six of trumps.
    deal = deal_from_hands(["TS 8D 9D JD", "7S 8S 9S 6D", "AS QH 7C KC", "6H AH 6C 8C"], "8H")
    play(deal, (0, "lead", "TS"), (1, "discard", "6D"), (2, "beat", "AS"))
    assert _fast(deal, 3, 0) == (ActionKind.BEAT.code, mask_of(cards("6H")))


def test_a_baseline_playout_does_not_depend_on_the_hands_a_seat_cannot_see() -> None:
    # Seat 0 leads the ten of spades; seat 1 holds no spade and no trump: whatever
    # seats 2 and 3 hold, its baseline reply is the same discard.
    deal = deal_from_hands(["TS 8D 9D JD", "7D QC 9C 6D", "AS QH 7C KC", "6H AH 6C 8S"], "8H")
    play(deal, (0, "lead", "TS"))
    view = deal.view(1)
    replies = set()
    rng = random.Random(3)
    for _ in range(20):
        world = Sampler(view, None).sample(rng)
        replies.add(world_move(world, 1))
        points_a, tricks_a, tricks_b = baseline_playout(world.copy(), 100, rng.random)
        assert 0 <= points_a <= 120 and tricks_a + tricks_b > 0
    assert len(replies) == 1


def test_inferring_worlds_agree_with_the_baseline_s_plays_to_the_trick() -> None:
    # Seat 0 leads the ten of spades and seat 1 (a baseline opponent of seat 2)
    # discards. A baseline holding a cheap beat (a low trump, a higher spade) takes
    # ten points with it, so seat 2's inferring worlds rarely give seat 1 one.
    deal = deal_from_hands(["TS 8D 9D JD", "7D QC 9C 6D", "AS QH 7C KC", "6H AH 6C 8S"], "8H")
    play(deal, (0, "lead", "TS"), (1, "discard", "6D"))
    view = deal.view(2)
    rng = random.Random(4)

    def would_beat(world: World) -> bool:
        start = list(world.hands)
        start[1] |= world.plays[1][2]
        kind, _ = baseline_move(
            start,
            1,
            world.plays[:1],
            world.n,
            0,
            world.plays[0][2],
            world.trump,
            world.trump_card,
            world.trump_holder,
            len(world.stock),
            world.gone,
        )
        return kind == ActionKind.BEAT.code

    plain = sum(would_beat(Sampler(view, None).sample(rng)) for _ in range(200))
    inferring = sum(would_beat(Sampler(view, None, 32).sample(rng)) for _ in range(200))
    assert plain > 40
    assert inferring < plain / 10
