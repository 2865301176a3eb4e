"""Where computer players that search make up their minds: off the event loop.

A search (the strong level) is Python that runs for up to a few hundred
milliseconds. In a worker thread it still holds the interpreter's lock, so a bot
with many tables of strong computers answers every press late. :class:`Thinkers`
asks them in worker processes instead (a :class:`~concurrent.futures.ProcessPoolExecutor`
of ``processes`` workers, started with the ``spawn`` method on first use, each at a
lower OS priority: the bot's own process wins the CPU, so presses are answered at
once even while the computers' thinking lags behind).

A player remembers its deal between decisions (what it saw, what it chose), and its
choice must be the one it would make in the bot's process. So the worker is sent
the pickled player, the seat's view and a seed the service drew from its random
source on the event loop; it chooses with ``random.Random(seed)`` and sends back
the action and the player as the choice left it, which the service keeps in place
of the one it sent (:class:`Thought`). The same seed gives the same choice whether
it is made in a worker process, a worker thread or in place (:func:`think`).

A worker that dies (killed, out of memory) breaks the pool: the choices it was
making are made again in a worker thread, with the same seeds, and the next ones
go to a new pool (after :data:`MAX_BROKEN_POOLS` pools in a row broke, to a thread
for good). A player that cannot be pickled chooses in a thread too.
``processes=0`` keeps the old way: every search in a worker thread.

A decision has a deadline (:data:`THINKING_DEADLINE`): a worker that hangs or is
stopped (SIGSTOP) holds nobody up for longer. Past it the answer is "late" (the
service plays the rule set's safe action), the pool's workers are killed and a new
pool takes the next decisions (the others it was making are made in a thread).
:meth:`Thinkers.close` kills whatever is left after a short grace, so a shutdown
never waits for a worker.

>>> from core.ruleset import get_rule_set
>>> yard = get_rule_set("yard")
>>> game = yard.new_game(random.Random(3))
>>> thought = think(yard.computer("normal"), game.seat_view(game.turn), seed=5)
>>> game.can(thought.action)
True
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import pickle
import random
import signal
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing.process import BaseProcess
from typing import Any

from core.ruleset import Computer

log = logging.getLogger(__name__)

#: How much lower the workers' OS priority is than the bot's (``os.nice``; 19 is the
#: lowest): the event loop's process is served first when the CPU is short.
WORKER_NICENESS = 10
#: Pools broken one after the other, with no choice made in a worker between them,
#: after which the computers think in a thread for good (workers that cannot start).
MAX_BROKEN_POOLS = 3
#: Seconds a computer may think about one decision (from when a worker takes it):
#: the strong level's searches take under a second of CPU (p95 under 0.1 s), so
#: this is only met by a worker that hangs, is stopped, or starves on a machine
#: far too busy. Past it the computer plays its rule set's safe action and the
#: worker is killed (``COMPUTER_THINK_TIMEOUT``).
THINKING_DEADLINE = 10.0
#: Seconds a new pool's workers may take to start (a new interpreter loading the
#: game: a fraction of a second, much longer on a busy machine). A start does not
#: count against a decision's deadline; a pool not started by then is broken.
START_TIMEOUT = 60.0
#: Seconds :meth:`Thinkers.close` lets a search under way finish before it kills
#: the workers left.
CLOSE_GRACE = 1.0
#: Seconds to reap a killed worker (it is gone at once unless the kernel is stuck).
KILLED_EXIT = 5.0


def cpu_count() -> int:
    """The CPUs this process may run on (its affinity where the OS tells it)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


@dataclass(frozen=True, slots=True)
class Thought:
    """A computer's choice and the player as the choice left it (its memory moved on):
    the service keeps this player for the seat's next decision."""

    action: Any | None
    player: Computer
    #: No choice came within the deadline: ``action`` is None and ``player`` the one
    #: asked, who may still be thinking in a thread (the service makes a new one).
    late: bool = False


def think(player: Computer, view: Any, seed: int) -> Thought:
    """Let ``player`` choose, in this process, with ``random.Random(seed)``: what a
    worker process does with its copy of the player."""
    return Thought(player.choose(view, random.Random(seed)), player)


def _think_pickled(data: bytes) -> bytes:
    """In a worker: the pickled ``(player, view, seed)`` in, the pickled
    ``(action, player)`` out."""
    player, view, seed = pickle.loads(data)
    thought = think(player, view, seed)
    return pickle.dumps((thought.action, thought.player), pickle.HIGHEST_PROTOCOL)


def _think_copy(data: bytes) -> Thought:
    """In a worker thread: the pickled ``(player, view, seed)`` in, the choice of that
    copy of the player out."""
    player, view, seed = pickle.loads(data)
    return think(player, view, seed)


#: In a worker: how many workers of its pool have started (shared with the others).
_started: Any = None


def _start_worker(niceness: int, started: Any) -> None:
    """A worker's first steps: a lower priority than the bot's, Ctrl-C left to the
    bot (which shuts the pool down) rather than a traceback from every worker, the
    computer players loaded (a decision then starts at once); then it counts itself
    started."""
    global _started
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if niceness:
        # Where it is not allowed, the worker runs at the bot's priority.
        with contextlib.suppress(OSError):
            os.nice(niceness)
    from core.ruleset import get_rule_set, rule_set_ids

    for rule_set in rule_set_ids():
        get_rule_set(rule_set).computer("strong")
    with started.get_lock():
        started.value += 1
    _started = started


def _wait_for_the_pool(workers: int, patience: float) -> None:
    """In a worker: wait until the pool's ``workers`` have all started (at most
    ``patience`` seconds). Each of ``workers`` such calls keeps its worker until
    then, so each runs in a worker of its own, and every worker is started."""
    end = time.monotonic() + patience
    while _started.value < workers and time.monotonic() < end:
        time.sleep(0.01)


class Thinkers:
    """Computer players that search choose here, off the event loop: in up to
    ``processes`` worker processes (0: in a worker thread, as before), each decision
    within ``deadline`` seconds. The pool is started when a computer first thinks and
    closed by :meth:`close`."""

    def __init__(
        self,
        processes: int = 0,
        *,
        niceness: int = WORKER_NICENESS,
        deadline: float = THINKING_DEADLINE,
    ) -> None:
        if processes < 0:
            raise ValueError("processes must be 0 or more")
        if deadline <= 0:
            raise ValueError("deadline must be more than 0 seconds")
        self.processes = processes
        self.niceness = niceness
        self.deadline = deadline
        self._pool: ProcessPoolExecutor | None = None
        #: The running pool's start, until all its workers have started.
        self._starting: asyncio.Future[bool] | None = None
        #: Workers of pools put aside (broken, or killed past a deadline), not yet
        #: waited for (:meth:`close` does).
        self._retired: list[BaseProcess] = []
        #: Decisions in the pool at most at once (one a worker): a decision's deadline
        #: runs from when a worker takes it, not while it waits for one.
        self._slots = asyncio.Semaphore(max(processes, 1))
        self._closed = False
        #: Pools broken since a worker last answered.
        self._breaks = 0
        #: Choices made, by where: ``process``, ``thread``, and ``fallback`` (in a
        #: thread because the pool broke or the player could not be pickled).
        self.made = {"process": 0, "thread": 0, "fallback": 0}
        #: Decisions given up past the deadline (the service plays the safe action).
        self.late = 0
        self._unpicklable_logged = False

    @property
    def workers(self) -> list[int]:
        """The process ids of the running pool's live workers."""
        pool = self._pool
        if pool is None:
            return []
        processes = getattr(pool, "_processes", None) or {}
        return [pid for pid, process in processes.items() if process.is_alive()]

    async def think(self, player: Computer, view: Any, seed: int) -> Thought:
        """``player``'s choice for ``view`` with ``random.Random(seed)``, made off the
        event loop, and the player as the choice left it; ``Thought(None, player,
        late=True)`` when no choice came within the deadline (its worker is killed, a
        new one takes the next decisions)."""
        try:
            data: bytes | None = pickle.dumps((player, view, seed), pickle.HIGHEST_PROTOCOL)
        except Exception:  # a player of a test, say, with a lock or a loop in it
            data = None
        if self._in_thread():
            self.made["thread"] += 1
            return await self._in_a_thread(player, view, seed, data)
        if data is None:
            if not self._unpicklable_logged:
                self._unpicklable_logged = True
                log.warning(
                    "computer player %s cannot be pickled: it thinks in a thread",
                    type(player).__name__,
                    exc_info=True,
                )
            return await self._fallback(player, view, seed, data)
        async with self._slots:
            if self._in_thread():  # closed, or the pools kept breaking, meanwhile
                answer = None
            else:
                answer = await self._in_a_worker(data)
        if answer is None:
            return await self._fallback(player, view, seed, data)
        if not isinstance(answer, bytes):  # late
            return Thought(None, player, late=True)
        action, thought = pickle.loads(answer)
        self._breaks = 0
        self.made["process"] += 1
        return Thought(action, thought)

    def _in_thread(self) -> bool:
        return self.processes == 0 or self._closed or self._breaks >= MAX_BROKEN_POOLS

    async def _in_a_worker(self, data: bytes) -> bytes | bool | None:
        """The pickled answer of a worker; False past the deadline (the pool is
        killed), None if the pool broke (a worker died)."""
        pool = await self._running_pool()
        if pool is None:
            return None
        try:
            waiting = asyncio.wrap_future(pool.submit(_think_pickled, data))
        except BrokenProcessPool:
            self._broke(pool)
            return None
        try:
            done, _ = await asyncio.wait({waiting}, timeout=self.deadline)
            if not done:
                self.late += 1
                log.error(
                    "a computer player's worker process gave no answer in %g s: it is"
                    " killed (the computer plays the safe action), a new one thinks next",
                    self.deadline,
                )
                self._retire(pool)
                return False
            answer: bytes = waiting.result()
            return answer
        except BrokenProcessPool:
            self._broke(pool)
            return None
        finally:
            waiting.cancel()  # a late or abandoned answer is not waited for

    async def _in_a_thread(
        self, player: Computer, view: Any, seed: int, data: bytes | None
    ) -> Thought:
        """The choice made in a worker thread, by a copy of the player (``data``, the
        pickled ``(player, view, seed)``), as in a worker process: the player kept
        here is not touched meanwhile (the game may move on while it thinks). Only a
        player that cannot be pickled thinks itself. A thread cannot be stopped, so
        past the deadline it is left to finish on its own and ``late`` is answered."""
        if data is None:
            thinking = asyncio.ensure_future(asyncio.to_thread(think, player, view, seed))
        else:
            thinking = asyncio.ensure_future(asyncio.to_thread(_think_copy, data))
        try:
            done, _ = await asyncio.wait({thinking}, timeout=self.deadline)
        except asyncio.CancelledError:
            thinking.add_done_callback(_ignore_outcome)
            raise
        if done:
            return thinking.result()
        self.late += 1
        thinking.add_done_callback(_ignore_outcome)
        log.error(
            "a computer player thinking in a thread gave no answer in %g s: it plays"
            " the safe action",
            self.deadline,
        )
        return Thought(None, player, late=True)

    async def _fallback(
        self, player: Computer, view: Any, seed: int, data: bytes | None
    ) -> Thought:
        self.made["fallback"] += 1
        return await self._in_a_thread(player, view, seed, data)

    async def _running_pool(self) -> ProcessPoolExecutor | None:
        """The pool once all its workers started: a new pool's workers are started
        first (within :data:`START_TIMEOUT`), so that a worker's start (a new
        interpreter loading the game: long on a busy machine) never counts against a
        decision's deadline. None if the pool broke on the way."""
        if self._pool is None:
            context = multiprocessing.get_context("spawn")
            started = context.Value("i", 0)
            pool = ProcessPoolExecutor(
                max_workers=self.processes,
                mp_context=context,
                initializer=_start_worker,
                initargs=(self.niceness, started),
            )
            self._pool = pool
            self._starting = asyncio.ensure_future(self._start(pool))
            log.info("computer players think in %d worker processes", self.processes)
        pool, starting = self._pool, self._starting
        if starting is not None and not await asyncio.shield(starting):
            return None
        return pool

    async def _start(self, pool: ProcessPoolExecutor) -> bool:
        """Start every worker of a new pool and wait until all have: whether they did."""
        try:
            calls = [
                asyncio.wrap_future(pool.submit(_wait_for_the_pool, self.processes, START_TIMEOUT))
                for _ in range(self.processes)
            ]
        except BrokenProcessPool:
            self._broke(pool)
            return False
        done, late = await asyncio.wait(calls, timeout=START_TIMEOUT)
        for call in late:
            call.cancel()
        if late or any(call.exception() is not None for call in done):
            if late:
                log.error(
                    "the computer players' worker processes did not start in %g s",
                    START_TIMEOUT,
                )
            self._broke(pool)
            return False
        if self._pool is pool:
            self._starting = None
        return True

    def _broke(self, pool: ProcessPoolExecutor) -> None:
        """A worker of ``pool`` died: the pool is put aside (once, however many choices
        it failed) and counted broken."""
        if not self._retire(pool):
            return
        self._breaks += 1
        if self._breaks >= MAX_BROKEN_POOLS:
            log.error(
                "computer players' worker processes died %d times in a row:"
                " from now on they think in a thread",
                self._breaks,
            )
        else:
            log.error(
                "a computer players' worker process died: its choices are made"
                " in a thread, the next ones in a new pool"
            )

    def _retire(self, pool: ProcessPoolExecutor) -> bool:
        """Put ``pool`` aside and kill its workers (whether this call did: a pool is
        put aside once). The choices it was making fail (a broken pool): they are made
        in a thread; the next ones go to a new pool."""
        if self._pool is not pool:
            return False
        self._pool = self._starting = None
        workers = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for worker in workers:
            with contextlib.suppress(OSError, ValueError):
                worker.kill()  # SIGKILL: also a stopped (SIGSTOP) worker dies
        self._retired.extend(workers)
        return True

    async def close(self, grace: float = CLOSE_GRACE) -> None:
        """Shut the pool down: idle workers exit at once, a search under way is given
        ``grace`` seconds, then every worker left (stuck, stopped) is killed; returns
        once all are gone. Later choices are made in a worker thread."""
        self._closed = True
        pool, self._pool = self._pool, None
        if self._starting is not None:
            self._starting.cancel()
            self._starting = None
        workers, self._retired = [*self._retired], []
        if pool is not None:
            workers.extend((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
        if workers:
            await asyncio.to_thread(_stop, workers, grace)


def _ignore_outcome(future: asyncio.Future[Any]) -> None:
    """A late thread's outcome, read so that an error in it is not reported."""
    if not future.cancelled():
        future.exception()


def _stop(workers: list[BaseProcess], grace: float) -> None:
    """Wait up to ``grace`` seconds for ``workers`` to exit, kill those left and reap
    them all (in a thread: it blocks)."""
    end = time.monotonic() + grace
    for worker in workers:
        worker.join(max(0.0, end - time.monotonic()))
    for worker in workers:
        if worker.exitcode is None:
            with contextlib.suppress(OSError, ValueError):
                worker.kill()
    for worker in workers:
        worker.join(KILLED_EXIT)
