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
    Iterator,
    Mapping,
    Sequence,
)
from dataclasses import dataclass, field, replace
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
from bot.rows import DuplicateAction, StaleGame
from bot.thinking import Thinkers
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

#: At most this many computer moves (made without a delay) are saved together.
MAX_MOVES_PER_SAVE = 8


@dataclass(slots=True)
class _Lock:
    """A lock and how many tasks hold or wait for it (to drop it when none do)."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0


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
        #: (0: a worker thread).
        self.thinkers = Thinkers(computer_processes)
        self._sleep = sleep
        self._publishers: dict[Platform, Publisher] = {}
        self._games: dict[int, Game] = {}
        #: Per-game locks, only while the game is open or someone holds or waits for
        #: the lock (a press on a game that does not exist makes none).
        self._locks: dict[int, _Lock] = {}
        #: Per-chat locks (one open game a chat), only while held or waited for.
        self._chat_locks: dict[tuple[Platform, str], _Lock] = {}
        self._drivers: dict[int, asyncio.Task[None]] = {}
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
        if metrics is not None:
            metrics.watch_games(lambda: sum(game.status.is_open for game in self._games.values()))

    # --- Wiring -----------------------------------------------------------------------

    def add_publisher(self, platform: Platform, publisher: Publisher) -> None:
        self._publishers[platform] = publisher

    async def restore(self) -> list[Game]:
        """After a start: load every open game of this process's platforms, show each
        one again as it was saved (first the messages it still owes, in order, then its
        table and hands: what went out before a crash may be older), and let computers
        and timers go on. A game over since the crash is shown too while it owes
        messages."""
        games = [game for game in await self.storage.active_games() if self._owns(game)]
        owed: dict[int, list[Owed]] = {}
        for item in await self.storage.owed_messages():
            owed.setdefault(item.game_id, []).append(item)
        for game in games:
            self._games[game.id] = game
        shown = [*games]
        for game_id in sorted(owed.keys() - {game.id for game in games}):
            over = await self.storage.load_game(game_id)
            if over is not None and self._owns(over):
                shown.append(over)
        for game in sorted(shown, key=lambda g: g.id):
            change = Change(ChangeKind.RESTORED, owed=tuple(owed.get(game.id, ())))
            if game.status.is_open:
                async with self._locked(game.id) as locked:
                    await self._publish(locked, change)
            else:
                await self._publish(game, change)
        for game in games:
            self._kick(game)
        return games

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
        """Wait until no computer player is about to move (for tests and shutdown)."""
        while self._drivers:
            await asyncio.gather(*list(self._drivers.values()), return_exceptions=True)

    async def close(self) -> None:
        for task in list(self._drivers.values()):
            task.cancel()
        await asyncio.gather(*list(self._drivers.values()), return_exceptions=True)
        self._drivers.clear()
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
        """A user's statistics over every rule set's games, or over ``rule_set``'s."""
        return await self.storage.user_stats(user, rule_set)

    async def stats_by_rules(self, user: UserRef) -> list[tuple[str, UserStats]]:
        """A user's statistics for each rule set he played, in the rule sets' order."""
        found = []
        for rule_set in rule_set_ids():
            stats = await self.storage.user_stats(user, rule_set)
            if stats is not None and (stats.series_played or stats.deals_played):
                found.append((rule_set, stats))
        return found

    async def leaderboard(
        self, chat: ChatRef, everywhere: bool = False, rule_set: str | None = None
    ) -> list[LeaderboardRow]:
        """The best players of a chat (or of every chat of its platform), over every
        rule set's games or over ``rule_set``'s."""
        where, least = (None, 3) if everywhere else (chat, 1)
        return await self.storage.leaderboard(
            chat.platform, where, limit=10, min_series=least, rule_set=rule_set
        )

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

    async def _next_computer_move(self, game: Game) -> tuple[int, Action, bool] | None:
        """The computer-played seat to act now and its action, or None.

        First the computer-played seats with a chance (an optional action, e.g. a
        molodka at the start of a trick: RULES.md §1.4, bots decide then) are asked,
        once each a moment; then the seat whose turn it is.
        """
        if game.status is not GameStatus.PLAYING:
            return None
        play = game.play
        turn = play.turn
        if turn is None:
            return None
        for chance in play.chances():
            seat = game.seats[chance.seat]
            if seat is None or not seat.plays_itself or not self._ask(game.id, chance):
                continue
            choice = await self._think(game, chance.seat)
            if choice is not None and choice in chance.actions:
                return chance.seat, choice, seat.kind is SeatKind.HUMAN
        seat = game.seats[turn]
        if seat is None or not seat.plays_itself:
            return None
        choice = await self._think(game, turn)
        if (
            choice is None
            or choice.seat != turn
            or play.is_optional(choice)
            or not play.can(choice)
        ):
            # A player that declines its turn (or would take an optional action out
            # of its turn here) still has to move: take the safe action instead.
            choice = play.safe_action(turn)
        return turn, choice, seat.kind is SeatKind.HUMAN

    def _ask(self, game_id: int, chance: Chance) -> bool:
        """Whether the computer of a chance's seat is still to be asked about it (and
        count it asked)."""
        moment, asked = self._chances_asked.get(game_id, ((), set()))
        if moment != chance.moment:
            moment, asked = chance.moment, set()
            self._chances_asked[game_id] = (moment, asked)
        if chance.seat in asked:
            return False
        asked.add(chance.seat)
        return True

    def _unasked(self, game: Game, chance: Chance) -> bool:
        moment, asked = self._chances_asked.get(game.id, ((), set()))
        return moment != chance.moment or chance.seat not in asked

    async def _think(self, game: Game, seat_no: int) -> Action | None:
        """The choice of the computer playing a seat. A player that says it answers at
        once (``searches`` false: the easy and normal levels answer in well under a
        millisecond, less than a round trip off the loop costs) chooses in place with
        the service's random source. A search (the strong level, up to a few hundred
        milliseconds) is worked out off the event loop by :attr:`thinkers` (a worker
        process, or a thread), with a seed drawn here: the game's lock keeps its state
        still meanwhile, and the player as the choice left it (its memory moved on)
        takes the place of the one that was asked."""
        player = self._player(game, seat_no)
        view = game.play.seat_view(seat_no)
        if not getattr(player, "searches", True):
            return player.choose(view, self.rng)
        thought = await self.thinkers.think(player, view, self.rng.getrandbits(64))
        players = self._seat_players.get(game.id)
        if players is not None and players.get(seat_no) is player:
            players[seat_no] = thought.player
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
        try:
            while True:
                game = self._games.get(game_id)
                if game is None or not self._needs_driver(game):
                    return
                version = game.version
                if self.computer_delay > 0:
                    await self._sleep(self.computer_delay)
                async with self._locked(game_id) as game:
                    if game.version != version:
                        continue  # a human acted meanwhile: look again
                    steps: list[_Step] = []
                    # Without a delay the computers' moves in a row are one save.
                    while len(steps) < MAX_MOVES_PER_SAVE and (
                        move := await self._next_computer_move(game)
                    ):
                        _, action, for_human = move
                        steps.append(self._advance(game, action, user=None, auto=for_human))
                        if self.computer_delay > 0 or steps[-1].scored:
                            break
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

    # --- Turn timers ---------------------------------------------------------------------

    async def tick(self) -> None:
        """Remind players whose time runs out, and move for those out of time; after
        ``max_missed`` turns in a row a computer plays for the player until he is back."""
        now = self.clock.now()
        for game_id, game in list(self._games.items()):
            deadline = game.turn_deadline
            if deadline is None or game.status is not GameStatus.PLAYING or not self._owns(game):
                continue
            timeout = game.settings.turn_timeout
            if now >= deadline:
                await self._time_out(game_id, deadline)
            elif not game.reminded and now >= deadline - min(30.0, timeout / 2):
                await self._remind(game_id, deadline)

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
        """Check the turn timers forever (a background task of the running bot)."""
        while True:
            try:
                await self.tick()
            except Exception:
                log.exception("turn timers failed")
            await asyncio.sleep(interval)

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
        publisher = self._publishers.get(game.chat.platform)
        if publisher is None:
            return
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
