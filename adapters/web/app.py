"""The web table as ``python -m bot`` runs it: the hub, its server, and the links
the platforms' messages carry to it."""

from __future__ import annotations

import logging

from adapters.web.activity import DiscordActivity
from adapters.web.buttons import WebButtons
from adapters.web.connection import Limits
from adapters.web.hub import WebHub
from adapters.web.links import SECRET_NAME
from adapters.web.server import WebServer
from adapters.web.telegram import init_data_check
from bot.i18n import Translator
from bot.interactions import Interactions
from bot.settings import Settings

log = logging.getLogger(__name__)


class WebApp:
    """``await app.start()`` serves the web table and shows every game's changes on
    its pages; ``await app.stop()``."""

    def __init__(
        self,
        settings: Settings,
        interactions: Interactions,
        tr: Translator,
        *,
        limits: Limits | None = None,
    ) -> None:
        self.settings = settings
        self.interactions = interactions
        self.service = interactions.service
        self.tr = tr
        self.limits = limits or Limits()
        self.hub: WebHub | None = None
        self.server: WebServer | None = None
        self.buttons: WebButtons | None = None
        self.activity: DiscordActivity | None = None

    @property
    def port(self) -> int | None:
        return None if self.server is None else self.server.port

    async def start(self) -> None:
        settings = self.settings
        key = await self.service.storage.secret(SECRET_NAME)
        token = settings.telegram_bot_token
        check = None
        if token is not None:
            clock = self.service.clock
            check = init_data_check(token.get_secret_value(), settings.web_auth_max_age, clock.now)
        activity = None
        secret, bot_token = settings.discord_client_secret, settings.discord_bot_token
        if settings.discord_client_id is not None and secret is not None and bot_token is not None:
            self.activity = activity = DiscordActivity(
                client_id=settings.discord_client_id,
                client_secret=secret.get_secret_value(),
                bot_token=bot_token.get_secret_value(),
                api=settings.discord_api_url,
            )
        self.hub = hub = WebHub(
            self.interactions,
            self.tr,
            key=key,
            limits=self.limits,
            init_data=check,
            activity=None if activity is None else activity.participant,
        )
        self.server = WebServer(
            hub,
            self.tr,
            host=settings.web_host,
            port=settings.web_port or 0,
            activity=activity,
        )
        await self.server.start()
        self.service.add_watcher(hub)
        # The port listened on (WEB_PORT=0: any free one), unless a public address is set.
        url = settings.web_public_url or f"http://{settings.web_host}:{self.server.port}/"
        self.buttons = WebButtons(hub, self.tr, url, settings.web_app_name)
        self.interactions.web = self.buttons

    async def stop(self) -> None:
        if self.hub is not None:
            self.service.remove_watcher(self.hub)
        if self.interactions.web is self.buttons:
            self.interactions.web = None
        if self.server is not None:
            await self.server.stop()
        if self.activity is not None:
            await self.activity.close()
