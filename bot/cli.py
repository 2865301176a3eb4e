"""The ``kozel`` command: ``kozel replay FILE...`` and ``kozel play``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from core.record import replay


def replay_files(paths: Sequence[str], out: TextIO) -> int:
    """Replay each record file and print one JSON object per line, in order.

    Returns 2 if any file had an error, else 0.
    """
    status = 0
    for path in paths:
        try:
            text = Path(path).read_bytes()
        except OSError as error:
            result: dict[str, object] = {
                "error": {"reason": f"cannot read {path}: {error.strerror or error}"}
            }
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
