"""Console play: a series in the terminal, by input piped in, and computers only."""

from __future__ import annotations

import asyncio
import io
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from adapters.console import play_main
from adapters.console.play import choose_action, parse_move
from adapters.sqlite import SqliteStorage
from bot.models import GameStatus
from bot.settings import Settings
from core.cards import Card
from core.record import replay
from core.yard.actions import Action, ActionKind


def settings(tmp_path: Path) -> Settings:
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        database_url=f"sqlite:///{tmp_path / 'kozel.sqlite3'}",
        default_locale="en",
    )


def lines(*items: str) -> Iterator[str]:
    yield from items


def reader(inputs: Iterator[str]):  # type: ignore[no-untyped-def]
    async def read_line() -> str | None:
        return next(inputs, None)

    return read_line


def run_console(tmp_path: Path, inputs: Iterator[str], *args: str) -> tuple[int, str]:
    from adapters.console.play import build_parser, run

    out = io.StringIO()
    parsed = build_parser().parse_args(["--delay", "0", *args])
    status = asyncio.run(run(parsed, settings(tmp_path), out, reader(inputs)))
    return status, out.getvalue()


def test_a_human_finishes_a_series_with_typed_moves(tmp_path: Path) -> None:
    moves = lines("?", "hello", "9", "b", "1 1", *(["a"] * 2000))
    status, text = run_console(tmp_path, moves, "--seed", "4", "--lang", "en")
    assert status == 0
    assert "Not understood: “hello”" in text
    assert "There is no card 9 in your hand." in text
    assert "The series is over" in text
    assert "goats" in text.lower()


def test_end_of_input_saves_and_the_next_run_resumes(tmp_path: Path) -> None:
    status, text = run_console(tmp_path, lines("a", "a"), "--seed", "8", "--lang", "en")
    assert status == 0 and "The game is saved" in text

    async def open_games() -> list[int]:
        async with await SqliteStorage.open(tmp_path / "kozel.sqlite3") as storage:
            return [g.id for g in await storage.active_games() if g.status is GameStatus.PLAYING]

    before = asyncio.run(open_games())
    assert len(before) == 1
    status, text = run_console(tmp_path, lines("a", "q"), "--lang", "en")
    assert "Your unfinished game is back on the table." in text
    assert asyncio.run(open_games()) == before


def test_typed_numbers_name_the_cards_and_the_move() -> None:
    hand = tuple(Card.parse(code) for code in ("7H", "AH", "6S", "KD"))
    assert parse_move("1 2", hand, leading=True) == ("lead", (hand[0], hand[1]))
    assert parse_move("b 2", hand, leading=False) == ("beat", (hand[1],))
    assert parse_move("d 3,4", hand, leading=False) == ("discard", (hand[2], hand[3]))
    assert parse_move("m", hand, leading=False) == ("molodka", ())
    for bad, complaint in (
        ("5", "console-no-such-card"),
        ("x", "console-not-understood"),
        ("m 1", "console-not-understood"),
        ("", "console-not-understood"),
    ):
        with pytest.raises(ValueError) as refused:
            parse_move(bad, hand, leading=True)
        assert refused.value.args[0] == complaint
    # A plain "play" beats when the cards beat the trick, and discards otherwise.
    beat = Action(1, ActionKind.BEAT, (hand[1],))
    legal = [beat, Action(1, ActionKind.DISCARD, (hand[1],))]
    assert choose_action("play", (hand[1],), 1, legal) == beat
    assert choose_action("play", (hand[0],), 1, legal).kind is ActionKind.DISCARD
    assert choose_action("molodka", (), 1, legal) == Action.molodka(1)


def test_computers_only_series_writes_a_record_that_replays(tmp_path: Path) -> None:
    record = tmp_path / "series.json"
    out = io.StringIO()
    status = play_main(
        ["--seats", "bot,bot,bot,bot", "--seed", "5", "--lang", "en", "--record", str(record)],
        settings=settings(tmp_path),
        out=out,
    )
    assert status == 0
    data = json.loads(record.read_text())
    result = replay(data)
    assert result["series"]["finished"] is True
    loss = result["series"]["loss_points"]
    assert f"Loss points: team A {loss[0]}, team B {loss[1]}." in out.getvalue()
    # The same seed plays the same series.
    again = tmp_path / "again.json"
    play_main(
        ["--seats", "bot,bot,bot,bot", "--seed", "5", "--record", str(again)],
        settings=settings(tmp_path),
        out=io.StringIO(),
    )
    assert json.loads(again.read_text()) == data


def test_bad_seats_are_refused(tmp_path: Path) -> None:
    out = io.StringIO()
    status = play_main(["--seats", "bot,you,bot,bot"], settings=settings(tmp_path), out=out)
    assert status == 2 and "--seats" in out.getvalue()


def test_kozel_play_as_a_command_with_piped_input(tmp_path: Path) -> None:
    """The real script: input through a pipe, end of input ends cleanly."""
    script = Path(sys.executable).parent / "kozel"
    done = subprocess.run(
        [str(script), "play", "--seed", "3", "--lang", "ru", "--delay", "0"],
        input="?\nx\n" + "a\n" * 3000,
        capture_output=True,
        text=True,
        timeout=120,
        env={"DATABASE_URL": f"sqlite:///{tmp_path / 'k.sqlite3'}", "PATH": "/usr/bin:/bin"},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Не понял: «x»" in done.stdout
    assert "Партия окончена" in done.stdout
    assert "Traceback" not in done.stderr


def test_the_humans_own_moves_read_as_his_not_player_you_to_play(tmp_path: Path) -> None:
    """«Ваш ход», «Вы скидываете…», "Your turn", "You lead": the table and the log
    speak to the human of his own moves, never of "Player (you)"."""
    moves = lines(*(["a"] * 40))
    _, english = run_console(tmp_path / "en", moves, "--seed", "4", "--lang", "en")
    assert "⏳ Your turn" in english
    assert any(f"You {verb}" in english for verb in ("lead", "beat", "discard"))
    for verb in ("to play", "leads", "beats", "discards", "deals", "takes", "drawn by"):
        assert f"Player (you) {verb}" not in english
    assert not any(f"You {verb}" in english for verb in ("leads", "beats", "to play", "takes"))
    _, russian = run_console(tmp_path / "ru", lines(*(["a"] * 40)), "--seed", "4", "--lang", "ru")
    assert "⏳ Ваш ход" in russian
    assert any(f"Вы {verb}" in russian for verb in ("заходите", "бьёте", "скидываете"))
    for words in ("Ходит Игрок (вы)", "Игрок (вы) заходит", "сдаёт Игрок (вы)", "заходит Игрок"):
        assert words not in russian
    assert "Ходит Вы" not in russian
