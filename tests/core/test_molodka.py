"""Molodka: four cards of one suit restart the trick as a new lead (docs/rules/reference.md
§1.4)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from core.cards import Card, mask_of
from core.errors import KozelError, Reason
from core.seats import Team
from core.yard.actions import Action, ActionKind
from core.yard.deal import Deal, is_molodka
from core.yard.errors import YardReason
from core.yard.events import CardsDiscarded, CardsDrawn, MolodkaDeclared, TrickTaken
from core.yard.views import PlayedSet

from .decks import act, cards, make_deal, play


def hand(deal: Deal, seat: int) -> set[Card]:
    return set(deal.hand(seat))


def refused(deal: Deal, action: Action | str) -> Reason:
    """The reason ``action`` is refused; checks that nothing changed."""
    if isinstance(action, str):
        action = act(action)
    before = deal.state_key()
    copy = deal.copy()
    assert not deal.can(action)
    with pytest.raises(KozelError) as caught:
        deal.verify(action)
    with pytest.raises(KozelError):
        deal.apply(action)
    assert deal.state_key() == before and deal == copy
    return caught.value.reason


def molodkas(deal: Deal) -> list[Action]:
    return [a for a in deal.legal_actions() if a.kind is ActionKind.MOLODKA]


#: Seat 2 holds four hearts; seat 3 can beat them with three higher hearts and a trump.
M1 = {0: "6C 7C 9S 7H", 1: "8C 9C 6D AS", 2: "6H 8H JH QH", 3: "TH KH AH 9D"}
#: Seat 3 holds the molodka; seats 0..2 cannot beat four hearts.
M2 = {0: "6C 7C 9S 7H", 1: "8C 9C 6D AS", 2: "KS QS 7D 8S", 3: "6H 8H JH QH"}
#: Seats 1 and 3 both hold one; the stock's top four go to seats 0, 1, 2, 3 after the
#: first trick if seat 0 wins it.
M4 = {0: "6C 7C 9C 7D", 1: "6S 7S 8S 9S", 2: "8C TC 8D JC", 3: "6H 8H JH QH"}
M4_STOCK = "AC AD KC QC 6D JD QD KD TD"
#: Seat 1 holds the molodka and can beat a heart lead with one of its hearts first.
M5 = {0: "7H 6C 7C 9S", 1: "6H 8H JH QH", 2: "9C 8C KS 6D", 3: "TC JC QC 7D"}


def test_molodka_before_the_lead_starts_the_trick() -> None:
    deal = make_deal(M1, "TD", trump="TD")
    assert deal.molodka_seat == 2
    assert deal.legal_actions(2) == [Action.molodka(2)]  # out of turn
    assert deal.view(2).molodka and not deal.view(3).molodka
    events = deal.apply(Action.molodka(2))
    assert events == [MolodkaDeclared(2, cards("6H 8H JH QH"), (0, 0, 0, 0))]
    table = deal.table_view()
    assert table.plays == (PlayedSet(2, ActionKind.LEAD, cards("6H 8H JH QH"), 4),)
    assert table.lead_size == 4 and table.winning_seat == 2
    assert deal.hand(2) == () and deal.turn == 3
    assert deal.molodka_seat is None and molodkas(deal) == []
    # Play goes on clockwise from the declarer, four cards each.
    assert refused(deal, "0:discard 6C 7C 9S 7H") is Reason.NOT_YOUR_TURN
    assert refused(deal, "3:beat AH") is YardReason.WRONG_COUNT
    assert refused(deal, "3:beat TH KH AH") is YardReason.WRONG_COUNT
    play(deal, "3:beat TH KH AH 9D")  # KH>QH, TH>JH, AH>8H, the trump 9D>6H
    assert refused(deal, "0:lead 6C 7C 9S 7H") is YardReason.ALREADY_LED
    assert refused(deal, "0:discard 6C 7C 9S") is YardReason.WRONG_COUNT
    events = deal.apply(act("0:discard 6C 7C 9S 7H"))
    assert events == [CardsDiscarded(0, 4)]  # three plays so far: the trick goes on
    events = deal.apply(act("1:discard 8C 9C 6D AS"))
    assert events[:2] == [CardsDiscarded(1, 4), TrickTaken(3, Team.B, 16)]
    assert isinstance(events[2], CardsDrawn) and events[2].counts == (4, 4, 4, 4)
    assert deal.pile_points() == (0, 2 + 3 + 10 + 4 + 11 + 11)
    assert deal.turn == deal.leader == 3
    assert [len(deal.hand(seat)) for seat in range(4)] == [4, 4, 4, 4]


def test_molodka_after_two_players_gives_their_cards_back() -> None:
    deal = make_deal(M2, "TD", trump="TD")
    play(deal, "0:lead 7H", "1:discard 8C")
    assert deal.turn == 2
    events = deal.apply(Action.molodka(3))  # out of turn
    assert events == [MolodkaDeclared(3, cards("6H 8H JH QH"), (1, 1, 0, 0))]
    for seat in (0, 1, 2):
        assert hand(deal, seat) == set(cards(M2[seat]))
    assert deal.hand(3) == ()
    assert deal.turn == 0  # clockwise from the declarer
    assert [p.seat for p in deal.table_view().plays] == [3]
    play(deal, "0:discard 6C 7C 9S 7H", "1:discard 8C 9C 6D AS")
    events = deal.apply(act("2:discard KS QS 7D 8S"))
    assert TrickTaken(3, Team.B, 16) in events
    assert deal.last_trick_winner == 3
    # The log keeps the whole story, the cards given back included.
    expected = [
        "0:lead 7H",
        "1:discard 8C",
        "3:molodka",
        "0:discard 6C 7C 9S 7H",
        "1:discard 8C 9C 6D AS",
        "2:discard KS QS 7D 8S",
    ]
    assert [(a.seat, a.kind, set(a.cards)) for a in deal.actions] == [
        (a.seat, a.kind, set(a.cards)) for a in map(act, expected)
    ]


def test_molodka_by_the_tricks_leader_is_refused() -> None:
    deal = make_deal(
        {0: "6C 7C 8C 9C", 1: "8S 9S 6D AS", 2: "6H 8H JH QH", 3: "KS QS 7D 8D"},
        "TD",
        trump="TD",
    )
    assert refused(deal, Action.molodka(0)) is YardReason.MOLODKA_BY_LEADER
    assert molodkas(deal) == [Action.molodka(2)]
    assert all(a.kind is ActionKind.LEAD for a in deal.legal_actions(0))
    assert Action.lead(0, *cards("6C 7C 8C 9C")) in deal.legal_actions(0)
    play(deal, "0:lead 6C")
    assert refused(deal, Action.molodka(0)) is YardReason.MOLODKA_BY_LEADER


@pytest.mark.parametrize(("dealer", "nearest", "farther"), [(3, 1, 3), (1, 3, 1)])
def test_only_the_holder_nearest_to_the_leader_may_declare(
    dealer: int, nearest: int, farther: int
) -> None:
    deal = make_deal(M4, M4_STOCK, dealer, trump="TD")
    leader = (dealer + 1) % 4
    assert deal.leader == leader and deal.molodka_seat == nearest
    assert refused(deal, Action.molodka(farther)) is YardReason.MOLODKA_NOT_NEAREST
    assert molodkas(deal) == [Action.molodka(nearest)]
    assert not deal.view(farther).molodka and deal.view(nearest).molodka
    play(deal, f"{leader}:lead {deal.hand(leader)[0].code}")
    assert refused(deal, Action.molodka(farther)) is YardReason.MOLODKA_NOT_NEAREST
    events = deal.apply(Action.molodka(nearest))
    assert isinstance(events[0], MolodkaDeclared) and events[0].seat == nearest
    assert events[0].returned == tuple(1 if s == leader else 0 for s in range(4))


def test_a_second_molodka_in_one_trick_is_refused() -> None:
    deal = make_deal(M4, M4_STOCK, trump="TD")
    play(deal, "0:lead 6C")
    deal.apply(Action.molodka(1))
    assert refused(deal, Action.molodka(3)) is YardReason.MOLODKA_ALREADY
    assert refused(deal, Action.molodka(1)) is YardReason.MOLODKA_ALREADY
    play(deal, "2:discard 8C TC 8D JC")
    assert refused(deal, Action.molodka(3)) is YardReason.MOLODKA_ALREADY


def test_the_holder_who_already_played_gets_his_cards_back_first() -> None:
    deal = make_deal(M5, "TD", trump="TD")
    play(deal, "0:lead 7H", "1:beat JH", "2:discard 9C")
    assert hand(deal, 1) == set(cards("6H 8H QH"))  # not a molodka any more...
    assert deal.view(1).molodka  # ...but it was when the trick began
    # A molodka is the whole hand of the trick's start, not what is left of it.
    assert refused(deal, Action(1, ActionKind.MOLODKA, cards("6H 8H QH"))) is (
        YardReason.MOLODKA_CARDS
    )
    events = deal.apply(Action(1, ActionKind.MOLODKA, cards("6H 8H JH QH")))
    assert events == [MolodkaDeclared(1, cards("6H 8H JH QH"), (1, 1, 1, 0))]
    assert hand(deal, 0) == set(cards(M5[0])) and hand(deal, 2) == set(cards(M5[2]))
    assert deal.hand(1) == () and deal.turn == 2
    play(deal, "2:discard 9C 8C KS 6D", "3:discard TC JC QC 7D")
    events = deal.apply(act("0:discard 7H 6C 7C 9S"))
    assert TrickTaken(1, Team.B, 16) in events


def test_molodka_at_the_last_moment_after_three_plays() -> None:
    deal = make_deal(M2, "TD", trump="TD")
    play(deal, "0:lead 6C 7C", "1:beat 8C 9C", "2:discard KS QS")
    events = deal.apply(Action.molodka(3))
    assert events == [MolodkaDeclared(3, cards("6H 8H JH QH"), (2, 2, 2, 0))]
    assert all(hand(deal, seat) == set(cards(M2[seat])) for seat in (0, 1, 2))
    assert deal.turn == 0 and deal.table_view().winning_seat == 3


def test_molodka_not_held() -> None:
    deal = make_deal(M5, "TD", trump="TD")
    for seat in (2, 3):  # hands of two suits
        assert refused(deal, Action.molodka(seat)) is YardReason.MOLODKA_NOT_HELD
    assert is_molodka(mask_of(cards("6H 8H JH QH")))
    assert not is_molodka(mask_of(cards("6H 8H JH")))  # three cards of a suit are not one
    assert not is_molodka(mask_of(cards("6H 8H JH 6D")))


def test_molodka_cannot_be_declared_once_the_trick_is_over() -> None:
    deal = make_deal(M4, M4_STOCK, trump="TD")
    play(deal, "0:lead 6C", "1:discard 6S", "2:discard 8C", "3:discard 6H")
    # A new trick: both former holders drew a card of another suit.
    assert hand(deal, 1) == set(cards("7S 8S 9S AD"))
    assert hand(deal, 3) == set(cards("8H JH QH QC"))
    assert deal.molodka_seat is None and molodkas(deal) == []
    for seat in (1, 3):
        assert refused(deal, Action.molodka(seat)) is YardReason.MOLODKA_NOT_HELD


#: Two four-card tricks and a one-card trick between them leave four cards each and an
#: empty stock for the last trick, where seats 0 (the leader), 2 and 3 hold molodkas.
LAST_HANDS = {0: "6C 7C 8C 9C", 1: "JC QC KC AS", 2: "TC AC TS KS", 3: "QS AH KH QH"}
LAST_STOCK = "6H JH 6S 9D  7H 6D 7S JD  8H 7D 8S QD  9H 8D 9S KD  TH TD JS AD"


def last_trick() -> Deal:
    deal = make_deal(LAST_HANDS, LAST_STOCK, trump="7D")
    play(
        deal,
        "0:lead 6C 7C 8C 9C",
        "1:discard JC QC KC AS",
        "2:discard TC AC TS KS",
        "3:discard QS AH KH QH",
        "0:lead 6H",
        "1:discard 6D",
        "2:discard 6S",
        "3:discard 9D",
    )
    assert deal.stock_size == 0
    assert hand(deal, 2) == set(cards("7S 8S 9S JS"))
    assert hand(deal, 3) == set(cards("JD QD KD AD"))
    return deal


def test_molodka_in_the_last_trick_with_an_empty_stock() -> None:
    deal = last_trick()
    assert deal.molodka_seat == 2
    assert refused(deal, Action.molodka(0)) is YardReason.MOLODKA_BY_LEADER
    assert refused(deal, Action.molodka(3)) is YardReason.MOLODKA_NOT_NEAREST
    play(deal, "0:lead 7H 8H 9H TH", "1:discard JH 7D 8D TD")
    deal.apply(Action.molodka(2))
    play(deal, "3:beat JD QD KD AD", "0:discard 7H 8H 9H TH", "1:discard JH 7D 8D TD")
    assert deal.is_over
    assert deal.result is not None and deal.result.next_leader == 3


def test_view_molodka_flag_after_the_deal_is_over() -> None:
    """Regression: view(seat).molodka stayed True after the deal ended for a holder who
    had not declared (the view read the raw field, not ``molodka_seat``)."""
    deal = last_trick()
    play(
        deal,
        "0:lead 7H 8H 9H TH",
        "1:discard JH 7D 8D TD",
        "2:discard 7S 8S 9S JS",  # seat 2 does not declare its molodka
        "3:beat JD QD KD AD",
    )
    assert deal.is_over and deal.molodka_seat is None and deal.legal_actions(2) == []
    assert not deal.view(2).molodka


def finish(deal: Deal) -> None:
    while not deal.is_over:
        deal.apply(deal.legal_actions()[0])


def test_the_deal_result_tells_the_tricks_a_molodka_took_with_their_worth() -> None:
    """Issue 25 (achievements): a molodka that took a trick worth 30 or more. The
    trick's worth counts its face-down discards, so the result tells it only once the
    deal is over; it is no part of the score."""
    deal = make_deal(M2, "TD", trump="TD")
    play(deal, "0:lead 7H", "1:discard 8C")
    deal.apply(Action.molodka(3))
    play(deal, "0:discard 6C 7C 9S 7H", "1:discard 8C 9C 6D AS", "2:discard KS QS 7D 8S")
    finish(deal)
    assert deal.result is not None
    # Q♥ J♥ (5), A♠ (11), K♠ Q♠ (7): 23 points, taken by the declarer, seat 3.
    assert deal.result.molodka_tricks[0] == (3, 23)
    assert deal.result == replace(deal.result, molodka_tricks=())


def test_a_molodka_beaten_took_no_trick() -> None:
    deal = make_deal(M1, "TD", trump="TD")
    deal.apply(Action.molodka(2))
    play(deal, "3:beat TH KH AH 9D", "0:discard 6C 7C 9S 7H", "1:discard 8C 9C 6D AS")
    finish(deal)
    assert deal.result is not None
    assert all(seat != 2 for seat, _ in deal.result.molodka_tricks)
