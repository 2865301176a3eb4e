"""The unit of work every job of the service goes through: the games kept in memory,
a lock per game and per chat, and the one place that saves.

A job holds a game's lock (:meth:`Tables.locked`), checks the version its request
carried (:func:`check_version`), changes the game, saves it (:meth:`Tables.save`, only
if the stored game is still at the version the change started from), and then
publishes (:mod:`bot.service.publishing`). The jobs hear of each other's work through
small hooks: a kept game that may go on (:attr:`Tables.on_moved`), what is kept of a
game dropped (:attr:`Tables.on_reset`), a result saved (:attr:`Tables.on_results`).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field

from bot.achievements import Awards
from bot.errors import ErrorCode, ServiceError
from bot.logs import game_context
from bot.metrics import Metrics
from bot.models import ChatRef, Game, Platform
from bot.ports import Clock, LoggedAction, Owed, Storage
from bot.reliability import Ending
from bot.rows import DuplicateAction, StaleGame
from core.ruleset import DealOutcome, GameOutcome


class SystemClock:
    def now(self) -> float:
        return time.time()


@dataclass(slots=True)
class Lock:
    """A lock and how many tasks hold or wait for it (to drop it when none do)."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0


def check_version(game: Game, version: int | None) -> None:
    """Refuse a request that saw another version of the game (a stale press)."""
    if version is not None and version != game.version:
        raise ServiceError(ErrorCode.STALE, game.id)


class Tables:
    """The open games kept here, their locks, and their saves."""

    def __init__(
        self,
        storage: Storage,
        *,
        clock: Clock,
        rng: random.Random,
        metrics: Metrics | None = None,
        platforms: frozenset[Platform] | None = None,
    ) -> None:
        self.storage = storage
        self.clock = clock
        #: The random source the tables deal and the computers choose with.
        self.rng = rng
        self.metrics = metrics
        #: The platforms whose games this process owns (None: every one): it restores
        #: them, and runs their timers and computer players, and no other's.
        self.platforms = platforms
        #: The open games by id (the jobs read it; only the tables change it).
        self.games: dict[int, Game] = {}
        #: Per-game locks, only while the game is open or someone holds or waits for
        #: the lock (a press on a game that does not exist makes none).
        self.locks: dict[int, Lock] = {}
        #: Per-chat locks (one open game a chat), only while held or waited for.
        self.chat_locks: dict[tuple[Platform, str], Lock] = {}
        #: Told of a kept game that was loaded or moved on (its computers may be due).
        self.on_moved: list[Callable[[Game], None]] = []
        #: Told of a game whose kept state the jobs drop (it is forgotten, or a new
        #: series of it begins).
        self.on_reset: list[Callable[[int], None]] = []
        #: Told of a game whose results were saved (``boards``: a series' result or
        #: the game's end), or (None) of results that moved, e.g. with their chat.
        self.on_results: list[Callable[[Game | None, bool], None]] = []
        if metrics is not None:
            metrics.watch_games(lambda: sum(game.status.is_open for game in self.games.values()))

    def owns(self, game: Game) -> bool:
        return self.platforms is None or game.chat.platform in self.platforms

    async def game(self, game_id: int) -> Game:
        game = self.games.get(game_id)
        if game is None:
            game = await self.storage.load_game(game_id)
            if game is None:
                raise ServiceError(ErrorCode.UNKNOWN_GAME, game_id)
            if game.status.is_open:
                game = self.remember(game)
        return game

    async def open_game(self, chat: ChatRef) -> Game | None:
        found = await self.storage.open_game(chat)
        if found is None:
            return None
        return self.remember(found)

    def remember(self, game: Game) -> Game:
        """Keep an open game loaded from storage (unless a newer copy is kept) and let
        its computers go on: a game saved while a computer was to move resumes."""
        kept = self.games.setdefault(game.id, game)
        if kept is game:
            self.moved(game)
        return kept

    def moved(self, game: Game) -> None:
        """A kept game was loaded or moved on: whoever waits on it looks again."""
        for hook in self.on_moved:
            hook(game)

    def reset(self, game_id: int) -> None:
        """Drop what the jobs keep of a game."""
        for hook in self.on_reset:
            hook(game_id)

    def results_changed(self, game: Game | None, *, boards: bool) -> None:
        """Results of ``game`` (None: of any game) were saved or moved."""
        for hook in self.on_results:
            hook(game, boards)

    def forget(self, game_id: int) -> None:
        self.games.pop(game_id, None)
        entry = self.locks.get(game_id)
        if entry is not None and not entry.users:
            del self.locks[game_id]
        self.reset(game_id)

    @contextlib.asynccontextmanager
    async def chat_lock(self, chat: ChatRef) -> AsyncIterator[None]:
        key = (chat.platform, chat.id)
        entry = self.chat_locks.setdefault(key, Lock())
        entry.users += 1
        try:
            async with entry.lock:
                yield
        finally:
            entry.users -= 1
            if not entry.users and self.chat_locks.get(key) is entry:
                del self.chat_locks[key]

    @contextlib.asynccontextmanager
    async def locked(self, game_id: int, seen: int | None = None) -> AsyncIterator[Game]:
        """Hold the game's lock and yield the game; raises UNKNOWN_GAME (taking no
        lock) for a game that does not exist. The lock is dropped once the game is
        closed and nobody holds or waits for it. A request that saw another version
        than the one kept here (a change saved by another process on the same
        database) reloads the game first, so the version check compares with the
        stored game."""
        entry = self.locks.get(game_id)
        if entry is None:
            await self.game(game_id)  # it exists (or this raises)
            entry = self.locks.setdefault(game_id, Lock())
        entry.users += 1
        try:
            async with entry.lock:
                game = await self.game(game_id)
                if seen is not None and seen != game.version:
                    stored = await self.storage.load_game(game_id)
                    if stored is not None and stored.version != game.version:
                        self.forget(game_id)
                        game = await self.game(game_id)
                with game_context(game.id, game.chat):
                    yield game
        finally:
            entry.users -= 1
            if not entry.users and game_id not in self.games and self.locks.get(game_id) is entry:
                del self.locks[game_id]

    async def save(
        self,
        game: Game,
        actions: list[LoggedAction] | None = None,
        *,
        deals: Sequence[DealOutcome] = (),
        series: GameOutcome | None = None,
        owed: Sequence[Owed] = (),
        base: int,
        awards: Awards | None = None,
        endings: Sequence[Ending] = (),
    ) -> None:
        """Save a change of the game (the moment it changed: now); see :meth:`store`."""
        game.updated_at = self.clock.now()
        await self.store(
            game,
            actions or (),
            deals=deals,
            series=series,
            owed=owed,
            base=base,
            awards=awards,
            endings=endings,
        )

    async def store(
        self,
        game: Game,
        actions: Sequence[LoggedAction] = (),
        *,
        deals: Sequence[DealOutcome] = (),
        series: GameOutcome | None = None,
        owed: Sequence[Owed] = (),
        base: int,
        awards: Awards | None = None,
        endings: Sequence[Ending] = (),
    ) -> None:
        """Save the game (the messages it owes, the achievements it earned, its
        players' rows if it is a rated game ending: ``endings``) only if the stored
        one is still at version ``base``, the one the change started from. If
        another process saved it first, the change is dropped (the game here is
        forgotten: the next request loads the stored one) and refused as a stale
        press. So is a save whose action the log already has at that version (its
        key, ``(game_id, version)``, the fence's second guard)."""
        started = time.perf_counter()
        outcome = "error"
        try:
            await self.storage.save_game(
                game,
                actions,
                deals=deals,
                series=series,
                owed=owed,
                base=base,
                awards=awards,
                endings=endings,
            )
            outcome = "ok"
            if deals or series is not None or not game.status.is_open:
                self.results_changed(game, boards=series is not None or not game.status.is_open)
        except (StaleGame, DuplicateAction):  # the log's key is the second guard
            outcome = "stale"
            self.forget(game.id)
            raise ServiceError(ErrorCode.STALE, game.id) from None
        finally:
            if self.metrics is not None:
                self.metrics.saved(outcome, time.perf_counter() - started)
