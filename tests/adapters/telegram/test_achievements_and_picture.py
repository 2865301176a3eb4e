"""Issue 25 through the fake Bot API: four people finish a series in a group; after
the text result comes the result as a picture (sendPhoto, once, counted in the
group's budget), then the achievements, once. ``/pictures off`` (a group admin's
only) turns the picture off for the next games."""

from __future__ import annotations

import io

from PIL import Image

from bot.codec import Verb
from bot.models import ChatRef, Game, GameStatus, Platform
from bot.pictures import SIZE
from bot.ports import Owed, OwedKind
from bot.presenters.achievements import announced
from testing.fakes.telegram import FakeMessage, FakeUser
from tests.adapters.telegram.harness import GROUP, Harness

CHAT = ChatRef(Platform.TELEGRAM, str(GROUP))


async def four_players(h: Harness) -> tuple[Game, list[FakeUser]]:
    names = ((1, "Alice"), (2, "Bob"), (3, "Carol"), (4, "Dave"))
    people = [h.user(uid, name) for uid, name in names]
    lobby = await h.command(people[0], GROUP, "/kozel")
    for index, person in enumerate(people):
        await h.press_lobby(person, lobby, Verb.JOIN, "AB"[index % 2])
    await h.press_verb(people[0], lobby, Verb.START)
    game = await h.service.open_game(CHAT)
    assert game is not None and game.status is GameStatus.PLAYING
    return game, people


def bot_messages(h: Harness) -> list[FakeMessage]:
    return [m for m in h.tg.messages(GROUP) if m.from_id == h.tg.bot_id]


async def finish(h: Harness) -> Game:
    game, _ = await four_players(h)
    game = await h.play_until(game.id, lambda g: False)
    assert game.status is GameStatus.FINISHED
    await h.settle()
    await h.tg.wait_idle(quiet=0.2)
    return game


async def test_the_result_then_its_picture_then_the_achievements_each_once(h: Harness) -> None:
    game = await finish(h)
    changes = await h.service.game_ratings(game.id)
    assert len(changes) == 4  # four people: a rated game, its changes under the result
    result = h.interactions.owed_screen(game, _series_owed(game), changes)
    assert result is not None
    messages = bot_messages(h)
    texts = [m.text for m in messages]
    assert texts.count(result.text) == 1
    photos = [m for m in messages if "photo" in m.extra]
    (photo,) = photos
    assert photo.extra["caption"] == h.tr.t("ru", "picture-caption")
    earned = await h.storage.achievements_earned(game.id, game.version)
    assert {e.achievement for e in earned} >= {"first-rated-game"}
    expected = announced(game, earned, h.tr, "ru")
    assert expected is not None and "Alice, Bob, Carol, Dave" in expected.text
    the_end = [m for m in messages if m.text == expected.text]
    assert len(the_end) == 1
    order = [messages.index(m) for m in (next(m for m in messages if m.text == result.text),
                                        photo, the_end[0])]  # fmt: skip
    assert order == sorted(order)  # the result, its picture, the achievements
    # The picture is a PNG of the picture's size.
    [(call)] = h.tg.calls_of("sendPhoto")
    assert call.status == 200 and call.content_type == "multipart/form-data"
    [data] = [d for n, d in h.tg.uploads if n == "result.png"]
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and image.size == SIZE
    assert await h.service.storage.owed_messages() == []


async def test_only_a_group_admin_turns_the_picture_off(h: Harness) -> None:
    alice, bob = h.user(1, "Alice"), h.user(2, "Bob")  # alice is the group's admin
    refused = await h.command(bob, GROUP, "/pictures off")
    assert refused.text == h.tr.t("ru", "pictures-admins")
    assert await h.service.chat_pictures(CHAT)
    done = await h.command(alice, GROUP, "/pictures off")
    assert done.text == h.tr.t("ru", "pictures-off")
    assert not await h.service.chat_pictures(CHAT)
    shown = await h.command(bob, GROUP, "/pictures")
    assert "выключен" in (shown.text or "")
    await finish(h)
    assert h.tg.calls_of("sendPhoto") == []  # the text result only
    assert await h.service.storage.owed_messages() == []  # the picture is owed no more


def _series_owed(game: Game) -> Owed:
    return Owed(game.id, game.version, 1, OwedKind.SERIES_RESULT)
