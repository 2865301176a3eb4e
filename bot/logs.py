"""Logging: plain lines or JSON lines (``LOG_FORMAT=json``, python-json-logger).

Whatever is logged while the service holds a game (its lock: a press, a computer's
move, a timer) carries the game's ``game_id``, ``platform`` and ``chat`` as fields of
the JSON line (a context variable, set by :func:`game_context`, and a filter on the
handler), so a game's lines can be found without parsing messages.
"""

from __future__ import annotations

import contextlib
import logging
import sys
from collections.abc import Iterator
from contextvars import ContextVar
from typing import TextIO

from pythonjsonlogger.json import JsonFormatter

from bot.models import ChatRef

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
JSON_FIELDS = "%(asctime)s %(levelname)s %(name)s %(message)s"

_game: ContextVar[tuple[int, str, str] | None] = ContextVar("kozel_game", default=None)


@contextlib.contextmanager
def game_context(game_id: int, chat: ChatRef) -> Iterator[None]:
    """Lines logged inside carry the game's id, platform and chat."""
    token = _game.set((game_id, chat.platform.value, str(chat.id)))
    try:
        yield
    finally:
        _game.reset(token)


class GameFields(logging.Filter):
    """Adds ``game_id``, ``platform`` and ``chat`` to records logged in a game."""

    def filter(self, record: logging.LogRecord) -> bool:
        current = _game.get()
        if current is not None:
            record.game_id, record.platform, record.chat = current
        return True


def configure(level: str, log_format: str, stream: TextIO | None = None) -> logging.Handler:
    """Send the root logger's records to ``stream`` (stderr) as text or JSON lines."""
    handler = logging.StreamHandler(stream or sys.stderr)
    if log_format == "json":
        handler.setFormatter(
            JsonFormatter(JSON_FIELDS, rename_fields={"asctime": "time", "levelname": "level"})
        )
    else:
        handler.setFormatter(logging.Formatter(TEXT_FORMAT))
    handler.addFilter(GameFields())
    logging.basicConfig(level=level.upper(), handlers=[handler], force=True)
    return handler
