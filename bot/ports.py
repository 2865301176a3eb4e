"""Ports: what the application needs from the outside, as Protocols.

Storage is SQLite (``adapters.sqlite``, the default) or PostgreSQL
(``adapters.postgres``, for several processes) in production and in memory in tests
(``bot.memory``); publishers are the platform adapters (Telegram, Discord, console),
which turn a :class:`Change` into messages.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from bot.achievements import Awards, Earned, Progress
from bot.challenge import Challenge, Play, Standings
from bot.event import Event, EventTable, GameEnd
from bot.models import ChatRef, Game, Platform, User, UserRef
from bot.ratings import Board, BoardRow, PlayerRating, RatingChange
from bot.reliability import WINDOW, Ending, Reliability
from core.ruleset import DealOutcome, GameOutcome


@dataclass(frozen=True, slots=True)
class ChatInfo:
    ref: ChatRef
    locale: str | None = None
    turn_timeout: int | None = None
    #: Whether a game's result is also sent as a picture (None: the default, yes).
    pictures: bool | None = None


@dataclass(frozen=True, slots=True)
class LoggedAction:
    """One accepted action of a game's append-only log."""

    game_id: int
    version: int  # the game's version after the action
    seat: int
    user: UserRef | None  # None when a computer player acted
    action: dict[str, object]  # the record form (docs/rules/reference.md §3): seat, type, cards
    at: float
    auto: bool = False  # chosen by a computer for an absent or away human


class OwedKind(StrEnum):
    """What a game owes its chat: a message saved with the change that owes it."""

    DEAL_RESULT = "deal-result"  # ``number``: the core's deal number (from 0)
    SERIES_RESULT = "series-result"
    #: The game's result as a picture (sent where the platform and the chat want it).
    RESULT_PICTURE = "result-picture"
    #: The achievements its version earned (:meth:`Storage.achievements_earned`).
    ACHIEVEMENTS = "achievements"


@dataclass(frozen=True, slots=True, order=True)
class Owed:
    """A message a game owes its players, kept in the saved state until it is sent.

    It is saved in the transaction of the change that owes it (the move that ended a
    deal or the series), so a crash before it went out loses nothing: after a restart
    every owed message not yet confirmed sent is sent, in order (by game, ``version``,
    ``index``). The text is drawn from the game when it is sent.
    """

    game_id: int
    version: int  # the game's version that owes it
    index: int  # its place among the messages that version owes
    kind: OwedKind
    number: int = 0


@dataclass(frozen=True, slots=True)
class UserStats:
    user: UserRef
    name: str
    series_played: int = 0
    series_won: int = 0
    goat: int = 0
    goat_with_eggs: int = 0
    deals_played: int = 0
    deals_won: int = 0
    deals_lost: int = 0
    deals_eggs: int = 0
    points: int = 0

    @property
    def win_rate(self) -> float:
        return self.series_won / self.series_played if self.series_played else 0.0


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    user: UserRef
    name: str
    series_played: int
    series_won: int

    @property
    def win_rate(self) -> float:
        return self.series_won / self.series_played if self.series_played else 0.0


class Storage(Protocol):
    """Where users, chats, games, their action logs and results live."""

    async def get_user(self, ref: UserRef) -> User | None: ...
    async def save_user(self, user: User) -> None: ...
    async def get_chat(self, ref: ChatRef) -> ChatInfo | None: ...
    async def save_chat(self, chat: ChatInfo) -> None: ...

    async def create_game(self, game: Game) -> Game:
        """Store a new game and return it with its id set."""
        ...

    async def save_game(
        self,
        game: Game,
        actions: Sequence[LoggedAction] = (),
        *,
        deals: Sequence[DealOutcome] = (),
        series: GameOutcome | None = None,
        owed: Sequence[Owed] = (),
        base: int | None = None,
        awards: Awards | None = None,
        endings: Sequence[Ending] = (),
    ) -> None:
        """Save the game, append its new actions, keep the deal and series results
        it reached (each kept once), the achievements they earned (each kept once per
        player and achievement: one a player has is not kept again) with the players'
        new progress (``awards``), the players' rows of a rated game that ends
        (``endings``, :mod:`bot.reliability`: each kept once per game and player, at
        the game's ``updated_at``) and the messages it owes, in one transaction.

        ``base`` fences the write: the version the stored game must still have (the
        one the change was made from). If another writer moved it on, the save raises
        :class:`bot.rows.StaleGame` and keeps nothing (no owed message either). None
        writes whatever is stored.
        """
        ...

    async def owed_messages(self) -> list[Owed]:
        """The messages owed by any game and not yet confirmed sent, in order."""
        ...

    async def message_sent(self, owed: Owed) -> None:
        """An owed message went out (or can never go out): it is owed no more."""
        ...

    async def send_times(self, platform: Platform) -> dict[str, list[float]]:
        """When (epoch seconds) the bot last wrote into each paced chat of a platform,
        as :meth:`save_send_times` kept them."""
        ...

    async def save_send_times(self, platform: Platform, chat: str, times: Sequence[float]) -> None:
        """Keep the latest times the bot wrote into a chat (its rate-limit budget), so
        that a restarted bot goes on from them."""
        ...

    async def last_alive(self) -> dict[Platform, float]:
        """When (epoch seconds) the process owning each platform's games was last
        alive, as :meth:`save_alive` kept it: their turn clocks ran until then."""
        ...

    async def save_alive(self, platforms: Collection[Platform], at: float) -> None:
        """Keep ``at`` as the moment the process owning these platforms' games was
        last alive."""
        ...

    async def load_game(self, game_id: int) -> Game | None: ...
    async def open_game(self, chat: ChatRef) -> Game | None:
        """The lobby or running game of a chat (any topic), if any."""
        ...

    async def active_games(self) -> list[Game]:
        """Every game in a lobby or playing, for a restart."""
        ...

    async def game_actions(self, game_id: int) -> list[LoggedAction]: ...

    async def record_deal(self, game: Game, outcome: DealOutcome, at: float) -> None:
        """Keep a deal's result, with the game's rule set, for every seat's player
        (humans only count for stats)."""
        ...

    async def record_series(self, game: Game, outcome: GameOutcome, at: float) -> None:
        """Keep the game's result, with its rule set."""
        ...

    async def user_stats(self, user: UserRef, rule_set: str | None = None) -> UserStats | None:
        """A user's statistics over every rule set, or over the games of ``rule_set``.

        Statistics and leaderboards are read from totals the storage keeps with the
        results, apart from the saves: however many are asked at once, no save
        waits for them, nor they for a save."""
        ...

    async def leaderboard(
        self,
        platform: Platform,
        chat: ChatRef | None,
        limit: int = 10,
        min_series: int = 1,
        rule_set: str | None = None,
    ) -> list[LeaderboardRow]:
        """Players by series won, then win rate; only those with ``min_series`` or more
        series; ``chat`` None means the whole platform; ``rule_set`` None: the games
        of every rule set, else of that one only."""
        ...

    async def achievement_progress(self, users: Collection[UserRef]) -> dict[UserRef, Progress]:
        """Each user's progress towards the career achievements, with the
        achievements he has (``Progress.earned``); a user with neither is left out.
        Read from what is committed, before a save that may add to them."""
        ...

    async def achievements_of(self, user: UserRef) -> list[Earned]:
        """Every achievement a user has, in no particular order."""
        ...

    async def achievements_earned(self, game_id: int, version: int) -> list[Earned]:
        """The achievements kept for the first time by the save of the game's
        ``version`` (what its ACHIEVEMENTS message announces)."""
        ...

    async def reliability(self, user: UserRef, last: int = WINDOW) -> Reliability:
        """Of a user's ``last`` latest ended rated games (by the moment they ended),
        how many there were and how many he walked out of (:mod:`bot.reliability`).
        Read apart from the saves, as :meth:`user_stats`."""
        ...

    async def rating_board(
        self, platform: Platform, chat: ChatRef | None, board: Board, limit: int = 10
    ) -> list[BoardRow]:
        """The best rated players by rating (:mod:`bot.ratings`): of the platform
        (``chat`` None), of those who played a series in ``chat``, or of ``chat``'s
        season (``board.season``); only those with ``board.min_games`` rated games.
        Read from the kept ratings, apart from the saves, as :meth:`leaderboard`."""
        ...

    async def player_ratings(self, user: UserRef) -> list[PlayerRating]:
        """A user's ratings, each rule set's and every rule set's,
        with his latest changes and the partner he won most with (:data:`bot.ratings.EVERY`)."""
        ...

    async def game_ratings(self, game_id: int) -> tuple[RatingChange, ...]:
        """The change each player of a rated game got, by seat (empty: unrated).

        A finished game's ratings are updated in the transaction that keeps its
        result (:meth:`save_game` or :meth:`record_series`), once."""
        ...

    async def migrate_chat(self, old: ChatRef, new: ChatRef) -> None:
        """A chat changed its id (Telegram group -> supergroup): move its games and
        settings."""
        ...

    async def secret(self, name: str) -> bytes:
        """The named secret key (32 random bytes), made on first use and kept: every
        later call, also from another process on the same database, returns it."""
        ...

    # --- Duplicate challenges (bot.challenge) -------------------------------------------

    async def challenge(self, challenge_id: str) -> Challenge | None:
        """The challenge kept under this id, if any."""
        ...

    async def keep_challenge(self, challenge: Challenge) -> Challenge:
        """Keep a new challenge; one kept under its id already (another request made
        the day's first) stays, and is returned."""
        ...

    async def challenge_plays(self, challenge_id: str, user: UserRef) -> list[Play]:
        """The deals of a challenge a user started, by deal number."""
        ...

    async def start_challenge_deal(
        self, game: Game, challenge: Challenge, deal: int, name: str
    ) -> Game:
        """Store a challenge deal's new game (dealt) as the user at its seat 0 started
        it, with his entry (``name``), in one transaction; return it with its id. A
        deal he started already raises :class:`bot.challenge.DealTaken` and keeps
        nothing. The deal's result (his loss) is kept in the transaction of the save
        that keeps the game's deal result, and the challenge's totals with it."""
        ...

    async def challenge_standings(
        self, challenge: Challenge, user: UserRef | None, limit: int = 10
    ) -> Standings:
        """A challenge's table: its best entrants and ``user``'s line. Read apart from
        the saves, as :meth:`leaderboard`."""
        ...

    # --- Swiss evenings (bot.event) ------------------------------------------------------

    async def create_event(self, event: Event) -> Event:
        """Keep a new event (its teams too); return it with its id. A chat with a live
        event already raises :class:`bot.event.EventExists` and keeps nothing."""
        ...

    async def load_event(self, event_id: int) -> Event | None:
        """An event with its teams and tables, if there is one of that id."""
        ...

    async def chat_event(self, chat: ChatRef) -> Event | None:
        """The chat's live (open or running) event, if any."""
        ...

    async def events_to_resume(self) -> list[Event]:
        """The live events and those whose end the group was not shown yet, oldest
        first (a start resumes them)."""
        ...

    async def save_event(
        self, event: Event, base: int, new_tables: Sequence[tuple[EventTable, Game]] = ()
    ) -> Event:
        """Save a change of the event in one transaction: its row (only if the stored
        one is still at version ``base``, else :class:`bot.event.StaleEvent` and
        nothing is kept), its teams, its tables' results (each written once), and
        ``new_tables``: a round's tables, each with its new game (dealt), inserted
        with it. Returns the event as saved (the new tables with their games' ids)."""
        ...

    async def game_end(self, game: Game) -> GameEnd:
        """How an ended game ended, from what its saves kept: the whole game's loser,
        its deals' results, the seats whose player walked out."""
        ...


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the epoch."""
        ...


class ChangeKind(StrEnum):
    LOBBY = "lobby"  # seats or settings changed
    STARTED = "started"  # the series began (first deal dealt)
    PLAYED = "played"  # actions were applied (events say which)
    DEALT = "dealt"  # a new deal of the series began
    REMINDER = "reminder"  # the seat to play is running out of time
    AWAY = "away"  # a human missed too many turns: a computer plays for him
    BACK = "back"  # an away human acted again
    REFUSED = "refused"  # a request the whole table hears was refused (extra: reason)
    FINISHED = "finished"  # the series is over
    CANCELLED = "cancelled"
    RESTORED = "restored"  # the bot started again: send what is owed, redraw the rest
    HANDS = "hands"  # a seat's last web page closed: its hand is shown again (hands only)


@dataclass(frozen=True, slots=True)
class Change:
    """What happened to a game, for a publisher to show."""

    kind: ChangeKind
    events: tuple[Any, ...] = ()  # the rule set's events
    seat: int | None = None
    auto: bool = False  # an automatic move for an absent human
    extra: dict[str, object] = field(default_factory=dict)
    #: The messages this change owes (saved with it): a publisher confirms each one
    #: sent with :meth:`GameService.message_sent`.
    owed: tuple[Owed, ...] = ()


class Publisher(Protocol):
    """A platform adapter's side: show a game's change to its chat and players."""

    async def publish(self, game: Game, change: Change) -> None: ...


class EventNews(StrEnum):
    """What a Swiss evening tells its group (:mod:`bot.service.events`)."""

    ROUND = "round"  # a round was paired: its tables
    STANDINGS = "standings"  # a table ended: the one standings message, edited
    FINAL = "final"  # the event is over: the final standings, as text and picture
    STOPPED = "stopped"  # the admin stopped it


class Announcer(Protocol):
    """A platform adapter's side of a Swiss evening: show its news in its chat."""

    async def announce(self, event: Event, news: EventNews) -> None: ...
