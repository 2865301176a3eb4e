"""Every callback query is answered: the handler answers first (with an alert if
the press was refused), and whatever happens after, unanswered queries get an empty
answer here."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.exceptions import TelegramAPIError
from aiogram.types import CallbackQuery, TelegramObject

log = logging.getLogger(__name__)

#: Telegram shows at most 200 characters of a callback answer.
MAX_ANSWER = 200


class CallbackAnswer:
    """Answers one callback query, once: ``await answer(text)`` shows ``text`` as an
    alert, ``await answer()`` just stops the button's spinner."""

    def __init__(self, query: CallbackQuery) -> None:
        self.query = query
        self.answered = False

    async def __call__(self, alert: str | None = None) -> None:
        if self.answered:
            return
        self.answered = True
        text = alert[:MAX_ANSWER] if alert else None
        try:
            await self.query.answer(text=text, show_alert=True if text else None)
        except TelegramAPIError as error:  # too late, or Telegram hiccuped
            log.warning("could not answer a callback query: %s", error.message)


class AnswerCallbacks(BaseMiddleware):
    """An outer middleware: hands a :class:`CallbackAnswer` to the handler as
    ``answer`` and answers the query if nobody did (no handler, an error)."""

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        if not isinstance(event, CallbackQuery):
            return await handler(event, data)
        answer = data["answer"] = CallbackAnswer(event)
        try:
            return await handler(event, data)
        finally:
            await answer()
