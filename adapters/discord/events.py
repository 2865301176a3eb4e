"""The Discord side of a Swiss evening (:mod:`bot.service.events`): a round's tables
and the final standings as new messages in the event's channel (the final ones with
their picture attached), the standings as one message, edited after every table's end
(its id kept with the event, so a restarted bot edits the same message).

Everything goes through the publisher's lanes (:meth:`DiscordPublisher.deliver`): one
lane an event, so its messages keep their order and discord.py's rate-limit handling
paces them as it paces the games. ``announce`` runs under the event's lock, so it only
queues. The standings job shows the latest standings when its turn comes: a burst of
table ends costs one edit, and standings queued while the first standings message is
on its way edit it once it is sent, never a second message.

What was sent is told to the service once Discord took it
(:meth:`~bot.service.events.Events.shown`, in a task of its own: it takes the event's
lock): a process killed before that shows it again when it starts.
"""

from __future__ import annotations

import logging
from functools import partial

import discord

from adapters.discord.publisher import DiscordPublisher, LaneKey
from bot.event import Event
from bot.interactions import Interactions
from bot.models import ChatRef
from bot.ports import EventNews
from bot.presenters import Screen

log = logging.getLogger(__name__)


def lane(event_id: int) -> LaneKey:
    """The lane of an event's messages."""
    return (f"event {event_id}", "news")


class DiscordAnnouncer:
    """The Discord side of :class:`bot.ports.Announcer`."""

    def __init__(self, interactions: Interactions, publisher: DiscordPublisher) -> None:
        self.interactions = interactions
        self.publisher = publisher
        #: Each event's latest standings, shown by its next standings job.
        self._latest: dict[int, Screen] = {}
        #: What each event's standings message shows now (an equal edit is skipped).
        self._shown: dict[int, Screen] = {}
        #: The standings messages this process sent (until the service keeps their id).
        self._ids: dict[int, int] = {}

    async def announce(self, event: Event, news: EventNews) -> None:
        for screen, picture in self.interactions.event_ui.news(event, news):
            if news is EventNews.STANDINGS:
                self._latest[event.id] = screen
                known = event.standings_message
                job = partial(self._show_standings, event.id, event.chat, known, event.round)
            else:
                job = partial(self._post, event, news, screen, picture)
            self.publisher.deliver(lane(event.id), job)

    async def _post(
        self, event: Event, news: EventNews, screen: Screen, picture: bytes | None
    ) -> None:
        try:
            message_id = await self.publisher.post(event.chat, screen, image=picture)
        except (discord.Forbidden, discord.NotFound):
            # The channel refuses it for good: not shown again at every start.
            self._keep(event.id, news, event.round, None)
            raise
        self._keep(event.id, news, event.round, message_id)
        if news in (EventNews.FINAL, EventNews.STOPPED):
            self._forget(event.id)

    async def _show_standings(
        self, event_id: int, chat: ChatRef, known: str | None, round_: int
    ) -> None:
        screen = self._latest.get(event_id)
        if screen is None or self._shown.get(event_id) == screen:
            return
        message_id = self._ids.get(event_id) or (int(known) if known else None)
        if message_id is not None:
            try:
                await self.publisher.edit(chat, message_id, screen)
            except discord.NotFound:
                log.info("event %s: the standings message is gone, posting a new one", event_id)
            else:
                self._shown[event_id] = screen
                return
        message_id = await self.publisher.post(chat, screen)
        self._ids[event_id] = message_id
        self._shown[event_id] = screen
        self._keep(event_id, EventNews.STANDINGS, round_, message_id)

    def _keep(self, event_id: int, news: EventNews, round_: int, message_id: int | None) -> None:
        shown = str(message_id) if message_id is not None else None
        self.publisher.later(self._shown_to_service(event_id, news, round_, shown))

    async def _shown_to_service(
        self, event_id: int, news: EventNews, round_: int, message_id: str | None
    ) -> None:
        try:
            await self.interactions.service.events.shown(event_id, news, round_, message_id)
        except Exception:
            log.exception("event %s: could not keep that its %s news was shown", event_id, news)

    def _forget(self, event_id: int) -> None:
        """The event is over and its last message out: what was kept for it goes."""
        for kept in (self._latest, self._shown, self._ids):
            kept.pop(event_id, None)
