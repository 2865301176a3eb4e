"""Keep each platform's bot running: a failure is logged and the bot started again.

A platform whose ``run`` fails (the network is down, the server answered 5xx, a bug)
is started again after a pause that doubles at each failure in a row (from
``Backoff.first`` up to ``Backoff.most`` seconds; a run that lasted ``Backoff.reset``
seconds or more starts the count over). A start that could not reach the platform's
server (:class:`~bot.errors.PlatformUnreachable`) is logged in one line, without a
traceback; a platform that has not once got past its start in this process is given
up after ``Backoff.unreachable`` such starts in a row (a wrong address, a firewall, no
network at all), while one that ran is tried for as long as it takes (an outage). A
platform that refuses the bot (:class:`~bot.errors.PlatformRefused`: a wrong token) is
tried the same way, but ``Backoff.refusals`` times at most (a token just issued, a
hiccup of the server); then it has failed for good. The others go on either way; once
every platform has failed for good, :func:`supervise_all` raises
:class:`AllPlatformsFailed`, so that the process exits with an error and its
supervisor (systemd, Docker) can tell.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from bot.errors import PlatformRefused, PlatformUnreachable

log = logging.getLogger("kozel")

#: Builds a platform's bot afresh and runs it until it stops or fails.
Run = Callable[[], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Backoff:
    """Pauses between the starts of a failing platform, in seconds."""

    first: float = 1.0
    most: float = 300.0
    #: A run at least this long was healthy: the next failure waits ``first`` again.
    reset: float = 60.0
    #: How many times in a row a platform may refuse the token before it is given up.
    refusals: int = 5
    #: How many starts in a row may fail to reach the server of a platform that never
    #: got past its start before it is given up (with the pauses above: 8.5 minutes).
    unreachable: int = 10

    def delays(self) -> Callable[[], float]:
        """A counter of pauses: each call returns the next (doubled) one."""
        current = self.first / 2

        def next_delay() -> float:
            nonlocal current
            current = min(self.most, current * 2)
            return current

        return next_delay


class AllPlatformsFailed(Exception):
    """Every platform refused the bot, or could never be reached, for good."""


async def supervise(name: str, run: Run, backoff: Backoff) -> bool:
    """Run one platform until it stops (returns True) or has failed for good (returns
    False: it refused the bot, or was never reached); passing failures are logged and
    the platform started again."""
    loop = asyncio.get_running_loop()
    delays = backoff.delays()
    refused = unreachable = 0
    ran = False  # a run got past its start
    while True:
        started = loop.time()
        try:
            await run()
        except asyncio.CancelledError:
            raise
        except PlatformUnreachable as error:
            refused, unreachable = 0, unreachable + 1
            if not ran and unreachable >= backoff.unreachable:
                log.error(
                    "the %s bot cannot connect: %s; given up after %d tries"
                    " (it never connected); the other platforms go on",
                    name, error, unreachable,
                )  # fmt: skip
                return False
            delay = delays()
            log.error(
                "the %s bot cannot connect: %s; it tries again in %g s;"
                " the other platforms go on",
                name, error, delay,
            )  # fmt: skip
            await asyncio.sleep(delay)
        except PlatformRefused as error:
            refused, unreachable = refused + 1, 0
            if refused >= backoff.refusals:
                log.error(
                    "the %s bot cannot run: %s; given up after %d tries; the other platforms go on",
                    name,
                    error,
                    refused,
                )
                return False
            delay = delays()
            log.error(
                "the %s bot cannot run: %s; it tries again in %g s; the other platforms go on",
                name,
                error,
                delay,
            )
            await asyncio.sleep(delay)
        except Exception:
            refused = unreachable = 0
            ran = True
            if loop.time() - started >= backoff.reset:
                delays = backoff.delays()
            delay = delays()
            log.exception(
                "the %s bot stopped with an error; it starts again in %g s; "
                "the other platforms go on",
                name,
                delay,
            )
            await asyncio.sleep(delay)
        else:
            log.info("the %s bot stopped", name)
            return True


async def supervise_all(platforms: Sequence[tuple[str, Run]], backoff: Backoff) -> None:
    """Run every platform under :func:`supervise` until all have stopped; raises
    :class:`AllPlatformsFailed` if all of them refused the bot for good."""
    async with asyncio.TaskGroup() as group:
        tasks = [group.create_task(supervise(name, run, backoff)) for name, run in platforms]
    if tasks and not any(task.result() for task in tasks):
        raise AllPlatformsFailed(", ".join(name for name, _ in platforms))
