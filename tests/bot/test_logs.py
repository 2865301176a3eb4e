"""LOG_FORMAT=json: JSON lines, with the game's id, platform and chat as fields."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest

from bot.logs import configure
from bot.memory import MemoryStorage
from bot.models import ChatRef, Game, Platform, User, UserRef
from bot.ports import Change
from bot.service import GameService

CHAT = ChatRef(Platform.TELEGRAM, "-100", "7")
ALICE = User(UserRef(Platform.TELEGRAM, "1"), "Alice")


class LoggingPublisher:
    async def publish(self, game: Game, change: Change) -> None:
        logging.getLogger("kozel.test").info("showing %s", change.kind.value)


@pytest.fixture
def root_logging() -> Iterator[None]:
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    yield
    root.handlers[:], _ = saved
    root.setLevel(saved[1])


@pytest.mark.usefixtures("root_logging")
async def test_json_lines_carry_the_game_when_logged_in_one() -> None:
    out = io.StringIO()
    configure("info", "json", out)
    service = GameService(MemoryStorage())
    service.add_publisher(Platform.TELEGRAM, LoggingPublisher())
    logging.getLogger("kozel.test").info("before any game")
    lobby = await service.open_table(CHAT, ALICE)
    await service.join(lobby.id, lobby.version, ALICE)  # published under the game's lock
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    outside = next(line for line in lines if line["message"] == "before any game")
    assert outside["level"] == "INFO" and outside["name"] == "kozel.test" and "time" in outside
    assert not {"game_id", "platform", "chat"} & outside.keys()
    shown = [line for line in lines if line["message"] == "showing lobby"]
    assert len(shown) == 2  # the lobby opened, then Alice sat down
    for inside in shown:
        assert (inside["game_id"], inside["platform"], inside["chat"]) == (
            lobby.id,
            "telegram",
            "-100",
        )
    await service.close()


@pytest.mark.usefixtures("root_logging")
def test_text_lines_by_default() -> None:
    out = io.StringIO()
    configure("warning", "text", out)
    logging.getLogger("kozel.test").info("hidden")
    logging.getLogger("kozel.test").warning("shown %d", 1)
    assert out.getvalue().endswith(" WARNING kozel.test: shown 1\n")
    assert "hidden" not in out.getvalue()
