"""A challenge's refusals as a person sees them through the fake Bot API: asked in a
group, a forged id, a forged "Next deal", /stop of a challenge deal; each one line,
nothing changes."""

from __future__ import annotations

from bot.codec import Command, Verb, encode
from bot.models import ChatRef, GameStatus, Platform, UserRef
from tests.adapters.telegram.harness import GROUP, Harness


async def test_a_challenge_asked_in_a_group_points_to_the_private_chat(h: Harness) -> None:
    alice = h.user(1, "Alice")
    h.tg.add_group(GROUP, "Club")
    answer = await h.command(alice, GROUP, "/kozel challenge")
    assert answer.text == h.tr.t("ru", "err-challenge-in-group")
    assert await h.service.open_game(ChatRef(Platform.TELEGRAM, str(GROUP))) is None
    assert await h.storage.challenge_plays("yard-1970-01-12", UserRef(Platform.TELEGRAM, "1")) == []


async def test_forged_ids_and_presses_get_one_line_and_change_nothing(h: Harness) -> None:
    alice, bob = h.user(1, "Alice"), h.user(2, "Bob")
    for words, error in [
        ("/kozel challenge zzzzzz", "err-challenge-unknown"),
        ("/kozel challenge yard-2999-01-01", "err-challenge-not-yet"),
        ("/top challenge ../../etc", "err-challenge-unknown"),
    ]:
        answer = await h.command(alice, alice.id, words)
        assert answer.text == h.tr.t("ru", error), words  # the chat's language
    assert await h.service.open_game(ChatRef(Platform.TELEGRAM, str(alice.id))) is None

    await h.command(alice, alice.id, "/kozel challenge")
    await h.settle()
    game = await h.service.open_game(ChatRef(Platform.TELEGRAM, str(alice.id)))
    assert game is not None and game.settings.challenge_deal == 0
    # /stop of a challenge deal: refused, the deal goes on.
    await h.command(alice, alice.id, "/stop")
    # Bob forges Alice's "Next deal" (and her hand's buttons) in his own chat.
    his = await h.command(bob, bob.id, "/help")  # a message of his own to press on
    forged = encode(Command(Verb.REMATCH, game.id, game.version))
    query = await h.tg.press(bob, bob.id, his.message_id, forged)
    await h.tg.wait_for(lambda t: query in t.callback_answers)
    assert "text" in h.tg.callback_answers[query]
    assert await h.storage.challenge_plays(game.settings.challenge or "", bob_ref()) == []
    after = await h.service.game(game.id)
    assert after.status is GameStatus.PLAYING and after.version == game.version


def bob_ref() -> UserRef:
    return UserRef(Platform.TELEGRAM, "2")
