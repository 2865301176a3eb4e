"""The short cache of statistics and leaderboards: one read for a burst of the same
question, answers kept ``ttl`` seconds, dropped when a result makes them stale."""

from __future__ import annotations

import asyncio

import pytest

from bot.interactions import Interactions
from bot.models import GameStatus
from bot.readcache import ReadCache
from tests.bot.conftest import ALICE, CHAT, FakeClock
from tests.bot.test_commands_by_rules import play_solo

TIMEOUT = 5.0


class Reads:
    """A read the test lets finish: counts its calls, answers the call number."""

    def __init__(self) -> None:
        self.calls = 0
        self.started = asyncio.Event()
        self.go = asyncio.Event()
        self.fail = False

    async def __call__(self) -> int:
        self.calls += 1
        self.started.set()
        await self.go.wait()
        if self.fail:
            raise RuntimeError("the storage is down")
        return self.calls


async def test_a_burst_of_the_same_question_reads_once() -> None:
    cache, read = ReadCache(clock=FakeClock().now), Reads()
    waiting = [asyncio.create_task(cache.get("top", read)) for _ in range(50)]
    await asyncio.wait_for(read.started.wait(), TIMEOUT)
    read.go.set()
    assert await asyncio.wait_for(asyncio.gather(*waiting), TIMEOUT) == [1] * 50
    assert read.calls == 1


async def test_an_answer_is_kept_for_its_time_then_read_again() -> None:
    clock, read = FakeClock(), Reads()
    read.go.set()
    cache = ReadCache(ttl=5.0, clock=clock.now)
    assert await cache.get("top", read) == 1
    clock.advance(4.9)
    assert await cache.get("top", read) == 1
    assert await cache.get("other", read) == 2  # another key: its own read
    clock.advance(0.1)
    assert await cache.get("top", read) == 3


async def test_no_time_to_keep_means_every_call_reads() -> None:
    cache, read = ReadCache(ttl=0), Reads()
    read.go.set()
    assert [await cache.get("top", read) for _ in range(3)] == [1, 2, 3]
    assert len(cache) == 0


async def test_forgetting_drops_the_answer_and_the_read_under_way() -> None:
    cache, read = ReadCache(clock=FakeClock().now), Reads()
    read.go.set()
    assert await cache.get(("top", 1), read) == 1
    assert await cache.get(("top", 2), read) == 2
    cache.forget(lambda key: key == ("top", 1))
    assert await cache.get(("top", 1), read) == 3
    assert await cache.get(("top", 2), read) == 2  # not stale: kept

    slow = Reads()
    under_way = asyncio.create_task(cache.get("slow", slow))
    await asyncio.wait_for(slow.started.wait(), TIMEOUT)
    cache.forget()  # a result came in while it was read: the answer may be stale
    slow.go.set()
    assert await asyncio.wait_for(under_way, TIMEOUT) == 1
    assert await cache.get("slow", slow) == 2  # read again, not the stale one


async def test_an_error_is_not_kept() -> None:
    cache, read = ReadCache(clock=FakeClock().now), Reads()
    read.fail = True
    read.go.set()
    with pytest.raises(RuntimeError, match="down"):
        await cache.get("top", read)
    read.fail = False
    assert await cache.get("top", read) == 2


async def test_a_caller_who_gives_up_does_not_cancel_the_others_read() -> None:
    cache, read = ReadCache(clock=FakeClock().now), Reads()
    first = asyncio.create_task(cache.get("top", read))
    await asyncio.wait_for(read.started.wait(), TIMEOUT)
    second = asyncio.create_task(cache.get("top", read))
    await asyncio.sleep(0)
    first.cancel()
    read.go.set()
    assert await asyncio.wait_for(second, TIMEOUT) == 1
    with pytest.raises(asyncio.CancelledError):
        await first


async def test_the_cache_keeps_at_most_its_size() -> None:
    cache, read = ReadCache(size=10, clock=FakeClock().now), Reads()
    read.go.set()
    for key in range(100):
        await cache.get(key, read)
    assert len(cache) == 10


async def test_a_finished_series_shows_at_once_though_the_board_was_kept(
    quick_ui: Interactions,
) -> None:
    """The service keeps boards and statistics a few seconds, but the result it saves
    drops its players' and its chat's: they see it at once."""
    service = quick_ui.service
    assert service.read_cache.ttl > 0
    assert await service.leaderboard(CHAT) == []
    assert await service.stats(ALICE.ref) is None
    await play_solo(quick_ui, "yard")
    (row,) = await service.leaderboard(CHAT)
    assert (row.user, row.series_played) == (ALICE.ref, 1)
    stats = await service.stats(ALICE.ref)
    assert stats is not None and stats.series_played == 1


async def test_a_deal_result_drops_its_players_statistics_and_keeps_the_boards(
    quick_ui: Interactions,
) -> None:
    service = quick_ui.service
    reply = await quick_ui.kozel(CHAT, ALICE, private=True, rules="yard")
    assert reply.game is not None
    game_id = reply.game.id
    board = await service.leaderboard(CHAT, everywhere=True)
    before = await service.stats(ALICE.ref)
    assert before is not None and before.deals_played == 0
    stored = before
    while stored is not None and stored.deals_played == 0:  # until the first deal ends
        await service.settle()
        game = await service.game(game_id)
        assert game.status is GameStatus.PLAYING
        if game.play.turn == 0:
            await service.play(game_id, game.version, ALICE.ref, game.play.safe_action(0))
        stored = await service.storage.user_stats(ALICE.ref)
    after = await service.stats(ALICE.ref)
    assert after is not None and after.deals_played == 1  # read again at once
    assert await service.leaderboard(CHAT, everywhere=True) is board  # kept
