"""Hypothesis properties over random legal play with random options (docs/rules/reference.md §2,
§3.5)."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.cards import Card, Suit
from core.classic.actions import ClassicAction, ClassicActionKind
from core.classic.cards import CARDS
from core.classic.dealing import Dealing, Phase
from core.classic.events import (
    CardLaid,
    CardPlayed,
    CardsDealt,
    DealEnd,
    LaidTrickTaken,
    RedealAsked,
)
from core.classic.events import ClassicEvent as Event
from core.classic.game import ClassicGame
from core.classic.options import (
    PRAISE_KINDS,
    PRESETS,
    ClassicOptions,
    DealBy,
    Dealers,
    Eggs,
    FirstLeader,
    Follow,
    Lucy,
    Praise,
    TrumpLead,
    TrumpSuit,
)
from core.classic.record import game_from_record, game_to_record, replay, report, restore, snapshot
from core.errors import KozelError

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
FAST = settings(max_examples=30, deadline=None)


@st.composite
def _options(draw: st.DrawFn) -> ClassicOptions:
    """A random valid option set of §2.1 and §2.16 (``one_by_one`` only with a fixed
    trump suit), the preset 001 among them now and then."""
    if draw(st.integers(0, 9)) == 0:
        return PRESETS["001"]
    praise = draw(st.sampled_from(list(Praise)))
    suits = list(TrumpSuit) if praise is Praise.ONE_BY_ONE else [None, *TrumpSuit]
    return ClassicOptions(
        praise=praise,
        kocherga=draw(st.booleans()),
        trump_roulette=draw(st.booleans()),
        ace_ban=draw(st.booleans()),
        last_trump=draw(st.booleans()),
        redeal=draw(st.booleans()),
        trump_suit=draw(st.sampled_from(suits)),
        follow=draw(st.sampled_from(list(Follow))),
        trump_lead=draw(st.sampled_from(list(TrumpLead))),
        dealers=draw(st.sampled_from(list(Dealers))),
        first_leader=draw(st.sampled_from(list(FirstLeader))),
        deal_by=draw(st.sampled_from(list(DealBy))),
        eggs=draw(st.sampled_from(list(Eggs))),
        lucy=draw(st.sampled_from(list(Lucy))),
        redeal_queens=draw(st.booleans()),
    )


OPTIONS = _options()


def candidates(seat: int) -> list[ClassicAction]:
    """Every action a seat could try, legal or not."""
    out = [ClassicAction(seat, kind) for kind in ClassicActionKind]
    for kind in (ClassicActionKind.PLAY, ClassicActionKind.LAY, ClassicActionKind.ACCEPT_TRUMP):
        out += [ClassicAction(seat, kind, card=card) for card in CARDS]
    out += [ClassicAction.cut(seat, at) for at in range(-1, 34)]
    out += [ClassicAction.name_trump(seat, suit) for suit in (None, *Suit)]
    out += [ClassicAction.praise_with(seat, kind) for kind in PRAISE_KINDS]
    return out


CANDIDATES = [candidates(seat) for seat in range(4)]


def normalized(action: ClassicAction, options: ClassicOptions) -> ClassicAction:
    """A praise without a kind means the table's kind."""
    if action.kind is ClassicActionKind.PRAISE and action.praise is None:
        return dataclasses.replace(action, praise=options.praise)
    return action


def cards_in(event: Event) -> list[Card]:
    found: list[Card] = []
    for field in dataclasses.fields(event):  # type: ignore[arg-type]
        value = getattr(event, field.name)
        values = value if isinstance(value, tuple) else (value,)
        found += [v for v in values if isinstance(v, Card)]
    return found


def check_events_hide_cards(dealing: Dealing, events: list[Event]) -> None:
    """Events name only cards the rules make public."""
    for event in events:
        if isinstance(event, CardLaid):
            hidden = dealing.praise is Praise.PANTS and event.seat == dealing.declarer
            assert (event.card is None) is hidden
        elif isinstance(event, CardsDealt):
            assert not event.shown or dealing.praise is Praise.SIMPLE
        elif not isinstance(event, CardPlayed | LaidTrickTaken | RedealAsked):
            assert cards_in(event) == [], event


def random_game(
    seed: int, options: ClassicOptions, check_legal: bool = False, dealings: int = 1000
) -> ClassicGame:
    rng = random.Random(seed)
    game = ClassicGame(options, first_dealer=rng.randrange(4))
    while not game.is_over and len(game.dealings) < dealings:
        game.deal(rng)
        dealing = game.current
        assert dealing is not None
        while not dealing.is_over:
            assert dealing.cards_accounted() == 32
            legal = game.legal_actions()
            assert legal
            if check_legal and rng.random() < 0.15:
                check_legal_is_verify(dealing, rng)
            before = dealing.state_key()
            events = game.apply(rng.choice(legal))
            assert dealing.state_key() != before
            check_events_hide_cards(dealing, events)
        assert dealing.cards_accounted() == 32
        if dealing.end is DealEnd.PLAYED:
            assert sum(dealing.points) == 120 and sum(dealing.tricks) == 8
            assert all(not dealing.hand_mask(s) for s in range(4))
    return game


def check_legal_is_verify(dealing: Dealing, rng: random.Random) -> None:
    """Every candidate of every seat: legal_actions lists it iff verify passes; a few
    refused ones are applied and must change nothing."""
    options = dealing.options
    refused: list[ClassicAction] = []
    for seat in range(4):
        legal = {normalized(a, options) for a in dealing.legal_actions(seat)}
        for action in CANDIDATES[seat]:
            ok = dealing.can(action)
            assert ok == (normalized(action, options) in legal), (action, dealing)
            if not ok:
                refused.append(action)
    before = dealing.state_key()
    for action in rng.sample(refused, min(4, len(refused))):
        with pytest.raises(KozelError):
            dealing.apply(action)
    assert dealing.state_key() == before


@FAST
@given(SEEDS, OPTIONS)
def test_random_games_conserve_cards_and_points_and_end_at_six(
    seed: int, options: ClassicOptions
) -> None:
    game = random_game(seed, options)
    result = game.result
    assert result is not None and game.pairs[result.loser] < 6
    last = game.dealings[-1].result
    assert last is not None
    if game.pairs[result.winner] < 6:
        # §2.16 lucy = win: only a Люся against a team without pairs ends it below 6.
        assert options.lucy is Lucy.WIN and last.lucy and last.winner is result.winner
        assert game.pairs[result.loser] == 0 and "tails" not in result.title.value
    for dealing in game.dealings:
        assert dealing.cards_accounted() == 32
        assert dealing.result is not None
        if dealing.result.end is DealEnd.PLAYED:
            assert sum(dealing.points) == 120


@settings(max_examples=20, deadline=None)
@given(SEEDS, OPTIONS)
def test_legal_actions_are_exactly_the_actions_verify_allows(
    seed: int, options: ClassicOptions
) -> None:
    random_game(seed, options, check_legal=True, dealings=2)


@FAST
@given(SEEDS, OPTIONS)
def test_export_then_replay_reproduces_the_game(seed: int, options: ClassicOptions) -> None:
    game = random_game(seed, options)
    text = json.dumps(game_to_record(game, seed=seed))
    again = game_from_record(text)
    assert again == game
    assert replay(text) == report(game)


@FAST
@given(SEEDS, OPTIONS, st.floats(min_value=0, max_value=1))
def test_snapshot_at_a_random_step_round_trips_and_continues_equally(
    seed: int, options: ClassicOptions, where: float
) -> None:
    total = len([1 for d in random_game(seed, options).dealings for _ in d.log_raw()])
    stop = int(where * total)
    rng = random.Random(seed)
    game = ClassicGame(options, first_dealer=rng.randrange(4))
    steps = 0
    while steps < stop or (game.current is not None and steps == 0):
        if game.current is None or game.current.is_over:
            game.deal(rng)
            continue
        game.apply(rng.choice(game.legal_actions()))
        steps += 1
    restored = restore(snapshot(game))
    assert restored == game
    assert restored.legal_actions() == game.legal_actions()
    for one in (game, restored):
        follow = random.Random(seed + 1)
        while not one.is_over:
            if one.current is None or one.current.is_over:
                one.deal(follow)
            else:
                one.apply(follow.choice(one.legal_actions()))
    assert restored == game


@FAST
@given(SEEDS, OPTIONS)
def test_hands_after_the_dealing(seed: int, options: ClassicOptions) -> None:
    rng = random.Random(seed)
    dealing = Dealing.shuffled(options, rng.randrange(4), rng, number=1)
    while dealing.phase is not Phase.PLAY and not dealing.is_over:
        dealing.apply(rng.choice(dealing.legal_actions()))
    sizes = [len(dealing.hand(s)) for s in range(4)]
    if dealing.praise in (Praise.PANTS, Praise.MIRROR):
        assert sizes == [7, 7, 7, 7] and dealing.trick_number == 1
    else:
        assert sizes == [8, 8, 8, 8] and dealing.trick_number == 0
    view = dealing.table_view()
    assert all(not isinstance(v, list) for v in dataclasses.astuple(view))  # frozen data
    for seat in range(4):
        assert dealing.view(seat).hand == dealing.hand(seat)
