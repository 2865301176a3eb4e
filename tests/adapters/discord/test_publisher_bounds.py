"""The Discord publisher's per-user maps stay bounded however many users it meets."""

from __future__ import annotations

import logging
from typing import Any, cast

import discord
import pytest

from adapters.discord.publisher import DM_OPEN_KEPT, DM_RETRY_AFTER, DiscordPublisher

USERS = DM_OPEN_KEPT + 10_000


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_users_taking_dms_or_not_are_kept_within_bounds(caplog: pytest.LogCaptureFixture) -> None:
    """Regression: every user the bot ever wrote to (or failed to) stayed in memory."""
    # Not the 60,000 INFO lines "user ... takes no DMs" (the log guard captures INFO):
    # making and capturing them took most of the test's time. Errors still fail it.
    caplog.set_level(logging.WARNING, logger="adapters.discord.publisher")
    clock = Clock()
    none: Any = None
    publisher = DiscordPublisher(none, none, none, none, clock=clock)
    refused = cast(discord.Forbidden, discord.Forbidden.__new__(discord.Forbidden))
    refused.status, refused.code = 403, 50007
    for user in range(1, USERS + 1):
        clock.now = user * DM_RETRY_AFTER / 1000  # a thousand users in each window
        publisher._opened(user)
        publisher._closed(USERS + user, refused)
    assert len(publisher._dm_open) == DM_OPEN_KEPT
    assert USERS in publisher._dm_open and 1 not in publisher._dm_open
    assert len(publisher._dm_closed) <= DM_OPEN_KEPT
    assert publisher.dm_closed(2 * USERS)  # the latest refusals still count
