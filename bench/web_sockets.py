"""The web table under load: ``python -m bench.web_sockets [--games 200] [--presses 2000]``.

The bot's side runs in a child process: a game service on the memory storage, the
web hub and its aiohttp server, ``--games`` yard games of four human players, each
started. This process opens, for every game, six sockets (its four players and two
spectators, each with its signed link), then presses: each press is the turn's
player's first action, sent on his socket; it is done when all six sockets of that
game have received the state of the new version. ``--concurrency`` presses are in
flight at once, each in another game (the games are dealt out to that many players
who press in their games in turn, again as soon as their last press is done), so
the server always has that many presses to handle. ``--rate R`` instead starts R
presses a second on time (an open loop, as players press whatever the others do),
each in the next game that has none in flight.

Reported: the press → every view updated latency (p50, p99), presses a second, the
server's CPU time per press (from ``/proc``: user + system), and its memory per open
socket (resident memory with the sockets open, less before, divided by the sockets).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import multiprocessing
import os
import random
import statistics
import sys
import time
from multiprocessing.connection import Connection
from typing import Any

import aiohttp

from bench.common import cpu_seconds, rss_kb
from bench.stats import percentile
from bot.loop import THRESHOLDS

SPECTATORS = 2
PAGES = 4 + SPECTATORS


# --- The bot's side (the child process) ---------------------------------------------------


def serve_main(conn: Connection, games: int) -> None:
    from bot import loop

    loop.run(_serve(conn, games))  # uvloop where installed, as python -m bot runs


async def _serve(conn: Connection, games: int) -> None:
    from adapters.web.connection import Limits
    from adapters.web.hub import WebHub
    from adapters.web.server import WebServer
    from bot import loop
    from bot.i18n import Translator
    from bot.interactions import Interactions
    from bot.memory import MemoryStorage
    from bot.models import ChatRef, Platform, User, UserRef
    from bot.service import GameService
    from core.seats import Team

    tr = Translator.from_dir()
    service = GameService(MemoryStorage(), rng=random.Random(1), computer_delay=0.0, turn_timeout=0)
    interactions = Interactions(service, tr)
    limits = Limits(rate=1000.0, burst=1000, per_game=PAGES, per_user=4)
    hub = WebHub(interactions, tr, key=os.urandom(32), limits=limits)
    service.add_watcher(hub)
    server = WebServer(hub, tr, port=0)
    await server.start()
    made = []
    for number in range(games):
        chat = ChatRef(Platform.TELEGRAM, str(-1_000_000 - number))
        users = [
            User(UserRef(Platform.TELEGRAM, str(number * 4 + seat + 1)), f"P{seat}")
            for seat in range(4)
        ]
        game = await service.open_table(chat, users[0])
        for seat, user in enumerate(users):
            game = await service.join(game.id, None, user, Team.A if seat % 2 == 0 else Team.B)
        game = (await service.start(game.id, None, users[0].ref)).game
        seats = [hub.link(game, seat) for seat in range(4)]
        made.append({"id": game.id, "players": seats, "spectator": hub.link(game, None)})
    loop.settle_heap()  # as python -m bot does once its games are restored
    conn.send({"port": server.port, "games": made, "rss": rss_kb(), "cpu": cpu_seconds()})
    while True:  # the parent asks for the figures, then says stop
        request = await asyncio.get_running_loop().run_in_executor(None, conn.recv)
        if request == "stop":
            break
        conn.send({"rss": rss_kb(), "cpu": cpu_seconds(), "sockets": hub.sockets})
    await server.stop()
    await service.close()


# --- The pages (this process) ---------------------------------------------------------------


class Table:
    """One game's six sockets. A state's view is read (parsed) only when a press needs
    it: the pages' side reads the version from the frame's head, so that it is not
    the bottleneck of what is measured."""

    def __init__(self, players: list[aiohttp.ClientWebSocketResponse],
                 spectators: list[aiohttp.ClientWebSocketResponse]) -> None:  # fmt: skip
        self.players = players
        self.sockets = [*players, *spectators]
        self.frames: list[str | None] = [None] * len(self.sockets)
        self.versions = [-1] * len(self.sockets)
        self.answers: dict[int, dict[str, Any]] = {}
        self.changed = asyncio.Event()

    def view(self, index: int) -> dict[str, Any]:
        frame = self.frames[index]
        assert frame is not None
        view: dict[str, Any] = json.loads(frame)["view"]
        return view

    async def read(self, index: int) -> None:
        async for message in self.sockets[index]:
            if message.type is not aiohttp.WSMsgType.TEXT:
                break
            text: str = message.data
            if text.startswith(_STATE):
                self.frames[index] = text
                self.versions[index] = int(text[len(_STATE) : text.index(",", len(_STATE))])
            else:
                data = json.loads(text)
                if data["type"] == "answer":
                    self.answers[data["id"]] = data
            self.changed.set()

    async def until(self, done: Any) -> None:
        while not done():
            self.changed.clear()
            await self.changed.wait()


#: How a state frame begins (the hub's compact JSON), its version next.
_STATE = '{"type":"state","version":'


async def _pages(args: argparse.Namespace, ready: dict[str, Any]) -> dict[str, Any]:
    port = ready["port"]
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        tables: list[Table] = []
        readers = []
        url = f"http://127.0.0.1:{port}/ws"
        for made in ready["games"]:
            links = [*made["players"], *[made["spectator"]] * SPECTATORS]
            sockets = [await session.ws_connect(url, max_msg_size=0) for _ in links]
            table = Table(sockets[:4], sockets[4:])
            for index, (ws, link) in enumerate(zip(sockets, links, strict=True)):
                await ws.send_str(json.dumps({"type": "hello", "link": link}))
                readers.append(asyncio.create_task(table.read(index)))
            tables.append(table)
        for table in tables:
            await table.until(lambda t=table: min(t.versions) >= 0)
        gc.freeze()  # the pages' side: what it holds for the run, out of the collector's way
        gc.set_threshold(*THRESHOLDS)
        opened = await _ask(ready)
        latencies: list[float] = []
        press_id = 0
        left = args.presses

        async def press(table: Table) -> bool:
            """One press in the game (its turn's player's first action), done when all
            its pages show the new version; False when the game is over."""
            nonlocal press_id
            version = max(table.versions)
            await table.until(lambda t=table, v=version: min(t.versions) >= v)
            view = table.view(0)
            turn = view["turn"]["seat"] if view["turn"] else None
            if turn is None:
                return False
            press_id += 1
            number = press_id
            own = table.view(turn)
            assert own["actions"], own
            action = next((a for a in own["actions"] if a["cards"]), own["actions"][0])
            sent = time.perf_counter()
            await table.players[turn].send_str(
                json.dumps({"type": "press", "id": number, "token": action["token"]})
            )
            await table.until(lambda t=table, n=number: n in t.answers)
            if table.answers[number]["ok"]:
                await table.until(lambda t=table, v=version: min(t.versions) > v)
                latencies.append(time.perf_counter() - sent)
            return True

        async def player(mine: list[Table]) -> None:
            """Presses in its games in turn, one press at a time (closed loop)."""
            nonlocal left
            rounds = 0
            while mine and left > 0:
                table = mine[rounds % len(mine)]
                rounds += 1
                left -= 1
                if not await press(table):
                    mine.remove(table)  # the game is over

        async def paced() -> None:
            """Presses at ``--rate`` a second in the games in turn (open loop: a press
            starts on time whatever the others do; a game has one press at a time)."""
            busy: set[Table] = set()
            tasks: set[asyncio.Task[bool]] = set()
            interval, due, index = 1.0 / args.rate, time.perf_counter(), 0
            for _ in range(args.presses):
                due += interval
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
                for _ in range(len(tables)):
                    table = tables[index % len(tables)]
                    index += 1
                    if table not in busy:
                        break
                else:
                    continue  # every game is busy: this press is skipped
                busy.add(table)
                task = asyncio.create_task(press(table))
                tasks.add(task)
                task.add_done_callback(lambda _, t=table: busy.discard(t))
                task.add_done_callback(tasks.discard)
            if tasks:
                await asyncio.gather(*tasks)

        workers = [tables[i :: args.concurrency] for i in range(min(args.concurrency, len(tables)))]
        started, cpu = time.perf_counter(), opened["cpu"]
        if args.rate:
            await paced()
        else:
            await asyncio.gather(*(player(mine) for mine in workers))
        elapsed = time.perf_counter() - started
        after = await _ask(ready)
        for table in tables:
            for ws in table.sockets:
                await ws.close()
        for task in readers:
            task.cancel()
        sockets = opened["sockets"]
        return {
            "games": len(tables),
            "sockets": sockets,
            "presses": len(latencies),
            "p50_ms": 1000 * percentile(latencies, 50),
            "p99_ms": 1000 * percentile(latencies, 99),
            "mean_ms": 1000 * statistics.fmean(latencies),
            "presses_per_s": len(latencies) / elapsed,
            "cpu_ms_per_press": 1000 * (after["cpu"] - cpu) / max(len(latencies), 1),
            "kb_per_socket": (opened["rss"] - ready["rss"]) / max(sockets, 1),
        }


_CONN: Connection | None = None


async def _ask(ready: dict[str, Any]) -> dict[str, Any]:
    assert _CONN is not None
    _CONN.send("figures")
    loop = asyncio.get_running_loop()
    answer: dict[str, Any] = await loop.run_in_executor(None, _CONN.recv)
    return answer


def run(args: argparse.Namespace) -> dict[str, Any]:
    global _CONN
    ctx = multiprocessing.get_context("spawn")
    parent, child = ctx.Pipe()
    process = ctx.Process(target=serve_main, args=(child, args.games), daemon=True)
    process.start()
    _CONN = parent
    try:
        ready = parent.recv()
        from bot import loop

        return loop.run(_pages(args, ready))
    finally:
        parent.send("stop")
        process.join(timeout=30)
        if process.is_alive():
            process.kill()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.web_sockets", description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--presses", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=20,
                        help="games pressing at once (default 20)")  # fmt: skip
    parser.add_argument("--rate", type=float, default=0.0,
                        help="presses a second, started on time (open loop) instead")  # fmt: skip
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args(argv)
    for _ in range(args.runs):
        figures = run(args)
        load = {"rate": args.rate} if args.rate else {"concurrency": args.concurrency}
        print(json.dumps({**figures, **load}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
