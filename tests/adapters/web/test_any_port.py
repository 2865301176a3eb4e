"""Regression: ``python -m bot`` with ``WEB_PORT=0`` (any free port) named port 0 in
its start line and in every link of the web table (``http://127.0.0.1:0/``); it names
the port it listens on."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from bot.i18n import Translator
from testing.fakes.telegram import FakeTelegram
from tests.adapters.telegram.test_kill import Table

ADDRESS = re.compile(r"web table at http://127\.0\.0\.1:(\d+)/")


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as fake:
        yield fake


async def test_python_m_bot_with_web_port_0_names_the_port_it_listens_on(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    table = Table(tg, Translator.from_dir(), tmp_path)
    table.bot.env.update({"WEB_PORT": "0", "WEB_HOST": "127.0.0.1"})
    await table.start()  # the web table starts before the bot polls
    try:
        found = ADDRESS.search(table.bot.output())
        assert found, table.bot.output()
        port = int(found[1])
        assert port != 0
        async with (
            aiohttp.ClientSession() as session,
            session.get(f"http://127.0.0.1:{port}/") as response,
        ):
            assert response.status == 200
            assert "<html" in await response.text()
    finally:
        await table.bot.kill()
