"""The game service: the only way into the core for every adapter.

It keeps tables (lobbies), runs series, lets computer players move, keeps turn
timers, and saves every accepted change before any adapter renders it.

An action comes from a user: the service checks that the user sits at that seat,
takes the game's lock, checks the version the button carried (a stale or repeated
press is refused, never applied twice), applies the action through the core,
saves, and then asks the platform's publisher to show the change.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections import OrderedDict
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Collection,
    Hashable,
    Iterator,
    Mapping,
    Sequence,
)
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from bot.errors import ErrorCode, ServiceError
from bot.i18n import normalize_locale
from bot.logs import game_context
from bot.metrics import Metrics
from bot.models import (
    TURN_TIMEOUTS,
    ChatRef,
    Game,
    GameStatus,
    Platform,
    Seat,
    SeatKind,
    TableSettings,
    User,
    UserRef,
)
from bot.options import options_of, parse_option_arg, with_option
from bot.ports import (
    Change,
    ChangeKind,
    ChatInfo,
    Clock,
    LeaderboardRow,
    LoggedAction,
    Owed,
    OwedKind,
    Publisher,
    Storage,
    UserStats,
)
from bot.readcache import ReadCache
from bot.rows import DuplicateAction, StaleGame
from bot.thinking import THINKING_DEADLINE, WORKER_NICENESS, Thinkers
from core.errors import KozelError
from core.ruleset import (
    DEFAULT_LEVEL,
    LEVEL_NAMES,
    Chance,
    Computer,
    DealOutcome,
    GameOutcome,
    Observer,
    get_rule_set,
    rule_set_ids,
)
from core.seats import Team

log = logging.getLogger(__name__)

#: Computer players' names are locale ids: ``bot-name-1`` .. ``bot-name-8``.
COMPUTER_NAMES = tuple(f"bot-name-{i}" for i in range(1, 9))
LOCALES = ("ru", "en")
#: An action or an event of the game's rule set (the service only passes them on).
Action = Any
Event = Any
#: The name of the join links' key among the storage's secrets.
LINK_SECRET = "join-links"


class SystemClock:
    def now(self) -> float:
        return time.time()


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a request did: the game as it is now, and the events it caused."""

    game: Game
    events: tuple[Event, ...] = ()


Sleep = Callable[[float], Awaitable[None]]

#: Seconds between the moments the running bot keeps as its last alive: after a
#: sudden stop its turn clocks resume with at most this much more time than they had.
ALIVE_EVERY = 5.0
#: At most this many computer moves (made without a delay) are saved together.
MAX_MOVES_PER_SAVE = 8


@dataclass(slots=True)
class _Lock:
    """A lock and how many tasks hold or wait for it (to drop it when none do)."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0


@dataclass(eq=False)
class _Redraw:
    """A platform's saved games still to be shown through the publisher that came
    last (:meth:`GameService.add_publisher`): each is shown once, before any change
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


@dataclass(slots=True)
class _Decision:
    """What the computers chose at one moment of a game (its ``version``), maybe
    thought out without the game's lock: taken only if the game is still there."""

    version: int
    #: The chances whose computers were asked (each is asked once a moment).
    asked: list[Chance] = field(default_factory=list)
    #: By seat: the player asked and the player as its choice left it (None: it gave
    #: no answer in time, a new one is made).
    players: dict[int, tuple[Computer, Computer | None]] = field(default_factory=dict)
    #: The seat to act, its action, and whether it plays for a human.
    move: tuple[int, Action, bool] | None = None


@dataclass(frozen=True, slots=True)
class _Step:
    """One applied action, not saved yet: what it logs, reached and set off."""

    action: Action
    auto: bool
    events: list[Event]
    dealt: list[Event]
    logged: LoggedAction
    scored: list[DealOutcome]
    finished: list[GameOutcome]


class GameService:
    """Tables, series, computer players and turn timers, for every platform."""

    def __init__(
        self,
        storage: Storage,
        *,
        clock: Clock | None = None,
        rng: random.Random | None = None,
        computer_delay: float = 1.2,
        turn_timeout: int = 120,
        max_missed: int = 3,
        default_locale: str = "ru",
        computer_level: str = DEFAULT_LEVEL,
        default_rule_set: str = "yard",
        players: Callable[[str], Computer] | None = None,
        sleep: Sleep = asyncio.sleep,
        user_cache: int = 10_000,
        platforms: Collection[Platform] | None = None,
        metrics: Metrics | None = None,
        computer_processes: int = 0,
        computer_niceness: int = WORKER_NICENESS,
        think_timeout: float = THINKING_DEADLINE,
    ) -> None:
        self.storage = storage
        self.metrics = metrics
        #: The platforms whose games this process owns (None: every one): it restores
        #: them, and runs their timers and computer players, and no other's.
        self.platforms = None if platforms is None else frozenset(platforms)
        self.clock: Clock = clock or SystemClock()
        self.rng = rng or random.SystemRandom()
        self.computer_delay = computer_delay
        self.turn_timeout = turn_timeout
        self.max_missed = max_missed
        self.default_locale = default_locale
        self.computer_level = computer_level
        #: The rule set of a table opened without naming one.
        self.default_rule_set = default_rule_set
        self._players = players
        #: Where computers that search think: ``computer_processes`` worker processes
        #: (0: a worker thread), ``computer_niceness`` below the bot's priority, each
        #: decision within ``think_timeout`` seconds (past it: the safe action).
        self.thinkers = Thinkers(
            computer_processes, niceness=computer_niceness, deadline=think_timeout
        )
        self._sleep = sleep
        self._publishers: dict[Platform, Publisher] = {}
        #: Whether :meth:`restore` ran (this service runs a bot): from then on every
        #: publisher that comes shows its platform's saved games again.
        self._restored = False
        #: By platform: the saved games its latest publisher still has to show.
        self._redraws: dict[Platform, _Redraw] = {}
        self._games: dict[int, Game] = {}
        #: Per-game locks, only while the game is open or someone holds or waits for
        #: the lock (a press on a game that does not exist makes none).
        self._locks: dict[int, _Lock] = {}
        #: Per-chat locks (one open game a chat), only while held or waited for.
        self._chat_locks: dict[tuple[Platform, str], _Lock] = {}
        self._drivers: dict[int, asyncio.Task[None]] = {}
        #: Each game's turn timer at work (a reminder, a move for an absent player).
        self._timers: dict[int, asyncio.Task[None]] = {}
        #: When the bot last kept the moment it was alive (None: it keeps no clocks).
        self._alive_at: float | None = None
        self._keeping_alive: asyncio.Task[None] | None = None
        #: By game: the moment of the last chances (``Game.chances``) the computers
        #: were asked about, and the seats asked then: each is asked once a moment.
        self._chances_asked: dict[int, tuple[tuple[int, ...], set[int]]] = {}
        #: Computer players by game and seat: they remember what they saw in a deal.
        self._seat_players: dict[int, dict[int, Computer]] = {}
        #: Each user's chosen language (None: none), read from storage once: every
        #: press and every hand drawn asks for it. Users change only through here.
        #: The most recently used ``user_cache`` users are kept.
        self._user_locales: OrderedDict[UserRef, str | None] = OrderedDict()
        self.user_cache = user_cache
        #: The key that signs join links, read from storage once.
        self._link_key: bytes | None = None
        #: Statistics and leaderboards, kept a few seconds (a new result here drops
        #: what it makes stale).
        self.read_cache = ReadCache()
        if metrics is not None:
            metrics.watch_games(lambda: sum(game.status.is_open for game in self._games.values()))

    # --- Wiring -----------------------------------------------------------------------

    def add_publisher(self, platform: Platform, publisher: Publisher) -> None:
        """Show a platform's games through ``publisher`` from now on. Once the saved
        games are restored (:meth:`restore`), a publisher that comes (a platform's bot
        started, late or again after a failure) first shows every open game of its
        platform as it is now, and sends the messages its games still owe (see
        :meth:`_redraw`): whatever an earlier publisher had queued may be lost."""
        self._publishers[platform] = publisher
        if self._restored:
            self._redraw(platform, publisher)

    def remove_publisher(self, platform: Platform, publisher: Publisher) -> None:
        """The bot of ``publisher`` stopped: nothing more is shown through it. Changes
        are only saved until the platform's next publisher comes (and shows them)."""
        if self._publishers.get(platform) is not publisher:
            return
        del self._publishers[platform]
        self._drop_redraw(platform)

    def _drop_redraw(self, platform: Platform) -> None:
        """Stop showing the saved games through the platform's last publisher (a
        change waiting for that goes on)."""
        redraw = self._redraws.pop(platform, None)
        if redraw is not None:
            redraw.games.clear()
            redraw.loaded.set()
            if redraw.task is not None:
                redraw.task.cancel()

    async def restore(self) -> list[Game]:
        """After a start: load every open game of this process's platforms and let
        computers and timers go on. Each game is shown again as it was saved (first
        the messages it still owes, in order, then its table and hands: what went out
        before a crash may be older) through its platform's publisher, as soon as
        there is one: now for the publishers already added, else when one is added.
        A game over since the crash is shown too while it owes messages."""
        games = [game for game in await self.storage.active_games() if self._owns(game)]
        await self._resume_clocks(games)
        for game in games:
            self._games.setdefault(game.id, game)
        self._restored = True
        redraws = [self._redraw(platform, pub) for platform, pub in self._publishers.items()]
        tasks = [redraw.task for redraw in redraws if redraw.task is not None]
        await asyncio.gather(*tasks, return_exceptions=True)  # each logs its own failure
        for game in games:
            self._kick(game)
        return games

    def _redraw(self, platform: Platform, publisher: Publisher) -> _Redraw:
        """Start showing the platform's saved games through a new publisher (one that
        came before keeps showing nothing of them)."""
        games = {
            game.id
            for game in self._games.values()
            if game.chat.platform is platform and game.status.is_open and self._owns(game)
        }
        redraw = _Redraw(publisher, games)
        self._drop_redraw(platform)  # the new publisher shows them all
        self._redraws[platform] = redraw
        redraw.task = asyncio.get_running_loop().create_task(self._redraw_all(platform, redraw))
        return redraw

    async def _redraw_all(self, platform: Platform, redraw: _Redraw) -> None:
        """Show every game of ``redraw``, oldest first, each under its lock (a change
        published meanwhile shows its game first: :meth:`_publish`)."""
        try:
            try:
                for item in await self.storage.owed_messages():
                    redraw.owed.setdefault(item.game_id, []).append(item)
            finally:
                redraw.loaded.set()
            for game_id in sorted(redraw.owed.keys() - redraw.games):
                over = self._games.get(game_id) or await self.storage.load_game(game_id)
                if over is not None and over.chat.platform is platform and self._owns(over):
                    redraw.games.add(game_id)
            for game_id in sorted(redraw.games):
                if game_id not in redraw.games:
                    continue  # a change of it showed it first
                game = self._games.get(game_id)
                if game is None or not game.status.is_open:
                    stored = await self.storage.load_game(game_id)
                    if stored is not None:
                        await self._redraw_game(stored, redraw)
                    continue
                try:
                    async with self._locked(game_id) as locked:
                        await self._redraw_game(locked, redraw)
                except ServiceError as error:
                    log.info("game %s not shown again: %s", game_id, error.code)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("showing the saved %s games again failed", platform.value)
        finally:
            if self._redraws.get(platform) is redraw:
                del self._redraws[platform]

    async def _redraw_game(self, game: Game, redraw: _Redraw) -> None:
        """Show one saved game through the redraw's publisher (once): the messages it
        owes, in order, then its table and hands."""
        if game.id not in redraw.games:
            return
        redraw.games.discard(game.id)
        owed = tuple(o for o in redraw.owed.pop(game.id, ()) if o not in redraw.handed)
        await self._show(redraw.publisher, game, Change(ChangeKind.RESTORED, owed=owed))

    async def message_sent(self, owed: Owed) -> None:
        """A publisher sent an owed message (or it can never be sent): it is owed no
        more, also after a restart."""
        await self.storage.message_sent(owed)

    async def send_times(self, platform: Platform) -> dict[str, list[float]]:
        """When the bot last wrote into each paced chat of a platform (epoch seconds)."""
        return await self.storage.send_times(platform)

    async def save_send_times(self, platform: Platform, chat: str, times: Sequence[float]) -> None:
        await self.storage.save_send_times(platform, chat, times)

    async def settle(self) -> None:
        """Wait until no computer player is about to move and every saved game was
        shown again through its platform's publisher (for tests and shutdown)."""
        while self._drivers or self._redraws:
            tasks = [*self._drivers.values()]
            tasks += [r.task for r in self._redraws.values() if r.task is not None]
            await asyncio.gather(*tasks, return_exceptions=True)

    async def close(self) -> None:
        """Stop the redraws, the computers, the timers and the computers' worker
        processes (those that do not stop at once are killed): returns within a few
        seconds whatever they were doing. A bot that kept its clocks keeps the moment
        it stopped."""
        tasks = [r.task for r in self._redraws.values() if r.task is not None]
        tasks += [*self._drivers.values(), *self._timers.values()]
        if self._keeping_alive is not None:
            tasks.append(self._keeping_alive)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._drivers.clear()
        self._timers.clear()
        if self._alive_at is not None:
            await self._keep_alive(self.clock.now())
        await self.thinkers.close()

    # --- Users and chats ---------------------------------------------------------------

    async def touch_user(self, user: User) -> User:
        """Remember a user's name (and platform language unless he chose one)."""
        stored = await self.storage.get_user(user.ref)
        if stored is None:
            await self.storage.save_user(user)
            self._cache_locale(user.ref, user.locale)
            return user
        if stored.name != user.name:
            stored = replace(stored, name=user.name)
            await self.storage.save_user(stored)
        self._cache_locale(user.ref, stored.locale)
        return stored

    async def set_user_locale(self, user: User, locale: str) -> None:
        if locale not in LOCALES:
            raise ServiceError(ErrorCode.BAD_SETTING)
        stored = await self.touch_user(user)
        await self.storage.save_user(replace(stored, locale=locale))
        self._cache_locale(user.ref, locale)

    async def set_chat_locale(self, chat: ChatRef, locale: str) -> None:
        if locale not in LOCALES:
            raise ServiceError(ErrorCode.BAD_SETTING)
        info = await self.storage.get_chat(chat) or ChatInfo(chat)
        await self.storage.save_chat(replace(info, locale=locale))

    async def chat_locale(self, chat: ChatRef) -> str:
        """The language chosen for the chat, else the platform's (``chat.language``),
        else the bot's default."""
        info = await self.storage.get_chat(chat)
        return info.locale if info and info.locale else self._default_chat_locale(chat)

    def _cache_locale(self, user: UserRef, locale: str | None) -> None:
        self._user_locales[user] = locale
        self._user_locales.move_to_end(user)
        while len(self._user_locales) > self.user_cache:
            self._user_locales.popitem(last=False)

    def _default_chat_locale(self, chat: ChatRef) -> str:
        if chat.language:
            return normalize_locale(chat.language, self.default_locale)
        return self.default_locale

    async def user_locale(self, user: UserRef, fallback: str | None = None) -> str:
        if user in self._user_locales:
            chosen = self._user_locales[user]
            self._user_locales.move_to_end(user)
        else:
            stored = await self.storage.get_user(user)
            # A language chosen while this read waited is newer: it stays.
            if user in self._user_locales:
                chosen = self._user_locales[user]
            else:
                chosen = stored.locale if stored else None
                self._cache_locale(user, chosen)
        if chosen in LOCALES:
            return chosen
        if fallback is not None and fallback in LOCALES:
            return fallback
        return self.default_locale

    async def migrate_chat(self, old: ChatRef, new: ChatRef) -> None:
        """A chat changed its id (a Telegram group became a supergroup): its games,
        settings and scores move with it."""
        await self.storage.migrate_chat(old, new)
        self.read_cache.forget()
        for game in self._games.values():
            if game.chat.platform == old.platform and game.chat.id == old.id:
                game.chat = ChatRef(new.platform, new.id, game.chat.thread)

    async def set_message(self, game_id: int, key: str, message_id: str | None) -> None:
        """Remember (or forget) a platform message of a game, e.g. ``"table"`` or
        ``"hand:2"``, so that it is edited in place, also after a restart. Not a
        change of the game: the version stays. Must not be called from ``publish``
        (which runs under the game's lock)."""
        async with self._locked(game_id) as game:
            if game.messages.get(key) == message_id:
                return
            if message_id is None:
                game.messages.pop(key, None)
            else:
                game.messages[key] = message_id
            await self._store(game, base=game.version)

    # --- Join links ----------------------------------------------------------------------

    async def link_key(self) -> bytes:
        """The secret key of join links (kept in the database, so links outlive a
        restart and cannot be made by anyone who does not hold it)."""
        if self._link_key is None:
            self._link_key = await self.storage.secret(LINK_SECRET)
        return self._link_key

    # --- Queries -------------------------------------------------------------------------

    async def game(self, game_id: int) -> Game:
        game = self._games.get(game_id)
        if game is None:
            game = await self.storage.load_game(game_id)
            if game is None:
                raise ServiceError(ErrorCode.UNKNOWN_GAME, game_id)
            if game.status.is_open:
                game = self._remember(game)
        return game

    async def open_game(self, chat: ChatRef) -> Game | None:
        found = await self.storage.open_game(chat)
        if found is None:
            return None
        return self._remember(found)

    def _remember(self, game: Game) -> Game:
        """Keep an open game loaded from storage (unless a newer copy is kept) and let
        its computers go on: a game saved while a computer was to move resumes."""
        kept = self._games.setdefault(game.id, game)
        if kept is game:
            self._kick(game)
        return kept

    def games_of(self, user: UserRef) -> list[Game]:
        """The running games the user sits in, oldest first."""
        return [
            game
            for _, game in sorted(self._games.items())
            if game.status is GameStatus.PLAYING and game.seat_of(user) is not None
        ]

    async def stats(self, user: UserRef, rule_set: str | None = None) -> UserStats | None:
        """A user's statistics over every rule set's games, or over ``rule_set``'s
        (kept a few seconds: :attr:`read_cache`)."""
        return await self.read_cache.get(
            ("stats", user, rule_set), partial(self.storage.user_stats, user, rule_set)
        )

    async def stats_by_rules(self, user: UserRef) -> list[tuple[str, UserStats]]:
        """A user's statistics for each rule set he played, in the rule sets' order."""
        found = []
        for rule_set in rule_set_ids():
            stats = await self.stats(user, rule_set)
            if stats is not None and (stats.series_played or stats.deals_played):
                found.append((rule_set, stats))
        return found

    async def leaderboard(
        self, chat: ChatRef, everywhere: bool = False, rule_set: str | None = None
    ) -> list[LeaderboardRow]:
        """The best players of a chat (or of every chat of its platform), over every
        rule set's games or over ``rule_set``'s."""
        where, least = (None, 3) if everywhere else (chat, 1)
        key = ("top", chat.platform, None if where is None else where.id, rule_set)
        read = partial(
            self.storage.leaderboard,
            chat.platform,
            where,
            limit=10,
            min_series=least,
            rule_set=rule_set,
        )
        return await self.read_cache.get(key, read)

    def _results_changed(self, game: Game, *, boards: bool) -> None:
        """A result of ``game`` was kept, or what counts of it changed: its players'
        statistics are read again, and (``boards``: a series' result or the game's
        end) its chat's and platform's leaderboards."""
        players = {seat.user for seat in game.seats if seat is not None and seat.user is not None}
        platform, chat = game.chat.platform, game.chat.id

        def stale(key: Hashable) -> bool:
            match key:
                case ("stats", user, _):
                    return user in players
                case ("top", board_platform, board_chat, _):
                    return boards and board_platform == platform and board_chat in (None, chat)
            return False

        self.read_cache.forget(stale)

    async def record(self, game_id: int) -> dict[str, object]:
        """The game as a game record (RULES.md §3), with the seed it was shuffled
        with, if it was given one."""
        game = await self.game(game_id)
        return game.play.record(seed=game.settings.seed)

    # --- The lobby -----------------------------------------------------------------------

    async def open_table(
        self,
        chat: ChatRef,
        creator: User,
        *,
        join: bool = False,
        seed: int | None = None,
        rule_set: str | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> Game:
        """Open a lobby in a chat; a chat has one open game at most. ``seed``: the seed
        of the service's random source, kept for the game's record. ``rule_set``: the
        table's rules (default: :attr:`default_rule_set`), with ``options`` (default:
        every default); unknown rules or options the rules refuse are refused
        (``unknown-rule-set``, ``bad-options``)."""
        rule_set = rule_set or self.default_rule_set
        try:
            get_rule_set(rule_set).options(options or {})
        except KozelError as error:
            raise ServiceError.from_rules(error) from None
        async with self._chat_lock(chat):
            running = await self.open_game(chat)
            if running is not None:
                raise ServiceError(ErrorCode.GAME_RUNNING, running.id)
            await self.touch_user(creator)
            info = await self.storage.get_chat(chat)
            settings = TableSettings(
                locale=info.locale if info and info.locale else self._default_chat_locale(chat),
                turn_timeout=(
                    info.turn_timeout
                    if info and info.turn_timeout is not None
                    else self.turn_timeout
                ),
                seed=seed,
                computer_level=self.computer_level,
                rule_set=rule_set,
                options=dict(options or {}),
            )
            now = self.clock.now()
            game = Game(
                id=0,
                chat=chat,
                creator=creator.ref,
                settings=settings,
                created_at=now,
                updated_at=now,
            )
            if join:
                game.seats[0] = Seat(SeatKind.HUMAN, creator.name, creator.ref)
            game = await self.storage.create_game(game)
            self._games[game.id] = game
        await self._publish(game, Change(ChangeKind.LOBBY))
        return game

    async def join(
        self, game_id: int, version: int | None, user: User, team: Team | None = None
    ) -> Game:
        """Sit down at a free seat (of ``team`` if given); a seated player changes team.
        A refused join keeps nothing, not even the user's name."""

        def change(game: Game) -> None:
            current = game.seat_of(user.ref)
            if current is not None and (team is None or current % 2 == team):
                raise ServiceError(ErrorCode.ALREADY_SEATED, game.id)
            seat = _free_seat(game, team)
            if current is not None:
                game.seats[current] = None
            game.seats[seat] = Seat(SeatKind.HUMAN, user.name, user.ref)

        game = await self._lobby_change(game_id, version, change)
        await self.touch_user(user)
        return game

    async def leave(self, game_id: int, version: int | None, user: UserRef) -> Game:
        def change(game: Game) -> None:
            seat = game.seat_of(user)
            if seat is None:
                raise ServiceError(ErrorCode.NOT_SEATED, game.id)
            game.seats[seat] = None

        return await self._lobby_change(game_id, version, change)

    async def add_computer(
        self, game_id: int, version: int | None, user: UserRef, team: Team | None = None
    ) -> Game:
        def change(game: Game) -> None:
            _check_host(game, user)
            seat = _free_seat(game, team)
            used = {s.name for s in game.seats if s is not None and s.is_computer}
            name = next(n for n in COMPUTER_NAMES if n not in used)
            game.seats[seat] = Seat(SeatKind.COMPUTER, name, level=game.settings.computer_level)

        return await self._lobby_change(game_id, version, change)

    async def remove_computer(
        self, game_id: int, version: int | None, user: UserRef, seat: int
    ) -> Game:
        def change(game: Game) -> None:
            _check_host(game, user)
            if not 0 <= seat < 4:
                raise ServiceError(ErrorCode.NO_SUCH_SEAT, game.id)
            occupant = game.seats[seat]
            if occupant is None or not occupant.is_computer:
                raise ServiceError(ErrorCode.NO_SUCH_SEAT, game.id)
            game.seats[seat] = None

        return await self._lobby_change(game_id, version, change)

    async def change_setting(
        self,
        game_id: int,
        version: int | None,
        user: UserRef,
        arg: str,
        *,
        chat_admin: Callable[[ChatRef], Awaitable[bool]] | None = None,
    ) -> Game:
        """``t<seconds>`` sets the turn timeout, ``l<locale>`` the table's language,
        ``c<level>`` its computer players' level (those seated and those to come),
        ``r<rule set>`` its rules (every option back to its default), ``o...`` one of
        the rules' options (:func:`bot.options.option_arg`), ``po`` and ``p`` show the
        lobby's options page and its seats page. Only the creator changes them; an
        argument that names none of these is refused (``bad-setting``).

        A new language or turn time becomes the chat's default for its next tables
        only if ``chat_admin`` says the user is an admin of the game's chat (asked
        only then); otherwise it is this table's alone."""
        changed: list[TableSettings] = []

        def change(game: Game) -> None:
            if user != game.creator:
                raise ServiceError(ErrorCode.NOT_CREATOR, game.id)
            settings = _parse_setting(game.settings, arg)
            if settings is None:
                raise ServiceError(ErrorCode.BAD_SETTING, game.id)
            changed[:] = [game.settings, settings]
            rules = (settings.rule_set, settings.options)
            if rules != (game.settings.rule_set, game.settings.options):
                game.play = settings.new_game()  # the game of the rules chosen, not dealt
            game.settings = settings
            for index, seat in enumerate(game.seats):
                if seat is not None and seat.is_computer:
                    game.seats[index] = seat.with_(level=settings.computer_level)

        game = await self._lobby_change(game_id, version, change)
        before, after = changed
        defaults: dict[str, Any] = {}
        if after.locale != before.locale:
            defaults["locale"] = after.locale
        if after.turn_timeout != before.turn_timeout:
            defaults["turn_timeout"] = after.turn_timeout
        if defaults and chat_admin is not None and await chat_admin(game.chat):
            info = await self.storage.get_chat(game.chat) or ChatInfo(game.chat)
            await self.storage.save_chat(replace(info, **defaults))
        return game

    async def _lobby_change(
        self, game_id: int, version: int | None, change: Callable[[Game], None]
    ) -> Game:
        async with self._locked(game_id, version) as game:
            if game.status is not GameStatus.LOBBY:
                raise ServiceError(
                    ErrorCode.GAME_STARTED if game.status.is_open else ErrorCode.GAME_OVER,
                    game.id,
                )
            _check_version(game, version)
            seats, settings, play = list(game.seats), game.settings, game.play
            change(game)
            game.version += 1
            game.updated_at = self.clock.now()
            try:
                await self._store(game, base=game.version - 1)
            except BaseException:
                game.seats, game.settings, game.play = seats, settings, play
                game.version -= 1
                raise
            await self._publish(game, Change(ChangeKind.LOBBY))
        return game

    async def start(self, game_id: int, version: int | None, user: UserRef) -> Outcome:
        """The creator starts the series once all four seats are taken."""
        async with self._locked(game_id, version) as game:
            if game.status is not GameStatus.LOBBY:
                raise ServiceError(
                    ErrorCode.GAME_STARTED if game.status.is_open else ErrorCode.GAME_OVER,
                    game.id,
                )
            _check_version(game, version)
            if user != game.creator:
                raise ServiceError(ErrorCode.NOT_CREATOR, game.id)
            if not game.is_full:
                raise ServiceError(ErrorCode.TABLE_NOT_FULL, game.id)
            events = await self._begin_series(game)
        self._kick(game)
        return Outcome(game, tuple(events))

    async def _begin_series(self, game: Game) -> list[Event]:
        game.play = game.settings.new_game(first_dealer=self.rng.randrange(4))
        events = list(game.play.deal(self.rng))
        self._seat_players.pop(game.id, None)
        game.status = GameStatus.PLAYING
        game.version += 1
        self._set_deadline(game)
        await self._save(game, base=game.version - 1)
        await self._publish(game, Change(ChangeKind.STARTED, tuple(events)))
        return events

    async def cancel(
        self, game_id: int, version: int | None, user: UserRef, *, is_admin: bool = False
    ) -> Game:
        """The creator or a chat admin ends a lobby or a running game."""
        async with self._locked(game_id, version) as game:
            if not game.status.is_open:
                raise ServiceError(ErrorCode.GAME_OVER, game.id)
            _check_version(game, version)
            if user != game.creator and not is_admin:
                raise ServiceError(ErrorCode.NOT_ALLOWED, game.id)
            game.status = GameStatus.CANCELLED
            game.turn_deadline = None
            game.version += 1
            await self._save(game, base=game.version - 1)
            self._forget(game.id)
            await self._publish(game, Change(ChangeKind.CANCELLED))
        return game

    async def rematch(self, game_id: int, user: UserRef) -> Outcome:
        """A new series with the same seats, started at once."""
        old = await self.game(game_id)
        if old.status is not GameStatus.FINISHED:
            raise ServiceError(ErrorCode.GAME_RUNNING, old.id)
        if old.seat_of(user) is None and user != old.creator:
            raise ServiceError(ErrorCode.NOT_SEATED, old.id)
        async with self._chat_lock(old.chat):
            running = await self.open_game(old.chat)
            if running is not None:
                raise ServiceError(ErrorCode.GAME_RUNNING, running.id)
            now = self.clock.now()
            game = Game(
                id=0,
                chat=old.chat,
                creator=user,
                settings=replace(old.settings, seed=None),
                seats=[None if s is None else s.with_(missed=0, away=False) for s in old.seats],
                created_at=now,
                updated_at=now,
                rematch_of=old.id,
            )
            game = await self.storage.create_game(game)
            self._games[game.id] = game
        async with self._locked(game.id):
            events = await self._begin_series(game)
        self._kick(game)
        return Outcome(game, tuple(events))

    # --- Play ----------------------------------------------------------------------------

    async def play(
        self, game_id: int, version: int | None, user: UserRef, action: Action
    ) -> Outcome:
        """A human's action. ``action.seat`` is ignored: the seat is the user's own."""
        async with self._locked(game_id, version) as game:
            if game.status is not GameStatus.PLAYING:
                raise ServiceError(
                    ErrorCode.GAME_NOT_STARTED
                    if game.status is GameStatus.LOBBY
                    else ErrorCode.GAME_OVER,
                    game.id,
                )
            seat = game.seat_of(user)
            if seat is None:
                raise ServiceError(ErrorCode.NOT_SEATED, game.id)
            _check_version(game, version)
            action = replace(action, seat=seat)
            try:
                game.play.verify(action)
            except KozelError as error:
                raise ServiceError.from_rules(error, game.id) from None
            occupant = game.seats[seat]
            back = occupant is not None and occupant.away
            if occupant is not None and (occupant.away or occupant.missed):
                game.seats[seat] = occupant.with_(away=False, missed=0)
            events = await self._apply(game, action, user=user)
            if back:
                await self._publish(game, Change(ChangeKind.BACK, seat=seat))
        self._kick(game)
        return Outcome(game, tuple(events))

    async def come_back(self, game_id: int, user: UserRef) -> bool:
        """An away player touched his hand: he plays his own turns again. Returns
        whether he was away."""
        async with self._locked(game_id) as game:
            seat = game.seat_of(user)
            occupant = None if seat is None else game.seats[seat]
            if seat is None or occupant is None or not occupant.away:
                return False
            game.seats[seat] = occupant.with_(away=False, missed=0)
            self._set_deadline(game)
            await self._save(game, base=game.version)
            await self._publish(game, Change(ChangeKind.BACK, seat=seat))
        return True

    async def _apply(
        self, game: Game, action: Action, *, user: UserRef | None, auto: bool = False
    ) -> list[Event]:
        """Apply a checked action, deal on or finish, save, publish. Holds the lock."""
        step = self._advance(game, action, user=user, auto=auto)
        await self._commit(game, [step])
        return step.events + step.dealt

    def _advance(
        self, game: Game, action: Action, *, user: UserRef | None, auto: bool = False
    ) -> _Step:
        """Apply a checked action to the game in memory (dealing on after a scored
        deal) and let the computer players see it; :meth:`_commit` saves it."""
        play = game.play
        events = list(play.apply(action))
        game.version += 1
        logged = LoggedAction(
            game_id=game.id,
            version=game.version,
            seat=action.seat,
            user=user,
            action=play.action_to_json(action),
            at=self.clock.now(),
            auto=auto,
        )
        outcomes = [play.outcome(event) for event in events]
        scored = [o for o in outcomes if isinstance(o, DealOutcome)]
        finished = [o for o in outcomes if isinstance(o, GameOutcome)]
        dealt: list[Event] = []
        if finished or play.is_over:
            game.status = GameStatus.FINISHED
        elif play.needs_deal:
            dealt = list(play.deal(self.rng))
        self._set_deadline(game)
        self._observe(game, events + dealt)
        return _Step(action, auto, events, dealt, logged, scored, finished)

    async def _commit(self, game: Game, steps: list[_Step]) -> None:
        """Save the steps' actions and results in one transaction, then publish what
        each changed. If the save fails the cached game (and what the computer players
        saw) is dropped: the next request reloads the last saved state."""
        scored = [outcome for step in steps for outcome in step.scored]
        finished = [outcome for step in steps for outcome in step.finished]
        owed = tuple(owed for step in steps for owed in _owed(game.id, step))
        try:
            await self._save(
                game,
                [step.logged for step in steps],
                deals=scored,
                series=finished[-1] if finished else None,
                owed=owed,
                base=game.version - len(steps),  # each step moved the version on by one
            )
        except ServiceError:  # a stale save: another process moved the game on first
            raise
        except BaseException:
            log.exception("saving game %s failed (at version %s)", game.id, game.version)
            self._forget(game.id)
            raise
        # One change for the lot: a publisher shows the state they led to once.
        last = steps[-1]
        kind = ChangeKind.FINISHED if finished else ChangeKind.PLAYED
        events = tuple(event for step in steps for event in step.events)
        change = Change(kind, events, seat=last.action.seat, auto=last.auto, owed=owed)
        await self._publish(game, change)
        dealt = tuple(event for step in steps for event in step.dealt)
        if dealt:
            await self._publish(game, Change(ChangeKind.DEALT, dealt))
        if finished:
            self._forget(game.id)

    def _set_deadline(self, game: Game) -> None:
        game.reminded = False
        game.turn_deadline = None
        turn = game.play.turn
        if game.status is not GameStatus.PLAYING or turn is None:
            return
        seat = game.seats[turn]
        timeout = game.settings.turn_timeout
        if seat is not None and not seat.plays_itself and timeout > 0:
            game.turn_deadline = self.clock.now() + timeout

    # --- Computer players ----------------------------------------------------------------

    async def _decide(self, game: Game) -> _Decision | None:
        """What the computer-played seats do now: first those with a chance (an
        optional action, e.g. a molodka at the start of a trick: RULES.md §1.4, bots
        decide then) are asked, once each a moment; then the seat whose turn it is.

        A search is awaited (off the loop), and the game's lock need not be held: the
        decision is made for the game as it is at its ``version``, and None is
        answered if the game moved on meanwhile (a human acted, it was cancelled).
        :meth:`_settle` keeps what was asked and the players as their choices left
        them, under the lock, once the decision is taken."""
        version = game.version
        decision = _Decision(version)
        if game.status is not GameStatus.PLAYING:
            return decision
        play = game.play
        turn = play.turn
        if turn is None:
            return decision
        for chance in play.chances():
            seat = game.seats[chance.seat]
            if seat is None or not seat.plays_itself or not self._unasked(game, chance):
                continue
            decision.asked.append(chance)
            choice = await self._think(game, chance.seat, decision)
            if self._moved_on(game, version):
                return None
            if choice is not None and choice in chance.actions:
                decision.move = (chance.seat, choice, seat.kind is SeatKind.HUMAN)
                return decision
        seat = game.seats[turn]
        if seat is None or not seat.plays_itself:
            return decision
        choice = await self._think(game, turn, decision)
        if self._moved_on(game, version):
            return None
        if (
            choice is None
            or choice.seat != turn
            or play.is_optional(choice)
            or not play.can(choice)
        ):
            # A player that declines its turn (or would take an optional action out
            # of its turn here, or gave no answer in time) still has to move: take
            # the safe action instead.
            choice = play.safe_action(turn)
        decision.move = (turn, choice, seat.kind is SeatKind.HUMAN)
        return decision

    async def computer_choice(self, game_id: int, user: UserRef) -> Action | None:
        """What a computer of the table's level would do now at ``user``'s seat (the
        console's "let the computer move for you"): the action it chooses, which may be
        an optional one (a molodka) or any the rules offer, not only the safe one; a
        turn the computer lets pass gets the safe action; None when the seat has
        nothing to do now, or the computer lets an optional moment pass. It is asked as
        the table's own computers are (off the loop for a search), on a copy of what
        the seat sees; nothing is played."""
        game = await self.game(game_id)
        seat = game.seat_of(user)
        if seat is None or game.status is not GameStatus.PLAYING:
            return None
        play = game.play
        if not play.legal_actions(seat):
            return None
        rule_set = get_rule_set(game.settings.rule_set)
        player = (
            self._players(game.settings.computer_level)
            if self._players is not None
            else rule_set.computer(game.settings.computer_level, play.options)
        )
        if isinstance(player, Observer):
            for event in play.public_events():
                player.observe(event)
        view = play.seat_view(seat)
        if not getattr(player, "searches", True):
            choice = player.choose(view, self.rng)
        else:
            choice = (await self.thinkers.think(player, view, self.rng.getrandbits(64))).action
        if choice is not None and choice.seat == seat and play.can(choice):
            return choice
        return play.safe_action(seat) if play.turn == seat else None

    def _moved_on(self, game: Game, version: int) -> bool:
        """Whether the game changed since ``version`` (or is not kept any more)."""
        return game.version != version or self._games.get(game.id) is not game

    def _settle(self, game: Game, decision: _Decision) -> None:
        """Keep what a decision asked and the players as their choices left them (the
        game's lock held, the game still at the decision's version)."""
        for chance in decision.asked:
            self._ask(game.id, chance)
        players = self._seat_players.get(game.id)
        for seat_no, (asked, left) in decision.players.items():
            if players is None or players.get(seat_no) is not asked:
                continue
            if left is None:  # a late search: a new player learns the deal afresh
                del players[seat_no]
            else:
                players[seat_no] = left

    def _ask(self, game_id: int, chance: Chance) -> None:
        """Count the computer of a chance's seat asked about it (each is asked once a
        moment)."""
        moment, asked = self._chances_asked.get(game_id, ((), set()))
        if moment != chance.moment:
            moment, asked = chance.moment, set()
            self._chances_asked[game_id] = (moment, asked)
        asked.add(chance.seat)

    def _unasked(self, game: Game, chance: Chance) -> bool:
        moment, asked = self._chances_asked.get(game.id, ((), set()))
        return moment != chance.moment or chance.seat not in asked

    def _searches_next(self, game: Game) -> bool:
        """Whether a computer to be asked now in the game searches (thinks off the
        loop, for a while): then the decision is made without the game's lock."""
        if game.status is not GameStatus.PLAYING or game.play.turn is None:
            return False
        seats = [
            chance.seat
            for chance in game.play.chances()
            if self._plays_itself(game, chance.seat) and self._unasked(game, chance)
        ]
        if self._plays_itself(game, game.play.turn):
            seats.append(game.play.turn)
        return any(getattr(self._player(game, seat), "searches", True) for seat in seats)

    @staticmethod
    def _plays_itself(game: Game, seat_no: int) -> bool:
        seat = game.seats[seat_no]
        return seat is not None and seat.plays_itself

    async def _think(self, game: Game, seat_no: int, decision: _Decision) -> Action | None:
        """The choice of the computer playing a seat. A player that says it answers at
        once (``searches`` false: the easy and normal levels answer in well under a
        millisecond, less than a round trip off the loop costs) chooses in place with
        the service's random source. A search (the strong level, up to a few hundred
        milliseconds) is worked out off the event loop by :attr:`thinkers` (a worker
        process, or a thread), with a seed drawn here, within the thinkers' deadline
        (None past it). The player as the choice left it (its memory moved on) is
        kept in the decision, to take the place of the one that was asked."""
        earlier = decision.players.get(seat_no)  # the seat chose already at this moment
        if earlier is None:
            asked = player = self._player(game, seat_no)
        elif earlier[1] is None:
            return None  # it gave no answer in time just now: no second wait
        else:
            asked, player = earlier[0], earlier[1]
        view = game.play.seat_view(seat_no)
        if not getattr(player, "searches", True):
            return player.choose(view, self.rng)
        thought = await self.thinkers.think(player, view, self.rng.getrandbits(64))
        if thought.late:
            log.warning(
                "the computer at seat %s of game %s gave no answer in time: it plays"
                " the safe action",
                seat_no,
                game.id,
            )
        decision.players[seat_no] = (asked, None if thought.late else thought.player)
        return thought.action

    def _player(self, game: Game, seat_no: int) -> Computer:
        players = self._seat_players.setdefault(game.id, {})
        player = players.get(seat_no)
        if player is None:
            seat = game.seats[seat_no]
            level = seat.level if seat is not None and seat.is_computer else "normal"
            if self._players is not None:
                player = self._players(level)
            else:
                rule_set = get_rule_set(game.settings.rule_set)
                player = rule_set.computer(level, game.play.options)
            players[seat_no] = player
            if isinstance(player, Observer):
                # A player made in the middle of a deal (a restart, an away human)
                # learns what the table saw of it so far.
                for event in game.play.public_events():
                    player.observe(event)
        return player

    def _observe(self, game: Game, events: list[Event]) -> None:
        for player in self._seat_players.get(game.id, {}).values():
            if isinstance(player, Observer):
                for event in events:
                    player.observe(event)

    def _needs_driver(self, game: Game) -> bool:
        if game.status is not GameStatus.PLAYING:
            return False
        play = game.play
        turn = play.turn
        if turn is None:
            return False
        seat = game.seats[turn]
        if seat is not None and seat.plays_itself:
            return True
        for chance in play.chances():
            holder = game.seats[chance.seat]
            if holder is not None and holder.plays_itself and self._unasked(game, chance):
                return True
        return False

    def _owns(self, game: Game) -> bool:
        return self.platforms is None or game.chat.platform in self.platforms

    def _kick(self, game: Game) -> None:
        """Start the game's computer driver if a computer is to move."""
        if game.id in self._drivers or not self._owns(game) or not self._needs_driver(game):
            return
        task = asyncio.get_running_loop().create_task(self._drive(game.id))
        self._drivers[game.id] = task

    async def _drive(self, game_id: int) -> None:
        """Let the game's computers move until a human is to act. A computer that
        searches thinks without the game's lock (a human's press, a cancel, a timer
        go on meanwhile); its move is applied only if the game is still where it
        was, else it thinks again. Computers that answer at once choose under the
        lock, and without a delay their moves in a row are one save."""
        try:
            while True:
                game = self._games.get(game_id)
                if game is None or not self._needs_driver(game):
                    return
                version = game.version
                if self.computer_delay > 0:
                    await self._sleep(self.computer_delay)
                thought: _Decision | None = None
                if not self._moved_on(game, version) and self._searches_next(game):
                    thought = await self._decide(game)
                    if thought is None:
                        continue  # the game moved on meanwhile: look again
                if self._games.get(game_id) is not game:
                    continue
                async with self._locked(game_id) as locked:
                    if locked is not game or game.version != version:
                        continue  # a human acted meanwhile: look again
                    steps: list[_Step] = []
                    if thought is not None:
                        self._settle(game, thought)
                        if thought.move is not None:
                            steps.append(self._step(game, thought.move))
                    while self._moves_on(steps) and not self._searches_next(game):
                        decision = await self._decide(game)  # no search: nothing awaited
                        if decision is None:
                            break
                        self._settle(game, decision)
                        if decision.move is None:
                            break
                        steps.append(self._step(game, decision.move))
                    if steps:
                        await self._commit(game, steps)
        except asyncio.CancelledError:
            raise
        except ServiceError as error:
            # Another process saved the game first (its move stands) or the game is
            # gone: this driver has nothing left to do here.
            log.info("computer player of game %s stopped: %s", game_id, error.code)
        except Exception:
            log.exception("computer player failed in game %s", game_id)
        finally:
            self._drivers.pop(game_id, None)

    def _step(self, game: Game, move: tuple[int, Action, bool]) -> _Step:
        _, action, for_human = move
        return self._advance(game, action, user=None, auto=for_human)

    def _moves_on(self, steps: list[_Step]) -> bool:
        """Whether the driver takes another move into the same save: the first one,
        and without a delay more, up to a scored deal or :data:`MAX_MOVES_PER_SAVE`."""
        if not steps:
            return True
        return self.computer_delay <= 0 and not steps[-1].scored and len(steps) < MAX_MOVES_PER_SAVE

    # --- Turn timers ---------------------------------------------------------------------

    async def tick(self) -> None:
        """Remind players whose time runs out, and move for those out of time; after
        ``max_missed`` turns in a row a computer plays for the player until he is back.

        Each game's timer runs as a task of its own (:meth:`_start_timers`), so that a
        game whose lock is held or whose save or message is slow never holds up
        another game's clock. This waits for the timers it started; the running bot
        (:meth:`run_timers`) does not."""
        started = self._start_timers()
        if started:
            await asyncio.wait(started)

    def _start_timers(self) -> list[asyncio.Task[None]]:
        """Start the timer of every game whose clock is due (unless the one started
        before is still at work: it goes on, and the game is looked at again next
        time), and keep the moment the bot is alive now and then; returns the tasks
        started."""
        now = self.clock.now()
        started = []
        loop = asyncio.get_running_loop()
        keeping = self._keeping_alive
        if (
            self._alive_at is not None
            and now - self._alive_at >= ALIVE_EVERY
            and (keeping is None or keeping.done())
        ):
            self._alive_at = now
            self._keeping_alive = loop.create_task(self._keep_alive(now))
            started.append(self._keeping_alive)
        for game_id, game in list(self._games.items()):
            deadline = game.turn_deadline
            if (
                deadline is None
                or game.status is not GameStatus.PLAYING
                or not self._owns(game)
                or game_id in self._timers
            ):
                continue
            timeout = game.settings.turn_timeout
            if now >= deadline:
                work = self._time_out(game_id, deadline)
            elif not game.reminded and now >= deadline - min(30.0, timeout / 2):
                work = self._remind(game_id, deadline)
            else:
                continue
            task = loop.create_task(self._timer(game_id, work))
            self._timers[game_id] = task
            started.append(task)
        return started

    async def _timer(self, game_id: int, work: Awaitable[None]) -> None:
        try:
            await work
        except asyncio.CancelledError:
            raise
        except ServiceError as error:
            # Another process moved the game on first, or it is gone.
            log.info("turn timer of game %s stopped: %s", game_id, error.code)
        except Exception:
            log.exception("turn timer of game %s failed", game_id)
        finally:
            self._timers.pop(game_id, None)

    async def _remind(self, game_id: int, deadline: float) -> None:
        async with self._locked(game_id) as game:
            if game.turn_deadline != deadline or game.reminded:
                return
            game.reminded = True
            await self._save(game, base=game.version)
            await self._publish(game, Change(ChangeKind.REMINDER, seat=game.play.turn))

    async def _time_out(self, game_id: int, deadline: float) -> None:
        async with self._locked(game_id) as game:
            seat_no = game.play.turn
            if game.turn_deadline != deadline or seat_no is None:
                return
            seat = game.seats[seat_no]
            if seat is None:
                return
            missed = seat.missed + 1
            away = missed >= self.max_missed
            game.seats[seat_no] = seat.with_(missed=missed, away=away)
            action = game.play.safe_action(seat_no)
            await self._apply(game, action, user=None, auto=True)
            if away:
                await self._publish(game, Change(ChangeKind.AWAY, seat=seat_no))
        self._kick(game)

    async def run_timers(self, interval: float = 1.0) -> None:
        """Check the turn timers forever (a background task of the running bot): every
        ``interval`` seconds the due ones start, each in a task of its own, whatever
        the timers started before are still doing."""
        await self._keep_alive(self.clock.now())
        while True:
            try:
                self._start_timers()
            except Exception:
                log.exception("turn timers failed")
            await asyncio.sleep(interval)

    # --- Downtime -----------------------------------------------------------------------

    async def _keep_alive(self, now: float) -> None:
        """Keep ``now`` as the moment the bot was last alive (its turn clocks ran), for
        :meth:`_resume_clocks` after a stop, however sudden."""
        self._alive_at = now
        platforms = set(Platform) if self.platforms is None else self.platforms
        try:
            await self.storage.save_alive(platforms, now)
        except Exception:
            log.exception("keeping the moment the bot is alive failed")

    async def _resume_clocks(self, games: Sequence[Game]) -> None:
        """After a start: the turn clocks stood still while the bot was down. Each
        running clock resumes with the time it had left when the process stopped (the
        last moment it was known alive: its last heartbeat, or a later save of a game
        of the platform), so nobody is moved for the downtime, nor counted away."""
        alive = await self.storage.last_alive()
        for game in games:
            platform = game.chat.platform
            if platform in alive:
                alive[platform] = max(alive[platform], game.updated_at)
        now = self.clock.now()
        for game in games:
            stopped = alive.get(game.chat.platform)
            if game.turn_deadline is None or stopped is None or now <= stopped:
                continue
            game.turn_deadline += now - stopped
            try:
                await self._store(game, base=game.version)
            except ServiceError:  # another process moved it on: its own clock stands
                log.info("game %s changed elsewhere while the bot was down", game.id)
        await self._keep_alive(now)

    # --- Plumbing ------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _chat_lock(self, chat: ChatRef) -> AsyncIterator[None]:
        key = (chat.platform, chat.id)
        entry = self._chat_locks.setdefault(key, _Lock())
        entry.users += 1
        try:
            async with entry.lock:
                yield
        finally:
            entry.users -= 1
            if not entry.users and self._chat_locks.get(key) is entry:
                del self._chat_locks[key]

    @contextlib.asynccontextmanager
    async def _locked(self, game_id: int, seen: int | None = None) -> AsyncIterator[Game]:
        """Hold the game's lock and yield the game; raises UNKNOWN_GAME (taking no
        lock) for a game that does not exist. The lock is dropped once the game is
        closed and nobody holds or waits for it. A request that saw another version
        than the one kept here (a change saved by another process on the same
        database) reloads the game first, so the version check compares with the
        stored game."""
        entry = self._locks.get(game_id)
        if entry is None:
            await self.game(game_id)  # it exists (or this raises)
            entry = self._locks.setdefault(game_id, _Lock())
        entry.users += 1
        try:
            async with entry.lock:
                game = await self.game(game_id)
                if seen is not None and seen != game.version:
                    stored = await self.storage.load_game(game_id)
                    if stored is not None and stored.version != game.version:
                        self._forget(game_id)
                        game = await self.game(game_id)
                with game_context(game.id, game.chat):
                    yield game
        finally:
            entry.users -= 1
            if not entry.users and game_id not in self._games and self._locks.get(game_id) is entry:
                del self._locks[game_id]

    async def _save(
        self,
        game: Game,
        actions: list[LoggedAction] | None = None,
        *,
        deals: Sequence[DealOutcome] = (),
        series: GameOutcome | None = None,
        owed: Sequence[Owed] = (),
        base: int,
    ) -> None:
        game.updated_at = self.clock.now()
        await self._store(game, actions or (), deals=deals, series=series, owed=owed, base=base)

    async def _store(
        self,
        game: Game,
        actions: Sequence[LoggedAction] = (),
        *,
        deals: Sequence[DealOutcome] = (),
        series: GameOutcome | None = None,
        owed: Sequence[Owed] = (),
        base: int,
    ) -> None:
        """Save the game (and the messages it owes) only if the stored one is still at
        version ``base``, the one the change started from. If another process saved it
        first, the change is dropped (the game here is forgotten: the next request
        loads the stored one) and refused as a stale press. So is a save whose action
        the log already has at that version (its key, ``(game_id, version)``, the
        fence's second guard)."""
        started = time.perf_counter()
        outcome = "error"
        try:
            await self.storage.save_game(
                game, actions, deals=deals, series=series, owed=owed, base=base
            )
            outcome = "ok"
            if deals or series is not None or not game.status.is_open:
                boards = series is not None or not game.status.is_open
                self._results_changed(game, boards=boards)
        except (StaleGame, DuplicateAction):  # the log's key is the second guard
            outcome = "stale"
            self._forget(game.id)
            raise ServiceError(ErrorCode.STALE, game.id) from None
        finally:
            if self.metrics is not None:
                self.metrics.saved(outcome, time.perf_counter() - started)

    def _forget(self, game_id: int) -> None:
        self._games.pop(game_id, None)
        entry = self._locks.get(game_id)
        if entry is not None and not entry.users:
            del self._locks[game_id]
        self._chances_asked.pop(game_id, None)
        self._seat_players.pop(game_id, None)

    async def _publish(self, game: Game, change: Change) -> None:
        """Show a change through the game's platform's publisher (if it has one). A
        saved game that publisher has not shown yet is shown first (:meth:`_redraw`):
        the messages it owed before come before the ones of this change."""
        platform = game.chat.platform
        publisher = self._publishers.get(platform)
        if publisher is None:
            return
        redraw = self._redraws.get(platform)
        if redraw is not None:
            redraw.handed.update(change.owed)
            if game.id in redraw.games:
                await redraw.loaded.wait()
                await self._redraw_game(game, redraw)
        await self._show(publisher, game, change)

    async def _show(self, publisher: Publisher, game: Game, change: Change) -> None:
        try:
            with game_context(game.id, game.chat):
                await publisher.publish(game, change)
        except Exception:
            # The change is saved; a failed render must not undo or block the game.
            log.exception("publishing %s of game %s failed", change.kind, game.id)


def _owed(game_id: int, step: _Step) -> Iterator[Owed]:
    """The messages a step owes the players: its deal's result, the series' result."""
    version, index = step.logged.version, 0
    for scored in step.scored:
        yield Owed(game_id, version, index, OwedKind.DEAL_RESULT, scored.number)
        index += 1
    for _ in step.finished:
        yield Owed(game_id, version, index, OwedKind.SERIES_RESULT)
        index += 1


def _check_version(game: Game, version: int | None) -> None:
    if version is not None and version != game.version:
        raise ServiceError(ErrorCode.STALE, game.id)


def _check_host(game: Game, user: UserRef) -> None:
    if user != game.creator and game.seat_of(user) is None:
        raise ServiceError(ErrorCode.NOT_SEATED, game.id)


def _free_seat(game: Game, team: Team | None) -> int:
    seats: Iterator[int] = iter(range(4)) if team is None else iter(team.seats)
    for seat in seats:
        if game.seats[seat] is None:
            return seat
    raise ServiceError(ErrorCode.TEAM_FULL, game.id)


def _parse_setting(settings: TableSettings, arg: str) -> TableSettings | None:
    if arg.startswith("r") and arg[1:] in rule_set_ids():
        return replace(settings, rule_set=arg[1:], options={}, lobby_page="")
    if arg == "p" or (arg == "po" and options_of(settings.rule_set)):
        return replace(settings, lobby_page=arg[1:])
    option = parse_option_arg(settings.rule_set, arg)
    if option is not None:
        try:
            options = with_option(settings.rule_set, settings.options, *option)
        except KozelError:
            return None
        return replace(settings, options=options)
    if arg.startswith("t") and arg[1:].isdigit() and int(arg[1:]) in TURN_TIMEOUTS:
        return replace(settings, turn_timeout=int(arg[1:]))
    if arg.startswith("l") and arg[1:] in LOCALES:
        return replace(settings, locale=arg[1:])
    if arg.startswith("c") and arg[1:] in LEVEL_NAMES:
        return replace(settings, computer_level=arg[1:])
    return None
