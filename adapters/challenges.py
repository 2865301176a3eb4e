"""The duplicate challenges' SQL (:mod:`bot.challenge`), shared by the SQLite and
PostgreSQL storages: the tables of migration ``0011_challenges.sql``.

A challenge's table is read from small tables a trigger keeps in the transaction
that keeps a challenge deal's result: one row per deal (how many played it to its
end, their losses' sum: the field's average), one per entrant (his deals over as
bits, his losses' sum) and one per score group: entrants with the same deals over and
the same losses' sum have the same score, so the table ranks the groups (a few dozen
rows, whatever the number of entrants), counts the places from them, and reads only
the lines it shows, a group's by name through an index (docs/benchmarks.md,
``bench/challenge.py``).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from adapters.sql import Sql, insert
from bot.challenge import MAX_DEALS, Challenge, DealTotal, Play, Standing, Standings, rank_key
from bot.models import Game, Platform, UserRef

#: A read of one statement's rows (each storage's own read connection).
Read = Callable[[Sql, Mapping[str, Any]], Awaitable[list[dict[str, Any]]]]

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
#: Each (deals over, losses' sum) some entrants have, and how many have it.
SCORE_GROUPS = Sql.of(
    "SELECT mask, loss, entrants FROM challenge_scores"
    " WHERE challenge_id = :challenge_id AND entrants > 0"
)
#: One group's entrants by name (the index ``challenge_entrants_by_score``).
GROUP_LINES = Sql.of(
    "SELECT platform, user_id, name, deals FROM challenge_entrants"
    " WHERE challenge_id = :challenge_id AND mask = :mask AND loss = :loss"
    " ORDER BY name{by_code_point}, user_id{by_code_point} LIMIT :limit"
)
OWN = Sql.of(
    "SELECT platform, user_id, name, deals, mask, loss FROM challenge_entrants"
    " WHERE challenge_id = :challenge_id AND platform = :platform AND user_id = :user_id"
    " AND deals > 0"
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
    asker's own line and place, and how many entrants finished a deal.

    Entrants with the same deals over and the same losses' sum have the same score:
    the groups (a few dozen) are ranked here, then only the lines shown are read, a
    group's by name through its index."""
    base = {"challenge_id": challenge.id}
    totals = {
        row["deal"]: DealTotal(row["plays"], row["loss"]) for row in await read(DEAL_TOTALS, base)
    }
    levels: dict[int, list[tuple[int, int, int]]] = {}  # rank key -> groups
    for row in await read(SCORE_GROUPS, base):
        key = rank_key(group_score(row["mask"], row["loss"], totals))
        levels.setdefault(key, []).append((row["mask"], row["loss"], row["entrants"]))
    above: dict[int, int] = {}  # rank key -> entrants ranked above it
    count = 0
    for key in sorted(levels, reverse=True):
        above[key] = count
        count += sum(entrants for _, _, entrants in levels[key])
    top: list[Standing] = []
    for key in sorted(levels, reverse=True):
        if len(top) >= limit:
            break
        lines: list[dict[str, Any]] = []
        for mask, lost, _ in levels[key]:
            wanted = {**base, "mask": mask, "loss": lost, "limit": limit - len(top)}
            lines += [
                {**row, "mask": mask, "loss": lost} for row in await read(GROUP_LINES, wanted)
            ]
        lines.sort(key=lambda row: (row["name"], row["user_id"]))
        for row in lines[: limit - len(top)]:
            top.append(_standing(row, above[key] + 1, totals))
    own = None
    if user is not None:
        mine = await read(OWN, {**base, "platform": user.platform.value, "user_id": user.id})
        if mine:
            key = rank_key(group_score(mine[0]["mask"], mine[0]["loss"], totals))
            own = _standing(mine[0], above.get(key, 0) + 1, totals)
    return Standings(challenge, tuple(top), own, count, totals)


def group_score(mask: int, lost: int, totals: Mapping[int, DealTotal]) -> float:
    """The score of every entrant with these deals over (bits) and losses' sum."""
    return sum(totals[deal].average for deal in range(MAX_DEALS) if mask >> deal & 1) - lost


def _standing(row: Mapping[str, Any], place: int, totals: Mapping[int, DealTotal]) -> Standing:
    user = UserRef(Platform(row["platform"]), row["user_id"])
    score = group_score(row["mask"], row["loss"], totals)
    return Standing(place, user, row["name"], score, row["deals"])
