"""What the handlers share: answering with a :class:`Reply`, admin checks."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiogram import Bot
from aiogram.enums import ChatMemberStatus, ChatType
from aiogram.exceptions import TelegramAPIError, TelegramMigrateToChat
from aiogram.types import CallbackQuery, ChatMemberRestricted, Message

from adapters.telegram.outbox import Outbox
from adapters.telegram.publisher import TABLE
from adapters.telegram.render import chat_id, chat_of, thread_id, thread_of
from bot.interactions import Interactions, Reply
from bot.presenters import Screen

#: How much of a command's text keys its answer (answers with one key coalesce).
KEY_CHARS = 100

# Filters are coroutines: aiogram runs a plain function (a magic filter such as
# ``F.data`` too) on a worker thread, a thread round trip for every update it checks.


async def has_data(query: CallbackQuery) -> bool:
    """A callback query from an inline button (``F.data``)."""
    return bool(query.data)


async def in_private(message: Message) -> bool:
    """A message in a private chat (``F.chat.type == "private"``)."""
    return message.chat.type == ChatType.PRIVATE


async def migrating(message: Message) -> bool:
    """The service message of a group that became a supergroup
    (``F.migrate_to_chat_id``)."""
    return bool(message.migrate_to_chat_id)


_ADMINS = (ChatMemberStatus.CREATOR, ChatMemberStatus.ADMINISTRATOR)
_MEMBERS = (*_ADMINS, ChatMemberStatus.MEMBER)


async def is_admin(bot: Bot, chat: int, user: int) -> bool:
    """Whether the user may act as the chat's admin (in a private chat: its user)."""
    if chat > 0:
        return chat == user
    try:
        member = await bot.get_chat_member(chat, user)
    except TelegramAPIError:
        return False
    return member.status in _ADMINS


def as_the_group(message: Message) -> bool:
    """A message an anonymous admin sent as the group itself (Telegram sends it from
    GroupAnonymousBot, with the group as ``sender_chat``): only its admins can."""
    sender = message.sender_chat
    return sender is not None and sender.id == message.chat.id


async def speaks_for_the_chat(bot: Bot, message: Message) -> bool:
    """Whether the message's sender may act as its chat's admin: an admin, one writing
    as the group itself, or a private chat's user."""
    sender = message.from_user
    if as_the_group(message):
        return True
    return sender is not None and await is_admin(bot, message.chat.id, sender.id)


async def is_member(bot: Bot, chat: int, user: int) -> bool:
    """Whether the user is a member of the chat (``getChatMember``; a restricted user
    still in the chat counts). A private chat's only member is its user; a chat the
    bot cannot ask about has none. A group that became a supergroup is asked about
    under its new id (the game follows it once the bot notices)."""
    if chat > 0:
        return chat == user
    try:
        try:
            member = await bot.get_chat_member(chat, user)
        except TelegramMigrateToChat as moved:
            member = await bot.get_chat_member(moved.migrate_to_chat_id, user)
    except TelegramAPIError:
        return False
    if isinstance(member, ChatMemberRestricted):
        return member.is_member
    return member.status in _MEMBERS


def answer(outbox: Outbox, interactions: Interactions, message: Message, reply: Reply) -> None:
    """Answer a command in its chat (and topic): the reply's screen or its alert.
    An alert about a running game answers the game's table message. The answer goes
    after the game's messages in the chat, and coalesces with a pending answer to the
    same command (:meth:`Outbox.answer`, keyed by :func:`answer_key`)."""
    chat, thread, reply_to = message.chat.id, thread_of(message), None
    game = reply.game
    if reply.screen is None and game is not None and chat_id(game.chat) == chat:
        thread = thread_id(game.chat)
        reply_to = outbox.message_id((game.id, TABLE), game.messages.get(TABLE))
    screen = reply.screen or (Screen(reply.alert) if reply.alert else None)
    if screen is not None:
        outbox.answer(
            chat, screen, answer_key(message), thread=thread, reply_to=reply_to,
            busy=busy(interactions, message),
        )  # fmt: skip


def answer_key(message: Message) -> str:
    """What makes two commands the same, so that their answers may coalesce: the
    command and its words (in any case and spacing, ``@botname`` or not), and whose
    message it replies to (``/stats`` in reply to someone is about him)."""
    command, _, words = (message.text or "").partition(" ")
    key = " ".join([command.split("@", 1)[0], *words.split()]).lower()[:KEY_CHARS]
    replied = message.reply_to_message
    if replied is not None and replied.from_user is not None:
        key = f"{key} >{replied.from_user.id}"
    return key


def busy(interactions: Interactions, message: Message) -> Callable[[], Awaitable[Screen]]:
    """The notice that some answers in the message's chat were dropped, rendered if
    it is needed."""
    chat = chat_of(message)
    return lambda: interactions.dropped_answers(chat)
