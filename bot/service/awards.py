"""The achievements a step earned (:mod:`bot.achievements`), saved with its result.

The play step asks :meth:`Awarding.moments` right after an action is applied, before
a next deal is dealt (a rule set reads some moments from the table as the deal left
it: classic's praise), and :meth:`Awarding.awards` before the save: what the moments
and a finished rated game earn, from the players' progress as it is stored. The save
keeps them in its transaction and owes the chat one message announcing them
(:func:`owed_after`), after the results.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from bot.achievements import Awards, Moment, decide, generic_moments, is_rated
from bot.models import Game, SeatKind
from bot.ports import Owed, OwedKind
from bot.presenters.rule import presenter_of
from bot.service.tables import Tables
from core.ruleset import DealOutcome, GameOutcome


class Awarding:
    """Reads the moments of the steps and decides what they earn."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables

    def moments(
        self,
        game: Game,
        events: Sequence[Any],
        scored: Sequence[DealOutcome],
        finished: Sequence[GameOutcome],
    ) -> tuple[Moment, ...]:
        """The moments of one applied action's events (only a deal's end has any)."""
        if not scored and not finished:
            return ()
        found = generic_moments(game, scored, finished[-1] if finished else None)
        found += presenter_of(game).moments(game, events)
        return tuple(found)

    async def awards(
        self,
        game: Game,
        moments: Iterable[Moment],
        finished: GameOutcome | None,
        *,
        version: int,
    ) -> Awards | None:
        """What the moments (and ``finished``, the game's end) earn the game's
        humans, from their stored progress; None when nothing can be earned (no
        moment, and no rated game finished)."""
        moments = list(moments)
        rated = finished is not None and is_rated(game)
        if not moments and not rated:
            return None
        humans = [
            seat.user
            for seat in game.seats
            if seat is not None and seat.kind is SeatKind.HUMAN and seat.user is not None
        ]
        if not humans:
            return None
        progress = await self.tables.storage.achievement_progress(humans)
        awards = decide(
            game, moments, finished, progress, version=version, at=self.tables.clock.now()
        )
        return awards or None


def owed_after(
    game_id: int, version: int, owed: Sequence[Owed], awards: Awards | None
) -> list[Owed]:
    """The message announcing ``awards``' achievements, after the messages ``owed``
    already holds for ``version`` (none: nothing was earned)."""
    if awards is None or not awards.earned:
        return []
    index = sum(1 for item in owed if item.version == version)
    return [Owed(game_id, version, index, OwedKind.ACHIEVEMENTS)]
