"""Answering one interaction: the first answer within Discord's 3 seconds, and late
interactions survived.

Discord drops an interaction that gets no answer within 3 seconds, and its token
serves follow-ups and edits for 15 minutes. :class:`Answer` runs the work and defers
only when the work is slow; afterwards it answers with the response if still possible,
else with a follow-up or an edit of the original. A token that Discord no longer knows
(the user saw "This interaction failed") is logged as a warning and every later
answer is skipped: what the press did stands, and the table shows it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Iterator
from typing import Any, TypeVar

import discord

from adapters.discord import render
from bot.presenters import Screen

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Unknown interaction, unknown webhook, invalid webhook token, already acknowledged.
EXPIRED_CODES = frozenset({10062, 10015, 50027, 40060})
#: The message to edit or delete is gone.
UNKNOWN_MESSAGE = 10008
#: Defer when the work has not finished after this many seconds (Discord allows 3).
DEFER_AFTER = 1.5


def is_expired(error: discord.HTTPException) -> bool:
    """Whether an error says the interaction (or its token) is gone."""
    return error.code in EXPIRED_CODES


class Answer:
    """The answers to one interaction."""

    def __init__(self, interaction: discord.Interaction[Any], *, defer_after: float) -> None:
        self.interaction = interaction
        self.defer_after = defer_after
        #: Discord no longer takes answers to this interaction.
        self.expired = False

    @property
    def answered(self) -> bool:
        return self.interaction.response.is_done()

    async def within(self, work: Awaitable[T], *, new_message: bool, ephemeral: bool = True) -> T:
        """The result of ``work``; if it takes longer than ``defer_after``, the
        interaction is deferred meanwhile: as "thinking" when the answer will be a new
        message (the first follow-up fills it in), else as an update of the message."""
        task = asyncio.ensure_future(work)
        try:
            done, _ = await asyncio.wait({task}, timeout=self.defer_after)
        except asyncio.CancelledError:
            task.cancel()
            raise
        if not done:
            await self.defer(new_message=new_message, ephemeral=ephemeral)
        return await task

    async def defer(self, *, new_message: bool, ephemeral: bool = True) -> None:
        if self.answered or self.expired:
            return
        async with self._tolerant("defer"):
            if new_message:
                await self.interaction.response.defer(ephemeral=ephemeral, thinking=True)
            else:
                await self.interaction.response.defer()

    async def ack(self) -> None:
        """Acknowledge a press that shows nothing of its own (the table shows it)."""
        await self.defer(new_message=False)

    async def send(self, screen: Screen, *, ephemeral: bool = True) -> None:
        """Answer with a new message (the response, or a follow-up)."""
        if self.expired:
            return
        text, view = render.content(screen.text), render.view(screen)
        async with self._tolerant("send"):
            if not self.answered:
                await self.interaction.response.send_message(text, view=view, ephemeral=ephemeral)
            else:
                await self.interaction.followup.send(text, view=view, ephemeral=ephemeral)

    async def send_text(self, text: str, *, ephemeral: bool = True) -> None:
        """Answer with a text, in several messages when it is long."""
        for part in render.chunks(text):
            await self.send(Screen(part), ephemeral=ephemeral)

    async def edit(self, screen: Screen) -> None:
        """Show ``screen`` in the message the button was on (or the original answer)."""
        if self.expired:
            return
        text, view = render.content(screen.text), render.view(screen)
        try:
            async with self._tolerant("edit"):
                if not self.answered:
                    await self.interaction.response.edit_message(content=text, view=view)
                else:
                    await self.interaction.edit_original_response(content=text, view=view)
        except discord.NotFound as error:
            if error.code != UNKNOWN_MESSAGE:
                raise
            # The pressed message was deleted meanwhile: the answer comes anew.
            await self.send(screen, ephemeral=True)

    async def delete(self) -> None:
        """Remove the message the button was on (an ephemeral dialog)."""
        await self.ack()
        if self.expired:
            return
        async with self._tolerant("delete"):
            try:
                await self.interaction.delete_original_response()
            except discord.NotFound as error:
                if error.code != UNKNOWN_MESSAGE:
                    raise  # else it is gone already

    @contextlib.asynccontextmanager
    async def _tolerant(self, what: str) -> AsyncIterator[None]:
        try:
            yield
        except discord.HTTPException as error:
            if not is_expired(error):
                raise
            self.expired = True
            log.warning(
                "interaction %s: too late to %s (%s %s); what it did stands",
                self.interaction.id,
                what,
                error.status,
                error.code,
            )


class Running:
    """The interactions being handled, to wait for them (tests, shutdown)."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    @contextlib.contextmanager
    def track(self) -> Iterator[None]:
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        try:
            yield
        finally:
            if task is not None:
                self._tasks.discard(task)

    @property
    def busy(self) -> bool:
        return bool(self._tasks)

    async def idle(self) -> None:
        while self._tasks:
            await asyncio.wait(set(self._tasks))
