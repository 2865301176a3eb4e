"""Result picture benchmark (issue 25): ``python -m bench.pictures``.

How long :func:`bot.pictures.result_picture` takes for a finished yard game (a
series played to its end with the first legal action each time), its four players
named in Cyrillic only (``plain``) or with emoji and CJK (``emoji``: ``Аня 🐐``,
``🔥Макс🔥``, ``王小明``, ``Ён 👨‍👩‍👧 🇷🇺``, drawn with the fallback fonts), after one
warm-up picture each (the fonts and their character tables are read once a
process). Prints ``name: value`` lines, p50 and p99 in milliseconds.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence

from bench.stats import percentile
from bot.i18n import Translator
from bot.models import ChatRef, Game, GameStatus, Platform, Seat, SeatKind, TableSettings, UserRef
from bot.pictures import result_picture
from core.yard.ruleset import YardGame
from core.yard.series import Series

NAMES = {
    "plain": ("Аня", "Борис", "Вера", "Глеб"),
    "emoji": ("Аня 🐐", "🔥Макс🔥", "王小明", "Ён 👨‍👩‍👧 🇷🇺"),
}


def finished_series(seed: int = 1) -> Series:
    """A yard series played to its end with the first legal action each time."""
    series = Series(first_dealer=3)
    rng = random.Random(seed)
    while not series.is_over:
        series.deal(rng)
        deal = series.current
        assert deal is not None
        while not deal.is_over:
            series.apply(series.legal_actions()[0])
    return series


def finished_table(play: object, names: Sequence[str] = NAMES["plain"]) -> Game:
    """A finished game of ``play`` with four people named ``names`` at its seats."""
    seats: list[Seat | None] = [
        Seat(SeatKind.HUMAN, name, UserRef(Platform.TELEGRAM, str(n)))
        for n, name in enumerate(names)
    ]
    return Game(
        1,
        ChatRef(Platform.TELEGRAM, "-1"),
        UserRef(Platform.TELEGRAM, "0"),
        status=GameStatus.FINISHED,
        settings=TableSettings(),
        seats=seats,
        play=play,  # type: ignore[arg-type]
    )


def finished_game(names: Sequence[str], seed: int = 1) -> Game:
    """A finished yard game of four people named ``names``."""
    return finished_table(YardGame(finished_series(seed)), names)


def measure(runs: int) -> dict[str, float]:
    tr = Translator.from_dir()
    changes = {0: 23, 1: -12, 2: 23, 3: -12}
    out: dict[str, float] = {}
    for label, names in NAMES.items():
        game = finished_game(names)
        assert result_picture(game, tr, "ru", changes) is not None  # warm-up
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            result_picture(game, tr, "ru", changes)
            times.append((time.perf_counter() - start) * 1000)
        out[f"{label}_p50_ms"] = percentile(times, 50)
        out[f"{label}_p99_ms"] = percentile(times, 99)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    args = parser.parse_args()
    for name, value in measure(args.runs).items():
        print(f"{name}: {value:.1f}")


if __name__ == "__main__":
    main()
