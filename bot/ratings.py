"""Skill ratings: OpenSkill's Plackett-Luce model, two teams of two (docs/ratings.md).

A player has a rating per rule set (``yard``, ``classic``) and one over every rule
set's games (:data:`EVERY`), and per chat a rating for each calendar month (UTC) of
its results, the *season*. Each is OpenSkill's ``(mu, sigma)``: the skill the games
point to and how unsure they leave it. What players see is one number, the
conservative estimate ``mu - 3 sigma`` scaled so that a new player stands at 1,000:

>>> Skill().rating, Skill(mu=30.0, sigma=3.0).rating
(1000, 1840)

A game is rated when it finished (a yard series, a classic game) with four humans at
its seats: a computer seat leaves it unrated, a cancelled game never finishes. A
human the computer played for while he was away is still at his seat: his team's
result is his. One finished game is one update, whatever its length: the winners
rank first, the losers second (no weighting by the score). The rating logic is here,
in plain Python over mappings, so every storage keeps the same numbers: it reads the
players' rows, :func:`apply` updates them, the storage writes them back in the
transaction that keeps the result.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, MutableMapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum

from bot.models import Game, GameStatus, SeatKind, UserRef

#: The model's constants: OpenSkill's defaults for Plackett-Luce (docs/ratings.md):
#: a new player's skill and its uncertainty, the spread of one game's performance,
#: the uncertainty each game adds (so a rating can still move after many games), and
#: the floor of a variance's shrink factor.
MU = 25.0
SIGMA = 25.0 / 3.0
BETA = 25.0 / 6.0
TAU = 25.0 / 300.0
KAPPA = 0.0001
#: The shown rating: ``BASE + SCALE * (mu - 3 sigma)``, rounded.
BASE = 1000
SCALE = 40
#: The rated games a player needs to appear on a leaderboard.
MIN_GAMES = 5
#: The "rule set" of the ratings over every rule set's games.
EVERY = "*"
#: How many of a player's latest changes ``/stats`` shows.
LAST_CHANGES = 5


def season_of(at: float) -> str:
    """The season of a result at ``at`` (epoch seconds): its calendar month in UTC.

    >>> season_of(0.0), season_of(1_767_225_599.0)
    ('1970-01', '2025-12')
    """
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m")


#: A season as asked: ``YYYY-MM``, the way :func:`season_of` writes it.
_SEASON = re.compile(r"([0-9]{4})-([0-9]{2})")
#: A word meant as a month: digits and separators (``2026-11``, ``11.2026``, ``2026/13``).
_MONTH_LIKE = re.compile(r"[0-9]{1,4}(?:[-./][0-9]{1,4}){1,2}")


class SeasonRefusal(StrEnum):
    """Why a month asked has no season: not written ``YYYY-MM``, or not begun."""

    MALFORMED = "malformed"
    FUTURE = "future"


class BadSeason(ValueError):
    """A month asked (``/top season 2026-11``) that names no season to show."""

    def __init__(self, reason: SeasonRefusal, asked: str) -> None:
        super().__init__(f"{reason}: {asked!r}")
        self.reason = reason
        self.asked = asked


def looks_like_month(word: str) -> bool:
    """Whether a word is meant as a month, well written or not: digits and
    separators only.

    >>> looks_like_month("2026-11"), looks_like_month("11.2026"), looks_like_month("2026")
    (True, True, False)
    >>> looks_like_month("yard"), looks_like_month("٢٠٢٦-١١")
    (False, False)
    """
    return _MONTH_LIKE.fullmatch(word) is not None


def season_named(word: str, now: float) -> str:
    """The season ``word`` names, ``YYYY-MM`` of a month that has begun by ``now``
    (the current season or a past one); :class:`BadSeason` for any other word.

    >>> season_named("2025-11", 1_765_324_800.0), season_named("2025-12", 1_765_324_800.0)
    ('2025-11', '2025-12')
    >>> season_named("2026-01", 1_765_324_800.0)
    Traceback (most recent call last):
    bot.ratings.BadSeason: future: '2026-01'
    """
    asked = word.strip()
    found = _SEASON.fullmatch(asked)
    if found is None or int(found[1]) < 1 or not 1 <= int(found[2]) <= 12:
        raise BadSeason(SeasonRefusal.MALFORMED, asked)
    if asked > season_of(now):
        raise BadSeason(SeasonRefusal.FUTURE, asked)
    return asked


def previous_season(season: str) -> str:
    """The season before ``season``.

    >>> previous_season("2026-03"), previous_season("2026-01")
    ('2026-02', '2025-12')
    """
    year, month = (int(part) for part in season.split("-"))
    return f"{year - 1:04d}-12" if month == 1 else f"{year:04d}-{month - 1:02d}"


@dataclass(frozen=True, slots=True)
class Skill:
    """One rating row: OpenSkill's estimate, the rated games and wins behind it, and
    the best rating it reached."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0
    wins: int = 0
    best: int = BASE

    @property
    def rating(self) -> int:
        return rating_of(self.mu, self.sigma)


def rating_of(mu: float, sigma: float) -> int:
    """The shown rating of ``(mu, sigma)``: ``BASE + SCALE * (mu - 3 sigma)``.

    >>> rating_of(MU, SIGMA), rating_of(30.0, 3.0)
    (1000, 1840)
    """
    return round(BASE + SCALE * (mu - 3 * sigma))


@dataclass(frozen=True, slots=True)
class RatedGame:
    """A finished game with four humans: what its ratings update needs."""

    game_id: int
    platform: str
    chat_id: str
    rule_set: str
    at: float
    #: The players' user ids by seat (teams: seats 0 and 2, seats 1 and 3).
    players: tuple[str, str, str, str]
    #: The losing team: 0 (seats 0, 2) or 1.
    loser: int

    @property
    def season(self) -> str:
        return season_of(self.at)

    def won(self, seat: int) -> bool:
        return seat % 2 != self.loser


def rated_game(game: Game, loser: int, at: float) -> RatedGame | None:
    """The rated game a finished ``game`` is (its losing team ``loser``), or None
    when it is unrated: not finished, a computer at a seat, an empty seat, or one
    user at two seats."""
    players = four_players(game)
    if game.status is not GameStatus.FINISHED or players is None:
        return None
    return RatedGame(
        game.id, game.chat.platform.value, game.chat.id, game.settings.rule_set, at, players, loser
    )


def four_players(game: Game) -> tuple[str, str, str, str] | None:
    """The user ids, by seat, of a game whose four seats are four different humans of
    its platform (the seats of a rated game, whether it is finished or not); None
    for any other game."""
    if len(game.seats) != 4:
        return None
    players: list[str] = []
    for seat in game.seats:
        if seat is None or seat.kind is not SeatKind.HUMAN or seat.user is None:
            return None
        if seat.user.platform is not game.chat.platform:
            return None
        players.append(seat.user.id)
    if len(set(players)) != 4:
        return None
    return (players[0], players[1], players[2], players[3])


#: A rating row's key: the season's ``(chat_id, season)`` (None: all-time), the
#: rule set (or :data:`EVERY`), the user id. The platform is the game's.
Key = tuple[tuple[str, str] | None, str, str]


def keys(game: RatedGame) -> list[Key]:
    """Every rating row a rated game updates, in one fixed order (the storages lock
    them in it): all-time, then the season; the rule set's, then every rule set's."""
    scopes: list[tuple[str, str] | None] = [None, (game.chat_id, game.season)]
    return [
        (scope, rule_set, user)
        for scope in scopes
        for rule_set in (game.rule_set, EVERY)
        for user in sorted(game.players)
    ]


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One player's change of a rated game, in the game's rule set (all-time)."""

    user_id: str
    seat: int
    before: int
    after: int
    won: bool

    @property
    def delta(self) -> int:
        return self.after - self.before


@dataclass(frozen=True, slots=True)
class Applied:
    """What :func:`apply` changed: the rows to write back and the game's changes."""

    skills: dict[Key, Skill] = field(default_factory=dict)
    changes: tuple[RatingChange, ...] = ()


def rate(skills: tuple[Skill, Skill, Skill, Skill], loser: int) -> tuple[Skill, ...]:
    """The four seats' skills after a game their team ``loser`` lost (seats 0 and 2
    against 1 and 3); games, wins and best move on.

    This is OpenSkill's Plackett-Luce update (the ``openskill`` package's
    ``PlackettLuce().rate`` with its default constants, Weng and Lin's Algorithm 4)
    written out for its one case here, two teams of two and no tie, so that it makes
    no rating objects: the package's own update, with its per-rating ``uuid4`` and
    deep copies, cost a migration's replay about 2 ms a game. The tests hold it to the
    package's numbers.
    """
    # Each game first widens every player's uncertainty by tau.
    sigmas = [math.sqrt(skill.sigma * skill.sigma + TAU * TAU) for skill in skills]
    winners, losers = ((1, 3), (0, 2)) if loser == 0 else ((0, 2), (1, 3))
    mu_w = skills[winners[0]].mu + skills[winners[1]].mu
    mu_l = skills[losers[0]].mu + skills[losers[1]].mu
    var_w = sigmas[winners[0]] ** 2 + sigmas[winners[1]] ** 2
    var_l = sigmas[losers[0]] ** 2 + sigmas[losers[1]] ** 2
    c = math.sqrt((var_w + BETA**2) + (var_l + BETA**2))
    e_w, e_l = math.exp(mu_w / c), math.exp(mu_l / c)
    # The chance the model gave each team to rank first.
    p_w, p_l = e_w / (e_w + e_l), e_l / (e_w + e_l)
    moves = {
        # team: its omega (how far its mean moves) and delta (how much its variance shrinks)
        winners: (1 - p_w, p_w * (1 - p_w), var_w),
        losers: (-p_l, p_l * (1 - p_l), var_l),
    }
    out: list[Skill] = []
    for seat, skill in enumerate(skills):
        team = winners if seat in winners else losers
        omega, delta, var = moves[team]
        omega *= var / c
        delta *= var / c**2
        delta *= math.sqrt(var) / c
        share = sigmas[seat] ** 2 / var
        mu = skill.mu + share * omega
        sigma = sigmas[seat] * math.sqrt(max(1 - share * delta, KAPPA))
        won = seat % 2 != loser
        rating = rating_of(mu, sigma)
        best = rating if skill.games == 0 else max(skill.best, rating)
        out.append(Skill(mu, sigma, skill.games + 1, skill.wins + int(won), best))
    return tuple(out)


def apply(game: RatedGame, book: MutableMapping[Key, Skill]) -> Applied:
    """Rate ``game`` on the rows of ``book`` (a missing row is a new player's):
    every row of :func:`keys` is updated in ``book`` and returned with the players'
    changes in the game's rule set."""
    written: dict[Key, Skill] = {}
    changes: tuple[RatingChange, ...] = ()
    for scope in (None, (game.chat_id, game.season)):
        for rule_set in (game.rule_set, EVERY):
            seat_keys = [(scope, rule_set, user) for user in game.players]
            before = tuple(book.get(key, Skill()) for key in seat_keys)
            after = rate((before[0], before[1], before[2], before[3]), game.loser)
            for key, skill in zip(seat_keys, after, strict=True):
                book[key] = written[key] = skill
            if scope is None and rule_set == game.rule_set:
                changes = tuple(
                    RatingChange(user, seat, old.rating, new.rating, game.won(seat))
                    for seat, (user, old, new) in enumerate(
                        zip(game.players, before, after, strict=True)
                    )
                )
    return Applied(written, changes)


def replay(games: Iterable[RatedGame]) -> tuple[dict[Key, Skill], list[tuple[RatedGame, Applied]]]:
    """Rate ``games`` in order from nothing: the rows they leave, and each game's
    update (what a migration keeps for a database's existing history)."""
    book: dict[Key, Skill] = {}
    done = [(game, apply(game, book)) for game in games]
    return book, done


def partners(game: RatedGame) -> list[tuple[str, str, bool]]:
    """Each player with his partner and whether they won together."""
    return [(game.players[seat], game.players[(seat + 2) % 4], game.won(seat)) for seat in range(4)]


def rows_by_key(rows: Iterable[Mapping[str, object]]) -> dict[Key, Skill]:
    """Rating rows as read (``chat_id``/``season`` None or set, ``rule_set``,
    ``user_id``, the skill's columns) by their :data:`Key`."""
    found: dict[Key, Skill] = {}
    for row in rows:
        chat, season = row.get("chat_id"), row.get("season")
        scope = None if chat is None else (str(chat), str(season))
        found[(scope, str(row["rule_set"]), str(row["user_id"]))] = Skill(
            float(row["mu"]),  # type: ignore[arg-type]
            float(row["sigma"]),  # type: ignore[arg-type]
            int(row["games"]),  # type: ignore[call-overload]
            int(row["wins"]),  # type: ignore[call-overload]
            int(row["best"]),  # type: ignore[call-overload]
        )
    return found


# --- What the screens show ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Board:
    """Which leaderboard: a rule set's (None: every rule set's), all-time or a
    chat's season (``"YYYY-MM"``), of players with ``min_games`` rated games."""

    rule_set: str | None = None
    season: str | None = None
    min_games: int = MIN_GAMES


@dataclass(frozen=True, slots=True)
class BoardRow:
    user: UserRef
    name: str
    rating: int
    games: int
    wins: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class Partner:
    user: UserRef
    name: str
    games: int
    wins: int


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """A player's rating in a rule set (:data:`EVERY`: over every rule set), for
    ``/stats``: its best, its uncertainty (``spread``, in rating points: ``SCALE *
    sigma``), his latest changes (newest first) and the partner he won most with."""

    rule_set: str
    rating: int
    best: int
    games: int
    wins: int
    spread: int
    last: tuple[int, ...] = ()
    partner: Partner | None = None
