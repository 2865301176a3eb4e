"""What the handlers share: answering with a :class:`Reply`, admin checks."""

from __future__ import annotations

from aiogram import Bot
from aiogram.enums import ChatMemberStatus
from aiogram.exceptions import TelegramAPIError
from aiogram.types import Message

from adapters.telegram.outbox import Outbox
from adapters.telegram.publisher import TABLE
from adapters.telegram.render import chat_id, thread_id, thread_of
from bot.interactions import Reply
from bot.presenters import Screen

_ADMINS = (ChatMemberStatus.CREATOR, ChatMemberStatus.ADMINISTRATOR)


async def is_admin(bot: Bot, chat: int, user: int) -> bool:
    """Whether the user may act as the chat's admin (in a private chat: always)."""
    if chat > 0:
        return True
    try:
        member = await bot.get_chat_member(chat, user)
    except TelegramAPIError:
        return False
    return member.status in _ADMINS


def answer(outbox: Outbox, message: Message, reply: Reply) -> None:
    """Answer a command in its chat (and topic): the reply's screen or its alert.
    An alert about a running game answers the game's table message."""
    chat, thread, reply_to = message.chat.id, thread_of(message), None
    game = reply.game
    if reply.screen is None and game is not None and chat_id(game.chat) == chat:
        thread = thread_id(game.chat)
        reply_to = outbox.message_id((game.id, TABLE), game.messages.get(TABLE))
    screen = reply.screen or (Screen(reply.alert) if reply.alert else None)
    if screen is not None:
        outbox.send(chat, screen, thread=thread, reply_to=reply_to)
