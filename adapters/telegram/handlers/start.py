"""``/start`` in a private chat, with or without a deep-link payload.

A player the bot could not write to got a ``t.me/<bot>?start=j<game>_<team>``
button in the group; it opens this chat and sends ``/start j<game>_<team>``: the
bot can write now, so the player is seated, and gets the hand if the game runs.
"""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import CommandObject, CommandStart
from aiogram.types import Message

from adapters.telegram.outbox import Outbox
from adapters.telegram.publisher import hand_key
from adapters.telegram.render import parse_join_payload, user_of
from bot import presenters
from bot.codec import Command, Verb, encode
from bot.errors import ErrorCode, ServiceError
from bot.interactions import Interactions
from bot.models import GameStatus, User
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
    if target is not None:
        await _post_hand(interactions, outbox, user, target[0], message.from_user.language_code)


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


async def _post_hand(
    interactions: Interactions, outbox: Outbox, user: User, game_id: int, language: str | None
) -> None:
    """A seated player of a running game gets the hand (the first one may have failed)."""
    token = encode(Command(Verb.SHOW_HAND, game_id, 0))
    reply = await interactions.press(user, token, platform_language=language)
    game, seat = reply.game, reply.seat
    if reply.hand is None or game is None or seat is None or game.status is not GameStatus.PLAYING:
        return
    key = hand_key(seat)
    slot, known = (game.id, key), game.messages.get(key)
    outbox.show(int(user.ref.id), slot, reply.hand, version=game.version, known=known, pressed=True)


def router() -> Router:
    private = Router(name=__name__)
    private.message.register(start, CommandStart(), F.chat.type == "private")
    return private
