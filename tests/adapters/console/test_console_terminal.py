"""``kozel play`` and ``kozel rules`` in a terminal (issue 23, points 14-18): a saved game
meets what the command asked, the record's path, the rules one key away, ``a``, the
help and the seats, log lines off the screen, errors in the chosen language.

The tests that need a real terminal run the ``kozel`` script on a pseudo-terminal and
wait for the text they expect (the prompt), never for a time."""

from __future__ import annotations

import asyncio
import io
import json
import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from adapters.console import play_main
from adapters.console.play import YOU
from adapters.sqlite import SqliteStorage
from bot.cli import main
from bot.models import GameStatus
from bot.options import option_value_words, options_of
from core.ruleset import rule_set_ids
from tests.adapters.console.test_console import lines, run_console, settings

KOZEL = str(Path(sys.executable).parent / "kozel")


def env_for(tmp_path: Path, **more: str) -> dict[str, str]:
    return {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'kozel.sqlite3'}",
        "PATH": "/usr/bin:/bin",
        "COMPUTER_LEVEL": "normal",
        **more,
    }


async def open_games(tmp_path: Path) -> list[tuple[str, GameStatus, int | None]]:
    """The rules, status and the human's seat of every game in the database."""
    async with await SqliteStorage.open(tmp_path / "kozel.sqlite3") as storage:
        out = []
        for game_id in range(1, 20):
            game = await storage.load_game(game_id)
            if game is not None:
                out.append((game.settings.rule_set, game.status, game.seat_of(YOU.ref)))
        return out


# --- Point 14: a saved game and what the command asked ----------------------------------------


def test_a_saved_game_says_what_it_plays_beside_what_was_asked_and_new_abandons_it(
    tmp_path: Path,
) -> None:
    """Regression: after a yard game, ``kozel play --rules classic`` silently resumed the
    yard game. It still resumes it (nothing is lost by a typo), says what is saved and
    what was asked, and ``--new`` abandons it for what was asked."""
    status, _ = run_console(tmp_path, lines("a"), "--seed", "4", "--lang", "en")
    assert status == 0
    _, text = run_console(
        tmp_path, lines("q"), "--rules", "classic", "--option", "praise=pants", "--lang", "en"
    )
    assert "Your unfinished game is back on the table." in text
    assert (
        "The saved game is Yard Kozel, 4 cards, computers: normal, but you asked for "
        "Classic Kozel, praise: pants, computers: normal. It goes on as saved; to abandon "
        "it and start what you asked, run: kozel play --new" in text
    )
    assert asyncio.run(open_games(tmp_path)) == [("yard", GameStatus.PLAYING, 0)]
    # The same rules as saved: nothing to say but that it is back.
    _, same = run_console(tmp_path, lines("q"), "--rules", "yard", "--lang", "en")
    assert "you asked for" not in same
    # A level that differs is said too.
    _, level = run_console(tmp_path, lines("q"), "--level", "easy", "--lang", "en")
    assert "computers: normal, but you asked for Yard Kozel, 4 cards, computers: easy" in level
    _, new = run_console(
        tmp_path,
        lines("q"),
        "--rules",
        "classic",
        "--option",
        "praise=pants",
        "--new",
        "--lang",
        "en",
    )
    assert "The saved game (Yard Kozel, 4 cards, computers: normal) is abandoned" in new
    assert "Classic Kozel" in new and "Your unfinished game" not in new
    assert asyncio.run(open_games(tmp_path)) == [
        ("yard", GameStatus.CANCELLED, 0),
        ("classic", GameStatus.PLAYING, 0),
    ]
    assert (
        "--new"
        in subprocess.run(
            [KOZEL, "play", "--help"], capture_output=True, text=True, check=True
        ).stdout
    )


# --- Point 15: the record's path before the first deal ------------------------------------------


@pytest.mark.parametrize(
    ("where", "complaint"),
    [
        ("no/such/dir/x.json", "there is no folder {folder}"),
        ("", "it is a folder"),
    ],
)
def test_record_path_is_checked_before_the_first_deal(
    tmp_path: Path, where: str, complaint: str
) -> None:
    """Regression: ``--record /no/such/dir/x.json`` failed only after the whole series
    was played, and the record was lost."""
    err = io.StringIO()
    path = str(tmp_path / where) if where else str(tmp_path)
    status = play_main(
        ["--seats", "bot,bot,bot,bot", "--seed", "5", "--lang", "en", "--record", path],
        settings=settings(tmp_path),
        err=err,
    )
    assert status == 2
    complaint = complaint.format(folder=Path(path).parent)
    assert (
        err.getvalue() == f"Cannot write the record to {path}: {complaint}. Nothing was played.\n"
    )
    assert not (tmp_path / "kozel.sqlite3").exists()  # no game was even opened


#: Root may write anywhere: as root (CI), the check runs the ``kozel`` script without the
#: capabilities that let root pass a folder's permissions (util-linux's ``setpriv``).
WITHOUT_OVERRIDE = ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]
WITHOUT_OVERRIDE += ["--inh-caps=-dac_override,-dac_read_search"]


def test_a_record_path_without_permission_is_refused_first(tmp_path: Path) -> None:
    """A folder the player may not write to is refused before the first deal."""
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    record = str(locked / "x.json")
    if os.geteuid() != 0:
        err = io.StringIO()
        args = ["--seats", "bot,bot,bot,bot", "--lang", "en", "--record", record]
        status = play_main(args, settings=settings(tmp_path), err=err)
        assert status == 2 and "no permission to write there" in err.getvalue()
        return
    command = [KOZEL, "play", "--seats", "bot,bot,bot,bot", "--lang", "en", "--record", record]
    done = subprocess.run(
        WITHOUT_OVERRIDE + command,
        env=env_for(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert "no permission to write there" in done.stderr, done.stderr
    assert not (tmp_path / "kozel.sqlite3").exists()  # nothing was opened


# --- Point 16: the rules one key away -------------------------------------------------------------


def test_r_prints_the_rules_of_the_tables_rule_set_with_its_options(tmp_path: Path) -> None:
    _, text = run_console(
        tmp_path,
        lines("r", "q"),
        "--rules",
        "classic",
        "--option",
        "praise=pants",
        "--option",
        "kocherga=off",
        "--seed",
        "3",
        "--lang",
        "ru",
    )
    rules = text[text.index("📜 Хвалёный козёл") :]
    assert "Начать: kozel play --rules classic" in rules  # the terminal's, not /kozel's
    assert "/kozel" not in rules
    options = next(line for line in rules.splitlines() if line.startswith("Настройки этого стола"))
    assert "хвалёнка: штаны" in options and "без кочерги" in options
    assert "туза не сносить" in options
    _, yard = run_console(tmp_path / "yard", lines("?", "r", "q"), "--seed", "3", "--lang", "en")
    assert "r       the rules of this table" in yard
    assert "📜 Yard Kozel, 4 cards" in yard and "This table's options" not in yard


def test_kozel_rules_prints_the_rules_in_the_players_language(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["rules", "--rules", "classic", "--option", "trump_suit=H", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("📜 Classic Kozel")
    assert "This table's options: praise: simple, kocherga" in out
    assert "trump: ♥ hearts" in out
    assert main(["rules", "--lang", "ru"]) == 0
    assert capsys.readouterr().out.startswith("📜 Козёл на 4 карты")
    assert main(["rules", "--rules", "classic", "--option", "praise=loud", "--lang", "en"]) == 2
    assert "praise takes simple, pants, mirror, choose" in capsys.readouterr().err


def test_a_card_not_offered_says_why_in_a_word(tmp_path: Path) -> None:
    """A classic hand lists the cards it may not play now with the reason: follow
    suit, the ace ban, only the declarer leads trumps."""
    _, text = run_console(
        tmp_path,
        lines(*(["a"] * 3000)),
        "--rules",
        "classic",
        "--level",
        "easy",
        "--seed",
        "4",
        "--lang",
        "en",
    )
    not_now = [line for line in text.splitlines() if line.startswith("Not now: ")]
    assert not_now, "no card was ever refused"
    reasons = {part.rpartition("(")[2].rstrip(")") for line in not_now for part in line.split("; ")}
    assert "follow suit" in reasons
    assert reasons <= {
        "follow suit",
        "a trump is led",
        "trump suit first",
        "a queen, jack or kocherga first",
        "the ace ban",
        "only the declarer leads trumps",
    }, reasons


# --- Point 17: a asks the table's computer ------------------------------------------------------


def test_a_lets_the_tables_computer_choose_not_only_the_safe_move(tmp_path: Path) -> None:
    """Regression: ``a`` played the timeout's safe move: in classic it always said
    "deal" and never praised. Now the table's computer level chooses, praises
    included."""
    record = tmp_path / "game.json"
    status, _ = run_console(
        tmp_path,
        lines(*(["a"] * 3000)),
        "--rules",
        "classic",
        "--level",
        "normal",
        "--seed",
        "4",
        "--lang",
        "en",
        "--record",
        str(record),
    )
    assert status == 0
    data = json.loads(record.read_text())
    mine = [a for deal in data["deals"] for a in deal["actions"] if a["seat"] == 0]
    decisions = [a["type"] for a in mine if a["type"] in ("deal", "praise")]
    assert "praise" in decisions, decisions  # the safe move only ever says "deal"


def test_computer_choice_may_be_an_optional_yard_molodka() -> None:
    """The service's choice for a seat is its computer's: with a molodka in hand and
    a chance to declare it, the table's computer may declare it, which the safe move
    never does."""
    import random

    from bot.memory import MemoryStorage
    from bot.models import ChatRef, Platform, User, UserRef
    from bot.service import GameService
    from core.yard.actions import ActionKind

    async def stalled(seconds: float) -> None:  # the computers never move meanwhile
        await asyncio.Event().wait()

    async def scenario() -> list[Any]:
        service = GameService(
            MemoryStorage(), rng=random.Random(1), turn_timeout=0, computer_delay=1, sleep=stalled
        )
        chat = ChatRef(Platform.CONSOLE, "t")
        me = User(UserRef(Platform.CONSOLE, "me"), "me")
        choices = []
        for _ in range(3000):
            game = await service.open_table(chat, me, rule_set="yard")
            await service.change_setting(game.id, None, me.ref, "cnormal")
            game = await service.join(game.id, None, me)
            for _ in range(3):
                game = await service.add_computer(game.id, None, me.ref)
            game = (await service.start(game.id, None, me.ref)).game
            seat = game.seat_of(me.ref)
            assert seat is not None
            legal = game.play.legal_actions(seat)
            if any(a.kind is ActionKind.MOLODKA for a in legal):
                choices.append(await service.computer_choice(game.id, me.ref))
                if len(choices) == 5:
                    break
            await service.cancel(game.id, None, me.ref)
        await service.close()
        return choices

    choices = asyncio.run(scenario())
    assert len(choices) == 5, "too few molodkas dealt"
    assert any(c is not None and c.kind is ActionKind.MOLODKA for c in choices), choices


# --- Point 18: the help, the seats, logs, errors in the language ----------------------------------


def test_play_help_names_every_option_with_its_values() -> None:
    done = subprocess.run(
        [KOZEL, "play", "--help", "--lang", "en"], capture_output=True, text=True, check=True
    )
    help_text = " ".join(done.stdout.split())  # argparse wraps the lines
    for rule_set in rule_set_ids():
        assert f"{rule_set}:" in help_text
        for option in options_of(rule_set):
            values = "|".join(option_value_words(option).split(", "))
            assert f"{option.name}={values}" in help_text, option.name
    assert "seats 0, 1, 2 and 3" in help_text


def test_you_may_sit_at_any_seat_numbered_as_the_game_numbers_it(tmp_path: Path) -> None:
    record = tmp_path / "r.json"
    status, text = run_console(
        tmp_path,
        lines(*(["a"] * 3000)),
        "--seats",
        "bot,bot,bot,you",
        "--seed",
        "4",
        "--lang",
        "en",
        "--record",
        str(record),
    )
    assert status == 0
    assert "You sit at seat 3 (seats 0 to 3 clockwise; 0 and 2 are team A)" in text
    assert "You play for team B with " in text
    assert "Your move>" in text and "The series is over" in text
    # Resumed, the human is still at seat 3.
    status, _ = run_console(tmp_path / "again", lines("a"), "--seats", "bot,you,bot,bot")
    assert asyncio.run(open_games(tmp_path / "again")) == [("yard", GameStatus.PLAYING, 1)]
    _, back = run_console(tmp_path / "again", lines("q"), "--lang", "en")
    assert "Your unfinished game is back" in back and "You play for team B with " in back


def test_command_line_errors_are_in_the_chosen_language(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for argv, words in (
        (["play", "--lang", "ru", "--level", "grandmaster"], "--level принимает easy, normal"),
        (["play", "--lang", "ru", "--seed", "x"], "--seed принимает число, а не «x»"),
        (["play", "--level", "x", "--lang", "en"], "--level takes easy, normal, strong"),
        (["play", "--lang", "ru", "--bogus"], "не понял: --bogus"),
    ):
        with pytest.raises(SystemExit) as exited:
            main(argv)
        assert exited.value.code == 2
        err = capsys.readouterr().err
        assert words in err, err
        assert "invalid choice" not in err and "usage:" not in err
    err = io.StringIO()
    assert play_main(["--lang", "ru", "--seats", "you,you,bot,bot"], err=err) == 2
    assert err.getvalue().startswith("--seats — это четыре слова you или bot")
    err = io.StringIO()
    assert play_main(["--lang", "ru", "--rules", "classic", "--option", "praise=x"], err=err) == 2
    assert err.getvalue() == (
        "--option praise=x: praise принимает simple, pants, mirror, choose, one_by_one\n"
    )


class Terminal:
    """``kozel`` (or ``program``) on a pseudo-terminal: standard input, output and
    error are the same terminal, as when a player runs it."""

    def __init__(
        self,
        args: list[str],
        env: dict[str, str],
        program: tuple[str, ...] = (KOZEL,),
        cwd: Path | None = None,
    ) -> None:
        self.master, slave = pty.openpty()
        self.process = subprocess.Popen(
            [*program, *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            cwd=cwd,
            close_fds=True,
        )
        os.close(slave)
        self.seen = b""

    def wait_for(self, text: str, times: int = 1, timeout: float = 120.0) -> str:
        """Read the screen until ``text`` has appeared ``times`` times (fail after
        ``timeout`` seconds)."""
        deadline = time.monotonic() + timeout
        while self.seen.count(text.encode()) < times:
            left = deadline - time.monotonic()
            assert left > 0, self.seen.decode(errors="replace")
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:  # the program ended and closed the terminal
                    chunk = b""
                assert chunk, self.seen.decode(errors="replace")
                self.seen += chunk
        return self.seen.decode(errors="replace")

    def type(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def finish(self) -> tuple[int, str]:
        self.process.wait(timeout=120)
        while True:
            ready, _, _ = select.select([self.master], [], [], 0)
            if not ready:
                break
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                break
            if not chunk:
                break
            self.seen += chunk
        os.close(self.master)
        return self.process.returncode, self.seen.decode(errors="replace")


def test_sigterm_ends_the_terminal_game_as_its_end_of_input_does(tmp_path: Path) -> None:
    """Issue 31, point 6: SIGTERM killed the terminal game where it stood (status -15,
    nothing closed); now the game stops as at its end of input: status 0, the game
    saved and open, the log (off the screen) saying why."""
    terminal = Terminal(
        ["play", "--lang", "en", "--delay", "0", "--seed", "4"],
        env_for(tmp_path, TMPDIR=str(tmp_path)),
    )
    terminal.wait_for("Your move>")
    terminal.process.send_signal(signal.SIGTERM)
    status, screen = terminal.finish()
    assert status == 0, screen
    assert "The game is saved" in screen and "Traceback" not in screen
    assert "INFO kozel: SIGTERM: stopping" in (tmp_path / "kozel-play.log").read_text()
    assert asyncio.run(open_games(tmp_path)) == [("yard", GameStatus.PLAYING, 0)]


def test_log_lines_never_land_inside_the_game_screen(tmp_path: Path) -> None:
    """Regression: a log line (here the error that sets aside a saved game that no
    longer loads, with its traceback) was written on the terminal amid the table.
    With standard error on the terminal it goes to a file; redirected, to stderr."""
    from tests.bot.test_storage import corrupt

    run_console(tmp_path, lines("a"), "--seed", "4", "--lang", "en")

    async def break_it() -> None:
        async with await SqliteStorage.open(tmp_path / "kozel.sqlite3") as storage:
            (game,) = await storage.active_games()
            await corrupt(storage, game.id)

    asyncio.run(break_it())
    terminal = Terminal(
        ["play", "--lang", "en", "--delay", "0", "--seed", "4"],
        env_for(tmp_path, TMPDIR=str(tmp_path)),
    )
    terminal.wait_for("Your move>")
    terminal.type("a")  # a move, so that the next game has one to break
    terminal.wait_for("Your move>", times=2)
    terminal.type("q")
    status, screen = terminal.finish()
    assert status == 0, screen
    assert "Kozel in the terminal." in screen and "The game is saved" in screen
    assert "set aside" not in screen and "Traceback" not in screen
    log = (tmp_path / "kozel-play.log").read_text()
    assert "is set aside" in log and "Traceback" in log

    # Standard error redirected (an operator's 2>file): the lines go there, the screen
    # stays clean; --log names a file.
    asyncio.run(break_it())
    done = subprocess.run(
        [KOZEL, "play", "--lang", "en", "--delay", "0"],
        input="a\nq\n",
        capture_output=True,
        text=True,
        env=env_for(tmp_path),
        timeout=120,
        check=False,
    )
    assert "is set aside" in done.stderr and "set aside" not in done.stdout
    asyncio.run(break_it())
    named = tmp_path / "named.log"
    done = subprocess.run(
        [KOZEL, "play", "--lang", "en", "--delay", "0", "--log", str(named)],
        input="a\nq\n",
        capture_output=True,
        text=True,
        env=env_for(tmp_path),
        timeout=120,
        check=False,
    )
    assert "set aside" not in done.stderr + done.stdout
    assert "is set aside" in named.read_text()


def test_a_log_file_that_cannot_be_written_is_refused_before_the_game(tmp_path: Path) -> None:
    err = io.StringIO()
    missing = tmp_path / "no" / "kozel.log"
    status = play_main(
        ["--lang", "en", "--log", str(missing)], settings=settings(tmp_path), err=err
    )
    assert status == 2
    assert err.getvalue() == (
        f"Cannot write the log to {missing} (No such file or directory). Nothing was played.\n"
    )
    assert not (tmp_path / "kozel.sqlite3").exists()
