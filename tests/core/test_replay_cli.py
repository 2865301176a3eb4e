"""``kozel replay FILE...``: one JSON line per file, exit 2 on any error
(docs/rules/reference.md §3)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from core.errors import Reason, describe
from core.yard.errors import YardReason
from core.yard.record import series_to_record
from core.yard.series import Series

from .decks import PILES, Plan, three_tricks

B_30 = three_tricks(3, PILES[90])
A_SHUTOUT = three_tricks(3, PILES[0], shutout=True)


def record_of(*plans: Plan) -> dict[str, Any]:
    series = Series()
    for plan in plans:
        series.deal_from(plan.deck, plan.trump_index, dealer=plan.dealer)
        for action in plan.actions:
            series.apply(action)
    return series_to_record(series)


def write(tmp_path: Path, name: str, content: object) -> str:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_text(json.dumps(content), encoding="utf-8")
    return str(path)


def run(capsys: pytest.CaptureFixture[str], *paths: str) -> tuple[int, list[dict[str, Any]]]:
    status = main(["replay", *paths])
    out, err = capsys.readouterr()
    assert err == ""
    lines = out.splitlines()
    assert len(lines) == len(paths)
    return status, [json.loads(line) for line in lines]


def test_a_complete_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, [out] = run(capsys, write(tmp_path, "a.json", record_of(B_30)))
    assert status == 0
    assert out == {
        "deals": [
            {
                "complete": True,
                "points": [90, 30],
                "tricks": [1, 2],
                "loss_points": [0, 4],
                "eggs": False,
                "next_leader": 1,
            }
        ],
        "series": {"loss_points": [0, 4], "finished": False, "loser": None, "title": None},
    }


def test_an_incomplete_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = record_of(B_30)
    del record["deals"][0]["actions"][6:]
    status, [out] = run(capsys, write(tmp_path, "a.json", record))
    assert status == 0
    assert out["deals"] == [
        {
            "complete": False,
            "points": [90, 0],
            "tricks": [1, 0],
            "loss_points": None,
            "eggs": None,
            "next_leader": None,
        }
    ]


def test_a_finished_series(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, [out] = run(capsys, write(tmp_path, "a.json", record_of(A_SHUTOUT, A_SHUTOUT)))
    assert status == 0
    assert out["series"] == {
        "loss_points": [0, 12],
        "finished": True,
        "loser": "B",
        "title": "goats",
    }


def test_an_illegal_action(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = record_of(B_30)
    record["deals"][0]["actions"][2]["type"] = "beat"  # seat 2 "beats" four clubs with junk
    status, [out] = run(capsys, write(tmp_path, "a.json", record))
    assert status == 2
    assert out == {
        "error": {"deal": 0, "action": 2, "seat": 2, "reason": describe(YardReason.DOES_NOT_BEAT)}
    }


def deck_with(record: dict[str, Any], change: Any) -> dict[str, Any]:
    change(record["deals"][0]["deck"])
    return record


BROKEN: list[tuple[str, object, str]] = [
    ("invalid-json", '{"deals": [', "invalid JSON"),
    ("not-utf8", b"\xff\xfe\x00{", "invalid JSON"),
    ("not-an-object", "[1, 2]", "JSON object"),
    ("no-deals", {"variant": "yard"}, "list of deals"),
    ("other-variant", {"variant": "hearts", "deals": []}, "variant"),
    ("unknown-card", deck_with(record_of(B_30), lambda d: d.__setitem__(0, "1X")), "'1X'"),
    ("duplicate-card", deck_with(record_of(B_30), lambda d: d.__setitem__(0, d[1])), "twice"),
    ("missing-card", deck_with(record_of(B_30), lambda d: d.pop()), "35 cards"),
    ("empty-deck", deck_with(record_of(B_30), lambda d: d.clear()), "0 cards"),
    ("deck-with-a-number", deck_with(record_of(B_30), lambda d: d.append(7)), "7 is not a card"),
    (
        "deck-not-a-list",
        {"variant": "yard", "deals": [{"dealer": 3, "deck": "6C", "trump_index": 5}]},
        "list",
    ),
]


def trump_index(value: object) -> dict[str, Any]:
    record = record_of(B_30)
    record["deals"][0]["trump_index"] = value
    return record


def action_change(key: str, value: object) -> dict[str, Any]:
    record = record_of(B_30)
    record["deals"][0]["actions"][1][key] = value
    return record


BROKEN += [
    ("trump-index-too-big", trump_index(20), "trump_index"),
    ("trump-index-missing", trump_index(None), "trump_index"),
    ("bad-seat", action_change("seat", 4), "seat"),
    ("seat-not-int", action_change("seat", "1"), "seat"),
    ("unknown-action", action_change("type", "pass"), "'pass'"),
    ("unknown-card-in-action", action_change("cards", ["ZZ"]), "'ZZ'"),
    ("cards-not-a-list", action_change("cards", "6S"), "list"),
]


@pytest.mark.parametrize(("name", "content", "words"), BROKEN, ids=[b[0] for b in BROKEN])
def test_records_that_are_not_valid(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, content: object, words: str
) -> None:
    status, [out] = run(capsys, write(tmp_path, f"{name}.json", content))
    assert status == 2
    assert set(out) == {"error"} and isinstance(out["error"]["reason"], str)
    assert words in out["error"]["reason"]


def test_deeply_nested_json_is_an_error_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Regression: json.loads raised RecursionError (not a ValueError) and the replay
    crashed with a traceback and exit 1."""
    status, [out] = run(capsys, write(tmp_path, "deep.json", "[" * 100_000))
    assert status == 2
    assert out == {"error": {"reason": "invalid JSON: nested too deeply"}}


def test_bad_dealer_fields(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = record_of(B_30)
    record["deals"][0]["dealer"] = 4
    status, [out] = run(capsys, write(tmp_path, "a.json", record))
    assert status == 2 and out["error"]["deal"] == 0 and "dealer" in out["error"]["reason"]


def test_a_wrong_dealer_in_a_later_deal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = record_of(A_SHUTOUT, A_SHUTOUT)
    record["deals"][1]["dealer"] = 2  # seat 0 won the last trick: the dealer is 3
    status, [out] = run(capsys, write(tmp_path, "a.json", record))
    assert status == 2
    assert out == {"error": {"deal": 1, "reason": describe(Reason.BAD_DEALER)}}


def test_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = str(tmp_path / "nope.json")
    status, [out] = run(capsys, missing)
    assert status == 2
    assert set(out) == {"error"} and missing in out["error"]["reason"]


def test_several_files_one_line_each_in_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = write(tmp_path, "good.json", record_of(B_30))
    done = write(tmp_path, "done.json", record_of(A_SHUTOUT, A_SHUTOUT))
    broken = write(tmp_path, "broken.json", "{")
    status, outs = run(capsys, good, done)
    assert status == 0
    assert [o["series"]["loss_points"] for o in outs] == [[0, 4], [0, 12]]
    status, outs = run(capsys, good, broken, done, str(tmp_path / "missing.json"))
    assert status == 2
    assert ["error" in o for o in outs] == [False, True, False, True]
    assert outs[2]["series"]["finished"] is True


def kozel_script() -> str:
    found = shutil.which("kozel")
    candidate = Path(sys.executable).parent / "kozel"
    if candidate.exists():
        return str(candidate)
    assert found is not None, "the kozel console script is not installed"
    return found


def test_the_kozel_script_in_a_subprocess(tmp_path: Path) -> None:
    good = write(tmp_path, "good.json", record_of(B_30))
    broken = write(
        tmp_path, "broken.json", '{"variant": "yard", "deals": [{"dealer": 3, "deck": ["XX"]}]}'
    )
    done = subprocess.run(
        [kozel_script(), "replay", good, broken],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr == ""  # no traceback
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert first["deals"][0]["loss_points"] == [0, 4]
    assert second == {"error": {"deal": 0, "reason": "deck: unknown card code 'XX'"}}
    done = subprocess.run(
        [kozel_script(), "replay", good], capture_output=True, text=True, timeout=60, check=False
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert [json.loads(line) for line in done.stdout.splitlines()] == [first]


def test_replay_reads_at_most_a_set_size_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 23, point 6: a 100 MB record took 2.7 GB and 9.5 s. A file one byte over
    the limit (sparse: nothing big is written) is refused before it is read, in one
    line, with exit 2; a file at the limit is read."""
    from bot.cli import MAX_RECORD_BYTES

    over = tmp_path / "over.json"
    with over.open("wb") as file:
        file.truncate(MAX_RECORD_BYTES + 1)
    status, [out] = run(capsys, str(over))
    assert status == 2
    assert out == {
        "error": {
            "reason": f"{over} is larger than {MAX_RECORD_BYTES:,} bytes, the most a record may be"
        }
    }
    at_limit = tmp_path / "at.json"
    text = json.dumps(record_of(B_30)).encode()
    at_limit.write_bytes(text + b" " * (MAX_RECORD_BYTES - len(text)))
    status, [out] = run(capsys, str(at_limit))
    assert status == 0 and out["deals"][0]["loss_points"] == [0, 4]


def test_replay_of_a_stream_stops_reading_past_the_limit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A pipe or a device has no size beforehand: at most the limit and one byte are
    read (/dev/zero never ends)."""
    status, [out] = run(capsys, "/dev/zero")
    assert status == 2 and "is larger than" in out["error"]["reason"]
