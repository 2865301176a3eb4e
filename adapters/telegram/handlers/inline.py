"""The bot's inline mode: ``@bot <game>`` answers with that finished game's result
picture, to a player of that game only (:mod:`adapters.telegram.share`); anything else
gets an empty answer. BotFather's ``/setinline`` turns inline mode on for the bot."""

from __future__ import annotations

from aiogram import Router
from aiogram.types import InlineQuery, InlineQueryResultUnion

from adapters.telegram.render import user_of
from adapters.telegram.share import result_photo
from bot.interactions import Interactions


async def inline_query(query: InlineQuery, interactions: Interactions) -> None:
    user = user_of(query.from_user)
    results: list[InlineQueryResultUnion] = []
    game = await interactions.shared_game(query.query, user.ref)
    if game is not None:
        locale = await interactions.user_locale(user, query.from_user.language_code)
        photo = result_photo(game, interactions, locale)
        if photo is not None:
            results.append(photo)
    # Personal and not cached: another user's same query may not get this answer.
    await query.answer(results, cache_time=0, is_personal=True)


def router() -> Router:
    inline = Router(name=__name__)
    inline.inline_query.register(inline_query)
    return inline
