"""Memory stays bounded under any input: forged presses leave no locks, caches or
maps behind them."""

from __future__ import annotations

import random

from bot.codec import Command, Verb, encode
from bot.i18n import Translator
from bot.interactions import Interactions
from bot.memory import MemoryStorage
from bot.models import ChatRef, GameStatus, Platform, User, UserRef
from bot.presses import Pressed
from bot.service import GameService
from tests.bot.conftest import ALICE, BOB, CHAT

PRESSES = 100_000


async def test_forged_presses_leave_no_locks_and_the_caches_stay_bounded() -> None:
    """Regression: every press on a missing game id left a lock behind (50,000 forged
    presses, 50,000 locks), and every user who pressed stayed in the locale cache."""
    service = GameService(MemoryStorage(), rng=random.Random(1), computer_delay=0, user_cache=1000)
    ui = Interactions(service, Translator.from_dir())
    lobby = await service.open_table(CHAT, ALICE)
    other_chat = ChatRef(Platform.CONSOLE, "chat-2")
    cancelled = await service.open_table(other_chat, BOB)
    await service.cancel(cancelled.id, None, BOB.ref)
    rng = random.Random(9)
    verbs = list(Verb)
    refused = 0
    try:
        for i in range(PRESSES):
            user = User(UserRef(Platform.CONSOLE, f"forger-{i}"), f"Forger {i}")
            kind = i % 4
            if kind == 0:  # a game that does not exist
                game_id = rng.randrange(10**6, 10**9)
            elif kind == 1:  # the open lobby, a random verb and version
                game_id = lobby.id
            elif kind == 2:  # a game that is over
                game_id = cancelled.id
            else:  # not a token at all
                token = rng.choice(["", "k:", "hello", "k:p:1:1:" + "x" * 80])
            if kind != 3:
                verb = rng.choice(verbs)
                arg = rng.choice(["", "A", "B", "t60", "lZZ", "ff"])
                token = encode(Command(verb, game_id, rng.randrange(1, 50), arg))
            reply = await ui.press(user, token, where=Pressed(CHAT))
            refused += reply.alert is not None
    finally:
        await service.close()
    assert refused > PRESSES * 0.9  # refusals, in words (a few only show a screen)
    # Locks: only for the open game; none for chats; the cache holds its bound.
    assert set(service.tables.locks) <= {lobby.id}
    assert service.tables.chat_locks == {}
    assert len(service.people.user_locales) == service.user_cache
    assert set(service.tables.games) == {lobby.id}
    game = await service.game(lobby.id)
    assert game.version == lobby.version and game.status is GameStatus.LOBBY


async def test_a_game_that_ends_drops_its_lock() -> None:
    service = GameService(MemoryStorage(), rng=random.Random(1), computer_delay=0)
    try:
        game = await service.open_table(CHAT, ALICE)
        game = await service.join(game.id, game.version, ALICE)
        assert set(service.tables.locks) <= {game.id}
        await service.cancel(game.id, game.version, ALICE.ref)
        assert service.tables.locks == {} and service.tables.games == {}
        assert service.tables.chat_locks == {}
    finally:
        await service.close()
