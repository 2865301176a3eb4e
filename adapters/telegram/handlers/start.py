"""``/start`` in a private chat, with or without a deep-link payload.

A player the bot could not write to got a ``t.me/<bot>?start=j<game>_<team>``
button in the group; it opens this chat and sends ``/start j<game>_<team>``: the
bot can write now, so the player is seated. ``/start`` and ``/hand`` then send the
player's current hand of every running game he sits in (whatever became of the
older hand messages).
"""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import Message

from adapters.telegram.outbox import Outbox
from adapters.telegram.publisher import hand_key
from adapters.telegram.render import parse_join_payload, user_of
from bot import presenters
from bot.errors import ErrorCode, ServiceError
from bot.interactions import Interactions
from bot.models import User
from bot.presenters import Screen
from bot.service import GameService
from core.seats import Team


async def start(
    message: Message,
    command: CommandObject,
    service: GameService,
    interactions: Interactions,
    outbox: Outbox,
) -> None:
    """``/start``: a greeting (or why the deep link's seat was not taken), then the
    player's hand in every running game he sits in."""
    if message.from_user is None:
        return
    outbox.reachable(message.from_user.id)
    user = user_of(message.from_user)
    locale = await interactions.user_locale(user, message.from_user.language_code)
    target = parse_join_payload(command.args)
    alert = None
    if target is not None:
        alert = await _join(service, interactions, user, *target, locale)
    screen = Screen(alert) if alert else presenters.dm_hello(interactions.tr, locale)
    outbox.send(message.chat.id, screen)
    await _post_hands(interactions, outbox, user)


async def hand(message: Message, interactions: Interactions, outbox: Outbox) -> None:
    """``/hand``: the player's hand in every running game he sits in, as new messages."""
    if message.from_user is None:
        return
    outbox.reachable(message.from_user.id)
    user = user_of(message.from_user)
    if not await _post_hands(interactions, outbox, user):
        locale = await interactions.user_locale(user, message.from_user.language_code)
        outbox.send(message.chat.id, Screen(interactions.tr.t(locale, "notice-no-hand")))


async def _join(
    service: GameService,
    interactions: Interactions,
    user: User,
    game_id: int,
    team: str,
    locale: str,
) -> str | None:
    """Seat the user; the reason if that failed (unless already seated there)."""
    try:
        await service.join(game_id, None, user, Team[team])
    except ServiceError as error:
        if error.code != ErrorCode.ALREADY_SEATED:
            return interactions.error_text(error.code, locale)
    return None


async def _post_hands(interactions: Interactions, outbox: Outbox, user: User) -> int:
    """Each current hand of the user as a new message, which his hand's slot shows from
    then on (older hand messages redraw the current hand when pressed); how many."""
    replies = await interactions.hands(user)
    for reply in replies:
        game, seat, screen = reply.game, reply.seat, reply.hand
        assert game is not None and seat is not None and screen is not None
        key = hand_key(seat)
        outbox.show(
            int(user.ref.id),
            (game.id, key),
            screen,
            version=game.version,
            known=game.messages.get(key),
            pressed=True,
            fresh=True,
        )
    return len(replies)


def router() -> Router:
    private = Router(name=__name__)
    private.message.register(start, CommandStart(), F.chat.type == "private")
    private.message.register(hand, Command("hand"), F.chat.type == "private")
    return private
