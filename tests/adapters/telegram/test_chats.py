"""Chats: a group that becomes a supergroup, forum topics, the commands, the
command menus, and a narrow ``feed_update`` test of the Dispatcher."""

from __future__ import annotations

import random

import pytest
from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.types import Update

from adapters.telegram import Outbox, build_dispatcher
from bot import presenters
from bot.codec import Verb, join_payload
from bot.models import ChatRef, Game, GameStatus, Platform, UserRef
from testing.fakes.telegram import FakeChat, FakeMessage, FakeUser
from tests.adapters.telegram.harness import GROUP, TOKEN, Harness

SUPERGROUP, FORUM = -100123, -100777


def chat(chat_id: int) -> ChatRef:
    return ChatRef(Platform.TELEGRAM, str(chat_id))


async def with_computers(
    h: Harness, user: FakeUser, chat_id: int, thread: int | None = None
) -> tuple[Game, FakeMessage]:
    """``user`` opens a table, sits down with three computers, starts."""
    lobby = await h.command(user, chat_id, "/kozel", thread=thread)
    game = await h.service.open_game(chat(chat_id))
    assert game is not None
    await h.press_lobby(user, lobby, Verb.JOIN, "A")
    for team in ("B", "A", "B"):
        await h.press_lobby(user, lobby, Verb.ADD_COMPUTER, team)
    await h.press_lobby(user, lobby, Verb.START)
    return game, lobby


async def test_group_becomes_a_supergroup(h: Harness) -> None:
    tg = h.tg
    alice = h.user(1, "Alice")
    game, lobby = await with_computers(h, alice, GROUP)
    await tg.migrate(GROUP, SUPERGROUP)
    await h.settle()  # the bot answers nothing to a migration: wait until it is idle
    assert game.chat.id == str(SUPERGROUP)
    assert (await h.storage.open_game(chat(SUPERGROUP))) is not None
    assert (await h.storage.open_game(chat(GROUP))) is None
    # The game goes on; its table is posted anew in the supergroup.
    await h.play_turn(game.id, random.Random(1))
    await h.settle()
    table = h.table_message(game)
    assert table is not None and table.chat_id == SUPERGROUP
    assert table.text == h.expected_table(game)
    # /kozel there points to the running game.
    pointer = await h.command(alice, SUPERGROUP, "/kozel")
    assert pointer.reply_to == table.message_id
    assert pointer.text == h.tr.t("ru", "err-game-running")
    assert lobby.chat_id == GROUP


async def test_migration_found_by_a_failed_edit(h: Harness) -> None:
    """The migration message was missed: the next edit fails with the new chat id."""
    tg = h.tg
    alice = h.user(1, "Alice")
    lobby = await h.command(alice, GROUP, "/kozel")
    game = await h.service.open_game(chat(GROUP))
    assert game is not None
    tg.chats[SUPERGROUP] = FakeChat(SUPERGROUP, "supergroup", "Kozel club", [alice.id])
    tg.chats[GROUP].migrated_to = SUPERGROUP
    await h.press(alice, lobby, next(d for _, d in tg.buttons(GROUP, lobby.message_id) if d))
    await h.settle()
    assert game.chat.id == str(SUPERGROUP)
    table = h.table_message(game)
    assert table is not None and table.chat_id == SUPERGROUP
    assert table.text == presenters.lobby(game, h.tr, "ru").text
    assert (await h.storage.open_game(chat(SUPERGROUP))) is not None


async def test_forum_topic_and_kozel_twice(h: Harness) -> None:
    tg = h.tg
    alice = h.user(1, "Alice")
    tg.add_group(FORUM, "Kozel forum", admins=[alice.id], forum=True)
    game, lobby = await with_computers(h, alice, FORUM, thread=7)
    assert lobby.thread_id == 7 and game.chat.thread == "7"
    # A second /kozel, even from another topic, points to the running game.
    pointer = await h.command(alice, FORUM, "/kozel", thread=9)
    assert pointer.reply_to == lobby.message_id and pointer.thread_id == 7
    game = await h.play_until(game.id, lambda g: len(g.play.series.deals) > 1)
    await h.settle()
    assert h.table_message(game) is lobby and lobby.text == h.expected_table(game)
    bot_messages = [m for m in tg.messages(FORUM) if m.from_id == tg.bot_id]
    assert len(bot_messages) >= 3  # lobby/table, the pointer, the deal's result
    assert {m.thread_id for m in bot_messages} == {7}


async def test_commands(h: Harness) -> None:
    tg, tr = h.tg, h.tr
    alice, bob = h.user(1, "Alice"), h.user(2, "Bob")
    assert (await h.command(alice, GROUP, "/help")).text == presenters.help(tr, "ru").text
    # No table: the default rules, and the way to the others.
    assert (await h.command(alice, GROUP, "/rules")).text == presenters.rules(
        tr, "ru", "yard", others=True
    ).text
    assert (await h.command(alice, GROUP, "/rules classic")).text == presenters.rules(
        tr, "ru", "classic"
    ).text
    top = await h.command(alice, GROUP, "/top all")
    assert top.text == presenters.rating.board([], tr, "ru", global_=True).text
    assert (await h.command(alice, GROUP, "/stats")).text == presenters.stats(None, tr, "ru").text
    said = await tg.send_text(bob, GROUP, "hi @kozel_test_bot")
    replied = await h.command(alice, GROUP, "/stats", reply_to=said["message"]["message_id"])
    assert replied.text == presenters.stats(None, tr, "ru").text
    usage = await h.command(alice, GROUP, "/lang")
    assert usage.text == presenters.language_usage(tr, "ru").text
    assert (await h.command(alice, GROUP, "/lang en")).text == tr.t("en", "notice-lang-switched")
    assert (await h.command(alice, GROUP, "/help")).text == presenters.help(tr, "en").text
    # In a private chat /lang is the user's own language.
    assert (await h.command(bob, bob.id, "/lang ru")).text == tr.t("ru", "notice-lang-switched")
    stored = await h.storage.get_user(UserRef(Platform.TELEGRAM, str(bob.id)))
    assert stored is not None and stored.locale == "ru"
    assert await h.service.user_locale(stored.ref, "en") == "ru"  # chosen beats fallback
    assert (await h.command(bob, bob.id, "/lang en")).text == tr.t("en", "notice-lang-switched")
    assert await h.service.user_locale(stored.ref, "ru") == "en"  # and follows a change
    assert (await h.command(alice, GROUP, "/stop")).text == tr.t("en", "err-unknown-game")
    # /start without a payload says hello; a bad one says so; a link of no game too.
    assert (await h.command(alice, alice.id, "/start")).text == tr.t("en", "notice-dm-hello")
    assert (await h.command(bob, bob.id, "/start jzz_Q")).text == tr.t("en", "err-bad-link")
    assert (await h.command(bob, bob.id, "/start jzz_A")).text == tr.t("en", "err-bad-link")
    gone = join_payload(1295, "A", await h.service.link_key())
    unknown = await h.command(bob, bob.id, f"/start {gone}")
    assert unknown.text == tr.t("en", "err-unknown-game")
    # The command menus: Russian, English, and the default language for the rest.
    menus = [c.params for c in tg.calls_of("setMyCommands")]
    assert {p.get("language_code") for p in menus} == {"ru", "en", None}
    for params in menus:
        names = [command["command"] for command in params["commands"]]
        assert names == list(presenters.COMMANDS)
        locale = params.get("language_code") or "ru"
        descriptions = presenters.command_descriptions(tr, locale)
        assert [c["description"] for c in params["commands"]] == list(descriptions.values())


async def test_command_for_another_bot_is_ignored(h: Harness) -> None:
    alice = h.user(1, "Alice")
    await h.tg.send_text(alice, GROUP, "/kozel@some_other_bot")
    await h.tg.wait_idle(quiet=0.1)
    assert await h.service.open_game(chat(GROUP)) is None
    assert h.tg.calls_of("sendMessage") == []


async def test_stats_of_a_finished_series_in_a_group(h: Harness) -> None:
    """/stats as a reply shows the replied user's statistics; /top lists players."""
    tg, tr = h.tg, h.tr
    alice, bob = h.user(1, "Alice"), h.user(2, "Bob")
    game, _ = await with_computers(h, alice, GROUP)
    game = await h.play_until(game.id, lambda g: False)
    await h.settle()
    assert game.status is GameStatus.FINISHED
    said = await tg.send_text(alice, GROUP, "gg @kozel_test_bot")
    stats = await h.command(bob, GROUP, "/stats", reply_to=said["message"]["message_id"])
    found = await h.storage.user_stats(UserRef(Platform.TELEGRAM, str(alice.id)))
    assert found is not None and found.series_played == 1
    assert stats.text == presenters.stats_by_rules([("yard", found)], tr, "ru").text
    top = await h.command(bob, GROUP, "/top")
    # /top ranks by rating (issue 25): a game with computers is unrated.
    assert top.text == presenters.rating.board([], tr, "ru").text


@pytest.mark.parametrize("storage", ["memory"], indirect=True)
async def test_feed_update_runs_a_handler_inline(h: Harness) -> None:
    """A narrow test: a second Dispatcher built by the factory handles one update."""
    tg = h.tg
    alice = h.user(1, "Alice")
    bot = Bot(TOKEN, session=AiohttpSession(api=TelegramAPIServer.from_base(tg.base_url)))
    outbox = Outbox(bot)
    dp = build_dispatcher(service=h.service, interactions=h.interactions, tr=h.tr, outbox=outbox)
    update = {
        "update_id": 1,
        "message": {
            "message_id": 99,
            "date": 0,
            "chat": {"id": GROUP, "type": "group", "title": "Kozel club"},
            "from": {"id": alice.id, "is_bot": False, "first_name": "Alice"},
            "text": "/rules",
            "entities": [{"type": "bot_command", "offset": 0, "length": 6}],
        },
    }
    try:
        await dp.feed_update(bot, Update.model_validate(update, context={"bot": bot}))
        await outbox.drain()
    finally:
        await bot.session.close()
    rules = presenters.rules(h.tr, "ru", "yard", others=True).text
    assert tg.last_message(GROUP).text == rules  # type: ignore[union-attr]


async def test_a_name_with_markup_is_sent_as_plain_text_never_formatted(h: Harness) -> None:
    """``*Hana_the_quiet*`` in Telegram: every message goes without a parse mode, so the
    name shows exactly as typed (nothing to escape, nothing that could format)."""
    name = "*Hana_the_quiet* <b>bold</b> &amp; _x_"
    hana = h.user(7, name)
    game, _ = await with_computers(h, hana, GROUP)
    await h.settle()
    table = h.table_message(game)
    assert table is not None and name in table.text
    sent = h.tg.calls_of("sendMessage") + h.tg.calls_of("editMessageText")
    assert sent
    assert all("parse_mode" not in call.params and "entities" not in call.params for call in sent)
    assert any(name in str(call.params.get("text", "")) for call in sent)
