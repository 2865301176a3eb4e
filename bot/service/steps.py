"""The play step every job that moves a game on takes (a human's action, a computer's,
a move for a player out of time): apply an action in memory, deal on, set the turn's
clock, then save the steps in one transaction and publish what they changed."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from bot.achievements import Moment
from bot.errors import ServiceError
from bot.models import Game, GameStatus, UserRef
from bot.ports import Change, ChangeKind, LoggedAction, Owed, OwedKind
from bot.reliability import endings
from bot.service.awards import Awarding, owed_after
from bot.service.publishing import Publishing
from bot.service.tables import Tables
from core.ruleset import DealOutcome, GameOutcome

log = logging.getLogger(__name__)

#: An action or an event of the game's rule set (the service only passes them on).
Action = Any
Event = Any


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a request did: the game as it is now, and the events it caused."""

    game: Game
    events: tuple[Event, ...] = ()


@dataclass(frozen=True, slots=True)
class Step:
    """One applied action, not saved yet: what it logs, reached and set off."""

    action: Action
    auto: bool
    events: list[Event]
    dealt: list[Event]
    logged: LoggedAction
    scored: list[DealOutcome]
    finished: list[GameOutcome]
    #: The achievements' moments its events told (:mod:`bot.achievements`).
    moments: tuple[Moment, ...] = ()


class Steps:
    """Moves games on: :meth:`advance` in memory, :meth:`commit` saves and publishes."""

    def __init__(self, tables: Tables, publishing: Publishing) -> None:
        self.tables = tables
        self.publishing = publishing
        #: What the steps earn (achievements), saved with their results.
        self.awarding = Awarding(tables)
        #: Told of the events a game's table saw (its computer players watch them).
        self.on_advanced: list[Callable[[Game, list[Event]], None]] = []

    async def apply(
        self, game: Game, action: Action, *, user: UserRef | None, auto: bool = False
    ) -> list[Event]:
        """Apply a checked action, deal on or finish, save, publish. Holds the lock."""
        step = self.advance(game, action, user=user, auto=auto)
        await self.commit(game, [step])
        return step.events + step.dealt

    def advance(
        self, game: Game, action: Action, *, user: UserRef | None, auto: bool = False
    ) -> Step:
        """Apply a checked action to the game in memory (dealing on after a scored
        deal) and let the computer players see it; :meth:`commit` saves it."""
        play = game.play
        events = list(play.apply(action))
        game.version += 1
        logged = LoggedAction(
            game_id=game.id,
            version=game.version,
            seat=action.seat,
            user=user,
            action=play.action_to_json(action),
            at=self.tables.clock.now(),
            auto=auto,
        )
        outcomes = [play.outcome(event) for event in events]
        scored = [o for o in outcomes if isinstance(o, DealOutcome)]
        finished = [o for o in outcomes if isinstance(o, GameOutcome)]
        moments = self.awarding.moments(game, events, scored, finished)  # before a new deal
        dealt: list[Event] = []
        cut = game.settings.event_deals  # an event's table cut to its deals
        if (
            finished
            or play.is_over
            or (scored and game.settings.challenge is not None)
            or (scored and cut and scored[-1].number + 1 >= cut)  # numbers count from 0
        ):
            game.status = GameStatus.FINISHED  # a challenge's game is one deal
        elif play.needs_deal:
            dealt = list(play.deal(self.tables.rng))
        self.set_deadline(game)
        for hook in self.on_advanced:
            hook(game, events + dealt)
        return Step(action, auto, events, dealt, logged, scored, finished, moments)

    async def commit(self, game: Game, steps: list[Step]) -> None:
        """Save the steps' actions and results in one transaction, then publish what
        each changed. If the save fails the cached game (and what the computer players
        saw) is dropped: the next request reloads the last saved state."""
        scored = [outcome for step in steps for outcome in step.scored]
        finished = [outcome for step in steps for outcome in step.finished]
        owed = tuple(owed for step in steps for owed in _owed(game.id, step))
        try:
            awards = await self.awarding.awards(
                game,
                (moment for step in steps for moment in step.moments),
                finished[-1] if finished else None,
                version=game.version,
            )
            owed += tuple(owed_after(game.id, game.version, owed, awards))
            await self.tables.save(
                game,
                [step.logged for step in steps],
                deals=scored,
                series=finished[-1] if finished else None,
                owed=owed,
                base=game.version - len(steps),  # each step moved the version on by one
                awards=awards,
                endings=endings(game),  # its players' rows, if a rated game finished
            )
        except ServiceError:  # a stale save: another process moved the game on first
            raise
        except BaseException:
            log.exception("saving game %s failed (at version %s)", game.id, game.version)
            self.tables.forget(game.id)
            raise
        # One change for the lot: a publisher shows the state they led to once.
        last = steps[-1]
        over = bool(finished) or game.status is GameStatus.FINISHED
        kind = ChangeKind.FINISHED if over else ChangeKind.PLAYED
        events = tuple(event for step in steps for event in step.events)
        change = Change(kind, events, seat=last.action.seat, auto=last.auto, owed=owed)
        await self.publishing.publish(game, change)
        dealt = tuple(event for step in steps for event in step.dealt)
        if dealt:
            await self.publishing.publish(game, Change(ChangeKind.DEALT, dealt))
        if over:
            self.tables.forget(game.id)

    def set_deadline(self, game: Game) -> None:
        """Start the turn's clock (none for a seat that plays itself, or untimed)."""
        game.reminded = False
        game.turn_deadline = None
        turn = game.play.turn
        if game.status is not GameStatus.PLAYING or turn is None:
            return
        seat = game.seats[turn]
        timeout = game.settings.turn_timeout
        if seat is not None and not seat.plays_itself and timeout > 0:
            game.turn_deadline = self.tables.clock.now() + timeout


def _owed(game_id: int, step: Step) -> Iterator[Owed]:
    """The messages a step owes the players: its deal's result, the series' result."""
    version, index = step.logged.version, 0
    for scored in step.scored:
        yield Owed(game_id, version, index, OwedKind.DEAL_RESULT, scored.number)
        index += 1
    for _ in step.finished:
        yield Owed(game_id, version, index, OwedKind.SERIES_RESULT)
        # The result as a picture, where the platform and the chat show one.
        yield Owed(game_id, version, index + 1, OwedKind.RESULT_PICTURE)
        index += 2
