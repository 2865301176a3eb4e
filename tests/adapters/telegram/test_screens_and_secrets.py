"""The lazily rendered table and hands are what ``Interactions.outputs`` shows, and
the bot token never reaches a log."""

from __future__ import annotations

import logging

import pytest

from bot.codec import Verb
from bot.models import ChatRef, Platform
from bot.outputs import Target
from bot.ports import Change, ChangeKind
from tests.adapters.telegram.harness import GROUP, TOKEN, Harness

CHAT = ChatRef(Platform.TELEGRAM, str(GROUP))


async def test_lazy_screens_are_the_outputs(h: Harness) -> None:
    alice, bob = h.user(1, "Alice"), h.user(2, "Bob")
    lobby = await h.command(alice, GROUP, "/kozel")
    game = await h.service.open_game(CHAT)
    assert game is not None
    lazy = h.interactions.lazy_outputs(game, Change(ChangeKind.LOBBY))
    assert lazy == [(Target.TABLE, None, None)]
    [table] = await h.interactions.outputs(game, Change(ChangeKind.LOBBY))
    assert table.screen == h.interactions.table_screen(game)
    await h.press_lobby(alice, lobby, Verb.JOIN, "A")
    await h.press_lobby(bob, lobby, Verb.JOIN, "B")
    for team in ("A", "B"):
        await h.press_lobby(alice, lobby, Verb.ADD_COMPUTER, team)
    await h.press_lobby(alice, lobby, Verb.START)
    game = await h.play_until(game.id, lambda g: len(g.play.series.current.actions) > 5)  # type: ignore[union-attr]
    for kind in (ChangeKind.STARTED, ChangeKind.PLAYED, ChangeKind.DEALT):
        change = Change(kind)
        lazy = h.interactions.lazy_outputs(game, change)
        outputs = await h.interactions.outputs(game, change)
        assert lazy == [(o.target, o.seat, o.user) for o in outputs]
        for out in outputs:
            if out.target is Target.TABLE:
                assert out.screen == h.interactions.table_screen(game)
            else:
                assert out.seat is not None
                assert out.screen == await h.interactions.hand_screen(game, out.seat)
    for kind in (ChangeKind.FINISHED, ChangeKind.CANCELLED, ChangeKind.REMINDER):
        assert h.interactions.lazy_outputs(game, Change(kind, seat=0)) is None


@pytest.mark.parametrize("storage", ["memory"], indirect=True)
async def test_the_token_is_never_logged(h: Harness, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    alice = h.user(1, "Alice")
    lobby = await h.command(alice, GROUP, "/kozel")
    await h.press_lobby(alice, lobby, Verb.JOIN, "A")
    await h.press(alice, lobby, "forged")
    await h.settle()
    assert caplog.records  # something was logged...
    secret = TOKEN.split(":", 1)[1]
    assert not [r for r in caplog.records if secret in r.getMessage()]  # ...but no token
