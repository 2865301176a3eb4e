"""The web table's tests: ``web``, a service, its hub and a test client of the web
server, started (the bot's default language: Russian)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.adapters.web.harness import Web


@pytest.fixture
async def web() -> AsyncIterator[Web]:
    harness = Web()
    await harness.start()
    try:
        yield harness
    finally:
        await harness.stop()
