"""The duplicate challenges' SQL (:mod:`bot.challenge`), shared by the SQLite and
PostgreSQL storages: the tables of migration ``0010_challenges.sql``.

A challenge's table is read from two small tables a trigger keeps in the transaction
that keeps a challenge deal's result: one row per deal (how many played it to its
end, their losses' sum: the field's average) and one per entrant (his deals over as
bits, his losses' sum). An entrant's score is then an expression of his row and the
deals' averages, bound as parameters: the best ten are one scan of the challenge's
entrants (12,500 rows for 100,000 deals played), and the asker's place another
(docs/benchmarks.md, ``bench/challenge.py``).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from adapters.sql import Sql, insert
from bot.challenge import MAX_DEALS, Challenge, DealTotal, Play, Standing, Standings
from bot.models import Game, Platform, UserRef

#: A read of one statement's rows (each storage's own read connection).
Read = Callable[[Sql, Mapping[str, Any]], Awaitable[list[dict[str, Any]]]]

#: An entrant's score: each deal he played, its field's average (``:a<k>``), less the
#: sum of his losses.
_SCORE = (
    "(" + " + ".join(f"((mask >> {deal}) & 1) * :a{deal}" for deal in range(MAX_DEALS)) + " - loss)"
)
_AVERAGES = {f"a{deal}": "float8" for deal in range(MAX_DEALS)}

GET_CHALLENGE = Sql.of("SELECT * FROM challenges WHERE id = :id")
KEEP_CHALLENGE = insert(
    "challenges", ("id", "rule_set", "options", "deals", "loss_sign", "created_at"), ignore=True
)
PLAYS = Sql.of(
    "SELECT deal, game_id, loss FROM challenge_plays WHERE challenge_id = :challenge_id"
    " AND platform = :platform AND user_id = :user_id ORDER BY deal"
)
INSERT_PLAY = insert("challenge_plays", ("challenge_id", "platform", "user_id", "deal", "game_id"))
KEEP_ENTRANT = Sql.of(
    "INSERT INTO challenge_entrants (challenge_id, platform, user_id, name)"
    " VALUES (:challenge_id, :platform, :user_id, :name)"
    " ON CONFLICT (challenge_id, platform, user_id) DO UPDATE SET name = excluded.name"
)
DEAL_TOTALS = Sql.of(
    "SELECT deal, plays, loss FROM challenge_deal_totals WHERE challenge_id = :challenge_id"
)
#: Scores are ranked in millionths (sums of averages in floating point: two equal
#: scores may differ in their last bits).
_RANK = f"ROUND({_SCORE} * 1000000)"
TOP = Sql.of(
    f"SELECT platform, user_id, name, deals, {_SCORE} AS score, {_RANK} AS rank_key"
    " FROM challenge_entrants WHERE challenge_id = :challenge_id AND deals > 0"
    " ORDER BY rank_key DESC, name{by_code_point}, user_id{by_code_point} LIMIT :limit",
    casts=_AVERAGES,
)
OWN = Sql.of(
    f"SELECT platform, user_id, name, deals, {_SCORE} AS score, {_RANK} AS rank_key"
    " FROM challenge_entrants WHERE challenge_id = :challenge_id AND platform = :platform"
    " AND user_id = :user_id AND deals > 0",
    casts=_AVERAGES,
)
#: How many finished a deal, and how many of them ranked above ``:above``.
PLACE = Sql.of(
    f"SELECT COUNT(*) AS entrants, COALESCE(SUM(CASE WHEN {_RANK} > :above THEN 1 ELSE 0"
    " END), 0) AS above FROM challenge_entrants WHERE challenge_id = :challenge_id"
    " AND deals > 0",
    casts={**_AVERAGES, "above": "float8"},
)


def challenge_row(challenge: Challenge) -> dict[str, Any]:
    return {
        "id": challenge.id,
        "rule_set": challenge.rule_set,
        "options": json.dumps(challenge.options, sort_keys=True),
        "deals": challenge.deals,
        "loss_sign": challenge.loss_sign,
        "created_at": float(challenge.created_at),
    }


def challenge_from_row(row: Mapping[str, Any]) -> Challenge:
    return Challenge(
        row["id"], row["rule_set"], json.loads(row["options"]), row["deals"], row["created_at"]
    )


def play_row(challenge: Challenge, user: UserRef, deal: int, game_id: int) -> dict[str, Any]:
    return {
        "challenge_id": challenge.id,
        "platform": user.platform.value,
        "user_id": user.id,
        "deal": deal,
        "game_id": game_id,
    }


def entrant_row(challenge: Challenge, user: UserRef, name: str) -> dict[str, Any]:
    return {
        "challenge_id": challenge.id,
        "platform": user.platform.value,
        "user_id": user.id,
        "name": name,
    }


def plays_from_rows(rows: Sequence[Mapping[str, Any]]) -> list[Play]:
    return [Play(row["deal"], int(row["game_id"]), row["loss"]) for row in rows]


def player(game: Game) -> UserRef:
    """The entrant of a challenge deal's game (its one human seat)."""
    seat = game.seats[0]
    if seat is None or seat.user is None:
        raise ValueError(f"game {game.id} has no entrant at seat 0")
    return seat.user


async def standings(
    read: Read, challenge: Challenge, user: UserRef | None, limit: int = 10
) -> Standings:
    """A challenge's table as the storage keeps it: its best ``limit`` entrants, the
    asker's own line and place, and how many entrants finished a deal."""
    totals = {
        row["deal"]: DealTotal(row["plays"], row["loss"])
        for row in await read(DEAL_TOTALS, {"challenge_id": challenge.id})
    }
    averages = {
        f"a{deal}": totals[deal].average if deal in totals else 0.0 for deal in range(MAX_DEALS)
    }
    base = {"challenge_id": challenge.id, **averages}
    rows = await read(TOP, {**base, "limit": limit})
    top: list[Standing] = []
    for index, row in enumerate(rows):
        place = index + 1
        if top and rows[index - 1]["rank_key"] == row["rank_key"]:
            place = top[-1].place
        top.append(_standing(row, place))
    mine: list[dict[str, Any]] = []
    if user is not None:
        mine = await read(OWN, {**base, "platform": user.platform.value, "user_id": user.id})
    above = mine[0]["rank_key"] if mine else float("inf")
    counted = (await read(PLACE, {**base, "above": above}))[0]
    own = _standing(mine[0], int(counted["above"]) + 1) if mine else None
    entrants = int(counted["entrants"])
    return Standings(challenge, tuple(top), own, entrants, totals)


def _standing(row: Mapping[str, Any], place: int) -> Standing:
    user = UserRef(Platform(row["platform"]), row["user_id"])
    return Standing(place, user, row["name"], float(row["score"]), row["deals"])
