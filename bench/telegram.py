"""Telegram benchmark: ``python -m bench.telegram [--games 200]``.

N games run at once, each in its own group: one human with three computer players
(no move delay; ``--level`` their strength, by default ``normal``, the baseline; with
``strong`` each computer move is a search, made in the service's worker processes:
``--processes``, by default one per CPU as ``COMPUTER_PROCESSES``; 0: in a worker
thread of the bot's process, as before issue 13). Two processes, and the workers:

- **the bot** (this process): the real :class:`~adapters.telegram.TelegramAdapter`
  (aiogram Bot and Dispatcher, long polling; ``--webhook``: the fake POSTs the
  updates to the bot's webhook server instead), the game service and a SQLite file
  (``--storage memory`` for the in-memory one; ``--storage postgres``: a PostgreSQL
  15 server the benchmark starts in a temporary folder, with its default
  durability, or the empty database ``--database-url`` names);
- **Telegram** (a child process): the fake Bot API server of the tests and the N
  simulated humans. A human plays through the hand message only, like a person:
  when it shows their turn, they press card buttons (SELECT) until an action button
  appears, then press it. No think time unless ``--think`` says so.

``--on-page K`` (issue 32): the first K people of each table have the web table open
(their seat watched, as the web hub tells :class:`Interactions` of a page's socket) and
play from it (a watcher of the bot's, as the page's press: each human's move, after
``--think``), so their private chats get no hand edits; needs ``--seconds``.

``--humans N`` seats N people a table (the rest computers). With more than one, or with
``--think``, the fake enforces Telegram's documented limits (one write a second inside a
chat, 20 a minute into a group, ``--global-rate`` new private messages a second overall;
``--limits`` / ``--no-limits`` to choose) and the bot paces itself as in production
(``Pacing()``: table refreshes coalesced, see the outbox). ``--seconds S`` stops after S
seconds of play. ``--games 100,200,500,1000`` runs each number in fresh processes and
ends with a line per number (medians of ``--runs``) and the headline: the most games
answered with a p99 under 100 ms. Then printed too:
``writes_per_move`` (all, by method, and into groups / private chats: moves are every
seat's, counted in storage),
``moves_per_second``, ``answer_p50_ms`` / ``answer_p99_ms`` (press -> its callback
answer), ``own_hand_p50_ms`` / ``own_hand_p99_ms`` (press -> the first write into the
presser's private chat: his hand) and ``refused_429``.

Keeping the fake server and the humans out of the bot's process measures the bot,
not the simulation. Printed, ``name: value`` a line:

- ``updates_per_second``: button presses the bot handled per second of play;
- ``p50_ms`` / ``p99_ms``: from a press (the update queued at the fake) to the bot's
  last request for it: the last request into the game's group or the player's
  private chat, or the callback answer, before the player's next press (the
  computers' moves a press sets off are part of it); ``moves_p50_ms`` /
  ``moves_p99_ms`` the same for the presses that play a move (the others select
  cards). With the limits on, that last request is often a table refresh the outbox
  held back on purpose (up to 8 s): read ``answer_*`` and ``own_hand_*`` then;
- ``peak_rss_mb``: the bot process's peak resident memory (``getrusage``);
- ``computers_cpu_percent``: the CPU the computers' worker processes used during play
  (percent of one core, all of them together; 0 without strong computers or with
  ``--processes 0``, whose searches count in the bot's own CPU);
- ``gc_pause_max_ms``, ``gc_full_collections``: the garbage collector's longest pause
  in the bot during play, and its collections of the oldest generation;
- ``bot_cpu_ms_per_press``: the bot process's CPU time during play per press (not
  PostgreSQL's server processes);
- counts: games, presses, requests per press, the humans' reaction time (from the
  bot's last request to their next press), seconds of play, CPU use of both sides;
  ``stalled_games``: games whose human waited 30 s for a turn that never showed (the
  run then fails with exit status 1 and prints what those humans saw).

With every human pressing the moment the bot answered (no ``--think``), the load is
a closed loop: N presses are always waiting, so the latency is about N divided by
the throughput, whatever the code does; ``--think 4`` gives each human about four
seconds per press, a load a real table of people does not exceed.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import gc
import json
import logging
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from adapters.postgres import PostgresStorage
from adapters.postgres.local import LocalServer
from adapters.sqlite import SqliteStorage
from adapters.telegram import Pacing, TelegramAdapter
from bench.common import free_port, peak_rss_mb
from bench.stats import percentile
from bot.codec import CodecError, Verb, decode
from bot.errors import ServiceError
from bot.i18n import Translator
from bot.interactions import Interactions
from bot.loop import available, settle_heap
from bot.loop import run as run_loop
from bot.memory import MemoryStorage
from bot.models import ChatRef, Game, GameStatus, Platform, User, UserRef
from bot.ports import Change, ChangeKind, Storage
from bot.service import GameService
from bot.settings import Settings
from bot.thinking import cpu_count
from core.seats import Team

TOKEN = "123456:BENCH-token"
GROUP_BASE = -1_000_000
USER_BASE = 1_000
TURN_MARK = "👉"  # hand-your-turn-* in every language
SELECTED = "✅"
RESULT_MARK = "🃏"  # result-deal-title in every language
SUITS = frozenset("♣♠♥♦")


def group_of(index: int) -> int:
    return GROUP_BASE - index


def user_of(index: int, seat: int = 0) -> int:
    """The ``seat``-th human of game ``index``."""
    return USER_BASE + 4 * index + seat


# --- Telegram: the fake server and the humans (the child process) --------------------


@dataclass
class Table:
    index: int
    deals: int = 0
    done: bool = False


@dataclass
class Human:
    index: int  # the game's
    uid: int
    table: Table
    presses: list[float] = field(default_factory=list)
    plays: list[bool] = field(default_factory=list)  # whether each press played a move
    requests: list[float] = field(default_factory=list)
    #: The latest press not yet answered / whose hand edit did not come yet: (time, play).
    unanswered: float | None = None
    unshown: tuple[float, bool] | None = None

    @property
    def done(self) -> bool:
        return self.table.done


@dataclass
class Measured:
    """What the fake saw while the humans played."""

    writes: dict[str, int] = field(default_factory=dict)  # successful, by method
    where: dict[str, int] = field(default_factory=dict)  # the same, by chat: group, private
    answers_ms: list[float] = field(default_factory=list)  # press -> callback answer
    hand_ms: list[float] = field(default_factory=list)  # press -> the presser's hand
    move_hand_ms: list[float] = field(default_factory=list)  # the same, presses that play
    on: bool = False


WRITE_METHODS = frozenset({"sendMessage", "editMessageText", "editMessageReplyMarkup"})


@dataclass(frozen=True)
class Load:
    """What the simulated people do, and the limits the fake enforces."""

    games: int
    deals: int = 1
    think: float = 0.0
    webhook: bool = False
    humans: int = 1  # per table; the other seats are computers
    limits: bool = False  # the fake answers 429 past 20 a minute a group, 30 a second
    seconds: float = 0.0  # stop after this long (0: when the games are over)
    global_rate: int = 30  # with limits: writes a second overall, the fake's and the bot's
    on_page: int = 0  # people a table who play from the web table, not their private chat


def telegram_main(conn: Connection, load: Load) -> None:
    """The child process: serve the fake Bot API, play the humans, report timings."""
    run_loop(_telegram(conn, load))  # the simulation: uvloop where installed


async def _telegram(conn: Connection, load: Load) -> None:
    from testing.fakes.telegram import FakeMessage, FakeTelegram

    games, deals, think = load.games, load.deals, load.think
    tables = [Table(i) for i in range(games)]
    humans = [Human(t.index, user_of(t.index, k), t) for t in tables for k in range(load.humans)]
    stall = 30.0 + 2 * think  # seconds without a press that fail the run
    by_chat: dict[int, Human] = {human.uid: human for human in humans}
    by_group: dict[int, Table] = {group_of(t.index): t for t in tables}
    changed: dict[int, asyncio.Event] = {}
    all_done = asyncio.Event()
    counted = {"requests": 0}
    seen = Measured()

    class Fake(FakeTelegram):
        """Keeps only each request's time and game (the full call log would weigh
        hundreds of megabytes) and wakes the human whose chat changed."""

        async def _notify(self) -> None:
            if self.calls:
                call = self.calls.pop()
                chat = call.params.get("chat_id")
                if call.method == "answerCallbackQuery":
                    chat = self._pressed.get(str(call.params.get("callback_query_id")))
                if seen.on and call.status == 200 and call.method in WRITE_METHODS:
                    seen.writes[call.method] = seen.writes.get(call.method, 0) + 1
                    where = "group" if isinstance(chat, int) and chat < 0 else "private"
                    seen.where[where] = seen.where.get(where, 0) + 1
                table = by_group.get(chat) if isinstance(chat, int) else None
                human = by_chat.get(chat) if isinstance(chat, int) else None
                if table is not None and call.method == "sendMessage":
                    self._result(table, call.params)
                if table is not None and not table.done:
                    counted["requests"] += 1
                    if load.humans == 1:
                        by_chat[user_of(table.index, 0)].requests.append(call.time)
                if human is not None and not human.done:
                    self._seen(human, call)
            await super()._notify()

        def _seen(self, human: Human, call: Any) -> None:
            """A request for a human's press (its answer) or into his private chat."""
            if call.method == "answerCallbackQuery":
                counted["requests"] += 1
                if human.unanswered is not None:
                    seen.answers_ms.append((call.time - human.unanswered) * 1000)
                    human.unanswered = None
            else:
                counted["requests"] += 1
                if human.unshown is not None and call.status == 200:
                    pressed, played = human.unshown
                    ms = (call.time - pressed) * 1000
                    seen.hand_ms.append(ms)
                    if played:
                        seen.move_hand_ms.append(ms)
                    human.unshown = None
                changed[human.uid].set()
            if load.humans == 1:
                human.requests.append(call.time)

        def _result(self, table: Table, params: dict[str, Any]) -> None:
            if table.done:
                return
            markup = params.get("reply_markup") or {}
            tokens = [b.get("callback_data") for r in markup.get("inline_keyboard", []) for b in r]
            if any(_verb(t) is Verb.REMATCH for t in tokens):
                table.done = True  # the series is over
            elif str(params.get("text", "")).startswith(RESULT_MARK):
                table.deals += 1
                table.done = bool(deals) and table.deals >= deals
            if table.done:
                for k in range(load.humans):
                    changed[user_of(table.index, k)].set()
                if all(t.done for t in tables):
                    all_done.set()

    def hand_of(tg: FakeTelegram, chat: int) -> FakeMessage | None:
        for message in reversed(tg.messages(chat)):
            if message.reply_markup and message.from_id == tg.bot_id:
                return message
        return None

    async def play(tg: FakeTelegram, human: Human) -> None:
        rng = random.Random(human.uid)
        chat = human.uid
        event = changed[chat]
        acted_on: tuple[str | None, str] | None = None
        while not human.done:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), 5.0)
            event.clear()
            hand = hand_of(tg, chat)
            if human.done or hand is None or TURN_MARK not in (hand.text or ""):
                continue
            buttons = tg.buttons(chat, hand.message_id)
            state = (hand.text, str(buttons))
            if state == acted_on:
                continue  # already pressed; the hand has not changed since
            actions = [d for _, d in buttons if _verb(d) is Verb.PLAY and not str(d).endswith(":m")]
            cards = [
                d
                for label, d in buttons
                if _verb(d) is Verb.SELECT and label[-1] in SUITS and SELECTED not in label
            ]
            choice = rng.choice(actions) if actions else rng.choice(cards) if cards else None
            if choice is None:
                continue
            if think:
                await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
            if human.done:
                break
            acted_on = state
            now = tg.clock()
            human.presses.append(now)
            human.plays.append(_verb(choice) is Verb.PLAY)
            human.unanswered, human.unshown = now, (now, human.plays[-1])
            await tg.press(chat, chat, hand.message_id, str(choice))

    limits: dict[str, Any] = {"group_limit": 10**9}
    if load.limits:
        limits = {
            "group_limit": 20,
            "window": 60.0,
            "chat_interval": 1.0,
            "global_limit": load.global_rate,
        }
    async with Fake(**limits) as tg:
        for table in tables:
            tg.add_group(group_of(table.index), f"Table {table.index}")
        for human in humans:
            tg.add_user(human.uid, f"Player {human.uid}", language_code="en")
            tg.user_starts(human.uid)
            changed[human.uid] = asyncio.Event()
        conn.send(tg.base_url)
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, conn.recv)  # the tables are set
        if load.webhook:
            await tg.wait_for(lambda t: t.webhook, timeout=30)
        started = tg.clock()
        cpu_started = time.process_time()
        counted["requests"] = 0
        refused_before = tg.too_many_requests_count
        for human in humans:
            human.requests.clear()
        for event in changed.values():
            event.set()  # every hand is there: look at it
        seen.on = True
        by_hand = [human for human in humans if human.uid - user_of(human.index) >= load.on_page]
        players = [asyncio.create_task(play(tg, human)) for human in by_hand]
        conn.send("go")
        if load.on_page:  # some play from their page, unseen here: no stall to tell
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(all_done.wait(), load.seconds)
            for table in tables:
                table.done = True
        elif load.seconds:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(_until_done(all_done, humans, stall), load.seconds)
            for table in tables:
                table.done = True  # time is up: what is still playing is not stalled
        else:
            await _until_done(all_done, humans, stall)
        seen.on = False
        elapsed = tg.clock() - started
        telegram_cpu = time.process_time() - cpu_started
        for task in players:
            task.cancel()
        await asyncio.gather(*players, return_exceptions=True)
        presses = sum(len(h.presses) for h in humans)
        measured = [_latencies(h) for h in humans]
        latencies = [ms for found, _ in measured for _, ms in found]
        reactions = [ms for _, found in measured for ms in found]
        plays = [
            ms
            for human, (found, _) in zip(humans, measured, strict=True)
            for i, ms in found
            if human.plays[i]
        ]
        stuck = [t.index for t in tables if not t.done]
        for index in stuck:  # what a stuck human sees: to find out why
            hand = hand_of(tg, user_of(index, 0))
            print(f"stalled: game {index}: {hand.text if hand else None!r}", file=sys.stderr)
        report: dict[str, Any] = {
            "stalled_games": len(stuck),
            "games": games,
            "humans_per_game": load.humans,
            "on_page_per_game": load.on_page,
            "presses": presses,
            "updates_per_second": presses / elapsed,
        }
        if load.humans == 1:  # to the bot's last request before the player's next press
            report |= {
                "p50_ms": percentile(latencies, 50),
                "p99_ms": percentile(latencies, 99),
                "moves_p50_ms": percentile(plays, 50),
                "moves_p99_ms": percentile(plays, 99),
                "max_ms": max(latencies, default=0.0),
                "reaction_p50_ms": percentile(reactions, 50),
            }
        report |= {
            "answer_p50_ms": percentile(seen.answers_ms, 50),
            "answer_p99_ms": percentile(seen.answers_ms, 99),
            "own_hand_p50_ms": percentile(seen.hand_ms, 50),
            "own_hand_p99_ms": percentile(seen.hand_ms, 99),
            "move_own_hand_p50_ms": percentile(seen.move_hand_ms, 50),
            "move_own_hand_p99_ms": percentile(seen.move_hand_ms, 99),
            "requests_per_press": counted["requests"] / max(presses, 1),
            "writes": sum(seen.writes.values()),
            **{f"writes_{method}": n for method, n in sorted(seen.writes.items())},
            **{f"writes_into_{where}": n for where, n in sorted(seen.where.items())},
            "refused_429": tg.too_many_requests_count - refused_before,
            "seconds": elapsed,
            "telegram_cpu_percent": 100 * telegram_cpu / elapsed,
            "telegram_peak_rss_mb": peak_rss_mb(),
        }
        conn.send(report)
        await loop.run_in_executor(None, conn.recv)  # the bot stopped


async def _until_done(all_done: asyncio.Event, humans: list[Human], stall: float) -> None:
    """Until every game is over, or no human pressed for ``stall`` seconds (a bug: a
    human waits for a hand that never shows his turn); then the run fails."""
    presses = -1
    while not all_done.is_set():
        pressed = sum(len(h.presses) for h in humans)
        if pressed == presses:
            return
        presses = pressed
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(all_done.wait(), stall)


def _verb(data: object) -> Verb | None:
    try:
        return decode(str(data)).verb
    except CodecError:
        return None


def _latencies(human: Human) -> tuple[list[tuple[int, float]], list[float]]:
    """For each press (by index), the milliseconds to the last request before the
    next press; and from that request to the next press (the human's reaction)."""
    requests, presses = human.requests, human.presses
    out: list[tuple[int, float]] = []
    reactions: list[float] = []
    for i, start in enumerate(presses):
        end = presses[i + 1] if i + 1 < len(presses) else float("inf")
        first, last = bisect.bisect_left(requests, start), bisect.bisect_left(requests, end) - 1
        if last >= first:
            out.append((i, (requests[last] - start) * 1000))
            if end != float("inf"):
                reactions.append((end - requests[last]) * 1000)
    return out, reactions


# --- The bot (this process) -------------------------------------------------------------


async def run_bot(
    games: int,
    deals: int,
    storage_kind: str,
    think: float,
    webhook: bool = False,
    level: str = "normal",
    *,
    humans: int = 1,
    limits: bool = False,
    seconds: float = 0.0,
    global_rate: int = 30,
    database_url: str | None = None,
    gc_thresholds: tuple[int, int, int] | None = None,
    processes: int | None = None,
    on_page: int = 0,
) -> dict[str, Any]:
    from aiogram import Bot
    from aiogram.client.telegram import TelegramAPIServer

    from adapters.telegram.session import LeanSession

    load = Load(games, deals, think, webhook, humans, limits, seconds, global_rate, on_page)
    context = multiprocessing.get_context("spawn")
    conn, child_conn = context.Pipe()
    child = context.Process(target=telegram_main, args=(child_conn, load))
    child.start()
    loop = asyncio.get_running_loop()
    base_url = await loop.run_in_executor(None, conn.recv)
    with tempfile.TemporaryDirectory() as folder, contextlib.ExitStack() as servers:
        storage: Storage
        closing: SqliteStorage | PostgresStorage | None = None
        if storage_kind == "sqlite":
            storage = closing = await SqliteStorage.open(Path(folder) / "bench.sqlite3")
        elif storage_kind == "postgres":
            if not database_url:  # a server of our own, PostgreSQL's default durability
                server = servers.enter_context(LocalServer(durable=True))
                database_url = server.create_database("bench")
            storage = closing = await PostgresStorage.open(database_url)
        else:
            storage = MemoryStorage()
        tr = Translator.from_dir()
        service = GameService(
            storage,
            rng=random.Random(1),
            computer_delay=0,
            computer_level=level,
            computer_processes=cpu_count() if processes is None else processes,
        )
        interactions = Interactions(service, tr)
        settings = Settings(telegram_api_url=base_url, telegram_webhook_url=None, _env_file=None)
        if webhook:
            port = free_port()
            settings = Settings(
                telegram_api_url=base_url,
                telegram_webhook_url=f"http://127.0.0.1:{port}/telegram",
                telegram_webhook_port=port,
                _env_file=None,
            )
        session = LeanSession(api=TelegramAPIServer.from_base(base_url), limit=1000)
        bot = Bot(TOKEN, session=session)
        pacing = Pacing(global_limit=global_rate) if limits else Pacing.off()
        adapter = TelegramAdapter(settings, service, interactions, tr, bot=bot, pacing=pacing)
        polling = asyncio.create_task(adapter.run())
        game_ids = []
        pages = PagePlayers(service, think, random.Random(2))
        for index in range(games):  # the tables, started (not measured)
            people = [
                User(UserRef(Platform.TELEGRAM, str(user_of(index, k))), f"Player {index}.{k}")
                for k in range(humans)
            ]
            chat = ChatRef(Platform.TELEGRAM, str(group_of(index)))
            game = await service.open_table(chat, people[0])
            for seat in range(4):
                team = (Team.A, Team.B)[seat % 2]
                if seat < humans:
                    await service.join(game.id, None, people[seat], team)
                else:
                    await service.add_computer(game.id, None, people[0].ref, team)
            await service.start(game.id, None, people[0].ref)
            game_ids.append(game.id)
            for person in people[:on_page]:
                place = (await service.game(game.id)).seat_of(person.ref)
                assert place is not None
                interactions.page_opened(game.id, place)  # as the hub does at a page's hello
                pages.watched.add((game.id, place))
        if on_page:
            service.add_watcher(pages)
        await service.settle()
        await adapter.outbox.drain()
        thresholds = gc.get_threshold()
        settle_heap()  # as ``python -m bot`` does once started
        if gc_thresholds is not None:
            gc.set_threshold(*gc_thresholds)
        moves_before = await _moves(storage, game_ids)
        conn.send("set")
        await loop.run_in_executor(None, conn.recv)  # the humans play
        for game_id in game_ids:  # a page's player whose turn it is already moves
            await pages.publish(await service.game(game_id), Change(ChangeKind.PLAYED))
        cpu_started, started = time.process_time(), time.monotonic()
        workers_started = _cpu_times(service.thinkers.workers)
        pauses = _GcPauses()
        gc.callbacks.append(pauses)
        result: dict[str, Any] = await loop.run_in_executor(None, conn.recv)
        gc.callbacks.remove(pauses)
        result["gc_pause_max_ms"] = pauses.longest * 1000
        result["gc_full_collections"] = pauses.full
        cpu_seconds = time.process_time() - cpu_started
        played = time.monotonic() - started
        cpu = 100 * cpu_seconds / played
        workers_cpu = sum(_cpu_times(service.thinkers.workers, workers_started).values())
        result["computers_cpu_percent"] = 100 * workers_cpu / played
        result["bot_cpu_ms_per_press"] = 1000 * cpu_seconds / max(result["presses"], 1)
        moves = await _moves(storage, game_ids) - moves_before
        result["moves"] = moves
        result["moves_per_second"] = moves / result["seconds"]
        for name in [k for k in result if k.startswith("writes")]:
            result[name.replace("writes", "writes_per_move", 1)] = result[name] / max(moves, 1)
        service.remove_watcher(pages)
        await pages.stop()
        gc.set_threshold(*thresholds)  # a caller's own (a test's) again
        gc.unfreeze()
        await adapter.stop()
        await polling
        await service.close()
        if closing is not None:
            await closing.close()
    conn.send("stop")
    child.join()
    result["bot_cpu_percent"] = cpu
    result["computer_processes"] = service.thinkers.processes
    result["storage"] = storage_kind
    result["updates"] = "webhook" if webhook else "polling"
    result["peak_rss_mb"] = peak_rss_mb()
    return result


class PagePlayers:
    """The people who play from the web table (``--on-page``): a watcher of every game
    (as the web hub), moving for a ``watched`` seat (game id, seat) whose turn came,
    after ``think`` (as a press on the page: the service's ``play`` with the version
    the page shows)."""

    def __init__(self, service: GameService, think: float, rng: random.Random) -> None:
        self.service, self.think, self.rng = service, think, rng
        self.watched: set[tuple[int, int]] = set()
        self.tasks: set[asyncio.Task[None]] = set()

    async def publish(self, game: Game, change: Change) -> None:
        turn = game.play.turn
        if game.status is not GameStatus.PLAYING or turn is None:
            return
        player = game.seats[turn]
        if player is None or player.user is None or (game.id, turn) not in self.watched:
            return
        task = asyncio.create_task(self._move(game.id, game.version, player.user, turn))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _move(self, game_id: int, version: int, user: UserRef, seat: int) -> None:
        if self.think:
            await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)
        game = await self.service.game(game_id)
        if game.version != version or game.play.turn != seat:
            return
        with contextlib.suppress(ServiceError):
            await self.service.play(
                game_id, version, user, self.rng.choice(game.play.legal_actions(seat))
            )

    async def stop(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


class _GcPauses:
    """The garbage collector's pauses (a ``gc.callbacks`` entry): the longest, and how
    many collections of the oldest generation."""

    def __init__(self) -> None:
        self.longest, self.full, self._began = 0.0, 0, 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
            return
        self.longest = max(self.longest, time.perf_counter() - self._began)
        self.full += info["generation"] == 2


def _cpu_times(pids: list[int], since: dict[int, float] | None = None) -> dict[int, float]:
    """The CPU seconds each of these processes used (less its seconds in ``since``), from
    Linux's /proc (none elsewhere)."""
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    times: dict[int, float] = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        seconds = (int(fields[11]) + int(fields[12])) / ticks  # utime + stime
        times[pid] = seconds - (since or {}).get(pid, 0.0)
    return times


async def _moves(storage: Storage, game_ids: list[int]) -> int:
    """The moves made in these games so far (the humans' and the computers')."""
    return sum([len(await storage.game_actions(game_id)) for game_id in game_ids])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--games",
        type=_counts,
        default=[200],
        help="concurrent games; several (100,200,500,1000): a run each, and a summary",
    )
    parser.add_argument("--deals", type=int, default=1, help="deals per game (0: a series)")
    parser.add_argument("--storage", choices=("sqlite", "memory", "postgres"), default="sqlite")
    parser.add_argument(
        "--database-url",
        default=None,
        help="with --storage postgres: an empty database to use (default: a server the"
        " benchmark starts in a temporary folder)",
    )
    parser.add_argument("--think", type=float, default=0.0, help="a human's mean seconds")
    parser.add_argument("--webhook", action="store_true", help="updates to a webhook, no polling")
    parser.add_argument("--humans", type=int, default=1, choices=(1, 2, 3, 4), help="per game")
    parser.add_argument(
        "--limits",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="the fake enforces Telegram's documented limits and the bot paces itself as in"
        " production (default: with --think or more than one human a game)",
    )
    parser.add_argument("--seconds", type=float, default=0.0, help="stop after (0: games end)")
    parser.add_argument(
        "--on-page", type=int, default=0, help="people a table playing from the web table"
    )
    parser.add_argument(
        "--global-rate",
        type=int,
        default=30,
        help="with --limits: new private messages a second overall (bulk notifications)",
    )
    parser.add_argument("--runs", type=int, default=1, help="runs, each in new processes")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    parser.add_argument(
        "--level", choices=("easy", "normal", "strong"), default="normal", help="computers' level"
    )
    parser.add_argument(
        "--loop",
        choices=("uvloop", "asyncio"),
        default="uvloop",
        help="the bot's event loop (EVENT_LOOP), as python -m bot runs it",
    )
    parser.add_argument(
        "--gc-thresholds",
        type=_thresholds,
        default=None,
        help="the collector's thresholds during play, e.g. 700,10,10 (CPython's); default"
        " those python -m bot sets (bot.loop.THRESHOLDS)",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=None,
        help="worker processes the strong computers think in (default: one per CPU;"
        " 0: a worker thread of the bot's process)",
    )
    args = parser.parse_args(argv)
    if args.on_page and (args.on_page > args.humans or not args.seconds):
        parser.error("--on-page takes at most --humans people, and --seconds")
    limits = (args.humans > 1 or args.think > 0) if args.limits is None else args.limits
    logging.basicConfig(level=logging.WARNING)
    if args.runs == 1 and len(args.games) == 1:
        result = run_loop(
            run_bot(
                args.games[0],
                args.deals,
                args.storage,
                args.think,
                args.webhook,
                args.level,
                humans=args.humans,
                limits=limits,
                seconds=args.seconds,
                global_rate=args.global_rate,
                database_url=args.database_url,
                gc_thresholds=args.gc_thresholds,
                processes=args.processes,
                on_page=args.on_page,
            ),
            args.loop,
        )
        result["loop"] = available(args.loop)
        by_games = {args.games[0]: [result]}
    else:  # each run in a fresh process, so that peak memory is that run's
        by_games = {}
        for games in args.games:
            command = [sys.executable, "-m", "bench.telegram", "--json", "--runs", "1"]
            command += ["--games", str(games), "--deals", str(args.deals)]
            command += ["--storage", args.storage, "--think", str(args.think)]
            command += ["--database-url", args.database_url] if args.database_url else []
            command += ["--webhook"] if args.webhook else []
            command += ["--level", args.level, "--loop", args.loop]
            if args.gc_thresholds is not None:
                command += ["--gc-thresholds", ",".join(map(str, args.gc_thresholds))]
            command += ["--humans", str(args.humans), "--seconds", str(args.seconds)]
            command += ["--limits" if limits else "--no-limits"]
            command += ["--global-rate", str(args.global_rate), "--on-page", str(args.on_page)]
            command += [] if args.processes is None else ["--processes", str(args.processes)]
            by_games[games] = fresh_runs(command, args.runs)
    results = [result for found in by_games.values() for result in found]
    if args.json:
        print(json.dumps(results[0]))
        return 1 if results[0]["stalled_games"] else 0
    if any(result["stalled_games"] for result in results):
        print("error: games stalled (a human never saw his turn)", file=sys.stderr)
        return 1
    for games, found in by_games.items():
        if len(by_games) > 1:
            print(f"--- {games} games")
        print_results(found)
    if len(by_games) > 1:
        print_summary(by_games)
    return 0


def _thresholds(text: str) -> tuple[int, int, int]:
    """``700,10,10`` -> (700, 10, 10)."""
    try:
        first, second, third = (int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"three numbers, as 700,10,10: {text!r}") from None
    return first, second, third


def _counts(text: str) -> list[int]:
    """``100,200,500`` -> [100, 200, 500]."""
    try:
        counts = [int(part) for part in text.replace("_", "").split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of counts: {text!r}") from None
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError(f"counts must be positive: {text!r}")
    return counts


#: The headline's bound: the most games whose presses are answered within it (p99).
HEADLINE_MS = 100.0


def print_summary(by_games: dict[int, list[dict[str, Any]]]) -> None:
    """A line per number of games (medians of its runs), then the headline: the most
    games whose p99 press -> answer is under ``HEADLINE_MS``."""
    print(
        "games | presses/s | press->answer p50 / p99 ms | press->own hand p50 / p99 ms"
        " | bot CPU ms/press | peak RSS MB"
    )
    best = None
    for games, found in by_games.items():

        def median(name: str, found: list[dict[str, Any]] = found) -> float:
            return float(statistics.median(result[name] for result in found))

        print(
            f"{games} | {median('updates_per_second'):.1f}"
            f" | {median('answer_p50_ms'):.1f} / {median('answer_p99_ms'):.1f}"
            f" | {median('own_hand_p50_ms'):.1f} / {median('own_hand_p99_ms'):.1f}"
            f" | {median('bot_cpu_ms_per_press'):.2f} | {median('peak_rss_mb'):.0f}"
        )
        if median("answer_p99_ms") < HEADLINE_MS:
            best = games if best is None else max(best, games)
    if best is None:
        print(f"headline: no number of games answered with p99 under {HEADLINE_MS:.0f} ms")
    else:
        print(f"headline: {best} games answered with p99 under {HEADLINE_MS:.0f} ms")


def fresh_runs(command: list[str], runs: int) -> list[dict[str, Any]]:
    """The JSON results of ``command`` run ``runs`` times, each in a new process (so
    that peak memory is that run's)."""
    return [
        json.loads(subprocess.run(command, check=False, capture_output=True, text=True).stdout)
        for _ in range(runs)
    ]


def print_results(results: list[dict[str, Any]]) -> None:
    """``name: median (run, run, ...)`` a line; text values as they are."""
    for name, value in results[0].items():
        values = [result[name] for result in results]
        if isinstance(value, float | int) and not isinstance(value, bool):
            median = statistics.median(values)
            text = f"{median:.1f}" if isinstance(value, float) else f"{median:g}"
            runs = " (" + ", ".join(f"{v:.1f}" for v in values) + ")" if len(values) > 1 else ""
            print(f"{name}: {text}{runs}")
        else:
            print(f"{name}: {value}")


if __name__ == "__main__":
    sys.exit(main())
