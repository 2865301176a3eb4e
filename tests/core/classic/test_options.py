"""The options of §2.1: every option with its default, validated, frozen."""

from __future__ import annotations

import dataclasses

import pytest

from core.cards import Suit
from core.classic.options import ClassicOptions, Follow, Praise, TrumpLead
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
        trump_suit=Suit.DIAMONDS,
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
    assert error.value.reason is Reason.BAD_OPTION


def test_options_are_frozen_and_typed() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        ClassicOptions().ace_ban = False  # type: ignore[misc]
    with pytest.raises(KozelError):
        ClassicOptions(redeal=0)  # type: ignore[arg-type]
