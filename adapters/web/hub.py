"""The web table's live side: the pages' sockets by game, what they say (``hello``,
``press``, ``ping``) and the publisher that sends every change of a game to each of
its pages, each fed only its own seat's view (or the spectators').

:class:`WebHub` is a :class:`~bot.ports.Publisher` watching every platform's games
(:meth:`GameService.add_watcher`): the service and the rule sets do not know it
exists. A press goes through :meth:`Interactions.press` as a button of the player's
own hand does: the same codec, the same version check, the same refusals; its alert
is the answer's text. Nothing of the rules is here.

Who a page is: a signed link (:mod:`adapters.web.links`) names a game and a seat (a
player's, as long as he sits there) or none (a spectator's); a Telegram Mini App's
launch data names a Telegram user (:mod:`adapters.web.telegram`), seated where he
sits in the game its ``start_param`` names, else a spectator; a Discord Activity's
access token and instance name a participant of the instance
(:mod:`adapters.web.activity`), seated where he sits in the open game of the
instance's channel, else a spectator.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from adapters.web import links
from adapters.web.connection import Connection, Limits, frame
from bot.codec import CodecError, Verb, base36, decode
from bot.errors import ErrorCode, ServiceError
from bot.i18n import LOCALES, Translator
from bot.interactions import Interactions
from bot.models import ChatRef, Game, GameStatus, Platform, User, UserRef
from bot.ports import Change
from bot.presenters.web import web_view
from bot.presses import Pressed

log = logging.getLogger(__name__)

#: How many of a game's latest public events are kept for the views' log.
KEPT_EVENTS = 48

#: Error codes (the page shows the text) and the close code of those that end the socket.
CLOSE_CODES = {
    "auth": 4401,
    "expired": 4401,
    "revoked": 4403,
    "not-found": 4404,
    "too-many": 4429,
    "not-participant": 4403,
    "no-game": 4404,
    "challenge": 4403,
    "unavailable": 1013,  # Discord did not answer: the page tries again
}


@dataclass(frozen=True, slots=True)
class Identity:
    """Who a page is, once its ``hello`` is checked."""

    game_id: int
    seat: int | None
    user: User | None
    #: The key its open sockets are counted by (None: not counted per user).
    user_key: str | None
    #: The platform's word on his language (a Telegram user's), if any.
    language: str | None = None
    #: How it said so: a signed ``link``, Telegram's ``init_data`` or a Discord
    #: Activity's token (``discord``).
    via: str = "link"
    #: The signed token it came with (a link, or a Mini App's start parameter).
    claim: links.Claim | None = None


class Refused(Exception):
    """A ``hello`` refused: its error code."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


#: Checks a Telegram Mini App's launch data: the Telegram user (with his language)
#: and its start parameter, or raises :class:`Refused`.
InitDataCheck = Callable[[str], tuple[User, str | None, str]]
#: Checks a Discord Activity's access token and instance id: the user (with his
#: client's language) and the instance's channel, or raises :class:`Refused`.
ActivityCheck = Callable[[object, object], Awaitable[tuple[User, str | None, str]]]


class WebHub:
    """Every page's socket, by game; the publisher of the games' changes to them."""

    def __init__(
        self,
        interactions: Interactions,
        tr: Translator,
        *,
        key: bytes,
        limits: Limits | None = None,
        init_data: InitDataCheck | None = None,
        activity: ActivityCheck | None = None,
    ) -> None:
        self.interactions = interactions
        self.service = interactions.service
        self.tr = tr
        self.key = key
        self.limits = limits or Limits()
        self.init_data = init_data
        self.activity = activity
        self.games: dict[int, set[Connection]] = {}
        self.events: dict[int, deque[Any]] = {}
        self.per_user: Counter[str] = Counter()
        #: States built and frames queued (for the benchmark and the metrics).
        self.states = 0
        #: The hands being shown again because their seat's last page closed.
        self._redraws: set[asyncio.Task[None]] = set()
        self._closing = False

    # --- Links ---------------------------------------------------------------------

    def generation(self, game: Game, seat: int | None) -> int:
        kept = game.messages.get(links.generation_key(seat))
        try:
            return int(kept, 36) if kept else 0
        except ValueError:
            return 0

    def link(self, game: Game, seat: int | None) -> str | None:
        """The signed token of a seat's player (None for a seat no human sits at), or
        of the game's spectators (``seat`` None)."""
        user = ""
        if seat is not None:
            player = game.seats[seat] if 0 <= seat < len(game.seats) else None
            if player is None or player.user is None or player.is_computer:
                return None
            user = _user_key(player.user)
        return links.sign(self.key, game.id, seat, self.generation(game, seat), user)

    async def revoke(self, game_id: int, seat: int | None) -> Game:
        """Revoke every link of a game's seat (None: the spectators' links): they are
        refused from now on, and the pages opened with them are closed. The game as
        it is now (its links of that seat are of the new generation)."""
        game = await self.service.game(game_id)
        generation = self.generation(game, seat) + 1
        key = links.generation_key(seat)
        await self.service.set_message(game_id, key, base36(generation))
        for conn in list(self.games.get(game_id, ())):
            if conn.seat == seat and (seat is None or conn.via == "link"):
                self._refuse(conn, "revoked")
        return await self.service.game(game_id)

    # --- Sockets -------------------------------------------------------------------

    def drop(self, conn: Connection) -> None:
        """A socket closed: forget it. The last page of a seat closed: its player's
        hand on his platform is shown again (:meth:`Interactions.page_closed`)."""
        if conn.game_id is not None:
            if conn.seat is not None and conn.user is not None:
                last = self.interactions.page_closed(conn.game_id, conn.seat)
                if last and not self._closing:  # a stopping bot's next run redraws all
                    task = asyncio.get_running_loop().create_task(
                        self.service.show_hands(conn.game_id)
                    )
                    self._redraws.add(task)
                    task.add_done_callback(self._redraws.discard)
            conns = self.games.get(conn.game_id)
            if conns is not None:
                conns.discard(conn)
                if not conns:
                    del self.games[conn.game_id]
            if conn.user_key is not None:
                self.per_user[conn.user_key] -= 1
                if self.per_user[conn.user_key] <= 0:
                    del self.per_user[conn.user_key]
            conn.game_id = None

    @property
    def sockets(self) -> int:
        return sum(len(conns) for conns in self.games.values())

    async def receive(self, conn: Connection, text: str) -> None:
        """One text frame from a page."""
        if len(text) > self.limits.frame or len(text.encode()) > self.limits.frame:
            self._error(conn, "too-big")
            return
        try:
            message = json.loads(text)
        except ValueError:
            message = None
        kind = message.get("type") if isinstance(message, dict) else None
        if not conn.bucket.take():
            if kind == "press" and _press_id(message) is not None:
                text = self.tr.t(conn.locale, "web-error-rate")
                conn.send({"type": "answer", "id": _press_id(message), "ok": False, "text": text})
            elif time.monotonic() - conn.rate_told >= 1.0:
                conn.rate_told = time.monotonic()
                self._error(conn, "rate")
            return
        assert isinstance(message, dict) or kind is None
        if kind == "ping":
            conn.send({"type": "pong"})
        elif kind == "hello" and not conn.bound and isinstance(message, dict):
            await self.hello(conn, message)
        elif kind == "press" and conn.bound and isinstance(message, dict):
            await self.press(conn, message)
        elif kind == "share" and conn.bound and isinstance(message, dict):
            await self.share(conn, message)
        else:
            self._error(conn, "bad-message")

    def _error(self, conn: Connection, code: str) -> None:
        conn.send({"type": "error", "code": code, "text": self.error_text(code, conn.locale)})

    def error_text(self, code: str, locale: str) -> str:
        return self.tr.t(locale, f"web-error-{code}")

    def _refuse(self, conn: Connection, code: str) -> None:
        text = self.error_text(code, conn.locale)
        conn.fail({"type": "error", "code": code, "text": text}, CLOSE_CODES[code])

    # --- hello ---------------------------------------------------------------------

    async def hello(self, conn: Connection, message: dict[str, Any]) -> None:
        asked = message.get("locale")
        page_locale = asked if isinstance(asked, str) and asked in LOCALES else None
        if page_locale is not None:
            conn.locale = page_locale  # a refusal is said in the page's language
        try:
            who = await self.identify(message)
        except Refused as refused:
            self._refuse(conn, refused.code)
            return
        game_id = who.game_id
        if len(self.games.get(game_id, ())) >= self.limits.per_game or (
            who.user_key is not None and self.per_user[who.user_key] >= self.limits.per_user
        ):
            self._refuse(conn, "too-many")
            return
        try:
            async with self.service.showing(game_id) as game:
                if who.seat is not None and not _sits(game, who.seat, who.user):
                    raise Refused("auth")  # he left the seat meanwhile
                if who.seat is None and game.settings.challenge is not None:
                    # A challenge deal is watched by nobody: others play the same cards.
                    raise Refused("challenge")
                if who.claim is not None and _revoked(self, game, who.claim):
                    raise Refused("revoked")  # revoked meanwhile
                conn.seat, conn.user, conn.user_key = who.seat, who.user, who.user_key
                conn.via = who.via
                conn.locale = await self._locale(game, who, page_locale)
                conn.game_id = game_id
                self.games.setdefault(game_id, set()).add(conn)
                if who.seat is not None and who.user is not None:
                    self.interactions.page_opened(game_id, who.seat)
                if who.user_key is not None:
                    self.per_user[who.user_key] += 1
                conn.send_state(game.version, self.state(game, conn.seat, conn.locale))
        except Refused as refused:
            self._refuse(conn, refused.code)
        except ServiceError:
            self._refuse(conn, "not-found")

    async def identify(self, message: dict[str, Any]) -> Identity:
        """Who a ``hello`` says the page is; raises :class:`Refused`."""
        link, init_data = message.get("link"), message.get("init_data")
        if isinstance(link, str):
            return await self._by_link(link)
        if isinstance(init_data, str):
            return await self._by_init_data(init_data)
        discord = message.get("discord")
        if isinstance(discord, dict):
            return await self._by_activity(discord.get("access_token"), discord.get("instance"))
        raise Refused("auth")

    async def _game(self, game_id: int) -> Game:
        try:
            game = await self.service.game(game_id)
        except ServiceError:
            raise Refused("not-found") from None
        if not self.service.owns(game):
            raise Refused("not-found")  # another process runs it (and its pages)
        over_since = self.service.clock.now() - game.updated_at
        if not game.status.is_open and over_since > self.limits.grace:
            raise Refused("expired")
        return game

    async def _by_link(self, token: str) -> Identity:
        claim = links.parse(token)
        if claim is None:
            raise Refused("auth")
        game = await self._game(claim.game_id)
        user: User | None = None
        user_key = ""
        if claim.seat is not None:
            player = game.seats[claim.seat]
            if player is None or player.user is None or player.is_computer:
                raise Refused("auth")
            user = User(player.user, player.name)
            user_key = _user_key(player.user)
        if not links.verify(self.key, claim, user_key):
            raise Refused("auth")
        if _revoked(self, game, claim):
            raise Refused("revoked")
        return Identity(game.id, claim.seat, user, user_key or None, claim=claim)

    async def _by_init_data(self, init_data: str) -> Identity:
        if self.init_data is None:
            raise Refused("auth")
        user, language, start = self.init_data(init_data)  # raises Refused
        claim = links.parse(start)
        if claim is None or claim.seat is not None:
            raise Refused("not-found")
        game = await self._game(claim.game_id)
        if not links.verify(self.key, claim):
            raise Refused("auth")
        if _revoked(self, game, claim):
            raise Refused("revoked")
        if game.chat.platform is not user.ref.platform:
            raise Refused("auth")
        seat = game.seat_of(user.ref)
        player = None if seat is None else game.seats[seat]
        if player is not None:
            user = User(user.ref, player.name)
        return Identity(game.id, seat, user, _user_key(user.ref), language, "init_data", claim)

    async def _by_activity(self, token: object, instance: object) -> Identity:
        if self.activity is None:
            raise Refused("auth")
        user, language, channel = await self.activity(token, instance)  # raises Refused
        found = await self.service.open_game(ChatRef(Platform.DISCORD, channel))
        if found is None:
            raise Refused("no-game")
        game = await self._game(found.id)
        seat = game.seat_of(user.ref)
        player = None if seat is None else game.seats[seat]
        if player is not None:
            user = User(user.ref, player.name)
        return Identity(game.id, seat, user, _user_key(user.ref), language, "discord")

    async def _locale(self, game: Game, who: Identity, page_locale: str | None = None) -> str:
        """The language of a page's views: the page's own for a page opened by a
        signed link (``page_locale``, as its request decided it: see
        :func:`adapters.web.server.page_locale`), so that the page speaks one language;
        else a player's own (as his hand's), a Telegram or Discord spectator's, else the
        table's."""
        if page_locale is not None and who.via == "link":
            return page_locale
        if who.user is None:
            return game.settings.locale
        fallback = game.settings.locale if who.seat is not None else who.language
        return await self.interactions.user_locale(who.user.ref, fallback)

    # --- press ---------------------------------------------------------------------

    async def press(self, conn: Connection, message: dict[str, Any]) -> None:
        press_id, token = _press_id(message), message.get("token")
        if press_id is None or not isinstance(token, str):
            self._error(conn, "bad-message")
            return
        game_id, user = conn.game_id, conn.user
        refusal = None
        try:
            command = decode(token)
        except CodecError:
            refusal = ErrorCode.MALFORMED
        else:
            if command.game_id != game_id or command.verb is not Verb.PLAY:
                refusal = ErrorCode.NOT_HERE
        if conn.seat is None or user is None:
            refusal = ErrorCode.NOT_SEATED
        if refusal is not None or user is None or game_id is None:
            text = self.interactions.error_text(refusal or ErrorCode.NOT_HERE, conn.locale)
            conn.send({"type": "answer", "id": press_id, "ok": False, "text": text})
            return
        # As a button of his own hand in his private chat with the bot.
        where = Pressed(ChatRef(user.ref.platform, f"web:{user.ref.id}"), user.ref, (token,))
        reply = await self.interactions.press(user, token, where=where)
        ok = reply.alert is None and reply.game is not None
        conn.send({"type": "answer", "id": press_id, "ok": ok, "text": reply.alert or ""})
        if not ok and conn.bound:
            await self.resend(conn)

    # --- share ---------------------------------------------------------------------

    async def share(self, conn: Connection, message: dict[str, Any]) -> None:
        """A player shares the finished game's result: the platform's prepared
        message (``prepared``: Telegram's id for ``shareMessage``), or none (the page
        then asks the platform to share ``query``, the game, itself). Anyone else, or
        a game not over, gets ``ok`` false and nothing prepared."""
        share_id = _press_id(message)
        if share_id is None:
            self._error(conn, "bad-message")
            return
        game, user = None, conn.user
        if user is not None and conn.game_id is not None:
            game = await self.interactions.shared_game(base36(conn.game_id), user.ref)
        reply: dict[str, Any] = {"type": "shared", "id": share_id, "ok": game is not None}
        sharer = None if user is None else self.interactions.sharers.get(user.ref.platform)
        if game is not None and user is not None:
            reply["query"] = base36(game.id)
            reply["prepared"] = None if sharer is None else await sharer(game, user)
        conn.send(reply)

    async def picture(self, token: str) -> bytes | None:
        """The result picture of the finished game a spectators' token names (as the
        group's table carries it), or None (no such game, not over, a bad token)."""
        claim = links.parse(token)
        if claim is None or claim.seat is not None or not links.verify(self.key, claim):
            return None
        try:
            game = await self.service.game(claim.game_id)
        except ServiceError:
            return None
        if game.status is not GameStatus.FINISHED or _revoked(self, game, claim):
            return None
        return await self.interactions.picture(game)

    async def resend(self, conn: Connection) -> None:
        """The page's state now (after a refused press: the fresh state)."""
        if conn.game_id is None:
            return
        try:
            async with self.service.showing(conn.game_id) as game:
                if conn.bound:
                    conn.send_state(game.version, self.state(game, conn.seat, conn.locale))
        except ServiceError:
            pass

    # --- The publisher -------------------------------------------------------------

    def state(self, game: Game, seat: int | None, locale: str) -> str:
        """A ``state`` frame of the game for ``seat`` (None: a spectator)."""
        self.states += 1
        now = self.service.clock.now()
        events = tuple(self.events.get(game.id, ()))
        view = web_view(game, seat, self.tr, locale, now, events)
        return frame({"type": "state", "version": game.version, "view": view})

    async def publish(self, game: Game, change: Change) -> None:
        """Send the game as it is now to each of its pages, each its own seat's view
        (built once per seat and language)."""
        if change.events:
            kept = self.events.setdefault(game.id, deque(maxlen=KEPT_EVENTS))
            kept.extend(change.events)
        conns = self.games.get(game.id)
        if conns:
            built: dict[tuple[int | None, str], str] = {}
            for conn in list(conns):
                if conn.seat is not None and not _sits(game, conn.seat, conn.user):
                    self._refuse(conn, "revoked")  # he left the seat: its view is not his
                    continue
                key = (conn.seat, conn.locale)
                text = built.get(key)
                if text is None:
                    text = built[key] = self.state(game, conn.seat, conn.locale)
                conn.send_state(game.version, text)
        if not game.status.is_open:
            self.events.pop(game.id, None)

    async def close(self) -> None:
        """The bot stops: every page is closed (1012: it reconnects to the next run)."""
        self._closing = True
        for conns in list(self.games.values()):
            for conn in list(conns):
                await conn.close(1012)


def _press_id(message: object) -> int | None:
    if not isinstance(message, dict):
        return None
    value = message.get("id")
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**53:
        return None
    return value


def _revoked(hub: WebHub, game: Game, claim: links.Claim) -> bool:
    """Whether the links of the claim's seat were revoked since it was signed."""
    return claim.generation < hub.generation(game, claim.seat)


def _user_key(user: UserRef) -> str:
    return f"{user.platform.value}:{user.id}"


def _sits(game: Game, seat: int, user: User | None) -> bool:
    """Whether ``user`` still sits at ``seat`` (a seat's view is his only)."""
    player = game.seats[seat] if 0 <= seat < len(game.seats) else None
    return player is not None and user is not None and player.user == user.ref
