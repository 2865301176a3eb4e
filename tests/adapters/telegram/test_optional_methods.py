"""Issue 31, point 3: a Bot API method the server does not have (an older server, a
method Telegram drops) answers 404 "Not Found: method not found". What the bot does
without (the command menus, removing a webhook, a result's picture, a question's
deletion) fails in one warning line and the game goes on; the token's refusal is
still told apart, and what the bot cannot do without still stops it as before."""

from __future__ import annotations

import logging
import random
import signal
from pathlib import Path

import pytest
from aiogram.exceptions import TelegramNotFound
from aiogram.methods import GetMe

from adapters.telegram.adapter import refuses_the_bot
from bot.codec import Verb
from bot.models import GameStatus
from testing.fakes.bot_process import BotProcess, last_game_id, saved_game, telegram_env
from testing.fakes.telegram import FakeTelegram
from tests.adapters.telegram.harness import GROUP, Harness, button
from tests.adapters.telegram.test_achievements_and_picture import CHAT, bot_messages, finish
from tests.adapters.telegram.test_chats import with_computers
from tests.adapters.telegram.test_kill import wait_until

#: A child's start (importing aiogram alone takes seconds on a busy machine): a safety net.
START = 300.0
WAIT = 60.0


async def test_a_server_without_the_start_s_optional_methods_still_plays(tmp_path: Path) -> None:
    """Regression: ``setMyCommands`` (or ``deleteWebhook``) answered "method not found"
    was taken for a refused token: the bot never ran, and gave up after five tries.
    Each is one warning line now; the bot polls, and a game opens and starts."""
    async with FakeTelegram() as tg:
        tg.missing = {"setMyCommands", "deleteWebhook"}
        alice = tg.add_user(1, "Alice")
        tg.user_starts(alice)
        tg.add_group(GROUP, "Club", admins=[1])
        database = tmp_path / "kozel.sqlite3"
        bot = BotProcess(tmp_path / "bot.log", telegram_env(tg.base_url, database))
        await bot.start()
        try:
            await tg.send_text(alice, GROUP, "/kozel")
            await wait_until(tg, lambda: tg.last_message(GROUP), START)
            lobby = tg.last_message(GROUP)
            assert lobby is not None
            for verb, arg in ((Verb.JOIN, "A"), *((Verb.ADD_COMPUTER, t) for t in "BAB")):
                shown = tg.buttons(GROUP, lobby.message_id)
                await tg.press(alice, GROUP, lobby.message_id, button(tg, lobby, verb, arg))
                await wait_until(tg, lambda s=shown: tg.buttons(GROUP, lobby.message_id) != s, WAIT)  # type: ignore[misc]
            await tg.press(alice, GROUP, lobby.message_id, button(tg, lobby, Verb.START))
            game_id = last_game_id(database)
            assert game_id is not None

            def dealt() -> bool:  # the game runs, and her hand is shown
                game = saved_game(database, game_id)
                return game.status is GameStatus.PLAYING and "hand:0" in game.messages

            await wait_until(tg, dealt, WAIT)
            assert await bot.stop(signal.SIGTERM) == 0
        finally:
            await bot.kill()
    log = bot.output()
    warnings = [line for line in log.splitlines() if " WARNING adapters.telegram" in line]
    assert [line.split(" WARNING ")[1] for line in warnings] == [
        "adapters.telegram.adapter: could not register the command menus: Not Found: method"
        " not found; the bot goes on without",
        "adapters.telegram.adapter: could not remove the webhook: Not Found: method not found;"
        " the bot goes on without",
    ]
    assert "Traceback" not in log and not bot.errors(), log
    assert len(tg.calls_of("setMyCommands")) == 1  # the first refusal ends the menus


def test_a_plain_not_found_still_refuses_the_bot() -> None:
    """Only "method not found" is a missing method: a 404 without it (not a token, not
    a Bot API URL) still refuses the bot, whatever the request."""

    def not_found(message: str) -> TelegramNotFound:
        return TelegramNotFound(method=GetMe(), message=message)

    assert refuses_the_bot(not_found("Not Found"))
    assert not refuses_the_bot(not_found("Not Found: method not found"))


async def test_a_server_without_pictures_posts_the_result_and_warns_once(
    h: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """Regression: a ``sendPhoto`` the server lacks logged a traceback at the end of a
    game. One warning line; the result and the achievements go out, nothing is owed."""
    h.tg.missing = {"sendPhoto"}
    with caplog.at_level(logging.WARNING):
        game = await finish(h)
    assert [m for m in bot_messages(h) if "photo" in m.extra] == []
    assert [call.status for call in h.tg.calls_of("sendPhoto")] == [404]
    assert len([m for m in bot_messages(h) if m.text]) >= 2  # the result, the achievements
    refused = [r for r in caplog.records if r.name.startswith("adapters.telegram")]
    assert [(r.levelno, r.getMessage()) for r in refused] == [
        (
            logging.WARNING,
            f"a picture to chat {GROUP} was refused: Telegram server says - Not Found:"
            " method not found",
        )
    ]
    assert not any(r.exc_info for r in caplog.records)
    assert await h.service.storage.owed_messages() == []
    assert (await h.service.game(game.id)).status is GameStatus.FINISHED


async def test_a_server_without_deletions_leaves_the_question_and_plays_on(
    h: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """A question answered (/stop, "No") is deleted; a server without ``deleteMessage``
    leaves it, in one warning line, and the game plays on."""
    h.tg.missing = {"deleteMessage"}
    alice = h.user(1, "Alice")
    game, _ = await with_computers(h, alice, GROUP)
    question = await h.command(alice, GROUP, "/stop")
    with caplog.at_level(logging.WARNING):
        await h.press_verb(alice, question, Verb.REFRESH)
        await h.tg.wait_for(lambda t: t.calls_of("deleteMessage"))
        await h.settle()
    assert not question.deleted
    assert (await h.service.open_game(CHAT)) is not None
    refused = [r.getMessage() for r in caplog.records if r.name.startswith("adapters.telegram")]
    assert refused == [
        f"a delete to chat {GROUP} was refused: Telegram server says - Not Found: method not found"
    ]
    await h.play_turn(game.id, random.Random(1))
    assert (await h.service.game(game.id)).status is GameStatus.PLAYING
