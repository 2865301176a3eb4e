"""The Swiss evenings' SQL (:mod:`bot.event`), shared by the SQLite and PostgreSQL
storages: the tables of migration ``0012_events.sql``.

An event is one ``events`` row, its teams' rows and its tables' rows. A change of the
event (a registration, a result, the state) rewrites its row only from the version the
change started from (else :class:`~bot.event.StaleEvent`), its teams, and the results
of its tables; a round's tables are inserted with their games in the same transaction.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from adapters.sql import Sql, insert
from bot.event import Event, EventState, EventTable, GameEnd, Player, TableResult, Team
from bot.models import ChatRef, Game, Platform, UserRef
from core.seats import Team as Side

EVENT_COLUMNS = (
    "platform",
    "chat_id",
    "thread_id",
    "opener",
    "rule_set",
    "options",
    "deals",
    "rounds",
    "min_reliability",
    "locale",
    "state",
    "round",
    "version",
    "standings_message",
    "round_shown",
    "end_shown",
    "created_at",
    "finished_at",
)
TEAM_COLUMNS = (
    "event_id",
    "number",
    "first_id",
    "first_name",
    "second_id",
    "second_name",
    "withdrawn",
)
TABLE_COLUMNS = ("event_id", "round", "number", "team_a", "team_b", "game_id", "result")

INSERT_EVENT = insert("events", EVENT_COLUMNS)
GET_EVENT = Sql.of("SELECT * FROM events WHERE id = :id")
LIVE_IN_CHAT = Sql.of(
    "SELECT * FROM events WHERE platform = :platform AND chat_id = :chat_id"
    " AND state IN ('open', 'running')"
)
#: The events a start resumes: the live ones and those whose end is not shown yet.
TO_RESUME = Sql.of(
    "SELECT * FROM events WHERE state IN ('open', 'running') OR end_shown = 0 ORDER BY id"
)
TEAMS = Sql.of("SELECT * FROM event_teams WHERE event_id = :event_id ORDER BY number")
TABLES = Sql.of("SELECT * FROM event_tables WHERE event_id = :event_id ORDER BY round, number")
#: The event's row, only from the version the change started from.
UPDATE_EVENT = Sql.of(
    "UPDATE events SET rounds = :rounds, state = :state, round = :round, version = :version,"
    " standings_message = :standings_message, round_shown = :round_shown,"
    " end_shown = :end_shown, finished_at = :finished_at"
    " WHERE id = :id AND version = :base"
)
DELETE_TEAMS = Sql.of("DELETE FROM event_teams WHERE event_id = :event_id")
INSERT_TEAM = insert("event_teams", TEAM_COLUMNS)
INSERT_TABLE = insert("event_tables", TABLE_COLUMNS)
#: A table's result is written once: a repeated settle changes nothing.
SET_RESULT = Sql.of(
    "UPDATE event_tables SET result = :result WHERE event_id = :event_id"
    " AND round = :round AND number = :number AND result IS NULL"
)
SERIES_LOSER = Sql.of("SELECT loser FROM series_results WHERE game_id = :game_id")
DEALS = Sql.of(
    "SELECT loss_a, loss_b, winner FROM deal_results WHERE game_id = :game_id ORDER BY number"
)
WALKED_OUT = Sql.of(
    "SELECT platform, user_id FROM reliability WHERE game_id = :game_id AND walked_out IS NOT NULL"
)


def event_row(event: Event) -> dict[str, Any]:
    return {
        "platform": event.chat.platform.value,
        "chat_id": event.chat.id,
        "thread_id": event.chat.thread,
        "opener": event.opener.id,
        "rule_set": event.rule_set,
        "options": json.dumps(event.options, sort_keys=True),
        "deals": event.deals,
        "rounds": event.rounds,
        "min_reliability": event.min_reliability,
        "locale": event.locale,
        "state": event.state.value,
        "round": event.round,
        "version": event.version,
        "standings_message": event.standings_message,
        "round_shown": event.round_shown,
        "end_shown": int(event.end_shown),
        "created_at": float(event.created_at),
        "finished_at": None if event.finished_at is None else float(event.finished_at),
    }


def update_row(event: Event, base: int) -> dict[str, Any]:
    row = event_row(event)
    keep = (
        "rounds",
        "state",
        "round",
        "version",
        "standings_message",
        "round_shown",
        "end_shown",
        "finished_at",
    )
    return {**{k: row[k] for k in keep}, "id": event.id, "base": base}


def team_rows(event: Event) -> list[dict[str, Any]]:
    rows = []
    for team in event.teams:
        first, *second = team.players
        rows.append(
            {
                "event_id": event.id,
                "number": team.number,
                "first_id": first.user.id,
                "first_name": first.name,
                "second_id": second[0].user.id if second else None,
                "second_name": second[0].name if second else None,
                "withdrawn": int(team.withdrawn),
            }
        )
    return rows


def table_row(event_id: int, table: EventTable) -> dict[str, Any]:
    return {
        "event_id": event_id,
        "round": table.round,
        "number": table.number,
        "team_a": table.team_a,
        "team_b": table.team_b,
        "game_id": table.game_id,
        "result": None if table.result is None else table.result.value,
    }


def result_rows(event: Event) -> list[dict[str, Any]]:
    """The results the event's tables have (each written once)."""
    return [
        {"event_id": event.id, "round": t.round, "number": t.number, "result": t.result.value}
        for t in event.tables
        if t.result is not None
    ]


def event_from_rows(
    row: Mapping[str, Any],
    teams: Sequence[Mapping[str, Any]],
    tables: Sequence[Mapping[str, Any]],
) -> Event:
    platform = Platform(row["platform"])

    def player(user_id: str, name: str) -> Player:
        return Player(UserRef(platform, user_id), name)

    return Event(
        id=int(row["id"]),
        chat=ChatRef(platform, row["chat_id"], row["thread_id"]),
        opener=UserRef(platform, row["opener"]),
        rule_set=row["rule_set"],
        options=json.loads(row["options"]),
        deals=row["deals"],
        rounds=row["rounds"],
        min_reliability=row["min_reliability"],
        locale=row["locale"],
        state=EventState(row["state"]),
        round=row["round"],
        version=row["version"],
        standings_message=row["standings_message"],
        round_shown=row["round_shown"],
        end_shown=bool(row["end_shown"]),
        created_at=row["created_at"],
        finished_at=row["finished_at"],
        teams=tuple(
            Team(
                t["number"],
                (player(t["first_id"], t["first_name"]),)
                + (() if t["second_id"] is None else (player(t["second_id"], t["second_name"]),)),
                bool(t["withdrawn"]),
            )
            for t in teams
        ),
        tables=tuple(
            EventTable(
                t["round"],
                t["number"],
                t["team_a"],
                t["team_b"],
                int(t["game_id"]),
                None if t["result"] is None else TableResult(t["result"]),
            )
            for t in tables
        ),
    )


def game_end(
    game: Game,
    series: Sequence[Mapping[str, Any]],
    deals: Sequence[Mapping[str, Any]],
    walked_out: Sequence[Mapping[str, Any]],
) -> GameEnd:
    """How a game ended, from its saved results and its players' reliability rows."""
    seats = {
        seat
        for row in walked_out
        if (seat := game.seat_of(UserRef(Platform(row["platform"]), row["user_id"]))) is not None
    }
    return GameEnd(
        finished=game.status.value == "finished",
        loser=Side(series[0]["loser"]) if series else None,
        deals=tuple(
            (d["loss_a"], d["loss_b"], None if d["winner"] is None else Side(d["winner"]))
            for d in deals
        ),
        walked_out=frozenset(seats),
    )
