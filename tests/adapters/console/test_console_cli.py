"""The ``kozel`` command and ``make run``'s terminal game (issue 31, points 5, 11, 12):
options checked together, hints that name the command that was run, one language a
run. Through the real entry points: ``kozel``'s and ``python -m bot``'s main functions
run in this process as their scripts run them (:mod:`tests.in_process`), and the real
script and ``python -m bot`` as child processes where the process itself is the point
(a hint run as typed, a terminal)."""

from __future__ import annotations

import argparse
import itertools
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from bot import cli
from bot.cli import build_parser, command_name
from bot.i18n import Translator
from bot.options import OptionWordError, options_of, parse_option_words, presets_of
from core.errors import KozelError
from core.ruleset import get_rule_set, rule_set_ids
from tests.adapters.console.test_console_terminal import KOZEL, Terminal
from tests.in_process import Ran, run_in_process

ROOT = Path(__file__).resolve().parents[3]
CYRILLIC = re.compile("[А-Яа-яЁё]")
#: argparse's own English words, which a Russian run must not show.
ENGLISH = ("usage:", "options:", "positional arguments", "show this help", "error:")


def kozel(tmp_path: Path, *args: str, typed: str = "", **env: str) -> Ran:
    """The ``kozel`` script's entry point, run as ``KOZEL`` in ``tmp_path`` (no ``.env``)
    with only these settings, in this process."""
    return run_in_process(
        cli.main,
        [KOZEL, *args],
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", "DATABASE_URL": f"sqlite:///{tmp_path / 'k.sqlite3'}", **env},
        stdin=typed,
    )


# --- Point 5: options checked together -----------------------------------------------------------


def refuses(rule_set: str, options: Mapping[str, Any]) -> bool:
    """Whether the rule set's own validation refuses these options together."""
    try:
        get_rule_set(rule_set).options(dict(options))
    except KozelError:
        return True
    return False


def word(name: str, value: Any) -> str:
    text = (
        "none" if value is None else ("on" if value is True else "off" if value is False else value)
    )
    return f"{name}={text}"


def refused_sets() -> list[tuple[str, str | None, tuple[tuple[str, Any], ...]]]:
    """Every rule set, preset (or none; a preset of the defaults starts as none does)
    and one or two ``--option`` values of different options, in either order, that the
    rule set refuses together."""
    found = []
    for rule_set in rule_set_ids():
        values = [
            (option.name, value) for option in options_of(rule_set) for value in option.values
        ]
        starts = [(None, {}), *((name, preset) for name, preset in presets_of(rule_set) if preset)]
        for preset, base in starts:
            for size in (1, 2):
                for chosen in itertools.permutations(values, size):
                    if len({name for name, _ in chosen}) == size and refuses(
                        rule_set, {**base, **dict(chosen)}
                    ):
                        found.append((rule_set, preset, chosen))
    return found


def involved(rule_set: str, preset: str | None, chosen: tuple[tuple[str, Any], ...]) -> list[str]:
    """The options of ``chosen`` that another value of their own makes acceptable."""
    base = dict(presets_of(rule_set)).get(preset, {}) if preset else {}
    options = {**base, **dict(chosen)}
    known = {option.name: option for option in options_of(rule_set)}
    return [
        name
        for name, value in chosen
        if any(
            not refuses(rule_set, {**options, name: other})
            for other in known[name].values
            if other != value
        )
    ]


def command_line(preset: str | None, chosen: tuple[tuple[str, Any], ...]) -> list[str]:
    words = ["--preset", preset] if preset else []
    for name, value in chosen:
        words += ["--option", word(name, value)]
    return words


def test_every_set_of_options_the_rules_refuse_is_said_in_one_line_naming_them() -> None:
    """Every refused set of up to two options (each a wrong value, or one needing
    another), in either order, after a preset or none: one line in either language
    that names each option involved, never another exception."""
    tr = Translator.from_dir()
    sets = refused_sets()
    assert sets  # praise=one_by_one needs a trump_suit
    for rule_set, preset, chosen in sets:
        words = [word(name, value) for name, value in chosen]
        with pytest.raises(OptionWordError) as refused:
            parse_option_words(rule_set, words, preset)
        for locale in ("en", "ru"):
            line = tr.t(locale, refused.value.msg_id, **refused.value.fields)
            assert "\n" not in line and line.startswith("--option"), line
            for name in involved(rule_set, preset, chosen):
                assert name in line, (chosen, line)


def minimal_refused_sets() -> list[tuple[str, str | None, tuple[tuple[str, Any], ...]]]:
    """The refused sets whose every option is involved (an option that changes nothing
    of the refusal only makes another copy of it)."""
    return [
        (rule_set, preset, chosen)
        for rule_set, preset, chosen in refused_sets()
        if len(involved(rule_set, preset, chosen)) == len(chosen)
    ]


@pytest.mark.parametrize("command", ["rules", "play"])
def test_kozel_refuses_options_that_do_not_go_together_in_one_line(
    tmp_path: Path, command: str
) -> None:
    """Regression: ``kozel rules|play --rules classic --option praise=one_by_one`` (with
    or without ``--option trump_suit=H`` after it) ended in a traceback: each option
    was checked alone, as it was read. Now each refused set, in either order: exit
    status 2, one line on standard error naming the options, nothing played."""
    sets = minimal_refused_sets()
    assert ("classic", None, (("praise", "one_by_one"),)) in sets
    assert ("classic", "001", (("trump_suit", None), ("praise", "one_by_one"))) in sets
    for rule_set, preset, chosen in sets:
        done = kozel(
            tmp_path, command, "--rules", rule_set, *command_line(preset, chosen), "--lang", "en"
        )
        assert done.returncode == 2, done.stderr
        assert "Traceback" not in done.stderr and done.stdout == ""
        (line,) = done.stderr.splitlines()
        for name, value in chosen:  # as they were given
            assert word(name, value) in line, line
        if len(chosen) == 1:  # the missing one is named
            assert (
                line
                == "--option praise=one_by_one needs --option trump_suit too, one of C, S, H, D"
            )
    assert not (tmp_path / "k.sqlite3").exists()  # nothing was opened


def test_an_option_and_the_one_it_needs_are_taken_in_either_order(tmp_path: Path) -> None:
    for words in (["praise=one_by_one", "trump_suit=H"], ["trump_suit=H", "praise=one_by_one"]):
        options = [f"--option={word}" for word in words]
        rules = kozel(tmp_path, "rules", "--rules", "classic", *options, "--lang", "en")
        assert rules.returncode == 0, rules.stderr
        assert "praise: one by one" in rules.stdout and "trump: ♥ hearts" in rules.stdout
    played = kozel(tmp_path, "play", "--rules", "classic", *options, "--lang", "en", typed="q\n")
    assert played.returncode == 0, played.stderr
    assert "Classic Kozel" in played.stdout and "The game is saved" in played.stdout
    russian = kozel(tmp_path, "rules", "--rules", "classic", "--option", "praise=one_by_one")
    assert russian.returncode == 2
    assert russian.stderr == (
        "--option praise=one_by_one требует ещё --option trump_suit, одно из C, S, H, D\n"
    )


# --- Point 11: the hints name the command that was run ----------------------------------------


def test_the_resume_hints_name_the_kozel_command_that_was_run_and_work(tmp_path: Path) -> None:
    """Regression: the hint said "run the same command with --new", which does not work
    for every command; ``--seats`` and ``--seed`` of a resumed game were dropped
    silently. The hint now is the command line itself (running it abandons the saved
    game), the line that goes on leaves ``--new`` out, and what is dropped is said."""
    first = ["play", "--lang", "en", "--delay", "0", "--seed", "4"]
    done = kozel(tmp_path, *first, typed="a\nq\n", COMPUTER_LEVEL="normal")
    assert done.returncode == 0, done.stderr
    # The script is not on this PATH: the hint names it as it was run.
    assert done.stdout.rstrip().endswith(
        f"The game is saved. To go on, run: {shlex.join([KOZEL, *first])}"
    )

    asked = ["play", "--lang", "en", "--delay", "0", "--seats", "bot,you,bot,bot", "--seed", "5"]
    again = kozel(tmp_path, *asked, "--level", "easy", typed="q\n", COMPUTER_LEVEL="normal")
    hint = shlex.join([KOZEL, *asked, "--level", "easy", "--new"])
    lines = again.stdout.splitlines()
    assert lines[0] == (
        f"Your unfinished game is back on the table. To abandon it and start a new one, run: {hint}"
    )
    assert lines[1] == (
        "This saved game was shuffled with --seed 4, not 5: it goes on as it was saved,"
        " and its record keeps seed 4."
    )
    assert lines[2].endswith(
        f"computers: easy. It goes on as saved; to abandon it and start what you asked, run: {hint}"
    )
    assert lines[3] == (
        "This saved game seats you at seat 0, not at seat 1 as --seats asks: it goes on as"
        " it was saved."
    )
    assert "You play for team A" in again.stdout  # seat 0, as saved

    new = subprocess.run(
        shlex.split(hint),
        input="q\n",
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", "DATABASE_URL": f"sqlite:///{tmp_path / 'k.sqlite3'}"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert new.returncode == 0, new.stderr
    assert "is abandoned; a new one starts" in new.stdout
    assert "You play for team B" in new.stdout  # seat 1, as asked
    go_on = shlex.join([KOZEL, *asked, "--level", "easy"])
    assert new.stdout.rstrip().endswith(f"To go on, run: {go_on}")


def test_the_hint_names_kozel_as_typed_when_the_search_path_finds_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PATH", f"{Path(KOZEL).parent}:/usr/bin:/bin")
    assert command_name(KOZEL, "kozel") == "kozel"
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    assert command_name(KOZEL, "kozel") == KOZEL
    assert command_name(".venv/bin/kozel", "kozel") == ".venv/bin/kozel"


def test_make_run_takes_the_terminal_games_arguments_and_its_hints_name_it(
    tmp_path: Path,
) -> None:
    """Regression: with ``make run`` the hint "run the same command with --new" meant
    ``make run --new`` (make's own usage text), and ``python -m bot`` took no
    argument of the game. ``make run ARGS=...`` passes them, and the hints say so."""
    env = {
        "PATH": "/usr/bin:/bin",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'k.sqlite3'}",
        "COMPUTER_LEVEL": "normal",
        "TMPDIR": str(tmp_path),
    }
    saved = kozel(
        tmp_path, "play", "--lang", "en", "--delay", "0", typed="q\n", COMPUTER_LEVEL="normal"
    )
    assert saved.returncode == 0, saved.stderr
    bot = (sys.executable, "-m", "bot")
    words = ["--lang", "en", "--delay", "0"]
    terminal = Terminal(words, {**env, "KOZEL_COMMAND": "make run"}, bot, cwd=tmp_path)
    terminal.wait_for("Your move>")
    terminal.type("q")
    status, screen = terminal.finish()
    assert status == 0, screen
    assert (
        "To abandon it and start a new one, run: make run ARGS='--lang en --delay 0 --new'"
        in screen
    )
    assert "The game is saved. To go on, run: make run ARGS='--lang en --delay 0'" in screen
    # The Makefile passes ARGS to python -m bot, and names itself.
    # Not make's own words of an outer make (make test runs this suite): MAKELEVEL makes
    # it say the folder it enters and leaves.
    outer = ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")
    dry = subprocess.run(
        ["make", "--no-print-directory", "-n", "run", "ARGS=--lang en --delay 0 --new"],
        cwd=ROOT,
        env={name: value for name, value in os.environ.items() if name not in outer},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert dry.stdout.splitlines()[-1] == (
        'KOZEL_COMMAND="make run" .venv/bin/python -m bot --lang en --delay 0 --new'
    )
    terminal = Terminal([*words, "--new"], env, bot, cwd=tmp_path)
    terminal.wait_for("Your move>")
    terminal.type("q")
    status, screen = terminal.finish()
    assert status == 0, screen
    assert "is abandoned; a new one starts" in screen
    # Without KOZEL_COMMAND the hint is python -m bot as it was run.
    assert f"To go on, run: {sys.executable} -m bot --lang en --delay 0\r\n" in screen


# --- Point 12: one language a run ----------------------------------------------------------------

#: Each run's ``--lang`` words, its settings, and the language it must speak throughout.
RUNS = [
    (["--lang", "en"], {}, "en"),
    (["--lang", "ru"], {"DEFAULT_LOCALE": "en"}, "ru"),
    ([], {}, "ru"),  # DEFAULT_LOCALE's default
    ([], {"DEFAULT_LOCALE": "en"}, "en"),
]
COMMANDS = [
    ["--help"],
    ["play", "--help"],
    ["rules", "--help"],
    ["play", "--level", "grandmaster"],  # a usage error
    ["rules", "--rules", "classic", "--option", "praise=one_by_one"],  # a rules error
]


@pytest.mark.parametrize(("lang", "settings", "language"), RUNS)
def test_kozel_speaks_one_language_a_run(
    tmp_path: Path, lang: list[str], settings: dict[str, str], language: str
) -> None:
    """Regression: ``kozel``'s errors were Russian while its ``--help`` was English.
    Help, usage errors and rules errors are all in ``--lang``, else DEFAULT_LOCALE."""
    for command in COMMANDS:
        done = kozel(tmp_path, *command, *lang, **settings)
        said = done.stdout + done.stderr
        assert done.returncode == (0 if "--help" in command else 2), said
        if language == "en":
            assert not CYRILLIC.search(said), said
            assert "usage:" in said or "takes" in said or "needs" in said, said
        else:
            assert CYRILLIC.search(said), said
            for english in ENGLISH:
                assert english not in said, said


def parsers(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    """The parser and those of its commands."""
    found = [parser]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                found += parsers(sub)
    return found


@pytest.mark.parametrize("language", ["en", "ru"])
def test_every_help_text_of_kozel_is_in_the_runs_language(language: str) -> None:
    """Each argument's help, each description and group title, of every command: an
    argument added in one language only is caught here."""
    for parser in parsers(build_parser(language)):
        texts = [parser.description or ""]
        texts += [group.title or "" for group in parser._action_groups]
        texts += [a.help for a in parser._actions if a.help and a.help != argparse.SUPPRESS]
        for text in texts:
            assert bool(CYRILLIC.search(text)) == (language == "ru"), (parser.prog, text)
