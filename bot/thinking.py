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
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from core.ruleset import Computer

log = logging.getLogger(__name__)

#: How much lower the workers' OS priority is than the bot's (``os.nice``; 19 is the
#: lowest): the event loop's process is served first when the CPU is short.
WORKER_NICENESS = 10
#: Pools broken one after the other, with no choice made in a worker between them,
#: after which the computers think in a thread for good (workers that cannot start).
MAX_BROKEN_POOLS = 3


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


def _start_worker(niceness: int) -> None:
    """A worker's first steps: a lower priority than the bot's, and Ctrl-C left to the
    bot (which shuts the pool down) rather than a traceback from every worker."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if niceness:
        # Where it is not allowed, the worker runs at the bot's priority.
        with contextlib.suppress(OSError):
            os.nice(niceness)


class Thinkers:
    """Computer players that search choose here, off the event loop: in up to
    ``processes`` worker processes (0: in a worker thread, as before). The pool is
    started when a computer first thinks and closed by :meth:`close`."""

    def __init__(self, processes: int = 0, *, niceness: int = WORKER_NICENESS) -> None:
        if processes < 0:
            raise ValueError("processes must be 0 or more")
        self.processes = processes
        self.niceness = niceness
        self._pool: ProcessPoolExecutor | None = None
        #: Broken pools, shut down but not yet waited for (:meth:`close` does).
        self._broken: list[ProcessPoolExecutor] = []
        self._closed = False
        #: Pools broken since a worker last answered.
        self._breaks = 0
        #: Choices made, by where: ``process``, ``thread``, and ``fallback`` (in a
        #: thread because the pool broke or the player could not be pickled).
        self.made = {"process": 0, "thread": 0, "fallback": 0}
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
        event loop, and the player as the choice left it."""
        if self.processes == 0 or self._closed or self._breaks >= MAX_BROKEN_POOLS:
            self.made["thread"] += 1
            return await asyncio.to_thread(think, player, view, seed)
        try:
            data = pickle.dumps((player, view, seed), pickle.HIGHEST_PROTOCOL)
        except Exception:  # a player of a test, say, with a lock or a loop in it
            if not self._unpicklable_logged:
                self._unpicklable_logged = True
                log.warning(
                    "computer player %s cannot be pickled: it thinks in a thread",
                    type(player).__name__,
                    exc_info=True,
                )
            return await self._fallback(player, view, seed)
        pool = self._running_pool()
        try:
            answer = await asyncio.get_running_loop().run_in_executor(pool, _think_pickled, data)
        except BrokenProcessPool:
            if self._retire(pool):
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
            return await self._fallback(player, view, seed)
        action, thought = pickle.loads(answer)
        self._breaks = 0
        self.made["process"] += 1
        return Thought(action, thought)

    async def _fallback(self, player: Computer, view: Any, seed: int) -> Thought:
        self.made["fallback"] += 1
        return await asyncio.to_thread(think, player, view, seed)

    def _running_pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.processes,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(self.niceness,),
            )
            log.info("computer players think in %d worker processes", self.processes)
        return self._pool

    def _retire(self, pool: ProcessPoolExecutor) -> bool:
        """Put a broken pool aside (once, however many choices it failed: whether this
        call did)."""
        if self._pool is not pool:
            return False
        self._pool = None
        self._broken.append(pool)
        pool.shutdown(wait=False, cancel_futures=True)
        return True

    async def close(self) -> None:
        """Shut the pool down and wait for its workers to exit (a search under way is
        finished first: a few hundred milliseconds at most). Later choices are made in
        a worker thread."""
        self._closed = True
        pools, self._pool = [*self._broken, self._pool], None
        self._broken = []
        for pool in pools:
            if pool is not None:
                await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
