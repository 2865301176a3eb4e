"""Ten minutes of downtime of ``python -m bot`` (a real child process, its real turn
timers) while a human is to move in a group game with a turn timeout: after the
restart nobody is moved for the downtime nor counted away, and the clock resumes with
the time that was left when the process stopped (issue 23, point 4).

The downtime is not waited for: while the bot is down the test moves every moment the
bot saved into the past by ten minutes (the game's times and turn deadline, the
moment it was last alive, the users' and the chats' send times), which is all that ten
minutes of wall-clock time passing changes for the restarted process."""

from __future__ import annotations

import contextlib
import json
import signal
import sqlite3
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot import presenters
from bot.codec import Verb, decode
from bot.i18n import Translator
from bot.models import GameStatus
from bot.service.timers import ALIVE_EVERY
from testing.fakes.bot_process import BotProcess
from testing.fakes.telegram import FakeTelegram
from tests.adapters.telegram.test_kill import GROUP, LOCALE, NAMES, RESTORED, SEATS, Table

#: The group's turn timeout (seconds), from the environment.
TURN_TIMEOUT = 60
#: Ten minutes down.
DOWN = 600.0
#: The reminder comes this long before the deadline (min(30, TURN_TIMEOUT / 2)).
REMINDER = min(30.0, TURN_TIMEOUT / 2)


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(group_limit=1_000_000) as fake:
        for user_id, name in NAMES.items():
            fake.user_starts(fake.add_user(user_id, name))
        fake.add_group(GROUP, "Club")
        yield fake


def alive_at(database: Path) -> float:
    """The moment the bot last kept as alive (one value for every platform)."""
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as db:
        moments = {at for (at,) in db.execute("SELECT at FROM alive")}
    [moment] = moments
    return float(moment)


def snapshot(database: Path, game_id: int) -> str:
    """The saved series as text: what the players did, and nothing the clock does."""
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as db:
        [(text,)] = db.execute("SELECT snapshot FROM games WHERE id = ?", (game_id,))
    return str(text)


def ten_minutes_pass(database: Path) -> None:
    """What ten minutes of wall-clock time while the bot is down look like to it: every
    moment it saved lies ten minutes further back."""
    with contextlib.closing(sqlite3.connect(database)) as db, db:
        db.execute(
            "UPDATE games SET created_at = created_at - :d, updated_at = updated_at - :d,"
            " turn_deadline = turn_deadline - :d",
            {"d": DOWN},
        )
        db.execute("UPDATE alive SET at = at - ?", (DOWN,))
        db.execute("UPDATE users SET updated_at = updated_at - ?", (DOWN,))
        for platform, chat, times in db.execute("SELECT * FROM send_times").fetchall():
            earlier = json.dumps([moment - DOWN for moment in json.loads(times)])
            db.execute(
                "UPDATE send_times SET times = ? WHERE platform = ? AND chat_id = ?",
                (earlier, platform, chat),
            )


def shown_left(table: Table) -> int | None:
    """The seconds left that the group's table shows for the saved game's turn (0:
    "waiting for"), with its hands current; None if they show something else."""
    game, tr = table.game(), table.tr
    hands = all(
        table.shows(
            user, game.messages.get(f"hand:{seat}"), presenters.hand(game, seat, 0, tr, LOCALE)
        )
        for seat, user in SEATS.items()
    )
    if not hands or game.turn_deadline is None:
        return None
    for left in range(TURN_TIMEOUT + 1):
        screen = presenters.table(game, tr, LOCALE, game.turn_deadline - left)
        if table.shows(GROUP, game.messages.get("table"), screen):
            return left
    return None


def table_edits(tg: FakeTelegram) -> int:
    return sum(call.params.get("chat_id") == GROUP for call in tg.calls_of("editMessageText"))


async def stop(bot: BotProcess, how: signal.Signals) -> tuple[float, float]:
    """Stop the bot with the signal ``how``; returns when it was sent and when the
    process was gone. SIGKILL gives it no chance to finish anything; SIGTERM (what
    ``docker stop`` and systemd send) and SIGINT (Ctrl-C) stop it cleanly."""
    process = bot.process
    assert process is not None
    sent = time.time()
    process.send_signal(how)
    code = await process.wait()
    gone = time.time()
    bot.process = None
    expected = -signal.SIGKILL if how is signal.SIGKILL else 0
    assert code == expected, bot.output()[-3000:]
    return sent, gone


# SIGINT (Ctrl-C) takes SIGTERM's path (bot.loop.stoppable handles both): the two
# stops that differ are a crash and a clean stop.
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM], ids=lambda how: how.name)
async def test_ten_minutes_down_neither_moves_for_the_human_nor_counts_a_miss(
    tg: FakeTelegram, tmp_path: Path, how: signal.Signals
) -> None:
    table = Table(tg, Translator.from_dir(), tmp_path)
    table.bot.env["TURN_TIMEOUT"] = str(TURN_TIMEOUT)
    await table.start()
    try:
        lobby = await table.open(seated=4)
        await table.wait(lambda: table.lobby_current(lobby))
        start = next(
            data
            for _, data in tg.buttons(GROUP, lobby.message_id)
            if data is not None and decode(data).verb is Verb.START
        )
        await table.press(1, GROUP, lobby.message_id, start)
        await table.wait(lambda: table.game().status is GameStatus.PLAYING)
        await table.wait(lambda: shown_left(table) is not None)
        game = table.game()
        seat = game.play.turn
        assert seat is not None and game.turn_deadline is not None
        assert game.settings.turn_timeout == TURN_TIMEOUT
        # The bot's timers run in the child: its heartbeat goes on.
        first = alive_at(table.database)
        await table.wait(lambda: alive_at(table.database) >= first + ALIVE_EVERY)

        sent, gone = await stop(table.bot, how)
        game, played = table.game(), snapshot(table.database, table.game_id)
        assert game.turn_deadline is not None and not game.reminded
        stopped = max(alive_at(table.database), game.updated_at)  # the bot's last word
        left = game.turn_deadline - stopped
        assert left > REMINDER + 2 * ALIVE_EVERY  # the reminder is not due for a while
        if how is signal.SIGKILL:  # the heartbeat's last one: at most 5 s before
            assert sent - 2 * ALIVE_EVERY <= stopped <= sent
        else:  # a clean stop keeps the moment it stopped
            assert sent <= stopped <= gone

        ten_minutes_pass(table.database)
        restarted, edits = time.time(), table_edits(tg)
        await table.start()
        # The table shown again, with the time left.
        await table.wait(lambda: table_edits(tg) > edits and shown_left(table), RESTORED)
        shown = shown_left(table)
        resumed = table.game()
        now = time.time()
        deadline = resumed.turn_deadline
        assert deadline is not None and shown is not None
        # Nobody moved for the human at the first ticks, nor counted a miss.
        occupant = resumed.seats[seat]
        assert occupant is not None and (occupant.missed, occupant.away) == (0, False)
        assert (resumed.play.turn, snapshot(table.database, table.game_id)) == (seat, played)
        # Resumed at some moment between the start and now, with what was left then.
        assert restarted + left - 0.01 <= deadline <= now + left + 0.01
        assert left - 5.0 <= deadline - now <= left + 5.0
        assert left - (now - restarted) - 1 <= shown <= left + 1

        # A few ticks of the timers (each keeps the moment alive every 5 s), nobody
        # pressing: nobody moved for the human, who missed nothing and is not away.
        await table.wait(lambda: alive_at(table.database) >= now + 2 * ALIVE_EVERY)
        after = table.game()
        occupant = after.seats[seat]
        assert occupant is not None and not occupant.is_computer
        assert (occupant.missed, occupant.away) == (0, False)
        assert after.play.turn == seat
        assert snapshot(table.database, table.game_id) == played
        assert after.turn_deadline == deadline

        # The clock runs on from there: the reminder comes when that much is left.
        await table.wait(lambda: table.game().reminded, left)
        reminded = time.time()
        assert reminded >= deadline - REMINDER
        after = table.game()
        occupant = after.seats[seat]
        assert occupant is not None and (occupant.missed, occupant.away) == (0, False)
        assert snapshot(table.database, table.game_id) == played
        # A clean stop ends the long poll as it stops the poller: no error line.
        assert table.bot.errors() == []
    finally:
        await table.bot.kill()
