"""The search player: its worlds agree with the seat's view, it sees nothing else,
its stock-empty endgames are exact, and it decides the molodka by search."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Iterator

import pytest

from core.cards import mask_of
from core.yard.actions import Action, ActionKind
from core.yard.ai import (
    BaselinePlayer,
    CardCounter,
    SearchPlayer,
    SearchSettings,
    make_player,
    play_deal,
    public_events,
)
from core.yard.ai.endgame import Solver, solve, solve_model
from core.yard.ai.memory import DealMemory
from core.yard.ai.rollout import baseline_playout, legal_moves, step, utility
from core.yard.ai.search import _clearly_better, _solve_moves
from core.yard.ai.worlds import Sampler, World
from core.yard.deal import Deal, points_in
from core.yard.events import DealStarted, Event
from core.yard.views import SeatView

from .positions import deal_from_hands

#: Small and quick: six worlds for every kind of decision.
SMALL = SearchSettings(worlds=6, confirm_worlds=6, endgame_worlds=6, endgame_confirm_worlds=6)


def _random_position(rng: random.Random, steps: int) -> tuple[Deal, list[DealMemory]]:
    """A deal after ``steps`` random legal actions (molodkas included), and every
    seat's memory of it, fed as a player's would be."""
    deal = Deal.shuffled(rng.randrange(4), rng)
    memories = [DealMemory(seat) for seat in range(4)]
    start = DealStarted(0, deal.dealer, deal.first_leader, deal.trump_card, deal.stock_size)
    for memory in memories:
        memory.observe(start)
    for _ in range(steps):
        if deal.is_over:
            break
        _play_at_random(deal, memories, rng)
    return deal, memories


def _play_at_random(deal: Deal, memories: list[DealMemory], rng: random.Random) -> None:
    """A random legal action, its seat's memory keeping it and every memory its events."""
    action = rng.choice(deal.legal_actions())
    memories[action.seat].own(action.kind, action.cards)
    events = deal.apply(action)
    for memory in memories:
        for event in events:
            memory.observe(event)


@pytest.mark.parametrize("infer", [0, 8])
def test_no_sampled_world_contradicts_the_seat_view(infer: int) -> None:
    rng = random.Random(11)
    checked = 0
    for _ in range(250):
        deal, memories = _random_position(rng, rng.randrange(0, 64))
        if deal.is_over:
            continue
        for seat in range(4):
            view = deal.view(seat)
            memory = memories[seat]
            sampler = Sampler(view, memory, infer)
            assert sampler.memory_used
            seen = memory.gone | memory.own_gone | mask_of(view.hand)
            trump = 1 << deal.trump_card.index
            holder = view.table.trump_card_holder
            for _ in range(4):
                world = sampler.sample(rng).to_deal()
                # The seat's view of the world is its real view: hand, table (faces
                # and counts), trump card and holder, sizes, legal actions, molodka.
                assert world.view(seat) == view
                hidden = [world._hands[other] for other in range(4) if other != seat]
                for hand in hidden:
                    assert not hand & seen, "a card the seat saw is in a hidden hand"
                for team in (0, 1):
                    assert world._piles[team].bit_count() == deal._piles[team].bit_count()
                    assert world._piles[team] & memory.pile_known[team] == (memory.pile_known[team])
                stock = world._deck[world._stock_pos :]
                if holder is None:
                    assert deal.trump_card.index in stock, "the trump card left the stock"
                elif not trump & seen:
                    assert deal.trump_card.index not in stock
                    assert not any(
                        hand & trump for other, hand in enumerate(world._hands) if other != holder
                    ), "the drawn trump card is in the hand of a seat that did not draw it"
                checked += 1
    assert checked > 1500


def test_worlds_place_the_unseen_cards_differently() -> None:
    rng = random.Random(5)
    deal, memories = _random_position(rng, 9)
    sampler = Sampler(deal.view(0), memories[0])
    hands = {tuple(sampler.sample(rng).hands) for _ in range(20)}
    assert len(hands) > 10


def _hidden_variant(deal: Deal, seat: int, rng: random.Random) -> Deal:
    """The deal with every card the seat cannot see placed anew."""
    memory = DealMemory(seat)
    for event in public_events(deal):
        memory.observe(event)
    while True:
        variant = Sampler(deal.view(seat), memory).sample(rng).to_deal()
        if variant._hands != deal._hands:
            return variant


def _player_after(deal: Deal, seat: int, settings: SearchSettings = SMALL) -> SearchPlayer:
    player = SearchPlayer(settings)
    for event in public_events(deal):
        player.observe(event)
    return player


#: Every option that looks at more than the plain search: inference from the trick's
#: plays, the baseline's choices in playouts, the confirming worlds.
INFERRING = dataclasses.replace(SMALL, infer=8, policy_plays=6, confidence=0.5)


@pytest.mark.parametrize("settings", [SMALL, INFERRING])
def test_the_choice_does_not_change_when_only_the_hidden_cards_change(
    settings: SearchSettings,
) -> None:
    rng = random.Random(3)
    compared = 0
    for _ in range(16):
        deal, _ = _random_position(rng, rng.randrange(0, 40))
        if deal.is_over:
            continue
        seat = deal.turn
        assert seat is not None
        variant = _hidden_variant(deal, seat, rng)
        assert variant.view(seat) == deal.view(seat)
        real = _player_after(deal, seat, settings).choose(deal.view(seat), random.Random(8))
        other = _player_after(deal, seat, settings).choose(variant.view(seat), random.Random(8))
        assert real == other
        compared += 1
    assert compared >= 8


def test_the_same_seed_gives_the_same_choice() -> None:
    deal = Deal.shuffled(1, random.Random(21))
    view = deal.view(deal.first_leader)
    first = SearchPlayer(SMALL).choose(view, random.Random(4))
    assert first == SearchPlayer(SMALL).choose(view, random.Random(4))
    assert first in view.legal


def _minimax(world: World) -> int:
    """Team A's card points from here with best play, by brute force."""
    if not world.hands[world.turn] and not world.plays:
        return 0
    best: int | None = None
    for kind, mask in legal_moves(world):
        after = world.copy()
        before = points_in(after.piles[0])
        step(after, after.turn, kind, mask)
        value = points_in(after.piles[0]) - before + _minimax(after)
        if best is None or (value > best if world.turn % 2 == 0 else value < best):
            best = value
    assert best is not None
    return best


def test_stock_empty_endgames_are_solved_exactly() -> None:
    rng = random.Random(3)
    solved = 0
    while solved < 25:
        deal = Deal.shuffled(rng.randrange(4), rng)
        while not deal.is_over and (deal.stock_size > 0 or len(deal.hand(0)) > 2):
            deal.apply(rng.choice(deal.legal_actions(deal.turn)))
        if deal.is_over:
            continue
        world = Sampler(deal.view(deal.turn), None).sample(rng)
        value = solve(world, 0, 0.0, Solver(world.trump, 10**6))
        assert value is not None
        points_a = points_in(world.piles[0]) + _minimax(world)
        # weight 0: the value is the loss points alone; check them via the points.
        assert (value > 0) == (points_a > 60)
        assert (value < 0) == (points_a < 60)
        solved += 1


def test_the_endgame_search_gives_up_past_its_budget() -> None:
    rng = random.Random(4)
    deal = Deal.shuffled(0, rng)
    while deal.stock_size > 0:
        deal.apply(rng.choice(deal.legal_actions(deal.turn)))
    world = Sampler(deal.view(deal.turn), None).sample(rng)
    assert solve(world, 0, 1.0, Solver(world.trump, 10)) is None


def test_declares_a_molodka_of_high_trumps() -> None:
    # Seat 1 holds four hearts (trumps) with the ace and the ten: declaring takes
    # the trick and its 25 points.
    deal = deal_from_hands(["6C 7C 8C 9C", "AH TH KH QH", "6S 7S 8S 9S", "6D 7D 8D 9D"], "JH")
    view = deal.view(1)
    assert view.molodka
    action = SearchPlayer(dataclasses.replace(SMALL, worlds=200)).choose(view, random.Random(1))
    assert action == Action.molodka(1)


def test_the_molodka_decision_is_the_search_s() -> None:
    # Several molodkas of seat 1, strong and weak: it declares exactly when the
    # search values declaring now at least as high as going on without it.
    for hand, trump in (
        ("AH TH KH QH", "JH"),
        ("6S 7S 8S 9S", "JH"),
        ("6H 7H 8H 9H", "JH"),
        ("AS TS KS QS", "JD"),
    ):
        rest = [c for c in ("6C 7C 8C 9C", "6D 7D 8D 9D", "JC QC KC TC") if trump[1] not in c]
        deal = deal_from_hands([rest[0], hand, rest[1], "JS QD KD AD"], trump)
        view = deal.view(1)
        assert view.molodka
        seed = random.Random(1).getrandbits(64)  # what choose draws first
        sampler = Sampler(view, None)
        declare, going_on = SearchPlayer(SMALL)._values(view, sampler, [(3, 0), (-1, 0)], seed)
        choice = SearchPlayer(SMALL).choose(view, random.Random(1))
        wanted = Action.molodka(1) if declare >= going_on else None
        assert choice == wanted, (hand, declare, going_on)


def test_search_players_play_whole_deals_legally() -> None:
    rng = random.Random(2)
    for number in range(3):
        players = [SearchPlayer(SMALL), make_player("normal")] * 2
        result = play_deal(Deal.shuffled(number % 4, rng), players, rng)
        assert sum(result.points) == 120


def test_a_player_made_in_the_middle_of_a_deal_learns_what_was_seen() -> None:
    rng = random.Random(9)
    deal, memories = _random_position(rng, 20)
    player = _player_after(deal, 2)
    assert player.memory.complete
    assert player.memory.gone == memories[2].gone
    events: list[Event] = public_events(deal)
    assert isinstance(events[0], DealStarted)
    assert all(not isinstance(e, ActionKind) for e in events)


def _baseline_choice(view: SeatView, gone: int, rng: random.Random) -> Action | None:
    """What the baseline plays in the view, having seen ``gone`` go by."""
    counter = CardCounter()
    counter.gone = gone
    return BaselinePlayer(counter).choose(view, rng)


def test_the_first_candidate_is_the_baseline_s_choice() -> None:
    # The baseline's choice stands unless the search finds a clearly better one, so
    # the candidates start with exactly what the baseline would play (ties included).
    rng = random.Random(6)
    checked = 0
    for _ in range(60):
        deal, memories = _random_position(rng, rng.randrange(0, 40))
        if deal.is_over or deal.turn is None:
            continue
        seat = deal.turn
        view = deal.view(seat)
        player = SearchPlayer(SMALL)
        player.memory = memories[seat]
        expected = _baseline_choice(view, memories[seat].gone, rng)
        actions = [a for a in view.legal if a.kind is not ActionKind.MOLODKA]
        assert player._shortlist(view, actions)[0] == expected
        checked += 1
    assert checked >= 20


def test_clearly_better_asks_for_a_mean_difference_beyond_its_standard_error() -> None:
    base = [0.0, 0.0, 0.0, 0.0]
    assert _clearly_better([1.0, 1.1, 0.9, 1.0], base, 2.0)  # always ahead
    assert not _clearly_better([4.0, -1.0, -1.0, -1.0], base, 2.0)  # one lucky world
    assert _clearly_better([4.0, -1.0, -1.0, -1.0], base, 0.1)
    assert not _clearly_better(base, base, 0.0)


def test_a_confident_search_keeps_the_baseline_s_choice_unless_clearly_better() -> None:
    # With a test no difference can pass, the search plays the baseline's choices;
    # with the default one it departs from them in some positions.
    rng = random.Random(12)
    stubborn = dataclasses.replace(SMALL, confidence=1e9)
    confident = dataclasses.replace(SMALL, worlds=12, confidence=1.0, confirm_worlds=12)
    departed = 0
    for _ in range(40):
        deal, memories = _random_position(rng, rng.randrange(20, 48))
        if deal.is_over or deal.turn is None:
            continue
        seat = deal.turn
        view = deal.view(seat)
        expected = _baseline_choice(view, memories[seat].gone, rng)
        for settings in (stubborn, confident):
            player = SearchPlayer(settings)
            player.memory = memories[seat]
            choice = player.choose(view, random.Random(3))
            if settings is stubborn:
                assert choice == expected
            else:
                departed += choice != expected
    assert departed > 0


def test_the_win_bonus_prefers_a_sure_narrow_win_to_a_gamble_for_a_whitewash() -> None:
    # Team A: 61 points in every world, or 120 (every trick) in half of them and 59
    # in the other half. On loss points alone the gamble is worth more; the bench
    # counts deals won, and so does the default utility.
    sure = utility(61, 5, 4, 0, 3.0, win=3.0)
    gamble = (utility(120, 9, 0, 0, 3.0, win=3.0) + utility(59, 5, 4, 0, 3.0, win=3.0)) / 2
    assert sure > gamble
    loss_only = (utility(120, 9, 0, 0, 3.0) + utility(59, 5, 4, 0, 3.0)) / 2
    assert utility(61, 5, 4, 0, 3.0) < loss_only
    assert SearchSettings().win > 0
    # Eggs are neither won nor lost.
    assert utility(60, 5, 4, 0, 3.0, win=3.0) == 0.0


def _stock_empty_world(rng: random.Random, cards: int) -> World | None:
    """A sampled world of a random deal once the stock is empty and hands hold at
    most ``cards`` cards (None when the deal ended first)."""
    deal = Deal.shuffled(rng.randrange(4), rng)
    while not deal.is_over and (deal.stock_size > 0 or len(deal.hand(0)) > cards):
        deal.apply(rng.choice(deal.legal_actions(deal.turn)))
    if deal.is_over or deal.turn is None:
        return None
    return Sampler(deal.view(deal.turn), None).sample(rng)


def test_the_endgame_against_the_baseline_is_at_least_the_baseline_s_own_play() -> None:
    # The other team plays the baseline's choices; this team's best is at least
    # what it gets by playing them too, and more in some worlds.
    rng = random.Random(21)
    checked = better = 0
    while checked < 40:
        world = _stock_empty_world(rng, 3)
        if world is None:
            continue
        team = world.turn & 1
        value = solve_model(world, team, 3.0, 10**6, 3.0)
        assert value is not None
        played = world.copy()
        points_a, tricks_a, tricks_b = baseline_playout(played, 1_000, random.Random(0).random)
        own = utility(points_a, tricks_a, tricks_b, team, 3.0, 3.0)
        assert value >= own - 1e-9
        better += value > own + 1e-9
        checked += 1
    assert better > 0


def test_the_endgame_against_the_baseline_gives_up_past_its_budget() -> None:
    rng = random.Random(22)
    world = None
    while world is None:
        world = _stock_empty_world(rng, 3)
    assert solve_model(world, world.turn & 1, 3.0, 1) is None


def _count_samples(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls = [0]
    sample = Sampler.sample

    def counted(self: Sampler, rng: random.Random) -> World:
        calls[0] += 1
        return sample(self, rng)

    monkeypatch.setattr(Sampler, "sample", counted)
    return calls


def _searched_decisions(
    rng: random.Random, least: int
) -> Iterator[tuple[DealMemory, SeatView, list[Action]]]:
    """Random positions before the stock is empty, no molodka open, whose seat to act
    has ``least`` or more moves: that seat's memory and view, and its moves."""
    while True:
        deal, memories = _random_position(rng, rng.randrange(0, 30))
        if deal.is_over or deal.turn is None or deal.stock_size == 0:
            continue
        view = deal.view(deal.turn)
        legal = [a for a in view.legal if a.kind is not ActionKind.MOLODKA]
        if len(legal) >= least and not view.molodka:
            yield memories[deal.turn], view, legal


def test_leads_sample_their_own_number_of_worlds(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _count_samples(monkeypatch)
    settings = dataclasses.replace(SMALL, worlds=4, lead_worlds=9, confidence=0.0, confirm_worlds=0)
    seen = {True: 0, False: 0}
    for memory, view, _ in _searched_decisions(random.Random(23), 2):
        player = SearchPlayer(settings)
        player.memory = memory
        calls[0] = 0
        player.choose(view, random.Random(1))
        lead = not view.table.plays
        assert calls[0] == (9 if lead else 4)
        seen[lead] += 1
        if min(seen.values()) >= 5:
            break


def test_the_second_round_plays_more_worlds_for_the_best_few(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The second round's worlds are played for the baseline's choice and the best
    # one other; the choice is one of them, and the baseline's when the test fails.
    calls = _count_samples(monkeypatch)
    raced = dataclasses.replace(SMALL, worlds=5, race_keep=1, race_worlds=7, confirm_worlds=0)
    for memory, view, legal in itertools.islice(_searched_decisions(random.Random(24), 3), 15):
        player = SearchPlayer(raced)
        player.memory = memory
        calls[0] = 0
        choice = player.choose(view, random.Random(2))
        assert calls[0] == 5 + 7
        assert choice in legal
        plain = SearchPlayer(dataclasses.replace(raced, race_keep=0))
        plain.memory = memory
        calls[0] = 0
        plain.choose(view, random.Random(2))
        assert calls[0] == 5


def test_history_inference_keeps_the_real_deal_and_rules_out_other_worlds() -> None:
    # Four baseline players: the real hands always agree with the opponents' plays
    # to the last tricks (checked as the baseline's choices, each opponent's hand
    # then rebuilt with a random choice of the cards he drew since), and some
    # uniformly placed worlds do not.
    from bench.yard_ai_gain import baseline_turns, start_deal, true_world

    checked = rejected = 0
    for k in range(40):
        rng = random.Random(k)
        deal, memories, counter = start_deal(k % 4, rng)
        for view, _ in baseline_turns(deal, memories, counter, rng):
            sampler = Sampler(view, memories[view.seat], 8, history=4)
            if sampler._history:
                real = true_world(deal, counter.gone)
                if any(sum(trick.draws) for trick in sampler._history):
                    # Which cards were drawn is guessed: some guess is right.
                    assert any(sampler._history_agrees(real, rng) for _ in range(300))
                else:
                    assert sampler._history_agrees(real, rng)
                checked += 1
                for _ in range(5):
                    world = sampler._place(rng)
                    rejected += not sampler._history_agrees(world, rng)
    assert checked >= 300
    assert rejected > 100


def test_the_memory_keeps_the_finished_tricks_and_the_draws_after_them() -> None:
    rng = random.Random(25)
    for _ in range(10):
        deal, memories = _random_position(rng, 200)
        assert deal.is_over
        memory = memories[0]
        # Every play is there, each trick knows the face-up cards gone before it,
        # and the cards drawn after the tricks are the stock.
        gone = 0
        drawn = 0
        stock = memory.tricks[0].stock
        for trick in memory.tricks:
            assert trick.gone == gone
            assert trick.stock == stock - drawn
            if not trick.molodka:
                assert sum(count for _, _, _, count in trick.plays) == 4 * trick.plays[0][3]
            for _, _, mask, _ in trick.plays:
                gone |= mask
            drawn += sum(trick.draws)
        assert gone == memory.gone
        assert drawn == stock == 20
        assert sum(trick.trump_to >= 0 for trick in memory.tricks) == 1


def _first_trick_without_stock(rng: random.Random) -> tuple[Deal, list[DealMemory]] | None:
    """A random deal at the turn of the second seat or later of the first trick after
    the stock ran out, that seat still holding four cards; None when the deal's play
    went otherwise."""
    deal, memories = _random_position(rng, 0)
    while not deal.is_over:
        seat = deal.turn
        if (
            deal.stock_size == 0
            and deal._plays
            and seat is not None
            and len(deal.view(seat).hand) == 4
        ):
            return deal, memories
        _play_at_random(deal, memories, rng)
    return None


def test_the_first_trick_after_the_stock_ran_out_is_solved_exactly_after_the_lead() -> None:
    # The seat still holds four cards, but once the trick is over every hand holds
    # three or fewer: each world is solved exactly, the values being solve_model's.
    rng = random.Random(17)
    settings = SearchSettings(worlds=4, endgame_nodes=200_000)
    checked = 0
    while checked < 10:
        found = _first_trick_without_stock(rng)
        if found is None:
            continue
        deal, memories = found
        seat = deal.turn
        assert seat is not None
        view = deal.view(seat)
        world = Sampler(view, memories[seat]).sample(rng)
        moves = [(a.kind.code, mask_of(a.cards)) for a in view.legal]
        values = _solve_moves(world, seat, moves, settings, seat & 1)
        assert values is not None
        for (kind, mask), value in zip(moves, values, strict=True):
            played = world.copy()
            step(played, seat, kind, mask)
            expected = solve_model(played, seat & 1, settings.weight, 200_000, settings.win)
            assert value == expected
        checked += 1
