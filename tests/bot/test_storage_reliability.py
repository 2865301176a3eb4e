"""The storage contract for reliability (migration 0010, :mod:`bot.reliability`): a
player's rows of the rated games that ended, kept once with the save that ended
them, counted over his latest :data:`~bot.reliability.WINDOW`; the same cases
against MemoryStorage, SqliteStorage and PostgresStorage."""

from __future__ import annotations

import pytest

from bot.models import ChatRef, Game, GameStatus, Platform, TableSettings, UserRef
from bot.ports import Storage
from bot.reliability import WINDOW, Ending, Reliability, WalkOut
from bot.rows import StaleGame
from tests.bot.test_storage import CHAT, TG, human

USERS = [UserRef(TG, str(n)) for n in range(1, 5)]
START = 1_764_547_200.0


async def ended(
    storage: Storage,
    at: float,
    walked_out: WalkOut | None = None,
    *,
    status: GameStatus = GameStatus.CANCELLED,
    chat: ChatRef = CHAT,
) -> Game:
    """A rated game of :data:`USERS` that ended at ``at``, saved as the service saves
    its end: the first user walked out of it as ``walked_out`` says."""
    seats = [human(user, f"P{user.id}") for user in USERS]
    game = await storage.create_game(
        Game(0, chat, USERS[0], GameStatus.PLAYING, TableSettings(), list(seats))
    )
    game.status = status
    game.updated_at = at
    game.version += 1
    rows = [Ending(USERS[0], walked_out), *(Ending(user) for user in USERS[1:])]
    await storage.save_game(game, base=game.version - 1, endings=rows)
    return game


async def test_a_player_without_rated_games_has_an_empty_reliability(storage: Storage) -> None:
    found = await storage.reliability(USERS[0])
    assert found == Reliability() and not found
    assert (found.games, found.walked_out, found.percent) == (0, 0, 100)


async def test_the_last_20_ended_games_count_by_the_moment_they_ended(storage: Storage) -> None:
    # 25 games: he walked out of the first three (too old to count) and of the 24th.
    for number in range(25):
        walked_out = WalkOut.AWAY if number < 3 or number == 23 else None
        await ended(storage, START + 60 * number, walked_out)
    mine = await storage.reliability(USERS[0])
    assert (mine.games, mine.walked_out, mine.completed, mine.percent) == (WINDOW, 1, 19, 95)
    assert await storage.reliability(USERS[1]) == Reliability(WINDOW, 0)
    assert await storage.reliability(USERS[0], last=2) == Reliability(2, 1)
    assert await storage.reliability(USERS[0], last=30) == Reliability(25, 4)
    # A game with a later id that ended before the others is not among his latest.
    await ended(storage, START - 60, WalkOut.STOPPED)
    assert await storage.reliability(USERS[0]) == Reliability(WINDOW, 1)
    # One that ended after them is, and pushes the oldest of the window out.
    await ended(storage, START + 60 * 30, WalkOut.STOPPED, status=GameStatus.FINISHED)
    assert await storage.reliability(USERS[0]) == Reliability(WINDOW, 2)


async def test_an_ending_saved_again_is_kept_once_and_a_stale_save_keeps_none(
    storage: Storage,
) -> None:
    game = await ended(storage, START, WalkOut.AWAY)
    # The same end saved again (a retried save without a fence): nothing doubles,
    # nothing changes (the first row stays).
    await storage.save_game(game, endings=[Ending(USERS[0]), Ending(USERS[1], WalkOut.AWAY)])
    assert await storage.reliability(USERS[0]) == Reliability(1, 1)
    assert await storage.reliability(USERS[1]) == Reliability(1, 0)
    # A save refused by the fence keeps no ending.
    other = await ended(storage, START + 60)
    with pytest.raises(StaleGame):
        await storage.save_game(
            other, base=other.version - 1, endings=[Ending(USERS[2], WalkOut.AWAY)]
        )
    assert await storage.reliability(USERS[2]) == Reliability(2, 0)


async def test_a_user_of_another_platform_with_the_same_id_is_another_player(
    storage: Storage,
) -> None:
    await ended(storage, START, WalkOut.AWAY)
    assert not await storage.reliability(UserRef(Platform.DISCORD, USERS[0].id))
    assert await storage.reliability(USERS[0]) == Reliability(1, 1)
