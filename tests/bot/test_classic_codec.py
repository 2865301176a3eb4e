"""Classic PLAY arguments: every legal action of random games with every option
round-trips through a whole token of the largest game id and version, and anything
else is refused."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.codec import MAX_TOKEN_BYTES, CodecError, Command, Verb, decode, encode
from bot.presenters.classic import MAX_ARG, action_arg, parse_action_arg
from core.cards import Card, Suit
from core.classic.actions import ClassicAction, ClassicActionKind
from core.classic.options import PRAISE_KINDS, ClassicOptions, Praise
from core.classic.ruleset import CLASSIC, ClassicGameAdapter

LARGEST = 36**12 - 1
ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

OPTIONS = st.builds(
    ClassicOptions.from_json,
    st.fixed_dictionaries(
        {
            "praise": st.sampled_from(["simple", "pants", "mirror", "choose"]),
            "kocherga": st.booleans(),
            "trump_roulette": st.booleans(),
            "ace_ban": st.booleans(),
            "last_trump": st.booleans(),
            "redeal": st.booleans(),
            "trump_suit": st.sampled_from([None, "C", "S", "H", "D"]),
            "follow": st.sampled_from(["suit_first", "any_trump"]),
            "trump_lead": st.sampled_from(["declarer", "team"]),
        }
    ),
)


def _round_trip(action: ClassicAction) -> None:
    arg = action_arg(action)
    assert 1 <= len(arg) <= MAX_ARG and arg.isascii() and arg.isalnum()
    token = encode(Command(Verb.PLAY, LARGEST, LARGEST, arg))
    assert len(token.encode()) <= MAX_TOKEN_BYTES
    command = decode(token)
    assert parse_action_arg(action.seat, command.arg) == action


def walk(game: ClassicGameAdapter, rng: random.Random, steps: int) -> int:
    """Play ``steps`` random legal actions (dealing when due), checking each legal
    action of every seat on the way; returns how many were checked."""
    checked = 0
    for _ in range(steps):
        if game.is_over:
            break
        if game.needs_deal:
            game.deal(rng)
            continue
        legal = game.legal_actions()
        for action in legal:
            _round_trip(action)
        checked += len(legal)
        game.apply(rng.choice(legal))
    return checked


@settings(max_examples=40, deadline=None)
@given(OPTIONS, st.integers(0, 2**32 - 1))
def test_every_legal_action_round_trips_and_fits(options: ClassicOptions, seed: int) -> None:
    rng = random.Random(seed)
    game = CLASSIC.new_game(rng, options, first_dealer=rng.randrange(4))
    assert walk(game, rng, 400) > 0


def test_every_kind_of_action_round_trips() -> None:
    """Each type and field value, including what no random walk reaches in order."""
    card = Card.parse("TD")
    actions = [
        ClassicAction.play(0, card),
        ClassicAction.lay(1, card),
        ClassicAction.accept_trump(2, card),
        *(ClassicAction.cut(3, at) for at in range(1, 32)),
        *(ClassicAction.name_trump(0, suit) for suit in (None, *Suit)),
        ClassicAction.praise_with(1),
        *(ClassicAction.praise_with(1, kind) for kind in PRAISE_KINDS),
        ClassicAction.deal(2),
        ClassicAction.offer_trump(3),
        ClassicAction.decline_trump(0),
        ClassicAction.redeal(1),
    ]
    assert {action.kind for action in actions} == set(ClassicActionKind)
    for action in actions:
        _round_trip(action)
    assert len({action_arg(action) for action in actions}) == len(actions)


@pytest.mark.parametrize(
    "arg",
    [
        "",
        "p",
        "p6S",  # a six is not in the 32-card deck
        "pas",  # not the canonical (upper-case) code
        "p10S",
        "pASx",
        "c",
        "c0",
        "c05",
        "c32",
        "c99",
        "n",
        "nX",
        "n00",
        "hc",  # "choose" is not a kind to praise with
        "hsx",
        "sx",
        "o0",
        "x1",
        "rr",
        "lAS",  # the yard game's lead
        "bAS6S",
        "m",
        "z",
        "P" + "AS",
    ],
)
def test_forged_arguments_are_refused(arg: str) -> None:
    with pytest.raises(CodecError):
        parse_action_arg(0, arg)


@given(st.text(alphabet=ALPHABET, max_size=40), st.integers(0, 3))
def test_garbage_is_refused_or_canonical(arg: str, seat: int) -> None:
    """Whatever parses is exactly what its action encodes to."""
    try:
        action = parse_action_arg(seat, arg)
    except CodecError:
        return
    assert action.seat == seat and action_arg(action) == arg


@pytest.mark.parametrize(
    "action",
    [
        ClassicAction.cut(0, 0),
        ClassicAction.cut(0, 32),
        ClassicAction.praise_with(0, Praise.CHOOSE),
        ClassicAction(0, ClassicActionKind.PLAY),
        ClassicAction.play(0, Card.parse("6S")),
    ],
)
def test_actions_no_rule_allows_do_not_encode(action: ClassicAction) -> None:
    with pytest.raises(CodecError):
        action_arg(action)
