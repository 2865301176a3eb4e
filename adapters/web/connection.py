"""One page's WebSocket: who it is bound to, its rate limit, and the frames waiting
to go out to it, in order.

Frames are queued without waiting (a publisher runs under the game's lock) and a
writer task sends them. A ``state`` frame is a whole view: a newer one replaces an
older one still waiting, so a slow page gets the newest state, never an older one
than it was sent. A page that lets more than :attr:`Limits.queue` frames pile up is
closed (it reconnects and catches up).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import deque
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from bot.models import User

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Limits:
    """What one page, one user and one game may do."""

    #: Messages a second a socket may keep up, after a burst of ``burst``.
    rate: float = 5.0
    burst: int = 20
    #: The largest client frame taken (bytes); a larger one is refused (``too-big``).
    frame: int = 4096
    #: Open sockets at once of one user (a player or a Telegram user), of one game.
    per_user: int = 8
    per_game: int = 64
    #: Open sockets at once in all (bound to a game or still to say ``hello``): past
    #: it a new one is refused before it is opened (HTTP 503).
    total: int = 20_000
    #: Seconds a socket has to say ``hello``.
    hello_timeout: float = 10.0
    #: Frames waiting to go out to one socket before it is closed as too slow.
    queue: int = 256
    #: Seconds a link to a game over still shows it (its result).
    grace: float = 3600.0
    #: Discord Activity code exchanges a second the server makes in all (each is a
    #: request to Discord), after a burst of ``exchange_burst``; past it, ``unavailable``.
    exchanges: float = 10.0
    exchange_burst: int = 30


class Bucket:
    """A token bucket: ``take()`` is True while the rate allows."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens = float(burst)
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def frame(message: dict[str, Any]) -> str:
    """A message as a text frame (compact JSON, UTF-8 as it is)."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True, slots=True)
class _Close:
    code: int


class Connection:
    """One socket. Bound by ``hello`` to a game and a seat (None: a spectator)."""

    def __init__(self, ws: web.WebSocketResponse, limits: Limits, locale: str) -> None:
        self.ws = ws
        self.limits = limits
        self.bucket = Bucket(limits.rate, limits.burst)
        #: Set by ``hello``: the game, the seat (None: spectator), the player (or the
        #: Telegram user of a spectator), the language of the views, the limit key.
        self.game_id: int | None = None
        self.seat: int | None = None
        self.user: User | None = None
        self.locale = locale
        self.user_key: str | None = None
        self.via = "link"
        #: The version of the last state queued (never an older one after it).
        self.version = -1
        self.rate_told = 0.0
        self._frames: deque[str | _Close] = deque()
        self._state: str | None = None  # the state frame waiting in _frames, if any
        self._wake = asyncio.Event()
        self.closing = False

    @property
    def bound(self) -> bool:
        return self.game_id is not None

    def send(self, message: dict[str, Any]) -> None:
        self._push(frame(message))

    def send_state(self, version: int, text: str) -> bool:
        """Queue a state frame of ``version`` (refused if older than one queued)."""
        if self.closing or version < self.version:
            return False
        self.version = version
        if self._state is not None:
            with contextlib.suppress(ValueError):  # already sent
                self._frames.remove(self._state)
        self._state = text
        self._push(text)
        return True

    def fail(self, message: dict[str, Any], code: int) -> None:
        """Send ``message`` (an error), then close with ``code``."""
        if self.closing:
            return
        self._push(frame(message))
        self._frames.append(_Close(code))
        self.closing = True
        self._wake.set()

    def _push(self, text: str) -> None:
        if self.closing:
            return
        if len(self._frames) >= self.limits.queue:
            log.info("a web page does not keep up: closed")
            self._frames.clear()
            self._frames.append(_Close(4408))
            self.closing = True
        else:
            self._frames.append(text)
        self._wake.set()

    async def run(self) -> None:
        """Send the queued frames until the socket closes."""
        ws = self.ws
        try:
            while not ws.closed:
                await self._wake.wait()
                self._wake.clear()
                while self._frames:
                    item = self._frames.popleft()
                    if isinstance(item, _Close):
                        await ws.close(code=item.code)
                        return
                    if item is self._state:
                        self._state = None
                    await ws.send_str(item)
        except (ConnectionError, RuntimeError):
            pass  # the page went away: the reader ends too
        finally:
            self.closing = True

    async def close(self, code: int) -> None:
        """Close now (the bot stops: ``code`` 1012, the page comes back)."""
        self.closing = True
        self._frames.clear()
        self._wake.set()
        if not self.ws.closed:
            await self.ws.close(code=code)
