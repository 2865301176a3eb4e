"""Chat commands: /kozel, /stop, /top, /stats, /rules, /lang, /help, /pictures, /event (also
``/cmd@botname``). In a private chat /kozel starts a solo game against three
computer players. ``/start`` in a group (a private one is :mod:`.start`'s) shows the
help: it is what people type first."""

from __future__ import annotations

from aiogram import Bot, Router
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import Message

from adapters.telegram.handlers.common import answer, speaks_for_the_chat
from adapters.telegram.middlewares import CommandFlood
from adapters.telegram.outbox import Outbox
from adapters.telegram.render import chat_of, is_private, user_of
from bot.interactions import Interactions
from bot.models import Platform, UserRef


async def kozel(
    message: Message, command: CommandObject, interactions: Interactions, outbox: Outbox
) -> None:
    """Open a lobby (a solo game in a private chat), ``/kozel classic`` one of those
    rules; point to a running game."""
    if message.from_user is None:
        return
    private = is_private(message.chat)
    user = user_of(message.from_user)
    reply = await interactions.kozel(chat_of(message), user, private=private, rules=command.args)
    if reply.alert or reply.screen:
        answer(outbox, interactions, message, reply)


async def stop(message: Message, bot: Bot, interactions: Interactions, outbox: Outbox) -> None:
    """Ask the creator or an admin (also one writing as the group) to confirm ending
    the chat's game."""
    if message.from_user is None:
        return
    admin = await speaks_for_the_chat(bot, message)
    reply = await interactions.stop(
        chat_of(message), user_of(message.from_user).ref, is_admin=admin
    )
    answer(outbox, interactions, message, reply)


async def top(
    message: Message, command: CommandObject, interactions: Interactions, outbox: Outbox
) -> None:
    """This chat's best players; ``/top all``: every chat's; ``/top classic``: in one
    rule set's games (the words in any order); ``/top challenge [ID]``: a challenge's
    table with the asker's place."""
    asker = None if message.from_user is None else user_of(message.from_user).ref
    reply = await interactions.top_command(chat_of(message), command.args, asker)
    answer(outbox, interactions, message, reply)


async def stats(message: Message, interactions: Interactions, outbox: Outbox) -> None:
    """One's own statistics, or those of the user whose message this answers."""
    replied = message.reply_to_message
    who = replied.from_user if replied and replied.from_user else message.from_user
    if who is None or who.is_bot:
        who = message.from_user
    if who is None:
        return
    user = UserRef(Platform.TELEGRAM, str(who.id))
    answer(outbox, interactions, message, await interactions.stats(chat_of(message), user))


async def rules(
    message: Message, command: CommandObject, interactions: Interactions, outbox: Outbox
) -> None:
    answer(outbox, interactions, message, await interactions.rules(chat_of(message), command.args))


async def help_(message: Message, interactions: Interactions, outbox: Outbox) -> None:
    answer(outbox, interactions, message, await interactions.help(chat_of(message)))


async def lang(
    message: Message,
    command: CommandObject,
    bot: Bot,
    interactions: Interactions,
    outbox: Outbox,
) -> None:
    """The user's language in a private chat; in a group, the group's for its admins,
    a member's own for the others."""
    if message.from_user is None:
        return
    user, private = user_of(message.from_user), is_private(message.chat)
    admin = not private and await speaks_for_the_chat(bot, message)
    reply = await interactions.lang(
        chat_of(message), user, command.args, private=private, is_admin=admin
    )
    answer(outbox, interactions, message, reply)


async def pictures(
    message: Message,
    command: CommandObject,
    bot: Bot,
    interactions: Interactions,
    outbox: Outbox,
) -> None:
    """Whether a game's result also comes as a picture: a group's admins say."""
    if message.from_user is None:
        return
    private = is_private(message.chat)
    admin = not private and await speaks_for_the_chat(bot, message)
    reply = await interactions.pictures(
        chat_of(message), command.args, private=private, is_admin=admin
    )
    answer(outbox, interactions, message, reply)


async def event(
    message: Message, command: CommandObject, bot: Bot, interactions: Interactions, outbox: Outbox
) -> None:
    """``/event open|start|kick N|stop``: a Swiss evening of the group (its admins)."""
    if message.from_user is None:
        return
    private = is_private(message.chat)
    admin = not private and await speaks_for_the_chat(bot, message)
    reply = await interactions.event_ui.command(
        chat_of(message), user_of(message.from_user), command.args, is_admin=admin, private=private
    )
    if reply.alert or reply.screen:
        answer(outbox, interactions, message, reply)


def router() -> Router:
    """A fresh router (a Router belongs to one Dispatcher only)."""
    commands = Router(name=__name__)
    commands.message.middleware(CommandFlood())
    commands.message.register(kozel, Command("kozel"))
    commands.message.register(stop, Command("stop"))
    commands.message.register(top, Command("top"))
    commands.message.register(stats, Command("stats"))
    commands.message.register(rules, Command("rules"))
    commands.message.register(help_, Command("help"))
    commands.message.register(help_, CommandStart())  # in a group
    commands.message.register(lang, Command("lang"))
    commands.message.register(pictures, Command("pictures"))
    commands.message.register(event, Command("event"))
    return commands
