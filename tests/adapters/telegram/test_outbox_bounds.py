"""The outbox's per-chat maps stay bounded however many chats it writes to."""

from __future__ import annotations

from typing import cast

from aiogram import Bot

from adapters.telegram.outbox import PRUNE_AT, REACHABLE_KEPT, Outbox, Pacing

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
