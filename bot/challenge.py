"""The duplicate challenge: the same seeded deals for every entrant, his score against
the field's (docs/tournaments.md, "Duplicate challenge").

A challenge is a fixed list of deals of one rule set with its options: a daily one per
rule set (``yard-2026-12-04``, made on first use for the UTC day) or a custom one (a
short random id). Deal *k* of a challenge is dealt the same for everyone: its
dealer and its shuffle come from an HMAC of (challenge id, *k*) keyed with a secret
of the database (:func:`deal_seed`), so nothing stored or sent before an entrant
starts deal *k* tells its cards.

An entrant plays each deal as a game of its own, at seat 0, his partner and opponents
the strong computer. The deal's result for him is his *loss*: what the deal gives his
side to lose, positive when it costs his team (yard: the loss points his side took
less those the opponents took; classic: the pairs the opponents scored less his):
:func:`loss`. Duplicate scoring: per deal, the field's average loss less his; his
score is the sum over the deals he played (:func:`score`).

>>> totals = {0: DealTotal(3, 6), 1: DealTotal(2, -2)}
>>> score({0: 4, 1: -1}, totals)  # (2 - 4) + (-1 - -1)
-2.0
"""

from __future__ import annotations

import hashlib
import hmac
import random
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from bot.models import UserRef
from core.ruleset import DealOutcome, get_rule_set, rule_set_ids
from core.seats import Team

#: The name of the database secret the deals are derived from (:meth:`Storage.secret`).
SECRET_NAME = "challenge-deals"
#: How many deals a challenge of each rule set has: a yard deal is short (eight
#: tricks of four cards at most), a classic one twice as long.
DEALS = {"yard": 8, "classic": 4}
#: The most deals any challenge has (the storage keeps a player's deals as bits).
MAX_DEALS = 8
#: The computer level of every seat but the entrant's: the same for everybody.
LEVEL = "strong"
#: Each rule set's sign of ``loss_a - loss_b`` (what a deal wrote for team A less
#: what it wrote for team B) as the entrant's loss: the yard game writes loss points
#: (bad for whom they are written), classic writes pairs (good for whom).
LOSS_SIGN = {"yard": 1, "classic": -1}
#: The seat an entrant plays (team A); his partner is seat 2.
SEAT = 0
#: The words that ask for the day's challenge of the default rules.
DAILY_WORDS = frozenset({"daily", "today", "день", "сегодня"})
#: The words that ask for a new custom challenge.
NEW_WORDS = frozenset({"new", "новый", "новая"})

_DAILY = re.compile(r"^([a-z]+)-(\d{4}-\d{2}-\d{2})$")
_CUSTOM = re.compile(r"^[a-z0-9]{6}$")
_CUSTOM_LETTERS = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i


class ChallengeError(StrEnum):
    """Why a challenge request was refused (``err-<code>`` locale ids)."""

    UNKNOWN = "challenge-unknown"  # no such challenge (or a malformed id)
    NOT_YET = "challenge-not-yet"  # a daily one of a day not begun
    DONE = "challenge-done"  # every deal of it played
    IN_GROUP = "challenge-in-group"  # asked in a group: deals are played in private
    NO_STOP = "challenge-no-stop"  # a challenge deal is played out, never stopped
    NO_REMATCH = "challenge-no-rematch"  # a challenge deal has no rematch


@dataclass(frozen=True, slots=True)
class Challenge:
    """One challenge: its id, rules and options, and how many deals it has."""

    id: str
    rule_set: str
    options: dict[str, Any] = field(default_factory=dict, hash=False)
    deals: int = 8
    created_at: float = 0.0

    @property
    def loss_sign(self) -> int:
        return LOSS_SIGN[self.rule_set]


@dataclass(frozen=True, slots=True)
class Play:
    """A deal of a challenge an entrant started: its game, and his loss once it is
    over (None while it is being played)."""

    deal: int
    game_id: int
    loss: int | None = None


@dataclass(frozen=True, slots=True)
class DealTotal:
    """What the field did in one deal: how many played it to its end, and the sum
    of their losses."""

    plays: int
    loss: int

    @property
    def average(self) -> float:
        return self.loss / self.plays if self.plays else 0.0


@dataclass(frozen=True, slots=True)
class Standing:
    """An entrant's line of a challenge's table."""

    place: int
    user: UserRef
    name: str
    score: float
    deals: int


@dataclass(frozen=True, slots=True)
class Standings:
    """A challenge's table: its best entrants, the asker's own line (None: he has
    finished no deal of it) and how many entrants finished a deal."""

    challenge: Challenge
    top: tuple[Standing, ...]
    own: Standing | None
    entrants: int
    #: Each deal's field (deals nobody finished are left out).
    totals: Mapping[int, DealTotal] = field(default_factory=dict, hash=False)


class DealTaken(Exception):
    """The entrant started that deal already (another request, another process): his
    game of it is the one to resume."""


def daily_id(rule_set: str, now: float) -> str:
    """The id of the day's challenge of a rule set (the UTC day of ``now``).

    >>> daily_id("yard", 1_796_342_400.0)
    'yard-2026-12-04'
    """
    return f"{rule_set}-{datetime.fromtimestamp(now, UTC).date().isoformat()}"


def custom_id(rng: random.Random | None = None) -> str:
    """A new custom challenge's id: six letters and digits easy to read aloud."""
    pick = (rng or secrets.SystemRandom()).choice
    return "".join(pick(_CUSTOM_LETTERS) for _ in range(6))


def well_formed(challenge_id: str) -> bool:
    """Whether ``challenge_id`` could name a challenge (a daily or a custom id).

    >>> well_formed("yard-2026-12-04"), well_formed("k7m2xq"), well_formed("../x")
    (True, True, False)
    """
    return bool(_CUSTOM.match(challenge_id)) or daily_of(challenge_id) is not None


def daily_of(challenge_id: str) -> tuple[str, str] | None:
    """The rule set and the day (``YYYY-MM-DD``) a daily challenge's id names, or None.

    >>> daily_of("classic-2026-12-04"), daily_of("chess-2026-12-04"), daily_of("yard-2026-13-01")
    (('classic', '2026-12-04'), None, None)
    """
    match = _DAILY.match(challenge_id)
    if match is None or match[1] not in rule_set_ids():
        return None
    try:
        datetime.strptime(match[2], "%Y-%m-%d")
    except ValueError:
        return None
    return match[1], match[2]


def daily_challenge(challenge_id: str, now: float) -> Challenge | None:
    """The daily challenge ``challenge_id`` names, made afresh (its rule set's default
    options), or None for an id that names none or a day after ``now``'s."""
    found = daily_of(challenge_id)
    if found is None:
        return None
    rule_set, day = found
    if day > datetime.fromtimestamp(now, UTC).date().isoformat():
        return None
    return Challenge(challenge_id, rule_set, {}, DEALS[rule_set], now)


def new_challenge(
    rule_set: str, options: Mapping[str, Any], now: float, rng: random.Random | None = None
) -> Challenge:
    """A new custom challenge of a rule set and its options (checked by the rules:
    raises :class:`~core.errors.KozelError` for bad ones)."""
    get_rule_set(rule_set).options(options)
    return Challenge(custom_id(rng), rule_set, dict(options), DEALS[rule_set], now)


def deal_seed(secret: bytes, challenge_id: str, deal: int) -> tuple[int, int]:
    """Deal ``deal`` of a challenge: its first dealer (a seat) and the seed of its
    shuffle, both from an HMAC-SHA256 of (challenge id, deal number) keyed with the
    database's secret: the same for every entrant, unknown to anyone without it.

    >>> deal_seed(b"k" * 32, "yard-2026-12-04", 0) == deal_seed(b"k" * 32, "yard-2026-12-04", 0)
    True
    >>> deal_seed(b"k" * 32, "yard-2026-12-04", 0) != deal_seed(b"k" * 32, "yard-2026-12-04", 1)
    True
    """
    digest = hmac.new(secret, f"{challenge_id}\n{deal}".encode(), hashlib.sha256).digest()
    return digest[0] % 4, int.from_bytes(digest[1:17], "big")


def loss(challenge: Challenge, outcome: DealOutcome) -> int:
    """The entrant's loss in a deal (he plays team A): what it cost his side.

    >>> yard = Challenge("yard-2026-12-04", "yard")
    >>> loss(yard, DealOutcome(0, Team.B, (40, 80), (1, 3), (2, 0), False))
    2
    >>> classic = Challenge("k7m2xq", "classic")
    >>> loss(classic, DealOutcome(0, Team.A, (80, 40), (5, 3), (1, 0), False))
    -1
    """
    assert Team(SEAT % 2) is Team.A
    return challenge.loss_sign * (outcome.score[0] - outcome.score[1])


def score(losses: Mapping[int, int], totals: Mapping[int, DealTotal]) -> float:
    """An entrant's duplicate score: over the deals he played (``losses`` by deal), the
    field's average loss in that deal (``totals``, his own play counted) less his."""
    return sum(totals[deal].average - lost for deal, lost in losses.items())


def next_deal(challenge: Challenge, plays: list[Play]) -> Play | int | None:
    """What an entrant plays next: the started deal not over yet (to resume), else the
    number of his first unplayed deal, else None (he played them all)."""
    for play in plays:
        if play.loss is None:
            return play
    started = {play.deal for play in plays}
    for deal in range(challenge.deals):
        if deal not in started:
            return deal
    return None


def rank_key(points: float) -> int:
    """A score as the table ranks it: in millionths (a sum of averages in floating
    point: two equal scores may differ in their last bits)."""
    return round(points * 1_000_000)


def table(
    challenge: Challenge,
    entrants: Mapping[UserRef, tuple[str, Mapping[int, int]]],
    user: UserRef | None,
    limit: int = 10,
) -> Standings:
    """A challenge's table from every entrant's name and losses by deal (deals over
    only): the best ``limit`` by score (then name), places shared by equal scores, and
    ``user``'s line. What a storage keeping every result in memory answers.

    >>> from bot.models import Platform
    >>> ann, bob = UserRef(Platform.CONSOLE, "ann"), UserRef(Platform.CONSOLE, "bob")
    >>> losses = {ann: ("Ann", {0: 2}), bob: ("Bob", {0: 0})}
    >>> found = table(Challenge("k7m2xq", "yard"), losses, ann)
    >>> [(s.place, s.name, s.score) for s in found.top], found.own.place
    ([(1, 'Bob', 1.0), (2, 'Ann', -1.0)], 2)
    """
    sums: dict[int, list[int]] = {}
    for _, losses in entrants.values():
        for deal, lost in losses.items():
            total = sums.setdefault(deal, [0, 0])
            total[0] += 1
            total[1] += lost
    totals = {deal: DealTotal(plays, lost) for deal, (plays, lost) in sums.items()}
    scored = sorted(
        (
            (score(losses, totals), name, who.id, who, len(losses))
            for who, (name, losses) in entrants.items()
            if losses
        ),
        key=lambda line: (-rank_key(line[0]), line[1], line[2]),
    )
    lines: list[Standing] = []
    for index, (points, name, _, who, deals) in enumerate(scored):
        same = lines and rank_key(lines[-1].score) == rank_key(points)
        lines.append(Standing(lines[-1].place if same else index + 1, who, name, points, deals))
    own = next((line for line in lines if line.user == user), None)
    return Standings(challenge, tuple(lines[:limit]), own, len(lines), totals)
