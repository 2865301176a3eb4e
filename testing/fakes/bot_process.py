"""``python -m bot`` in a child process, against a fake server, for tests that kill it.

The child runs the real entry point (the composition of :mod:`bot.__main__`: the
storage, the service, the restore, the supervised platforms, the real pacing) with
settings from its environment only: :func:`telegram_env` runs the Telegram bot
against a fake Bot API server, :func:`discord_env` the Discord bot against a fake
Discord, on an SQLite file, with computers that move at once and no turn timeout.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sqlite3
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from adapters import events as kept_events
from adapters.ratings import changes_from_rows
from bot.achievements import Earned
from bot.event import Event
from bot.models import Game
from bot.ports import Owed
from bot.ratings import RatingChange
from bot.rows import earned_from_row, game_from_row, owed_from_row
from bot.settings import Settings
from testing.fakes.discord import TOKEN as DISCORD_TOKEN

if TYPE_CHECKING:
    from adapters.telegram import Pacing

TOKEN = "123456:TEST-token"
ROOT = Path(__file__).resolve().parents[2]
#: The settings' environment names: the child sees only the ones a test gives it.
SETTING_NAMES = frozenset(name.upper() for name in Settings.model_fields)


def _common(database: Path) -> dict[str, str]:
    return {
        "DATABASE_URL": f"sqlite:///{database}",
        "COMPUTER_DELAY": "0",
        "TURN_TIMEOUT": "0",
        "COMPUTER_PROCESSES": "0",
        "LOG_LEVEL": "INFO",
        # The tests' players press at machine speed, past any person's pace.
        "PRESS_RATE": "0",
    }


def telegram_env(api_url: str, database: Path) -> dict[str, str]:
    """The settings of a Telegram bot on the fake Bot API server at ``api_url``."""
    return {**_common(database), "TELEGRAM_BOT_TOKEN": TOKEN, "TELEGRAM_API_URL": api_url}


def discord_env(api_base: str, database: Path) -> dict[str, str]:
    """The settings of a Discord bot on the fake Discord whose REST API is at
    ``api_base`` (the bot asks it for the gateway, as behind a proxy)."""
    return {**_common(database), "DISCORD_BOT_TOKEN": DISCORD_TOKEN, "DISCORD_API_URL": api_base}


class BotProcess:
    """The test's side: start ``python -m bot``, kill it with SIGKILL, read its log."""

    def __init__(self, log: Path, env: dict[str, str]) -> None:
        self.env = env
        self.log = log
        self.process: asyncio.subprocess.Process | None = None

    async def start(self, *, sigint_ignored: bool = False) -> None:
        """Start it; ``sigint_ignored``: with SIGINT ignored, as a script's background
        job (``python -m bot &``), ``nohup`` and some supervisors start it."""
        clean = {k: v for k, v in os.environ.items() if k.upper() not in SETTING_NAMES}
        with self.log.open("ab") as out:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot",
                cwd=self.log.parent,  # no .env there
                env={**clean, "PYTHONPATH": str(ROOT), **self.env},
                stdin=asyncio.subprocess.DEVNULL,
                stdout=out,
                stderr=out,
                preexec_fn=_ignore_sigint if sigint_ignored else _default_sigint,
            )

    async def stop(self, *signals: signal.Signals, timeout: float = 60.0) -> int:  # noqa: ASYNC109
        """Send these signals in turn and wait for the process to end (``timeout`` only
        as a safety net); its exit status."""
        assert self.process is not None
        for signum in signals:
            self.process.send_signal(signum)
        async with asyncio.timeout(timeout):
            code = await self.process.wait()
        self.process = None
        return code

    async def kill(self) -> None:
        """``kill -9``: the process gets no chance to finish anything."""
        if self.process is None:
            return
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGKILL)
        await self.process.wait()
        assert self.process.returncode == -signal.SIGKILL, self.output()[-3000:]
        self.process = None

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def errors(self) -> list[str]:
        """Lines of the log at ERROR level or with a traceback."""
        return [
            line
            for line in self.output().splitlines()
            if " ERROR " in line or line.startswith("Traceback")
        ]


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # kept across exec


def _default_sigint() -> None:
    """SIGINT as a terminal's foreground job has it, whatever the test run inherited
    (a suite started as a script's background job has SIGINT ignored, which its
    children would keep across exec: Ctrl-C's test would then wait in vain)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _read(
    database: Path, sql: str, parameters: tuple[object, ...] | dict[str, object] = ()
) -> list[sqlite3.Row]:
    """Rows read with a plain read-only connection of the test's own."""
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as db:
        db.row_factory = sqlite3.Row
        return db.execute(sql, parameters).fetchall()


def saved_game(database: Path, game_id: int) -> Game:
    """The game as the bot saved it last."""
    [row] = _read(database, "SELECT * FROM games WHERE id = ?", (game_id,))
    return game_from_row(dict(row))


def saved_event(database: Path, event_id: int) -> Event:
    """The Swiss evening as the bot saved it last (with its teams and tables)."""
    [row] = _read(database, kept_events.GET_EVENT.sqlite, {"id": event_id})
    key = {"event_id": event_id}
    teams = [dict(t) for t in _read(database, kept_events.TEAMS.sqlite, key)]
    tables = [dict(t) for t in _read(database, kept_events.TABLES.sqlite, key)]
    return kept_events.event_from_rows(dict(row), teams, tables)


def last_event_id(database: Path) -> int | None:
    rows = _read(database, "SELECT MAX(id) AS id FROM events")
    return None if not rows or rows[0]["id"] is None else int(rows[0]["id"])


def last_game_id(database: Path) -> int | None:
    rows = _read(database, "SELECT MAX(id) AS id FROM games")
    return None if not rows or rows[0]["id"] is None else int(rows[0]["id"])


def owed_messages(database: Path) -> list[Owed]:
    rows = _read(database, "SELECT * FROM owed_messages ORDER BY game_id, version, idx")
    return [owed_from_row(dict(row)) for row in rows]


def achievements_earned(database: Path, game_id: int, version: int) -> list[Earned]:
    """The achievements the save of the game's ``version`` kept."""
    rows = _read(
        database,
        "SELECT * FROM achievements WHERE game_id = ? AND version = ?",
        (game_id, version),
    )
    return [earned_from_row(dict(row)) for row in rows]


def rating_changes(database: Path, game_id: int) -> tuple[RatingChange, ...]:
    """The rating changes the bot kept with a game's result (empty: unrated)."""
    return changes_from_rows(
        dict(row)
        for row in _read(
            database, "SELECT * FROM rating_changes WHERE game_id = ? ORDER BY seat", (game_id,)
        )
    )


def rated_games(database: Path) -> dict[str, int]:
    """Every player's rated games in each rule set (``user:rule set``), as kept."""
    rows = _read(database, "SELECT user_id, rule_set, games FROM ratings")
    return {f"{row['user_id']}:{row['rule_set']}": int(row["games"]) for row in rows}


def game_endings(database: Path, game_id: int) -> list[tuple[str, str | None]]:
    """Each player's row of a rated game that ended, as kept (bot.reliability): his
    user id and how he walked out (None: he completed it), by user id, repeats
    included."""
    rows = _read(
        database,
        "SELECT user_id, walked_out FROM reliability WHERE game_id = ? ORDER BY user_id",
        (game_id,),
    )
    return [(row["user_id"], row["walked_out"]) for row in rows]


def fast_pacing() -> Pacing:
    """The outbox's pacing for tests: every limit far away, no refresh held back, but
    the pacing code runs (the order and coalescing of a chat's messages stay)."""
    from adapters.telegram import Pacing

    return Pacing(
        group_limit=10_000,
        group_window=1.0,
        chat_interval=0.0,
        global_limit=10_000,
        refresh=0.0,
    )
