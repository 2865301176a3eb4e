"""The composition root: ``python -m bot`` (what ``make run`` runs).

With a Telegram and/or Discord token in the environment or ``.env`` it runs the
bots of those platforms in one process (a failure of one is logged and does not
stop the other); with no token it plays a game in the terminal. ``--platform
telegram`` (or ``discord``) runs one platform's bot only: that process restores,
times and drives only that platform's games, so two such processes can share one
PostgreSQL database. This module is
the one place in ``bot/`` that names the adapters.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import sys
from collections.abc import Awaitable, Callable, Collection, Sequence

from bot.i18n import Translator
from bot.interactions import Interactions
from bot.logs import configure
from bot.metrics import Metrics
from bot.models import Platform
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


async def run_platforms(settings: Settings, platforms: Collection[Platform] | None = None) -> None:
    """Run the bot of every platform that has a token (of ``platforms`` only, if
    given: the games of the others belong to other processes), until cancelled."""
    from adapters.storage import describe, open_storage

    async with await open_storage(settings.database_url) as storage:
        log.info("storage: %s", describe(storage))
        tr = Translator.from_dir(default=settings.default_locale)
        metrics = Metrics()
        service = GameService(
            storage,
            computer_delay=settings.computer_delay,
            turn_timeout=settings.turn_timeout,
            max_missed=settings.max_missed_turns,
            default_locale=settings.default_locale,
            platforms=platforms,
            metrics=metrics,
        )
        interactions = Interactions(service, tr, metrics)
        ready: dict[str, Callable[[], bool]] = {}
        runs: list[Awaitable[None]] = []
        wanted = set(Platform) if platforms is None else set(platforms)
        if settings.telegram_bot_token is not None and Platform.TELEGRAM in wanted:
            from adapters.telegram import TelegramAdapter

            telegram = TelegramAdapter(settings, service, interactions, tr)
            runs.append(_guarded("Telegram", telegram.run))
            ready["telegram"] = lambda: telegram.ready
        if settings.discord_bot_token is not None and Platform.DISCORD in wanted:
            from adapters.discord import DiscordAdapter

            discord_bot = DiscordAdapter(settings, service, interactions, tr)
            runs.append(_guarded("Discord", discord_bot.run))
            ready["discord"] = lambda: discord_bot.ready
        health = None
        if settings.metrics_port is not None:
            from adapters.health import HealthServer

            health = HealthServer(
                metrics, storage, ready, host=settings.metrics_host, port=settings.metrics_port
            )
            await health.start()
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
            if health is not None:
                await health.stop()


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bot", description="Run the Kozel bots (a terminal game without tokens)."
    )
    parser.add_argument(
        "--platform",
        choices=[Platform.TELEGRAM.value, Platform.DISCORD.value],
        action="append",
        help="run only this platform's bot and own only its games (repeatable;"
        " default: every platform with a token). Processes of different platforms"
        " can share one PostgreSQL database.",
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    settings = Settings()
    configure(settings.log_level, settings.log_format)
    platforms = None if args.platform is None else {Platform(name) for name in args.platform}
    if platforms is not None:
        tokens = {
            Platform.TELEGRAM: settings.telegram_bot_token,
            Platform.DISCORD: settings.discord_bot_token,
        }
        missing = sorted(p.value for p in platforms if tokens[p] is None)
        if missing:
            print(
                f"--platform {missing[0]} needs {missing[0].upper()}_BOT_TOKEN"
                " (in the environment or .env)",
                file=sys.stderr,
            )
            return 2
    elif not settings.has_platform:
        from adapters.console import play_main

        return play_main([], settings=settings)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run_platforms(settings, platforms))
    return 0


if __name__ == "__main__":
    sys.exit(main())
