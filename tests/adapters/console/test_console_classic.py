"""``kozel play --rules classic [--option name=value ...]``: classic in the terminal,
humans and computers as ``--seats``; a computers-only game leaves a record that
``kozel replay`` accepts; bad rules or options are refused with exit status 2."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from adapters.console import play_main
from bot.settings import Settings
from core.classic.options import PRESETS
from core.record import replay
from tests.adapters.console.test_console import lines, run_console, settings


def test_computers_play_classic_and_the_record_replays(tmp_path: Path) -> None:
    """Through the real ``kozel`` script: ``play``, then ``replay`` of its record."""
    script = Path(sys.executable).parent / "kozel"
    record = tmp_path / "classic.json"
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'k.sqlite3'}", "PATH": "/usr/bin:/bin"}
    played = subprocess.run(
        [
            str(script),
            "play",
            "--rules",
            "classic",
            "--option",
            "praise=pants",
            "--option",
            "kocherga=off",
            "--seats",
            "bot,bot,bot,bot",
            "--level",
            "easy",
            "--seed",
            "11",
            "--lang",
            "en",
            "--record",
            str(record),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        check=False,
    )
    assert played.returncode == 0, played.stderr
    assert "The game is over" in played.stdout
    data = json.loads(record.read_text())
    assert data["variant"] == "classic"
    assert data["options"]["praise"] == "pants" and data["options"]["kocherga"] is False
    replayed = subprocess.run(
        [str(script), "replay", str(record)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    report = json.loads(replayed.stdout)
    assert "error" not in report
    assert report == replay(data)


def test_a_human_plays_classic_with_typed_moves(tmp_path: Path) -> None:
    moves = lines("?", "hello", *(["a"] * 3000))
    status, text = run_console(
        tmp_path,
        moves,
        "--rules",
        "classic",
        "--option",
        "trump_suit=H",
        "--level",
        "easy",
        "--seed",
        "4",
        "--lang",
        "en",
    )
    assert status == 0
    assert "Classic Kozel" in text
    # "?" shows how to type classic's numbered choices, not the yard game's card sets.
    assert "take choice 3" in text and "declare a molodka" not in text
    assert "trump: ♥ hearts" in text
    assert "The game is over" in text


@pytest.mark.parametrize(
    ("args", "complaint"),
    [
        (["--option", "praise=loud"], "praise takes simple, pants, mirror, choose"),
        (["--option", "colour=red"], "not name=value of an option of classic"),
        (["--option", "kocherga"], "not name=value"),
        (["--rules", "yard", "--option", "praise=pants"], "of yard (none)"),
    ],
)
def test_bad_options_are_refused(tmp_path: Path, args: list[str], complaint: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    rules = [] if "--rules" in args else ["--rules", "classic"]
    status = play_main([*rules, *args], settings=settings(tmp_path), out=out, err=err)
    assert status == 2 and complaint in err.getvalue(), err.getvalue()
    assert not out.getvalue()
    assert not (tmp_path / "kozel.sqlite3").exists()  # nothing was opened


def test_unknown_rules_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        play_main(["--rules", "poker"], settings=settings(tmp_path), out=io.StringIO())
    assert exited.value.code == 2
    assert "--rules" in capsys.readouterr().err


def test_the_default_rules_come_from_the_settings(tmp_path: Path) -> None:
    classic = Settings(
        _env_file=None,  # type: ignore[call-arg]
        database_url=f"sqlite:///{tmp_path / 'kozel.sqlite3'}",
        default_locale="en",
        computer_level="easy",
        default_rule_set="classic",
    )
    record = tmp_path / "r.json"
    out = io.StringIO()
    status = play_main(
        ["--seats", "bot,bot,bot,bot", "--seed", "2", "--record", str(record)],
        settings=classic,
        out=out,
    )
    assert status == 0
    assert json.loads(record.read_text())["variant"] == "classic"


def test_a_human_plays_the_001_preset_and_its_record_replays(tmp_path: Path) -> None:
    """``kozel play --preset 001`` (the rules named by the preset): the compendium's game,
    its rules text at ``r``, played to the end; its record replays to the same end."""
    record = tmp_path / "001.json"
    moves = lines("r", *(["a"] * 3000))
    status, text = run_console(
        tmp_path,
        moves,
        "--preset",
        "001",
        "--level",
        "easy",
        "--seed",
        "26",
        "--lang",
        "en",
        "--record",
        str(record),
    )
    assert status == 0, text
    assert "Classic Kozel" in text and "The game is over" in text
    assert "the A♦ holder leads" in text and "Start: kozel play --rules classic" in text
    data = json.loads(record.read_text())
    assert data["variant"] == "classic" and data["options"] == PRESETS["001"].to_json()
    report = replay(data)
    assert "error" not in report and report["game"]["finished"] is True
    dealers = [entry["dealer"] for entry in data["deals"]]
    for before, after, deal in zip(dealers, dealers[1:], report["deals"], strict=False):
        stays = (deal["redeal"] and deal["pairs"] == [0, 0]) or deal["eggs"]
        assert after == (before if stays else (before + 1) % 4)


def test_an_unknown_preset_is_refused_in_the_players_language() -> None:
    err = io.StringIO()
    assert play_main(["--lang", "ru", "--rules", "classic", "--preset", "002"], err=err) == 2
    assert err.getvalue().startswith("--preset 002: у правил classic нет такого набора")
