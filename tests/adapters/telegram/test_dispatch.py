"""The dispatcher never sends an update to a worker thread: aiogram runs every
handler, filter or middleware that is a plain function through
``asyncio.to_thread`` (a magic filter such as ``F.data`` too), a thread round trip
for each update it checks."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from aiogram import Bot, Router
from aiogram.dispatcher.event.handler import CallableObject
from aiogram.types import CallbackQuery, Chat, Message, Update, User

from adapters.telegram.adapter import build_dispatcher
from adapters.telegram.outbox import Outbox, Pacing
from bot.i18n import Translator
from bot.interactions import Interactions
from bot.memory import MemoryStorage
from bot.service import GameService


def callables(router: Router) -> Iterator[tuple[str, CallableObject]]:
    """Every handler and filter of the router and of the routers under it."""
    for name, observer in router.observers.items():
        for handler in observer.handlers:
            yield f"{router.name}.{name} handler", handler
            for filter_ in handler.filters or []:
                yield f"{router.name}.{name} filter", filter_
    for sub in router.sub_routers:
        yield from callables(sub)


def dispatcher() -> Any:
    service = GameService(MemoryStorage())
    tr = Translator.from_dir()
    outbox = Outbox(Bot("1:TEST"), Pacing.off())
    return build_dispatcher(
        service=service, interactions=Interactions(service, tr), tr=tr, outbox=outbox
    )


def test_every_handler_and_filter_is_a_coroutine() -> None:
    found = list(callables(dispatcher()))
    assert len(found) > 10  # the walk found the routers' handlers and filters
    plain = [(where, obj.callback) for where, obj in found if not obj.awaitable]
    assert plain == []


async def test_a_press_and_a_message_never_go_to_a_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    dp = dispatcher()
    bot = Bot("1:TEST")
    threads: list[object] = []

    async def to_thread(function: object, *args: object, **kwargs: object) -> None:
        threads.append(function)

    monkeypatch.setattr(asyncio, "to_thread", to_thread)
    user = User(id=5, is_bot=False, first_name="Alice")
    group = Chat(id=-100, type="group", title="Club")
    message = Message(message_id=1, date=0, chat=group, from_user=user, text="hello")
    query = CallbackQuery(id="1", from_user=user, chat_instance="1", data="zz", message=message)
    answered: list[str] = []

    async def answer(*args: object, **kwargs: object) -> None:
        answered.append("answer")

    monkeypatch.setattr(CallbackQuery, "answer", lambda self, **kwargs: answer())
    for update in (Update(update_id=1, callback_query=query), Update(update_id=2, message=message)):
        await dp.feed_update(bot, update)
    await bot.session.close()
    assert threads == []
