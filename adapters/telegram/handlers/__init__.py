"""The bot's routers, one per feature; built fresh for each Dispatcher."""

from __future__ import annotations

from aiogram import Router

from adapters.telegram.handlers import buttons, commands, inline, migration, start


def routers() -> list[Router]:
    return [
        migration.router(),
        start.router(),
        commands.router(),
        buttons.router(),
        inline.router(),
    ]
