"""The bot in a process of its own, against a fake server, for tests that kill it.

``python -m tests.fakes.bot_process telegram <api url> <database>`` runs the Telegram
bot (pacing of a fast test, computers without a delay, no turn timeout) on an SQLite
file until it is killed; ``discord <api base> <gateway url> <database>`` the Discord
bot. Like ``python -m bot`` it restores the saved games before taking updates.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sqlite3
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from adapters.sqlite import SqliteStorage
from bot import loop
from bot.i18n import Translator
from bot.interactions import Interactions
from bot.models import Game
from bot.ports import Owed
from bot.rows import game_from_row, owed_from_row
from bot.service import GameService
from bot.settings import Settings

if TYPE_CHECKING:
    from adapters.telegram import Pacing

TOKEN = "123456:TEST-token"
ROOT = Path(__file__).resolve().parents[2]


class BotProcess:
    """The test's side: start the bot process, kill it with SIGKILL, read its log."""

    def __init__(self, log: Path, *args: str) -> None:
        self.args = args
        self.log = log
        self.process: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        with self.log.open("ab") as out:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "tests.fakes.bot_process",
                *self.args,
                cwd=ROOT,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=out,
                stderr=out,
            )

    async def kill(self) -> None:
        """``kill -9``: the process gets no chance to finish anything."""
        if self.process is None:
            return
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGKILL)
        await self.process.wait()
        assert self.process.returncode == -signal.SIGKILL
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


def _read(database: Path, sql: str, parameters: tuple[object, ...] = ()) -> list[sqlite3.Row]:
    """Rows read with a plain read-only connection of the test's own."""
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as db:
        db.row_factory = sqlite3.Row
        return db.execute(sql, parameters).fetchall()


def saved_game(database: Path, game_id: int) -> Game:
    """The game as the bot saved it last."""
    [row] = _read(database, "SELECT * FROM games WHERE id = ?", (game_id,))
    return game_from_row(dict(row))


def last_game_id(database: Path) -> int | None:
    rows = _read(database, "SELECT MAX(id) AS id FROM games")
    return None if not rows or rows[0]["id"] is None else int(rows[0]["id"])


def owed_messages(database: Path) -> list[Owed]:
    rows = _read(database, "SELECT * FROM owed_messages ORDER BY game_id, version, idx")
    return [owed_from_row(dict(row)) for row in rows]


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
        waiting=0.0,
    )


def _loop_logged() -> None:
    """Say which event loop the process runs on (the kill tests read it)."""
    kind = type(asyncio.get_running_loop()).__module__.split(".")[0]
    logging.getLogger(__name__).info("event loop: %s", kind)


async def telegram(api_url: str, database: str) -> None:
    from aiogram import Bot
    from aiogram.client.telegram import TelegramAPIServer

    from adapters.telegram import TelegramAdapter
    from adapters.telegram.session import LeanSession

    _loop_logged()
    fast = fast_pacing()
    async with await SqliteStorage.open(database) as storage:
        tr = Translator.from_dir()
        service = GameService(storage, computer_delay=0, turn_timeout=0)
        interactions = Interactions(service, tr)
        settings = Settings(telegram_api_url=api_url, telegram_webhook_url=None, _env_file=None)
        bot = Bot(TOKEN, session=LeanSession(api=TelegramAPIServer.from_base(api_url)))
        adapter = TelegramAdapter(settings, service, interactions, tr, bot=bot, pacing=fast)
        await service.restore()
        await adapter.run()


async def discord_bot(api_base: str, gateway: str, database: str) -> None:
    from adapters.discord import DiscordAdapter
    from adapters.discord.client import KozelBot
    from tests.fakes.discord import patched_discord

    _loop_logged()

    with patched_discord(api_base, gateway):
        async with await SqliteStorage.open(database) as storage:
            tr = Translator.from_dir()
            service = GameService(storage, computer_delay=0, turn_timeout=0)
            interactions = Interactions(service, tr)
            settings = Settings(discord_bot_token="fake-token", _env_file=None)

            def client(adapter: DiscordAdapter) -> KozelBot:
                return KozelBot(adapter, guild_ready_timeout=0.01)

            adapter = DiscordAdapter(settings, service, interactions, tr, client_factory=client)
            await service.restore()
            await adapter.run()


def main(argv: list[str]) -> None:
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    # On the loop ``python -m bot`` runs (uvloop where installed), with the real
    # storage, client libraries and the adapter's signal handling.
    if argv[0] == "telegram":
        loop.run(telegram(argv[1], argv[2]), Settings().event_loop)
    else:
        loop.run(discord_bot(argv[1], argv[2], argv[3]), Settings().event_loop)


if __name__ == "__main__":
    main(sys.argv[1:])
