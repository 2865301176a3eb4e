"""Hypothesis properties over random legal play (random.Random seeded by Hypothesis)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations, permutations

from hypothesis import given, settings
from hypothesis import strategies as st

from core.cards import CARDS, Card, Suit
from core.errors import KozelError
from core.record import replay
from core.yard.actions import Action, ActionKind
from core.yard.deal import Deal, loss_points_for
from core.yard.events import CardsDrawn, DealScored, Event, SeriesFinished, TrickStarted, TrickTaken
from core.yard.record import report, restore, series_from_record, series_to_record, snapshot
from core.yard.rules import beats
from core.yard.series import LOSS_LIMIT, Series

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
FAST = settings(max_examples=100, deadline=None)


@dataclass(frozen=True)
class Dealt:
    dealer: int
    deck: tuple[Card, ...]
    trump_index: int


Step = Dealt | Action
OnStep = Callable[[Series, Action | None, list[Event]], None]


def brute_force_beats(xs: Sequence[Card], ys: Sequence[Card], trump: Suit) -> bool:
    return any(
        all(beats(x, y, trump) for x, y in zip(perm, ys, strict=True)) for perm in permutations(xs)
    )


def choose(series: Series, rng: random.Random) -> Action:
    """A random legal action; a legal molodka is taken half of the time."""
    legal = series.legal_actions()
    molodkas = [a for a in legal if a.kind is ActionKind.MOLODKA]
    if molodkas and rng.random() < 0.5:
        return rng.choice(molodkas)
    return rng.choice(legal)


def rigged_deck(dealer: int, rng: random.Random) -> list[Card]:
    """A shuffled deck where a seat other than the first leader holds a molodka."""
    deck = list(CARDS)
    rng.shuffle(deck)
    seat = (dealer + 1 + rng.randrange(1, 4)) % 4
    suit = rng.randrange(4)
    wanted = rng.sample([c for c in CARDS if c.suit == suit], 4)
    places = [i for i in range(16) if (dealer + 1 + i) % 4 == seat]
    for place, card in zip(places, wanted, strict=True):
        j = deck.index(card)
        deck[place], deck[j] = deck[j], deck[place]
    return deck


def random_play(
    seed: int, max_deals: int, on_step: OnStep | None = None
) -> tuple[Series, list[Step]]:
    """Random legal play of up to ``max_deals`` deals (fewer if the series ends);
    ``on_step`` sees the series after each deal (action None) and each action."""
    rng = random.Random(seed)
    series = Series(first_dealer=rng.randrange(4))
    steps: list[Step] = []
    while len(series.deals) < max_deals and not series.is_over:
        if rng.random() < 0.5:
            series.deal(rng)
        else:
            dealer = series.next_dealer
            series.deal_from(rigged_deck(dealer, rng), rng.randrange(4, 16), dealer=dealer)
        deal = series.current
        assert deal is not None
        steps.append(Dealt(deal.dealer, deal.deck, deal.trump_index))
        if on_step is not None:
            on_step(series, None, [])
        while not deal.is_over:
            action = choose(series, rng)
            events = series.apply(action)
            steps.append(action)
            if on_step is not None:
                on_step(series, action, events)
    return series, steps


def rebuild(steps: list[Step], series: Series | None = None) -> Series:
    if series is None:
        first = steps[0]
        assert isinstance(first, Dealt)
        series = Series(first_dealer=first.dealer)
    for step in steps:
        if isinstance(step, Dealt):
            series.deal_from(step.deck, step.trump_index, dealer=step.dealer)
        else:
            series.apply(step)
    return series


class Invariants:
    """Checks the whole table after every step of a deal."""

    def __init__(self) -> None:
        self.taken = 0  # cards in the piles of the current deal
        self.tricks = 0

    def __call__(self, series: Series, action: Action | None, events: list[Event]) -> None:
        deal = series.current
        assert deal is not None
        if action is None:
            self.taken = self.tricks = 0
        for event in events:
            if isinstance(event, TrickTaken):
                self.taken += event.card_count
                self.tricks += 1
            if isinstance(event, CardsDrawn | TrickStarted):
                sizes = {len(deal.hand(seat)) for seat in range(4)}
                assert len(sizes) == 1, sizes  # hands stay equal after every draw
            if isinstance(event, CardsDrawn):
                assert len(set(event.counts)) == 1 and event.stock_size == deal.stock_size
        self.check_cards(deal)
        if deal.is_over:
            self.check_score(series, deal)

    def check_cards(self, deal: Deal) -> None:
        hands = [set(deal.hand(seat)) for seat in range(4)]
        stock = set(deal.deck[36 - deal.stock_size :])
        table = deal.table_view()
        # Once the deal is over the table view still shows the last trick, whose cards
        # are in a pile by then: count them once.
        plays = () if deal.is_over else table.plays
        face_up = [c for p in plays for c in p.cards]
        on_table = sum(p.count for p in plays)
        held = [*hands, stock]
        everything = set().union(*held)
        assert sum(len(part) for part in held) == len(everything)  # disjoint
        assert not everything & set(face_up)
        assert len(everything) + on_table + self.taken == 36  # all 36 cards, once
        assert table.hand_sizes == tuple(len(h) for h in hands)
        assert deal.tricks[0] + deal.tricks[1] == self.tricks
        assert sum(deal.pile_points()) + sum(c.points for c in everything | set(face_up)) <= 120
        if not table.plays and not deal.is_over:
            assert len({len(h) for h in hands}) == 1

    def check_score(self, series: Series, deal: Deal) -> None:
        result = deal.result
        assert result is not None and self.taken == 36
        assert sum(result.points) == 120 and deal.pile_points() == result.points
        assert result.eggs is (result.points == (60, 60))
        assert result.next_leader == deal.last_trick_winner
        if result.eggs:
            assert result.loss_points == (0, 0) and result.winner is None
        else:
            loser = 1 - int(result.winner)  # type: ignore[arg-type]
            assert result.points[loser] < 60
            expected = loss_points_for(result.points[loser], result.tricks[loser])
            assert result.loss_points[loser] == expected and result.loss_points[1 - loser] == 0
        assert series.is_over is (max(series.loss_points) >= LOSS_LIMIT)


@FAST
@given(SEEDS)
def test_random_play_conserves_cards_keeps_hands_equal_and_scores_120(seed: int) -> None:
    invariants = Invariants()
    series, _ = random_play(seed, max_deals=2, on_step=invariants)
    assert all(sum(r.points) == 120 for r in series.results)


@settings(max_examples=50, deadline=None)
@given(SEEDS)
def test_whole_series_end_with_a_loser(seed: int) -> None:
    finished: list[SeriesFinished] = []

    def on_step(series: Series, action: Action | None, events: list[Event]) -> None:
        finished.extend(e for e in events if isinstance(e, SeriesFinished))
        scored = [e for e in events if isinstance(e, DealScored)]
        assert bool(finished) is series.is_over
        assert not scored or scored[0].result == series.results[-1]

    series, _ = random_play(seed, max_deals=100, on_step=on_step)
    assert series.is_over and len(finished) == 1
    result = finished[0].result
    assert result == series.result
    assert result.loss_points[result.loser] >= LOSS_LIMIT
    assert result.loss_points[1 - result.loser] < LOSS_LIMIT
    assert max(series.loss_points) - LOSS_LIMIT < 6
    assert (result.eggs > 0) is (result.title.value == "goats_with_eggs")


@FAST
@given(SEEDS, st.integers(1, 3))
def test_exported_record_replays_to_the_same_series_and_report(seed: int, deals: int) -> None:
    series, _ = random_play(seed, max_deals=deals)
    text = json.dumps(series_to_record(series))
    again = series_from_record(text)
    assert again == series
    assert replay(text) == report(series) == report(again)


@FAST
@given(SEEDS, st.floats(0, 1))
def test_snapshot_round_trips_and_both_copies_continue_alike(seed: int, where: float) -> None:
    original, steps = random_play(seed, max_deals=2)
    k = min(int(where * len(steps)), len(steps) - 1) + 1  # at least the first deal
    first = steps[0]
    assert isinstance(first, Dealt)
    partial = rebuild(steps[:k])
    copy = restore(snapshot(partial))
    assert copy == partial
    assert report(copy) == report(partial)
    rebuild(steps[k:], partial)
    rebuild(steps[k:], copy)
    assert copy == partial == original


@settings(max_examples=60, deadline=None)
@given(SEEDS)
def test_legal_actions_pass_verify_and_other_actions_fail(seed: int) -> None:
    rng = random.Random(seed ^ 0x5EED)
    kinds = [ActionKind.LEAD, ActionKind.BEAT, ActionKind.DISCARD, ActionKind.MOLODKA]

    def on_step(series: Series, action: Action | None, events: list[Event]) -> None:
        deal = series.current
        assert deal is not None
        if deal.is_over:
            return
        legal = deal.legal_actions()
        keys = {(a.seat, a.kind, frozenset(a.cards)) for a in legal}
        assert len(keys) == len(legal)  # no action twice
        for a in legal:
            deal.verify(a)
            assert deal.can(a)
        before = deal.state_key()
        turn = deal.turn
        assert turn is not None
        hand = deal.hand(turn)
        table = deal.table_view()
        if table.plays:  # the beats offered are exactly the sets that beat the winning set
            winning = next(p.cards for p in reversed(table.plays) if p.seat == table.winning_seat)
            for chosen in combinations(hand, len(winning)):
                beat = (turn, ActionKind.BEAT, frozenset(chosen)) in keys
                assert beat is brute_force_beats(chosen, winning, deal.trump), (chosen, winning)
        for size in range(1, len(hand) + 1):  # every card set of the seat to play
            for chosen in combinations(hand, size):
                for kind in kinds[:3]:
                    candidate = Action(turn, kind, chosen)
                    is_legal = (turn, kind, frozenset(chosen)) in keys
                    assert deal.can(candidate) is is_legal, candidate
        for _ in range(12):
            seat = rng.randrange(4)
            kind = rng.choice(kinds)
            if kind is ActionKind.MOLODKA:
                cards: tuple[Card, ...] = ()
            else:
                pool = list(deal.hand(seat)) if rng.random() < 0.8 else list(CARDS)
                cards = tuple(rng.sample(pool, min(rng.randint(1, 4), len(pool))))
            candidate = Action(seat, kind, cards)
            is_legal = (seat, kind, frozenset(cards)) in keys
            assert deal.can(candidate) is is_legal, candidate
            if not is_legal:
                try:
                    deal.verify(candidate)
                except KozelError:
                    pass
                else:
                    raise AssertionError(f"{candidate} passed verify but is not legal")
        assert deal.state_key() == before

    random_play(seed, max_deals=1, on_step=on_step)
