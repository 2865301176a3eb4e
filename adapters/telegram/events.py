"""The Telegram side of a Swiss evening (:mod:`bot.service.events`): a round's tables
and the final standings as new messages in the group (the final ones with their
picture), the standings as one message, edited after every table's end (its id kept
with the event, so a restarted bot edits the same message)."""

from __future__ import annotations

import asyncio
import logging

from aiogram.types import Message

from adapters.telegram.outbox import Outbox
from adapters.telegram.render import chat_id, thread_id
from bot.event import Event
from bot.interactions import Interactions
from bot.ports import EventNews

log = logging.getLogger(__name__)


class TelegramAnnouncer:
    def __init__(self, interactions: Interactions, outbox: Outbox) -> None:
        self.interactions = interactions
        self.outbox = outbox
        self._tasks: set[asyncio.Future[None]] = set()

    async def announce(self, event: Event, news: EventNews) -> None:
        chat, thread = chat_id(event.chat), thread_id(event.chat)
        for screen, picture in self.interactions.event_ui.news(event, news):
            known = event.standings_message
            if news is EventNews.STANDINGS and known is not None:
                self.outbox.edit(chat, int(known), screen)
                continue
            standings = news is EventNews.STANDINGS
            sent = self.outbox.send(chat, screen, thread=thread, photo=picture, result=standings)
            if sent is not None:  # the event's lock is held: its id is kept afterwards
                task = asyncio.ensure_future(self._keep(event.id, sent))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    async def _keep(self, event_id: int, sent: asyncio.Future[Message | None]) -> None:
        try:
            message = await sent
        except Exception:
            log.exception("the standings of event %s were not sent", event_id)
            return
        if message is not None:
            events = self.interactions.service.events
            await events.standings_shown(event_id, str(message.message_id))
