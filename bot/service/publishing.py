"""Showing the changes: each platform's publisher, the saved games shown again through
a publisher that comes after a restart (a redraw), and the platform messages a game
keeps (edited in place, also after a restart) or still owes."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field

from bot.errors import ServiceError
from bot.logs import game_context
from bot.models import Game, Platform
from bot.ports import Change, ChangeKind, Owed, Publisher
from bot.service.tables import Tables

log = logging.getLogger(__name__)


@dataclass(eq=False)
class Redraw:
    """A platform's saved games still to be shown through the publisher that came
    last (:meth:`Publishing.add_publisher`): each is shown once, before any change
    of it goes out through that publisher, with the messages it still owes."""

    publisher: Publisher
    #: The games still to show (every open game of the platform when the publisher
    #: came, and every game over that still owes messages).
    games: set[int]
    #: The messages each game owed when the publisher came, by game (read from the
    #: storage: ``loaded`` is set once they are here).
    owed: dict[int, list[Owed]] = field(default_factory=dict)
    loaded: asyncio.Event = field(default_factory=asyncio.Event)
    #: The owed messages handed to the publisher by a change since it came: they are
    #: on their way already and not sent again.
    handed: set[Owed] = field(default_factory=set)
    task: asyncio.Task[None] | None = None


class Publishing:
    """The publishers by platform, and the redraws they still owe."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.storage = tables.storage
        self.publishers: dict[Platform, Publisher] = {}
        #: Whether the saved games were restored (this service runs a bot): from then
        #: on every publisher that comes shows its platform's saved games again.
        self.restored = False
        #: By platform: the saved games its latest publisher still has to show.
        self.redraws: dict[Platform, Redraw] = {}
        #: Publishers shown every change of every platform's games, after the game's
        #: own platform's (the web table): they show games live, so a restart owes
        #: them nothing to redraw.
        self.watchers: list[Publisher] = []

    def add_watcher(self, publisher: Publisher) -> None:
        """Show every change of every game through ``publisher`` too, from now on."""
        if publisher not in self.watchers:
            self.watchers.append(publisher)

    def remove_watcher(self, publisher: Publisher) -> None:
        if publisher in self.watchers:
            self.watchers.remove(publisher)

    @contextlib.asynccontextmanager
    async def showing(self, game_id: int) -> AsyncIterator[Game]:
        """The game as it was last published, under its lock (no change is published
        meanwhile): for a watcher that shows it to a new viewer, in order with the
        changes it publishes. Raises :class:`ServiceError` for an unknown game."""
        async with self.tables.locked(game_id) as game:
            yield game

    def add_publisher(self, platform: Platform, publisher: Publisher) -> None:
        """Show a platform's games through ``publisher`` from now on. Once the saved
        games are restored (:meth:`GameService.restore`), a publisher that comes (a
        platform's bot started, late or again after a failure) first shows every open
        game of its platform as it is now, and sends the messages its games still owe
        (see :meth:`redraw`): whatever an earlier publisher had queued may be lost."""
        self.publishers[platform] = publisher
        if self.restored:
            self.redraw(platform, publisher)

    def remove_publisher(self, platform: Platform, publisher: Publisher) -> None:
        """The bot of ``publisher`` stopped: nothing more is shown through it. Changes
        are only saved until the platform's next publisher comes (and shows them)."""
        if self.publishers.get(platform) is not publisher:
            return
        del self.publishers[platform]
        self._drop_redraw(platform)

    def _drop_redraw(self, platform: Platform) -> None:
        """Stop showing the saved games through the platform's last publisher (a
        change waiting for that goes on)."""
        redraw = self.redraws.pop(platform, None)
        if redraw is not None:
            redraw.games.clear()
            redraw.loaded.set()
            if redraw.task is not None:
                redraw.task.cancel()

    async def redraw_restored(self) -> None:
        """The saved games are restored: show them through the publishers already
        added (each logs its own failure), and through every one that comes."""
        self.restored = True
        redraws = [self.redraw(platform, pub) for platform, pub in self.publishers.items()]
        tasks = [redraw.task for redraw in redraws if redraw.task is not None]
        await asyncio.gather(*tasks, return_exceptions=True)  # each logs its own failure

    def tasks(self) -> list[asyncio.Task[None]]:
        """The redraws at work."""
        return [r.task for r in self.redraws.values() if r.task is not None]

    def redraw(self, platform: Platform, publisher: Publisher) -> Redraw:
        """Start showing the platform's saved games through a new publisher (one that
        came before keeps showing nothing of them)."""
        games = {
            game.id
            for game in self.tables.games.values()
            if game.chat.platform is platform and game.status.is_open and self.tables.owns(game)
        }
        redraw = Redraw(publisher, games)
        self._drop_redraw(platform)  # the new publisher shows them all
        self.redraws[platform] = redraw
        redraw.task = asyncio.get_running_loop().create_task(self._redraw_all(platform, redraw))
        return redraw

    async def _redraw_all(self, platform: Platform, redraw: Redraw) -> None:
        """Show every game of ``redraw``, oldest first, each under its lock (a change
        published meanwhile shows its game first: :meth:`publish`)."""
        tables = self.tables
        try:
            try:
                for item in await self.storage.owed_messages():
                    redraw.owed.setdefault(item.game_id, []).append(item)
            finally:
                redraw.loaded.set()
            for game_id in sorted(redraw.owed.keys() - redraw.games):
                over = tables.games.get(game_id) or await self.storage.load_game(game_id)
                if over is not None and over.chat.platform is platform and tables.owns(over):
                    redraw.games.add(game_id)
            for game_id in sorted(redraw.games):
                if game_id not in redraw.games:
                    continue  # a change of it showed it first
                game = tables.games.get(game_id)
                if game is None or not game.status.is_open:
                    stored = await self.storage.load_game(game_id)
                    if stored is not None:
                        await self._redraw_game(stored, redraw)
                    continue
                try:
                    async with tables.locked(game_id) as locked:
                        await self._redraw_game(locked, redraw)
                except ServiceError as error:
                    log.info("game %s not shown again: %s", game_id, error.code)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("showing the saved %s games again failed", platform.value)
        finally:
            if self.redraws.get(platform) is redraw:
                del self.redraws[platform]

    async def _redraw_game(self, game: Game, redraw: Redraw) -> None:
        """Show one saved game through the redraw's publisher (once): the messages it
        owes, in order, then its table and hands."""
        if game.id not in redraw.games:
            return
        redraw.games.discard(game.id)
        owed = tuple(o for o in redraw.owed.pop(game.id, ()) if o not in redraw.handed)
        await self._show(redraw.publisher, game, Change(ChangeKind.RESTORED, owed=owed))

    async def publish(self, game: Game, change: Change) -> None:
        """Show a change through the game's platform's publisher (if it has one), then
        through every watcher. A saved game that publisher has not shown yet is shown
        first (:meth:`redraw`): the messages it owed before come before the ones of
        this change."""
        platform = game.chat.platform
        publisher = self.publishers.get(platform)
        if publisher is not None:
            redraw = self.redraws.get(platform)
            if redraw is not None:
                redraw.handed.update(change.owed)
                if game.id in redraw.games:
                    await redraw.loaded.wait()
                    await self._redraw_game(game, redraw)
            await self._show(publisher, game, change)
        for watcher in self.watchers:
            await self._show(watcher, game, change)

    async def show_hands(self, game_id: int) -> None:
        """Show a game's hands again through its platform's publisher only (a seat's
        last web page closed: :meth:`Interactions.page_closed`), in order with its
        changes: the hands that are not as last shown, nothing else."""
        with contextlib.suppress(ServiceError):
            async with self.tables.locked(game_id) as game:
                publisher = self.publishers.get(game.chat.platform)
                if publisher is not None and game.status.is_open:
                    await self._show(publisher, game, Change(ChangeKind.HANDS))

    async def _show(self, publisher: Publisher, game: Game, change: Change) -> None:
        try:
            with game_context(game.id, game.chat):
                await publisher.publish(game, change)
        except Exception:
            # The change is saved; a failed render must not undo or block the game.
            log.exception("publishing %s of game %s failed", change.kind, game.id)

    async def set_message(self, game_id: int, key: str, message_id: str | None) -> None:
        """Remember (or forget) a platform message of a game, e.g. ``"table"`` or
        ``"hand:2"``, so that it is edited in place, also after a restart. Not a
        change of the game: the version stays. Must not be called from ``publish``
        (which runs under the game's lock)."""
        async with self.tables.locked(game_id) as game:
            if game.messages.get(key) == message_id:
                return
            if message_id is None:
                game.messages.pop(key, None)
            else:
                game.messages[key] = message_id
            await self.tables.store(game, base=game.version)

    async def message_sent(self, owed: Owed) -> None:
        """A publisher sent an owed message (or it can never be sent): it is owed no
        more, also after a restart."""
        await self.storage.message_sent(owed)

    async def send_times(self, platform: Platform) -> dict[str, list[float]]:
        """When the bot last wrote into each paced chat of a platform (epoch seconds)."""
        return await self.storage.send_times(platform)

    async def save_send_times(self, platform: Platform, chat: str, times: Sequence[float]) -> None:
        await self.storage.save_send_times(platform, chat, times)
