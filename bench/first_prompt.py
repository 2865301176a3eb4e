"""How long ``kozel play`` takes to its first "Your move>": ``python -m bench.first_prompt``.

The terminal game with its defaults (strong computers in a worker process, no
delay), ``--seed 3``: two computers think before the human's first turn. Each run
starts a new ``kozel play`` on a new database, reads its output until the prompt
and ends it (end of input). ``--busy N`` keeps N busy loops running meanwhile (at
the default priority), as other programs would on a shared machine.

``--root DIR`` (repeatable) runs the code of DIR (on ``PYTHONPATH``), the runs of
each alternating, e.g. a release before (``git archive <commit> | tar -x -C DIR``,
with the compiled ``core/ai/_playout*.so`` copied in) against this checkout.

Prints, for each root, every run's seconds to the prompt (sorted) and the median.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROMPT = b"Your move>"
ROOT = Path(__file__).resolve().parents[1]


async def first_prompt(root: Path) -> float:
    """Seconds from starting ``kozel play`` with the code of ``root`` to its prompt."""
    with tempfile.TemporaryDirectory() as folder:
        env = {
            "DATABASE_URL": f"sqlite:///{folder}/kozel.sqlite3",
            "PATH": "/usr/bin:/bin",
            "PYTHONPATH": str(root),
        }
        started = time.perf_counter()
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            "import sys; from bot.cli import main; sys.exit(main())",
            *("play", "--seed", "3", "--lang", "en", "--delay", "0"),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL,
            env=env,
            cwd=root,  # ``-c`` puts the working folder first on the path
        )
        assert process.stdin is not None and process.stdout is not None
        seen = b""
        while PROMPT not in seen:
            chunk = await process.stdout.read(4096)
            if not chunk:
                raise RuntimeError(f"kozel play ended before its prompt: {seen.decode()}")
            seen += chunk
        took = time.perf_counter() - started
        process.stdin.close()
        await process.wait()
    return took


async def measure(roots: list[Path], runs: int) -> dict[Path, list[float]]:
    times: dict[Path, list[float]] = {root: [] for root in roots}
    for _ in range(runs):
        for root in roots:
            times[root].append(await first_prompt(root))
    return times


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.first_prompt", description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--busy", type=int, default=0, help="busy loops meanwhile")
    parser.add_argument("--root", type=Path, action="append", help="code to run (repeatable)")
    args = parser.parse_args(argv)
    roots = [root.resolve() for root in args.root or [ROOT]]
    loops = [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(args.busy)]
    try:
        times = asyncio.run(measure(roots, args.runs))
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()
    for root, seconds in times.items():
        runs = " ".join(f"{value:.2f}" for value in sorted(seconds))
        print(f"{root}: {runs} (median {statistics.median(seconds):.2f} s)")


if __name__ == "__main__":
    main()
