"""The options of §2.1: every option with its default, validated, frozen."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from core.cards import Suit
from core.classic.options import ClassicOptions, Follow, Praise, TrumpLead, TrumpSuit
from core.errors import KozelError, Reason


def test_defaults() -> None:
    assert ClassicOptions().to_json() == {
        "praise": "simple",
        "kocherga": True,
        "trump_roulette": True,
        "ace_ban": True,
        "last_trump": True,
        "redeal": True,
        "trump_suit": None,
        "follow": "suit_first",
        "trump_lead": "declarer",
        "dealers": "jc_holder",
        "first_leader": "jc_holder",
        "deal_by": 1,
        "eggs": "carry",
        "lucy": "reset",
        "redeal_queens": False,
    }
    assert ClassicOptions.from_json({}) == ClassicOptions()


def test_every_value_round_trips_through_json() -> None:
    options = ClassicOptions(
        praise=Praise.CHOOSE,
        kocherga=False,
        trump_roulette=False,
        ace_ban=False,
        last_trump=False,
        redeal=False,
        trump_suit=TrumpSuit.D,
        follow=Follow.ANY_TRUMP,
        trump_lead=TrumpLead.TEAM,
    )
    assert ClassicOptions.from_json(options.to_json()) == options


@pytest.mark.parametrize(
    "bad",
    [
        {"ace_ban": 1},
        {"kocherga": "true"},
        {"praise": "hidden"},
        {"trump_suit": "X"},
        {"trump_suit": 0},
        {"follow": None},
        {"trump_lead": "all"},
        {"stakes": 5},
    ],
)
def test_bad_options_are_refused(bad: dict[str, object]) -> None:
    with pytest.raises(KozelError) as error:
        ClassicOptions.from_json(bad)
    assert error.value.reason is Reason.BAD_OPTIONS


def test_options_are_frozen_and_typed() -> None:
    options = ClassicOptions()
    with pytest.raises(ValidationError):
        options.ace_ban = False  # type: ignore[misc]
    with pytest.raises(ValidationError):
        ClassicOptions(redeal=0)  # type: ignore[arg-type]
    assert ClassicOptions.from_json({"trump_suit": "H"}).fixed_suit is Suit.HEARTS
