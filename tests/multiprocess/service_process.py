"""A service process for the two-process test: ``python -m tests.multiprocess.service_process
URL``.

It runs a :class:`bot.service.GameService` on the PostgreSQL database at URL, as the
bot does, and takes presses as JSON lines on stdin::

    {"id": 1, "game": 5, "version": 12, "user": "2", "kind": "lead", "cards": ["7C"]}

Each press runs at once as a task of its own (presses of one game queue on the game's
lock, as in the bot); each answer is a JSON line on stdout, ``{"id": 1, "version": 13}``
when the press was applied, ``{"id": 1, "refused": "stale"}`` when it was refused,
``{"id": 1, "error": "..."}`` if it raised anything else. ``{"ready": true}``
comes first, once the storage is open. End of input: wait for the presses, exit.
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

from adapters.postgres import PostgresStorage
from bot.errors import ServiceError
from bot.models import Platform, UserRef
from bot.service import GameService
from core.cards import Card
from core.yard.actions import Action, ActionKind


def answer(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


async def press(service: GameService, request: dict[str, Any]) -> None:
    action = Action(
        0, ActionKind(request["kind"]), tuple(Card.parse(code) for code in request["cards"])
    )
    user = UserRef(Platform.CONSOLE, request["user"])
    try:
        outcome = await service.play(request["game"], request["version"], user, action)
    except ServiceError as error:
        answer({"id": request["id"], "refused": error.code})
    except Exception as error:  # the test fails on it at once, with what it was
        answer({"id": request["id"], "error": repr(error)})
    else:
        answer({"id": request["id"], "version": outcome.game.version})


async def main(url: str) -> None:
    async with await PostgresStorage.open(url) as storage:
        service = GameService(storage, computer_delay=0, turn_timeout=0)
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader()
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
        answer({"ready": True})
        tasks: set[asyncio.Task[None]] = set()
        while line := await reader.readline():
            task = asyncio.create_task(press(service, json.loads(line)))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        await asyncio.gather(*tasks)
        await service.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
