"""A short-lived cache of the answers of statistics and leaderboards.

``/top all`` is the same for every chat of a platform, and a burst of it (or of
``/stats``) asks the storage the same question many times a second. The cache keeps
each answer for ``ttl`` seconds, and callers who ask while the answer is being read
wait for that one read instead of starting their own. :meth:`ReadCache.forget`
drops what a new result makes stale (the service calls it when it saves one), so the
players of a game see its result at once; the ``ttl`` bounds what other processes'
results (PostgreSQL) take to show.

>>> import asyncio
>>> cache = ReadCache(ttl=5.0, clock=lambda: 0.0)
>>> calls = []
>>> async def read() -> int:
...     calls.append(1)
...     return 42
>>> async def twice() -> list[int]:
...     return list(await asyncio.gather(cache.get(("top",), read), cache.get(("top",), read)))
>>> asyncio.run(twice()), len(calls)
([42, 42], 1)
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import Any, TypeVar

_T = TypeVar("_T")

#: Seconds an answer is kept.
TTL = 5.0
#: The most answers kept (the least recently used go first).
SIZE = 4096


class ReadCache:
    """Answers by key, each kept ``ttl`` seconds (by ``clock``, monotonic seconds)."""

    def __init__(
        self,
        ttl: float = TTL,
        size: int = SIZE,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.ttl = ttl
        self.size = size
        self._clock = clock
        #: By key: when the answer was read, and the answer.
        self._kept: OrderedDict[Hashable, tuple[float, Any]] = OrderedDict()
        #: By key: the read under way.
        self._reading: dict[Hashable, asyncio.Task[Any]] = {}
        #: Moves on at every :meth:`forget`: a read begun before is not kept.
        self._epoch = 0

    async def get(self, key: Hashable, read: Callable[[], Awaitable[_T]]) -> _T:
        """The answer kept for ``key`` if it is fresh, else the one ``read`` gives
        (one read for every caller who asks meanwhile; an error is not kept)."""
        if self.ttl <= 0:
            return await read()
        kept = self._kept.get(key)
        if kept is not None:
            at, answer = kept
            if self._clock() - at < self.ttl:
                self._kept.move_to_end(key)
                return answer  # type: ignore[no-any-return]
            del self._kept[key]
        task = self._reading.get(key)
        if task is None:
            task = asyncio.create_task(self._read(key, read), name="read-cache")
            # Its error is its callers'; should they all be gone, nobody is told.
            task.add_done_callback(lambda done: done.cancelled() or done.exception())
            self._reading[key] = task
        # A caller cancelled does not cancel the read the others wait for.
        return await asyncio.shield(task)

    async def _read(self, key: Hashable, read: Callable[[], Awaitable[_T]]) -> _T:
        epoch, started = self._epoch, self._clock()
        try:
            answer = await read()
        finally:
            if self._reading.get(key) is asyncio.current_task():
                del self._reading[key]
        if epoch == self._epoch:
            self._kept[key] = (started, answer)
            self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return answer

    def forget(self, matches: Callable[[Hashable], bool] | None = None) -> None:
        """Drop the answers whose keys ``matches`` (None: every one), and let no read
        under way keep its answer."""
        self._epoch += 1
        if matches is None:
            self._kept.clear()
            self._reading.clear()
            return
        for key in [key for key in self._kept if matches(key)]:
            del self._kept[key]
        for key in [key for key in self._reading if matches(key)]:
            del self._reading[key]

    def __len__(self) -> int:
        return len(self._kept)
