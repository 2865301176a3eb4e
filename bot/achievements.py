"""Achievements: the game's own moments, kept once per player (issue 25).

The catalogue (:data:`CATALOGUE`) names each achievement, the rule sets it can be
earned in and its *scope*:

- ``deal``: a moment of one deal (eggs, Люся, the kocherga, a praise won, a molodka
  worth 30 or more). Any human at the table may earn it, also at a table with
  computer players; a seat the computer plays (a computer's, or an away player's)
  earns nothing;
- ``game``: the end of a whole rated game (the goats with eggs, a dry series);
- ``career``: a player's rated games (the first, the hundredth, three won in a row
  with the same partner).

A game is *rated* when it finished with four human seats (the definition the rating
uses): computers earn none, and a game with computers gives only the deal moments.

How a moment is read from a rule set's events is that rule set's presenter's work
(:meth:`bot.presenters.rule.RulePresenter.moments`: only it knows the events); this
module turns moments and a player's :class:`Progress` into :class:`Earned` rows, a
pure function of them. The service (:mod:`bot.service.awards`) saves them with the
result that earned them, in the same transaction, and owes the chat one message
announcing them. Each is kept once per player (the storages' primary key
``(platform, user_id, achievement)``): a result saved again, or an achievement
earned again, adds nothing and announces nothing.

Names and phrases are locale messages: ``achievement-<id>`` and
``achievement-<id>-phrase``.

>>> [a.id for a in CATALOGUE if a.scope is Scope.CAREER]
['three-in-a-row', 'first-rated-game', 'games-100']
>>> sorted(BY_ID["lucy"].rule_sets), BY_ID["eggs"].rule_sets
(['classic'], ('yard', 'classic'))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from bot.models import Game, SeatKind, UserRef
from core.ruleset import DealOutcome, GameOutcome

BOTH = ("yard", "classic")


class Scope(StrEnum):
    DEAL = "deal"  # a moment of one deal: humans at any table
    GAME = "game"  # the end of a rated game
    CAREER = "career"  # a player's rated games


@dataclass(frozen=True, slots=True)
class Achievement:
    """One entry of the catalogue; its words are ``achievement-<id>`` (the name) and
    ``achievement-<id>-phrase`` in the locales."""

    id: str
    icon: str
    scope: Scope
    rule_sets: tuple[str, ...] = BOTH


#: Every achievement, in the order /stats lists them.
CATALOGUE: tuple[Achievement, ...] = (
    Achievement("eggs", "🥚", Scope.DEAL),
    Achievement("lucy", "💃", Scope.DEAL, ("classic",)),
    Achievement("kocherga", "🪝", Scope.DEAL, ("classic",)),
    Achievement("praise-simple", "📣", Scope.DEAL, ("classic",)),
    Achievement("praise-pants", "👖", Scope.DEAL, ("classic",)),
    Achievement("praise-mirror", "🪞", Scope.DEAL, ("classic",)),
    Achievement("molodka-30", "👰", Scope.DEAL, ("yard",)),
    Achievement("dry-series", "🏜", Scope.GAME, ("yard",)),
    Achievement("goats-with-eggs", "🐐", Scope.GAME),
    Achievement("three-in-a-row", "🤝", Scope.CAREER),
    Achievement("first-rated-game", "🎖", Scope.CAREER),
    Achievement("games-100", "💯", Scope.CAREER),
)
BY_ID: dict[str, Achievement] = {achievement.id: achievement for achievement in CATALOGUE}
#: The catalogue's order, for sorting what a player earned.
ORDER: dict[str, int] = {achievement.id: index for index, achievement in enumerate(CATALOGUE)}

#: A molodka's trick worth this many card points or more is an achievement.
MOLODKA_POINTS = 30
#: Rated games won in a row with the same partner.
IN_A_ROW = 3
#: Rated games for ``games-100``.
GAMES = 100


@dataclass(frozen=True, slots=True)
class Moment:
    """What a rule set's events say someone earned: an achievement and the seats."""

    achievement: str
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Progress:
    """What the career achievements need of a player's rated games: how many he
    finished, the partner of the last one (a user id of his platform) and how many
    in a row he won with that partner (0: he lost the last one); and (read, not
    written with it) the achievements he has already."""

    rated_games: int = 0
    partner: str | None = None
    streak: int = 0
    earned: frozenset[str] = field(default=frozenset(), compare=False, repr=False)


NO_PROGRESS = Progress()


@dataclass(frozen=True, slots=True)
class Earned:
    """An achievement of a player: the game and the version of it that earned it."""

    user: UserRef
    achievement: str
    game_id: int
    version: int
    rule_set: str
    at: float


@dataclass(frozen=True, slots=True)
class Awards:
    """What a save keeps besides the result: the achievements earned (each kept only
    if the player has not got it yet) and the players' new progress."""

    earned: tuple[Earned, ...] = ()
    progress: tuple[tuple[UserRef, Progress], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.earned or self.progress)


def is_rated(game: Game) -> bool:
    """A game whose four seats are humans' (the rating's definition; whether it is
    finished is the caller's to know)."""
    return all(seat is not None and seat.kind is SeatKind.HUMAN for seat in game.seats)


def generic_moments(
    game: Game, deals: Iterable[DealOutcome], finished: GameOutcome | None
) -> list[Moment]:
    """The moments every rule set's outcomes tell: eggs in a deal (everybody at the
    table), the goats with eggs (the losers)."""
    moments = [Moment("eggs", (0, 1, 2, 3)) for deal in deals if deal.eggs]
    if finished is not None and finished.with_eggs:
        moments.append(Moment("goats-with-eggs", finished.loser.seats))
    return moments


def career(progress: Progress, partner: str, won: bool) -> tuple[Progress, list[str]]:
    """A player's progress after a rated game with ``partner``, and the career
    achievements it reaches. Reaching is "at least": one missed (two games of the
    player saved at once) is given by his next rated game.

    >>> after, earned = career(Progress(1, "7", 2), "7", won=True)
    >>> after.rated_games, after.streak, earned
    (2, 3, ['three-in-a-row', 'first-rated-game'])
    >>> career(after, "8", won=True)[0].streak, career(after, "7", won=False)[0].streak
    (1, 0)
    """
    if not won:
        streak = 0
    elif partner == progress.partner and progress.streak > 0:
        streak = progress.streak + 1
    else:
        streak = 1
    after = Progress(progress.rated_games + 1, partner, streak, progress.earned)
    earned = []
    if after.streak >= IN_A_ROW:
        earned.append("three-in-a-row")
    if after.rated_games >= 1:
        earned.append("first-rated-game")
    if after.rated_games >= GAMES:
        earned.append("games-100")
    return after, earned


def decide(
    game: Game,
    moments: Sequence[Moment],
    finished: GameOutcome | None,
    progress: Mapping[UserRef, Progress],
    *,
    version: int,
    at: float,
) -> Awards:
    """What a change of ``game`` earned: its moments for the humans they name, and
    when a rated game finished (``finished``) its game and career achievements, from
    each player's ``progress`` before it (missing: none yet). What a player has
    already is not earned again."""
    rated = finished is not None and is_rated(game)
    rule_set = game.settings.rule_set
    earned: dict[tuple[UserRef, str], Earned] = {}

    def give(seat: int, achievement: str) -> None:
        player = game.seats[seat]
        if player is None or player.kind is not SeatKind.HUMAN or player.user is None:
            return
        known = BY_ID.get(achievement)
        if known is None or rule_set not in known.rule_sets:
            return
        if known.scope is Scope.DEAL and player.away:
            return  # the computer played his seat
        if known.scope is not Scope.DEAL and not rated:
            return
        key = (player.user, achievement)
        if achievement in progress.get(player.user, NO_PROGRESS).earned:
            return
        earned.setdefault(key, Earned(player.user, achievement, game.id, version, rule_set, at))

    for moment in moments:
        for seat in moment.seats:
            give(seat, moment.achievement)
    changed: list[tuple[UserRef, Progress]] = []
    if rated and finished is not None:
        for seat, player in enumerate(game.seats):
            partner = game.seats[(seat + 2) % 4]
            if player is None or player.user is None or partner is None or partner.user is None:
                continue
            before = progress.get(player.user, NO_PROGRESS)
            won = seat % 2 == int(finished.winner)
            after, reached = career(before, partner.user.id, won)
            changed.append((player.user, after))
            for achievement in reached:
                give(seat, achievement)
    return Awards(tuple(earned.values()), tuple(changed))


def sorted_earned(earned: Iterable[Earned]) -> list[Earned]:
    """In the catalogue's order (an id no longer in it last)."""
    return sorted(earned, key=lambda e: (ORDER.get(e.achievement, len(ORDER)), e.at))
