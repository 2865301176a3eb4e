"""Button presses (callback queries): every one goes to :meth:`Interactions.press`,
and what it shows (:class:`~bot.outputs.PressReply`) is carried out here.

The query is answered first: with the press's alert, or with nothing (that stops
the button's spinner). An alert with a link (a Join by a player the bot cannot
write to) is answered with the deep link to the bot's private chat itself (one tap
opens it; its Start seats him). Then the other outputs: the presser's hand in his
hand message (or in the older hand message he pressed), a question sent to the
chat, an answered question deleted.
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
from bot.interactions import Interactions
from bot.models import ChatRef, Game, Platform, UserRef
from bot.outputs import Output, PressReply, Target
from bot.presses import Pressed


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
        can_message=can_message,
    )
    alert = reply.first(Target.ALERT)
    if alert is not None and alert.link is not None and reply.game is not None:
        await _way_to_private(bot, outbox, interactions, query, message, answer, alert, reply.game)
    else:
        await answer(alert.screen.text if alert is not None else None)
    for output in reply.outputs:
        _carry_out(outbox, query, message, reply, output)


def pressed_at(message: Message | InaccessibleMessage) -> Pressed:
    """Where a press happened, as Telegram says: the pressed message's chat; in a
    private chat, its one user (a private chat's id is its user's id); its buttons."""
    chat = ChatRef(Platform.TELEGRAM, str(message.chat.id))
    private = message.chat.type == ChatType.PRIVATE
    owner = UserRef(Platform.TELEGRAM, chat.id) if private else None
    return Pressed(chat, owner, _tokens(message))


def _carry_out(
    outbox: Outbox,
    query: CallbackQuery,
    message: Message | InaccessibleMessage,
    reply: PressReply,
    output: Output,
) -> None:
    """One output of a press (its alert is the query's answer already)."""
    chat, game = message.chat.id, reply.game
    if output.target is Target.CLOSE:
        outbox.delete(chat, message.message_id)
    elif output.target is Target.EDIT:
        outbox.edit(chat, message.message_id, output.screen)
    elif output.target is Target.ANSWER:
        thread = thread_of(message) if isinstance(message, Message) else None
        outbox.answer(chat, output.screen, f"press {query.from_user.id}", thread=thread)
    elif output.target in (Target.HAND, Target.PRESSED) and game is not None:
        assert output.seat is not None and output.user is not None
        key = hand_key(output.seat)
        known = game.messages.get(key)
        current = outbox.message_id((game.id, key), known)
        pressed_hand = output.target is Target.PRESSED
        if pressed_hand and (not game.status.is_open or current not in (message.message_id, None)):
            # An older hand message of this game (or of a game over): as it is now.
            outbox.edit(chat, message.message_id, output.screen)
        elif game.status.is_open and reply.version is not None:  # the player's hand message
            # At the version it was drawn at: a change published since (his turn came
            # while the press was answered) is not drawn over by this older screen.
            outbox.show(
                chat_id(output.user), (game.id, key), output.screen,
                version=reply.version, known=known, pressed=True,
            )  # fmt: skip


async def _way_to_private(
    bot: Bot,
    outbox: Outbox,
    interactions: Interactions,
    query: CallbackQuery,
    message: Message | InaccessibleMessage,
    answer: CallbackAnswer,
    alert: Output,
    game: Game,
) -> None:
    """A Join pressed by someone the bot cannot write to (he never started it): the
    press is answered with the deep link itself, so that one tap opens the private
    chat, whose Start seats him (``/start <payload>``). Only if Telegram refuses that
    answer does he get the alert, and the group a message with the link as a button."""
    assert alert.link is not None
    me = await bot.me()
    url = deep_link(me.username or "", alert.link)
    if await answer.open(url):
        return
    await answer(alert.screen.text)
    screen = presenters.dm_needed(
        query.from_user.full_name, url, interactions.tr, game.settings.locale
    )
    thread = thread_of(message) if isinstance(message, Message) else None
    user = query.from_user.id
    outbox.answer(message.chat.id, screen, f"dm needed {user}", thread=thread)


def _tokens(message: Message | InaccessibleMessage) -> tuple[str | None, ...]:
    """The callback data of a message's buttons."""
    markup = message.reply_markup if isinstance(message, Message) else None
    rows = markup.inline_keyboard if markup is not None else []
    return tuple(button.callback_data for row in rows for button in row)


async def _locale(interactions: Interactions, query: CallbackQuery) -> str:
    return await interactions.user_locale(user_of(query.from_user), query.from_user.language_code)


def router() -> Router:
    buttons = Router(name=__name__)
    buttons.callback_query.register(pressed, has_data)
    return buttons
