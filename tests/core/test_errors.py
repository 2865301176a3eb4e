"""Every reason a deal refuses an action, and that a refused action changes nothing."""

from __future__ import annotations

import pytest

from core.cards import Card
from core.errors import KozelError, Reason, ReasonCode, describe
from core.yard.actions import Action, ActionKind
from core.yard.deal import Deal
from core.yard.errors import YardReason

from .decks import act, cards, make_deal, play, three_tricks

#: Dealer 3 (seat 0 leads), trump diamonds.
HANDS = {0: "7H 7C 8C AS", 1: "KH 6C JS 6D", 2: "9H TH 9C 7D", 3: "AH 8D QS 9D"}
#: The same, but the leader (0) and seats 2 and 3 hold molodkas.
MOLODKA_HANDS = {0: "6C 7C 8C 9C", 1: "KH 6H JS 6D", 2: "6S 7S 8S 9S", 3: "JH QH AH TH"}


def plain() -> Deal:
    return make_deal(HANDS, "TD", trump="TD")


def molodka() -> Deal:
    return make_deal(MOLODKA_HANDS, "TD", trump="TD")


def finished() -> Deal:
    return three_tricks(3, "6C 7C 8C 9C AH TH KH QH JH AS TS KS QS JS 6H 7H").played()


def raw(seat: int, kind: object, codes: str = "") -> Action:
    return Action(seat, kind, cards(codes))  # type: ignore[arg-type]


CASES = [
    # (deal, actions before, refused action, reason)
    (plain, [], raw(4, ActionKind.LEAD, "7H"), Reason.BAD_SEAT),
    (plain, [], raw(-1, ActionKind.LEAD, "7H"), Reason.BAD_SEAT),
    (plain, ["0:lead 7H"], raw(7, ActionKind.MOLODKA), Reason.BAD_SEAT),
    (plain, [], act("1:lead KH"), Reason.NOT_YOUR_TURN),
    (plain, ["0:lead 7H"], act("2:beat TH"), Reason.NOT_YOUR_TURN),
    (plain, ["0:lead 7H"], act("0:beat AS"), Reason.NOT_YOUR_TURN),
    (plain, [], raw(0, ActionKind.LEAD), YardReason.NO_CARDS),
    (plain, ["0:lead 7H"], raw(1, ActionKind.DISCARD), YardReason.NO_CARDS),
    (plain, [], raw(0, ActionKind.LEAD, "7H 7H"), YardReason.DUPLICATE_CARDS),
    (plain, ["0:lead 7H"], raw(1, ActionKind.BEAT, "KH KH"), YardReason.DUPLICATE_CARDS),
    (plain, [], act("0:lead AH"), Reason.NOT_IN_HAND),
    (plain, ["0:lead 7H"], act("1:beat AH"), Reason.NOT_IN_HAND),
    (plain, ["0:lead 7H"], act("1:discard 7H"), Reason.NOT_IN_HAND),  # already played
    (plain, [], act("0:lead 7C AS"), YardReason.MIXED_SUITS),
    (plain, ["0:lead 7C 8C"], act("1:discard JS"), YardReason.WRONG_COUNT),
    (plain, ["0:lead 7C 8C"], act("1:beat 6D JS 6C"), YardReason.WRONG_COUNT),
    (plain, ["0:lead 7H"], act("1:beat 6C"), YardReason.DOES_NOT_BEAT),  # another plain suit
    (plain, ["0:lead 7C 8C"], act("1:beat 6D JS"), YardReason.DOES_NOT_BEAT),
    (plain, ["0:lead 7H", "1:beat 6D"], act("2:beat TH"), YardReason.DOES_NOT_BEAT),
    (plain, [], act("0:beat 7H"), YardReason.MUST_LEAD),
    (plain, [], act("0:discard 7H"), YardReason.MUST_LEAD),
    (plain, ["0:lead 7H"], act("1:lead KH"), YardReason.ALREADY_LED),
    (plain, [], raw(0, "pass", "7H"), Reason.UNKNOWN_ACTION),
    (plain, [], raw(1, ActionKind.MOLODKA), YardReason.MOLODKA_NOT_HELD),
    (molodka, [], raw(0, ActionKind.MOLODKA), YardReason.MOLODKA_BY_LEADER),
    (molodka, [], raw(3, ActionKind.MOLODKA), YardReason.MOLODKA_NOT_NEAREST),
    (molodka, ["2:molodka"], raw(3, ActionKind.MOLODKA), YardReason.MOLODKA_ALREADY),
    (molodka, [], raw(2, ActionKind.MOLODKA, "6S 7S 8S"), YardReason.MOLODKA_CARDS),
    (molodka, [], raw(2, ActionKind.MOLODKA, "6S 7S 8S 9D"), YardReason.MOLODKA_CARDS),
    (finished, [], act("1:lead 6C"), Reason.DEAL_OVER),
    (finished, [], raw(2, ActionKind.MOLODKA), Reason.DEAL_OVER),
]


@pytest.mark.parametrize(
    ("make", "before", "action", "reason"),
    CASES,
    ids=[f"{case[3].value}-{i}" for i, case in enumerate(CASES)],
)
def test_refused_actions_change_nothing(
    make: object, before: list[str], action: Action, reason: ReasonCode
) -> None:
    deal: Deal = make()  # type: ignore[operator]
    play(deal, *before)
    key = deal.state_key()
    copy = deal.copy()
    events_before = len(deal.actions)
    assert not deal.can(action)
    for call in (deal.verify, deal.apply):
        with pytest.raises(KozelError) as caught:
            call(action)
        assert caught.value.reason is reason
        assert str(caught.value) == describe(reason)
        assert isinstance(caught.value, ValueError)
    assert deal.state_key() == key
    assert deal == copy
    assert len(deal.actions) == events_before
    assert action not in deal.legal_actions()


def test_every_deal_reason_has_a_case() -> None:
    deal_reasons = {*Reason, *YardReason} - {
        # Not actions on a deal: tested with the series, the cards and the records.
        YardReason.SERIES_OVER,
        Reason.DEAL_NOT_OVER,
        Reason.BAD_DEALER,
        Reason.UNKNOWN_CARD,
        Reason.BAD_DECK,
        Reason.BAD_RECORD,
        # Not about a deal: tested with the rule sets.
        Reason.UNKNOWN_RULE_SET,
        Reason.BAD_OPTIONS,
        # A five-card lead: see the test below.
        YardReason.TOO_MANY_CARDS,
    }
    assert {case[3] for case in CASES} == deal_reasons


def test_five_card_lead_is_refused() -> None:
    deal = plain()
    action = Action.lead(0, *cards("7H 7C 8C AS"), Card.parse("9C"))
    with pytest.raises(KozelError) as caught:
        deal.verify(action)
    assert caught.value.reason is YardReason.TOO_MANY_CARDS
    assert deal.state_key() == plain().state_key()


@pytest.mark.parametrize("seat", [-1, 4, 9])
def test_seat_queries_refuse_bad_seats(seat: int) -> None:
    deal = plain()
    for query in (deal.hand, deal.view, deal.legal_actions):
        with pytest.raises(KozelError) as caught:
            query(seat)
        assert caught.value.reason is Reason.BAD_SEAT
