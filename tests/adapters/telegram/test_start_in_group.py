"""``/start`` in a group: the help, which tells how to play; nothing else moves."""

from __future__ import annotations

from bot import presenters
from bot.models import ChatRef, Platform
from tests.adapters.telegram.harness import GROUP, Harness


async def test_start_in_a_group_shows_the_help(h: Harness) -> None:
    alice = h.user(1, "Alice")
    assert (await h.command(alice, GROUP, "/start")).text == presenters.help(h.tr, "ru").text
    answered = await h.command(alice, GROUP, "/start@kozel_test_bot")
    assert answered.text == presenters.help(h.tr, "ru").text
    assert await h.service.open_game(ChatRef(Platform.TELEGRAM, str(GROUP))) is None
    # In a private chat /start still says hello.
    assert (await h.command(alice, alice.id, "/start")).text == h.tr.t("en", "notice-dm-hello")
