"""Console play: a series in the terminal, by input piped in, and computers only."""

from __future__ import annotations

import asyncio
import io
import json
import multiprocessing
import os
import random
import re
import signal
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from adapters.console import play_main
from adapters.console.play import YOU
from adapters.sqlite import SqliteStorage
from bot.i18n import Translator
from bot.models import GameStatus
from bot.presenters.yard import choose_action, parse_move
from bot.service import GameService
from bot.settings import Settings
from core.cards import Card
from core.record import replay
from core.yard.actions import Action, ActionKind
from core.yard.ai import safe_move


def settings(tmp_path: Path) -> Settings:
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        database_url=f"sqlite:///{tmp_path / 'kozel.sqlite3'}",
        default_locale="en",
        computer_level="normal",  # quick; the strong level has its own tests
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
        [
            "--seats",
            "bot,bot,bot,bot",
            "--seed",
            "5",
            "--lang",
            "en",
            "--record",
            str(record),
        ],
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
    for seats in ("bot,you,you,bot", "bot,bot,bot", "bot,bot,bot,cat"):
        out, err = io.StringIO(), io.StringIO()
        status = play_main(["--seats", seats], settings=settings(tmp_path), out=out, err=err)
        assert status == 2 and "--seats" in err.getvalue() and not out.getvalue()


#: A hang guard, not a speed limit: how long a ``kozel`` process may print nothing at
#: all before a test calls it hung. Its computers think a second at most, or give up
#: at their deadline (``COMPUTER_THINK_TIMEOUT``, 10 s): a busy machine is slower,
#: but never this silent.
SILENCE = 120.0
KOZEL = Path(sys.executable).parent / "kozel"


async def read_until(stream: asyncio.StreamReader, seen: bytearray, marker: bytes | None) -> None:
    """Read ``stream`` into ``seen`` until ``marker`` shows (None: until it ends).
    Whatever the machine's speed, the wait is for the output; it fails only when
    the process prints nothing for :data:`SILENCE` seconds, or ends first."""
    while marker is None or marker not in seen:
        chunk = await asyncio.wait_for(stream.read(4096), SILENCE)
        if not chunk:
            assert marker is None, f"the process ended before {marker!r}: {seen.decode()}"
            return
        seen += chunk


async def _kozel(args: Sequence[str], typed: str, env: dict[str, str]) -> tuple[int, str, str]:
    process = await asyncio.create_subprocess_exec(
        str(KOZEL),
        *args,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=env,
    )
    assert process.stdin is not None and process.stdout is not None
    assert process.stderr is not None
    errors = asyncio.create_task(process.stderr.read())
    process.stdin.write(typed.encode())
    process.stdin.close()
    out = bytearray()
    await read_until(process.stdout, out, None)
    status = await asyncio.wait_for(process.wait(), SILENCE)
    return status, out.decode(), (await errors).decode()


def run_kozel(args: Sequence[str], typed: str, env: dict[str, str]) -> tuple[int, str, str]:
    """The ``kozel`` script with ``typed`` piped in, run to its end: its exit status,
    output and errors (waited for by :func:`read_until`)."""
    return asyncio.run(_kozel(args, typed, env))


def test_kozel_play_as_a_command_with_piped_input(tmp_path: Path) -> None:
    """The real script: input through a pipe, end of input ends cleanly."""
    status, out, err = run_kozel(
        ["play", "--seed", "3", "--lang", "ru", "--delay", "0"],
        "?\nx\n" + "a\n" * 3000,
        {
            "DATABASE_URL": f"sqlite:///{tmp_path / 'k.sqlite3'}",
            "PATH": "/usr/bin:/bin",
            "COMPUTER_LEVEL": "normal",  # quick; the level is not the point
        },
    )
    assert status == 0, err
    assert "Не понял: «x»" in out
    assert "Партия окончена" in out
    assert "Traceback" not in err


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


# --- Interrupted games, Ctrl-C, seeds, names ------------------------------------------------


async def _stalled(seconds: float) -> None:
    """A computer's pause that never ends: the process "stops" before the move."""
    await asyncio.Event().wait()


async def save_with_computers_to_move(tmp_path: Path, seats: list[str], seed: int) -> int:
    """A game saved while a computer was to move (as when the process stopped in a
    computer's pause); returns its id."""
    from adapters.console.play import COMPUTER_CHAT, HUMAN_CHAT, ConsoleGame

    tr = Translator.from_dir()
    async with await SqliteStorage.open(tmp_path / "kozel.sqlite3") as storage:
        service = GameService(
            storage,
            rng=random.Random(seed),
            computer_delay=1.0,
            turn_timeout=0,
            sleep=_stalled,
            computer_level="normal",  # quick; the level is not the point
        )
        human = "human" in seats
        console = ConsoleGame(service, tr, "en", io.StringIO(), reader(lines()))
        game = await console.set_up(HUMAN_CHAT if human else COMPUTER_CHAT, seats, seed)
        deal = game.play.series.current
        assert deal is not None and deal.turn is not None
        if human and deal.turn == 0:  # the human moves; the computers are next
            await service.play(game.id, game.version, YOU.ref, safe_move(deal.view(0)))
        await service.close()
        saved = await storage.load_game(game.id)
    assert saved is not None and saved.play.series.current is not None
    assert saved.play.series.current.turn != 0
    return saved.id


def run_console_within(
    tmp_path: Path, inputs: Iterator[str], *args: str, timeout: float = 120.0
) -> tuple[int, str]:
    """:func:`run_console` that fails (instead of hanging) past ``timeout`` seconds."""
    from adapters.console.play import build_parser, run

    out = io.StringIO()
    parsed = build_parser().parse_args(["--delay", "0", *args])

    async def bounded() -> int:
        return await asyncio.wait_for(run(parsed, settings(tmp_path), out, reader(inputs)), timeout)

    return asyncio.run(bounded()), out.getvalue()


def test_resuming_a_game_saved_while_computers_were_to_move_goes_on(tmp_path: Path) -> None:
    """Regression: the computers of a resumed game never moved, and the prompt loop
    spun at full speed waiting for them."""
    game_id = asyncio.run(
        save_with_computers_to_move(tmp_path, ["human", "computer", "computer", "computer"], 6)
    )
    # In a process of its own: the old loop spun without yielding, so only a guard
    # from outside ends it.
    status, text, err = run_kozel(
        ["play", "--lang", "en", "--delay", "0"],
        "q\n",
        {"DATABASE_URL": f"sqlite:///{tmp_path / 'kozel.sqlite3'}", "PATH": "/usr/bin:/bin"},
    )
    assert status == 0, err
    assert "Your unfinished game is back on the table." in text
    assert "Your move>" in text and "The game is saved" in text

    async def turn() -> int | None:
        async with await SqliteStorage.open(tmp_path / "kozel.sqlite3") as storage:
            game = await storage.load_game(game_id)
            assert game is not None and game.play.series.current is not None
            return game.play.series.current.turn

    assert asyncio.run(turn()) == 0  # the computers moved up to the human


def test_an_interrupted_computers_only_run_finishes_and_writes_its_record(tmp_path: Path) -> None:
    """Regression: the computers of an interrupted computers-only series never moved
    again, so the next run never finished nor wrote its --record."""
    asyncio.run(save_with_computers_to_move(tmp_path, ["computer"] * 4, seed=5))
    record = tmp_path / "series.json"
    status, text = run_console_within(
        tmp_path, lines(), "--seats", "bot,bot,bot,bot", "--seed", "5", "--lang", "en",
        "--record", str(record),
    )  # fmt: skip
    assert status == 0
    assert "Your unfinished game is back on the table." in text
    assert "--seed" not in text  # the same seed: nothing to say
    data = json.loads(record.read_text())
    assert data["seed"] == 5
    assert replay(data)["series"]["finished"] is True


def test_a_saved_game_met_with_another_seed_says_so(tmp_path: Path) -> None:
    asyncio.run(
        save_with_computers_to_move(tmp_path, ["human", "computer", "computer", "computer"], seed=6)
    )
    _, text = run_console_within(tmp_path, lines("q"), "--seed", "7", "--lang", "en")
    assert (
        "This saved game was shuffled with --seed 6, not 7: it goes on as it was saved, "
        "and its record keeps seed 6." in text
    )
    _, again = run_console_within(tmp_path, lines("q"), "--seed", "6", "--lang", "en")
    assert "--seed" not in again


def test_the_humans_name_is_read_in_the_language_of_each_run(tmp_path: Path) -> None:
    """Regression: the name was stored translated, so a game begun in English read
    "Player (you)" in a Russian run."""
    run_console(tmp_path, lines("a"), "--seed", "4", "--lang", "en")
    # On to the series' end, whose result names the teams.
    _, russian = run_console(tmp_path, lines(*(["a"] * 400)), "--lang", "ru")
    assert "Ваша неоконченная партия снова на столе." in russian
    assert "Игрок (вы) и " in russian and "Player (you)" not in russian


def test_the_console_says_your_team_and_how_many_cards_to_follow_with(tmp_path: Path) -> None:
    _, text = run_console(tmp_path, lines(*(["a"] * 60)), "--seed", "3", "--lang", "en")
    assert "You play for team A with " in text
    follows = re.findall(r"Follow with (\d+) cards?: beat, or discard face down\.", text)
    assert follows and all(1 <= int(n) <= 4 for n in follows)
    _, russian = run_console(tmp_path / "ru", lines(*(["a"] * 60)), "--seed", "3", "--lang", "ru")
    assert "Вы играете за команду A, ваш напарник — " in russian
    assert re.search(r"Отвечайте \d+ карт(ой|ами): побейте или скиньте рубашкой вверх\.", russian)


def test_ctrl_c_at_the_prompt_stops_at_once_with_the_game_saved(tmp_path: Path) -> None:
    """Regression: Ctrl-C at the prompt left the program waiting for Enter (the line
    was read in a worker thread), then printed a traceback."""
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'k.sqlite3'}", "PATH": "/usr/bin:/bin"}
    args = ["play", "--seed", "3", "--lang", "en", "--delay", "0"]

    async def interrupt_at_the_prompt() -> tuple[int, str, str]:
        process = await asyncio.create_subprocess_exec(
            str(KOZEL),
            *args,
            stdin=asyncio.subprocess.PIPE,  # open, and nothing typed
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=env,
        )
        assert process.stdout is not None and process.stderr is not None
        errors = asyncio.create_task(process.stderr.read())
        seen = bytearray()
        await read_until(process.stdout, seen, b"Your move>")
        process.send_signal(signal.SIGINT)
        await read_until(process.stdout, seen, None)  # no Enter needed
        status = await asyncio.wait_for(process.wait(), SILENCE)
        return status, seen.decode(), (await errors).decode()

    status, out, err = asyncio.run(interrupt_at_the_prompt())
    assert status == 0, err
    assert "Traceback" not in err
    again = f"{KOZEL} {' '.join(args)}"  # the script as run: it is not on PATH here
    assert out.rstrip().endswith(f"The game is saved. To go on, run: {again}")
    _, again, _ = run_kozel(args, "q\n", env)
    assert "Your unfinished game is back on the table." in again


def test_a_second_console_on_the_same_database_is_refused(tmp_path: Path) -> None:
    async def while_held() -> tuple[int, str]:
        async with await SqliteStorage.open(tmp_path / "kozel.sqlite3", exclusive=True):
            from adapters.console.play import build_parser, run

            out = io.StringIO()
            parsed = build_parser().parse_args(["--lang", "en"])
            status = await run(parsed, settings(tmp_path), out, reader(lines("a")))
            return status, out.getvalue()

    status, text = asyncio.run(while_held())
    assert status == 1
    assert text == (
        f"The database {tmp_path / 'kozel.sqlite3'} is in use by another Kozel (the bot, "
        "or a game in another terminal). Stop that one first, or choose another database "
        "with --db.\n"
    )


def test_a_saved_game_that_no_longer_loads_is_set_aside_and_a_new_one_starts(
    tmp_path: Path,
) -> None:
    """Regression: one game whose snapshot no longer replayed stopped the console."""
    from tests.bot.test_storage import corrupt

    run_console(tmp_path, lines("a"), "--seed", "4", "--lang", "en")

    async def break_it() -> int:
        async with await SqliteStorage.open(tmp_path / "kozel.sqlite3") as storage:
            (game,) = await storage.active_games()
            await corrupt(storage, game.id)
            return game.id

    broken = asyncio.run(break_it())
    status, text = run_console(tmp_path, lines("q"), "--seed", "4", "--lang", "en")
    assert status == 0
    assert "Your unfinished game is back on the table." not in text
    assert "Kozel in the terminal." in text and "The game is saved" in text

    async def set_aside() -> dict[int, str]:
        async with await SqliteStorage.open(tmp_path / "kozel.sqlite3") as storage:
            return await storage.set_aside()

    assert list(asyncio.run(set_aside())) == [broken]


def test_level_sets_the_computers_strength(tmp_path: Path) -> None:
    # The human's game is set up, then the input ends at once (the game is saved).
    status, _ = run_console(tmp_path, lines(), "--level", "easy", "--seed", "2")
    assert status == 0

    async def levels() -> list[str]:
        async with await SqliteStorage.open(settings(tmp_path).database_url) as storage:
            games = await storage.active_games()
            return [s.level for g in games for s in g.seats if s is not None and s.is_computer]

    assert asyncio.run(levels()) == ["easy", "easy", "easy"]


def test_an_unknown_level_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        play_main(["--level", "grandmaster"], settings=settings(tmp_path), out=io.StringIO())


def test_strong_computers_think_in_worker_processes_and_play_as_in_a_thread(
    tmp_path: Path,
) -> None:
    """``kozel play --level strong`` with the pool (``COMPUTER_PROCESSES``): the same
    seeded moves as with the old worker thread, and no worker left once it ends."""
    from adapters.console.play import build_parser, run

    texts = []
    for processes in (1, 0):
        folder = tmp_path / str(processes)
        folder.mkdir()
        strong = settings(folder).model_copy(
            update={"computer_level": "strong", "computer_processes": processes}
        )
        out = io.StringIO()
        parsed = build_parser().parse_args(["--delay", "0", "--seed", "8", "--lang", "en"])
        moves = lines(*(["a"] * 6))
        assert asyncio.run(run(parsed, strong, out, reader(moves))) == 0
        texts.append(out.getvalue())
    assert "The game is saved" in texts[0]
    assert texts[0] == texts[1]
    assert multiprocessing.active_children() == []


def test_the_consoles_computers_think_at_the_players_priority(tmp_path: Path) -> None:
    """Regression: on a busy machine the first "Your move>" came after more than 120 s
    (3 s alone). Before it the strong computers think twice, in a worker process
    started for them, which the console niced 10 below itself, as the bot does to
    keep its presses first: with the CPU shared, a nice-10 process gets about a
    tenth of a nice-0 one's time, so the wait grew tenfold on top of the load. The
    player waits for his computers, so they now think at his priority, in one worker
    (one game thinks one decision at a time; a second worker only cost a start)."""
    from adapters.console.play import build_parser, run

    strong = settings(tmp_path).model_copy(
        update={"computer_level": "strong", "computer_processes": 2}
    )
    priorities: list[list[int]] = []

    async def at_the_prompt() -> str | None:
        workers = multiprocessing.active_children()
        priorities.append([os.getpriority(os.PRIO_PROCESS, w.pid or 0) for w in workers])
        return None  # the input ends: the game is saved

    parsed = build_parser().parse_args(["--delay", "0", "--seed", "3", "--lang", "en"])
    assert asyncio.run(run(parsed, strong, io.StringIO(), at_the_prompt)) == 0
    assert priorities == [[os.getpriority(os.PRIO_PROCESS, 0)]]
    assert multiprocessing.active_children() == []
