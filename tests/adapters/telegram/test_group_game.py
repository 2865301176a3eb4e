"""A group plays: lobby, seating (one player only after the deep link), a whole deal
through the players' private hand messages; results checked against the core."""

from __future__ import annotations

import pytest

from bot import presenters
from bot.codec import Verb
from bot.models import ChatRef, GameStatus, Platform, UserRef
from testing.fakes.telegram import FakeMessage, FakeTelegram
from tests.adapters.telegram.harness import GROUP, Harness

CHAT = ChatRef(Platform.TELEGRAM, str(GROUP))


def ref(uid: int) -> UserRef:
    return UserRef(Platform.TELEGRAM, str(uid))


def with_url(tg: FakeTelegram) -> FakeMessage | None:
    """The group's message with a URL button (the way to a private chat)."""
    for message in tg.messages(GROUP):
        if any(
            str(data).startswith("https://") for _, data in tg.buttons(GROUP, message.message_id)
        ):
            return message
    return None


@pytest.mark.parametrize(
    ("storage", "webhook"), [("memory", False), ("sqlite", False), ("memory", True)], indirect=True
)
async def test_four_players_play_a_whole_deal(h: Harness) -> None:
    tg = h.tg
    alice, bob, carol = h.user(1, "Alice"), h.user(2, "Bob"), h.user(3, "Carol")
    dave = h.user(4, "Dave", started=False)  # never wrote to the bot: DMs fail

    lobby = await h.command(alice, GROUP, "/kozel@kozel_test_bot")
    found = await h.service.open_game(CHAT)
    assert found is not None and found.status is GameStatus.LOBBY
    game = found
    for user, team in ((alice, "A"), (bob, "B"), (carol, "A")):
        await h.press_lobby(user, lobby, Verb.JOIN, team)

    # Dave: the bot cannot write to him, so he is not seated; his press is answered
    # with the link to the private chat itself (one tap opens it), whose /start
    # payload seats him. The group is not written to.
    before = len(tg.messages(GROUP))
    query = await h.press_verb(dave, lobby, Verb.JOIN, "B")
    answer = tg.callback_answers[query]
    url = answer["url"]
    assert url.startswith("https://t.me/kozel_test_bot?start=") and "text" not in answer
    assert game.seat_of(ref(dave.id)) is None
    payload = url.split("start=", 1)[1]
    await tg.send_text(dave, dave.id, f"/start {payload}")
    await tg.wait_for(lambda t: game.seat_of(ref(dave.id)) == 3)
    await tg.wait_for(lambda t: "Dave" in (lobby.text or ""))
    assert len(tg.messages(GROUP)) == before and with_url(tg) is None

    await h.press_verb(alice, lobby, Verb.START)
    await tg.wait_for(lambda t: game.status is GameStatus.PLAYING)
    await h.settle()
    # The lobby message became the table: ONE public message, edited in place.
    assert h.table_message(game) is lobby
    assert lobby.text == h.expected_table(game)
    assert tg.buttons(GROUP, lobby.message_id) == []
    for user in (alice, bob, carol, dave):
        hands = [m for m in tg.messages(user.id) if m.from_id == tg.bot_id and m.reply_markup]
        assert len(hands) == 1, [m.text for m in tg.messages(user.id)]

    game = await h.play_until(game.id, lambda g: len(g.play.series.deals) > 1)
    await h.settle()
    result = game.play.series.deals[0].result
    assert result is not None
    expected = presenters.deal_result(game, 0, result, h.tr, game.settings.locale).text
    results = [m for m in tg.messages(GROUP) if m.text == expected]
    assert len(results) == 1
    text = results[0].text or ""
    assert all(str(points) in text for points in result.points)
    for loss in result.loss_points:
        if loss:
            assert str(loss) in text, text
    # The table shows the game as it is now (the second deal has begun).
    assert lobby.text == h.expected_table(game)
    # Still one hand message per player, edited in place.
    for seat, player in game.humans:
        assert player.user is not None
        hand = h.hand_message(game, seat)
        assert hand is not None and hand.edited
        bot_messages = [m for m in tg.messages(int(player.user.id)) if m.from_id == tg.bot_id]
        assert bot_messages[-1] is hand
