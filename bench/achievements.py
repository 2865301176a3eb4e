"""Achievements benchmark (issue 25): ``python -m bench.achievements``.

What the achievements of a finished game cost, on a SQLite file (the default
storage): a yard series and a classic game are played to their end once (first legal
action each time, seeded), and the step that finished each is taken again
``--runs`` times, each time at a new table of four new human players (so every
achievement and progress row is new: the costliest case):

- ``decide``: the step's moments (:meth:`bot.service.awards.Awarding.moments`, the
  rule set's presenter reading the events) and the awards
  (:meth:`~bot.service.awards.Awarding.awards`: the four players' progress read
  from the database, then :func:`bot.achievements.decide`);
- ``save``: how much longer the save of that step takes with the awards and their
  announcement than without (two saves of the same game, one of each, in turn);
- ``total``: both;
- ``cpu``: the decision alone, without the read (the moments and ``decide`` from the
  progress already read): what the event loop spends.

Prints ``name: value`` lines: p50 and p99 in milliseconds per rule set. Target
(issue 25): the total under 5 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adapters.sqlite import SqliteStorage
from bench.stats import percentile
from bot import achievements
from bot.models import ChatRef, Game, GameStatus, Platform, Seat, SeatKind, TableSettings, UserRef
from bot.ports import Owed, OwedKind
from bot.service.awards import Awarding, owed_after
from bot.service.tables import SystemClock, Tables
from core.ruleset import DealOutcome, GameOutcome, get_rule_set


@dataclass
class Finish:
    """The last step of a game played to its end: the game before it, the action."""

    rule_set: str
    play: Any
    events: list[Any]
    scored: list[DealOutcome]
    finished: list[GameOutcome]


def last_step(rule_set: str, seed: int) -> Finish:
    """Play a game of ``rule_set`` to its end; its finishing step's events."""
    rng = random.Random(seed)
    play = get_rule_set(rule_set).new_game(None, get_rule_set(rule_set).options({}))
    while True:
        if play.needs_deal:
            play.deal(rng)
        turn = play.turn
        assert turn is not None
        events = list(play.apply(play.legal_actions(turn)[0]))
        outcomes = [play.outcome(event) for event in events]
        finished = [o for o in outcomes if isinstance(o, GameOutcome)]
        if finished:
            scored = [o for o in outcomes if isinstance(o, DealOutcome)]
            return Finish(rule_set, play, events, scored, finished)


async def table(storage: SqliteStorage, finish: Finish, players: int) -> Game:
    users = [UserRef(Platform.TELEGRAM, str(players + n)) for n in range(4)]
    seats: list[Seat | None] = [Seat(SeatKind.HUMAN, f"Player {u.id}", u) for u in users]
    game = await storage.create_game(
        Game(
            0,
            ChatRef(Platform.TELEGRAM, "-100"),
            users[0],
            status=GameStatus.PLAYING,
            settings=TableSettings(rule_set=finish.rule_set),
            seats=seats,
            play=finish.play,
        )
    )
    game.play = finish.play
    return game


async def run(runs: int, seed: int) -> dict[str, float]:
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as folder:
        storage = await SqliteStorage.open(Path(folder) / "bench.sqlite3")
        try:
            tables = Tables(storage, clock=SystemClock(), rng=random.Random(seed))
            awarding = Awarding(tables)
            players = 1000
            for rule_set in ("yard", "classic"):
                finish = last_step(rule_set, seed)
                decide: list[float] = []
                extra: list[float] = []
                cpu: list[float] = []
                for _ in range(runs):
                    game = await table(storage, finish, players)
                    plain = await table(storage, finish, players + 10_000_000)
                    players += 4
                    started = time.perf_counter()
                    moments = awarding.moments(game, finish.events, finish.scored, finish.finished)
                    awards = await awarding.awards(
                        game, moments, finish.finished[-1], version=game.version + 1
                    )
                    decided = time.perf_counter()
                    progress = await storage.achievement_progress(
                        [s.user for s in game.seats if s is not None and s.user is not None]
                    )
                    began = time.perf_counter()
                    again = awarding.moments(game, finish.events, finish.scored, finish.finished)
                    achievements.decide(
                        game, again, finish.finished[-1], progress, version=1, at=0.0
                    )
                    cpu.append((time.perf_counter() - began) * 1000)
                    game.version = plain.version = 1
                    results = [Owed(game.id, 1, 0, OwedKind.SERIES_RESULT)]
                    owed = results + owed_after(game.id, 1, results, awards)
                    series = finish.finished[-1]
                    began = time.perf_counter()
                    await storage.save_game(
                        game, deals=finish.scored, series=series, owed=owed, awards=awards
                    )
                    with_awards = time.perf_counter() - began
                    began = time.perf_counter()
                    plain_owed = [Owed(plain.id, 1, 0, OwedKind.SERIES_RESULT)]
                    await storage.save_game(
                        plain, deals=finish.scored, series=series, owed=plain_owed
                    )
                    without = time.perf_counter() - began
                    assert awards is not None and awards.earned, "a rated game earns something"
                    decide.append((decided - started) * 1000)
                    extra.append(max(0.0, with_awards - without) * 1000)
                total = [a + b for a, b in zip(decide, extra, strict=True)]
                named = (("decide", decide), ("save", extra), ("total", total), ("cpu", cpu))
                for name, values in named:
                    figures[f"{rule_set}_{name}_p50_ms"] = percentile(values, 50)
                    figures[f"{rule_set}_{name}_p99_ms"] = percentile(values, 99)
        finally:
            await storage.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for name, value in asyncio.run(run(args.runs, args.seed)).items():
        print(f"{name}: {value:.3f}")


if __name__ == "__main__":
    main()
