"""The Telegram bot: aiogram 3 over the application's :class:`Interactions`.

:class:`TelegramAdapter` wires a ``Bot`` (pointed at ``settings.telegram_api_url``,
any Bot API server, through the :class:`~adapters.telegram.session.LeanSession`), a
``Dispatcher`` with the routers of :mod:`adapters.telegram.handlers`, the
:class:`~adapters.telegram.outbox.Outbox` that paces every message, and the
publisher the game service calls on each change. Updates come by long polling, or
to a webhook when ``settings.telegram_webhook_url`` is set
(:mod:`adapters.telegram.webhook`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable

from aiogram import Bot, Dispatcher
from aiogram.client.telegram import TelegramAPIServer
from aiogram.exceptions import (
    TelegramAPIError,
    TelegramNetworkError,
    TelegramNotFound,
    TelegramServerError,
    TelegramUnauthorizedError,
)
from aiogram.types import BotCommand

from adapters.telegram.events import TelegramAnnouncer
from adapters.telegram.handlers import routers
from adapters.telegram.middlewares import AnswerCallbacks
from adapters.telegram.outbox import Outbox, Pacing
from adapters.telegram.publisher import TelegramPublisher
from adapters.telegram.session import LeanSession
from adapters.telegram.share import ResultShare
from adapters.telegram.webhook import WebhookServer
from bot import presenters
from bot.errors import PlatformRefused, PlatformUnreachable
from bot.i18n import Translator
from bot.interactions import Interactions
from bot.models import ChatRef, Platform
from bot.service import GameService
from bot.settings import Settings

log = logging.getLogger(__name__)
#: What the Bot API answers a token it does not know: trying again will not help.
_REFUSED = (TelegramUnauthorizedError, TelegramNotFound)
#: How the Bot API answers a method it does not have (an older server, a method
#: Telegram dropped): 404 too, but the token is fine.
_NO_SUCH_METHOD = "method not found"


def refuses_the_bot(error: TelegramAPIError) -> bool:
    """Whether an error answer refuses the bot itself (401: a wrong or revoked token;
    404: not a token, or not a Bot API URL), not only the one method asked for."""
    if isinstance(error, TelegramNotFound):
        return _NO_SUCH_METHOD not in error.message.lower()
    return isinstance(error, TelegramUnauthorizedError)


class KeptBudget:
    """The groups' rate-limit budgets, kept in the database through the service."""

    def __init__(self, service: GameService) -> None:
        self.service = service

    async def load(self) -> dict[int, list[float]]:
        kept = await self.service.send_times(Platform.TELEGRAM)
        return {int(chat): times for chat, times in kept.items() if chat.lstrip("-").isdigit()}

    async def save(self, chat_id: int, times: list[float]) -> None:
        await self.service.save_send_times(Platform.TELEGRAM, str(chat_id), times)


def build_dispatcher(
    *,
    service: GameService,
    interactions: Interactions,
    tr: Translator,
    outbox: Outbox,
    into_webhook: bool = False,
) -> Dispatcher:
    """A Dispatcher with fresh routers; the services are handed to the handlers by
    name (``service``, ``interactions``, ``tr``, ``outbox``). The bot keeps no
    per-user state in aiogram, so its FSM (a storage lookup per update) is off.
    ``into_webhook``: callback queries are answered in the webhook's response."""
    dp = Dispatcher(
        disable_fsm=True, service=service, interactions=interactions, tr=tr, outbox=outbox
    )
    dp.callback_query.outer_middleware(AnswerCallbacks(into_webhook=into_webhook))
    dp.include_routers(*routers())
    return dp


class TelegramAdapter:
    """Runs the bot, with long polling or a webhook, until cancelled or stopped."""

    def __init__(
        self,
        settings: Settings,
        service: GameService,
        interactions: Interactions,
        tr: Translator,
        *,
        bot: Bot | None = None,
        pacing: bool | Pacing = True,
    ) -> None:
        self.settings = settings
        self.service = service
        self.interactions = interactions
        self.tr = tr
        if bot is None:
            if settings.telegram_bot_token is None:
                raise ValueError("TELEGRAM_BOT_TOKEN is not set")
            api = TelegramAPIServer.from_base(settings.telegram_api_url)
            bot = Bot(settings.telegram_bot_token.get_secret_value(), session=LeanSession(api=api))
        self.bot = bot
        if isinstance(pacing, bool):
            pacing = Pacing(global_limit=settings.telegram_global_rate) if pacing else Pacing.off()
        self.outbox = Outbox(
            bot,
            pacing,
            remember=service.set_message,
            on_migrate=self._migrate,
            budget=KeptBudget(service),
        )
        #: Whether the Bot API answered the last request (for ``/readyz``).
        self.answered = False
        if isinstance(bot.session, LeanSession):
            bot.session.observe = self._observed
        if service.metrics is not None:
            service.metrics.watch_queue("telegram", lambda: self.outbox.queued)
        self.publisher = TelegramPublisher(interactions, self.outbox)
        service.add_publisher(Platform.TELEGRAM, self.publisher)
        self.announcer = TelegramAnnouncer(interactions, self.outbox)
        # A player shares a game's result from the web table as a prepared message.
        interactions.sharers[Platform.TELEGRAM] = ResultShare(bot, interactions)
        url = settings.telegram_webhook_url
        self.dp = build_dispatcher(
            service=service,
            interactions=interactions,
            tr=tr,
            outbox=self.outbox,
            into_webhook=url is not None,
        )
        self.webhook: WebhookServer | None = None
        if url is not None:
            secret = settings.telegram_webhook_secret
            self.webhook = WebhookServer(
                self.dp,
                bot,
                url=url,
                secret_token=secret.get_secret_value() if secret else secrets.token_urlsafe(32),
                host=settings.telegram_webhook_host,
                port=settings.telegram_webhook_port,
                path=settings.webhook_path,
            )

    async def run(self) -> None:
        """Register the command menus, then take updates until cancelled or :meth:`stop`
        (polling, or serving the webhook); queued messages still go out (for a few
        seconds) before the session closes. Raises
        :class:`~bot.errors.PlatformRefused` if the server refuses the token, and
        :class:`~bot.errors.PlatformUnreachable` if the start gets no answer (or a
        server error)."""
        # The running events finish the step they were in, now that they can be shown.
        self.service.events.add_announcer(Platform.TELEGRAM, self.announcer)
        try:
            await self._optional("register the command menus", self.set_commands())
            if self.interactions.web is not None:  # its Mini App's links name the bot
                me = await self.bot.me()
                self.interactions.web.bot_named(Platform.TELEGRAM, me.username or "")
            if self.webhook is not None:
                await self.webhook.run()
            else:
                await self._poll()
        except _REFUSED as error:
            # 401: a wrong or revoked token; 404: not a token (or not a Bot API URL).
            raise PlatformRefused(
                f"the Bot API server refuses the token ({error.message}); "
                "check TELEGRAM_BOT_TOKEN and TELEGRAM_API_URL"
            ) from error
        except TelegramNetworkError as error:  # at the start: polling retries its own
            raise PlatformUnreachable(error.message) from error
        except TelegramServerError as error:
            raise PlatformUnreachable(f"the Bot API server answered {error.message}") from error
        finally:
            self.interactions.sharers.pop(Platform.TELEGRAM, None)
            self.service.remove_publisher(Platform.TELEGRAM, self.publisher)
            self.service.events.remove_announcer(Platform.TELEGRAM, self.announcer)
            await self.outbox.close()
            await self.bot.session.close()

    def _observed(self, method: str, status: int | None) -> None:
        self.answered = status is not None
        if self.service.metrics is not None:
            self.service.metrics.requested("telegram", method, status)

    @property
    def ready(self) -> bool:
        """Taking updates, with the Bot API answering."""
        return self.answered

    async def _optional(self, what: str, request: Awaitable[object]) -> None:
        """A request the bot can do without (the command menus, removing a webhook): a
        failure is one warning line and the start goes on. Still raised: no answer at
        all, and an answer that refuses the bot itself (:func:`refuses_the_bot`)."""
        try:
            await request
        except TelegramNetworkError:
            raise  # no server to play on: the caller tries again later, or gives up
        except TelegramAPIError as error:
            if refuses_the_bot(error):
                raise
            log.warning("could not %s: %s; the bot goes on without", what, error.message)

    async def _poll(self) -> None:
        # A webhook left by a webhook-mode run would refuse every getUpdates (409).
        await self._optional("remove the webhook", self.bot.delete_webhook())
        polling = asyncio.ensure_future(
            self.dp.start_polling(
                self.bot,
                handle_signals=False,
                close_bot_session=False,
                allowed_updates=self.dp.resolve_used_update_types(),
            )
        )
        try:
            await asyncio.shield(polling)
        except asyncio.CancelledError:
            # Cancelled, start_polling would leave its poller running on a closing
            # session (an error line "Failed to fetch updates" at each clean stop):
            # it is stopped as stop() does, then the cancellation goes on.
            await self._stop_polling(polling)
            raise

    async def _stop_polling(self, polling: asyncio.Future[None]) -> None:
        if not polling.done():
            with contextlib.suppress(RuntimeError):  # "Polling is not started" yet
                await self.dp.stop_polling()
            polling.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):  # stopping anyway
            await polling

    async def stop(self) -> None:
        """Stop taking updates (``run`` then returns)."""
        if self.webhook is not None:
            self.webhook.stop()
        else:
            await self.dp.stop_polling()

    async def set_commands(self) -> None:
        """The command menus, in Russian and English, and the default language's for
        everybody else."""
        for language in ("ru", "en", None):
            locale = language or self.settings.default_locale
            descriptions = presenters.command_descriptions(self.tr, locale)
            commands = [BotCommand(command=c, description=d) for c, d in descriptions.items()]
            await self.bot.set_my_commands(commands, language_code=language)

    async def _migrate(self, old: int, new: int) -> None:
        log.info("chat %s became the supergroup %s", old, new)
        await self.service.migrate_chat(
            ChatRef(Platform.TELEGRAM, str(old)), ChatRef(Platform.TELEGRAM, str(new))
        )
