"""A human's action at a running table, and an away player's return."""

from __future__ import annotations

from dataclasses import replace

from bot.errors import ErrorCode, ServiceError
from bot.models import GameStatus, UserRef
from bot.ports import Change, ChangeKind
from bot.service.publishing import Publishing
from bot.service.steps import Action, Outcome, Steps
from bot.service.tables import Tables, check_version
from core.errors import KozelError


class Moves:
    """Humans' actions, checked and applied through the play step."""

    def __init__(self, tables: Tables, steps: Steps, publishing: Publishing) -> None:
        self.tables = tables
        self.steps = steps
        self.publishing = publishing

    async def play(
        self, game_id: int, version: int | None, user: UserRef, action: Action
    ) -> Outcome:
        """A human's action. ``action.seat`` is ignored: the seat is the user's own."""
        async with self.tables.locked(game_id, version) as game:
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
            check_version(game, version)
            action = replace(action, seat=seat)
            try:
                game.play.verify(action)
            except KozelError as error:
                if error.reason.public:  # asked across the table: everyone hears the no
                    refused = Change(ChangeKind.REFUSED, seat=seat, extra={"reason": error.reason})
                    await self.publishing.publish(game, refused)
                raise ServiceError.from_rules(error, game.id) from None
            occupant = game.seats[seat]
            back = occupant is not None and occupant.away
            if occupant is not None and (occupant.away or occupant.missed):
                game.seats[seat] = occupant.with_(away=False, missed=0)
            events = await self.steps.apply(game, action, user=user)
            if back:
                await self.publishing.publish(game, Change(ChangeKind.BACK, seat=seat))
        self.tables.moved(game)
        return Outcome(game, tuple(events))

    async def come_back(self, game_id: int, user: UserRef) -> bool:
        """An away player touched his hand: he plays his own turns again. Returns
        whether he was away."""
        async with self.tables.locked(game_id) as game:
            seat = game.seat_of(user)
            occupant = None if seat is None else game.seats[seat]
            if seat is None or occupant is None or not occupant.away:
                return False
            game.seats[seat] = occupant.with_(away=False, missed=0)
            self.steps.set_deadline(game)
            await self.tables.save(game, base=game.version)
            await self.publishing.publish(game, Change(ChangeKind.BACK, seat=seat))
        return True
