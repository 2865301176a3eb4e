"""Computer players never make an illegal move and see only their own seat."""

from __future__ import annotations

import random
from collections.abc import Sequence

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from core.cards import Card
from core.yard.actions import Action, ActionKind
from core.yard.ai import BaselinePlayer, CardCounter, RandomPlayer, make_player, play_deal
from core.yard.ai.players import Player
from core.yard.deal import Deal
from core.yard.events import Event
from core.yard.views import SeatView


class Checked:
    """Wraps a player and checks each answer against the seat's view."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.answers = 0

    def observe(self, event: Event) -> None:
        observe = getattr(self.player, "observe", None)
        if observe is not None:
            observe(event)

    def choose(self, view: SeatView, rng: random.Random) -> Action | None:
        action = self.player.choose(view, rng)
        if action is None:
            assert view.table.turn != view.seat, "the seat to play did nothing"
        else:
            assert action in view.legal
            assert action.seat == view.seat
            if view.table.turn != view.seat:
                assert action.kind is ActionKind.MOLODKA
            self.answers += 1
        return action


def play_checked(deal: Deal, players: Sequence[Player], rng: random.Random) -> None:
    checked = [Checked(player) for player in players]
    result = play_deal(deal, checked, rng)
    assert sum(result.points) == 120
    assert deal.is_over


LEVELS = st.sampled_from(["random", "baseline"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    dealer=st.integers(0, 3),
    levels=st.lists(LEVELS, min_size=4, max_size=4),
)
def test_players_only_make_legal_moves(seed: int, dealer: int, levels: list[str]) -> None:
    rng = random.Random(seed)
    play_checked(Deal.shuffled(dealer, rng), [make_player(level) for level in levels], rng)


def test_many_seeded_deals_of_baselines_and_random_players() -> None:
    rng = random.Random(2024)
    for i in range(200):
        players: list[Player] = [
            BaselinePlayer(CardCounter()) if (i >> seat) & 1 else RandomPlayer()
            for seat in range(4)
        ]
        if i % 5 == 0:
            players[i % 4] = BaselinePlayer()  # no memory
        play_checked(Deal.shuffled(i % 4, rng), players, rng)


def test_molodka_deals_are_played_legally() -> None:
    # Deals where a seat other than the leader is dealt a molodka.
    rng = random.Random(7)
    found = 0
    while found < 40:
        deal = Deal.shuffled(found % 4, rng)
        if deal.molodka_seat is None:
            continue
        found += 1
        play_checked(deal, [make_player("baseline"), RandomPlayer()] * 2, rng)


def _twin(deal: Deal, seats: set[int], rng: random.Random) -> Deal:
    """A deal in which ``seats`` hold the same hands, the trump card and its place are
    the same, and every other card is shuffled among the other hands and the stock."""
    deck = list(deal.deck)
    fixed = {i for i in range(16) if (deal.dealer + 1 + i) % 4 in seats}
    fixed.add(16 + deal.trump_index)
    free = [i for i in range(36) if i not in fixed]
    moved = [deck[i] for i in free]
    rng.shuffle(moved)
    for place, card in zip(free, moved, strict=True):
        deck[place] = card
    return Deal.from_deck(deal.dealer, deck, deal.trump_index)


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), seat=st.integers(0, 3))
def test_the_baseline_decides_from_its_view_alone(seed: int, seat: int) -> None:
    """Two deals that look the same from ``seat`` get the same answer from it."""
    rng = random.Random(seed)
    deal = Deal.shuffled(3, rng)
    twin = _twin(deal, {0, seat}, rng)
    if seat:
        # The leader leads the same cards in both deals; the seats between it and
        # ``seat`` discard face down, so their cards may differ.
        suit = deal.hand(0)[0].suit
        led = tuple(card for card in deal.hand(0) if card.suit == suit)
        for d in (deal, twin):
            d.apply(Action.lead(0, *led))
            for between in range(1, seat):
                d.apply(next(a for a in d.legal_actions(between) if a.kind is ActionKind.DISCARD))
    view, twin_view = deal.view(seat), twin.view(seat)
    assume(view == twin_view)  # a molodka elsewhere can change the seat's options
    assert BaselinePlayer().choose(view, random.Random(1)) == BaselinePlayer().choose(
        twin_view, random.Random(2)
    )


def test_card_counter_forgets_cards_a_molodka_gives_back() -> None:
    from core.seats import Team
    from core.yard.events import CardsLed, MolodkaDeclared, TrickTaken

    counter = CardCounter()
    six = Card.parse("6S")
    counter.observe(CardsLed(0, (six,)))
    counter.observe(
        MolodkaDeclared(1, tuple(Card.parse(c) for c in ("6H", "7H", "8H", "9H")), (1, 0, 0, 0))
    )
    counter.observe(TrickTaken(1, Team.B, 16))
    assert six not in counter.gone_cards()
    assert len(counter.gone_cards()) == 4


def test_card_counter_starts_afresh_with_each_deal() -> None:
    from core.seats import Team
    from core.yard.events import CardsLed, TrickStarted, TrickTaken

    counter = CardCounter()
    counter.observe(CardsLed(0, (Card.parse("AS"),)))
    counter.observe(TrickTaken(0, Team.A, 4))
    counter.observe(TrickStarted(0, 1))
    assert counter.gone_cards() == (Card.parse("AS"),)
    counter.observe(TrickStarted(2, 0))  # the first trick of the next deal
    assert counter.gone == 0


def test_card_counter_remembers_every_face_up_card_of_a_deal() -> None:
    rng = random.Random(3)
    counter = CardCounter()
    deal = Deal.shuffled(0, rng)
    shown: set[Card] = set()
    while not deal.is_over:
        action = rng.choice(deal.legal_actions())
        for event in deal.apply(action):
            counter.observe(event)
        if action.kind is not ActionKind.DISCARD:
            shown.update(action.cards)
    assert counter.gone_cards()
    assert set(counter.gone_cards()) <= shown
