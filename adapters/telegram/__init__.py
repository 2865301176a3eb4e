"""Telegram: aiogram 3 routers, the paced outbox, the publisher of game changes."""

from adapters.telegram.adapter import TelegramAdapter, build_dispatcher
from adapters.telegram.outbox import Outbox, Pacing

__all__ = ["Outbox", "Pacing", "TelegramAdapter", "build_dispatcher"]
