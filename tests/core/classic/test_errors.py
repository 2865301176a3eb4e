"""Every reason the classic engine refuses an action, each refused action changing
nothing, and the reason's words."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from core.classic.actions import ClassicAction, ClassicActionKind
from core.classic.dealing import Dealing
from core.classic.errors import ClassicReason
from core.classic.options import Praise
from core.errors import KozelError, Reason, describe
from tests.core.classic.helpers import LOW_HAND, act, dealt, ends_deck, later, opts, play

HANDS = {
    0: "QC 7S 8S 9S TS KS AS 7D",
    1: "7C 8D 9D TD KD AD 8C 9C",
    2: "TH QS 7H 8H 9H KH AH TC",
    3: "JC KC AC JS QH JH QD JD",
}


def fresh() -> Dealing:
    return dealt(opts(trump_suit="H"), HANDS)


def offered() -> Dealing:
    dealing = fresh()
    play(dealing, "0:offer_trump")
    return dealing


def praise() -> Dealing:
    return later(opts(praise="pants"), ends_deck(""))


def choose() -> Dealing:
    return later(opts(praise="choose"), ends_deck(""))


def pants_lay() -> Dealing:
    deck = ends_deck("QC 9H 8S QS QD JH AD KS", "JC AC AH JS QH 7D JD AS")
    dealing = later(opts(praise="pants"), deck)
    play(dealing, "0:praise")
    return dealing


def mirror_cut() -> Dealing:
    dealing = later(opts(praise="mirror"), ends_deck(""))
    play(dealing, "0:praise")
    return dealing


def declared() -> Dealing:
    dealing = later(opts(), ends_deck("9H 7S 8S 9S 7D 8D 9D 7C"))
    play(dealing, "0:praise")
    return dealing


def over() -> Dealing:
    dealing = dealt(opts(trump_suit="H"), {0: "QC 7S 8S", 1: "7C 9S TS"})
    play(dealing, "0:play QC", "1:play 7C")
    return dealing


def options_off() -> Dealing:
    return dealt(opts(trump_suit="C", last_trump=False, redeal=False), {0: "QD", 1: LOW_HAND})


def no_spade() -> Dealing:
    dealing = dealt(opts(trump_suit="C"), {0: "KS", 1: "7H QS 7D 8D 9D TD KD AD"})
    play(dealing, "0:play KS")  # seat 1 has no plain spade and AD's suit is not led
    return dealing


CASES: list[tuple[Callable[[], Dealing], str, Reason]] = [
    (fresh, "4:play QC", Reason.BAD_SEAT),
    (fresh, "1:play 7C", Reason.NOT_YOUR_TURN),
    (over, "1:play 9S", Reason.DEAL_OVER),
    (fresh, "0:play AH", Reason.NOT_IN_HAND),
    (fresh, "0:deal", ClassicReason.WRONG_STEP),
    (praise, "0:lay 7C", ClassicReason.WRONG_STEP),
    (praise, "0:praise mirror", ClassicReason.PRAISE_KIND_MISMATCH),
    (choose, "0:praise", ClassicReason.PRAISE_KIND_REQUIRED),
    (pants_lay, "1:lay QC", ClassicReason.NOT_IN_PAIR),
    (mirror_cut, "0:cut 32", ClassicReason.CUT_OUT_OF_RANGE),
    (declared, "0:name_trump D", ClassicReason.WRONG_STEP),
    (declared, "1:redeal", ClassicReason.WITH_DECLARER),
    (declared, "1:offer_trump", ClassicReason.WITH_DECLARER),
    (fresh, "3:offer_trump", ClassicReason.NOT_ONE_TRUMP),
    (offered, "1:play 7C", ClassicReason.OFFER_PENDING),
    (offered, "1:redeal", ClassicReason.OFFER_PENDING),
    (offered, "2:accept_trump TH", ClassicReason.MUST_GIVE_PLAIN),
    (fresh, "2:decline_trump", ClassicReason.NO_OFFER),
    (fresh, "2:redeal", ClassicReason.REDEAL_NOT_ALLOWED),
    (options_off, "0:offer_trump", ClassicReason.OPTION_OFF),
    (options_off, "1:redeal", ClassicReason.OPTION_OFF),
    (no_spade, "1:play AD", ClassicReason.ACE_BANNED),
]
RULE_REASONS = {case[2] for case in CASES}


@pytest.mark.parametrize(("setup", "text", "reason"), CASES, ids=[c[1] for c in CASES])
def test_each_refusal_has_its_reason_and_changes_nothing(
    setup: Callable[[], Dealing], text: str, reason: Reason
) -> None:
    dealing = setup()
    before = dealing.state_key()
    legal = dealing.legal_actions()
    with pytest.raises(KozelError) as error:
        dealing.apply(act(text))
    assert error.value.reason is reason
    assert str(error.value) == describe(reason)
    assert dealing.state_key() == before and dealing.legal_actions() == legal


def test_follow_and_lead_reasons_are_covered_elsewhere_and_words_exist() -> None:
    # The follow rules, the trump-lead restriction and the kocherga have their own
    # tests (test_play); here every classic reason has English words.
    for reason in (
        ClassicReason.MUST_FOLLOW_SUIT,
        ClassicReason.MUST_PLAY_TRUMP,
        ClassicReason.MUST_PLAY_TRUMP_SUIT,
        ClassicReason.MUST_PLAY_PERMANENT_TRUMP,
        ClassicReason.TRUMP_LEAD_FORBIDDEN,
        ClassicReason.ALREADY_OFFERED,
        *RULE_REASONS,
    ):
        assert describe(reason)


@pytest.mark.parametrize(
    "action",
    [
        ClassicAction(0, ClassicActionKind.PLAY),
        ClassicAction(0, ClassicActionKind.CUT),
        ClassicAction(0, ClassicActionKind.PRAISE, praise=Praise.CHOOSE),
    ],
)
def test_an_action_without_its_argument_is_refused(action: ClassicAction) -> None:
    with pytest.raises(KozelError) as error:
        fresh().verify(action)
    assert error.value.reason is ClassicReason.MISSING_ARGUMENT
