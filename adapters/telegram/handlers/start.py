"""``/start`` in a private chat, with or without a deep-link payload.

A player the bot could not write to got a ``t.me/<bot>?start=<payload>`` button in
the group (:meth:`Interactions.join_link`: signed, bound to one game and team); it
opens this chat and sends ``/start <payload>``: the bot can write now, so the player
is seated if he is a member of the game's group, and gets the hand if the game runs.
"""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.filters import CommandObject, CommandStart
from aiogram.types import Message

from adapters.telegram.handlers.common import is_member
from adapters.telegram.outbox import Outbox
from adapters.telegram.publisher import hand_key
from adapters.telegram.render import chat_id, user_of
from bot import presenters
from bot.interactions import Interactions
from bot.models import ChatRef
from bot.presenters import Screen


async def start(
    message: Message,
    command: CommandObject,
    bot: Bot,
    interactions: Interactions,
    outbox: Outbox,
) -> None:
    sender = message.from_user
    if sender is None:
        return
    outbox.reachable(sender.id)
    user = user_of(sender)
    if not command.args:
        locale = await interactions.user_locale(user, sender.language_code)
        outbox.send(message.chat.id, presenters.dm_hello(interactions.tr, locale))
        return

    async def member(chat: ChatRef) -> bool:
        return await is_member(bot, chat_id(chat), sender.id)

    reply = await interactions.join_by_link(
        user, command.args, is_member=member, platform_language=sender.language_code
    )
    if reply.alert:
        outbox.send(message.chat.id, Screen(reply.alert))
        return
    locale = await interactions.user_locale(user, sender.language_code)
    outbox.send(message.chat.id, presenters.dm_hello(interactions.tr, locale))
    game, seat = reply.game, reply.seat
    if reply.hand is None or game is None or seat is None:
        return
    # A seated player of a running game gets the hand (the first one may have failed).
    key = hand_key(seat)
    slot, known = (game.id, key), game.messages.get(key)
    outbox.show(sender.id, slot, reply.hand, version=game.version, known=known, pressed=True)


def router() -> Router:
    private = Router(name=__name__)
    private.message.register(start, CommandStart(), F.chat.type == "private")
    return private
