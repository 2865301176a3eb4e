"""The ``kozel`` command: ``kozel replay FILE...`` and ``kozel play``."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="kozel", description="Kozel (Козёл), the card game.")
    commands = parser.add_subparsers(dest="command", required=True)
    replay_cmd = commands.add_parser("replay", help="replay game records and print results")
    replay_cmd.add_argument("files", nargs="+", metavar="FILE")
    play_cmd = commands.add_parser("play", help="play in the terminal against computer players")
    from adapters.console import add_arguments

    add_arguments(play_cmd)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "replay":
        return replay_files(args.files, sys.stdout)
    if args.command == "play":
        import asyncio

        from pydantic import ValidationError

        from adapters.console import run
        from bot.settings import Settings, settings_problem

        try:
            settings = Settings()
        except ValidationError as error:
            print(settings_problem(error), file=sys.stderr)
            return 2
        try:
            return asyncio.run(run(args, settings, sys.stdout))
        except KeyboardInterrupt:  # Ctrl-C: the game is saved, and the console said so
            return 0
    return 2  # pragma: no cover - argparse rejects unknown commands


if __name__ == "__main__":
    sys.exit(main())
