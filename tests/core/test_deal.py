"""Dealing, leads, beats, discards, taking the trick and drawing (docs/rules/reference.md §1.2,
§1.3, §1.5)."""

from __future__ import annotations

import pytest

from core.cards import CARDS, Card, Suit
from core.errors import KozelError, Reason
from core.seats import Team
from core.yard.actions import Action, ActionKind
from core.yard.deal import Deal
from core.yard.errors import YardReason
from core.yard.events import (
    CardsBeaten,
    CardsDiscarded,
    CardsDrawn,
    CardsLed,
    TrickStarted,
    TrickTaken,
)

from .decks import act, build_deck, cards, make_deal, pile_points, play

#: Dealer 3, so seat 0 leads; trump diamonds (TD shown from the stock's middle).
BASE = {
    0: "7H 7C 8C AS",
    1: "KH 6C JS 6D",
    2: "9H TH 9C 7D",
    3: "AH 8D QS 9D",
}
BASE_STOCK = "TC JC QC KC 6S 7S 8S 9S TD"


def base() -> Deal:
    return make_deal(BASE, BASE_STOCK, trump="TD")


def hand(deal: Deal, seat: int) -> set[Card]:
    return set(deal.hand(seat))


def refused(deal: Deal, text: str) -> Reason:
    before = deal.state_key()
    with pytest.raises(KozelError) as caught:
        deal.apply(act(text))
    assert deal.state_key() == before
    return caught.value.reason


# --- Dealing -------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", range(4))
def test_deal_one_card_at_a_time_clockwise_from_after_the_dealer(dealer: int) -> None:
    deck = list(CARDS)
    deal = Deal.from_deck(dealer, deck, trump_index=6)
    for seat in range(4):
        expected = {deck[i] for i in range(16) if (dealer + 1 + i) % 4 == seat}
        assert hand(deal, seat) == expected
    first = (dealer + 1) % 4
    assert hand(deal, first) == {deck[0], deck[4], deck[8], deck[12]}
    assert deal.first_leader == deal.leader == deal.turn == first
    assert deal.stock_size == 20
    assert deal.trump_card == deck[16 + 6]
    assert deal.trump is deck[22].suit
    assert deal.deck == tuple(deck)
    assert not deal.is_over and deal.result is None and deal.tricks == (0, 0)


@pytest.mark.parametrize("dealer", range(4))
def test_build_deck_deals_the_hands_asked_for(dealer: int) -> None:
    deck = build_deck(BASE, BASE_STOCK, dealer)
    deal = Deal.from_deck(dealer, deck, trump_index=8)
    for seat, codes in BASE.items():
        assert hand(deal, seat) == set(cards(codes))
    assert deal.trump_card == Card.parse("TD") and deal.trump is Suit.DIAMONDS


# --- Leads ---------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_lead_of_one_to_four_cards_of_one_suit(n: int) -> None:
    deal = make_deal(
        {0: "6C 7C 8C 9C", 1: "6S 7S 8S 6H", 2: "9S JS QS 7H", 3: "KS TS AS 8H"}, "TD", trump="TD"
    )
    led = cards("6C 7C 8C 9C")[:n]
    events = deal.apply(Action.lead(0, *led))
    assert events == [CardsLed(0, led)]
    assert deal.table_view().lead_size == n
    assert len(deal.hand(0)) == 4 - n
    assert deal.turn == 1
    # Every other player must then play exactly n cards.
    one = deal.hand(1)
    for size in {n - 1, n + 1} & {1, 2, 3, 4}:
        assert refused(deal, str(Action.discard(1, *one[:size]))) is YardReason.WRONG_COUNT
    deal.apply(Action.discard(1, *one[:n]))
    assert deal.turn == 2


@pytest.mark.parametrize("lead", ["7H 7C", "7C AS", "7H 7C 8C AS", "8C AS"])
def test_mixed_suit_lead_is_refused(lead: str) -> None:
    deal = base()
    assert refused(deal, f"0:lead {lead}") is YardReason.MIXED_SUITS
    deal.apply(act("0:lead 7C 8C"))  # one suit is fine


def test_beat_and_discard_must_match_the_lead_size() -> None:
    deal = base()
    play(deal, "0:lead 7C 8C")
    assert refused(deal, "1:beat 6D") is YardReason.WRONG_COUNT
    assert refused(deal, "1:beat 6D KH JS") is YardReason.WRONG_COUNT
    assert refused(deal, "1:discard JS") is YardReason.WRONG_COUNT
    assert refused(deal, "1:discard JS KH 6C") is YardReason.WRONG_COUNT
    play(deal, "1:discard JS KH")


# --- Beats ---------------------------------------------------------------------------


def test_a_beat_must_beat_the_last_beat_not_only_the_lead() -> None:
    deal = base()
    play(deal, "0:lead 7H", "1:beat KH")
    # 9H beats the lead 7H, but not the king that now wins the trick.
    assert refused(deal, "2:beat 9H") is YardReason.DOES_NOT_BEAT
    play(deal, "2:beat TH")
    assert refused(deal, "3:beat QS") is YardReason.DOES_NOT_BEAT
    events = deal.apply(act("3:beat AH"))
    assert isinstance(events[0], CardsBeaten) and events[1] == TrickTaken(3, Team.B, 4)
    assert deal.last_trick_winner == 3 and deal.tricks == (0, 1)


def test_a_mixed_winning_set_must_be_beaten_as_a_set() -> None:
    deal = make_deal(
        {0: "7C 8C 6H 7H", 1: "9C 6D 8H 9H", 2: "TC JC 7D 6S", 3: "8D 9D 7S 8S"}, "TD", trump="TD"
    )
    play(deal, "0:lead 7C 8C", "1:beat 9C 6D")  # 9C over a club, the trump 6D over the other
    assert deal.table_view().winning_seat == 1
    # TC JC beat the lead, but neither beats the trump 6D.
    assert refused(deal, "2:beat TC JC") is YardReason.DOES_NOT_BEAT
    play(deal, "2:beat TC 7D")  # TC over 9C, 7D over 6D
    assert deal.table_view().winning_seat == 2
    play(deal, "3:beat 8D 9D")  # two trumps over TC and 7D
    assert deal.last_trick_winner == 3


def test_a_beat_cannot_come_before_the_lead_nor_a_second_lead() -> None:
    deal = base()
    assert refused(deal, "0:beat 7H") is YardReason.MUST_LEAD
    assert refused(deal, "0:discard 7H") is YardReason.MUST_LEAD
    play(deal, "0:lead 7H")
    assert refused(deal, "1:lead KH") is YardReason.ALREADY_LED


# --- Discards ------------------------------------------------------------------------


def test_discard_by_a_player_who_could_beat_is_allowed() -> None:
    deal = base()
    play(deal, "0:lead 7H")
    can_beat = [a for a in deal.legal_actions(1) if a.kind is ActionKind.BEAT]
    assert Action.beat(1, Card.parse("KH")) in can_beat
    events = deal.apply(act("1:discard KH"))
    assert events == [CardsDiscarded(1, 1)]
    play(deal, "2:discard TH", "3:discard AH")  # both could beat too
    assert deal.last_trick_winner == 0  # nobody beat: the leader takes it
    assert deal.pile_points() == (4 + 10 + 11, 0)


def test_discards_are_face_down_on_the_table() -> None:
    deal = base()
    play(deal, "0:lead 7C 8C", "1:discard KH JS")
    table = deal.table_view()
    led, discarded = table.plays
    assert (led.kind, led.cards, led.face_down) == (ActionKind.LEAD, cards("7C 8C"), False)
    assert (discarded.seat, discarded.kind, discarded.count) == (1, ActionKind.DISCARD, 2)
    assert discarded.cards == () and discarded.face_down
    assert table.winning_seat == 0


# --- Taking the trick ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("script", "winner"),
    [
        (["0:lead 7H", "1:discard 6C", "2:discard 9C", "3:discard QS"], 0),
        (["0:lead 7H", "1:beat KH", "2:discard 9C", "3:discard QS"], 1),
        (["0:lead 7H", "1:beat KH", "2:beat TH", "3:discard QS"], 2),
        (["0:lead 7H", "1:discard 6C", "2:discard 9C", "3:beat 8D"], 3),
        (["0:lead 7H", "1:beat 6D", "2:beat 7D", "3:discard AH"], 2),  # AH < any trump
    ],
)
def test_the_trick_goes_to_the_last_beater_or_the_leader(script: list[str], winner: int) -> None:
    deal = base()
    play(deal, *script[:3])
    events = deal.apply(act(script[3]))
    assert TrickTaken(winner, Team(winner % 2), 4) in events
    assert deal.last_trick_winner == winner
    tricks = [0, 0]
    tricks[winner % 2] = 1
    assert deal.tricks == tuple(tricks)
    # Face-down cards go to the winner's pile too.
    played = [card for line in script for card in act(line).cards]
    points = [0, 0]
    points[winner % 2] = sum(card.points for card in played)
    assert deal.pile_points() == tuple(points)
    # The winner leads the next trick.
    assert deal.turn == deal.leader == winner
    assert events[-1] == TrickStarted(winner, 1)
    assert deal.legal_actions(winner)[0].kind is ActionKind.LEAD


@pytest.mark.parametrize("winner", range(4))
def test_players_draw_one_at_a_time_clockwise_from_the_winner(winner: int) -> None:
    deal = base()
    script = {
        0: ["0:lead 7H", "1:discard 6C", "2:discard 9C", "3:discard QS"],
        1: ["0:lead 7H", "1:beat KH", "2:discard 9C", "3:discard QS"],
        2: ["0:lead 7H", "1:beat KH", "2:beat TH", "3:discard QS"],
        3: ["0:lead 7H", "1:discard 6C", "2:discard 9C", "3:beat 8D"],
    }[winner]
    before = [hand(deal, seat) for seat in range(4)]
    events: list[object] = []
    for line in script:
        events += deal.apply(act(line))
    top = cards("TC JC QC KC")
    for k in range(4):
        seat = (winner + k) % 4
        mine = {card for line in script for card in act(line).cards if act(line).seat == seat}
        assert hand(deal, seat) == (before[seat] - mine) | {top[k]}
    assert CardsDrawn((1, 1, 1, 1), 16, None) in events
    assert deal.stock_size == 16
    assert [len(deal.hand(seat)) for seat in range(4)] == [4, 4, 4, 4]


# --- The end of the stock ------------------------------------------------------------

#: Trick 1: seat 0 leads four clubs, everybody discards; 16 cards are drawn, 4 are left.
#: Trick 2: a two-card lead, seat 2 wins; the last 4 cards are drawn one each, from
#: seat 2. Trick 3 is played with three cards each and nothing to draw.
SHORT_HANDS = {0: "6C 7C 8C 9C", 1: "JC QC KC 6D", 2: "TC AC 7D 8D", 3: "KH KS 9D JD"}
SHORT_STOCK = (
    "6H 8H JH TH  7H 9H QH AH  JS 6S 8S TS  QS 7S 9S QD  AS KD TD AD"  # to seats 0 1 2 3, ...
)


def short_deal() -> Deal:
    return make_deal(SHORT_HANDS, SHORT_STOCK, trump="QD")


def test_the_last_draw_and_tricks_after_the_stock_is_empty() -> None:
    deal = short_deal()
    assert deal.trump_index == 15 and deal.trump is Suit.DIAMONDS
    events: list[object] = []
    for line in ["0:lead 6C 7C 8C 9C", "1:discard JC QC KC 6D"]:
        events += deal.apply(act(line))
    events += deal.apply(act("2:discard TC AC 7D 8D"))
    events += deal.apply(act("3:discard KH KS 9D JD"))
    # The known trump card QD (stock position 15) went to seat 3 in the full draw.
    assert CardsDrawn((4, 4, 4, 4), 4, 3) in events
    assert deal.table_view().trump_card_holder == 3
    assert hand(deal, 0) == set(cards("6H 7H JS QS"))
    assert hand(deal, 3) == set(cards("TH AH TS QD"))
    assert deal.stock_size == 4

    # Seat 1 and seat 3 could beat but discard; seat 2 wins the trick.
    play(deal, "0:lead 6H 7H", "1:discard 8H 9H", "2:beat JH QH")
    events = deal.apply(act("3:discard TH AH"))
    assert [type(e) for e in events] == [CardsDiscarded, TrickTaken, CardsDrawn, TrickStarted]
    assert events[2] == CardsDrawn((1, 1, 1, 1), 0, None)
    # The last four cards: one each, clockwise from the winner.
    assert hand(deal, 2) == set(cards("8S 9S AS"))
    assert hand(deal, 3) == set(cards("TS QD KD"))
    assert hand(deal, 0) == set(cards("JS QS TD"))
    assert hand(deal, 1) == set(cards("6S 7S AD"))
    assert deal.stock_size == 0 and deal.turn == 2
    assert [len(deal.hand(seat)) for seat in range(4)] == [3, 3, 3, 3]

    # Three cards each; the stock is empty, so nobody draws and the deal ends.
    play(deal, "2:lead 8S 9S AS", "3:beat TS QD KD")
    assert refused(deal, "0:beat JS QS TD") is YardReason.DOES_NOT_BEAT
    play(deal, "0:discard JS QS TD")
    events = deal.apply(act("1:discard 6S 7S AD"))
    assert not any(isinstance(e, CardsDrawn | TrickStarted) for e in events)
    assert deal.is_over and deal.turn is None and deal.legal_actions() == []
    result = deal.result
    assert result is not None
    b_pile = "8S 9S AS TS QD KD JS QS TD 6S 7S AD"
    assert result.points == (120 - pile_points(b_pile), pile_points(b_pile)) == (66, 54)
    assert result.tricks == (2, 1)
    assert result.loss_points == (0, 2)
    assert result.next_leader == 3


def test_the_known_trump_card_drawn_in_the_last_draw() -> None:
    deal = make_deal(SHORT_HANDS, SHORT_STOCK, trump="TD")  # stock position 18
    assert deal.trump_index == 18
    for line in ["0:lead 6C 7C 8C 9C", "1:discard JC QC KC 6D", "2:discard TC AC 7D 8D"]:
        play(deal, line)
    assert deal.apply(act("3:discard KH KS 9D JD"))[2] == CardsDrawn((4, 4, 4, 4), 4, None)
    assert deal.table_view().trump_card_holder is None
    play(deal, "0:lead 6H 7H", "1:discard 8H 9H", "2:beat JH QH")
    events = deal.apply(act("3:discard TH AH"))
    # Drawn from seat 2: AS to 2, KD to 3, TD (the shown card) to 0, AD to 1.
    assert events[2] == CardsDrawn((1, 1, 1, 1), 0, 0)
    assert deal.table_view().trump_card_holder == 0
    assert Card.parse("TD") in deal.hand(0)


def test_a_copy_is_independent() -> None:
    deal = base()
    copy = deal.copy()
    assert copy == deal
    play(copy, "0:lead 7H", "1:discard 6C", "2:discard 9C", "3:discard QS")
    assert copy != deal
    assert deal.turn == 0 and len(deal.hand(0)) == 4 and deal.stock_size == 20
    assert deal.actions == () and deal.tricks == (0, 0)
    play(deal, "0:lead 7H", "1:discard 6C", "2:discard 9C", "3:discard QS")
    assert copy == deal


def test_single_card_tricks_until_the_end_keep_hands_equal() -> None:
    """Nine one-card tricks: five draws of one card each, then hands of 3, 2, 1, 0."""
    deal = base()
    sizes = []
    while not deal.is_over:
        leader = deal.turn
        assert leader is not None
        play_card = deal.hand(leader)[0]
        deal.apply(Action.lead(leader, play_card))
        for k in (1, 2, 3):
            seat = (leader + k) % 4
            deal.apply(Action.discard(seat, deal.hand(seat)[0]))
        sizes.append(tuple(len(deal.hand(seat)) for seat in range(4)))
        assert deal.last_trick_winner == leader  # nobody beat
    assert [s[0] for s in sizes] == [4, 4, 4, 4, 4, 3, 2, 1, 0]
    assert all(len(set(s)) == 1 for s in sizes)
    assert deal.result is not None and deal.result.tricks == (9, 0)
    assert deal.result.points == (120, 0) and deal.result.loss_points == (0, 6)


def test_bad_decks_trump_indexes_and_dealers_are_refused() -> None:
    deck = list(CARDS)
    for bad in (deck[:35], deck[:35] + deck[:1], [*deck, deck[0]]):
        with pytest.raises(KozelError) as caught:
            Deal.from_deck(3, bad, 4)
        assert caught.value.reason is Reason.BAD_DECK
    for index in (-1, 20):
        with pytest.raises(KozelError) as caught:
            Deal.from_deck(3, deck, index)
        assert caught.value.reason is Reason.BAD_DECK
    for dealer in (-1, 4):
        with pytest.raises(KozelError) as caught:
            Deal.from_deck(dealer, deck, 4)
        assert caught.value.reason is Reason.BAD_SEAT
    assert Deal.from_deck(3, deck, 0).trump_card == deck[16]
    assert Deal.from_deck(3, deck, 19).trump_card == deck[35]
