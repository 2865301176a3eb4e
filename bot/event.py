"""The Swiss evening: an event of rounds played by pairs of partners in a group
(docs/tournaments.md, "Swiss evening").

A group's admin opens an event; players register as teams of two (one opens a *new
pair*, another *joins* its open seat); the admin starts it. Each round is paired by
:func:`core.swiss.pair_round` (score, then rating, no rematch where possible) and each
table is an ordinary game of the group, linked to its event (``TableSettings.event``).
An odd count gives one team the *bye*: it plays the team of computers, a table like
any other. When every table of a round has a result the next round is paired; after
the last one the event is over.

This module holds the event's values and its rules that need no I/O: the teams, the
tables and their results, the scores, the next round's entrants, a table's result
from how its game ended (:func:`table_result`), and the ``/event open`` words
(:func:`parse_open`). :mod:`bot.service.events` runs it.

>>> teams = (Team(1, (P1, P2)), Team(2, (P3, P4)))
>>> event = Event(1, CHAT, P1.user, "yard", rounds=1, teams=teams,
...               tables=(EventTable(1, 1, 1, 2, 7, TableResult.B),))
>>> event.score(1), event.score(2), [sorted(pair) for pair in event.met()]
(0, 1, [['1', '2']])
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from bot.errors import ServiceError
from bot.models import ChatRef, Platform, UserRef
from core.seats import Team as Side
from core.swiss import Entrant

#: Players an event takes: at least four complete teams to start, at most 32 teams.
MIN_TEAMS = 4
MAX_TEAMS = 32
#: Rounds an admin may ask for.
MIN_ROUNDS, MAX_ROUNDS = 1, 9
#: Deals a table may be cut to (``deals N``); 0: the whole game (a yard series to 12).
MAX_DEALS = 9
#: The computers' level at a bye's table.
BYE_LEVEL = "normal"


class EventState(StrEnum):
    OPEN = "open"  # registration
    RUNNING = "running"
    FINISHED = "finished"
    STOPPED = "stopped"

    @property
    def is_live(self) -> bool:
        return self in (EventState.OPEN, EventState.RUNNING)


class TableResult(StrEnum):
    """A table's result: team A (the table's first, higher-ranked team) won, team B
    (or the computers at a bye's table) won, or neither (both lose)."""

    A = "a"
    B = "b"
    NONE = "none"


class EventError(StrEnum):
    """Why an event request was refused (``err-<code>`` locale ids)."""

    NOT_ADMIN = "event-not-admin"  # only an admin of the group opens, starts, kicks, stops
    IN_PRIVATE = "event-in-private"  # an event is a group's
    EXISTS = "event-exists"  # the chat has an event open or running
    NONE = "event-none"  # the chat has no event (or the press names another)
    NOT_OPEN = "event-not-open"  # registration is over
    FULL = "event-full"  # 32 teams
    REGISTERED = "event-registered"  # the player is in a team already
    NOT_REGISTERED = "event-not-registered"
    PAIR_FULL = "event-pair-full"  # the pair has both its players
    NO_PAIR = "event-no-pair"  # no such team
    TOO_FEW = "event-too-few"  # fewer than four complete teams
    BAD_ROUNDS = "event-bad-rounds"
    BAD_RELIABILITY = "event-bad-reliability"
    BAD_DEALS = "event-bad-deals"
    BAD_WORDS = "event-bad-words"
    UNRELIABLE = "event-unreliable"  # below the minimum (the alert names both)


class EventRefused(ServiceError):
    """A refused event request whose line names numbers (``values``: the player's
    reliability and the event's minimum)."""

    def __init__(self, code: str, **values: int) -> None:
        super().__init__(code)
        self.values = values


class StaleEvent(Exception):
    """The stored event is no longer at the version a change started from (another
    process saved it first), or a round being inserted is there already: nothing of
    the change was kept."""


class EventExists(Exception):
    """The chat has a live (open or running) event already."""


@dataclass(frozen=True, slots=True)
class Player:
    user: UserRef
    name: str


@dataclass(frozen=True, slots=True)
class Team:
    """A team by its number (from 1, in the order of registration): one player while
    its second seat is open, then two. ``withdrawn``: kicked out by the admin (it plays
    no more rounds; its results stay)."""

    number: int
    players: tuple[Player, ...]
    withdrawn: bool = False

    @property
    def complete(self) -> bool:
        return len(self.players) == 2

    @property
    def id(self) -> str:
        """Its id for :mod:`core.swiss`."""
        return str(self.number)

    def has(self, user: UserRef) -> bool:
        return any(p.user == user for p in self.players)


@dataclass(frozen=True, slots=True)
class EventTable:
    """Table ``number`` of round ``round``: team ``team_a`` (seats 0 and 2) against
    ``team_b`` (seats 1 and 3; None: the computers, a bye), played as game
    ``game_id``; ``result`` once it ended."""

    round: int
    number: int
    team_a: int
    team_b: int | None
    game_id: int
    result: TableResult | None = None

    @property
    def key(self) -> tuple[int, int, int, int | None, int]:
        """Everything but the result."""
        return (self.round, self.number, self.team_a, self.team_b, self.game_id)

    def lost_by(self, team: int) -> TableResult:
        """The result of this table lost by ``team`` (kicked out)."""
        return TableResult.B if team == self.team_a else TableResult.A

    def points(self, team: int) -> int:
        """What the table gave ``team``: 1 for a win, else 0."""
        if self.result is TableResult.A:
            return int(team == self.team_a)
        return int(self.result is TableResult.B and team == self.team_b)


@dataclass(frozen=True, slots=True)
class Event:
    """An event as saved; ``version`` grows with every saved change."""

    id: int
    chat: ChatRef
    opener: UserRef
    rule_set: str
    options: dict[str, Any] = field(default_factory=dict, hash=False)
    deals: int = 0
    rounds: int = 0  # 0: chosen at the start from the number of teams
    min_reliability: int = 0
    locale: str = "ru"
    state: EventState = EventState.OPEN
    round: int = 0
    version: int = 1
    standings_message: str | None = None
    #: The last round whose tables the group was shown; the final (or stopped)
    #: standings sent. A start shows again what a killed process had not sent.
    round_shown: int = 0
    end_shown: bool = False
    created_at: float = 0.0
    finished_at: float | None = None
    teams: tuple[Team, ...] = ()
    tables: tuple[EventTable, ...] = ()

    def team(self, number: int) -> Team | None:
        return next((t for t in self.teams if t.number == number), None)

    def team_of(self, user: UserRef) -> Team | None:
        return next((t for t in self.teams if t.has(user)), None)

    @property
    def playing(self) -> list[Team]:
        """The complete teams not withdrawn: those paired."""
        return [t for t in self.teams if t.complete and not t.withdrawn]

    def score(self, team: int) -> int:
        return sum(t.points(team) for t in self.tables)

    def round_tables(self, number: int | None = None) -> list[EventTable]:
        number = self.round if number is None else number
        return [t for t in self.tables if t.round == number]

    @property
    def round_over(self) -> bool:
        return all(t.result is not None for t in self.round_tables())

    def met(self) -> list[frozenset[str]]:
        return [
            frozenset((str(t.team_a), str(t.team_b))) for t in self.tables if t.team_b is not None
        ]

    def byes(self) -> list[str]:
        return [str(t.team_a) for t in self.tables if t.team_b is None]

    def entrants(self, ratings: dict[int, float]) -> list[Entrant]:
        return [Entrant(t.id, self.score(t.number), ratings.get(t.number, 0.0)) for t in self.teams]

    def table_of(self, game_id: int) -> EventTable | None:
        return next((t for t in self.tables if t.game_id == game_id), None)

    def with_(self, **changes: Any) -> Event:
        return replace(self, **changes)


def default_rounds(teams: int) -> int:
    """``ceil(log2(teams))`` within the rounds allowed, and fewer than the teams (a
    round more would need a rematch).

    >>> [default_rounds(n) for n in (4, 5, 8, 9, 16, 32)]
    [2, 3, 3, 4, 4, 5]
    """
    wanted = math.ceil(math.log2(max(teams, 2)))
    return max(MIN_ROUNDS, min(wanted, MAX_ROUNDS, max(teams - 1, 1)))


@dataclass(frozen=True, slots=True)
class OpenWords:
    """What ``/event open`` asked for."""

    rule_set: str | None = None
    rounds: int = 0
    min_reliability: int = 0
    deals: int = 0


def parse_open(words: Sequence[str], rule_sets: Sequence[str]) -> OpenWords:
    """``[yard|classic] [rounds N] [min-reliability P] [deals N]``, in any order;
    raises :class:`ValueError` with an :class:`EventError` code.

    >>> parse_open(["classic", "rounds", "3", "min-reliability", "80"], ["yard", "classic"])
    OpenWords(rule_set='classic', rounds=3, min_reliability=80, deals=0)
    >>> parse_open(["rounds", "12"], ["yard"])
    Traceback (most recent call last):
    ValueError: event-bad-rounds
    """
    found: dict[str, Any] = {}
    bounds = {
        "rounds": (MIN_ROUNDS, MAX_ROUNDS, EventError.BAD_ROUNDS),
        "min-reliability": (0, 100, EventError.BAD_RELIABILITY),
        "deals": (1, MAX_DEALS, EventError.BAD_DEALS),
    }
    names = {
        "rounds": "rounds",
        "раунды": "rounds",
        "раундов": "rounds",
        "min-reliability": "min-reliability",
        "надёжность": "min-reliability",
        "надежность": "min-reliability",
        "deals": "deals",
        "раздачи": "deals",
        "раздач": "deals",
    }
    items = [w.strip().lower() for w in words if w.strip()]
    index = 0
    while index < len(items):
        word = items[index]
        if word in rule_sets and "rule_set" not in found:
            found["rule_set"] = word
            index += 1
            continue
        name = names.get(word)
        if name is None:
            raise ValueError(EventError.BAD_WORDS)
        low, high, error = bounds[name]
        value = items[index + 1].rstrip("%") if index + 1 < len(items) else ""
        if not value.isdigit() or not low <= int(value) <= high or name in found:
            raise ValueError(error)
        found[name] = int(value)
        index += 2
    return OpenWords(
        rule_set=found.get("rule_set"),
        rounds=found.get("rounds", 0),
        min_reliability=found.get("min-reliability", 0),
        deals=found.get("deals", 0),
    )


@dataclass(frozen=True, slots=True)
class GameEnd:
    """How an event table's game ended, as saved: ``loser`` of the whole game (None:
    it did not finish, or was cut to a number of deals), each deal's loss score and
    winner, and the seats whose player walked out (:mod:`bot.reliability`)."""

    finished: bool
    loser: Side | None = None
    deals: tuple[tuple[int, int, Side | None], ...] = ()
    walked_out: frozenset[int] = frozenset()


def table_result(end: GameEnd, *, bye: bool, loss_sign: int = 1) -> TableResult:
    """A table's result from how its game ended.

    - One team walked out (a player of it stopped the game, or was away by the clock
      when it ended): it loses. Both teams: both lose (``NONE``).
    - A bye's table that did not finish (stopped by the admin): the team loses.
    - Otherwise a game stopped by an admin: both lose; a finished game: its winner;
      a game cut to N deals: the team with the better sum of the deals' scores
      (``loss_sign``: 1 when a score is a loss, as the yard game's loss points; -1
      when it is a gain), a tie to the winner of the last deal won, all eggs: ``NONE``.

    >>> table_result(GameEnd(True, Side.A), bye=False)
    <TableResult.B: 'b'>
    >>> table_result(GameEnd(True, Side.A, walked_out=frozenset({1})), bye=False)
    <TableResult.A: 'a'>
    >>> table_result(GameEnd(True, None, ((2, 0, Side.B), (0, 2, Side.A))), bye=False)
    <TableResult.A: 'a'>
    """
    sides = {seat % 2 for seat in end.walked_out}
    if len(sides) == 2:
        return TableResult.NONE
    if sides:
        return TableResult.B if sides == {0} else TableResult.A
    if not end.finished:
        return TableResult.B if bye else TableResult.NONE
    if end.loser is not None:
        return TableResult.B if end.loser is Side.A else TableResult.A
    balance = sum(loss_sign * (a - b) for a, b, _ in end.deals)  # > 0: A did worse
    if balance:
        return TableResult.B if balance > 0 else TableResult.A
    winners = [w for _, _, w in end.deals if w is not None]
    if not winners:
        return TableResult.NONE
    return TableResult.A if winners[-1] is Side.A else TableResult.B


def check_open(event: Event, chat: ChatRef) -> None:
    """Refuse a registration unless the event is ``chat``'s and open (a press of
    another chat's event, forged or not, names none here)."""
    if (event.chat.platform, event.chat.id) != (chat.platform, chat.id):
        raise ServiceError(EventError.NONE)
    if event.state is not EventState.OPEN:
        raise ServiceError(EventError.NOT_OPEN)


#: A doctest's teams.
P1, P2, P3, P4 = (Player(UserRef(Platform.TELEGRAM, str(n)), f"P{n}") for n in range(1, 5))
CHAT = ChatRef(Platform.TELEGRAM, "-1")
