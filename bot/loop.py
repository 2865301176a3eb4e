"""The event loop a bot process runs on, and its heap once started.

The bot spends most of its time in asyncio's own machinery: sockets to the Bot API
or Discord, its HTTP client and server, task switches. uvloop (libuv under asyncio's
interface, the loop asyncpg and large aiohttp services run on) does that work in C,
so a press costs the bot less CPU; it is the default wherever it is installed (it
is a dependency on Linux and macOS). ``EVENT_LOOP=asyncio`` chooses the standard
library's loop instead, and a system without uvloop gets that one too.
"""

from __future__ import annotations

import asyncio
import gc
import importlib.util
from collections.abc import Coroutine
from typing import Any, Literal, TypeVar

T = TypeVar("T")

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
