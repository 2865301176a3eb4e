"""A group that became a supergroup keeps its game and scores: Telegram posts a
``migrate_to_chat_id`` service message in the old chat."""

from __future__ import annotations

from aiogram import Router
from aiogram.types import Message

from adapters.telegram.handlers.common import migrating
from adapters.telegram.outbox import Outbox


async def migrated(message: Message, outbox: Outbox) -> None:
    if message.migrate_to_chat_id is not None:
        await outbox.migrate(message.chat.id, message.migrate_to_chat_id)


def router() -> Router:
    migration = Router(name=__name__)
    migration.message.register(migrated, migrating)
    return migration
