"""The web table of a game played without a platform (``kozel play --web``): the
hub and server the bots run (:class:`~adapters.web.hub.WebHub`,
:class:`~adapters.web.server.WebServer`), on ``127.0.0.1`` only, with the signed
links of a seat's player and of the spectators.

The links are signed with the database's own secret (as the bots' are): a link
printed for a saved game opens it again in the next run, until its seat's links
are revoked. A move made on the page is a press of the player's own hand
(:meth:`Interactions.press`), through the same service as the terminal's moves.
"""

from __future__ import annotations

from adapters.web import links
from adapters.web.hub import WebHub
from adapters.web.server import WebServer
from bot.i18n import Translator
from bot.interactions import Interactions
from bot.models import Game
from bot.service import GameService

#: The one address it listens on: this machine only.
LOCALHOST = "127.0.0.1"


class LocalWebTable:
    """``await table.start()`` serves the web table of ``service``'s games on
    ``127.0.0.1:port`` (0: any free port, :attr:`port` once started; raises
    :class:`OSError` when it cannot listen there); ``await table.stop()``."""

    def __init__(self, service: GameService, tr: Translator, *, port: int = 0) -> None:
        self.service = service
        self.tr = tr
        self.port = port
        self.hub: WebHub | None = None
        self.server: WebServer | None = None

    async def start(self) -> None:
        key = await self.service.storage.secret(links.SECRET_NAME)
        self.hub = WebHub(Interactions(self.service, self.tr), self.tr, key=key)
        server = WebServer(self.hub, self.tr, host=LOCALHOST, port=self.port)
        await server.start()
        self.server, self.port = server, server.port
        self.service.add_watcher(self.hub)

    @property
    def address(self) -> str:
        return f"{LOCALHOST}:{self.port}"

    async def stop(self) -> None:
        if self.hub is not None:
            self.service.remove_watcher(self.hub)
        if self.server is not None:
            await self.server.stop()
            self.server = None

    def url(self, game: Game, seat: int | None, locale: str) -> str | None:
        """The page of the player at ``seat`` (None: the spectators'), in ``locale``;
        None for a seat no human sits at."""
        assert self.hub is not None, "not started"
        token = self.hub.link(game, seat)
        if token is None:
            return None
        return links.page_url(f"http://{self.address}/", token, locale)
