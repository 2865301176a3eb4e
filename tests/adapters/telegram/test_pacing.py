"""A burst of plays in a group whose limit is small: edits are coalesced and paced,
a 429 is waited out, and the table ends right with nothing lost."""

from __future__ import annotations

import itertools

import pytest
from aiogram import Bot
from aiogram.client.telegram import TelegramAPIServer

from adapters.telegram import Outbox, Pacing
from adapters.telegram.session import LeanSession
from bot import presenters
from bot.codec import Verb
from bot.models import ChatRef, Game, Platform
from bot.presenters import Screen
from testing.fakes.telegram import FakeTelegram
from tests.adapters.telegram.harness import GROUP, Harness

CHAT = ChatRef(Platform.TELEGRAM, str(GROUP))
#: The fake allows 5 messages (sends + edits) per second into a group.
STRICT = {"group_limit": 5, "window": 1.0}
PACED = Pacing(group_limit=5, group_window=1.0, chat_interval=0.0, global_limit=1000, refresh=0.0)
#: A bot that believes it may write 20 a second: the fake will answer 429.
CARELESS = Pacing(
    group_limit=20, group_window=1.0, chat_interval=0.0, global_limit=1000, refresh=0.0
)


async def burst(h: Harness) -> tuple[Game, int]:
    """Alice and three computers play three tricks as fast as they can; returns the
    game and how many table states there were."""
    alice = h.user(1, "Alice")
    lobby = await h.command(alice, GROUP, "/kozel")
    game = await h.service.open_game(CHAT)
    assert game is not None
    await h.press_lobby(alice, lobby, Verb.JOIN, "A")
    for team in ("B", "A", "B"):
        await h.press_lobby(alice, lobby, Verb.ADD_COMPUTER, team)
    await h.press_lobby(alice, lobby, Verb.START)
    start = game.version
    game = await h.play_until(game.id, lambda g: g.play.series.current.trick_number >= 3)  # type: ignore[union-attr]
    await h.settle()
    return game, game.version - start


def group_writes(h: Harness) -> int:
    return sum(
        1
        for call in h.tg.calls_of("sendMessage", "editMessageText")
        if call.params.get("chat_id") == GROUP and call.status == 200
    )


@pytest.mark.parametrize(("tg", "pacing"), [(STRICT, PACED)], indirect=True)
async def test_paced_burst_never_hits_the_limit(h: Harness) -> None:
    game, states = await burst(h)
    assert h.tg.too_many_requests_count == 0
    table = h.table_message(game)
    assert table is not None and table.text == h.expected_table(game)
    # Coalesced: far fewer table edits than table states.
    edits = [c for c in h.tg.calls_of("editMessageText") if c.params["chat_id"] == GROUP]
    assert len(edits) < states, (len(edits), states)
    assert h.adapter.outbox.stats.coalesced > 0


@pytest.mark.parametrize(("tg", "pacing"), [(STRICT, CARELESS)], indirect=True)
async def test_429_is_waited_out_and_nothing_is_lost(h: Harness) -> None:
    game, _ = await burst(h)
    # Provoked: the bot went too fast, was told to wait, waited, and retried.
    refused = h.tg.too_many_requests_count
    assert refused >= 1
    assert h.adapter.outbox.stats.retried_429 == refused
    table = h.table_message(game)
    assert table is not None and table.text == h.expected_table(game)
    # Every 429 was followed by a success after retry_after: no request was dropped.
    calls = [c for c in h.tg.calls if c.params.get("chat_id") == GROUP]
    for refusal, retry in itertools.pairwise(calls):
        if refusal.status == 429:
            assert retry.params == refusal.params or retry.status == 200
            assert retry.time - refusal.time >= 0.9


@pytest.mark.parametrize(("tg", "pacing"), [(STRICT, PACED)], indirect=True)
async def test_results_keep_their_order(h: Harness) -> None:
    """A whole deal under a tight limit: its result comes once, after the table
    showed the deal's last trick, and the table ends right."""
    alice = h.user(1, "Alice")
    game, _ = await burst(h)
    game = await h.play_until(game.id, lambda g: len(g.play.series.deals) > 1)
    await h.settle()
    assert h.tg.too_many_requests_count == 0
    result = game.play.series.deals[0].result
    assert result is not None
    expected = presenters.deal_result(game, 0, result, h.tr, game.settings.locale).text
    texts = [m.text for m in h.tg.messages(GROUP)]
    assert texts.count(expected) == 1
    table = h.table_message(game)
    assert table is not None and table.text == h.expected_table(game)
    assert alice.id in h.tg.users


async def test_one_message_a_second_inside_a_chat_is_never_refused() -> None:
    """The FAQ's one message a second inside a chat holds for groups and private
    chats alike, edits included: a server that enforces it never refuses the outbox."""
    user = 4242
    async with FakeTelegram(chat_interval=1.0) as tg:
        tg.add_user(user, "Player")
        tg.user_starts(user)
        tg.add_group(GROUP, "Table")
        bot = Bot("123:TEST", session=LeanSession(api=TelegramAPIServer.from_base(tg.base_url)))
        box = Outbox(bot, Pacing())
        try:
            for version in range(3):
                box.show(GROUP, (1, "table"), Screen(f"table {version}"), version=version)
                box.show(
                    user, (1, "hand:0"), Screen(f"hand {version}"), version=version, urgent=True
                )
                box.send(GROUP, Screen(f"notice {version}"))
                await box.drain()
        finally:
            await bot.session.close()
        assert tg.too_many_requests_count == 0 and box.stats.retried_429 == 0
        assert len(tg.calls_of("sendMessage", "editMessageText")) == 9
