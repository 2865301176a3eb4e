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

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError
from aiogram.types import InlineQueryResultPhoto

from bot.interactions import Interactions
from bot.models import Game, User
from bot.pictures import SIZE
from bot.presenters.common import rules_name

log = logging.getLogger(__name__)


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


class ResultShare:
    """Prepares a player's message of a game's result (the :data:`bot.interactions.Sharer`
    of Telegram)."""

    def __init__(self, bot: Bot, interactions: Interactions) -> None:
        self.bot = bot
        self.interactions = interactions

    async def __call__(self, game: Game, user: User) -> str | None:
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
        return prepared.id
