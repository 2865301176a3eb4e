"""``python -m bot`` runs every platform with a token; one failing does not stop the
other."""

from __future__ import annotations

import asyncio
import logging
import sys
import types
from pathlib import Path

import pytest

import adapters.discord
from adapters.discord import DiscordAdapter
from adapters.discord.client import KozelBot
from bot import __main__ as main
from bot.settings import Settings
from tests.adapters.discord.harness import ALICE, CHANNEL
from tests.fakes.discord import FakeDiscord


class BrokenTelegram:
    """A Telegram adapter whose bot fails at once."""

    def __init__(self, *args: object) -> None:
        pass

    async def run(self) -> None:
        raise RuntimeError("telegram is down")


async def test_a_failing_platform_does_not_stop_the_other(
    dc: FakeDiscord,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    telegram = types.ModuleType("adapters.telegram")
    telegram.TelegramAdapter = BrokenTelegram  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "adapters.telegram", telegram)

    made: list[DiscordAdapter] = []

    def quick(*args: object, **kwargs: object) -> DiscordAdapter:
        def client(adapter: DiscordAdapter) -> KozelBot:
            return KozelBot(adapter, guild_ready_timeout=0.01)

        made.append(DiscordAdapter(*args, client_factory=client, **kwargs))  # type: ignore[arg-type]
        return made[-1]

    monkeypatch.setattr(adapters.discord, "DiscordAdapter", quick)
    settings = Settings(
        _env_file=None,
        telegram_bot_token="1:telegram",
        discord_bot_token="discord",
        database_url=f"sqlite:///{tmp_path / 'kozel.sqlite3'}",
        computer_delay=0,
    )
    run = asyncio.create_task(main.run_platforms(settings))
    try:
        await dc.wait_for(lambda: made)
        (discord_bot,) = made
        async with asyncio.timeout(5.0):
            await discord_bot.started.wait()  # the Discord bot runs
        assert dc.commands.get(None)
        failed = [r for r in caplog.records if r.name == "kozel" and r.levelno == logging.ERROR]
        assert [r.getMessage() for r in failed] == [
            "the Telegram bot stopped with an error; the other platforms go on"
        ]
        iid = await dc.slash(ALICE, CHANNEL, "help")  # Discord still answers
        await dc.wait_for(lambda: dc.responses(iid).content and not dc.responses(iid).loading)
        assert not run.done()
    finally:
        run.cancel()
        with pytest.raises(asyncio.CancelledError):
            await run
