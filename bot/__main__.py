"""The composition root: ``python -m bot`` (what ``make run`` runs).

With a Telegram and/or Discord token in the environment or ``.env`` it runs the
bots of those platforms in one process (a failure of one is logged and does not
stop the other); with no token it plays a game in the terminal. This module is
the one place in ``bot/`` that names the adapters.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from collections.abc import Awaitable, Callable

from bot.i18n import Translator
from bot.interactions import Interactions
from bot.service import GameService
from bot.settings import Settings

log = logging.getLogger("kozel")


async def _guarded(name: str, run: Callable[[], Awaitable[None]]) -> None:
    """Run one platform; log its failure instead of stopping the others."""
    try:
        await run()
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("the %s bot stopped with an error; the other platforms go on", name)


async def run_platforms(settings: Settings) -> None:
    """Run the bot of every platform that has a token, until cancelled."""
    from adapters.storage import describe, open_storage

    async with await open_storage(settings.database_url) as storage:
        log.info("storage: %s", describe(storage))
        tr = Translator.from_dir(default=settings.default_locale)
        service = GameService(
            storage,
            computer_delay=settings.computer_delay,
            turn_timeout=settings.turn_timeout,
            max_missed=settings.max_missed_turns,
            default_locale=settings.default_locale,
        )
        interactions = Interactions(service, tr)
        runs: list[Awaitable[None]] = []
        if settings.telegram_bot_token is not None:
            from adapters.telegram import TelegramAdapter

            telegram = TelegramAdapter(settings, service, interactions, tr)
            runs.append(_guarded("Telegram", telegram.run))
        if settings.discord_bot_token is not None:
            from adapters.discord import DiscordAdapter

            discord_bot = DiscordAdapter(settings, service, interactions, tr)
            runs.append(_guarded("Discord", discord_bot.run))
        games = await service.restore()
        log.info("resumed %d open games", len(games))
        timers = asyncio.create_task(service.run_timers())
        try:
            await asyncio.gather(*runs)
        finally:
            timers.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await timers
            await service.close()


def main() -> int:
    settings = Settings()
    logging.basicConfig(
        level=settings.log_level.upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if not settings.has_platform:
        from adapters.console import play_main

        return play_main([], settings=settings)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run_platforms(settings))
    return 0


if __name__ == "__main__":
    sys.exit(main())
