"""A finished game's result shared through the fake Bot API (issue 32, part 3): the
bot's inline mode answers ``@bot <game>`` with the result picture to a player of that
game and with nothing to anyone or anything else; a Mini App's share is a prepared
inline message (savePreparedInlineMessage) of the same picture. Telegram downloads an
inline photo from its address: the fake does too, and takes a JPEG only."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from bot.codec import base36
from bot.models import Platform, User, UserRef
from bot.pictures import SIZE
from testing.fakes.telegram import FakeUser
from tests.adapters.telegram.harness import Harness
from tests.adapters.telegram.test_achievements_and_picture import finish, four_players

#: The web table on 127.0.0.1 (the fake downloads the picture from there).
WEB: dict[str, Any] = {}


async def ask(h: Harness, user: FakeUser, query: str) -> list[dict[str, Any]]:
    """The results the bot answers ``user``'s inline query with."""
    query_id = await h.tg.inline_query(user, query)
    await h.tg.wait_for(lambda tg: query_id in tg.inline_answers)
    return h.tg.inline_answers[query_id]


def picture(h: Harness, url: str) -> Image.Image:
    image = Image.open(io.BytesIO(h.tg.fetched[url]))
    assert image.format == "JPEG" and image.size == SIZE
    return image


@pytest.mark.parametrize("web", [WEB], indirect=True)
async def test_inline_mode_answers_a_player_of_a_finished_game_with_its_result_picture(
    h: Harness,
) -> None:
    game = await finish(h)
    alice = h.tg.users[1]
    [result] = await ask(h, alice, base36(game.id))
    assert result["type"] == "photo"
    assert result["photo_url"].endswith(".jpg")
    assert result["caption"] in (h.tr.t("en", "picture-caption"), h.tr.t("ru", "picture-caption"))
    picture(h, result["photo_url"])
    # As the page's switchInlineQuery types it too: "#<game>".
    assert len(await ask(h, h.tg.users[4], f"#{base36(game.id)}")) == 1


@pytest.mark.parametrize("web", [WEB], indirect=True)
async def test_inline_mode_answers_nothing_to_anyone_else_or_for_any_other_game(
    h: Harness,
) -> None:
    game, people = await four_players(h)
    running = base36(game.id)
    assert await ask(h, people[0], running) == []  # not over yet
    game = await h.play_until(game.id, lambda g: False)
    await h.settle()
    eve = h.user(9, "Eve")
    assert await ask(h, eve, base36(game.id)) == []  # she did not play it
    for query in ("", "zz", "-1", "1" * 40, "игра", f"{base36(game.id)} please"):
        assert await ask(h, people[0], query) == [], query
    # Nothing was downloaded for any of them; every answer was personal and not cached.
    assert h.tg.fetched == {}
    for call in h.tg.calls_of("answerInlineQuery"):
        assert call.params["is_personal"] is True and call.params["cache_time"] == 0


@pytest.mark.parametrize("web", [None], indirect=True)
async def test_without_the_web_table_inline_mode_has_no_picture_to_show(h: Harness) -> None:
    game = await finish(h)
    assert await ask(h, h.tg.users[1], base36(game.id)) == []


@pytest.mark.parametrize("web", [WEB], indirect=True)
async def test_a_mini_apps_share_is_a_prepared_inline_message_of_the_result_picture(
    h: Harness,
) -> None:
    game = await finish(h)
    share = h.interactions.sharers[Platform.TELEGRAM]
    carol = User(UserRef(Platform.TELEGRAM, "3"), "Carol")
    prepared = await share(game, carol)
    assert prepared is not None
    user_id, result = h.tg.prepared[prepared]
    assert user_id == 3 and result["type"] == "photo"
    picture(h, result["photo_url"])
    [call] = h.tg.calls_of("savePreparedInlineMessage")
    assert call.params["allow_user_chats"] and call.params["allow_group_chats"]


@pytest.mark.parametrize("web", [WEB], indirect=True)
async def test_a_player_sharing_again_gets_the_message_prepared_before(h: Harness) -> None:
    game = await finish(h)
    share = h.interactions.sharers[Platform.TELEGRAM]
    carol = User(UserRef(Platform.TELEGRAM, "3"), "Carol")
    dave = User(UserRef(Platform.TELEGRAM, "4"), "Dave")
    first = await share(game, carol)
    assert first is not None and await share(game, carol) == first
    assert await share(game, dave) not in (None, first)  # his own
    assert len(h.tg.calls_of("savePreparedInlineMessage")) == 2
