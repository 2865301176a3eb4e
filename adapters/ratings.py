"""The ratings' SQL (migration ``0009_ratings.sql``) and how a storage keeps them.

The numbers come from :mod:`bot.ratings`; this module turns a rated game into the
statements of its update, for both SQL storages, which run them in the transaction
that keeps the game's result (SQLite on its writer thread, PostgreSQL in its own
transaction around the save):

1. :data:`RATED_ALREADY`: a game is rated once (its ``rating_changes`` rows);
2. :func:`new_rows`: each row the game updates is made, with a new player's
   rating, if missing;
3. :func:`reads`: the rows;
4. :func:`writes`: their new values, the players' changes and partners.

PostgreSQL asks the same in two statements, a round trip each (nine had taken a
third of an update's time): :data:`MADE_AND_LOCKED` does 1–3 and locks the rows in
one order (so two processes rating games of one player wait for each other),
:data:`KEPT` writes what 4 writes.

:func:`replay_history` rates a database's finished games in order, once, right after
the migration that makes the tables (both storages' ``migrate``).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

from adapters.sql import Sql
from bot import ratings
from bot.models import ChatRef, Platform, UserRef
from bot.ratings import EVERY, Applied, Key, RatedGame, Skill

#: The migration (by name) after which :func:`replay_history` runs.
MIGRATION = "ratings"

_SKILL = ("mu", "sigma", "rating", "best", "games", "wins")
_RATING_KEY = ("platform", "rule_set", "user_id")
_SEASON_KEY = ("platform", "chat_id", "season", "rule_set", "user_id")

RATED_ALREADY = Sql.of("SELECT 1 FROM rating_changes WHERE game_id = :game_id LIMIT 1")
NEW_RATING = Sql.of(
    f"INSERT{{or_ignore}} INTO ratings ({', '.join(_RATING_KEY + _SKILL)})"
    f" VALUES ({', '.join(':' + c for c in _RATING_KEY + _SKILL)}){{do_nothing}}"
)
NEW_SEASON_RATING = Sql.of(
    f"INSERT{{or_ignore}} INTO season_ratings ({', '.join(_SEASON_KEY + _SKILL)})"
    f" VALUES ({', '.join(':' + c for c in _SEASON_KEY + _SKILL)}){{do_nothing}}"
)
RATINGS_OF = Sql.of(
    """
SELECT rule_set, user_id, mu, sigma, games, wins, best FROM ratings
WHERE platform = :platform AND rule_set IN (:rule_set, '*')
    AND user_id IN (:p0, :p1, :p2, :p3)
"""
)
SEASON_RATINGS_OF = Sql.of(
    """
SELECT chat_id, season, rule_set, user_id, mu, sigma, games, wins, best FROM season_ratings
WHERE platform = :platform AND chat_id = :chat_id AND season = :season
    AND rule_set IN (:rule_set, '*') AND user_id IN (:p0, :p1, :p2, :p3)
"""
)
UPDATE_RATING = Sql.of(
    "UPDATE ratings SET "
    + ", ".join(f"{c} = :{c}" for c in _SKILL)
    + " WHERE "
    + " AND ".join(f"{c} = :{c}" for c in _RATING_KEY)
)
UPDATE_SEASON_RATING = Sql.of(
    "UPDATE season_ratings SET "
    + ", ".join(f"{c} = :{c}" for c in _SKILL)
    + " WHERE "
    + " AND ".join(f"{c} = :{c}" for c in _SEASON_KEY)
)
_CHANGE = (
    "game_id",
    "seat",
    "platform",
    "user_id",
    "rule_set",
    "rating_before",
    "rating_after",
    "won",
    "at",
)
INSERT_CHANGE = Sql.of(
    f"INSERT INTO rating_changes ({', '.join(_CHANGE)})"
    f" VALUES ({', '.join(':' + c for c in _CHANGE)})"
)
COUNT_PARTNER = Sql.of(
    """
    INSERT INTO partners (platform, user_id, rule_set, partner_id, games, wins)
    VALUES (:platform, :user_id, :rule_set, :partner_id, 1, :wins)
    ON CONFLICT (platform, user_id, rule_set, partner_id) DO UPDATE SET
        games = partners.games + 1,
        wins = partners.wins + excluded.wins
    """
)

#: The results to rate at the migration, a row per seat (none for a game without
#: participants), in the order of the results; a finished game's are rated.
RESULT_SEATS = Sql.of(
    """
SELECT s.game_id, s.rule_set, s.loser, s.at, g.platform, g.chat_id, g.status,
    p.seat, p.kind, p.platform AS user_platform, p.user_id
FROM series_results AS s
JOIN games AS g ON g.id = s.game_id
LEFT JOIN participants AS p ON p.game_id = s.game_id
ORDER BY s.at, s.game_id, p.seat
"""
)

# --- Reads for the screens ----------------------------------------------------------------

#: The saved name, else the name at the latest seat (as :mod:`adapters.sql` names).
_NAME = """COALESCE(
    (SELECT u.name FROM users AS u WHERE u.platform = :platform AND u.id = b.user_id),
    (SELECT q.name FROM participants AS q
     WHERE q.kind = 'human' AND q.platform = :platform AND q.user_id = b.user_id
     ORDER BY q.game_id DESC, q.seat LIMIT 1)
)"""

#: A platform's best rated players: the index on the rating finds them.
PLATFORM_BOARD = Sql.of(
    f"""
SELECT b.user_id, b.rating, b.games, b.wins, {_NAME} AS name
FROM (
    SELECT user_id, rating, games, wins FROM ratings
    WHERE platform = :platform AND rule_set = :rule_set AND games >= :min_games
    ORDER BY rating DESC, user_id{{by_code_point}}
    LIMIT :limit
) AS b
ORDER BY b.rating DESC, b.user_id{{by_code_point}}
"""
)
#: A chat's best rated players: those who played there (``chat_board``, a few).
CHAT_BOARD = Sql.of(
    f"""
SELECT b.user_id, b.rating, b.games, b.wins, {_NAME} AS name
FROM (
    SELECT r.user_id, r.rating, r.games, r.wins FROM ratings AS r
    WHERE r.platform = :platform AND r.rule_set = :rule_set AND r.games >= :min_games
        AND r.user_id IN (
            SELECT c.user_id FROM chat_board AS c
            WHERE c.platform = :platform AND c.chat_id = :chat_id
                AND (:played IS NULL OR c.rule_set = :played)
        )
    ORDER BY r.rating DESC, r.user_id{{by_code_point}}
    LIMIT :limit
) AS b
ORDER BY b.rating DESC, b.user_id{{by_code_point}}
""",
    casts={"played": "text"},
)
#: A chat's season board.
SEASON_BOARD = Sql.of(
    f"""
SELECT b.user_id, b.rating, b.games, b.wins, {_NAME} AS name
FROM (
    SELECT user_id, rating, games, wins FROM season_ratings
    WHERE platform = :platform AND chat_id = :chat_id AND season = :season
        AND rule_set = :rule_set AND games >= :min_games
    ORDER BY rating DESC, user_id{{by_code_point}}
    LIMIT :limit
) AS b
ORDER BY b.rating DESC, b.user_id{{by_code_point}}
"""
)
#: A player's ratings, every rule set's.
USER_RATINGS = Sql.of(
    "SELECT rule_set, rating, best, games, wins, sigma FROM ratings"
    " WHERE platform = :platform AND user_id = :user_id ORDER BY rule_set"
)
#: A player's latest changes in each rule set, newest first.
USER_CHANGES = Sql.of(
    """
SELECT rule_set, rating_before, rating_after FROM (
    SELECT rule_set, game_id, rating_before, rating_after,
        ROW_NUMBER() OVER (PARTITION BY rule_set ORDER BY game_id DESC) AS n
    FROM rating_changes WHERE platform = :platform AND user_id = :user_id
) AS c
WHERE n <= :limit
ORDER BY rule_set, game_id DESC
"""
)
#: The partner a player won most rated games with, in each rule set.
BEST_PARTNERS = Sql.of(
    f"""
SELECT b.rule_set, b.user_id, b.games, b.wins, {_NAME} AS name
FROM (
    SELECT rule_set, partner_id AS user_id, games, wins,
        ROW_NUMBER() OVER (
            PARTITION BY rule_set ORDER BY wins DESC, games, partner_id{{by_code_point}}
        ) AS n
    FROM partners
    WHERE platform = :platform AND user_id = :user_id AND wins > 0
) AS b
WHERE b.n = 1
"""
)
#: A chat's new id (:meth:`~bot.ports.Storage.migrate_chat`): its season ratings
#: move with its games, unless the new id has its own row for the same key.
MOVE_SEASON_RATINGS = Sql.of(
    """
UPDATE season_ratings SET chat_id = :new_id
WHERE platform = :old_platform AND chat_id = :old_id AND :new_platform = :old_platform
    AND NOT EXISTS (
        SELECT 1 FROM season_ratings AS n
        WHERE n.platform = season_ratings.platform AND n.chat_id = :new_id
            AND n.season = season_ratings.season AND n.rule_set = season_ratings.rule_set
            AND n.user_id = season_ratings.user_id
    )
""",
    casts={"new_id": "text", "new_platform": "text"},
)
#: The changes a game gave its players, by seat.
GAME_CHANGES = Sql.of(
    "SELECT seat, user_id, rating_before, rating_after, won FROM rating_changes"
    " WHERE game_id = :game_id ORDER BY seat"
)

STATEMENTS = {name: value for name, value in globals().items() if isinstance(value, Sql)}

# --- PostgreSQL's update in two statements ------------------------------------------------
# Each statement's rows come as JSON arrays of objects, a parameter per table, in the
# order of :func:`new_rows`' and :func:`writes`' statements.

_TYPES = {
    **dict.fromkeys(("mu", "sigma", "at"), "double precision"),
    **dict.fromkeys(
        ("rating", "best", "games", "wins", "seat", "rating_before", "rating_after", "won"),
        "integer",
    ),
    "game_id": "bigint",
}


def _json_rows(parameter: str, columns: Sequence[str]) -> str:
    """The rows of a JSON parameter as a relation ``k`` of ``columns``."""
    typed = ", ".join(f"{column} {_TYPES.get(column, 'text')}" for column in columns)
    return f"json_to_recordset({parameter}::json) AS k({typed})"


def _rows_into(table: str, parameter: str, columns: Sequence[str]) -> str:
    """Insert into ``table`` the rows of a JSON parameter (``k``, of ``columns``)."""
    names = ", ".join(columns)
    return f"""
    INSERT INTO {table} ({names})
    SELECT {names} FROM {_json_rows(parameter, columns)}"""


def _make_and_lock(table: str, parameter: str, key: Sequence[str]) -> str:
    """Insert ``table``'s rows of ``parameter`` where missing and lock them all, in
    one order: an upsert that changes nothing locks a row it finds; none while
    ``$3``'s game is rated already."""
    scope = "chat_id, season" if "season" in key else "NULL::text AS chat_id, NULL::text AS season"
    return f"""{_rows_into(table, parameter, (*key, *_SKILL))}
    WHERE NOT EXISTS (SELECT 1 FROM rating_changes WHERE game_id = $3)
    ORDER BY {", ".join(key)}
    ON CONFLICT ({", ".join(key)}) DO UPDATE SET mu = {table}.mu
    RETURNING {scope}, rule_set, user_id, mu, sigma, games, wins, best"""


#: The rows a game updates (``$1``: ``ratings``', ``$2``: ``season_ratings``', as
#: :func:`new_rows`), made if missing and locked, as :func:`reads` reads them; no
#: row when the game (``$3``) is rated already.
MADE_AND_LOCKED = f"""
WITH r AS ({_make_and_lock("ratings", "$1", _RATING_KEY)}
), s AS ({_make_and_lock("season_ratings", "$2", _SEASON_KEY)}
)
SELECT * FROM r UNION ALL SELECT * FROM s
"""


def _update(table: str, parameter: str, key: Sequence[str]) -> str:
    """Write ``table``'s rows of ``parameter`` over the locked rows: an upsert, so
    each row is found by its key's index whatever the planner thinks of a join."""
    return f"""{_rows_into(table, parameter, (*key, *_SKILL))}
    ON CONFLICT ({", ".join(key)}) DO UPDATE SET
        {", ".join(f"{c} = excluded.{c}" for c in _SKILL)}"""


_PARTNER = ("platform", "user_id", "rule_set", "partner_id", "wins")
#: A game's update as :func:`writes` makes it, its rows in ``$1``..``$4``.
KEPT = f"""
WITH r AS ({_update("ratings", "$1", _RATING_KEY)}
), s AS ({_update("season_ratings", "$2", _SEASON_KEY)}
), c AS ({_rows_into("rating_changes", "$3", _CHANGE)}
)
INSERT INTO partners (platform, user_id, rule_set, partner_id, games, wins)
SELECT platform, user_id, rule_set, partner_id, 1, wins FROM {_json_rows("$4", _PARTNER)}
ON CONFLICT (platform, user_id, rule_set, partner_id) DO UPDATE SET
    games = partners.games + 1,
    wins = partners.wins + excluded.wins
"""


# --- The update of one rated game -------------------------------------------------------------


def _players(game: RatedGame) -> dict[str, str]:
    return {f"p{seat}": user for seat, user in enumerate(game.players)}


def _skill_row(skill: Skill) -> dict[str, Any]:
    return {
        "mu": skill.mu,
        "sigma": skill.sigma,
        "rating": skill.rating,
        "best": skill.best,
        "games": skill.games,
        "wins": skill.wins,
    }


def _key_row(platform: str, key: Key) -> dict[str, Any]:
    scope, rule_set, user = key
    row: dict[str, Any] = {"platform": platform, "rule_set": rule_set, "user_id": user}
    if scope is not None:
        row["chat_id"], row["season"] = scope
    return row


def new_rows(game: RatedGame) -> list[tuple[Sql, list[dict[str, Any]]]]:
    """The rows ``game`` updates, each with a new player's rating: inserted where
    missing (a kept row stays as it is)."""
    fresh = _skill_row(Skill())
    rows = [{**_key_row(game.platform, key), **fresh} for key in ratings.keys(game)]
    return [
        (NEW_RATING, [row for row in rows if "season" not in row]),
        (NEW_SEASON_RATING, [row for row in rows if "season" in row]),
    ]


def reads(game: RatedGame) -> list[tuple[Sql, dict[str, Any]]]:
    """The statements that read (and on PostgreSQL lock) the rows ``game`` updates."""
    common = {"platform": game.platform, "rule_set": game.rule_set, **_players(game)}
    season = {**common, "chat_id": game.chat_id, "season": game.season}
    return [(RATINGS_OF, common), (SEASON_RATINGS_OF, season)]


def writes(
    game: RatedGame, found: Iterable[Mapping[str, Any]]
) -> tuple[Applied, list[tuple[Sql, list[dict[str, Any]]]]]:
    """``game``'s update on the rows :func:`reads` found: the update, and the
    statements that keep it."""
    book = ratings.rows_by_key(found)
    applied = ratings.apply(game, book)
    return applied, _writes(game, applied, update=True)


def _writes(
    game: RatedGame, applied: Applied, *, update: bool
) -> list[tuple[Sql, list[dict[str, Any]]]]:
    rows = [
        {**_key_row(game.platform, key), **_skill_row(skill)}
        for key, skill in applied.skills.items()
    ]
    changes = [
        {
            "game_id": game.game_id,
            "seat": change.seat,
            "platform": game.platform,
            "user_id": change.user_id,
            "rule_set": game.rule_set,
            "rating_before": change.before,
            "rating_after": change.after,
            "won": int(change.won),
            "at": game.at,
        }
        for change in applied.changes
    ]
    partners = [
        {
            "platform": game.platform,
            "user_id": user,
            "rule_set": rule_set,
            "partner_id": partner,
            "wins": int(won),
        }
        for user, partner, won in ratings.partners(game)
        for rule_set in (game.rule_set, EVERY)
    ]
    statements: list[tuple[Sql, list[dict[str, Any]]]] = []
    if update:
        statements += [
            (UPDATE_RATING, [row for row in rows if "season" not in row]),
            (UPDATE_SEASON_RATING, [row for row in rows if "season" in row]),
        ]
    return [*statements, (INSERT_CHANGE, changes), (COUNT_PARTNER, partners)]


def changes_from_rows(rows: Iterable[Mapping[str, Any]]) -> tuple[ratings.RatingChange, ...]:
    """:data:`GAME_CHANGES`' rows as the game's changes."""
    return tuple(
        ratings.RatingChange(
            str(row["user_id"]),
            int(row["seat"]),
            int(row["rating_before"]),
            int(row["rating_after"]),
            bool(row["won"]),
        )
        for row in rows
    )


def board_rows(platform: Platform, rows: Iterable[Mapping[str, Any]]) -> list[ratings.BoardRow]:
    """A board's rows (``user_id``, ``rating``, ``games``, ``wins``, ``name``)."""
    return [
        ratings.BoardRow(
            UserRef(platform, str(row["user_id"])),
            row["name"] if row["name"] is not None else str(row["user_id"]),
            int(row["rating"]),
            int(row["games"]),
            int(row["wins"]),
        )
        for row in rows
    ]


def board_query(
    platform: Platform, chat: ChatRef | None, board: ratings.Board, limit: int
) -> tuple[Sql, dict[str, Any]] | None:
    """The statement and parameters of a rating board; None where it is empty
    without asking (no room, another platform's chat, a season without a chat)."""
    if limit <= 0 or (chat is not None and chat.platform is not platform):
        return None
    parameters: dict[str, Any] = {
        "platform": platform.value,
        "rule_set": board.rule_set or EVERY,
        "min_games": board.min_games,
        "limit": limit,
    }
    if board.season is not None:
        if chat is None:
            return None
        return SEASON_BOARD, {**parameters, "chat_id": chat.id, "season": board.season}
    if chat is None:
        return PLATFORM_BOARD, parameters
    return CHAT_BOARD, {**parameters, "chat_id": chat.id, "played": board.rule_set}


# --- The history, rated at the migration ------------------------------------------------------


class Connection(Protocol):
    """What :func:`replay_history` needs of a migrating connection: a read whose
    rows come a few at a time (a big history never sits in memory whole) and a
    write of many rows."""

    def stream(
        self, statement: Sql, values: Mapping[str, Any]
    ) -> AsyncIterator[Mapping[str, Any]]: ...
    async def execute_many(self, statement: Sql, rows: Sequence[Mapping[str, Any]]) -> None: ...


#: Rows the replay writes at once.
CHUNK = 5_000


def rated_game_of(seats: Sequence[Mapping[str, Any]]) -> RatedGame | None:
    """One game's :data:`RESULT_SEATS` rows as the rated game it is, or None: it is
    rated if finished, with four humans of the game's platform at four seats, four
    different users (as :func:`bot.ratings.rated_game` decides for a game finishing
    now)."""
    first = seats[0]
    if first["status"] != "finished":
        return None
    users = {
        int(row["seat"]): str(row["user_id"])
        for row in seats
        if row["kind"] == "human"
        and row["user_id"] is not None
        and row["user_platform"] == first["platform"]
    }
    if len(seats) != 4 or sorted(users) != [0, 1, 2, 3] or len(set(users.values())) != 4:
        return None
    return RatedGame(
        int(first["game_id"]),
        str(first["platform"]),
        str(first["chat_id"]),
        str(first["rule_set"]),
        float(first["at"]),
        (users[0], users[1], users[2], users[3]),
        int(first["loser"]),
    )


async def rated_games(rows: AsyncIterator[Mapping[str, Any]]) -> AsyncIterator[RatedGame]:
    """The rated games of :data:`RESULT_SEATS`' rows, in order."""
    seats: list[Mapping[str, Any]] = []
    async for row in rows:
        if seats and row["game_id"] != seats[0]["game_id"]:
            game = rated_game_of(seats)
            if game is not None:
                yield game
            seats = []
        seats.append(row)
    if seats:
        game = rated_game_of(seats)
        if game is not None:
            yield game


class _Replay:
    """The state of :func:`replay_history`: each platform's book of ratings (the
    all-time rows and the current season's; a season's rows are written and
    dropped once the results have moved past it: they never change again) and the
    rows waiting to be written."""

    def __init__(self, db: Connection) -> None:
        self.db = db
        self.books: dict[str, dict[Key, Skill]] = {}
        self.season = ""
        self.waiting: dict[Sql, list[dict[str, Any]]] = {}
        self.games = 0

    async def rate(self, game: RatedGame) -> None:
        if game.season != self.season:
            await self.close_seasons(game.season)
        applied = ratings.apply(game, self.books.setdefault(game.platform, {}))
        for statement, rows in _writes(game, applied, update=False):
            await self.write(statement, rows)
        self.games += 1

    async def close_seasons(self, season: str) -> None:
        """Write the rows of every season before ``season`` and forget them."""
        self.season = season
        for platform, book in self.books.items():
            done = [key for key in book if key[0] is not None and key[0][1] != season]
            for key in done:
                await self.write(
                    NEW_SEASON_RATING, [{**_key_row(platform, key), **_skill_row(book.pop(key))}]
                )

    async def write(self, statement: Sql, rows: Iterable[dict[str, Any]]) -> None:
        waiting = self.waiting.setdefault(statement, [])
        waiting.extend(rows)
        if len(waiting) >= CHUNK:
            await self.db.execute_many(statement, waiting)
            waiting.clear()

    async def finish(self) -> int:
        for platform, book in self.books.items():
            for key, skill in book.items():
                statement = NEW_RATING if key[0] is None else NEW_SEASON_RATING
                await self.write(statement, [{**_key_row(platform, key), **_skill_row(skill)}])
        for statement, rows in self.waiting.items():
            if rows:
                await self.db.execute_many(statement, rows)
        self.waiting.clear()
        return self.games


async def replay_history(db: Connection) -> int:
    """Rate every finished game of the database in the order of its results, each
    platform's apart (a user id means a user on its platform only); return how many
    games were rated. The tables are new and empty: this runs once, in the
    migration's transaction, reading the results as a stream and writing in chunks.
    """
    replay = _Replay(db)
    async for game in rated_games(db.stream(RESULT_SEATS, {})):
        await replay.rate(game)
    return await replay.finish()


# --- A player's ratings, for /stats -----------------------------------------------------------

Read = Callable[[Sql, Mapping[str, Any]], Awaitable[Sequence[Mapping[str, Any]]]]


async def player_ratings(user: UserRef, read: Read) -> list[ratings.PlayerRating]:
    """``user``'s ratings (each rule set's, then every rule set's), each with his
    latest changes and the partner he won most with, through a storage's ``read``:
    three reads by key, asked at once, whatever the rule sets."""
    who = {"platform": user.platform.value, "user_id": user.id}
    rows, changes, best_partners = await asyncio.gather(
        read(USER_RATINGS, who),
        read(USER_CHANGES, {**who, "limit": ratings.LAST_CHANGES}),
        read(BEST_PARTNERS, who),
    )
    last: dict[str, list[int]] = {}
    for change in changes:
        delta = int(change["rating_after"]) - int(change["rating_before"])
        last.setdefault(str(change["rule_set"]), []).append(delta)
    partners = {
        str(best["rule_set"]): ratings.Partner(
            UserRef(user.platform, str(best["user_id"])),
            str(best["name"] or best["user_id"]),
            int(best["games"]),
            int(best["wins"]),
        )
        for best in best_partners
    }
    return [
        ratings.PlayerRating(
            str(row["rule_set"]),
            int(row["rating"]),
            int(row["best"]),
            int(row["games"]),
            int(row["wins"]),
            round(ratings.SCALE * float(row["sigma"])),
            tuple(last.get(str(row["rule_set"]), ())),
            partners.get(str(row["rule_set"])),
        )
        for row in rows
    ]
