"""The supervisor's rules (bot.supervise): a start that cannot reach its server is one
line and a pause; a platform never reached is given up, one that ran is not."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from bot.errors import PlatformUnreachable
from bot.supervise import Backoff, Run, supervise

QUICK = Backoff(first=0.001, most=0.002, unreachable=3)


def runs(*outcomes: BaseException | None) -> Run:
    """A platform whose starts end as given, in turn (None: it stops)."""
    ends: Iterator[BaseException | None] = iter(outcomes)

    async def run() -> None:
        end = next(ends)
        if end is not None:
            raise end

    return run


def kozel_errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "kozel" and r.levelno >= 40]


async def test_a_platform_never_reached_is_given_up_after_its_tries(
    caplog: pytest.LogCaptureFixture,
) -> None:
    down = PlatformUnreachable("ClientConnectorError: Cannot connect to host")
    assert not await supervise("Telegram", runs(down, down, down, None), QUICK)
    assert kozel_errors(caplog) == [
        "the Telegram bot cannot connect: ClientConnectorError: Cannot connect to host; " + end
        for end in (
            "it tries again in 0.001 s; the other platforms go on",
            "it tries again in 0.002 s; the other platforms go on",
            "given up after 3 tries (it never connected); the other platforms go on",
        )
    ]
    assert not any(r.exc_info for r in caplog.records)


async def test_a_platform_that_ran_is_tried_for_as_long_as_it_takes(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """An outage after the platform ran (here a run that ended with an error) is not a
    wrong address: it is tried past ``Backoff.unreachable`` until it runs again."""
    down = PlatformUnreachable("TimeoutError")
    with caplog.at_level(logging.ERROR):
        assert await supervise("Discord", runs(RuntimeError("bug"), *[down] * 7, None), QUICK)
    said = kozel_errors(caplog)
    assert said[0].startswith("the Discord bot stopped with an error")
    assert len(said) == 8 and all("cannot connect: TimeoutError; it tries" in m for m in said[1:])
