"""The event loop a bot process runs on, and its heap once started.

The bot spends most of its time in asyncio's own machinery: sockets to the Bot API
or Discord, its HTTP client and server, task switches. uvloop (libuv under asyncio's
interface, the loop asyncpg and large aiohttp services run on) does that work in C,
so a press costs the bot less CPU; it is the default wherever it is installed (it
is a dependency on Linux and macOS). ``EVENT_LOOP=asyncio`` chooses the standard
library's loop instead, and a system without uvloop gets that one too.

:func:`stoppable` makes a process's work stop cleanly on SIGTERM (and Ctrl-C), however
the process was started.
"""

from __future__ import annotations

import asyncio
import gc
import importlib.util
import logging
import signal
from collections.abc import Coroutine
from typing import Any, Literal, TypeVar

T = TypeVar("T")

log = logging.getLogger("kozel")

LoopKind = Literal["uvloop", "asyncio"]


def available(kind: LoopKind) -> LoopKind:
    """The loop a process asking for ``kind`` gets: uvloop only where installed."""
    if kind == "uvloop" and importlib.util.find_spec("uvloop") is None:
        return "asyncio"
    return kind


def run(main: Coroutine[Any, Any, T], kind: LoopKind = "uvloop") -> T:
    """Run ``main`` to its end on a new loop of ``kind`` (see :func:`available`), as
    :func:`asyncio.run` does: the loop is closed afterwards, Ctrl-C raises
    :class:`KeyboardInterrupt` here."""
    if available(kind) == "uvloop":
        import uvloop

        return uvloop.run(main)
    return asyncio.run(main)


def stop_signals() -> list[signal.Signals]:
    """The signals that stop the process: SIGTERM (``docker stop``, systemd, ``kill``)
    always; SIGINT (Ctrl-C) unless the process was started with it ignored, as a
    shell starts a background job (``cmd &`` in a script) and as ``nohup`` and some
    supervisors do: whoever ignored Ctrl-C for the process meant it."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        return [signal.SIGTERM]
    return [signal.SIGTERM, signal.SIGINT]


async def stoppable(main: Coroutine[Any, Any, T]) -> T | None:
    """Run ``main`` to its end, or until one of :func:`stop_signals` comes: ``main`` is
    then cancelled (its ``finally`` clauses close what it opened), and None is
    returned. The running loop handles the signals (a callback between two steps of
    the loop, never in the middle of a write), whatever dispositions the process
    inherited: Python's own Ctrl-C handling is not installed in a process started with
    SIGINT ignored, and a SIGTERM handler that raises SIGINT then does nothing. A
    second signal while ``main`` finishes is logged and does not cut it short. The
    handlers the signals had are put back afterwards."""
    loop = asyncio.get_running_loop()
    work = asyncio.ensure_future(main)
    received: list[signal.Signals] = []

    def stop(signum: signal.Signals) -> None:
        if received:
            log.info("%s: already stopping", signum.name)
            return
        received.append(signum)
        log.info("%s: stopping", signum.name)
        work.cancel()

    handled: dict[signal.Signals, Any] = {}
    for signum in stop_signals():
        before = signal.getsignal(signum)
        try:
            loop.add_signal_handler(signum, stop, signum)
        except (NotImplementedError, RuntimeError, ValueError):
            continue  # Windows, or not the main thread: Python's own handling stays
        handled[signum] = before
    try:
        return await work
    except asyncio.CancelledError:
        if received and work.cancelled():
            return None
        raise
    finally:
        for signum, before in handled.items():
            loop.remove_signal_handler(signum)
            if before is not None:
                signal.signal(signum, before)


#: The collector's thresholds once the bot runs (CPython's: 700, 10, 10). A press
#: makes thousands of objects that live for a request or two (a few milliseconds);
#: collected every 700 allocations, many of them survive into the older
#: generations and, once those grew by a quarter, set off a full collection, a
#: pause of every object play made (tens of milliseconds with 500 games).
#: Collected every 20,000, they are gone by then.
THRESHOLDS = (20_000, 20, 10)


def settle_heap() -> None:
    """Once started: what the start built (modules, the libraries' ~200,000
    objects, restored games) lives as long as the process, out of the collector's
    sight (:func:`gc.freeze`), so that a full collection scans what play made, not
    all that; and the young generation is collected less often (:data:`THRESHOLDS`).
    Garbage in cycles is still collected; only later."""
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
