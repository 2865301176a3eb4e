"""Views and events: what each seat and a spectator may see, and nothing more."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

from core.cards import Card
from core.seats import Team
from core.yard.actions import Action, ActionKind
from core.yard.deal import Deal
from core.yard.events import (
    CardsBeaten,
    CardsDiscarded,
    CardsDrawn,
    CardsLed,
    DealScored,
    DealStarted,
    MolodkaDeclared,
    TrickStarted,
    TrickTaken,
)
from core.yard.series import Series
from core.yard.views import SeatView, TableView

from .decks import PILES, act, cards, make_deal, play, three_tricks

HANDS = {0: "7H 7C 8C AS", 1: "KH 6C JS 6D", 2: "9H TH 9C 7D", 3: "AH 8D QS 9D"}
STOCK = "TC JC QC KC  6S 7S 8S 9S  6H 8H JH QH  TS KS JD QD  TD KD AD AC"


def deal() -> Deal:
    return make_deal(HANDS, STOCK, trump="JD")


def walk(value: object) -> Iterator[Card]:
    """Every card anywhere inside a view or an event."""
    if isinstance(value, Card):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from walk(getattr(value, field.name))
    elif isinstance(value, tuple | list):
        for item in value:
            yield from walk(item)


def face_up(d: Deal) -> set[Card]:
    return {card for p in d.table_view().plays if not p.face_down for card in p.cards}


SCRIPT = ["0:lead 7C 8C", "1:discard KH JS", "2:beat 9C 7D"]


@pytest.mark.parametrize("steps", range(len(SCRIPT) + 1))
def test_a_seat_sees_its_own_hand_only(steps: int) -> None:
    d = deal()
    play(d, *SCRIPT[:steps])
    for seat in range(4):
        view = d.view(seat)
        assert isinstance(view, SeatView) and view.seat == seat
        assert view.hand == d.hand(seat)
        seen = set(walk(view))
        assert seen <= set(d.hand(seat)) | face_up(d) | {d.trump_card}
        for other in range(4):
            if other != seat:
                assert not seen & set(d.hand(other))


def test_the_table_view_shows_discards_without_faces_and_no_hands() -> None:
    d = deal()
    play(d, *SCRIPT)
    table = d.table_view()
    assert isinstance(table, TableView)
    assert set(walk(table)) == set(cards("7C 8C 9C 7D")) | {d.trump_card}
    assert not set(walk(table)) & set(cards("KH JS"))  # the discard
    assert table.hand_sizes == (2, 2, 2, 4)
    assert [(p.seat, p.kind, p.count, p.face_down) for p in table.plays] == [
        (0, ActionKind.LEAD, 2, False),
        (1, ActionKind.DISCARD, 2, True),
        (2, ActionKind.BEAT, 2, False),
    ]
    assert (table.turn, table.leader, table.lead_size, table.winning_seat) == (3, 0, 2, 2)
    assert (table.trump_card, table.trump_card_holder, table.stock_size) == (
        Card.parse("JD"),
        None,
        20,
    )
    # Every seat's view shares the same table.
    assert all(d.view(seat).table == table for seat in range(4))


def test_legal_actions_in_a_view_are_that_seats() -> None:
    d = deal()
    play(d, "0:lead 7H")
    for seat in range(4):
        view = d.view(seat)
        assert view.legal == tuple(d.legal_actions(seat))
        assert all(a.seat == seat for a in view.legal)
    assert d.view(1).legal and not d.view(2).legal and not d.view(0).legal
    kinds = {a.kind for a in d.view(1).legal}
    assert kinds == {ActionKind.BEAT, ActionKind.DISCARD}
    assert {a.cards for a in d.view(1).legal if a.kind is ActionKind.BEAT} == {
        cards("KH"),
        cards("6D"),
    }
    assert {a.cards for a in d.view(1).legal if a.kind is ActionKind.DISCARD} == {
        (card,) for card in d.hand(1)
    }
    everyone = d.legal_actions()
    assert set(everyone) == {a for seat in range(4) for a in d.legal_actions(seat)}


def test_a_molodka_holder_sees_the_molodka_out_of_turn() -> None:
    d = make_deal({0: "6C 7C 9S 7H", 1: "8C 9C 6D AS", 2: "6H 8H JH QH"}, "TD", trump="TD")
    assert d.view(2).molodka and d.view(2).legal == (Action.molodka(2),)
    assert not any(d.view(seat).molodka for seat in (0, 1, 3))
    d.apply(Action.molodka(2))
    assert not d.view(2).molodka and d.view(2).legal == ()


# --- Events ----------------------------------------------------------------------------


def test_the_events_of_a_trick() -> None:
    d = deal()
    assert d.apply(act("0:lead 7C 8C")) == [CardsLed(0, cards("7C 8C"))]
    assert d.apply(act("1:discard KH JS")) == [CardsDiscarded(1, 2)]
    assert d.apply(act("2:beat 9C 7D")) == [CardsBeaten(2, cards("9C 7D"))]
    events = d.apply(act("3:beat 8D 9D"))
    assert events == [
        CardsBeaten(3, cards("8D 9D")),
        TrickTaken(3, Team.B, 8),
        CardsDrawn((2, 2, 2, 2), 12, None),
        TrickStarted(3, 1),
    ]


def test_discards_never_show_their_faces_in_events() -> None:
    series = Series()
    plan = three_tricks(3, PILES[61])
    events = list(series.deal_from(plan.deck, plan.trump_index, dealer=3))
    for action in plan.actions:
        events += series.apply(action)
    shown = set(walk(events))
    face_up = {c for a in plan.actions if a.kind is not ActionKind.DISCARD for c in a.cards}
    assert shown == face_up | {plan.deck[16 + plan.trump_index]}
    discarded = [c for a in plan.actions if a.kind is ActionKind.DISCARD for c in a.cards]
    assert not shown & set(discarded) - {plan.deck[16 + plan.trump_index]}
    assert [type(e) for e in events] == [
        DealStarted,
        TrickStarted,
        CardsLed,
        CardsDiscarded,
        CardsDiscarded,
        CardsDiscarded,
        TrickTaken,
        CardsDrawn,
        TrickStarted,
        CardsLed,
        CardsBeaten,
        CardsDiscarded,
        CardsDiscarded,
        TrickTaken,
        CardsDrawn,
        TrickStarted,
        CardsLed,
        CardsDiscarded,
        CardsDiscarded,
        CardsDiscarded,
        TrickTaken,
        DealScored,
    ]
    drawn = [e for e in events if isinstance(e, CardsDrawn)]
    assert [(e.counts, e.stock_size) for e in drawn] == [((4, 4, 4, 4), 4), ((1, 1, 1, 1), 0)]
    # The known trump card (stock position 5) went to seat 1 in the first draw.
    assert drawn[0].trump_card_to == 1 and drawn[1].trump_card_to is None
    taken = [(e.seat, e.card_count) for e in events if isinstance(e, TrickTaken)]
    assert taken == [(0, 16), (1, 16), (1, 4)]


def test_molodka_event_shows_the_molodka_and_the_counts_given_back() -> None:
    d = make_deal(
        {0: "6C 7C 9S 7H", 1: "8C 9C 6D AS", 2: "KS QS 7D 8S", 3: "6H 8H JH QH"}, "TD", trump="TD"
    )
    play(d, "0:lead 7H", "1:discard 8C")
    (event,) = d.apply(Action.molodka(3))
    assert event == MolodkaDeclared(3, cards("6H 8H JH QH"), (1, 1, 0, 0))
    assert not set(walk(event)) & {Card.parse("8C")}  # the discard stays hidden
