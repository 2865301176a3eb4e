"""The outbox's memory stays bounded: its per-chat maps however many chats it writes
to, its record of failures however many sends fail."""

from __future__ import annotations

import gc
import logging
from typing import cast

import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramServerError
from aiogram.methods import SendMessage

from adapters.telegram import outbox as outbox_module
from adapters.telegram.outbox import (
    FAILURES_KEPT,
    PRUNE_AT,
    REACHABLE_KEPT,
    REASON_CHARS,
    Outbox,
    Pacing,
)
from bot.presenters import Screen

CHATS = 100_000


async def test_the_per_chat_maps_are_pruned_after_many_chats() -> None:
    """Regression: every private chat and group the bot ever wrote to stayed in the
    pacing maps, and every user who ever wrote to it in the reachable set."""
    pacing = Pacing(chat_interval=0.0, group_window=0.0)  # every window has passed
    outbox = Outbox(cast(Bot, object()), pacing)
    for chat in range(1, CHATS + 1):
        outbox._done(chat, True)  # a private message went out
        outbox._done(-chat, False)  # and one into a group
        outbox.reachable(chat)
    assert len(outbox._chat_last) + len(outbox._group_sent) <= 2 * PRUNE_AT
    assert len(outbox._reachable) == REACHABLE_KEPT
    assert CHATS in outbox._reachable and 1 not in outbox._reachable  # the latest kept


async def test_chats_still_in_their_window_are_kept() -> None:
    outbox = Outbox(cast(Bot, object()), Pacing())  # a minute for groups, a second for DMs
    for chat in range(1, 2 * PRUNE_AT):
        outbox._done(-chat, False)
    assert len(outbox._group_sent) == 2 * PRUNE_AT - 1  # all of them still pace


class _Failing:
    """A bot whose every message fails with a 5xx."""

    async def send_message(self, chat_id: int, text: str, **_: object) -> None:
        method = SendMessage(chat_id=chat_id, text=text)
        raise TelegramServerError(method, "Internal Server Error: " + "x" * 5000)


async def test_failed_sends_keep_counts_and_the_last_few_not_every_traceback(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Regression: the outbox kept every failed send's exception, traceback and all
    (3,000 5xx: 16.5 MB). It keeps a count by type and the last ``FAILURES_KEPT``
    with a short reason; the traceback is logged for the first of a type only."""
    monkeypatch.setattr(outbox_module, "_NETWORK_RETRIES", 0)  # no backoff between tries
    outbox = Outbox(cast(Bot, _Failing()), Pacing.off())
    with caplog.at_level(logging.ERROR, "adapters.telegram.outbox"):
        for number in range(3_000):
            outbox.send(-(number % 7) - 1, Screen(f"notice {number}"))
        await outbox.drain()
    stats = outbox.stats
    assert stats.failed == {"TelegramServerError": 3_000}
    assert len(stats.failures) == FAILURES_KEPT
    assert all(len(failure.reason) <= REASON_CHARS for failure in stats.failures)
    assert {f.error for f in stats.failures} == {"TelegramServerError"}
    gc.collect()
    alive = sum(isinstance(o, TelegramServerError) for o in gc.get_objects())
    assert alive <= 1  # the first, in its captured log record; the outbox keeps none
    assert sum(record.exc_info is not None for record in caplog.records) == 1
    assert len(caplog.records) == 3_000
    assert max(len(record.getMessage()) for record in caplog.records) < 2 * REASON_CHARS
