"""Two service processes on one PostgreSQL database, the same presses sent to both at
once: the database's fence lets exactly one of each pair through, so no press is lost
or applied twice, and every game's version is the length of its log."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import sys
from pathlib import Path
from typing import Any

from adapters.postgres import PostgresStorage
from bot.models import ChatRef, Platform, User, UserRef
from bot.service import GameService
from core.seats import Team
from core.yard.ai import safe_move
from core.yard.record import action_to_json

ROOT = Path(__file__).resolve().parents[2]
GAMES = 10
MOVES = 30  # presses per game: more than a deal, fewer than a series can take
TIMEOUT = 120.0


class ServiceProcess:
    """One ``tests.multiprocess.service_process`` child and its answers by press id."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.reader: asyncio.Task[None] | None = None

    @classmethod
    async def start(cls, url: str) -> ServiceProcess:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.multiprocess.service_process",
            url,
            cwd=ROOT,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        started = cls(process)
        assert process.stdout is not None
        ready = await asyncio.wait_for(process.stdout.readline(), TIMEOUT)
        assert json.loads(ready) == {"ready": True}
        started.reader = asyncio.create_task(started._read())
        return started

    async def _read(self) -> None:
        assert self.process.stdout is not None
        while line := await self.process.stdout.readline():
            message = json.loads(line)
            self.waiting.pop(message["id"]).set_result(message)

    def send(self, press: dict[str, Any]) -> asyncio.Future[dict[str, Any]]:
        assert self.process.stdin is not None
        answer = asyncio.get_running_loop().create_future()
        self.waiting[press["id"]] = answer
        self.process.stdin.write((json.dumps(press) + "\n").encode())
        return answer

    async def stop(self) -> int:
        assert self.process.stdin is not None and self.reader is not None
        self.process.stdin.close()
        code = await asyncio.wait_for(self.process.wait(), TIMEOUT)
        await self.reader
        return code


async def seat_games(storage: PostgresStorage) -> dict[int, int]:
    """Start GAMES games of four humans; return each one's version at the start."""
    setup = GameService(storage, rng=random.Random(12), computer_delay=0, turn_timeout=0)
    started: dict[int, int] = {}
    for number in range(GAMES):
        chat = ChatRef(Platform.CONSOLE, f"chat-{number}")
        users = [
            User(UserRef(Platform.CONSOLE, f"{number}-{seat}"), f"P{seat}") for seat in range(4)
        ]
        game = await setup.open_table(chat, users[0])
        for seat, user in enumerate(users):
            game = await setup.join(game.id, game.version, user, Team(seat % 2))
        outcome = await setup.start(game.id, game.version, users[0].ref)
        started[game.id] = outcome.game.version
    return started


async def test_two_processes_apply_every_press_exactly_once(new_database: str) -> None:
    ids = itertools.count(1)
    async with await PostgresStorage.open(new_database) as storage:
        started = await seat_games(storage)
        one, two = await asyncio.gather(
            ServiceProcess.start(new_database), ServiceProcess.start(new_database)
        )
        kept: dict[int, list[dict[str, Any]]] = {game_id: [] for game_id in started}
        wins = {"one": 0, "two": 0}

        async def play(game_id: int) -> None:
            for _ in range(MOVES):
                game = await storage.load_game(game_id)
                assert game is not None
                deal = game.play.series.current
                assert deal is not None and deal.turn is not None
                seat = game.seats[deal.turn]
                assert seat is not None and seat.user is not None
                action = safe_move(deal.view(deal.turn))
                press = {
                    "game": game_id,
                    "version": game.version,
                    "user": seat.user.id,
                    "kind": action.kind.value,
                    "cards": [card.code for card in action.cards],
                }
                answers = await asyncio.wait_for(
                    asyncio.gather(
                        one.send({**press, "id": next(ids)}), two.send({**press, "id": next(ids)})
                    ),
                    TIMEOUT,
                )
                applied = [a for a in answers if "version" in a]
                refused = [a for a in answers if "refused" in a]
                assert len(applied) == 1 and len(refused) == 1, answers
                assert applied[0]["version"] == game.version + 1
                assert refused[0]["refused"] == "stale"
                wins["one" if "version" in answers[0] else "two"] += 1
                kept[game_id].append(action_to_json(action))

        try:
            await asyncio.gather(*(play(game_id) for game_id in started))
        finally:
            codes = await asyncio.gather(one.stop(), two.stop())
        assert codes == [0, 0]
        # Both processes won races: the presses really met in the database.
        assert wins["one"] > 0 and wins["two"] > 0, wins

        for game_id, start in started.items():
            stored = await storage.load_game(game_id)
            log = await storage.game_actions(game_id)
            assert stored is not None
            assert stored.version == start + MOVES == start + len(log)
            assert [a.version for a in log] == list(range(start + 1, stored.version + 1))
            assert [a.action for a in log] == kept[game_id]
