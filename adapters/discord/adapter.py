"""The Discord adapter: the bot, its publisher and its press handler, wired to the
application."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections.abc import Callable, Iterator

import aiohttp
import discord
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from adapters.discord.answer import DEFER_AFTER, Running
from adapters.discord.client import KozelBot
from adapters.discord.events import DiscordAnnouncer
from adapters.discord.presses import Presses
from adapters.discord.publisher import DiscordPublisher
from bot.errors import PlatformRefused, PlatformUnreachable
from bot.i18n import Translator
from bot.interactions import Interactions
from bot.metrics import ShardState
from bot.models import Platform
from bot.service import GameService
from bot.settings import Settings

log = logging.getLogger(__name__)


@contextlib.contextmanager
def _api_at(base: str | None) -> Iterator[None]:
    """Send discord.py's REST requests to ``base`` (``DISCORD_API_URL``: a rate-limit
    proxy, or a fake in the tests) while the bot runs. discord.py keeps the API base
    and the gateway in class attributes, shared by the process: one Discord bot per
    process. They are put back when the bot stops."""
    saved = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    if base is not None:
        Route.BASE = base.rstrip("/")
    try:
        yield
    finally:
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = saved


ClientFactory = Callable[["DiscordAdapter"], KozelBot]

#: No answer from Discord (no network, a wrong address, a timeout), or a server error.
_UNREACHED = (OSError, aiohttp.ClientError, discord.GatewayNotFound, discord.DiscordServerError)
#: What discord.py's client logs at each login, and about voice (the bot has none):
#: nothing an operator needs, at every try.
_DROPPED = ("logging in using static token", "voice will NOT be supported")
#: How discord.py's client and its shards begin a reconnect's line (at the start, a
#: shard whose connection fails retries it too).
_RECONNECT = ("Attempting a reconnect", "Failed to connect for shard_id")


def in_a_few_words(error: BaseException) -> str:
    """An error as its type and message, on one line: ``ClientConnectorError: Cannot
    connect to host discord.com:443 ssl:default [...]``."""
    said = " ".join(str(error).split())
    return f"{type(error).__name__}: {said}" if said else type(error).__name__


class QuietReconnects(logging.Filter):
    """discord.py's client (each shard) logs each gateway reconnect as an error with the failure's
    traceback, and each login in a line of its own: with the network gone that is a
    traceback at every try, for ever. A reconnect becomes one warning line with the
    failure in a few words; the login line and the warnings about voice support (the
    bot speaks in no voice channel) are dropped."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not isinstance(record.msg, str):
            return True
        if any(dropped in record.msg for dropped in _DROPPED):
            return False
        if record.msg.startswith(_RECONNECT) and record.exc_info:
            error = record.exc_info[1]
            record.msg = f"{record.msg} after %s"
            args = record.args if isinstance(record.args, tuple) else ()
            record.args = (*args, in_a_few_words(error) if error else "a failure")
            record.exc_info, record.exc_text = None, None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def quiet_reconnects() -> None:
    """Put :class:`QuietReconnects` on discord.py's client and shards' loggers (once)."""
    for name in ("discord.client", "discord.shard"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, QuietReconnects) for f in logger.filters):
            logger.addFilter(QuietReconnects())


class DiscordAdapter:
    """Kozel on Discord: ``await DiscordAdapter(...).run()`` until cancelled.

    ``client_factory`` builds the bot (tests pass options such as a short
    ``guild_ready_timeout``); ``defer_after`` is how long an interaction may wait for
    its work before it is deferred (Discord allows 3 seconds).
    """

    def __init__(
        self,
        settings: Settings,
        service: GameService,
        interactions: Interactions,
        tr: Translator,
        *,
        client_factory: ClientFactory | None = None,
        defer_after: float = DEFER_AFTER,
    ) -> None:
        self.settings = settings
        self.service = service
        self.interactions = interactions
        self.tr = tr
        self.defer_after = defer_after
        #: Set once the bot is connected and ready.
        self.started = asyncio.Event()
        #: The interactions (presses and commands) being handled.
        self.running = Running()
        quiet_reconnects()
        self.bot = (client_factory or KozelBot)(self)
        self.publisher = DiscordPublisher(self.bot, interactions, service, tr)
        self.presses = Presses(
            interactions, self.publisher, tr, defer_after=defer_after, running=self.running
        )
        service.add_publisher(Platform.DISCORD, self.publisher)
        #: A Swiss evening's news in its channel (added while the bot runs).
        self.announcer = DiscordAnnouncer(interactions, self.publisher)
        if service.metrics is not None:
            service.metrics.watch_shards(Platform.DISCORD.value, self.shards)

    async def run(self) -> None:
        """Run the bot with the token from the settings until cancelled or closed.
        Raises :class:`~bot.errors.PlatformRefused` if Discord refuses the token, and
        :class:`~bot.errors.PlatformUnreachable` if it does not answer the login."""
        token = self.settings.discord_bot_token
        if token is None:
            raise RuntimeError("DISCORD_BOT_TOKEN is not set")
        with _api_at(self.settings.discord_api_url):
            async with self.bot:
                try:
                    await self._log_in(token.get_secret_value())
                    # The running events finish the step they were in, now that they
                    # can be shown (their messages wait for the bot to be ready). Once
                    # a run: the process's one client runs every shard.
                    self.service.events.add_announcer(Platform.DISCORD, self.announcer)
                    await self.bot.connect()
                except discord.LoginFailure as error:
                    raise PlatformRefused(
                        f"Discord refuses the token ({error}); check DISCORD_BOT_TOKEN"
                    ) from error
                except discord.PrivilegedIntentsRequired as error:
                    raise PlatformRefused(
                        f"{error}; allow them in the Developer Portal "
                        "(Bot -> Privileged Gateway Intents)"
                    ) from error
                finally:
                    self.service.events.remove_announcer(Platform.DISCORD, self.announcer)
                    self.service.remove_publisher(Platform.DISCORD, self.publisher)
                    await self.publisher.close()

    async def _log_in(self, token: str) -> None:
        """Log in (Discord checks the token) and, behind ``DISCORD_API_URL``, find the
        gateway. Raises :class:`~bot.errors.PlatformUnreachable` when Discord does not
        answer (or answers with a server error); the gateway's connection retries its
        own failures (:class:`QuietReconnects`)."""
        try:
            await self.bot.login(token)
            if self.settings.discord_api_url is not None:
                # The gateway of the API the bot talks to, found as Discord asks
                # clients to (behind a REST proxy: Discord's own).
                _, gateway, _ = await self.bot.http.get_bot_gateway()
                DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
        except _UNREACHED as error:
            raise PlatformUnreachable(in_a_few_words(error)) from error

    @property
    def ready(self) -> bool:
        """Every shard of the process connected to the gateway."""
        return all(self.readiness().values())

    def readiness(self) -> dict[str, bool]:
        """``/readyz``'s lines: each shard's (``discord shard 0``: connected), or one
        ``discord`` line before the bot is ready (its shards are not known yet)."""
        shards = self.bot.own_shards()
        if not self.started.is_set() or self.bot.is_closed() or not shards:
            return {"discord": False}
        return {f"discord shard {shard}": self.bot.shard_up(shard) for shard in shards}

    def shards(self) -> list[ShardState]:
        """Each shard's state, for the metrics."""
        closed = self.bot.is_closed()
        return [
            ShardState(shard, not closed and self.bot.shard_up(shard), self._latency(shard))
            for shard in self.bot.own_shards()
        ]

    def _latency(self, shard_id: int) -> float:
        shard = self.bot.get_shard(shard_id)
        return math.inf if shard is None else shard.latency

    async def idle(self) -> None:
        """Wait until no press is being handled and every message is out."""
        while self.running.busy or self.publisher.busy:
            await self.running.idle()
            await self.publisher.idle()

    async def close(self, grace: float = 10.0) -> None:
        """Finish the interactions being handled and deliver what is queued (for at most
        ``grace`` seconds), then disconnect: ``run`` returns."""
        try:
            async with asyncio.timeout(grace):
                await self.idle()
        except TimeoutError:
            log.warning("Discord: closing with work still pending")
        await self.publisher.close()
        await self.bot.close()
