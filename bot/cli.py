"""The ``kozel`` command: ``kozel replay FILE...``, ``kozel play`` and ``kozel rules``.

One language a run: its help, its command-line errors and what it plays are said in the
language of ``--lang`` (else ``DEFAULT_LOCALE``).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import re
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from core.record import replay

if TYPE_CHECKING:
    from bot.i18n import Translator

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
        (r"ambiguous option: (?P<option>\S+) could match (?P<matches>.*)", "cli-ambiguous"),
        (
            r"argument (?P<argument>[^:]+): ignored explicit argument (?P<value>.*)",
            "cli-no-value",
        ),
    )
)


@functools.cache
def _translator() -> Translator:
    from bot.i18n import Translator

    return Translator.from_dir()


class _Formatter(argparse.HelpFormatter):
    """argparse's help layout with a usage line that starts with ``prefix`` (argparse's
    own is English)."""

    def __init__(self, prog: str, *, prefix: str) -> None:
        super().__init__(prog)
        self.prefix = prefix

    def add_usage(
        self,
        usage: str | None,
        actions: Any,
        groups: Any,
        prefix: str | None = None,
    ) -> None:
        super().add_usage(usage, actions, groups, self.prefix if prefix is None else prefix)


class Parser(argparse.ArgumentParser):
    """An argument parser that says its help and its errors in ``locale`` (``ru`` or
    ``en``): argparse's own words (usage, the groups' titles, ``--help``) and the help
    of each argument, which takes its text from :meth:`say`."""

    def __init__(self, *args: Any, locale: str = "en", **kwargs: Any) -> None:
        self.locale = locale
        usage = _translator().t(locale, "cli-help-usage") + " "
        kwargs.setdefault("formatter_class", functools.partial(_Formatter, prefix=usage))
        add_help = kwargs.pop("add_help", True)
        kwargs["add_help"] = False  # its own -h, said in the parser's language
        super().__init__(*args, **kwargs)
        self._positionals.title = self.say("cli-help-arguments")
        self._optionals.title = self.say("cli-help-options")
        if add_help:
            self.add_argument(
                "-h", "--help", action="help", default=argparse.SUPPRESS, help=self.say("cli-help")
            )

    def say(self, msg_id: str, **args: str) -> str:
        """A text of this parser's help in its language (a ``%`` doubled: argparse
        formats help with it)."""
        return _translator().t(self.locale, msg_id, **args).replace("%", "%%")

    def error(self, message: str) -> NoReturn:
        tr = _translator()
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


def build_parser(locale: str = "en") -> Parser:
    """The ``kozel`` command's parser, its help in ``locale``."""
    parser = Parser(prog="kozel", locale=locale)
    parser.description = parser.say("cli-help-kozel")
    commands = parser.add_subparsers(
        dest="command", required=True, metavar=parser.say("cli-help-command")
    )
    from adapters.console import add_arguments, add_rules_arguments

    for name, add in (
        ("replay", _add_files),
        ("play", add_arguments),
        ("rules", add_rules_arguments),
    ):
        about = parser.say(f"cli-help-{name}")
        add(commands.add_parser(name, help=about, description=about, locale=locale))
    return parser


def _add_files(parser: Parser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help=parser.say("cli-help-files"))


def command_name(path: str, name: str) -> str:
    """How to run the program at ``path`` again: ``name`` when the search path finds
    it there (the player typed ``kozel``), else ``path`` as it was run
    (``.venv/bin/kozel``)."""
    found = shutil.which(name)
    if found is not None and os.path.realpath(found) == os.path.realpath(path):
        return name
    return path


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    program = "kozel" if argv is not None else command_name(sys.argv[0], "kozel")
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

        from adapters.console import SETTINGS_READ, Invocation, play_game
        from bot.settings import settings_of, settings_problem

        try:  # only what it reads: a bot's bad setting does not stop it
            settings = settings_of(SETTINGS_READ)
        except ValidationError as error:
            print(settings_problem(error), file=sys.stderr)
            return 2
        invocation = Invocation(f"{program} play", tuple(words[words.index("play") + 1 :]))
        return play_game(args, settings, sys.stdout, invocation=invocation)
    return 2  # pragma: no cover - argparse rejects unknown commands


if __name__ == "__main__":
    sys.exit(main())
