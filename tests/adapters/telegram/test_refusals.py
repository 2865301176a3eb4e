"""Presses that must change nothing: someone else's button, a stale one, forged
callback data, a finished game. Each gets a short alert; the game's version stays."""

from __future__ import annotations

from bot.codec import Verb, decode
from bot.models import ChatRef, Game, GameStatus, Platform
from testing.fakes.telegram import FakeMessage, FakeUser
from tests.adapters.telegram.harness import GROUP, Harness, button, token

CHAT = ChatRef(Platform.TELEGRAM, str(GROUP))


async def two_humans(h: Harness) -> tuple[Game, FakeMessage, FakeUser, FakeUser]:
    """Alice (an admin of the group) and Bob against... and with computer partners."""
    alice, bob = h.user(1, "Alice"), h.user(2, "Bob")
    lobby = await h.command(alice, GROUP, "/kozel")
    game = await h.service.open_game(CHAT)
    assert game is not None
    await h.press_lobby(alice, lobby, Verb.JOIN, "A")
    await h.press_lobby(bob, lobby, Verb.JOIN, "B")
    await h.press_lobby(alice, lobby, Verb.ADD_COMPUTER, "A")
    await h.press_lobby(bob, lobby, Verb.ADD_COMPUTER, "B")
    await h.press_lobby(alice, lobby, Verb.START)
    return game, lobby, alice, bob


def alice_leads(game: Game) -> bool:
    deal = game.play.series.current
    return deal is not None and deal.turn == 0 and not deal.table_view().plays


async def alert(h: Harness, user: FakeUser, message: FakeMessage, data: str) -> str:
    query = await h.press(user, message, data)
    answer = h.tg.callback_answers[query]
    assert answer.get("show_alert") is True, answer
    return str(answer["text"])


async def test_refused_presses_change_nothing(h: Harness) -> None:
    tg, tr = h.tg, h.tr
    game, lobby, alice, bob = await two_humans(h)
    eve = h.user(5, "Eve")
    game = await h.play_until(game.id, alice_leads)
    await h.settle()
    hand = h.hand_message(game, 0)
    assert hand is not None
    version = game.version

    # Alice selects a card: a "lead" button appears in her hand.
    await h.press(alice, hand, button(tg, hand, Verb.SELECT))
    await tg.wait_for(
        lambda t: any(":p:" in str(d) for _, d in t.buttons(alice.id, hand.message_id))
    )
    lead = button(tg, hand, Verb.PLAY)
    shown = (hand.text, tg.buttons(alice.id, hand.message_id))

    # Someone not at the table, and Bob (whose seat it is not), press Alice's buttons
    # (as only a fake lets them: the message is in her private chat).
    assert await alert(h, eve, hand, lead) == tr.t("en", "err-not-yours")
    assert await alert(h, bob, hand, lead) == tr.t("en", "err-not-yours")
    # Bob presses her move on his own hand message: not his turn.
    bobs = h.hand_message(game, 1)
    assert bobs is not None
    assert await alert(h, bob, bobs, lead) == tr.t("ru", "err-not-your-turn")
    # Forged and malformed data, an unknown game.
    assert await alert(h, alice, hand, "k:p:zz:0:lAS") == tr.t("en", "err-unknown-game")
    assert await alert(h, alice, hand, "not a token") == tr.t("en", "err-malformed")
    assert await alert(h, alice, hand, token(Verb.PLAY, game, "xx")) == tr.t("ru", "err-malformed")
    await h.settle()
    assert game.version == version
    assert (hand.text, tg.buttons(alice.id, hand.message_id)) == shown

    # A stale button: Alice leads, then presses the same button again.
    await h.press(alice, hand, lead)
    await tg.wait_for(lambda t: game.version > version)
    await h.settle()
    version = game.version
    assert await alert(h, alice, hand, lead) == tr.t("ru", "err-stale")
    await h.settle()
    assert game.version == version
    # ... and sees the hand as it is now.
    assert {decode(str(data)).version for _, data in tg.buttons(alice.id, hand.message_id)} == {
        version
    }

    # Bob may not stop the game (no admin, not the creator): the table is pointed at.
    refusal = await h.command(bob, GROUP, "/stop")
    assert refusal.text == tr.t("ru", "err-not-allowed") and refusal.reply_to == lobby.message_id
    # Alice asks, says no (the question goes away), asks again and says yes.
    question = await h.command(alice, GROUP, "/stop")
    assert question.text == tr.t("ru", "lobby-cancel-confirm")
    await h.press_verb(alice, question, Verb.REFRESH)
    await tg.wait_for(lambda t: question.deleted)
    assert game.status is GameStatus.PLAYING and game.version == version
    question = await h.command(alice, GROUP, "/stop")
    await h.press_verb(alice, question, Verb.CANCEL)
    await tg.wait_for(lambda t: question.deleted and game.status is GameStatus.CANCELLED)
    await h.settle()
    assert lobby.text == h.expected_table(game)
    assert hand.text == tr.t("ru", "notice-cancelled") and not hand.reply_markup

    # A finished game refuses its old buttons.
    version = game.version
    assert await alert(h, alice, hand, lead) == tr.t("ru", "err-game-over")
    assert await alert(h, bob, lobby, token(Verb.JOIN, game, "B", 3)) == tr.t("ru", "err-game-over")
    assert game.version == version
