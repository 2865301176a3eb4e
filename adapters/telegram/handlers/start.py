"""``/start`` in a private chat, with or without a deep-link payload, and ``/hand``.

``/hand new`` revokes the links to the web table his hands carried, then sends them
with new ones.

A player the bot could not write to got a ``t.me/<bot>?start=<payload>`` button in
the group (:meth:`Interactions.join_link`: signed, bound to one game and team); it
opens this chat and sends ``/start <payload>``: the bot can write now, so the player
is seated if he is a member of the game's group. ``/start`` and ``/hand`` then send
the player's current hand of every running game he sits in (whatever became of the
older hand messages).
"""

from __future__ import annotations

from aiogram import Bot, Router
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import Message

from adapters.telegram.handlers.common import in_private, is_member
from adapters.telegram.middlewares import CommandFlood
from adapters.telegram.outbox import Outbox
from adapters.telegram.publisher import hand_key
from adapters.telegram.render import chat_id, user_of
from bot import presenters
from bot.interactions import Interactions
from bot.models import ChatRef, User
from bot.presenters import Screen


async def start(
    message: Message,
    command: CommandObject,
    bot: Bot,
    interactions: Interactions,
    outbox: Outbox,
) -> None:
    """``/start``: a greeting (or why the deep link's seat was not taken), then the
    player's hand in every running game he sits in."""
    sender = message.from_user
    if sender is None:
        return
    outbox.reachable(sender.id)
    user = user_of(sender)
    alert = None
    if command.args:

        async def member(chat: ChatRef) -> bool:
            return await is_member(bot, chat_id(chat), sender.id)

        reply = await interactions.join_by_link(
            user, command.args, is_member=member, platform_language=sender.language_code
        )
        alert = reply.alert
    if alert:
        outbox.send(message.chat.id, Screen(alert))
    else:
        locale = await interactions.user_locale(user, sender.language_code)
        outbox.send(message.chat.id, presenters.dm_hello(interactions.tr, locale))
    await _post_hands(interactions, outbox, user)


async def hand(
    message: Message, command: CommandObject, interactions: Interactions, outbox: Outbox
) -> None:
    """``/hand``: the player's hand in every running game he sits in, as new messages.
    ``/hand new``: first the links to the web table his hands carried are revoked;
    the hands sent then carry new ones."""
    if message.from_user is None:
        return
    outbox.reachable(message.from_user.id)
    user = user_of(message.from_user)
    if interactions.wants_new_links(command.args):
        language = message.from_user.language_code
        reply = await interactions.renew_hand_links(user, language)
        if reply.screen is None:
            outbox.send(message.chat.id, Screen(reply.alert or ""))
            return
        outbox.send(message.chat.id, reply.screen)
    if not await _post_hands(interactions, outbox, user):
        locale = await interactions.user_locale(user, message.from_user.language_code)
        outbox.send(message.chat.id, Screen(interactions.tr.t(locale, "notice-no-hand")))


async def _post_hands(interactions: Interactions, outbox: Outbox, user: User) -> int:
    """Each current hand of the user as a new message, which his hand's slot shows from
    then on (older hand messages redraw the current hand when pressed); how many."""
    replies = await interactions.hands(user)
    for reply in replies:
        game, seat, screen = reply.game, reply.seat, reply.hand
        assert game is not None and seat is not None and screen is not None
        assert reply.version is not None
        key = hand_key(seat)
        outbox.show(
            int(user.ref.id),
            (game.id, key),
            screen,
            version=reply.version,  # as drawn: the game may have moved on since
            known=game.messages.get(key),
            pressed=True,
            fresh=True,
        )
    return len(replies)


def router() -> Router:
    private = Router(name=__name__)
    private.message.middleware(CommandFlood())
    private.message.register(start, CommandStart(), in_private)
    private.message.register(hand, Command("hand"), in_private)
    return private
