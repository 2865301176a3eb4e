"""What every part of a Swiss evening's service shares (:class:`EventsBase`): the
event loaded and changed under its lock and saved from the version it was loaded at,
its reads, the platforms' announcers and what the group was sent of its news
(:meth:`EventsBase.shown`). :class:`bot.service.events.Events` runs the evening on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

from bot.errors import ServiceError
from bot.event import Event, EventError, StaleEvent
from bot.models import ChatRef, Platform
from bot.ports import Announcer, EventNews, Storage
from bot.service.lobby import Lobby
from bot.service.people import People
from bot.service.publishing import Publishing
from bot.service.steps import Steps
from bot.service.tables import Tables

log = logging.getLogger(__name__)


class EventsBase:
    """An event's lock, saves, reads and announcements."""

    def __init__(
        self, tables: Tables, steps: Steps, publishing: Publishing, people: People, lobby: Lobby
    ) -> None:
        self.tables = tables
        self.steps = steps
        self.publishing = publishing
        self.people = people
        self.lobby = lobby
        #: Each platform's side (its adapter adds it).
        self.announcers: dict[Platform, Announcer] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        #: The settles a table's end set off (awaited by :meth:`idle`).
        self.tasks: set[asyncio.Task[None]] = set()

    @property
    def storage(self) -> Storage:
        return self.tables.storage

    @contextlib.asynccontextmanager
    async def _locked(self, event_id: int) -> AsyncIterator[Event]:
        lock = self._locks.setdefault(event_id, asyncio.Lock())
        async with lock:
            event = await self.storage.load_event(event_id)
            if event is None:
                raise ServiceError(EventError.NONE)
            yield event

    async def _save(self, event: Event, new_tables: Any = ()) -> Event:
        """Save a change made to ``event`` (as loaded, at its version)."""
        base = event.version
        try:
            saved: Event = await self.storage.save_event(
                event.with_(version=base + 1), base, new_tables
            )
        except StaleEvent:
            raise ServiceError(EventError.NONE) from None
        return saved

    # --- Reads ----------------------------------------------------------------------------

    async def event(self, event_id: int) -> Event:
        event: Event | None = await self.storage.load_event(event_id)
        if event is None:
            raise ServiceError(EventError.NONE)
        return event

    async def chat_event(self, chat: ChatRef) -> Event | None:
        found: Event | None = await self.storage.chat_event(chat)
        return found

    async def shown(
        self, event_id: int, news: EventNews, round_: int, message_id: str | None = None
    ) -> None:
        """The group was sent ``news`` (of round ``round_``): kept, so that a start
        shows again only what a killed process had not sent. The standings message's
        id is kept so that the next standings edit it."""
        async with self._locked(event_id) as event:
            change: dict[str, Any] = {}
            if news is EventNews.STANDINGS and message_id and not event.standings_message:
                change["standings_message"] = message_id
            elif news is EventNews.ROUND and event.round_shown < round_:
                change["round_shown"] = round_
            elif news in (EventNews.FINAL, EventNews.STOPPED) and not event.end_shown:
                change["end_shown"] = True
            if change:
                await self._save(event.with_(**change))

    async def _live(self, chat: ChatRef) -> Event:
        event = await self.chat_event(chat)
        if event is None:
            raise ServiceError(EventError.NONE)
        return event

    def remove_announcer(self, platform: Platform, announcer: Announcer) -> None:
        if self.announcers.get(platform) is announcer:
            del self.announcers[platform]

    async def idle(self) -> None:
        """Wait for the settles under way (tests and shutdown)."""
        while self.tasks:
            await asyncio.gather(*list(self.tasks), return_exceptions=True)

    async def _announce(self, event: Event, news: EventNews) -> None:
        announcer = self.announcers.get(event.chat.platform)
        if announcer is None:
            return
        try:
            await announcer.announce(event, news)
        except Exception:
            log.exception("announcing %s of event %s failed", news, event.id)
