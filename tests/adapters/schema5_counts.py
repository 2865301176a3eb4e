"""Statistics and leaderboards as schema 5 counted them, from every result at each
query (the queries of the storages before migration 0006 kept totals): the full
count the totals must always equal (tests/adapters/test_result_totals.py)."""

from __future__ import annotations

import sqlite3
from typing import Any

import asyncpg

from bot.models import ChatRef, Platform, UserRef
from bot.ports import LeaderboardRow, UserStats
from bot.rows import leaderboard_rows
from core.ruleset import EGGS_TITLES

SQLITE_USER_SERIES = """
SELECT
    COUNT(*) AS seats,
    COUNT(s.game_id) AS series_played,
    COALESCE(SUM(s.loser != p.seat % 2), 0) AS series_won,
    COALESCE(SUM(s.loser = p.seat % 2), 0) AS goat,
    COALESCE(SUM(s.loser = p.seat % 2 AND s.title IN (:eggs_title, :eggs_title_2)), 0)
        AS goat_with_eggs
FROM participants AS p
JOIN games AS g ON g.id = p.game_id
LEFT JOIN series_results AS s ON s.game_id = p.game_id
WHERE p.kind = 'human' AND p.platform = :platform AND p.user_id = :user_id
    AND g.platform = :platform AND g.status IN ('playing', 'finished')
    AND (:rule_set IS NULL OR g.rule_set = :rule_set)
"""
SQLITE_USER_DEALS = """
SELECT
    COUNT(*) AS deals_played,
    COALESCE(SUM(d.winner = p.seat % 2), 0) AS deals_won,
    COALESCE(SUM(d.winner = 1 - p.seat % 2), 0) AS deals_lost,
    COALESCE(SUM(d.eggs), 0) AS deals_eggs,
    COALESCE(SUM(CASE p.seat % 2 WHEN 0 THEN d.points_a ELSE d.points_b END), 0) AS points
FROM participants AS p
JOIN games AS g ON g.id = p.game_id
JOIN deal_results AS d ON d.game_id = p.game_id
WHERE p.kind = 'human' AND p.platform = :platform AND p.user_id = :user_id
    AND g.platform = :platform AND g.status IN ('playing', 'finished')
    AND (:rule_set IS NULL OR d.rule_set = :rule_set)
"""
SQLITE_USER_NAME = """
SELECT COALESCE(
    (SELECT u.name FROM users AS u WHERE u.platform = :platform AND u.id = :user_id),
    (SELECT q.name FROM participants AS q
     WHERE q.kind = 'human' AND q.platform = :platform AND q.user_id = :user_id
     ORDER BY q.game_id DESC, q.seat LIMIT 1)
) AS name
"""
SQLITE_LEADERBOARD = """
WITH played AS (
    SELECT
        p.user_id AS user_id,
        COUNT(*) AS series_played,
        SUM(s.loser != p.seat % 2) AS series_won
    FROM participants AS p
    JOIN games AS g ON g.id = p.game_id
    JOIN series_results AS s ON s.game_id = p.game_id
    WHERE p.kind = 'human' AND p.platform = :platform AND p.user_id IS NOT NULL
        AND g.platform = :platform AND g.status IN ('playing', 'finished')
        AND (:chat_platform IS NULL
             OR (g.platform = :chat_platform AND g.chat_id = :chat_id))
        AND (:rule_set IS NULL OR s.rule_set = :rule_set)
    GROUP BY p.user_id
    HAVING COUNT(*) >= :min_series
)
SELECT
    played.user_id AS user_id,
    played.series_played AS series_played,
    played.series_won AS series_won,
    -- the saved name, else the name at the latest seat (as _USER_NAME)
    COALESCE(
        (SELECT u.name FROM users AS u
         WHERE u.platform = :platform AND u.id = played.user_id),
        (SELECT q.name FROM participants AS q
         WHERE q.kind = 'human' AND q.platform = :platform AND q.user_id = played.user_id
         ORDER BY q.game_id DESC, q.seat LIMIT 1)
    ) AS name
FROM played
ORDER BY
    played.series_won DESC,
    CAST(played.series_won AS REAL) / played.series_played DESC,
    name,
    played.user_id
LIMIT :limit
"""

POSTGRES_USER_SERIES = """
SELECT
    COUNT(*) AS seats,
    COUNT(s.game_id) AS series_played,
    COUNT(*) FILTER (WHERE s.loser <> p.seat % 2) AS series_won,
    COUNT(*) FILTER (WHERE s.loser = p.seat % 2) AS goat,
    COUNT(*) FILTER (WHERE s.loser = p.seat % 2 AND s.title = ANY($3::text[])) AS goat_with_eggs
FROM participants AS p
JOIN games AS g ON g.id = p.game_id
LEFT JOIN series_results AS s ON s.game_id = p.game_id
WHERE p.kind = 'human' AND p.platform = $1 AND p.user_id = $2
    AND g.platform = $1 AND g.status IN ('playing', 'finished')
    AND ($4::text IS NULL OR g.rule_set = $4::text)
"""
POSTGRES_USER_DEALS = """
SELECT
    COUNT(*) AS deals_played,
    COUNT(*) FILTER (WHERE d.winner = p.seat % 2) AS deals_won,
    COUNT(*) FILTER (WHERE d.winner = 1 - p.seat % 2) AS deals_lost,
    COALESCE(SUM(d.eggs), 0) AS deals_eggs,
    COALESCE(SUM(CASE p.seat % 2 WHEN 0 THEN d.points_a ELSE d.points_b END), 0) AS points
FROM participants AS p
JOIN games AS g ON g.id = p.game_id
JOIN deal_results AS d ON d.game_id = p.game_id
WHERE p.kind = 'human' AND p.platform = $1 AND p.user_id = $2
    AND g.platform = $1 AND g.status IN ('playing', 'finished')
    AND ($3::text IS NULL OR d.rule_set = $3::text)
"""
POSTGRES_USER_NAME = """
SELECT COALESCE(
    (SELECT u.name FROM users AS u WHERE u.platform = $1 AND u.id = $2),
    (SELECT q.name FROM participants AS q
     WHERE q.kind = 'human' AND q.platform = $1 AND q.user_id = $2
     ORDER BY q.game_id DESC, q.seat LIMIT 1)
) AS name
"""
POSTGRES_LEADERBOARD = """
WITH played AS (
    SELECT
        p.user_id AS user_id,
        COUNT(*) AS series_played,
        COUNT(*) FILTER (WHERE s.loser <> p.seat % 2) AS series_won
    FROM participants AS p
    JOIN games AS g ON g.id = p.game_id
    JOIN series_results AS s ON s.game_id = p.game_id
    WHERE p.kind = 'human' AND p.platform = $1 AND p.user_id IS NOT NULL
        AND g.platform = $1 AND g.status IN ('playing', 'finished')
        AND ($2::text IS NULL OR (g.platform = $2::text AND g.chat_id = $3::text))
        AND ($6::text IS NULL OR s.rule_set = $6::text)
    GROUP BY p.user_id
    HAVING COUNT(*) >= $4
), named AS (
    SELECT
        played.*,
        -- the saved name, else the name at the latest seat (as _USER_NAME)
        COALESCE(
            (SELECT u.name FROM users AS u
             WHERE u.platform = $1 AND u.id = played.user_id),
            (SELECT q.name FROM participants AS q
             WHERE q.kind = 'human' AND q.platform = $1 AND q.user_id = played.user_id
             ORDER BY q.game_id DESC, q.seat LIMIT 1)
        ) AS name
    FROM played
)
SELECT user_id, series_played, series_won, name
FROM named
ORDER BY
    series_won DESC,
    series_won::float8 / series_played DESC,
    name COLLATE "C",
    user_id COLLATE "C"
LIMIT $5
"""


def _stats(user: UserRef, series: Any, deals: Any, name: str | None) -> UserStats | None:
    if not series["seats"]:
        return None
    return UserStats(
        user=user,
        name=name if name is not None else user.id,
        series_played=series["series_played"],
        series_won=series["series_won"],
        goat=series["goat"],
        goat_with_eggs=series["goat_with_eggs"],
        deals_played=deals["deals_played"],
        deals_won=deals["deals_won"],
        deals_lost=deals["deals_lost"],
        deals_eggs=deals["deals_eggs"],
        points=deals["points"],
    )


def sqlite_user_stats(db: sqlite3.Connection, user: UserRef, rule_set: str | None) -> Any:
    eggs_title, eggs_title_2 = sorted(EGGS_TITLES)
    parameters = {
        "platform": user.platform.value,
        "user_id": user.id,
        "eggs_title": eggs_title,
        "eggs_title_2": eggs_title_2,
        "rule_set": rule_set,
    }
    series = db.execute(SQLITE_USER_SERIES, parameters).fetchone()
    deals = db.execute(SQLITE_USER_DEALS, parameters).fetchone()
    name = db.execute(SQLITE_USER_NAME, parameters).fetchone()["name"]
    return _stats(user, series, deals, name)


def sqlite_leaderboard(
    db: sqlite3.Connection,
    platform: Platform,
    chat: ChatRef | None,
    limit: int,
    min_series: int,
    rule_set: str | None,
) -> list[LeaderboardRow]:
    rows = db.execute(
        SQLITE_LEADERBOARD,
        {
            "platform": platform.value,
            "chat_platform": None if chat is None else chat.platform.value,
            "chat_id": None if chat is None else chat.id,
            "rule_set": rule_set,
            "min_series": min_series,
            "limit": max(limit, 0),
        },
    ).fetchall()
    return leaderboard_rows(platform, rows)


async def postgres_user_stats(
    conn: asyncpg.Connection[Any], user: UserRef, rule_set: str | None
) -> UserStats | None:
    platform, user_id = user.platform.value, user.id
    series = await conn.fetchrow(
        POSTGRES_USER_SERIES, platform, user_id, sorted(EGGS_TITLES), rule_set
    )
    deals = await conn.fetchrow(POSTGRES_USER_DEALS, platform, user_id, rule_set)
    name = await conn.fetchval(POSTGRES_USER_NAME, platform, user_id)
    return _stats(user, series, deals, name)


async def postgres_leaderboard(
    conn: asyncpg.Connection[Any],
    platform: Platform,
    chat: ChatRef | None,
    limit: int,
    min_series: int,
    rule_set: str | None,
) -> list[LeaderboardRow]:
    rows = await conn.fetch(
        POSTGRES_LEADERBOARD,
        platform.value,
        None if chat is None else chat.platform.value,
        None if chat is None else chat.id,
        min_series,
        max(limit, 0),
        rule_set,
    )
    return leaderboard_rows(platform, rows)
