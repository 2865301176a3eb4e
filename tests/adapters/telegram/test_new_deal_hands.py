"""A new deal is news for every player (issue 23, point 10): right after the move that
ends a deal, every seat's private hand shows the new deal's cards, not only the hands
of the presser and of the seat to act; and once the series is over every hand shows
its end. The outbox holds what nobody waits for (the table's refresh) for a long time
here, so a hand held like it would not be sent within the test's wait."""

from __future__ import annotations

import random

import pytest

from adapters.telegram import Pacing
from bot.codec import Verb
from bot.models import ChatRef, Game, GameStatus, Platform
from testing.fakes.telegram import FakeUser
from tests.adapters.telegram.harness import GROUP, Harness

CHAT = ChatRef(Platform.TELEGRAM, str(GROUP))
#: Every limit far away, but what nobody waits for is held for two minutes.
HOLDING = Pacing(
    group_limit=10_000,
    group_window=1.0,
    chat_interval=0.0,
    global_limit=10_000,
    refresh=120.0,
)
#: Far below the hold: a hand shown within this was not held.
WAIT = 30.0


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


async def every_hand_shows(h: Harness, game: Game) -> None:
    """Wait until each seat's hand message shows what its hand is now."""
    expected = {seat: await h.interactions.hand_screen(game, seat) for seat in range(4)}

    def shown() -> bool:
        for seat, screen in expected.items():
            message = h.hand_message(game, seat)
            if screen is None or message is None or message.text != screen.text:
                return False
        return True

    await h.tg.wait_for(lambda _: shown() or None, timeout=WAIT)


@pytest.mark.parametrize("pacing", [HOLDING], indirect=True)
async def test_a_new_deals_hands_do_not_wait_for_the_turn(h: Harness) -> None:
    game, _ = await four_players(h)
    await every_hand_shows(h, game)  # the first deal: every hand at once
    rng = random.Random(3)
    deals_checked = 0
    while game.status is GameStatus.PLAYING:
        deals = len(game.play.series.deals)
        await h.play_turn(game.id, rng)
        if len(game.play.series.deals) != deals or game.status is not GameStatus.PLAYING:
            # Nobody moved since (four humans): every hand shows the new deal, or the end.
            await every_hand_shows(h, game)
            deals_checked += 1
    assert game.status is GameStatus.FINISHED
    assert deals_checked == len(game.play.series.deals) >= 2
    for seat in range(4):
        hand = h.hand_message(game, seat)
        screen = await h.interactions.hand_screen(game, seat)
        assert hand is not None and screen is not None and hand.text == screen.text
