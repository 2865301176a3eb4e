"""The rule-set contract (core.ruleset): the registry, options, and the yard game
played, saved and replayed through the contract only."""

from __future__ import annotations

import json
import random
from enum import StrEnum
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from bot.cli import main
from core.cards import Card
from core.classic.ruleset import CLASSIC
from core.errors import KozelError, Reason
from core.record import replay
from core.ruleset import AnyGame, RuleOptions, get_rule_set, parse_options, rule_set_ids, rule_sets
from core.yard.record import report, series_to_record
from core.yard.ruleset import YARD, YardGame, YardOptions
from core.yard.series import Series

SEEDS = range(6)


def play_to_the_end(game: AnyGame, rng: random.Random) -> list[str]:
    """Random legal play through the contract until the game is over; the snapshot
    after every step."""
    snapshots = []
    while not game.is_over:
        if game.needs_deal:
            game.deal(rng)
        else:
            actions = game.legal_actions()
            assert actions, "a game that is not over has a legal action"
            action = rng.choice(actions)
            assert game.can(action)
            game.verify(action)
            assert game.apply(action)
        snapshots.append(game.snapshot())
    return snapshots


# --- The registry -----------------------------------------------------------------


def test_the_registry_lists_and_finds_the_yard_rule_set() -> None:
    assert rule_set_ids() == ("yard", "classic")
    assert get_rule_set("yard") is YARD
    assert rule_sets() == (YARD, CLASSIC)
    assert (YARD.id, YARD.name, YARD.rules_text) == ("yard", "rules-name-yard", "rules-yard")


@pytest.mark.parametrize("name", ["hearts", "Yard", "", None, 3])
def test_an_unknown_rule_set_is_refused(name: Any) -> None:
    with pytest.raises(KozelError) as caught:
        get_rule_set(name)
    assert caught.value.reason is Reason.UNKNOWN_RULE_SET


# --- Options ----------------------------------------------------------------------


class Praise(StrEnum):
    SIMPLE = "simple"
    PANTS = "pants"


class Sample(RuleOptions):
    """Options with fields, to check the model's rules (the yard game has none)."""

    ace_ban: bool = True
    pairs: int = 6
    praise: Praise = Praise.SIMPLE


def test_options_take_their_defaults_and_are_frozen() -> None:
    options = parse_options(Sample, None)
    assert options == Sample() == parse_options(Sample, {})
    assert (options.ace_ban, options.pairs) == (True, 6)
    assert parse_options(Sample, {"ace_ban": False}).to_json() == {
        "ace_ban": False,
        "pairs": 6,
        "praise": "simple",
    }
    chosen = parse_options(Sample, {"praise": "pants"})
    assert chosen.praise is Praise.PANTS
    assert parse_options(Sample, chosen.to_json()) == chosen
    with pytest.raises(ValidationError):
        options.ace_ban = False  # type: ignore[misc]


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ({"colour": "red"}, "colour"),
        ({"ace_ban": 1}, "ace_ban"),  # 1 is not true
        ({"pairs": "6"}, "pairs"),
        ({"praise": "mirror"}, "praise"),
        ({"pairs": object()}, "JSON"),
        ([("ace_ban", True)], "object"),
    ],
)
def test_bad_options_are_refused_with_the_key(raw: Any, words: str) -> None:
    with pytest.raises(KozelError) as caught:
        parse_options(Sample, raw)
    assert caught.value.reason is Reason.BAD_OPTIONS
    assert words in str(caught.value)


def test_the_yard_game_has_no_options() -> None:
    assert YARD.options() == YardOptions() == YARD.options({})
    assert YARD.options().to_json() == {}
    assert YARD.new_game(random.Random(1)).options == YardOptions()
    with pytest.raises(KozelError) as caught:
        YARD.options({"praise": "pants"})
    assert caught.value.reason is Reason.BAD_OPTIONS


def test_a_new_game_refuses_another_rule_sets_options() -> None:
    with pytest.raises(KozelError) as caught:
        YARD.new_game(random.Random(1), Sample())
    assert caught.value.reason is Reason.BAD_OPTIONS


# --- Playing through the contract ---------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_a_random_yard_game_plays_to_the_end_through_the_contract(seed: int) -> None:
    rng = random.Random(seed)
    game: AnyGame = YARD.new_game(rng, YARD.options(), first_dealer=seed % 4)
    play_to_the_end(game, rng)
    assert game.is_over and not game.needs_deal
    assert game.legal_actions() == []
    result = game.report()
    assert result["series"]["finished"] is True
    assert max(result["series"]["loss_points"]) >= 12
    assert game.record(seed=seed)["seed"] == seed
    assert replay(game.record()) == result


@pytest.mark.parametrize("seed", SEEDS)
def test_views_through_the_contract_show_a_seat_its_own_hand_and_legal_actions(
    seed: int,
) -> None:
    rng = random.Random(seed)
    game = YARD.new_game(rng)
    assert isinstance(game, YardGame)
    for _ in range(30):
        table = game.spectator_view()
        for seat in range(4):
            view = game.seat_view(seat)
            assert view.table == table
            assert view.hand == game.series.current.hand(seat)  # type: ignore[union-attr]
            assert list(view.legal) == game.legal_actions(seat)
        if game.needs_deal or game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))


def test_the_contract_game_is_the_series_it_adapts() -> None:
    rng, twin = random.Random(5), random.Random(5)
    game, series = YARD.new_game(rng), Series()
    series.deal(twin)
    for _ in range(40):
        actions = game.legal_actions()
        assert actions == series.legal_actions()
        if not actions:
            break
        action = rng.choice(actions)
        assert game.apply(action) == series.apply(twin.choice(series.legal_actions()))
    assert game.record() == series_to_record(series)
    assert game.report() == report(series)


def test_an_illegal_action_through_the_contract_changes_nothing() -> None:
    game = YARD.new_game(random.Random(2))
    leader = game.spectator_view().leader
    action = game.legal_actions(leader)[0]
    wrong_seat = type(action)((leader + 1) % 4, action.kind, action.cards)
    before = game.snapshot()
    assert not game.can(wrong_seat)
    with pytest.raises(KozelError) as caught:
        game.verify(wrong_seat)
    assert caught.value.reason is Reason.NOT_YOUR_TURN
    with pytest.raises(KozelError):
        game.apply(wrong_seat)
    assert game.snapshot() == before


def test_a_game_made_without_an_rng_waits_for_its_first_deal() -> None:
    game = YARD.new_game(first_dealer=1)
    assert game.needs_deal and not game.is_over
    assert game.legal_actions() == []
    with pytest.raises(KozelError):
        game.seat_view(0)
    with pytest.raises(KozelError):
        game.spectator_view()
    deck = [Card.from_index(i) for i in range(36)]
    events = game.deal_from(deck, trump_index=7)
    assert events and not game.needs_deal
    assert game.spectator_view().dealer == 1
    assert game.spectator_view().trump_card == deck[16 + 7]


def test_a_given_yard_deck_needs_its_trump_index() -> None:
    game = YARD.new_game()
    with pytest.raises(KozelError) as caught:
        game.deal_from([Card.from_index(i) for i in range(36)])
    assert caught.value.reason is Reason.BAD_DECK
    assert game.needs_deal


# --- Snapshots, records, replay ------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_a_snapshot_at_any_step_restores_through_the_contract_and_plays_on_equally(
    seed: int,
) -> None:
    rng = random.Random(seed)
    game = YARD.new_game(rng)
    snapshots = play_to_the_end(game, rng)
    pick = random.Random(seed + 100)
    for text in pick.sample(snapshots, 5):
        restored, again = YARD.restore(text), YARD.restore(text)
        assert restored.snapshot() == text
        assert restored == again
        steps = random.Random(seed)
        for _ in range(20):
            if restored.is_over:
                break
            if restored.needs_deal:
                state = steps.getstate()
                restored.deal(steps)
                steps.setstate(state)
                again.deal(steps)
            else:
                action = steps.choice(restored.legal_actions())
                assert restored.apply(action) == again.apply(action)
            assert restored.snapshot() == again.snapshot()


def test_from_record_rebuilds_the_game() -> None:
    rng = random.Random(9)
    game = YARD.new_game(rng)
    for _ in range(25):
        game.apply(rng.choice(game.legal_actions()))
    rebuilt = YARD.from_record(json.loads(json.dumps(game.record())))
    assert rebuilt == game
    assert YARD.replay(game.record()) == game.report()


def test_replay_picks_the_rule_set_by_variant() -> None:
    game = YARD.new_game(random.Random(4))
    record = game.record()
    assert replay(record) == YARD.replay(record) == game.report()
    without = {key: value for key, value in record.items() if key != "variant"}
    # Issue 23, point 20: one that names none says so (it was read as yard).
    assert replay(without) == {
        "error": {"reason": "variant is missing (this replay knows 'yard', 'classic')"}
    }


@pytest.mark.parametrize(
    ("variant", "reason"),
    [
        ("hearts", "unknown variant 'hearts' (this replay knows 'yard', 'classic')"),
        (7, "unknown variant 7 (this replay knows 'yard', 'classic')"),
        (None, "unknown variant None (this replay knows 'yard', 'classic')"),
    ],
)
def test_replay_of_an_unknown_variant_gives_the_error_json(variant: object, reason: str) -> None:
    assert replay({"variant": variant, "deals": []}) == {"error": {"reason": reason}}
    assert replay(json.dumps({"variant": variant, "deals": []})) == {"error": {"reason": reason}}


class Echo:
    """A second rule set for the registry: its replay says what it was given."""

    def replay(self, record: dict[str, Any]) -> dict[str, Any]:
        return {"echo": record["deals"]}


ECHO = Echo()


def test_replay_hands_a_record_to_the_rule_set_its_variant_names(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from core import ruleset

    monkeypatch.setitem(ruleset._REGISTRY, "echo", f"{__name__}:ECHO")
    assert rule_set_ids() == ("yard", "classic", "echo")
    assert replay({"variant": "echo", "deals": [1, 2]}) == {"echo": [1, 2]}
    assert "error" not in replay(YARD.new_game(random.Random(1)).record())


def test_kozel_replay_of_an_unknown_variant_exits_2_with_the_error_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad, good = tmp_path / "bad.json", tmp_path / "good.json"
    bad.write_text(json.dumps({"variant": "hearts", "deals": []}), encoding="utf-8")
    good.write_text(json.dumps(YARD.new_game(random.Random(1)).record()), encoding="utf-8")
    assert main(["replay", str(good), str(bad)]) == 2
    out, err = capsys.readouterr()
    first, second = (json.loads(line) for line in out.splitlines())
    assert "deals" in first
    reason = "unknown variant 'hearts' (this replay knows 'yard', 'classic')"
    assert second == {"error": {"reason": reason}}
    assert err == ""


# --- What a table runs: turns, chances, safe actions, outcomes, computers -------------


def drive(game: AnyGame, rule_set_id: str, rng: random.Random, *, away: int) -> list[object]:
    """Play a whole game as the application does, through the contract only: each
    seat's computer (levels in turn) is asked about its chances once a moment, the
    seat to act must act; seat ``away`` takes the safe action on its turns. Returns
    the outcomes of the events, checking each step."""
    rule_set = get_rule_set(rule_set_id)
    levels = ("easy", "normal", "strong", "normal")
    players = [rule_set.computer(level, game.options) for level in levels]
    asked: set[tuple[int, tuple[int, ...]]] = set()
    outcomes: list[object] = []
    for _ in range(5000):
        if game.is_over:
            return outcomes
        if game.needs_deal:
            game.deal(rng)
            continue
        turn = game.turn
        assert turn is not None and game.legal_actions(turn)
        action = None
        for chance in game.chances():
            assert chance.actions and all(game.is_optional(a) for a in chance.actions)
            assert all(game.can(a) and a.seat == chance.seat for a in chance.actions)
            if chance.seat != away and (chance.seat, chance.moment) not in asked:
                asked.add((chance.seat, chance.moment))
                choice = players[chance.seat].choose(game.seat_view(chance.seat), rng)
                if choice in chance.actions:
                    action = choice
                    break
        if action is None and turn == away:
            action = game.safe_action(turn)
            assert not game.is_optional(action)
        if action is None:
            action = players[turn].choose(game.seat_view(turn), rng)
            if action is None or game.is_optional(action) or not game.can(action):
                action = game.safe_action(turn)
        assert game.can(action)
        as_json = game.action_to_json(action)
        assert as_json["seat"] == action.seat and json.loads(json.dumps(as_json)) == as_json
        outcomes.extend(o for o in map(game.outcome, game.apply(action)) if o is not None)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("rule_set_id", ["yard", "classic"])
@pytest.mark.parametrize("seed", range(2))
def test_a_table_runs_a_whole_game_through_the_contract(rule_set_id: str, seed: int) -> None:
    from core.ruleset import DealOutcome, GameOutcome, Snapshots

    rng = random.Random(seed)
    rule_set = get_rule_set(rule_set_id)
    game = rule_set.new_game(rng, first_dealer=seed)
    outcomes = drive(game, rule_set_id, rng, away=seed + 1)
    deals = [o for o in outcomes if isinstance(o, DealOutcome)]
    (end,) = [o for o in outcomes if isinstance(o, GameOutcome)]
    assert outcomes[-1] is end and game.turn is None and game.chances() == []
    assert [d.number for d in deals] == sorted({d.number for d in deals})
    assert end.deals >= 1 and end.winner is end.loser.other and end.detail is not None
    assert all(d.winner is None or d.loser is d.winner.other for d in deals)
    with pytest.raises(KozelError):
        game.safe_action(0)
    assert Snapshots().snapshot(game) == game.snapshot()


def test_a_safe_action_only_for_the_seat_to_act() -> None:
    for rule_set in rule_sets():
        game = rule_set.new_game(random.Random(4))
        turn = game.turn
        assert turn is not None and game.can(game.safe_action(turn))
        with pytest.raises(KozelError):
            game.safe_action((turn + 1) % 4)


def test_computer_levels() -> None:
    from core.ruleset import LEVEL_NAMES

    for rule_set in rule_sets():
        for level in (*LEVEL_NAMES, "random"):
            game = rule_set.new_game(random.Random(7))
            turn = game.turn
            assert turn is not None
            choice = rule_set.computer(level).choose(game.seat_view(turn), random.Random(1))
            assert choice is None or game.can(choice)
        with pytest.raises(ValueError, match="unknown player level"):
            rule_set.computer("grandmaster")


def test_a_yard_computer_that_joins_mid_deal_learns_the_public_events() -> None:
    game = YARD.new_game(random.Random(3))
    for _ in range(3):
        turn = game.turn
        assert turn is not None
        game.apply(game.safe_action(turn))
    names = [type(event).__name__ for event in game.public_events()]
    assert names[0] == "DealStarted" and names.count("CardsLed") >= 1
    assert CLASSIC.new_game(random.Random(3)).public_events() == []


def test_the_yard_molodka_is_a_chance_at_the_start_of_a_trick() -> None:
    for seed in range(200):
        game = YARD.new_game(random.Random(seed))
        chances = game.chances()
        if chances:
            (chance,) = chances
            assert chance.actions[0].kind.value == "molodka" and chance.moment == (0, 0)
            assert game.is_optional(chance.actions[0])
            return
    raise AssertionError("no molodka dealt in 200 deals")


@pytest.mark.parametrize("rule_set_id", ["yard", "classic"])
def test_the_game_view_shows_each_deal_s_result_and_the_game_s(rule_set_id: str) -> None:
    """What a presenter needs of the whole game comes from the contract's game_view,
    never from the engine behind it."""
    from core.ruleset import DealOutcome, GameOutcome

    rule_set = get_rule_set(rule_set_id)
    waiting = rule_set.new_game()
    before = waiting.game_view()
    assert before.deals == 0 and before.deal_result(0) is None and before.result is None
    rng = random.Random(5)
    game = rule_set.new_game(rng)
    assert game.game_view().deals == 1 and game.game_view().deal_result(0) is None
    outcomes = drive(game, rule_set_id, rng, away=-1)
    deals = [o for o in outcomes if isinstance(o, DealOutcome)]
    (end,) = [o for o in outcomes if isinstance(o, GameOutcome)]
    view = game.game_view()
    assert view.deals == end.deals == len(deals) > 1
    assert [view.deal_result(d.number) for d in deals] == [d.detail for d in deals]
    assert view.deal_result(view.deals) is None and view.deal_result(-1) is None
    assert view.result == end.detail
    score = view.loss_points if rule_set_id == "yard" else view.pairs
    assert score == end.score
    assert game.spectator_view().result == deals[-1].detail
