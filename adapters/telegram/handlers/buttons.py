"""Button presses (callback queries): every one goes to :meth:`Interactions.press`.

The query is answered first (an alert if the press was refused), then the reply is
shown: the pressed hand re-rendered in place, or a screen sent (the cancel
confirmation). A Join by a player the bot cannot write to is answered with the deep
link to the bot's private chat itself (one tap opens it; its Start seats him).
"""

from __future__ import annotations

from aiogram import Bot, Router
from aiogram.enums import ChatType
from aiogram.types import CallbackQuery, InaccessibleMessage, Message

from adapters.telegram.handlers.common import has_data, is_admin, is_member
from adapters.telegram.middlewares import CallbackAnswer
from adapters.telegram.outbox import Outbox
from adapters.telegram.publisher import hand_key
from adapters.telegram.render import chat_id, deep_link, thread_of, user_of
from bot import presenters
from bot.codec import CodecError, Verb, decode
from bot.interactions import Interactions, Pressed, Reply
from bot.models import ChatRef, Platform, UserRef


async def pressed(
    query: CallbackQuery,
    bot: Bot,
    interactions: Interactions,
    outbox: Outbox,
    answer: CallbackAnswer,
) -> None:
    message = query.message
    if message is None:
        return
    verb = _verb(query.data)
    presser = query.from_user.id

    async def admin(chat: ChatRef) -> bool:
        return await is_admin(bot, chat_id(chat), presser)

    async def member(chat: ChatRef) -> bool:
        return await is_member(bot, chat_id(chat), presser)

    async def can_message() -> bool:
        hello = presenters.dm_hello(interactions.tr, await _locale(interactions, query))
        return await outbox.can_message(presser, hello)

    reply = await interactions.press(
        user_of(query.from_user),
        query.data or "",
        where=pressed_at(message),
        platform_language=query.from_user.language_code,
        is_admin=admin,
        is_member=member,
        can_message=can_message if verb is Verb.JOIN else None,
    )
    if reply.dm_needed and reply.game is not None and verb is Verb.JOIN:
        await _way_to_private(bot, outbox, interactions, query, message, reply, answer)
        return
    await answer(reply.alert)
    if not reply.ignored:  # a flooding presser: nothing more
        await _show(outbox, interactions, query, message, verb, reply)


def pressed_at(message: Message | InaccessibleMessage) -> Pressed:
    """Where a press happened, as Telegram says: the pressed message's chat; in a
    private chat, its one user (a private chat's id is its user's id)."""
    chat = ChatRef(Platform.TELEGRAM, str(message.chat.id))
    private = message.chat.type == ChatType.PRIVATE
    return Pressed(chat, UserRef(Platform.TELEGRAM, chat.id) if private else None)


async def _show(
    outbox: Outbox,
    interactions: Interactions,
    query: CallbackQuery,
    message: Message | InaccessibleMessage,
    verb: Verb | None,
    reply: Reply,
) -> None:
    """What a press shows besides its answer."""
    chat, user = message.chat.id, query.from_user.id
    thread = thread_of(message) if isinstance(message, Message) else None
    if verb in (Verb.CANCEL, Verb.REFRESH) and _is_confirmation(message):
        if not reply.alert:  # answered: the question goes away
            outbox.delete(chat, message.message_id)
    elif reply.hand is not None and reply.game is not None and reply.seat is not None:
        game, key = reply.game, hand_key(reply.seat)
        known = game.messages.get(key)
        current = outbox.message_id((game.id, key), known)
        # Only a hand message of this game in the player's private chat shows a hand
        # in place; any other message (a table, another game's hand) stays what it is.
        on_hand = (
            reply.in_place
            and _of_game(message, game.id)
            and presenters.is_hand(_tokens(message), game.id)
        )
        if game.status.is_open and (current in (message.message_id, None) or not on_hand):
            # The player's hand message (a hand asked for elsewhere goes there too).
            outbox.show(
                user, (game.id, key), reply.hand, version=game.version, known=known, pressed=True
            )
        elif on_hand:  # an older hand message of this game: the hand as it is now
            outbox.edit(chat, message.message_id, reply.hand)
    if reply.screen is not None:  # an answer of its own (a confirmation to cancel)
        target = user if reply.private else chat
        key = f"press {verb} {user}"
        outbox.answer(target, reply.screen, key, thread=None if reply.private else thread)


async def _way_to_private(
    bot: Bot,
    outbox: Outbox,
    interactions: Interactions,
    query: CallbackQuery,
    message: Message | InaccessibleMessage,
    reply: Reply,
    answer: CallbackAnswer,
) -> None:
    """A Join pressed by someone the bot cannot write to (he never started it): the
    press is answered with the deep link itself, so that one tap opens the private
    chat, whose Start seats him (``/start <payload>``). Only if Telegram refuses that
    answer does he get the alert, and the group a message with the link as a button."""
    assert reply.game is not None
    me = await bot.me()
    team = (query.data or "").rsplit(":", 1)[-1]
    url = deep_link(me.username or "", await interactions.join_link(reply.game, team))
    if await answer.open(url):
        return
    await answer(reply.alert)
    screen = presenters.dm_needed(
        query.from_user.full_name, url, interactions.tr, reply.game.settings.locale
    )
    thread = thread_of(message) if isinstance(message, Message) else None
    user = query.from_user.id
    outbox.answer(message.chat.id, screen, f"dm needed {user}", thread=thread)


def _tokens(message: Message | InaccessibleMessage) -> list[str | None]:
    """The callback data of a message's buttons."""
    markup = message.reply_markup if isinstance(message, Message) else None
    rows = markup.inline_keyboard if markup is not None else []
    return [button.callback_data for row in rows for button in row]


def _is_confirmation(message: Message | InaccessibleMessage) -> bool:
    """Whether the pressed message asks to confirm a cancel (it has a CANCEL button)."""
    return any(_verb(data) is Verb.CANCEL for data in _tokens(message))


def _of_game(message: Message | InaccessibleMessage, game_id: int) -> bool:
    """Whether the message's buttons are all of this game (and it has some)."""
    return {_game(data) for data in _tokens(message)} == {game_id}


def _game(data: str | None) -> int | None:
    try:
        return decode(data or "").game_id
    except CodecError:
        return None


def _verb(data: str | None) -> Verb | None:
    try:
        return decode(data or "").verb
    except CodecError:
        return None


async def _locale(interactions: Interactions, query: CallbackQuery) -> str:
    return await interactions.user_locale(user_of(query.from_user), query.from_user.language_code)


def router() -> Router:
    buttons = Router(name=__name__)
    buttons.callback_query.register(pressed, has_data)
    return buttons
