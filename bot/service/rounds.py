"""A Swiss evening's round, the parts that need no saving: a team's rating for the
pairing and a table's new game (:mod:`bot.service.events` pairs and saves them)."""

from __future__ import annotations

import random
from statistics import fmean
from typing import Any

from bot import ratings
from bot.event import BYE_LEVEL, Event, Team
from bot.models import Game, GameStatus, Seat, SeatKind, TableSettings
from bot.ports import Storage
from bot.service.lobby import COMPUTER_NAMES


async def team_rating(storage: Storage, event: Event, team: Team) -> float:
    """The mean of the partners' ratings in the event's rules (else over every rule
    set; a player without one: the base rating)."""
    values = []
    for player in team.players:
        found = {r.rule_set: r.rating for r in await storage.player_ratings(player.user)}
        values.append(found.get(event.rule_set, found.get(ratings.EVERY, ratings.BASE)))
    return fmean(values) if values else float(ratings.BASE)


def table_game(
    event: Event,
    a: Team | None,
    b: Team | None,
    turn_timeout: int,
    rng: random.Random,
    now: float,
) -> tuple[Game, tuple[Any, ...]]:
    """A table's game of the event's rules, dealt, and the deal's events: team ``a``
    at seats 0 and 2, ``b`` at 1 and 3 (None: the team of computers, a bye). Its
    creator is the event's opener, so only he (or another admin) stops it."""
    assert a is not None
    settings = TableSettings(
        rule_set=event.rule_set,
        options=dict(event.options),
        locale=event.locale,
        turn_timeout=turn_timeout,
        computer_level=BYE_LEVEL,
        event=event.id,
        event_deals=event.deals,
    )
    play = settings.new_game(first_dealer=rng.randrange(4))
    events = tuple(play.deal(rng))
    them = (
        [Seat(SeatKind.COMPUTER, name, level=BYE_LEVEL) for name in COMPUTER_NAMES[:2]]
        if b is None
        else [Seat(SeatKind.HUMAN, p.name, p.user) for p in b.players]
    )
    us = [Seat(SeatKind.HUMAN, p.name, p.user) for p in a.players]
    game = Game(
        id=0,
        chat=event.chat,
        creator=event.opener,
        status=GameStatus.PLAYING,
        settings=settings,
        seats=[us[0], them[0], us[1], them[1]],
        play=play,
        version=1,
        created_at=now,
        updated_at=now,
    )
    return game, events
