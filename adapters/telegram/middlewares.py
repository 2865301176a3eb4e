"""Commands of a user who floods are not handled (:class:`CommandFlood`), and every
callback query is answered: the handler answers first (with an alert if
the press was refused), and whatever happens after, unanswered queries get an empty
answer here.

In webhook mode the answer needs no request of its own: it goes back as the answer
to Telegram's POST of the update ("reply into webhook"), once the handler returned.
If the handler fails, it is sent as a request at once instead.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.dispatcher.event.bases import UNHANDLED
from aiogram.exceptions import TelegramAPIError
from aiogram.methods import AnswerCallbackQuery
from aiogram.types import CallbackQuery, Message, TelegramObject

from adapters.telegram.outbox import Outbox
from adapters.telegram.render import chat_of, thread_of, user_of
from adapters.telegram.session import LeanSession
from bot.interactions import Interactions
from bot.presenters import Screen

log = logging.getLogger(__name__)

#: Telegram shows at most 200 characters of a callback answer.
MAX_ANSWER = 200


class CallbackAnswer:
    """Answers one callback query, once: ``await answer(text)`` shows ``text`` as an
    alert, ``await answer()`` just stops the button's spinner. With ``into_webhook``
    the answer is kept in :attr:`method` for the webhook's response."""

    __slots__ = ("answered", "into_webhook", "method", "query")

    def __init__(self, query: CallbackQuery, *, into_webhook: bool = False) -> None:
        self.query = query
        self.into_webhook = into_webhook
        self.answered = False
        self.method: AnswerCallbackQuery | None = None

    async def __call__(self, alert: str | None = None) -> None:
        if self.answered:
            return
        self.answered = True
        text = alert[:MAX_ANSWER] if alert else None
        if self.into_webhook:
            self.method = self._method(text)
            return
        bot = self.query.bot
        if bot is None or not isinstance(bot.session, LeanSession):
            await self._send(self._method(text))
            return
        # The request without its model (built only if the answer is an error).
        fields: dict[str, object] = {"callback_query_id": self.query.id}
        if text:
            fields.update(text=text, show_alert=True)
        try:
            await bot.session.post(bot, "answerCallbackQuery", fields, lambda: self._method(text))
        except TelegramAPIError as error:
            log.warning("could not answer a callback query: %s", error.message)

    async def open(self, url: str) -> bool:
        """Answer with a URL the user's client opens at once (Telegram takes only a
        ``t.me/<this bot>?start=<payload>`` link from a plain button); whether Telegram
        took it. Always a request of its own, also in webhook mode: only a request
        tells whether it went through, and a refused one leaves the query to answer
        otherwise."""
        if self.answered:
            return False
        bot = self.query.bot
        if bot is None:
            return False
        try:
            await bot(self.query.answer(url=url))
        except TelegramAPIError as error:
            log.warning("could not answer a callback query with a link: %s", error.message)
            return False
        self.answered = True
        return True

    def _method(self, text: str | None) -> AnswerCallbackQuery:
        return self.query.answer(text=text, show_alert=True if text else None)

    async def flush(self) -> None:
        """Answer now with a request (what was kept for the webhook, or nothing)."""
        await self()
        method, self.method = self.method, None
        if method is not None:
            await self._send(method)

    @staticmethod
    async def _send(method: AnswerCallbackQuery) -> None:
        try:
            await method
        except TelegramAPIError as error:  # too late, or Telegram hiccuped
            log.warning("could not answer a callback query: %s", error.message)


class AnswerCallbacks(BaseMiddleware):
    """An outer middleware: hands a :class:`CallbackAnswer` to the handler as
    ``answer`` and answers the query if nobody did (no handler, an error). With
    ``into_webhook`` the answer is returned (aiogram then puts it in the webhook's
    response) unless the handler returned something else."""

    def __init__(self, *, into_webhook: bool = False) -> None:
        self.into_webhook = into_webhook

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        if not isinstance(event, CallbackQuery):
            return await handler(event, data)
        answer = data["answer"] = CallbackAnswer(event, into_webhook=self.into_webhook)
        try:
            result = await handler(event, data)
        except BaseException:
            await answer.flush()
            raise
        await answer()
        if answer.method is not None:
            if result is None or result is UNHANDLED:
                return answer.method
            await answer.flush()
        return result


class CommandFlood(BaseMiddleware):
    """An inner middleware of the command routers (it runs once a command's handler
    matched): a user sending commands faster than :mod:`bot.flood` allows gets one
    "slow down" answer, then his commands are ignored for a while."""

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        if not isinstance(event, Message) or event.from_user is None:
            return await handler(event, data)
        interactions: Interactions = data["interactions"]
        reply = await interactions.command_flood(chat_of(event), user_of(event.from_user).ref)
        if reply is None:
            return await handler(event, data)
        if reply.alert:
            outbox: Outbox = data["outbox"]
            outbox.answer(
                event.chat.id, Screen(reply.alert), f"slow down {event.from_user.id}",
                thread=thread_of(event), reply_to=event.message_id,
            )  # fmt: skip
        return None
