"""The Telegram side of a Swiss evening (:mod:`bot.service.events`): a round's tables
and the final standings as new messages in the group (the final ones with their
picture), the standings as one message, edited after every table's end (its id kept
with the event, so a restarted bot edits the same message).

What was sent is told to the service once Telegram took it
(:meth:`~bot.service.events.Events.shown`): a process killed before that shows it
again when it starts."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

from aiogram.types import Message

from adapters.telegram.outbox import Outbox
from adapters.telegram.render import chat_id, thread_id
from bot.event import Event
from bot.interactions import Interactions
from bot.ports import EventNews
from bot.presenters import Screen

log = logging.getLogger(__name__)

Sent = asyncio.Future[Message | None]


class TelegramAnnouncer:
    def __init__(self, interactions: Interactions, outbox: Outbox) -> None:
        self.interactions = interactions
        self.outbox = outbox
        self._tasks: set[asyncio.Future[None]] = set()
        #: Each event's first standings message while it is on its way: the standings
        #: after it edit it once its id is known (never a second message).
        self._first_standings: dict[int, Sent] = {}
        #: The standings messages this process sent (until the service keeps their id).
        self._standings_ids: dict[int, int] = {}

    async def announce(self, event: Event, news: EventNews) -> None:
        chat, thread = chat_id(event.chat), thread_id(event.chat)
        for screen, picture in self.interactions.event_ui.news(event, news):
            if news is EventNews.STANDINGS:
                self._standings(event, screen)
                continue
            sent = self.outbox.send(chat, screen, thread=thread, photo=picture, result=True)
            if sent is not None:
                self._later(self._keep(event.id, news, event.round, sent))

    def _standings(self, event: Event, screen: Screen) -> None:
        chat = chat_id(event.chat)
        known = event.standings_message or self._standings_ids.get(event.id)
        if known is not None:
            self.outbox.edit(chat, int(known), screen)
            return
        pending = self._first_standings.get(event.id)
        if pending is not None:
            self._later(self._edit_when_sent(chat, pending, screen))
            return
        sent = self.outbox.send(chat, screen, thread=thread_id(event.chat), result=True)
        if sent is not None:
            self._first_standings[event.id] = sent
            sent.add_done_callback(lambda done: self._first_sent(event.id, done))
            self._later(self._keep(event.id, EventNews.STANDINGS, event.round, sent))

    def _first_sent(self, event_id: int, sent: Sent) -> None:
        self._first_standings.pop(event_id, None)
        if not sent.cancelled() and sent.exception() is None and (message := sent.result()):
            self._standings_ids[event_id] = message.message_id

    async def _edit_when_sent(self, chat: int, sent: Sent, screen: Screen) -> None:
        try:
            message = await sent
        except Exception:
            return  # logged by its _keep
        if message is not None:
            self.outbox.edit(chat, message.message_id, screen)

    def _later(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _keep(self, event_id: int, news: EventNews, round_: int, sent: Sent) -> None:
        try:
            message = await sent
        except Exception:
            log.exception("the %s news of event %s was not sent", news, event_id)
            return
        if message is not None:
            events = self.interactions.service.events
            await events.shown(event_id, news, round_, str(message.message_id))
