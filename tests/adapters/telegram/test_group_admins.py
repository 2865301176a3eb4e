"""In a group, the group's language (``/lang``) and the defaults a lobby saves for it
(turn time, language) are its admins' (``getChatMember``: creator or administrator);
a member changes his own language and his table's settings (issue 23, point 8)."""

from __future__ import annotations

from bot import presenters
from bot.codec import Verb
from bot.models import ChatRef, Platform, UserRef
from tests.adapters.telegram.harness import GROUP, Harness

CHAT = ChatRef(Platform.TELEGRAM, str(GROUP))


async def test_group_lang_is_for_admins(h: Harness) -> None:
    tr = h.tr
    alice, bob = h.user(1, "Alice"), h.user(2, "Bob")  # Alice is the group's admin
    own = await h.command(bob, GROUP, "/lang en")
    assert own.text == tr.t("en", "notice-lang-own", group=tr.t("en", "lang-name-ru"))
    assert await h.service.chat_locale(CHAT) == "ru"
    assert await h.service.user_locale(UserRef(Platform.TELEGRAM, str(bob.id))) == "en"
    # The group's answers stay in its language.
    assert (await h.command(bob, GROUP, "/help")).text == presenters.help(tr, "ru").text
    group = await h.command(alice, GROUP, "/lang en")
    assert group.text == tr.t("en", "notice-lang-switched")
    assert await h.service.chat_locale(CHAT) == "en"
    assert not h.errors


async def test_a_members_lobby_settings_are_his_tables_alone(h: Harness) -> None:
    alice, bob = h.user(1, "Alice"), h.user(2, "Bob")
    lobby = await h.command(bob, GROUP, "/kozel")
    await h.press_lobby(bob, lobby, Verb.SETTING, "len")
    await h.press_lobby(bob, lobby, Verb.SETTING, "t300")
    game = await h.service.open_game(CHAT)
    assert game is not None
    assert (game.settings.locale, game.settings.turn_timeout) == ("en", 300)
    assert await h.storage.get_chat(CHAT) is None  # not the group's defaults
    await h.service.cancel(game.id, None, game.creator)
    await h.settle()  # the notice of the cancelled game is out
    lobby = await h.command(alice, GROUP, "/kozel")
    game = await h.service.open_game(CHAT)
    assert game is not None and game.settings.locale == "ru"
    await h.press_lobby(alice, lobby, Verb.SETTING, "len")  # the admin's: the group's
    chat = await h.storage.get_chat(CHAT)
    assert chat is not None and chat.locale == "en"
    assert not h.errors


async def test_an_anonymous_admin_sets_the_groups_language(h: Harness) -> None:
    """An admin writing as the group (GroupAnonymousBot, ``sender_chat``) is an admin."""
    alice = h.user(1, "Alice")
    before = len(h.tg.messages(GROUP))
    await h.tg.send_text(alice, GROUP, "/lang en", anonymous=True)
    answer = await h.tg.wait_for(
        lambda t: next((m for m in t.messages(GROUP)[before + 1 :] if m.from_id == t.bot_id), None)
    )
    assert answer.text == h.tr.t("en", "notice-lang-switched")
    assert await h.service.chat_locale(CHAT) == "en"
    assert not h.errors


async def test_an_anonymous_admin_may_stop_a_members_game(h: Harness) -> None:
    """``/stop`` from an admin writing as the group asks to confirm (not "not allowed"),
    and his press of the answer (from his own account, an admin's) ends the game."""
    alice, bob = h.user(1, "Alice"), h.user(2, "Bob")  # Alice is the group's admin
    await h.command(bob, GROUP, "/kozel")
    game = await h.service.open_game(CHAT)
    assert game is not None
    before = len(h.tg.messages(GROUP))
    await h.tg.send_text(alice, GROUP, "/stop", anonymous=True)
    question = await h.tg.wait_for(
        lambda t: next((m for m in t.messages(GROUP)[before + 1 :] if m.from_id == t.bot_id), None)
    )
    assert question.text == h.tr.t("ru", "lobby-cancel-confirm")
    await h.press_verb(alice, question, Verb.CANCEL)
    await h.tg.wait_for(lambda t: question.deleted)
    assert await h.service.open_game(CHAT) is None
    assert not h.errors
