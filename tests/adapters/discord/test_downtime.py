"""Ten minutes of downtime of ``python -m bot`` running the Discord bot (a real child
process, its real turn timers) while a human is to move in a channel game with a turn
timeout: after the restart nobody is moved for the downtime nor counted away, and the
clock resumes with the time that was left when the process stopped (issue 23, point
4). The downtime is simulated as in tests/adapters/telegram/test_downtime.py: every
moment the bot saved is moved ten minutes back while it is down."""

from __future__ import annotations

import signal
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot import presenters
from bot.i18n import Translator
from bot.models import GameStatus
from bot.service.timers import ALIVE_EVERY
from testing.fakes.discord import FakeDiscord
from tests.adapters.discord.harness import world
from tests.adapters.discord.test_kill import LOCALE, SEATS, Table
from tests.adapters.telegram.test_downtime import (
    REMINDER,
    TURN_TIMEOUT,
    alive_at,
    snapshot,
    stop,
    ten_minutes_pass,
)

#: A restored screen: Discord's rate limits may hold it back a while.
RESTORED = 120.0


@pytest.fixture
async def dc() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(patch=False) as fake:
        world(fake)
        yield fake


def shown_left(table: Table) -> int | None:
    """The seconds left that the channel's table shows for the saved game's turn (0:
    "waiting for"), with the DM hands current; None if they show something else."""
    game, tr = table.game(), table.tr
    hands = all(
        table.shows(game.messages.get(f"hand:{seat}"), presenters.hand(game, seat, 0, tr, LOCALE))
        for seat in SEATS
    )
    if not hands or game.turn_deadline is None:
        return None
    for left in range(TURN_TIMEOUT + 1):
        now = game.turn_deadline - left
        screen = presenters.table(game, tr, LOCALE, now, with_hand_button=True)
        if table.shows(game.messages.get("table"), screen):
            return left
    return None


def table_edits(dc: FakeDiscord, message: int) -> int:
    return sum(c.method == "PATCH" and c.path.endswith(f"/{message}") for c in dc.calls)


# The clean stop is Telegram's test's too (the same bot.__main__ and service): here a crash.
@pytest.mark.parametrize("how", [signal.SIGKILL], ids=lambda how: how.name)
async def test_ten_minutes_down_neither_moves_for_the_human_nor_counts_a_miss(
    dc: FakeDiscord, tmp_path: Path, how: signal.Signals
) -> None:
    table = Table(dc, Translator.from_dir(), tmp_path)
    table.bot.env["TURN_TIMEOUT"] = str(TURN_TIMEOUT)
    await table.start()
    try:
        message = await table.open(seated=4)
        await table.start_series(message)
        await table.wait(lambda: shown_left(table) is not None)
        game = table.game()
        seat = game.play.turn
        assert game.status is GameStatus.PLAYING
        assert seat is not None and game.turn_deadline is not None
        assert game.settings.turn_timeout == TURN_TIMEOUT
        first = alive_at(table.database)  # the timers run in the child: it beats
        await table.wait(lambda: alive_at(table.database) >= first + ALIVE_EVERY)

        sent, gone = await stop(table.bot, how)
        game, played = table.game(), snapshot(table.database, table.game_id)
        assert game.turn_deadline is not None and not game.reminded
        stopped = max(alive_at(table.database), game.updated_at)
        left = game.turn_deadline - stopped
        assert left > REMINDER + 2 * ALIVE_EVERY
        if how is signal.SIGKILL:
            assert sent - 2 * ALIVE_EVERY <= stopped <= sent
        else:
            assert sent <= stopped <= gone

        ten_minutes_pass(table.database)
        restarted, edits = time.time(), table_edits(dc, message)
        await table.start()
        await table.wait(lambda: table_edits(dc, message) > edits and shown_left(table), RESTORED)
        shown = shown_left(table)
        resumed = table.game()
        now = time.time()
        deadline = resumed.turn_deadline
        assert deadline is not None and shown is not None
        occupant = resumed.seats[seat]
        assert occupant is not None and (occupant.missed, occupant.away) == (0, False)
        assert (resumed.play.turn, snapshot(table.database, table.game_id)) == (seat, played)
        assert restarted + left - 0.01 <= deadline <= now + left + 0.01
        assert left - 5.0 <= deadline - now <= left + 5.0
        assert left - (now - restarted) - 1 <= shown <= left + 1

        await table.wait(lambda: alive_at(table.database) >= now + 2 * ALIVE_EVERY)
        after = table.game()
        occupant = after.seats[seat]
        assert occupant is not None and (occupant.missed, occupant.away) == (0, False)
        assert snapshot(table.database, table.game_id) == played
        assert after.turn_deadline == deadline

        await table.wait(lambda: table.game().reminded, left)
        assert time.time() >= deadline - REMINDER
        occupant = table.game().seats[seat]
        assert occupant is not None and (occupant.missed, occupant.away) == (0, False)
        assert snapshot(table.database, table.game_id) == played
        assert not table.bot.errors()
    finally:
        await table.bot.kill()
