"""Reliability through the service (:mod:`bot.reliability`): who walked out of a
started rated game, as the clock, a come-back and /stop leave it, and the games
that count for nobody."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest

from bot.i18n import Translator
from bot.memory import MemoryStorage
from bot.models import GameStatus, Platform, User
from bot.ports import Storage
from bot.presenters.reliability import stats_lines
from bot.reliability import Reliability
from bot.service import GameService
from tests.bot.conftest import ALICE, BOB, CAROL, CHAT, DAN, PLAYERS, FakeClock, RecordingPublisher
from tests.bot.test_service import full_table, play_to_the_end, turn_user


def quick_service(storage: Storage, clock: FakeClock) -> GameService:
    """A service whose clock makes a player away at his first missed turn."""
    service = GameService(
        storage,
        clock=clock,
        rng=random.Random(11),
        computer_delay=0,
        turn_timeout=60,
        max_missed=1,
        computer_level="normal",
    )
    service.add_publisher(Platform.CONSOLE, RecordingPublisher())
    return service


@pytest.fixture
async def service() -> AsyncIterator[GameService]:
    svc = quick_service(MemoryStorage(), FakeClock())
    try:
        yield svc
    finally:
        await svc.close()


async def away_by_the_clock(service: GameService, game_id: int) -> int:
    """The player to move misses his turn: the clock makes him away. His seat."""
    await service.settle()
    seat, _, _ = await turn_user(service, game_id)
    clock = service.clock
    assert isinstance(clock, FakeClock)
    clock.advance(61)
    await service.tick()
    occupant = (await service.game(game_id)).seats[seat]
    assert occupant is not None and occupant.away
    return seat


async def reliabilities(service: GameService) -> list[Reliability]:
    return [await service.reliability(player.ref) for player in PLAYERS]


async def test_a_player_away_when_the_game_finished_walked_out(
    storage: Storage, clock: FakeClock
) -> None:
    service = quick_service(storage, clock)
    try:
        game_id = await full_table(service)
        assert await reliabilities(service) == [Reliability()] * 4  # read before: cached
        away = await away_by_the_clock(service, game_id)
        await play_to_the_end(service, game_id, humans=4)
        assert (await service.game(game_id)).status is GameStatus.FINISHED
        expected = [Reliability(1, int(seat == away)) for seat in range(4)]
        assert await reliabilities(service) == expected
        assert (await service.reliability(PLAYERS[away].ref)).percent == 0
    finally:
        await service.close()


async def test_a_player_who_came_back_in_time_completed_it(service: GameService) -> None:
    game_id = await full_table(service)
    away = await away_by_the_clock(service, game_id)
    assert await service.come_back(game_id, PLAYERS[away].ref)
    await play_to_the_end(service, game_id, humans=4)
    assert await reliabilities(service) == [Reliability(1, 0)] * 4


async def test_the_creators_stop_not_an_admin_counts_against_him_and_the_away(
    service: GameService,
) -> None:
    game_id = await full_table(service)  # Alice opened it, at seat 0
    away = await away_by_the_clock(service, game_id)
    await service.cancel(game_id, None, ALICE.ref, is_admin=False)
    walked_out = {0, away}
    expected = [Reliability(1, int(seat in walked_out)) for seat in range(4)]
    assert await reliabilities(service) == expected


@pytest.mark.parametrize("stopper", [ALICE, BOB], ids=["creator-admin", "another-admin"])
async def test_an_admins_stop_counts_against_nobody_but_the_away(
    service: GameService, stopper: User
) -> None:
    game_id = await full_table(service)
    await service.cancel(game_id, None, stopper.ref, is_admin=True)
    assert await reliabilities(service) == [Reliability(1, 0)] * 4
    # The next one: an admin stops a game one player left by the clock.
    game_id = await full_table(service)
    away = await away_by_the_clock(service, game_id)
    await service.cancel(game_id, None, stopper.ref, is_admin=True)
    expected = [Reliability(2, int(seat == away)) for seat in range(4)]
    assert await reliabilities(service) == expected


async def test_a_game_with_a_computer_counts_for_nobody(service: GameService) -> None:
    game_id = await full_table(service, humans=3)
    await away_by_the_clock(service, game_id)
    await service.cancel(game_id, None, ALICE.ref)
    game_id = await full_table(service, humans=1)
    await play_to_the_end(service, game_id, humans=1)
    assert (await service.game(game_id)).status is GameStatus.FINISHED
    assert await reliabilities(service) == [Reliability()] * 4


async def test_a_lobby_cancelled_before_the_start_counts_for_nobody(
    service: GameService,
) -> None:
    game = await service.open_table(CHAT, ALICE)
    for player in (ALICE, BOB, CAROL, DAN):
        game = await service.join(game.id, None, player)
    await service.cancel(game.id, None, ALICE.ref)
    assert await reliabilities(service) == [Reliability()] * 4


@pytest.mark.parametrize(
    ("games", "walked_out", "locale", "line"),
    [
        (20, 1, "en", "🤝 Reliability: 95% (19 of the last 20 games completed)"),
        (20, 1, "ru", "🤝 Надёжность: 95% (доиграно 19 из последних 20 игр)"),
        (1, 0, "en", "🤝 Reliability: 100% (1 of 1 game completed)"),
        (1, 1, "ru", "🤝 Надёжность: 0% (доиграно 0 из 1 игры)"),
        (3, 1, "ru", "🤝 Надёжность: 66% (доиграно 2 из последних 3 игр)"),
        (21, 0, "ru", "🤝 Надёжность: 100% (доиграно 21 из последних 21 игры)"),
    ],
)
def test_the_stats_line(games: int, walked_out: int, locale: str, line: str) -> None:
    tr = Translator.from_dir()
    assert stats_lines(Reliability(games, walked_out), tr, locale) == [line]
    assert stats_lines(Reliability(), tr, locale) == []
