"""Classic Kozel through the rule-set contract only (core.ruleset), and ``kozel replay``
reading classic and yard records side by side."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bot.cli import main
from core.classic.options import ClassicOptions, Praise
from core.classic.ruleset import CLASSIC, ClassicGameAdapter
from core.errors import KozelError, Reason
from core.record import replay
from core.ruleset import AnyGame, get_rule_set
from core.yard.ruleset import YARD
from tests.core.classic.helpers import plain_deck


def play_to_the_end(game: AnyGame, rng: random.Random) -> list[str]:
    snapshots = []
    while not game.is_over:
        if game.needs_deal:
            game.deal(rng)
        else:
            action = rng.choice(list(game.legal_actions()))
            assert game.can(action)
            game.verify(action)
            assert game.apply(action)
        snapshots.append(game.snapshot())
    return snapshots


def test_the_registry_finds_classic_with_its_names_and_options() -> None:
    assert get_rule_set("classic") is CLASSIC
    assert (CLASSIC.id, CLASSIC.name, CLASSIC.rules_text) == (
        "classic",
        "rules-name-classic",
        "rules-classic",
    )
    assert CLASSIC.options() == ClassicOptions()
    assert CLASSIC.options({"praise": "choose"}).praise is Praise.CHOOSE
    with pytest.raises(KozelError) as error:
        CLASSIC.options({"redeal": "yes"})
    assert error.value.reason is Reason.BAD_OPTIONS
    with pytest.raises(KozelError):
        CLASSIC.new_game(options=YARD.options())


@pytest.mark.parametrize("seed", range(4))
def test_a_random_classic_game_plays_to_the_end_and_restores_at_every_step(seed: int) -> None:
    rng = random.Random(seed)
    options = CLASSIC.options({"praise": ["simple", "pants", "mirror", "choose"][seed]})
    game = CLASSIC.new_game(rng, options, first_dealer=seed)
    snapshots = play_to_the_end(game, rng)
    assert game.is_over and not game.needs_deal
    for text in rng.sample(snapshots, 5):
        assert CLASSIC.restore(text).snapshot() == text
    assert CLASSIC.from_record(game.record()) == game
    assert replay(game.record()) == CLASSIC.replay(game.record()) == game.report()
    assert game.report()["game"]["finished"] is True


def test_views_and_a_given_deck_through_the_contract() -> None:
    game = CLASSIC.new_game(first_dealer=3)
    assert isinstance(game, ClassicGameAdapter) and game.needs_deal
    with pytest.raises(KozelError):
        game.seat_view(0)
    with pytest.raises(KozelError) as error:
        game.deal_from(plain_deck({0: "JC"}), trump_index=4)
    assert error.value.reason is Reason.BAD_DECK
    game.deal_from(plain_deck({0: "JC"}))
    view = game.seat_view(0)
    assert len(view.hand) == 8 and view.table.leader == 0
    assert all(action.seat == 0 for action in view.legal)
    assert game.spectator_view().hand_sizes == (8, 8, 8, 8)


def write(tmp_path: Path, name: str, content: object) -> str:
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content), "utf-8")
    return str(path)


def test_kozel_replay_reads_classic_and_yard_records_by_variant(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    classic = CLASSIC.new_game(random.Random(1))
    play_to_the_end(classic, random.Random(2))
    yard = YARD.new_game(random.Random(3))
    files = [
        write(tmp_path, "classic.json", classic.record()),
        write(tmp_path, "yard.json", yard.record()),
    ]
    assert main(["replay", *files]) == 0
    out, err = capsys.readouterr()
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines == [classic.report(), yard.report()] and err == ""
    assert list(lines[0]) == ["deals", "game"] and list(lines[1]) == ["deals", "series"]


@pytest.mark.parametrize(
    "content",
    [
        "{not json",
        {"variant": "classic", "options": {"ace_ban": 1}, "deals": []},
        {"variant": "classic", "options": {}, "deals": [{"dealer": 0, "deck": ["6C"]}]},
        {"variant": "classic", "options": {}, "deals": [{"dealer": 0, "deck": [], "actions": 3}]},
        {"variant": "classic", "options": {}},
    ],
)
def test_kozel_replay_of_a_bad_classic_record_exits_2_with_the_error_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: object
) -> None:
    good = write(tmp_path, "good.json", CLASSIC.new_game(random.Random(5)).record())
    bad = write(tmp_path, "bad.json", content)
    assert main(["replay", bad, good]) == 2
    out, err = capsys.readouterr()
    first, second = (json.loads(line) for line in out.splitlines())
    assert set(first) == {"error"} and isinstance(first["error"]["reason"], str)
    assert "deals" in second and err == ""


def test_kozel_replay_of_an_illegal_classic_action_names_its_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = CLASSIC.new_game(random.Random(6))
    record = game.record()
    leader = game.spectator_view().leader
    assert leader is not None
    record["deals"][0]["actions"] = [{"seat": (leader + 1) % 4, "type": "play", "card": "7C"}]
    assert main(["replay", write(tmp_path, "illegal.json", record)]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    assert (error["deal"], error["action"], error["seat"]) == (0, 0, (leader + 1) % 4)


def test_a_classic_computer_cuts_with_the_random_source_it_is_given() -> None:
    """Regression: the classic computer player drew its mirror cuts from a source of
    its own, seeded by the system, not from the ``rng`` the contract passes to
    ``choose``: a table with a seeded source (``kozel play --seed``, the tests) did
    not play the same game twice."""
    options = CLASSIC.options({"praise": "mirror"})
    game = CLASSIC.new_game(options=options, first_dealer=3)
    game.deal_from(plain_deck({}, 3))
    while game.game.current is not None and not game.game.current.is_over:
        game.apply(game.safe_action(game.turn))  # type: ignore[arg-type]
    game.deal(random.Random(4))
    seat = game.turn
    assert seat is not None
    game.apply(game.legal_actions(seat)[-1])  # the player after the dealer praises
    seat = game.turn
    assert seat is not None and game.game.current.phase.value == "cut"  # type: ignore[union-attr]
    view = game.seat_view(seat)
    cuts = [
        CLASSIC.computer("normal", options).choose(view, random.Random(seed)) for seed in range(8)
    ]
    again = [
        CLASSIC.computer("normal", options).choose(view, random.Random(seed)) for seed in range(8)
    ]
    assert cuts == again
    assert len(set(cuts)) > 1  # the source decides
