"""The ``kozel`` command: ``kozel replay FILE...``, ``kozel play`` and ``kozel rules``.

Command-line errors are said in the language of ``--lang`` (else ``DEFAULT_LOCALE``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO

from core.record import replay

#: The largest record file ``kozel replay`` reads: a whole game's record is tens of
#: kilobytes, and parsing takes some 25 times a file's size in memory (a 100 MB file
#: took 2.7 GB), so a larger file is refused before it is read.
MAX_RECORD_BYTES = 8 * 1024 * 1024


class RecordTooLarge(Exception):
    """A record file over :data:`MAX_RECORD_BYTES`."""


def read_record(path: str, limit: int = MAX_RECORD_BYTES) -> bytes:
    """The bytes of a record file of at most ``limit`` bytes; raise
    :class:`RecordTooLarge` for a larger one (without reading it whole, even from a
    pipe or a device, whose size is not known beforehand) and :class:`OSError`."""
    with Path(path).open("rb") as file:
        if os.fstat(file.fileno()).st_size > limit:
            raise RecordTooLarge
        data = file.read(limit + 1)
    if len(data) > limit:
        raise RecordTooLarge
    return data


def replay_files(paths: Sequence[str], out: TextIO, limit: int = MAX_RECORD_BYTES) -> int:
    """Replay each record file and print one JSON object per line, in order; a file
    over ``limit`` bytes is an error, not read.

    Returns 2 if any file had an error, else 0.
    """
    status = 0
    for path in paths:
        try:
            text = read_record(path, limit)
        except RecordTooLarge:
            result: dict[str, object] = {
                "error": {
                    "reason": f"{path} is larger than {limit:,} bytes, the most a record may be"
                }
            }
        except OSError as error:
            result = {"error": {"reason": f"cannot read {path}: {error.strerror or error}"}}
        else:
            result = replay(text)
        if "error" in result:
            status = 2
        out.write(json.dumps(result, ensure_ascii=False) + "\n")
    return status


#: argparse's own error messages (Python 3.11+) and the locale ids that say them.
_ARGPARSE_ERRORS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), msg_id)
    for pattern, msg_id in (
        (
            r"argument (?P<argument>[^:]+): invalid choice: (?P<value>.*?) "
            r"\(choose from (?P<choices>.*)\)",
            "cli-invalid-choice",
        ),
        (
            r"argument (?P<argument>[^:]+): invalid (int|float) value: (?P<value>.*)",
            "cli-invalid-number",
        ),
        (r"argument (?P<argument>[^:]+): expected one argument", "cli-expected-value"),
        (r"unrecognized arguments: (?P<words>.*)", "cli-unrecognized"),
        (r"the following arguments are required: (?P<arguments>.*)", "cli-required"),
    )
)


class Parser(argparse.ArgumentParser):
    """An argument parser that says its errors in ``locale`` (``ru`` or ``en``)."""

    def __init__(self, *args: Any, locale: str = "en", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.locale = locale

    def error(self, message: str) -> NoReturn:
        from bot.i18n import Translator

        tr = Translator.from_dir()
        problem = message
        for pattern, msg_id in _ARGPARSE_ERRORS:
            match = pattern.fullmatch(message)
            if match is not None:
                fields = {key: _unquote(value) for key, value in match.groupdict().items()}
                problem = tr.t(self.locale, msg_id, **fields)
                break
        self.exit(
            2,
            tr.t(self.locale, "cli-error", prog=self.prog, problem=problem)
            + "\n"
            + tr.t(self.locale, "cli-see-help", prog=self.prog)
            + "\n",
        )


def _unquote(text: str) -> str:
    return text.replace("'", "")


def language_of(argv: Sequence[str], default: str | None = None) -> str:
    """The language of a command line: its ``--lang``, else ``default``, else
    ``DEFAULT_LOCALE``, else Russian (read before the arguments are parsed, to say
    their errors in it).

    >>> language_of(["play", "--lang", "en"]), language_of(["play", "--lang=ru"], "en")
    ('en', 'ru')
    """
    from bot.i18n import normalize_locale

    for index, word in enumerate(argv):
        if word.startswith("--lang="):
            return normalize_locale(word.partition("=")[2], "ru")
        if word == "--lang" and index + 1 < len(argv):
            return normalize_locale(argv[index + 1], "ru")
    if default is not None:
        return default
    try:
        from bot.settings import settings_of

        return settings_of(("default_locale",)).default_locale
    except Exception:  # a bad DEFAULT_LOCALE is reported when the command runs
        return "ru"


def build_parser(locale: str = "en") -> argparse.ArgumentParser:
    parser = Parser(prog="kozel", description="Kozel (Козёл), the card game.", locale=locale)
    commands = parser.add_subparsers(dest="command", required=True)
    replay_cmd = commands.add_parser(
        "replay", help="replay game records and print results", locale=locale
    )
    replay_cmd.add_argument("files", nargs="+", metavar="FILE")
    play_cmd = commands.add_parser(
        "play", help="play in the terminal against computer players", locale=locale
    )
    from adapters.console import add_arguments, add_rules_arguments

    add_arguments(play_cmd)
    rules_cmd = commands.add_parser(
        "rules", help="print the rules of a rule set and its options", locale=locale
    )
    add_rules_arguments(rules_cmd)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    args = build_parser(language_of(words)).parse_args(words)
    if args.command == "replay":
        return replay_files(args.files, sys.stdout)
    if args.command == "rules":
        from pydantic import ValidationError

        from adapters.console import RULES_SETTINGS_READ, print_rules
        from bot.settings import settings_of, settings_problem

        try:  # only what it reads: a bot's bad setting does not stop it
            settings = settings_of(RULES_SETTINGS_READ)
        except ValidationError as error:
            print(settings_problem(error), file=sys.stderr)
            return 2
        return print_rules(args, sys.stdout, settings)
    if args.command == "play":
        from pydantic import ValidationError

        from adapters.console import SETTINGS_READ, play_game
        from bot.settings import settings_of, settings_problem

        try:  # only what it reads: a bot's bad setting does not stop it
            settings = settings_of(SETTINGS_READ)
        except ValidationError as error:
            print(settings_problem(error), file=sys.stderr)
            return 2
        return play_game(args, settings, sys.stdout)
    return 2  # pragma: no cover - argparse rejects unknown commands


if __name__ == "__main__":
    sys.exit(main())
