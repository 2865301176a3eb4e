"""Computers that search think in worker processes: the same choices as in place, the
event loop free meanwhile, a dead worker losing no game, nothing left after closing."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import pickle
import random
import signal
import socket
import threading
from pathlib import Path
from typing import Any

import pytest

from bot.memory import MemoryStorage
from bot.models import ChatRef, GameStatus, Platform
from bot.service import GameService
from bot.thinking import MAX_BROKEN_POOLS, Thinkers, think
from core.ruleset import Computer, get_rule_set
from core.seats import Team
from core.yard.ai.search import SearchPlayer
from tests.bot.conftest import ALICE, BOB, CAROL, CHAT, DAN, EVE, FakeClock

#: Seconds after which a wait of these tests gives up: only a hang, never a slow machine,
#: gets there. Every wait is on an event (a worker's call, a process's exit, a task's
#: end); this is the safety net under it.
HANG_GUARD = 300.0


# --- Players for the tests (module-level classes: a worker process unpickles them) ----


class _Waiting:
    """A player that, in a worker process, tells the test its process id over a Unix
    socket and waits for a word back before it chooses (in the bot's process, a
    thread after a dead worker, it chooses at once): the test holds it mid-search."""

    searches = True

    def __init__(self, path: str, inner: Computer) -> None:
        self.path, self.inner = path, inner
        self.pid: int | None = None  # where it last chose

    def choose(self, view: Any, rng: random.Random) -> Any | None:
        self.pid = os.getpid()
        if multiprocessing.parent_process() is not None:
            # No clock: the word comes when the test says, or the socket closes (the
            # test's hold answers every call when it ends, and a dead test closes it).
            with socket.socket(socket.AF_UNIX) as connection:
                connection.connect(self.path)
                connection.sendall(f"{os.getpid()}\n".encode())
                connection.recv(1)  # the test's go (or the socket closed)
        return self.inner.choose(view, rng)


class _Dying:
    """A player whose worker process dies when asked (in the bot's process it plays)."""

    searches = True

    def __init__(self, inner: Computer) -> None:
        self.inner = inner

    def choose(self, view: Any, rng: random.Random) -> Any | None:
        if multiprocessing.parent_process() is not None:
            os._exit(3)
        return self.inner.choose(view, rng)


class _Unpicklable:
    """A searching player that holds a lock: it cannot go to a worker process."""

    searches = True

    def __init__(self, inner: Computer) -> None:
        self.inner, self.lock = inner, threading.Lock()

    def choose(self, view: Any, rng: random.Random) -> Any | None:
        return self.inner.choose(view, rng)


class _Hold:
    """A Unix socket server the test's :class:`_Waiting` players call: it hands over
    each worker's process id and lets the worker go when the test says so."""

    def __init__(self, path: Path) -> None:
        self.path = str(path)
        self.pids: asyncio.Queue[int] = asyncio.Queue()
        self.go = asyncio.Event()
        self.server: asyncio.AbstractServer | None = None
        self.calls: set[asyncio.Task[Any]] = set()

    async def __aenter__(self) -> _Hold:
        self.server = await asyncio.start_unix_server(self._called, self.path)
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.go.set()
        await asyncio.gather(*self.calls, return_exceptions=True)
        assert self.server is not None
        self.server.close()
        await self.server.wait_closed()

    async def _called(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        call = asyncio.current_task()
        assert call is not None
        self.calls.add(call)
        try:
            await self.pids.put(int(await reader.readline()))
            await self.go.wait()
            writer.write(b"!")
            await writer.drain()
        except ConnectionError:  # a worker the test killed
            pass
        finally:
            writer.close()
            self.calls.discard(call)


def _hold_path(tmp_path: Path) -> Path:
    # A Unix socket's path is short (108 bytes): pytest's temporary folders can be longer.
    short = Path("/tmp") / f"kozel-hold-{os.getpid()}-{id(tmp_path)}.sock"
    short.unlink(missing_ok=True)
    return short


def _decision(rules: str, seed: int = 3) -> tuple[Any, Computer]:
    """A new game of ``rules`` and a strong player for its seat to act, who saw the deal."""
    rule_set = get_rule_set(rules)
    game = rule_set.new_game(random.Random(seed))
    player = rule_set.computer("strong", game.options)
    for event in game.public_events():
        if hasattr(player, "observe"):
            player.observe(event)
    return game, player


def _state(player: Computer) -> bytes:
    return pickle.dumps(player, pickle.HIGHEST_PROTOCOL)


def _gone(pids: list[int]) -> bool:
    alive = {child.pid for child in multiprocessing.active_children()}
    return not alive & set(pids) and not any(Path(f"/proc/{pid}").exists() for pid in pids)


async def _ended(pids: list[int]) -> None:
    """Wait until each of ``pids`` has exited, however long a busy machine takes to
    carry out a kill: a process's pidfd turns readable when it exits (one already
    reaped has none). A process that never exits fails the wait at :data:`HANG_GUARD`."""
    loop = asyncio.get_running_loop()
    for pid in set(pids):
        try:
            fd = os.pidfd_open(pid)
        except ProcessLookupError:
            continue
        exited = loop.create_future()
        loop.add_reader(fd, lambda done=exited: done.done() or done.set_result(None))
        try:
            await asyncio.wait_for(exited, timeout=HANG_GUARD)
        finally:
            loop.remove_reader(fd)
            os.close(fd)


# --- The same choice wherever it is made ----------------------------------------------------


@pytest.mark.parametrize("rules", ["yard", "classic"])
async def test_a_worker_process_chooses_what_the_player_would_in_place(rules: str) -> None:
    """Through a deal's first decisions: the same seed, the same action and the same
    player afterwards (its memory, its own random state), whether it chose in a worker
    process or here."""
    game, player = _decision(rules)
    thinkers = Thinkers(1)
    seeds = random.Random(11)
    try:
        for _ in range(8):
            seat = game.turn
            assert seat is not None
            view = game.seat_view(seat)
            seed = seeds.getrandbits(64)
            here = think(pickle.loads(_state(player)), view, seed)
            there = await thinkers.think(player, view, seed)
            assert there.player is not player  # the worker's copy came back
            assert there.action == here.action and there.action is not None
            assert _state(there.player) == _state(here.player)
            player = there.player
            for event in game.apply(there.action):
                if hasattr(player, "observe"):
                    player.observe(event)
        assert thinkers.made == {"process": 8, "thread": 0, "fallback": 0}
    finally:
        await thinkers.close()


async def _play_moves(rules: str, processes: int) -> tuple[list[dict[str, Any]], Thinkers]:
    """One human (the safe action each turn) and three strong computers, seeded: the
    first 40 actions (a deal and more) as the log keeps them."""
    storage = MemoryStorage()
    service = GameService(
        storage, rng=random.Random(5), computer_delay=0, computer_processes=processes
    )
    try:
        game = await service.open_table(CHAT, ALICE, join=True, rule_set=rules)
        for team in (Team.B, Team.A, Team.B):
            game = await service.add_computer(game.id, game.version, ALICE.ref, team)
        assert all(seat is not None and seat.level == "strong" for seat in game.seats[1:])
        game = (await service.start(game.id, game.version, ALICE.ref)).game
        while len(await storage.game_actions(game.id)) < 40:
            await service.settle()
            game = await service.game(game.id)
            assert game.status is GameStatus.PLAYING and game.play.turn == 0  # the human's
            await service.play(game.id, game.version, ALICE.ref, game.play.safe_action(0))
        actions = [
            logged.action | {"seat": logged.seat} for logged in await storage.game_actions(game.id)
        ]
        return actions, service.thinkers
    finally:
        await service.close()


@pytest.mark.parametrize("rules", ["yard", "classic"])
async def test_a_seeded_game_plays_the_same_with_computers_in_processes_or_a_thread(
    rules: str,
) -> None:
    """A strong computer's move made in the pool is applied to the game, and the game
    is move for move the one the old worker thread plays."""
    in_processes, pool = await _play_moves(rules, processes=2)
    in_a_thread, thread = await _play_moves(rules, processes=0)
    assert pool.made["process"] > 10 and pool.made["thread"] == pool.made["fallback"] == 0
    assert thread.made["thread"] == pool.made["process"]
    assert in_processes == in_a_thread
    assert len({action["seat"] for action in in_processes}) == 4


# --- The event loop is free while a worker searches ------------------------------------


async def test_the_loop_runs_on_while_a_worker_process_searches(tmp_path: Path) -> None:
    """A coroutine ticks while the search is held in its worker process (the loop
    itself serves the worker's call meanwhile); the choice then comes back."""
    game, player = _decision("yard")
    seat = game.turn
    assert seat is not None
    thinkers = Thinkers(1)
    try:
        async with _Hold(_hold_path(tmp_path)) as hold:
            waiting = _Waiting(hold.path, player)
            thinking = asyncio.create_task(thinkers.think(waiting, game.seat_view(seat), 7))
            pid = await asyncio.wait_for(hold.pids.get(), timeout=30)
            assert pid != os.getpid() and pid in thinkers.workers
            ticks = 0
            for _ in range(100):
                await asyncio.sleep(0)
                ticks += 1
            assert ticks == 100 and not thinking.done()  # still searching
            hold.go.set()
            thought = await asyncio.wait_for(thinking, timeout=30)
        assert isinstance(thought.player, _Waiting) and thought.player.pid == pid
        assert waiting.pid is None  # the player sent was not the one that chose
        assert game.can(thought.action)
    finally:
        await thinkers.close()


# --- A dead worker, an unpicklable player -----------------------------------------------


async def test_a_worker_that_dies_mid_search_loses_no_choice(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The choice is made in a thread instead, with the same seed; the next goes to a
    new pool."""
    game, player = _decision("yard")
    seat = game.turn
    assert seat is not None
    view = game.seat_view(seat)
    expected = think(pickle.loads(_state(player)), view, 9).action
    thinkers = Thinkers(1)
    try:
        with caplog.at_level(logging.ERROR, logger="bot.thinking"):
            thought = await thinkers.think(_Dying(player), view, 9)
        assert thought.action == expected
        assert "worker process died" in caplog.text
        assert thinkers.made == {"process": 0, "thread": 0, "fallback": 1}
        again = await thinkers.think(player, view, 9)
        assert again.action == expected
        assert thinkers.made["process"] == 1
    finally:
        await thinkers.close()


async def test_workers_that_die_again_and_again_leave_the_computers_a_thread(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Pools that break one after the other (workers that cannot live): after
    MAX_BROKEN_POOLS of them the computers think in a thread, not in pool after pool."""
    game, player = _decision("yard")
    seat = game.turn
    assert seat is not None
    view = game.seat_view(seat)
    thinkers = Thinkers(1)
    try:
        with caplog.at_level(logging.ERROR, logger="bot.thinking"):
            for _ in range(MAX_BROKEN_POOLS):
                assert (await thinkers.think(_Dying(player), view, 9)).action is not None
            assert "from now on they think in a thread" in caplog.text
            await thinkers.think(player, view, 9)
        assert thinkers.made == {"process": 0, "thread": 1, "fallback": MAX_BROKEN_POOLS}
        assert thinkers.workers == []
    finally:
        await thinkers.close()


async def test_a_game_goes_on_when_its_computers_worker_is_killed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The worker searching for a game's computer is killed (SIGKILL, as the kernel's
    out-of-memory killer does): that move is made in a thread and the game goes on,
    the later moves in a new pool."""
    async with _Hold(_hold_path(tmp_path)) as hold:
        first: list[bool] = []

        def players(level: str) -> Computer:
            player = SearchPlayer()
            if not first:  # the first computer made waits in its worker
                first.append(True)
                return _Waiting(hold.path, player)
            return player

        storage = MemoryStorage()
        service = GameService(
            storage, rng=random.Random(2), computer_delay=0, players=players, computer_processes=1
        )
        try:
            game = await service.open_table(CHAT, ALICE, join=True)
            for team in (Team.B, Team.A, Team.B):
                game = await service.add_computer(game.id, game.version, ALICE.ref, team)
            with caplog.at_level(logging.ERROR, logger="bot.thinking"):
                await service.start(game.id, game.version, ALICE.ref)
                pid = await asyncio.wait_for(hold.pids.get(), timeout=30)
                os.kill(pid, signal.SIGKILL)
                hold.go.set()  # the same player's later searches go at once
                while len(await storage.game_actions(game.id)) < 24:
                    await asyncio.wait_for(service.settle(), timeout=60)
                    game = await service.game(game.id)
                    assert game.status is GameStatus.PLAYING and game.play.turn == 0
                    await service.play(game.id, game.version, ALICE.ref, game.play.safe_action(0))
            assert "worker process died" in caplog.text
            made = service.thinkers.made
            assert made["fallback"] == 1 and made["process"] > 10
        finally:
            await service.close()


# --- A stuck worker: the deadline ----------------------------------------------------------


async def _game_of_strong_computers(service: GameService) -> int:
    """Alice and three computers, started (with Random(2) a computer has the first
    turn); the game's id."""
    game = await service.open_table(CHAT, ALICE, join=True)
    for team in (Team.B, Team.A, Team.B):
        game = await service.add_computer(game.id, game.version, ALICE.ref, team)
    await service.start(game.id, game.version, ALICE.ref)
    return game.id


async def test_a_stopped_worker_gives_its_seat_the_safe_action_after_the_deadline(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Regression: a worker stopped (SIGSTOP) while a strong computer thought froze
    its game for good. Past the deadline the computer plays the rule set's safe
    action, the stopped worker is killed, and the next decisions go to a new one."""
    async with _Hold(_hold_path(tmp_path)) as hold:

        def players(level: str) -> Computer:
            return _Waiting(hold.path, SearchPlayer())

        storage = MemoryStorage()
        service = GameService(
            storage,
            rng=random.Random(2),
            computer_delay=0,
            players=players,
            computer_processes=1,
            # At the test's priority: a worker niced below it may starve for the
            # whole deadline on a busy machine (then a healthy decision is late too).
            computer_niceness=0,
            think_timeout=10,
        )
        try:
            with caplog.at_level(logging.WARNING):
                game_id = await _game_of_strong_computers(service)
                pid = await asyncio.wait_for(hold.pids.get(), timeout=60)
                game = await service.game(game_id)
                seat = game.play.turn
                assert seat is not None and seat != 0 and not game.play.chances()
                expected = game.play.action_to_json(game.play.safe_action(seat))
                os.kill(pid, signal.SIGSTOP)
                hold.go.set()  # every later search answers at once
                await asyncio.wait_for(service.settle(), timeout=120)  # a hang guard
            first = (await storage.game_actions(game_id))[0]
            assert (first.seat, first.action, first.user) == (seat, expected, None)
            assert service.thinkers.late >= 1 and "gave no answer" in caplog.text
            assert pid not in service.thinkers.workers
            assert service.thinkers.made["process"] >= 1  # a new worker thought next
            game = await service.game(game_id)
            assert game.status is GameStatus.PLAYING and game.play.turn == 0
        finally:
            await asyncio.wait_for(service.close(), timeout=30)
    assert _gone([pid]) and multiprocessing.active_children() == []


@pytest.fixture
def patient_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """A new pool's workers may take as long as the machine needs to start: the pool's
    own limit (START_TIMEOUT, then the computers think in a thread and no worker ever
    calls the test) is raised to the tests' safety net."""
    monkeypatch.setattr("bot.thinking.START_TIMEOUT", HANG_GUARD)


@pytest.mark.usefixtures("patient_start")
@pytest.mark.parametrize("stop", [signal.SIGSTOP, signal.SIGKILL], ids=["stopped", "killed"])
async def test_a_stuck_worker_holds_up_no_cancel_no_other_clock_and_no_shutdown(
    tmp_path: Path, stop: signal.Signals
) -> None:
    """Regression: while a strong computer's worker was stopped the creator could not
    cancel the game (thinking held its lock), the turn clocks of every chat stood
    still, and closing the service never returned. With the worker stopped (the
    deadline far off) or killed: the creator cancels at once, another chat's human
    runs out of time on schedule, and close() returns, no worker left.

    Issue 31, point 17: it failed under load. Each step waits on the event it
    expects (the worker's call, the timers it started, the cancel's and close()'s
    return, each worker's exit); the clock that runs out is the test's own. The
    think deadline (an hour) and the safety net (HANG_GUARD) are far apart, so a
    cancel, a clock or a close() that waited for the stuck worker still fails."""
    async with _Hold(_hold_path(tmp_path)) as hold:

        def players(level: str) -> Computer:
            return _Waiting(hold.path, SearchPlayer())

        clock = FakeClock()
        storage = MemoryStorage()
        service = GameService(
            storage,
            clock=clock,
            rng=random.Random(2),
            computer_delay=0,
            players=players,
            computer_processes=1,
            turn_timeout=60,
            computer_niceness=0,
            think_timeout=3600,  # only the cancel, or close(), ends the wait
        )
        workers: list[int] = []
        try:
            other = await service.open_table(ChatRef(Platform.CONSOLE, "chat-2"), BOB)
            for user, team in ((BOB, Team.A), (CAROL, Team.B), (DAN, Team.A), (EVE, Team.B)):
                other = await service.join(other.id, other.version, user, team)
            await service.start(other.id, other.version, BOB.ref)
            game_id = await _game_of_strong_computers(service)
            pid = await asyncio.wait_for(hold.pids.get(), timeout=HANG_GUARD)
            workers += service.thinkers.workers
            assert pid in workers
            os.kill(pid, stop)
            clock.advance(61)
            await asyncio.wait_for(service.tick(), timeout=HANG_GUARD)
            [timed_out] = await storage.game_actions(other.id)
            assert timed_out.auto and timed_out.user is None
            cancelled = await asyncio.wait_for(
                service.cancel(game_id, None, ALICE.ref), timeout=HANG_GUARD
            )
            assert cancelled.status is GameStatus.CANCELLED
            if stop is signal.SIGSTOP:
                assert await storage.game_actions(game_id) == []  # it never moved
            workers += service.thinkers.workers
        finally:
            await asyncio.wait_for(service.close(), timeout=HANG_GUARD)
        await _ended(workers)  # killed by close(): a stopped worker exits no other way
        assert _gone(workers) and multiprocessing.active_children() == []
        stored = await storage.load_game(game_id)
        assert stored is not None and stored.status is GameStatus.CANCELLED


async def test_a_thread_that_thinks_too_long_answers_late() -> None:
    """Computers thinking in a thread (no worker processes) have the deadline too: the
    answer is late (the thread, which cannot be stopped, finishes on its own)."""
    release = threading.Event()
    game, player = _decision("yard")
    seat = game.turn
    assert seat is not None
    thinkers = Thinkers(0, deadline=0.1)
    try:
        thought = await thinkers.think(_Blocked(release, player), game.seat_view(seat), 3)
        assert thought.late and thought.action is None and thinkers.late == 1
    finally:
        release.set()
        await thinkers.close()


class _Blocked:
    """A searching player that chooses once the test lets it."""

    searches = True

    def __init__(self, release: threading.Event, inner: Computer) -> None:
        self.release, self.inner = release, inner

    def choose(self, view: Any, rng: random.Random) -> Any | None:
        self.release.wait(timeout=60)
        return self.inner.choose(view, rng)


async def test_a_player_that_cannot_be_pickled_thinks_in_a_thread(
    caplog: pytest.LogCaptureFixture,
) -> None:
    game, player = _decision("yard")
    seat = game.turn
    assert seat is not None
    thinkers = Thinkers(1)
    try:
        with caplog.at_level(logging.WARNING, logger="bot.thinking"):
            thought = await thinkers.think(_Unpicklable(player), game.seat_view(seat), 1)
        assert game.can(thought.action)
        assert "cannot be pickled" in caplog.text
        assert thinkers.made["fallback"] == 1 and thinkers.workers == []
    finally:
        await thinkers.close()


# --- Closing -------------------------------------------------------------------------------


async def test_closing_the_service_stops_every_worker(tmp_path: Path) -> None:
    """Closing while a computer is mid-search (the service serving another chat
    meanwhile): the driver stops, the pool shuts down and waits for its workers; none
    is left, and later choices still work (in a thread)."""
    async with _Hold(_hold_path(tmp_path)) as hold:

        def players(level: str) -> Computer:
            return _Waiting(hold.path, SearchPlayer())

        service = GameService(
            MemoryStorage(),
            rng=random.Random(2),
            computer_delay=0,
            players=players,
            computer_processes=2,
        )
        game = await service.open_table(CHAT, ALICE)
        for team in (Team.A, Team.B, Team.A, Team.B):
            game = await service.add_computer(game.id, game.version, ALICE.ref, team)
        await service.start(game.id, game.version, ALICE.ref)
        pid = await asyncio.wait_for(hold.pids.get(), timeout=30)
        workers = service.thinkers.workers
        assert pid in workers
        # Meanwhile the service serves another chat.
        other = await service.open_table(ChatRef(Platform.CONSOLE, "chat-2"), BOB)
        assert other.status is GameStatus.LOBBY
        closing = asyncio.create_task(service.close())
        await asyncio.sleep(0)
        hold.go.set()  # the search under way ends; the pool waits for it
        await asyncio.wait_for(closing, timeout=30)
    assert service.thinkers.workers == [] and _gone(workers)
    game_, player = _decision("yard")
    seat = game_.turn
    assert seat is not None
    thought = await service.thinkers.think(player, game_.seat_view(seat), 4)
    assert game_.can(thought.action) and service.thinkers.made["thread"] == 1
