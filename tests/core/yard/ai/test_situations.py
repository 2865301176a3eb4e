"""The baseline in hand-built positions: what a partner at the table expects."""

from __future__ import annotations

import random

import pytest

from core.errors import KozelError
from core.yard.actions import Action, ActionKind
from core.yard.ai import (
    BaselinePlayer,
    EasyPlayer,
    RandomPlayer,
    SearchPlayer,
    make_player,
    safe_move,
)
from tests.core.yard.ai.positions import cards, deal_from_hands, play

RNG = random.Random(0)


def test_does_not_beat_a_partner_who_wins_the_trick_and_loads_points() -> None:
    # Hearts are trumps. Seat 1 (the partner of seat 3) beats the lead with the ace;
    # seat 3 plays last and could trump it, but the trick is its team's already.
    deal = deal_from_hands(["6C 8D 9D JD", "AC 7S 8S 9S", "7C 6D QD KD", "7H TD 6S 8C"], "QH")
    play(deal, (0, "lead", "6C"), (1, "beat", "AC"), (2, "discard", "7C"))
    action = BaselinePlayer().choose(deal.view(3), RNG)
    assert action is not None
    assert action.kind is ActionKind.DISCARD
    assert action.cards == cards("TD")


def test_does_not_overtake_a_partner_with_an_unbeatable_lead() -> None:
    # Seat 0 leads the ace of trumps; its partner, seat 2, holds trumps too.
    deal = deal_from_hands(["AH 8D 9D JD", "7S 8S 9S 6D", "KH QH 7C KC", "TD 6S 9C 8C"], "6H")
    play(deal, (0, "lead", "AH"), (1, "discard", "6D"))
    action = BaselinePlayer().choose(deal.view(2), RNG)
    assert action is not None
    assert action.kind is ActionKind.DISCARD
    assert action.cards == cards("KC")  # points onto the sure trick, trumps kept


def test_beats_a_point_rich_trick_with_the_cheapest_winning_card() -> None:
    # Seat 0 leads the ten of spades, its partner adds the ace; seat 3 plays last.
    deal = deal_from_hands(["TS 8D 9D JD", "7S 8S 9S 6D", "AS QH 7C KC", "6H AH 6C 8C"], "8H")
    play(deal, (0, "lead", "TS"), (1, "discard", "6D"), (2, "beat", "AS"))
    action = BaselinePlayer().choose(deal.view(3), RNG)
    assert action is not None
    assert action.kind is ActionKind.BEAT
    assert action.cards == cards("6H")


def test_beats_a_two_card_lead_with_the_cheapest_pair() -> None:
    deal = deal_from_hands(["AS KS 9D JD", "7S 8S 9S 6D", "QH 7D 7C KC", "6H 7H AH AD"], "8H")
    play(deal, (0, "lead", "AS KS"), (1, "discard", "7S 8S"), (2, "discard", "7C 7D"))
    action = BaselinePlayer().choose(deal.view(3), RNG)
    assert action is not None
    assert action.kind is ActionKind.BEAT
    assert action.cards == cards("6H 7H")


def test_does_not_spend_a_trump_on_a_trick_without_points() -> None:
    # Seat 0 leads a low spade; seat 1 could only beat it with a trump, and its
    # partner plays last.
    deal = deal_from_hands(["6S 8D 9D JD", "6H 7C 8C 6D", "QS 7D TC KC", "9S 8H 9C 6C"], "QH")
    play(deal, (0, "lead", "6S"))
    action = BaselinePlayer().choose(deal.view(1), RNG)
    assert action is not None
    assert action.kind is ActionKind.DISCARD
    assert action.cards[0].points == 0


@pytest.mark.parametrize("lead", ["AH", "KH QH"])
def test_discards_cards_without_points_rather_than_an_ace(lead: str) -> None:
    # Seat 0 leads trumps that seat 1 cannot beat: it throws its low cards.
    deal = deal_from_hands(["AH KH QH JD", "AS 6C 7D TS", "9S 8S 7C 6D", "8D 9D TC KC"], "6H")
    play(deal, (0, "lead", lead))
    action = BaselinePlayer().choose(deal.view(1), RNG)
    assert action is not None
    assert action.kind is ActionKind.DISCARD
    assert all(card.points == 0 for card in action.cards)


def test_declares_a_molodka_at_the_start_of_the_trick() -> None:
    deal = deal_from_hands(["6C 8D 9D JD", "6S 9S KS AS", "7C 6D QD KD", "7H TD 7D 8C"], "QH")
    assert deal.molodka_seat == 1
    view = deal.view(1)
    assert view.molodka
    action = BaselinePlayer().choose(view, RNG)
    assert action is not None
    assert action.kind is ActionKind.MOLODKA
    assert action.seat == 1


def test_answers_none_when_it_is_not_its_turn() -> None:
    deal = deal_from_hands(["6C 8D 9D JD", "AC 7S 8S 9S", "7C 6D QD KD", "7H TD 6S 8C"], "QH")
    for seat in (1, 2, 3):
        view = deal.view(seat)
        assert not view.molodka
        assert BaselinePlayer().choose(view, RNG) is None
        assert RandomPlayer().choose(view, RNG) is None
    play(deal, (0, "lead", "6C"))
    for seat in (0, 2, 3):
        assert BaselinePlayer().choose(deal.view(seat), RNG) is None


def test_safe_move_is_the_baselines_move_and_never_a_molodka() -> None:
    deal = deal_from_hands(["6C 8D 9D JD", "6S 9S KS AS", "7C 6D QD KD", "7H TD 7D 8C"], "QH")
    play(deal, (0, "lead", "JD"))
    view = deal.view(1)
    assert any(a.kind is ActionKind.MOLODKA for a in view.legal)
    move = safe_move(view)
    assert move in view.legal
    assert move.kind is not ActionKind.MOLODKA
    with pytest.raises(KozelError):
        safe_move(deal.view(2))


def test_make_player_levels() -> None:
    assert isinstance(make_player(), SearchPlayer)
    assert isinstance(make_player("strong"), SearchPlayer)
    assert isinstance(make_player("normal"), BaselinePlayer)
    assert isinstance(make_player("baseline"), BaselinePlayer)
    assert isinstance(make_player("easy"), EasyPlayer)
    assert isinstance(make_player("random"), RandomPlayer)
    with pytest.raises(ValueError, match="unknown player level"):
        make_player("grandmaster")


def test_leads_several_high_cards_of_one_suit_together() -> None:
    deal = deal_from_hands(["AS TS KS 6C", "7C 8C 9C 6D", "QH 7D TC KC", "9S 8H 8D 6H"], "JH")
    action = BaselinePlayer().choose(deal.view(0), RNG)
    assert action is not None
    assert action.kind is ActionKind.LEAD
    assert len(action.cards) >= 2
    assert set(action.cards) <= set(cards("AS TS KS"))


def test_leads_a_long_suit_whole() -> None:
    deal = deal_from_hands(["6S 7S 8S 9S", "7C 8C 9C 6D", "QH 8D TC KC", "TS 8H 9D 6H"], "JH")
    action = BaselinePlayer().choose(deal.view(0), RNG)
    assert action == Action.lead(0, *cards("6S 7S 8S 9S"))
