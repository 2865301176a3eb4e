"""A Swiss evening's commands and buttons, the same on every platform (the part of
:class:`~bot.interactions.Interactions` for :mod:`bot.event`).

``/event open|start|kick N|stop`` (the Russian words too) answer with one message or
one line; the registration message's buttons (:data:`bot.codec.Verb.EVENT`) answer in
that message. A press must be on its own event's message in its own chat: a forged or
stale button of another event or chat, another pair, a closed registration, is one
alert line and changes nothing (the service checks each against the saved event).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bot.codec import Command
from bot.errors import ServiceError
from bot.event import Event, EventError, EventRefused, parse_open
from bot.models import ChatRef, User
from bot.outputs import Output, PressReply, Target
from bot.pictures.event import final_picture
from bot.ports import EventNews
from bot.presenters import Screen
from bot.presenters import event as screens
from core.ruleset import rule_set_ids

if TYPE_CHECKING:
    from bot.interactions import Interactions, Reply
    from bot.presses import CanMessage, ChatCheck, Pressed

log = logging.getLogger(__name__)

#: Each subcommand's words (English and Russian).
WORDS = {
    "open": "open",
    "открыть": "open",
    "start": "start",
    "начать": "start",
    "kick": "kick",
    "снять": "kick",
    "stop": "stop",
    "стоп": "stop",
}


class EventUI:
    """``/event`` and the registration buttons."""

    def __init__(self, ui: Interactions) -> None:
        self.ui = ui

    @property
    def events(self):  # type: ignore[no-untyped-def]
        return self.ui.service.events

    def refusal(self, error: ServiceError, locale: str) -> str:
        values = error.values if isinstance(error, EventRefused) else {}
        return self.ui.tr.t(locale, f"err-{error.code}", **values)

    async def command(
        self, chat: ChatRef, user: User, words: str | None, *, is_admin: bool, private: bool
    ) -> Reply:
        from bot.interactions import Reply

        locale = await self.ui.chat_locale(chat)
        head, *rest = (words or "").split() or [""]
        what = WORDS.get(head.lower())
        try:
            if private:
                raise ServiceError(EventError.IN_PRIVATE)
            if what == "open":
                try:
                    asked = parse_open(rest, rule_set_ids())
                except ValueError as error:
                    raise ServiceError(str(error)) from None
                event = await self.events.open(chat, user, asked, is_admin=is_admin)
                return Reply(screen=screens.registration(event, self.ui.tr, event.locale))
            if what == "start":
                found = await self.events.chat_event(chat)
                if found is None:
                    raise ServiceError(EventError.NONE)
                event = await self.events.start(found.id, chat, is_admin=is_admin)
                return Reply(screen=screens.registration(event, self.ui.tr, event.locale))
            if what == "kick" and len(rest) == 1 and rest[0].isdigit():
                event = await self.events.kick(chat, int(rest[0]), is_admin=is_admin)
                line = self.ui.tr.t(locale, "event-kicked", team=rest[0])
                return Reply(screen=Screen(line))
            if what == "stop":  # one line: a command is answered (Discord waits for it)
                await self.events.stop(chat, is_admin=is_admin)
                return Reply(screen=Screen(self.ui.tr.t(locale, "event-stopped-line")))
            found = await self.events.chat_event(chat)
            if found is not None and not rest and not head:
                return Reply(screen=screens.registration(found, self.ui.tr, found.locale))
            raise ServiceError(EventError.BAD_WORDS)
        except ServiceError as error:
            return Reply(alert=self.refusal(error, locale))

    async def press(
        self,
        user: User,
        command: Command,
        where: Pressed,
        locale: str,
        is_admin: ChatCheck | None,
        can_message: CanMessage | None,
    ) -> PressReply:
        """A registration button: in the pressed message, the event as it is now."""
        arg, events = command.arg, self.events
        event: Event | None = None
        try:
            event = await events.event(command.game_id)
            if (where.chat.platform, where.chat.id) != (event.chat.platform, event.chat.id):
                raise ServiceError(EventError.NONE)
            if where.owner is not None:  # an event's message is a group's
                raise ServiceError(EventError.NONE)
            if arg == "s":
                admin = is_admin is not None and await is_admin(event.chat)
                event = await events.start(
                    event.id, where.chat, is_admin=admin, version=command.version
                )
            elif arg == "l":
                event = await events.leave(event.id, where.chat, user)
            elif arg == "n" or (arg[:1] == "j" and arg[1:].isdigit() and len(arg) <= 4):
                if can_message is not None and not await can_message():
                    raise ServiceError("cannot-message")
                reliability = await self.ui.service.reliability(user.ref)
                team = None if arg == "n" else int(arg[1:])
                event = await events.register(event.id, where.chat, user, team, reliability)
            else:
                raise ServiceError("malformed")
        except ServiceError as error:
            self.ui._count_refusal(error.code)
            alert = Output(Target.ALERT, Screen(self.refusal(error, locale)))
            # Registration is over (the chat and the message's owner were checked):
            # the event's own registration message, left behind by /event start or
            # stop, shows the event as it is (no buttons) too.
            if (
                error.code != EventError.NOT_OPEN
                or event is None
                or not where.is_registration_of(event.id)
            ):
                return PressReply((alert,))
            screen = screens.registration(event, self.ui.tr, event.locale)
            return PressReply((alert, Output(Target.EDIT, screen)), version=event.version)
        screen = screens.registration(event, self.ui.tr, event.locale)
        return PressReply((Output(Target.EDIT, screen),), version=event.version)

    def news(self, event: Event, news: EventNews) -> list[tuple[Screen, bytes | None]]:
        """What the group is shown of the news: the standings' screen (edited in its
        one message), a round's tables, the final standings with their picture."""
        tr, locale = self.ui.tr, event.locale
        if news is EventNews.ROUND:
            return [(screens.round_tables(event, tr, locale), None)]
        if news is EventNews.FINAL:
            picture = None
            try:
                picture = final_picture(event, tr, locale)
            except Exception:  # a picture is a bonus: the text goes anyway
                log.exception("the final picture of event %s failed", event.id)
            return [(screens.standings_screen(event, tr, locale), picture)]
        return [(screens.standings_screen(event, tr, locale), None)]
