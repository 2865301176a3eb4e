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

from pydantic import ValidationError

from bot import redact
from bot.i18n import Translator
from bot.interactions import Interactions
from bot.rows import DatabaseInUse
from bot.service import GameService
from bot.settings import Settings, settings_problem
from bot.supervise import AllPlatformsFailed, Backoff, Run, supervise_all

log = logging.getLogger("kozel")


async def run_platforms(settings: Settings, *, backoff: Backoff | None = None) -> None:
    """Run the bot of every platform that has a token, until cancelled. A platform
    that fails is started again (see :mod:`bot.supervise`); raises
    :class:`~bot.supervise.AllPlatformsFailed` once every one refused the bot, and
    :class:`~bot.rows.DatabaseInUse` if another process runs on the database."""
    from adapters.sqlite import SqliteStorage

    async with await SqliteStorage.open(settings.database_url, exclusive=True) as storage:
        tr = Translator.from_dir(default=settings.default_locale)
        service = GameService(
            storage,
            computer_delay=settings.computer_delay,
            computer_level=settings.computer_level,
            turn_timeout=settings.turn_timeout,
            max_missed=settings.max_missed_turns,
            default_locale=settings.default_locale,
        )
        interactions = Interactions(service, tr)
        platforms: list[tuple[str, Run]] = []
        if settings.telegram_bot_token is not None:
            from adapters.telegram import TelegramAdapter

            async def telegram() -> None:
                await TelegramAdapter(settings, service, interactions, tr).run()

            platforms.append(("Telegram", telegram))
        if settings.discord_bot_token is not None:
            from adapters.discord import DiscordAdapter

            async def discord() -> None:
                await DiscordAdapter(settings, service, interactions, tr).run()

            platforms.append(("Discord", discord))
        timers: asyncio.Task[None] | None = None
        try:
            games = await service.restore()
            log.info("resumed %d open games", len(games))
            timers = asyncio.create_task(service.run_timers())
            await supervise_all(platforms, backoff or Backoff())
        finally:
            if timers is not None:
                timers.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await timers
            await service.close()


def secrets_of(settings: Settings) -> list[str]:
    """The values no log may show."""
    found = (
        settings.telegram_bot_token,
        settings.discord_bot_token,
        settings.telegram_webhook_secret,
    )
    return [secret.get_secret_value() for secret in found if secret is not None]


def main() -> int:
    try:
        settings = Settings()
    except ValidationError as error:
        print(settings_problem(error), file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    redact.install(secrets_of(settings))
    if not settings.has_platform:
        from adapters.console import play_main

        return play_main([], settings=settings)
    try:
        asyncio.run(run_platforms(settings))
    except KeyboardInterrupt:
        return 0
    except DatabaseInUse as in_use:
        log.error("Kozel cannot start: %s", in_use)
        return 1
    except AllPlatformsFailed as failed:
        log.error("no platform can run (%s): stopping", failed)
        return 1
    except Exception:
        log.exception("Kozel stopped with an error")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
