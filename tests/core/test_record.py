"""Game records (docs/rules/reference.md §3): export, replay, the report and snapshots."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from core.errors import Reason, describe
from core.record import RecordError, replay
from core.yard.actions import Action
from core.yard.errors import YardReason
from core.yard.record import (
    deal_to_record,
    report,
    restore,
    series_from_record,
    series_to_record,
    snapshot,
)
from core.yard.series import Series

from .decks import PILES, Plan, act, build_deck, three_tricks

RECORD_KEYS = {"variant", "options", "seed", "deals"}
DEAL_KEYS = {"dealer", "deck", "trump_index", "actions"}
REPORT_DEAL_KEYS = {"complete", "points", "tricks", "loss_points", "eggs", "next_leader"}
REPORT_SERIES_KEYS = {"loss_points", "finished", "loser", "title"}

B_30 = three_tricks(3, PILES[90])  # B gets 4; seat 1 leads next, dealer 0
A_SHUTOUT = three_tricks(3, PILES[0], shutout=True)  # B gets 6; dealer 3 again
EGGS = three_tricks(3, PILES[60])
B_SHUTOUT = three_tricks(0, PILES[0], shutout=True)  # A gets 6; dealer 0 again


def played(*plans: Plan, stop: int | None = None) -> Series:
    """A series of the plans; the last one stops after ``stop`` actions if given."""
    series = Series()
    for i, plan in enumerate(plans):
        series.deal_from(plan.deck, plan.trump_index, dealer=plan.dealer)
        actions = plan.actions if i < len(plans) - 1 or stop is None else plan.actions[:stop]
        for action in actions:
            series.apply(action)
    return series


def molodka_series() -> Series:
    hands = {0: "6C 7C 9S 7H", 1: "8C 9C 6D AS", 2: "KS QS 7D 8S", 3: "6H 8H JH QH"}
    series = Series()
    deck = build_deck(hands, "TD")
    series.deal_from(deck, 0, dealer=3)
    for line in ["0:lead 7H", "1:discard 8C", "3:molodka", "0:discard 6C 7C 9S 7H"]:
        series.apply(act(line))
    return series


def test_exported_record_has_exactly_the_keys_of_the_format() -> None:
    series = molodka_series()
    record = series_to_record(series)
    assert set(record) == RECORD_KEYS
    assert (record["variant"], record["options"], record["seed"]) == ("yard", {}, None)
    (entry,) = record["deals"]
    assert set(entry) == DEAL_KEYS
    assert entry["dealer"] == 3 and entry["trump_index"] == 0
    assert entry["deck"] == [card.code for card in series.deals[0].deck]
    assert len(entry["deck"]) == 36 and all(len(code) == 2 for code in entry["deck"])
    kinds = [a["type"] for a in entry["actions"]]
    assert kinds == ["lead", "discard", "molodka", "discard"]
    for action in entry["actions"]:
        keys = {"seat", "type"} if action["type"] == "molodka" else {"seat", "type", "cards"}
        assert set(action) == keys
    assert entry["actions"][0] == {"seat": 0, "type": "lead", "cards": ["7H"]}
    assert entry["actions"][2] == {"seat": 3, "type": "molodka"}
    assert json.loads(json.dumps(record)) == record
    assert deal_to_record(series.deals[0], seed=5) == {**record, "seed": 5}


@pytest.mark.parametrize(
    "plans", [(B_30,), (A_SHUTOUT, A_SHUTOUT), (EGGS,), (B_30, three_tricks(0, PILES[30]))]
)
def test_a_record_replays_to_the_same_series(plans: tuple[Plan, ...]) -> None:
    series = played(*plans)
    text = json.dumps(series_to_record(series))
    again = series_from_record(text)
    assert again == series
    assert report(again) == report(series) == replay(text)


def test_a_molodka_record_replays_with_or_without_its_cards() -> None:
    series = molodka_series()
    record = series_to_record(series)
    assert series_from_record(record) == series
    record["deals"][0]["actions"][2]["cards"] = ["6H", "8H", "JH", "QH"]
    assert series_from_record(record) == series
    record["deals"][0]["actions"][2]["cards"] = ["6H", "8H", "JH"]
    with pytest.raises(RecordError) as caught:
        series_from_record(record)
    assert caught.value.to_json() == {
        "error": {"deal": 0, "action": 2, "seat": 3, "reason": describe(YardReason.MOLODKA_CARDS)}
    }


def test_report_of_a_complete_deal() -> None:
    out = replay(json.dumps(series_to_record(played(B_30))))
    assert set(out) == {"deals", "series"}
    (deal,) = out["deals"]
    assert set(deal) == REPORT_DEAL_KEYS and set(out["series"]) == REPORT_SERIES_KEYS
    assert deal == {
        "complete": True,
        "points": [90, 30],
        "tricks": [1, 2],
        "loss_points": [0, 4],
        "eggs": False,
        "next_leader": 1,
    }
    assert out["series"] == {"loss_points": [0, 4], "finished": False, "loser": None, "title": None}


def test_report_of_eggs() -> None:
    (deal,) = replay(series_to_record(played(EGGS)))["deals"]
    assert deal["eggs"] is True and deal["loss_points"] == [0, 0] and deal["points"] == [60, 60]


@pytest.mark.parametrize(
    ("stop", "points", "tricks"),
    [(0, [0, 0], [0, 0]), (3, [0, 0], [0, 0]), (4, [61, 0], [1, 0]), (7, [61, 0], [1, 0])],
)
def test_report_of_an_incomplete_deal(stop: int, points: list[int], tricks: list[int]) -> None:
    series = played(B_30, three_tricks(0, PILES[61]), stop=stop)
    out = replay(series_to_record(series))
    first, second = out["deals"]
    assert first["complete"] is True
    assert set(second) == REPORT_DEAL_KEYS
    # Dealer 0: seat 1 (team B) leads and takes the first trick.
    assert second == {
        "complete": False,
        "points": points[::-1],
        "tricks": tricks[::-1],
        "loss_points": None,
        "eggs": None,
        "next_leader": None,
    }
    assert out["series"]["finished"] is False


@pytest.mark.parametrize(
    ("plans", "loser", "title", "loss"),
    [
        ((A_SHUTOUT, A_SHUTOUT), "B", "goats", [0, 12]),
        (
            (
                EGGS,
                three_tricks(0, PILES[0], shutout=True),
                three_tricks(0, PILES[0], shutout=True),
            ),
            "A",
            "goats_with_eggs",
            [12, 0],
        ),
    ],
)
def test_report_of_a_finished_series(
    plans: tuple[Plan, ...], loser: str, title: str, loss: list[int]
) -> None:
    out = replay(json.dumps(series_to_record(played(*plans))))
    assert out["series"] == {"loss_points": loss, "finished": True, "loser": loser, "title": title}
    assert len(out["deals"]) == len(plans) and all(d["complete"] for d in out["deals"])


def bad(record: dict[str, Any]) -> dict[str, Any]:
    out = replay(json.dumps(record))
    assert set(out) == {"error"}
    return out["error"]


def test_an_illegal_action_reports_deal_action_seat_and_reason() -> None:
    record = series_to_record(played(A_SHUTOUT, B_30))
    record["deals"][1]["actions"][5] = {"seat": 1, "type": "beat", "cards": ["6D"]}
    error = bad(record)
    assert error == {"deal": 1, "action": 5, "seat": 1, "reason": describe(YardReason.WRONG_COUNT)}


def test_a_record_after_the_end_of_the_series_is_refused() -> None:
    record = series_to_record(played(A_SHUTOUT, A_SHUTOUT))
    record["deals"].append(record["deals"][0])
    assert bad(record) == {"deal": 2, "reason": "the series was already over before this deal"}
    record = series_to_record(played(A_SHUTOUT, A_SHUTOUT))
    record["deals"][1]["actions"].append({"seat": 0, "type": "lead", "cards": ["6C"]})
    error = bad(record)
    assert (error["deal"], error["action"], error["seat"]) == (1, 12, 0)
    assert error["reason"] == describe(YardReason.SERIES_OVER)


def test_a_deal_after_an_incomplete_one_is_refused() -> None:
    record = series_to_record(played(B_30))
    record["deals"][0]["actions"].pop()
    record["deals"].append(series_to_record(played(A_SHUTOUT))["deals"][0])
    assert bad(record) == {"deal": 1, "reason": "the deal before this one is not complete"}


def test_a_wrong_dealer_in_a_later_deal_is_refused() -> None:
    record = series_to_record(played(B_30, three_tricks(0, PILES[61])))
    record["deals"][1]["dealer"] = 3
    assert bad(record) == {"deal": 1, "reason": describe(Reason.BAD_DEALER)}


# --- Snapshots ------------------------------------------------------------------------------


@pytest.mark.parametrize("stop", [0, 1, 2, 5, 11])
def test_snapshot_round_trips_in_the_middle_of_a_deal(stop: int) -> None:
    plan = three_tricks(0, PILES[61])
    series = played(B_30, plan, stop=stop)
    copy = restore(snapshot(series))
    assert copy == series and copy is not series
    assert copy.current is not None and series.current is not None
    assert copy.current.view(2) == series.current.view(2)
    for action in plan.actions[stop:]:
        assert copy.apply(action) == series.apply(action)
        assert copy == series
    assert report(copy) == report(series)


def test_snapshot_after_a_molodka_and_of_an_empty_series() -> None:
    series = molodka_series()
    copy = restore(snapshot(series))
    assert copy == series
    action: Action = act("1:discard 8C 9C 6D AS")
    copy.apply(action)
    series.apply(action)
    assert copy == series
    empty = Series(first_dealer=1)
    assert restore(snapshot(empty)) == empty
    assert restore(snapshot(empty)).first_dealer == 1


def test_restore_refuses_a_record_that_is_not_a_snapshot() -> None:
    text = json.dumps(series_to_record(played(B_30)))
    with pytest.raises(RecordError) as caught:
        restore(text)
    assert "snapshot" in str(caught.value)


# --- What yard and classic records both refuse (issue 23, point 20) ---------------------------


def _both_records() -> dict[str, dict[str, Any]]:
    """A short legal record of each rule set."""
    from core.classic.game import ClassicGame
    from core.classic.record import game_to_record

    classic = ClassicGame(first_dealer=3)
    classic.deal(random.Random(3))
    classic.apply(classic.legal_actions()[0])
    return {"yard": series_to_record(played(B_30)), "classic": game_to_record(classic)}


def _reason(text: str) -> str:
    out = replay(text)
    assert set(out) == {"error"}, out
    reason: str = out["error"]["reason"]
    return reason


@pytest.mark.parametrize("variant", ["yard", "classic"])
def test_yard_records_reject_what_classic_records_reject(variant: str) -> None:
    """Regression: a yard record with an unknown option, a seed of "x", NaN or a number
    of 5,000 digits replayed (or failed with Python's advice), and one without
    ``variant`` was read as yard and failed on its deck."""
    record = _both_records()[variant]
    assert "error" not in replay(json.dumps(record))

    def text(**changes: Any) -> str:
        return json.dumps({**record, **changes})

    assert (
        _reason(text(options={"colour": "red"}))
        == "options: colour: Extra inputs are not permitted"
    )
    assert _reason(text(options=[1])) == "options must be an object"
    nan = text(options={}).replace('"options": {}', '"options": {"colour": NaN}')
    assert _reason(nan) == "invalid JSON: NaN is not a number of JSON"
    for number in ("1" + "0" * 5000, "-1" + "0" * 30, "1e999", "-Infinity"):
        reason = _reason(json.dumps(record).replace('"dealer": 3', f'"dealer": {number}', 1))
        assert reason in (
            "invalid JSON: a number out of range",
            "invalid JSON: -Infinity is not a number of JSON",
        ), reason
        assert "sys.set_int_max_str_digits" not in reason
    missing = {key: value for key, value in record.items() if key != "variant"}
    assert _reason(json.dumps(missing)) == (
        "variant is missing (this replay knows 'yard', 'classic')"
    )


def test_a_yard_records_seed_is_an_integer_or_null() -> None:
    record = series_to_record(played(B_30), seed=7)
    assert "error" not in replay(record)
    assert "error" not in replay({**record, "seed": None})
    for seed in ("x", 1.5, True, [1]):
        assert _reason(json.dumps({**record, "seed": seed})) == (
            f"seed must be an integer or null, not {seed!r}"
        )


def test_a_classic_records_seed_may_be_any_value() -> None:
    """docs/rules/reference.md §3.5: "seed: any value; the replay ignores it" (NaN is still not
    JSON)."""
    record = _both_records()["classic"]
    for seed in ("x", 1.5, None, [1]):
        assert "error" not in replay({**record, "seed": seed})
