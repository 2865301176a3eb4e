"""A finished game's result shared to a chat (issue 32, part 3): the result picture as
an inline result, answered to the bot's inline mode (``@bot <game>``, what a Mini App's
``switchInlineQuery`` types) and prepared for a Mini App's ``shareMessage``
(``savePreparedInlineMessage``).

Only a player of that game gets it: anyone else, any other query, a game not over or
a bot without the web table (the picture is served from its address) gets nothing.
The picture is the one the group got, served by the web table as a JPEG
(:meth:`bot.interactions.WebLinks.picture_url`).
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from datetime import datetime, timedelta

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError
from aiogram.types import InlineQueryResultPhoto

from bot.interactions import Interactions
from bot.models import Game, User
from bot.pictures import SIZE
from bot.presenters.common import rules_name

log = logging.getLogger(__name__)

#: Prepared messages kept for another share of the same result by the same player.
KEPT_PREPARED = 1024
#: Seconds before its expiry a prepared message is no longer handed out.
EXPIRY_MARGIN = 60


def result_photo(
    game: Game, interactions: Interactions, locale: str
) -> InlineQueryResultPhoto | None:
    """The inline result of a finished game's picture (None: no web table to serve it,
    or the game is not over), with its caption in ``locale``."""
    web = interactions.web
    url = None if web is None else web.picture_url(game)
    if url is None:
        return None
    tr = interactions.tr
    width, height = SIZE
    return InlineQueryResultPhoto(
        id=f"result-{game.id}",
        photo_url=url,
        thumbnail_url=url,
        photo_width=width,
        photo_height=height,
        title=rules_name(game.settings.rule_set, tr, locale),
        caption=tr.t(locale, "picture-caption"),
    )


def _unix_time(value: datetime | timedelta | int) -> float:
    """A Bot API date as aiogram gives it, as a Unix time."""
    if isinstance(value, datetime):
        return value.timestamp()
    if isinstance(value, timedelta):
        return time.time() + value.total_seconds()
    return float(value)


class ResultShare:
    """Prepares a player's message of a game's result (the :data:`bot.interactions.Sharer`
    of Telegram), once per player and game while Telegram keeps it."""

    def __init__(self, bot: Bot, interactions: Interactions) -> None:
        self.bot = bot
        self.interactions = interactions
        #: (game id, user id) -> (prepared message id, its expiry as a Unix time).
        self.prepared: OrderedDict[tuple[int, str], tuple[str, float]] = OrderedDict()

    async def __call__(self, game: Game, user: User) -> str | None:
        key = (game.id, user.ref.id)
        kept = self.prepared.get(key)
        if kept is not None and kept[1] - EXPIRY_MARGIN > time.time():
            return kept[0]
        prepared = await self.prepare(game, user)
        if prepared is not None:
            self.prepared[key] = prepared
            self.prepared.move_to_end(key)
            while len(self.prepared) > KEPT_PREPARED:
                self.prepared.popitem(last=False)
        return None if prepared is None else prepared[0]

    async def prepare(self, game: Game, user: User) -> tuple[str, float] | None:
        locale = await self.interactions.user_locale(user.ref)
        photo = result_photo(game, self.interactions, locale)
        if photo is None or not user.ref.id.isdigit():
            return None
        try:
            prepared = await self.bot.save_prepared_inline_message(
                int(user.ref.id),
                photo,
                allow_user_chats=True,
                allow_group_chats=True,
                allow_channel_chats=True,
            )
        except TelegramAPIError as error:
            log.warning("could not prepare a shared result: %s", error.message)
            return None
        return prepared.id, _unix_time(prepared.expiration_date)
