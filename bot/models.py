"""The application's records: users, chats, tables (games) and their seats.

A *game* is one table in one chat: it starts as a lobby, plays a game of its rule
set (the core's contract, :class:`core.ruleset.Game`: for the yard game a series of
deals) and ends finished or cancelled. Only one open game per chat. The game's
``version`` grows with every accepted change; every button carries it, so a stale or
repeated press is refused.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from core.ruleset import DEFAULT_LEVEL, AnyGame, RuleOptions, get_rule_set


class Platform(StrEnum):
    TELEGRAM = "telegram"
    DISCORD = "discord"
    CONSOLE = "console"


@dataclass(frozen=True, slots=True, order=True)
class UserRef:
    """A user of one platform; ids are kept as text (Discord ids exceed 2**53)."""

    platform: Platform
    id: str


@dataclass(frozen=True, slots=True, order=True)
class ChatRef:
    """A chat of one platform; ``thread`` is a forum topic (Telegram) if any.

    ``language`` is the platform's word on the chat's language (a Discord server's
    preferred locale), if it has one: the chat's default until somebody chooses one
    with /lang. It is a hint, not part of the chat's identity.
    """

    platform: Platform
    id: str
    thread: str | None = None
    language: str | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class User:
    ref: UserRef
    name: str
    locale: str | None = None  # chosen with /lang, else the platform's language


class SeatKind(StrEnum):
    HUMAN = "human"
    COMPUTER = "computer"


@dataclass(frozen=True, slots=True)
class Seat:
    """Who sits at a seat. A human who misses several turns in a row is *away*: a
    computer player plays for him until he acts again."""

    kind: SeatKind
    name: str
    user: UserRef | None = None
    level: str = "normal"
    missed: int = 0
    away: bool = False

    @property
    def is_computer(self) -> bool:
        return self.kind is SeatKind.COMPUTER

    @property
    def plays_itself(self) -> bool:
        """Whether a computer player chooses this seat's moves now."""
        return self.kind is SeatKind.COMPUTER or self.away

    def with_(self, **changes: object) -> Seat:
        return replace(self, **changes)  # type: ignore[arg-type]


class GameStatus(StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"

    @property
    def is_open(self) -> bool:
        return self in (GameStatus.LOBBY, GameStatus.PLAYING)


#: Turn timeouts a table may choose, in seconds (0: no timeout).
TURN_TIMEOUTS = (0, 30, 60, 120, 300)


@dataclass(frozen=True, slots=True)
class TableSettings:
    """A table's settings, chosen in the lobby: its rule set (an id of
    :func:`core.ruleset.get_rule_set`) and that rule set's options (the JSON object
    of :meth:`core.ruleset.RuleSet.options`; ``{}``: every default)."""

    rule_set: str = "yard"
    turn_timeout: int = 120
    locale: str = "ru"
    computer_level: str = DEFAULT_LEVEL
    #: The seed the series was shuffled with (``kozel play --seed``), kept for its record.
    seed: int | None = None
    options: dict[str, Any] = field(default_factory=dict, hash=False)
    #: Which page the lobby shows: "" its seats, "o" the rule set's options (kept with
    #: the game, so every process and a restart show the same page).
    lobby_page: str = ""
    #: The duplicate challenge (its id) and its deal (from 0) the table plays, if any
    #: (:mod:`bot.challenge`): its game ends with that deal.
    challenge: str | None = None
    challenge_deal: int | None = None
    #: The Swiss evening (its id) this table is one of, if any (:mod:`bot.event`), and
    #: the deals it is cut to (0: the whole game).
    event: int | None = None
    event_deals: int = 0

    def rule_options(self) -> RuleOptions:
        """The options, validated by the rule set (raises
        :class:`~core.errors.KozelError` for bad ones)."""
        return get_rule_set(self.rule_set).options(self.options)

    def new_game(self, *, first_dealer: int = 3) -> AnyGame:
        """A new game of the rule set with these options, not dealt yet."""
        rule_set = get_rule_set(self.rule_set)
        return rule_set.new_game(None, rule_set.options(self.options), first_dealer=first_dealer)


@dataclass(slots=True)
class Game:
    """One table: lobby, series in play, or over."""

    id: int
    chat: ChatRef
    creator: UserRef
    status: GameStatus = GameStatus.LOBBY
    settings: TableSettings = field(default_factory=TableSettings)
    seats: list[Seat | None] = field(default_factory=lambda: [None, None, None, None])
    #: The game of the table's rule set (None when made: a new one of the settings').
    play: AnyGame = None  # type: ignore[assignment]
    version: int = 0
    created_at: float = 0.0
    updated_at: float = 0.0
    #: When the seat to play runs out of time (epoch seconds), and whether reminded.
    turn_deadline: float | None = None
    reminded: bool = False
    #: Platform message ids the adapter keeps for this game ("table", "hand:0", ...).
    messages: dict[str, str] = field(default_factory=dict)
    #: The game this one is a rematch of.
    rematch_of: int | None = None

    def __post_init__(self) -> None:
        if self.play is None:
            self.play = self.settings.new_game()

    def seat_of(self, user: UserRef) -> int | None:
        """The seat a user sits at, if any."""
        for index, seat in enumerate(self.seats):
            if seat is not None and seat.user == user:
                return index
        return None

    @property
    def humans(self) -> list[tuple[int, Seat]]:
        return [
            (index, seat)
            for index, seat in enumerate(self.seats)
            if seat is not None and seat.kind is SeatKind.HUMAN
        ]

    @property
    def is_full(self) -> bool:
        return all(seat is not None for seat in self.seats)
