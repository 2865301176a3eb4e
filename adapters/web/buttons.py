"""The buttons the platforms' messages carry to the web table
(:class:`bot.interactions.WebLinks`):

- a Telegram group's table: "🃏 Table", the bot's Mini App opened on this game
  (``https://t.me/<bot>/<app>?startapp=<spectators' token>``: Telegram tells the page
  who opens it, so a player gets his seat) when ``WEB_APP_NAME`` is set, else the
  spectators' signed link;
- a Telegram player's DM hand: a ``web_app`` button (a Mini App, private chats only)
  opening his own signed link (a plain link where the page is not https);
- a Discord player's DM hand: "Open the table in the browser", his signed link.

A signed link carries the language of the message it is in (``&lang=``): the page
opens in it (:func:`adapters.web.server.page_locale`).

Telegram refuses a button whose link leads to this machine or a private network
(``http://127.0.0.1:8081/``, the default without ``WEB_PUBLIC_URL``), and a message
with a refused button is not sent at all: so Telegram's messages carry the buttons
only when the page's address is a public one (:func:`public`).
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from adapters.web.hub import WebHub
from adapters.web.links import page_url
from bot.i18n import Translator
from bot.models import Game, GameStatus, Platform
from bot.presenters import Button


def public(url: str) -> bool:
    """Whether ``url`` leads elsewhere than this machine or a private network.

    >>> public("https://kozel.example.org/"), public("http://127.0.0.1:8081/")
    (True, False)
    >>> public("http://localhost:8081/"), public("http://192.168.1.2/"), public("http://[::1]/")
    (False, False, False)
    """
    host = (urlsplit(url).hostname or "").lower()
    if not host or host == "localhost" or host.endswith((".localhost", ".local")):
        return False
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return True  # a name
    return address.is_global


class WebButtons:
    """The web table's buttons, for :attr:`Interactions.web`."""

    def __init__(self, hub: WebHub, tr: Translator, url: str, app_name: str | None) -> None:
        self.hub = hub
        self.tr = tr
        self.url = url if url.endswith("/") else url + "/"
        self.app_name = app_name
        #: The bots' usernames by platform (Telegram's Mini App link names it), as
        #: each platform's adapter learns it.
        self.usernames: dict[Platform, str] = {}

    def bot_named(self, platform: Platform, username: str) -> None:
        if username:
            self.usernames[platform] = username

    async def revoke(self, game: Game, seat: int) -> Game:
        return await self.hub.revoke(game.id, seat)

    def link_url(self, token: str, locale: str) -> str:
        """The page opened with a signed token, in the language of the message that
        carries the link."""
        return page_url(self.url, token, locale)

    def player_url(self, game: Game, seat: int, locale: str) -> str | None:
        token = self.hub.link(game, seat)
        return None if token is None else self.link_url(token, locale)

    def spectator_url(self, game: Game, locale: str) -> str:
        token = self.hub.link(game, None)
        assert token is not None
        username = self.usernames.get(Platform.TELEGRAM)
        if game.chat.platform is Platform.TELEGRAM and self.app_name and username:
            return f"https://t.me/{username}/{self.app_name}?startapp={token}"
        return self.link_url(token, locale)

    def table_button(self, game: Game, locale: str) -> Button | None:
        if game.chat.platform is not Platform.TELEGRAM or game.status is not GameStatus.PLAYING:
            return None
        if not public(self.url):
            return None
        return Button(self.tr.t(locale, "web-table-button"), url=self.spectator_url(game, locale))

    def picture_url(self, game: Game) -> str | None:
        if game.status is not GameStatus.FINISHED:
            return None
        token = self.hub.link(game, None)
        return None if token is None else f"{self.url}picture/{token}.jpg"

    def link_button(self, game: Game, seat: int | None, locale: str) -> Button | None:
        url = self.link_url(self.hub.link(game, None) or "", locale) if seat is None else None
        if seat is not None:
            url = self.player_url(game, seat, locale)
        return None if url is None else Button(self.tr.t(locale, "web-link-button"), url=url)

    def hand_button(self, game: Game, seat: int, locale: str) -> Button | None:
        url = self.player_url(game, seat, locale)
        if url is None or game.status is not GameStatus.PLAYING:
            return None
        if game.chat.platform is Platform.TELEGRAM:
            if not public(url):
                return None
            app = url.startswith("https://")
            return Button(self.tr.t(locale, "web-hand-button"), url=url, app=app)
        if game.chat.platform is Platform.DISCORD:
            return Button(self.tr.t(locale, "web-link-button"), url=url)
        return None
