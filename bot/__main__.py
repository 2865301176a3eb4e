"""The composition root: ``python -m bot`` (what ``make run`` runs).

With a Telegram and/or Discord token in the environment or ``.env`` it runs the
bots of those platforms in one process (a failure of one is logged and does not
stop the other); with no token it plays a game in the terminal, and takes ``kozel
play``'s arguments (``make run ARGS=--new``). ``--platform
telegram`` (or ``discord``) runs one platform's bot only: that process restores,
times and drives only that platform's games, so two such processes can share one
PostgreSQL database. This module is the one place in ``bot/`` that names the
adapters.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from dataclasses import replace
from urllib.parse import unquote, urlsplit

from pydantic import ValidationError

from bot import loop, redact
from bot.errors import CannotListen, listen_problem
from bot.flood import PRESSES, FloodGuard
from bot.i18n import Translator
from bot.interactions import Interactions
from bot.logs import configure
from bot.metrics import Metrics
from bot.models import Platform
from bot.rows import DatabaseInUse, DatabaseUnavailable
from bot.service import GameService
from bot.settings import Settings, settings_of, settings_problem
from bot.supervise import AllPlatformsFailed, Backoff, Run, supervise_all

log = logging.getLogger("kozel")


async def run_platforms(
    settings: Settings,
    platforms: Collection[Platform] | None = None,
    *,
    backoff: Backoff | None = None,
) -> None:
    """Run the bot of every platform that has a token (of ``platforms`` only, if
    given: the games of the others belong to other processes), until cancelled. A
    platform that fails is started again (see :mod:`bot.supervise`); raises
    :class:`~bot.supervise.AllPlatformsFailed` once every one refused the bot, and
    :class:`~bot.rows.DatabaseInUse` if another process runs on an SQLite database."""
    from adapters.storage import describe, open_storage

    async with await open_storage(settings.database_url) as storage:
        log.info("storage: %s", describe(storage))
        tr = Translator.from_dir(default=settings.default_locale)
        metrics = Metrics()
        service = GameService(
            storage,
            computer_delay=settings.computer_delay,
            computer_level=settings.computer_level,
            computer_processes=settings.computer_workers,
            think_timeout=settings.computer_think_timeout,
            default_rule_set=settings.default_rule_set,
            turn_timeout=settings.turn_timeout,
            max_missed=settings.max_missed_turns,
            default_locale=settings.default_locale,
            platforms=platforms,
            metrics=metrics,
        )
        interactions = Interactions(service, tr, metrics, flood=flood_guard(settings))
        ready: dict[str, Callable[[], bool | Mapping[str, bool]]] = {}
        runs: list[tuple[str, Run]] = []
        wanted = set(Platform) if platforms is None else set(platforms)
        if settings.telegram_bot_token is not None and Platform.TELEGRAM in wanted:
            from adapters.telegram import TelegramAdapter

            async def telegram() -> None:
                adapter = TelegramAdapter(settings, service, interactions, tr)
                ready["telegram"] = lambda: adapter.ready
                await adapter.run()

            ready["telegram"] = lambda: False
            runs.append(("Telegram", telegram))
        if settings.discord_bot_token is not None and Platform.DISCORD in wanted:
            from adapters.discord import DiscordAdapter

            async def discord() -> None:
                adapter = DiscordAdapter(settings, service, interactions, tr)
                ready["discord"] = lambda: adapter.readiness()
                await adapter.run()

            ready["discord"] = lambda: False
            runs.append(("Discord", discord))
        health = None
        web = None
        timers: asyncio.Task[None] | None = None
        try:
            if settings.metrics_port is not None:
                from adapters.health import HealthServer

                health = HealthServer(
                    metrics, storage, ready, host=settings.metrics_host, port=settings.metrics_port
                )
                await listening(
                    "METRICS", health.start, settings.metrics_host, settings.metrics_port
                )
            # The games resume now; each platform's are shown again once its bot's
            # publisher is up (GameService.add_publisher), also after a restart of it.
            games = await service.restore()
            log.info("resumed %d open %s", len(games), "game" if len(games) == 1 else "games")
            if settings.web_port is not None:
                from adapters.web import WebApp

                web = WebApp(settings, interactions, tr)
                await listening("WEB", web.start, settings.web_host, settings.web_port)
                assert web.buttons is not None
                say_web_address(web.buttons.url, telegram="telegram" in ready)
            loop.settle_heap()
            timers = asyncio.create_task(service.run_timers())
            await supervise_all(runs, backoff or Backoff())
        finally:
            if timers is not None:
                timers.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await timers
            if web is not None:
                await web.stop()
            await service.close()
            if health is not None:
                await health.stop()


async def listening(
    server: str, start: Callable[[], Awaitable[None]], host: str, port: int
) -> None:
    """``start()`` a server whose settings are ``<server>_HOST`` and ``<server>_PORT``;
    an address it cannot listen on raises :class:`CannotListen` (one line)."""
    try:
        await start()
    except OSError as error:
        raise CannotListen(listen_problem(error, server, host, port)) from None


def say_web_address(url: str, *, telegram: bool) -> None:
    """The start line that names the address the web table's links lead to: a
    warning where they cannot work, when Telegram runs and it is no public address
    (Telegram refuses a message whose button leads to this machine or a private
    network, so its messages carry no link there), or when it is ``0.0.0.0`` or
    ``::`` (``WEB_HOST`` listening everywhere, without ``WEB_PUBLIC_URL``)."""
    from adapters.web.buttons import public

    everywhere = urlsplit(url).hostname in ("0.0.0.0", "::")
    if everywhere or (telegram and not public(url)):
        log.warning(
            "web table at %s, not a public address: %s (set WEB_PUBLIC_URL to the https://"
            " address of a proxy in front of it)",
            url,
            "Telegram's messages carry no link to it" if telegram else "its links lead nowhere",
        )
    else:
        log.info("web table: players open %s", url)


def flood_guard(settings: Settings) -> FloodGuard:
    """Every user's command and press limits: presses at ``PRESS_RATE`` (0: none)."""
    presses = None if settings.press_rate == 0 else replace(PRESSES, rate=settings.press_rate)
    return FloodGuard(presses=presses)


def secrets_of(settings: Settings) -> list[str]:
    """The values no log may show: the tokens, the webhook's secret, the database's
    password."""
    found = (
        settings.telegram_bot_token,
        settings.discord_bot_token,
        settings.telegram_webhook_secret,
    )
    secrets = [secret.get_secret_value() for secret in found if secret is not None]
    password = urlsplit(settings.database_url).password  # as the URL writes it
    return [*secrets, password, unquote(password)] if password else secrets


#: Said by ``python -m bot`` with no token where there is no terminal to play in (a
#: container run without ``-it``, a service).
NO_TOKEN_NO_TERMINAL = (
    "Kozel cannot start: set TELEGRAM_BOT_TOKEN or DISCORD_BOT_TOKEN (in the environment"
    " or .env); without a token it plays a game in a terminal, and there is none here"
)


def has_terminal() -> bool:
    """Whether standard input is a terminal a person types into."""
    stdin = sys.stdin
    try:
        return stdin is not None and stdin.isatty()
    except (OSError, ValueError):  # closed
        return False


#: The environment variable that names the command that ran ``python -m bot`` (the
#: Makefile's ``run`` sets it to ``make run``): the terminal game's hints name it.
COMMAND_VARIABLE = "KOZEL_COMMAND"


def command() -> str:
    """What the player ran to start ``python -m bot``: ``$KOZEL_COMMAND``, else this
    Python with ``-m bot`` (``python`` when the search path finds it)."""
    named = os.environ.get(COMMAND_VARIABLE, "").strip()
    if named:
        return named
    from bot.cli import command_name

    return f"{command_name(sys.executable, 'python')} -m bot"


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The bots' arguments; any other words are left in ``game`` for the terminal
    game (``kozel play``'s), which is played without a token."""
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Run the Kozel bots (a terminal game without tokens).",
        epilog="Without a token it plays in the terminal and takes the arguments of"
        " kozel play (kozel play --help), e.g. make run ARGS=--new.",
        allow_abbrev=False,  # a shortened word of the terminal game's stays its own
    )
    parser.add_argument(
        "--platform",
        choices=[Platform.TELEGRAM.value, Platform.DISCORD.value],
        action="append",
        help="run only this platform's bot and own only its games (repeatable;"
        " default: every platform with a token). Processes of different platforms"
        " can share one PostgreSQL database.",
    )
    args, game = parser.parse_known_args(argv)
    args.game = game
    return args


def read_settings(platforms: Sequence[str] | None) -> Settings:
    """The bot's settings; without a token (and ``--platform``) the terminal game's,
    which are only those it reads (a bad web or metrics setting does not stop it).
    Raises :class:`~pydantic.ValidationError` naming every bad setting otherwise."""
    try:
        return Settings()
    except ValidationError:
        if platforms is not None:
            raise
        from adapters.console import SETTINGS_READ

        try:
            terminal = settings_of({*SETTINGS_READ, "telegram_bot_token", "discord_bot_token"})
        except ValidationError:
            terminal = None
        if terminal is None or terminal.has_platform:
            raise
        return terminal


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        settings = read_settings(args.platform)
    except ValidationError as error:
        print(settings_problem(error), file=sys.stderr)
        return 2
    if args.platform is None and not settings.has_platform:
        # The terminal game: its log lines go where they never land on its screen.
        if not has_terminal():
            print(NO_TOKEN_NO_TERMINAL, file=sys.stderr)
            return 2
        from adapters.console import play_main

        return play_main(args.game, settings=settings, command=command())
    if args.game:
        print(
            f"{command()}: {' '.join(args.game)}: not understood (the terminal game's"
            " arguments are taken only without a token)",
            file=sys.stderr,
        )
        return 2
    configure(settings.log_level, settings.log_format)
    redact.install(secrets_of(settings))
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
    terminate = signal.signal(signal.SIGTERM, _interrupt)  # until the loop handles it
    try:
        loop.run(loop.stoppable(run_platforms(settings, platforms)), settings.event_loop)
    except KeyboardInterrupt:
        pass
    except (DatabaseInUse, DatabaseUnavailable, CannotListen) as unusable:
        log.error("Kozel cannot start: %s", unusable)
        return 1
    except AllPlatformsFailed as failed:
        log.error("no platform can run (%s): stopping", failed)
        return 1
    except Exception:
        log.exception("Kozel stopped with an error")
        return 1
    finally:
        if terminate is not None:  # None: not set from Python
            signal.signal(signal.SIGTERM, terminate)
    log.info("Kozel stopped")
    return 0


def _interrupt(signum: int, frame: object) -> None:
    """SIGTERM before the event loop runs (or after it ended) stops the process as
    Ctrl-C does. While it runs, :func:`bot.loop.stoppable` handles SIGTERM (and Ctrl-C):
    the bots are cancelled and the service closes (it keeps the moment it stopped, so
    the turn clocks resume with exactly the time they had left)."""
    raise KeyboardInterrupt


if __name__ == "__main__":
    sys.exit(main())
