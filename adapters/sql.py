"""The SQL that the SQLite and PostgreSQL storages share, written once.

The two storages keep the same tables (each dialect's own migrations) and ask them
the same questions; what differs is how a statement names its parameters and a few
words. A :class:`Sql` is one statement written with ``:name`` parameters and three
dialect words (``{or_ignore}``, ``{do_nothing}``, ``{by_code_point}``); it holds the text
for each dialect:

- SQLite (``sqlite3``/aiosqlite) binds ``:name`` from a mapping, as written;
- PostgreSQL (asyncpg) takes ``$1, $2, ...`` in order: :meth:`Sql.args` puts a
  mapping's values in that order, and a parameter named in ``casts`` is written
  ``$n::type`` wherever it stands (where the server could not tell its type).

>>> query = Sql.of(
...     "SELECT name FROM users WHERE platform = :platform AND (:who IS NULL OR id = :who)",
...     casts={"who": "text"},
... )
>>> query.sqlite
'SELECT name FROM users WHERE platform = :platform AND (:who IS NULL OR id = :who)'
>>> query.postgres
'SELECT name FROM users WHERE platform = $1 AND ($2::text IS NULL OR id = $2::text)'
>>> query.args({"who": "7", "platform": "telegram"})
('telegram', '7')
>>> query.bind({"who": None, "platform": "discord"})[1:]
('discord', None)

How each storage runs them (its connections, transactions and group commit) stays
its own: SQLite writes through one connection on a worker thread, PostgreSQL through
pools and a server-side function.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.models import ChatRef, Platform, UserRef
from bot.ports import UserStats
from bot.rows import CorruptGame

#: The dialect words a shared text may hold, per dialect: an insert that skips a
#: row already there (``INSERT{or_ignore} INTO ...{do_nothing}``: SQLite's ``OR
#: IGNORE``, PostgreSQL's ``ON CONFLICT DO NOTHING``), and the collation that sorts
#: text by code point whatever the database's own (``{by_code_point}``: SQLite's
#: default, BINARY, needs no word; a word there would make SQLite compute the
#: sorted column again instead of the one it selected).
SQLITE_WORDS = {"or_ignore": " OR IGNORE", "do_nothing": "", "by_code_point": ""}
POSTGRES_WORDS = {
    "or_ignore": "",
    "do_nothing": " ON CONFLICT DO NOTHING",
    "by_code_point": ' COLLATE "C"',
}

#: A ``:name`` parameter (not PostgreSQL's ``::type`` cast).
_PARAMETER = re.compile(r"(?<!:):([A-Za-z_][A-Za-z0-9_]*)")


@dataclass(frozen=True, slots=True)
class Sql:
    """One statement in both dialects; make it with :meth:`of` or :func:`insert`."""

    #: The text for SQLite, with ``:name`` parameters bound from a mapping.
    sqlite: str
    #: The text for PostgreSQL, with ``$n`` parameters.
    postgres: str
    #: The name of each ``$n`` parameter, in order.
    names: tuple[str, ...]

    @classmethod
    def of(
        cls,
        text: str,
        *,
        casts: Mapping[str, str] | None = None,
        postgres: str | None = None,
    ) -> Sql:
        """The statement ``text`` (``:name`` parameters, dialect words); ``casts``
        gives PostgreSQL the type of a parameter; ``postgres`` replaces the text
        there (before the parameters are numbered) where the two must differ."""
        casts = casts or {}
        names: list[str] = []

        def number(match: re.Match[str]) -> str:
            name = match.group(1)
            if name not in names:
                names.append(name)
            cast = casts.get(name)
            return f"${names.index(name) + 1}" + (f"::{cast}" if cast else "")

        positional = _PARAMETER.sub(number, (postgres or text).format(**POSTGRES_WORDS))
        unused = set(casts) - set(names)
        if unused:
            raise ValueError(f"casts name no parameter: {sorted(unused)}")
        return cls(text.format(**SQLITE_WORDS), positional, tuple(names))

    def args(self, values: Mapping[str, Any]) -> tuple[Any, ...]:
        """``values`` in the order of PostgreSQL's ``$n`` (a missing one: KeyError)."""
        return tuple(values[name] for name in self.names)

    def bind(self, values: Mapping[str, Any] | None = None) -> tuple[Any, ...]:
        """What asyncpg's ``fetch``/``execute``/... take: the PostgreSQL text, then
        :meth:`args`."""
        return (self.postgres, *self.args(values or {}))


def insert(table: str, columns: Sequence[str], *, ignore: bool = False) -> Sql:
    """``INSERT INTO table (columns) VALUES (...)``, each value the parameter of its
    column's name; ``ignore``: a row whose key is there already is skipped.

    >>> insert("alive", ("platform", "at"), ignore=True).postgres
    'INSERT INTO alive (platform, at) VALUES ($1, $2) ON CONFLICT DO NOTHING'
    """
    head = "INSERT{or_ignore} INTO" if ignore else "INSERT INTO"
    values = ", ".join(f":{column}" for column in columns)
    tail = "{do_nothing}" if ignore else ""
    return Sql.of(f"{head} {table} ({', '.join(columns)}) VALUES ({values}){tail}")


# --- The tables' columns ----------------------------------------------------------------

GAME_COLUMNS = (
    "platform",
    "chat_id",
    "thread_id",
    "creator_platform",
    "creator",
    "status",
    "rule_set",
    "settings",
    "seats",
    "snapshot",
    "version",
    "created_at",
    "updated_at",
    "turn_deadline",
    "reminded",
    "messages",
    "rematch_of",
)
PARTICIPANT_COLUMNS = ("game_id", "seat", "platform", "user_id", "kind", "name")
ACTION_COLUMNS = ("game_id", "version", "seat", "platform", "user_id", "action", "at", "auto")
DEAL_COLUMNS = (
    "game_id",
    "number",
    "rule_set",
    "points_a",
    "points_b",
    "tricks_a",
    "tricks_b",
    "loss_a",
    "loss_b",
    "eggs",
    "winner",
    "at",
)
SERIES_COLUMNS = (
    "game_id",
    "rule_set",
    "loser",
    "title",
    "loss_a",
    "loss_b",
    "eggs",
    "deals",
    "at",
)
OWED_COLUMNS = ("game_id", "version", "idx", "kind", "number")
ACHIEVEMENT_COLUMNS = ("platform", "user_id", "achievement", "game_id", "version", "rule_set", "at")
PROGRESS_COLUMNS = ("platform", "user_id", "rated_games", "partner", "streak")

INSERT_GAME = insert("games", GAME_COLUMNS)
INSERT_PARTICIPANT = insert("participants", PARTICIPANT_COLUMNS)
INSERT_ACTION = insert("game_actions", ACTION_COLUMNS)
#: Results and owed messages are kept once: a repeated one changes nothing.
INSERT_DEAL = insert("deal_results", DEAL_COLUMNS, ignore=True)
INSERT_SERIES = insert("series_results", SERIES_COLUMNS, ignore=True)
INSERT_OWED = insert("owed_messages", OWED_COLUMNS, ignore=True)
#: An achievement is kept once per player: one he has already is not kept again.
INSERT_ACHIEVEMENT = insert("achievements", ACHIEVEMENT_COLUMNS, ignore=True)
SAVE_PROGRESS = Sql.of(
    "INSERT INTO achievement_progress (platform, user_id, rated_games, partner, streak)"
    " VALUES (:platform, :user_id, :rated_games, :partner, :streak)"
    " ON CONFLICT (platform, user_id) DO UPDATE SET rated_games = excluded.rated_games,"
    " partner = excluded.partner, streak = excluded.streak"
)

# --- Users and chats ----------------------------------------------------------------------

GET_USER = Sql.of(
    "SELECT platform, id, name, locale FROM users WHERE platform = :platform AND id = :id"
)
SAVE_USER = Sql.of(
    """
    INSERT INTO users (platform, id, name, locale, updated_at)
    VALUES (:platform, :id, :name, :locale, :updated_at)
    ON CONFLICT (platform, id) DO UPDATE SET
        name = excluded.name,
        locale = excluded.locale,
        updated_at = excluded.updated_at
    """
)
GET_CHAT = Sql.of(
    "SELECT platform, id, locale, turn_timeout, pictures FROM chats"
    " WHERE platform = :platform AND id = :id"
)
SAVE_CHAT = Sql.of(
    """
    INSERT INTO chats (platform, id, locale, turn_timeout, pictures)
    VALUES (:platform, :id, :locale, :turn_timeout, :pictures)
    ON CONFLICT (platform, id) DO UPDATE SET
        locale = excluded.locale,
        turn_timeout = excluded.turn_timeout,
        pictures = excluded.pictures
    """,
    casts={"pictures": "integer"},
)

#: A chat's new id (:meth:`~bot.ports.Storage.migrate_chat`): its games move, its
#: settings are copied unless the new id has its own (newer), the old ones go.
MOVE_CHAT_GAMES = Sql.of(
    "UPDATE games SET platform = :new_platform, chat_id = :new_id"
    " WHERE platform = :old_platform AND chat_id = :old_id",
    casts={"new_platform": "text", "new_id": "text"},
)
COPY_CHAT = Sql.of(
    "INSERT{or_ignore} INTO chats (platform, id, locale, turn_timeout, pictures)"
    " SELECT :new_platform, :new_id, locale, turn_timeout, pictures FROM chats"
    " WHERE platform = :old_platform AND id = :old_id{do_nothing}",
    casts={"new_platform": "text", "new_id": "text"},
)
DELETE_CHAT = Sql.of("DELETE FROM chats WHERE platform = :old_platform AND id = :old_id")


def chat_ids(old: ChatRef, new: ChatRef) -> dict[str, str]:
    """The parameters of the three statements that move a chat."""
    return {
        "old_platform": old.platform.value,
        "old_id": old.id,
        "new_platform": new.platform.value,
        "new_id": new.id,
    }


# --- Games ----------------------------------------------------------------------------------

#: The condition that leaves out the games set aside.
_NOT_SET_ASIDE = "id NOT IN (SELECT game_id FROM set_aside_games)"

LOAD_GAME = Sql.of(f"SELECT * FROM games WHERE id = :id AND {_NOT_SET_ASIDE}")
#: One, unless a newer one was set aside: the newest first.
#: An event's tables (docs/tournaments.md, Swiss evening) are no chat's one open game.
OPEN_GAMES = Sql.of(
    "SELECT * FROM games WHERE platform = :platform AND chat_id = :chat_id"
    f" AND status IN ('lobby', 'playing') AND {_NOT_SET_ASIDE}"
    " AND id NOT IN (SELECT game_id FROM event_tables) ORDER BY id DESC"
)
ACTIVE_GAMES = Sql.of(
    f"SELECT * FROM games WHERE status IN ('lobby', 'playing') AND {_NOT_SET_ASIDE} ORDER BY id"
)
GAME_EXISTS = Sql.of("SELECT 1 FROM games WHERE id = :id")
SET_ASIDE = Sql.of("SELECT game_id, reason FROM set_aside_games ORDER BY game_id")
INSERT_SET_ASIDE = Sql.of(
    "INSERT{or_ignore} INTO set_aside_games (game_id, reason, at)"
    " VALUES (:game_id, :reason, :at){do_nothing}"
)
GAME_ACTIONS = Sql.of("SELECT * FROM game_actions WHERE game_id = :game_id ORDER BY version")


def set_aside_row(corrupt: CorruptGame, at: float) -> dict[str, Any]:
    """The ``set_aside_games`` row of a game that does not load (the reason cut)."""
    return {"game_id": corrupt.game_id, "reason": corrupt.reason[:2000], "at": float(at)}


def log_set_aside(log: logging.Logger, corrupt: CorruptGame, row: Mapping[str, Any]) -> None:
    """Say why the game of ``row`` is set aside."""
    log.error(
        "game %s (%s in chat %s) is set aside: %s",
        corrupt.game_id,
        row["platform"],
        row["chat_id"],
        corrupt.reason,
        exc_info=corrupt.__cause__,
    )


# --- Owed messages, send times, the platforms' last signs of life ---------------------------

OWED_MESSAGES = Sql.of("SELECT * FROM owed_messages ORDER BY game_id, version, idx")
MESSAGE_SENT = Sql.of(
    "DELETE FROM owed_messages WHERE game_id = :game_id AND version = :version AND idx = :idx"
)
SEND_TIMES = Sql.of("SELECT chat_id, times FROM send_times WHERE platform = :platform")
SAVE_SEND_TIMES = Sql.of(
    "INSERT INTO send_times (platform, chat_id, times) VALUES (:platform, :chat_id, :times)"
    " ON CONFLICT (platform, chat_id) DO UPDATE SET times = excluded.times"
)
LAST_ALIVE = Sql.of("SELECT platform, at FROM alive")
SAVE_ALIVE = Sql.of(
    "INSERT INTO alive (platform, at) VALUES (:platform, :at)"
    " ON CONFLICT (platform) DO UPDATE SET at = excluded.at"
)

# --- Achievements ------------------------------------------------------------------------------

#: The players of one game (up to four, the missing ones repeat one) asked at once.
_FOUR_USERS = "platform = :platform AND user_id IN (:u0, :u1, :u2, :u3)"
ACHIEVEMENT_PROGRESS = Sql.of(
    f"SELECT platform, user_id, rated_games, partner, streak FROM achievement_progress"
    f" WHERE {_FOUR_USERS}"
)
ACHIEVEMENTS_HELD = Sql.of(
    f"SELECT platform, user_id, achievement FROM achievements WHERE {_FOUR_USERS}"
)
ACHIEVEMENTS_OF = Sql.of(
    "SELECT * FROM achievements WHERE platform = :platform AND user_id = :user_id"
)
ACHIEVEMENTS_EARNED = Sql.of(
    "SELECT * FROM achievements WHERE game_id = :game_id AND version = :version"
)


def four_users(users: Sequence[UserRef]) -> list[dict[str, Any]]:
    """The parameters of :data:`ACHIEVEMENT_PROGRESS` and :data:`ACHIEVEMENTS_HELD`
    that ask for ``users``: one set for every four of a platform.

    >>> four_users([UserRef(Platform.TELEGRAM, "1"), UserRef(Platform.TELEGRAM, "2")])
    [{'platform': 'telegram', 'u0': '1', 'u1': '2', 'u2': '2', 'u3': '2'}]
    """
    by_platform: dict[Platform, list[str]] = {}
    for user in users:
        ids = by_platform.setdefault(user.platform, [])
        if user.id not in ids:
            ids.append(user.id)
    asked = []
    for platform, ids in by_platform.items():
        for start in range(0, len(ids), 4):
            chunk = ids[start : start + 4]
            chunk += [chunk[-1]] * (4 - len(chunk))
            asked.append({"platform": platform.value, **{f"u{i}": u for i, u in enumerate(chunk)}})
    return asked


# --- Reliability (migration 0010, bot/reliability.py) -----------------------------------------

ENDING_COLUMNS = ("platform", "user_id", "game_id", "walked_out", "at")
#: A player's row of a rated game that ended is kept once: a repeat changes nothing.
INSERT_ENDING = insert("reliability", ENDING_COLUMNS, ignore=True)
#: A player's last ``:last`` rows (by the moment they ended): how many, how many he
#: walked out of (the rows whose ``walked_out`` is not NULL).
RELIABILITY = Sql.of(
    "SELECT COUNT(*) AS games, COUNT(walked_out) AS walked_out FROM ("
    " SELECT walked_out FROM reliability WHERE platform = :platform AND user_id = :user_id"
    " ORDER BY at DESC, game_id DESC LIMIT :last) AS latest"
)

# --- Secrets ----------------------------------------------------------------------------------

#: The first caller's random bytes are kept, so every process reads the same.
KEEP_SECRET = Sql.of(
    "INSERT{or_ignore} INTO secrets (name, value) VALUES (:name, :value){do_nothing}"
)
SECRET = Sql.of("SELECT value FROM secrets WHERE name = :name")

# --- Statistics and leaderboards ---------------------------------------------------------------
# They read the totals migration 0006 keeps (by triggers in the transactions that
# change what they count), never the results themselves.

USER_TOTALS = Sql.of(
    """
SELECT
    SUM(seats) AS seats,
    SUM(series_played) AS series_played,
    SUM(series_won) AS series_won,
    SUM(goat) AS goat,
    SUM(goat_with_eggs) AS goat_with_eggs,
    SUM(deals_played) AS deals_played,
    SUM(deals_won) AS deals_won,
    SUM(deals_lost) AS deals_lost,
    SUM(deals_eggs) AS deals_eggs,
    SUM(points) AS points,
    COALESCE(
        (SELECT u.name FROM users AS u WHERE u.platform = :platform AND u.id = :user_id),
        (SELECT q.name FROM participants AS q
         WHERE q.kind = 'human' AND q.platform = :platform AND q.user_id = :user_id
         ORDER BY q.game_id DESC, q.seat LIMIT 1)
    ) AS name
FROM user_results
WHERE platform = :platform AND user_id = :user_id
    AND (:rule_set IS NULL OR rule_set = :rule_set)
""",
    casts={"rule_set": "text"},
)


def user_stats(user: UserRef, totals: Mapping[str, Any]) -> UserStats | None:
    """The statistics of :data:`USER_TOTALS`' row; None if the user never sat."""
    if not totals["seats"]:
        return None
    return UserStats(
        user=user,
        name=totals["name"] if totals["name"] is not None else user.id,
        series_played=int(totals["series_played"]),
        series_won=int(totals["series_won"]),
        goat=int(totals["goat"]),
        goat_with_eggs=int(totals["goat_with_eggs"]),
        deals_played=int(totals["deals_played"]),
        deals_won=int(totals["deals_won"]),
        deals_lost=int(totals["deals_lost"]),
        deals_eggs=int(totals["deals_eggs"]),
        points=int(totals["points"]),
    )


#: The saved name, else the name at the latest seat (``participants_by_user``).
#: Names and ids sort by code point (``{by_code_point}``), as Python does, whatever
#: the database's own collation.
_NAMED_AND_RANKED = """
, named AS (
    SELECT
        played.*,
        COALESCE(
            (SELECT u.name FROM users AS u
             WHERE u.platform = :platform AND u.id = played.user_id),
            (SELECT q.name FROM participants AS q
             WHERE q.kind = 'human' AND q.platform = :platform AND q.user_id = played.user_id
             ORDER BY q.game_id DESC, q.seat LIMIT 1)
        ) AS name
    FROM played
)
SELECT user_id, series_played, series_won, name
FROM named
ORDER BY
    series_won DESC,
    CAST(series_won AS DOUBLE PRECISION) / series_played DESC,
    name{by_code_point},
    user_id{by_code_point}
LIMIT :limit
"""

#: A chat's players (a few), summed over the rule sets asked for (None: every one).
CHAT_LEADERBOARD = Sql.of(
    """
WITH played AS (
    SELECT
        user_id,
        CAST(SUM(series_played) AS BIGINT) AS series_played,
        CAST(SUM(series_won) AS BIGINT) AS series_won
    FROM chat_board
    WHERE platform = :platform AND chat_id = :chat_id
        AND (:rule_set IS NULL OR rule_set = :rule_set)
    GROUP BY user_id
    HAVING SUM(series_played) > 0 AND SUM(series_played) >= :min_series
)
"""
    + _NAMED_AND_RANKED,
    casts={"rule_set": "text"},
)

#: A platform's players (maybe millions): only those who won at least as many series
#: as the ``limit``-th best can be on the board, and the index on the wins finds them
#: (ties of the last place included, as the full order decides between them).
PLATFORM_LEADERBOARD = Sql.of(
    """
WITH played AS (
    SELECT user_id, series_played, series_won
    FROM platform_board
    WHERE platform = :platform AND rule_set = :rule_set
        AND series_played > 0 AND series_played >= :min_series
        AND series_won >= COALESCE(
            (SELECT series_won FROM platform_board
             WHERE platform = :platform AND rule_set = :rule_set
                AND series_played > 0 AND series_played >= :min_series
             ORDER BY series_won DESC
             LIMIT 1 OFFSET :limit - 1),
            0)
)
"""
    + _NAMED_AND_RANKED
)
#: The rule set of ``platform_board``'s rows that count every rule set's series.
EVERY_RULE_SET = "*"


def leaderboard_query(
    platform: Platform,
    chat: ChatRef | None,
    limit: int,
    min_series: int,
    rule_set: str | None,
) -> tuple[Sql, dict[str, Any]] | None:
    """The statement and parameters of :meth:`~bot.ports.Storage.leaderboard`'s
    read; None where the board is empty without asking (no room, another platform's
    chat)."""
    if limit <= 0 or (chat is not None and chat.platform is not platform):
        return None
    parameters: dict[str, Any] = {
        "platform": platform.value,
        "min_series": min_series,
        "limit": limit,
    }
    if chat is None:
        return PLATFORM_LEADERBOARD, {**parameters, "rule_set": rule_set or EVERY_RULE_SET}
    return CHAT_LEADERBOARD, {**parameters, "rule_set": rule_set, "chat_id": chat.id}
