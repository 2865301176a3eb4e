"""The row codec: the application's records as flat rows of plain values.

Both storages keep these rows: SQLite in its tables (``adapters.sqlite``) and
:class:`bot.memory.MemoryStorage` in dicts. Sharing one codec means the two store and
load exactly the same thing, so the in-memory fake used by the service tests cannot
drift from production.

A row holds only ``str``, ``int``, ``float`` and ``None``; structured fields (a
game's settings, seats and message ids, an action) are JSON text, and the game of its
rule set is its snapshot (:meth:`core.ruleset.Game.snapshot`), restored by the rule
set the row names. Booleans are stored as 0/1, as SQLite returns them.

>>> from bot.models import ChatRef, Game, Platform, UserRef
>>> game = Game(7, ChatRef(Platform.TELEGRAM, "-100", "5"), UserRef(Platform.TELEGRAM, "1"))
>>> row = game_to_row(game)
>>> row["chat_id"], row["thread_id"], row["status"]
('-100', '5', 'lobby')
>>> game_from_row(row) == game
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from functools import cache, lru_cache
from typing import Any, TypedDict

from pydantic import TypeAdapter

from bot.achievements import Awards, Earned, Progress
from bot.models import (
    ChatRef,
    Game,
    GameStatus,
    Platform,
    Seat,
    SeatKind,
    TableSettings,
    User,
    UserRef,
)
from bot.ports import ChatInfo, LeaderboardRow, LoggedAction, Owed, OwedKind
from core.ruleset import DealOutcome, GameOutcome, Snapshots, get_rule_set

#: Games whose recorded results count for statistics.
COUNTED_STATUSES = (GameStatus.PLAYING, GameStatus.FINISHED)
#: Games :meth:`~bot.ports.Storage.open_game` and ``active_games`` return.
OPEN_STATUSES = (GameStatus.LOBBY, GameStatus.PLAYING)


# --- Errors --------------------------------------------------------------------------


class StorageError(Exception):
    """A storage refused a write; nothing of it was kept."""


class NoSuchGame(StorageError, LookupError):
    """The game id is not stored (``save_game`` before ``create_game``, a result for
    an unknown game)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"no game with id {game_id}")
        self.game_id = game_id


class StaleGame(StorageError):
    """The stored game is no longer at the version the save started from: another
    writer (a second process, say) saved it first. Nothing of the save was kept; the
    press that led to it is a stale press."""

    def __init__(self, game_id: int, expected: int, stored: int) -> None:
        super().__init__(
            f"game {game_id} is at version {stored}, not {expected} as the save expected"
        )
        self.game_id = game_id
        self.expected = expected
        self.stored = stored


class DuplicateAction(StorageError):
    """An action with this game id and version is already logged: the log is
    append-only, so a retried save must not log it twice."""

    def __init__(self, game_id: int, version: int) -> None:
        super().__init__(f"game {game_id} already logged an action at version {version}")
        self.game_id = game_id
        self.version = version


# --- Row types ------------------------------------------------------------------------


class UserRow(TypedDict):
    platform: str
    id: str
    name: str
    locale: str | None


class ChatRow(TypedDict):
    platform: str
    id: str
    locale: str | None
    turn_timeout: int | None
    pictures: int | None  # 0/1, None: the default (on)


class GameRow(TypedDict):
    id: int
    platform: str
    chat_id: str
    thread_id: str | None
    creator_platform: str
    creator: str
    status: str
    rule_set: str
    settings: str  # JSON: TableSettings
    seats: str  # JSON: list of Seat or null
    snapshot: str  # the game's snapshot (core.ruleset.Game.snapshot)
    version: int
    created_at: float
    updated_at: float
    turn_deadline: float | None
    reminded: int
    messages: str  # JSON: {key: message id}
    rematch_of: int | None


class ParticipantRow(TypedDict):
    game_id: int
    seat: int
    platform: str | None  # None for a computer player
    user_id: str | None
    kind: str
    name: str


class ActionRow(TypedDict):
    game_id: int
    version: int
    seat: int
    platform: str | None
    user_id: str | None
    action: str  # JSON
    at: float
    auto: int


class DealRow(TypedDict):
    game_id: int
    number: int
    rule_set: str
    points_a: int
    points_b: int
    tricks_a: int
    tricks_b: int
    loss_a: int  # the deal's score for each team (the yard game's loss points)
    loss_b: int
    eggs: int
    winner: int | None  # Team value, None when neither team won the deal
    at: float


class SeriesRow(TypedDict):
    game_id: int
    rule_set: str
    loser: int  # Team value
    title: str
    loss_a: int  # the game's score for each team (the yard game's loss points)
    loss_b: int
    eggs: int
    deals: int
    at: float


# --- JSON fields -----------------------------------------------------------------------


@cache
def _settings_json() -> TypeAdapter[TableSettings]:
    return TypeAdapter(TableSettings)


@cache
def _seats_json() -> TypeAdapter[list[Seat | None]]:
    return TypeAdapter(list[Seat | None])


@cache
def _messages_json() -> TypeAdapter[dict[str, str]]:
    return TypeAdapter(dict[str, str])


@lru_cache(maxsize=4096)
def _seats_text(seats: tuple[Seat | None, ...]) -> str:
    """The seats' JSON; seats seldom change while every move saves them."""
    return _seats_json().dump_json(list(seats)).decode()


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


# --- Users and chats ---------------------------------------------------------------------


def user_to_row(user: User) -> UserRow:
    return {
        "platform": user.ref.platform.value,
        "id": str(user.ref.id),
        "name": user.name,
        "locale": user.locale,
    }


def user_from_row(row: Mapping[str, Any]) -> User:
    return User(UserRef(Platform(row["platform"]), row["id"]), row["name"], row["locale"])


def chat_to_row(chat: ChatInfo) -> ChatRow:
    """A chat's settings belong to the whole chat: the topic (thread) is dropped."""
    return {
        "platform": chat.ref.platform.value,
        "id": str(chat.ref.id),
        "locale": chat.locale,
        "turn_timeout": chat.turn_timeout,
        "pictures": None if chat.pictures is None else int(chat.pictures),
    }


def chat_from_row(row: Mapping[str, Any]) -> ChatInfo:
    pictures = row.get("pictures")
    return ChatInfo(
        ChatRef(Platform(row["platform"]), row["id"]),
        row["locale"],
        row["turn_timeout"],
        None if pictures is None else bool(pictures),
    )


# --- Games -------------------------------------------------------------------------------


def game_to_row(game: Game, snapshots: Snapshots | None = None) -> GameRow:
    """A game as one ``games`` row (its rule set's game as its snapshot). A storage
    that saves games over and over passes its ``snapshots`` writers: the text is the
    same."""
    return {
        "id": game.id,
        "platform": game.chat.platform.value,
        "chat_id": str(game.chat.id),
        "thread_id": None if game.chat.thread is None else str(game.chat.thread),
        "creator_platform": game.creator.platform.value,
        "creator": str(game.creator.id),
        "status": GameStatus(game.status).value,
        "rule_set": game.settings.rule_set,
        "settings": _settings_json().dump_json(game.settings).decode(),
        "seats": _seats_text(tuple(game.seats)),
        "snapshot": game.play.snapshot() if snapshots is None else snapshots.snapshot(game.play),
        "version": game.version,
        "created_at": float(game.created_at),
        "updated_at": float(game.updated_at),
        "turn_deadline": None if game.turn_deadline is None else float(game.turn_deadline),
        "reminded": int(game.reminded),
        "messages": _messages_json().dump_json(game.messages).decode(),
        "rematch_of": game.rematch_of,
    }


class DatabaseInUse(StorageError):
    """Another process runs on this database: two bots on one database would each play
    the same games from their own memory, so the second one refuses to start."""

    def __init__(self, path: str, holder: str) -> None:
        by = f" (process {holder})" if holder else ""
        super().__init__(
            f"the database {path} is in use by another Kozel process{by}: "
            "stop that one first, or give this one another DATABASE_URL"
        )
        self.path = path
        self.holder = holder


class DatabaseUnavailable(StorageError):
    """The database cannot be opened (a folder, no permission, a server that refuses or
    cannot be reached): the bot cannot start. The message names the database without
    its password."""


class CorruptGame(StorageError):
    """A stored game that no longer loads: its snapshot does not replay (the rules or
    the record format changed under it, the row was edited by hand) or a field does
    not parse. The storages set such a game aside instead of failing every read."""

    def __init__(self, game_id: int, reason: str) -> None:
        super().__init__(f"game {game_id} cannot be loaded: {reason}")
        self.game_id = game_id
        self.reason = reason


def game_from_row(row: Mapping[str, Any]) -> Game:
    """The game of a ``games`` row: a new object, sharing nothing with any other.
    Raises :class:`CorruptGame` if the row does not make a game."""
    try:
        return _game_from_row(row)
    except Exception as error:
        raise CorruptGame(row["id"], f"{type(error).__name__}: {error}") from error


def _game_from_row(row: Mapping[str, Any]) -> Game:
    return Game(
        id=row["id"],
        chat=ChatRef(Platform(row["platform"]), row["chat_id"], row["thread_id"]),
        creator=UserRef(Platform(row["creator_platform"]), row["creator"]),
        status=GameStatus(row["status"]),
        settings=_settings_json().validate_json(row["settings"]),
        seats=_seats_json().validate_json(row["seats"]),
        play=get_rule_set(row["rule_set"]).restore(row["snapshot"]),
        version=row["version"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        turn_deadline=row["turn_deadline"],
        reminded=bool(row["reminded"]),
        messages=_messages_json().validate_json(row["messages"]),
        rematch_of=row["rematch_of"],
    )


def participant_rows(game: Game) -> list[ParticipantRow]:
    """Who sits at the game's taken seats: humans by user id, computers by kind."""
    return seat_rows(game.id, game.seats)


def seat_rows(game_id: int, seats: Sequence[Seat | None]) -> list[ParticipantRow]:
    """The participant rows of a game's seats (see :func:`participant_rows`). They are a
    function of the seats, so they change only when the row's ``seats`` JSON does."""
    rows: list[ParticipantRow] = []
    for index, seat in enumerate(seats):
        if seat is None:
            continue
        user = seat.user if seat.kind is SeatKind.HUMAN else None
        rows.append(
            {
                "game_id": game_id,
                "seat": index,
                "platform": None if user is None else user.platform.value,
                "user_id": None if user is None else str(user.id),
                "kind": SeatKind(seat.kind).value,
                "name": seat.name,
            }
        )
    return rows


# --- The action log -------------------------------------------------------------------


def action_to_row(action: LoggedAction) -> ActionRow:
    return {
        "game_id": action.game_id,
        "version": action.version,
        "seat": action.seat,
        "platform": None if action.user is None else action.user.platform.value,
        "user_id": None if action.user is None else str(action.user.id),
        "action": _dumps(action.action),
        "at": float(action.at),
        "auto": int(action.auto),
    }


def action_from_row(row: Mapping[str, Any]) -> LoggedAction:
    user = None
    if row["platform"] is not None and row["user_id"] is not None:
        user = UserRef(Platform(row["platform"]), row["user_id"])
    action = json.loads(row["action"])
    if not isinstance(action, dict):
        raise ValueError(f"the logged action {row['game_id']}/{row['version']} is not an object")
    return LoggedAction(
        game_id=row["game_id"],
        version=row["version"],
        seat=row["seat"],
        user=user,
        action=action,
        at=row["at"],
        auto=bool(row["auto"]),
    )


def check_actions(game: Game, actions: Sequence[LoggedAction]) -> list[ActionRow]:
    """The rows of a save's new actions; every one must belong to ``game`` and carry a
    version of its own."""
    rows = [action_to_row(action) for action in actions]
    versions = [row["version"] for row in rows]
    for row in rows:
        if row["game_id"] != game.id:
            raise ValueError(f"an action of game {row['game_id']} saved with game {game.id}")
    if len(set(versions)) != len(versions):
        duplicate = next(v for v in versions if versions.count(v) > 1)
        raise DuplicateAction(game.id, duplicate)
    return rows


# --- Results ---------------------------------------------------------------------------


def deal_row(game: Game, outcome: DealOutcome, at: float) -> DealRow:
    """A deal's result as a ``deals`` row, with the game's rule set."""
    return {
        "game_id": game.id,
        "number": outcome.number,
        "rule_set": game.settings.rule_set,
        "points_a": outcome.points[0],
        "points_b": outcome.points[1],
        "tricks_a": outcome.tricks[0],
        "tricks_b": outcome.tricks[1],
        "loss_a": outcome.score[0],
        "loss_b": outcome.score[1],
        "eggs": int(outcome.eggs),
        "winner": None if outcome.winner is None else int(outcome.winner),
        "at": float(at),
    }


def series_row(game: Game, outcome: GameOutcome, at: float) -> SeriesRow:
    """A game's result as a ``series`` row, with its rule set."""
    return {
        "game_id": game.id,
        "rule_set": game.settings.rule_set,
        "loser": int(outcome.loser),
        "title": outcome.title,
        "loss_a": outcome.score[0],
        "loss_b": outcome.score[1],
        "eggs": outcome.eggs,
        "deals": outcome.deals,
        "at": float(at),
    }


# --- Achievements ----------------------------------------------------------------------


class AchievementRow(TypedDict):
    platform: str
    user_id: str
    achievement: str
    game_id: int
    version: int
    rule_set: str
    at: float


class ProgressRow(TypedDict):
    platform: str
    user_id: str
    rated_games: int
    partner: str | None
    streak: int


def achievement_rows(
    game: Game, awards: Awards | None
) -> tuple[list[AchievementRow], list[ProgressRow]]:
    """The rows of a save's achievements and progress; each must be of ``game``."""
    if awards is None:
        return [], []
    earned: list[AchievementRow] = []
    for item in awards.earned:
        if item.game_id != game.id:
            raise ValueError(f"an achievement of game {item.game_id} saved with game {game.id}")
        earned.append(
            {
                "platform": item.user.platform.value,
                "user_id": item.user.id,
                "achievement": item.achievement,
                "game_id": item.game_id,
                "version": item.version,
                "rule_set": item.rule_set,
                "at": float(item.at),
            }
        )
    progress: list[ProgressRow] = [
        {
            "platform": user.platform.value,
            "user_id": user.id,
            "rated_games": state.rated_games,
            "partner": state.partner,
            "streak": state.streak,
        }
        for user, state in awards.progress
    ]
    return earned, progress


def earned_from_row(row: Mapping[str, Any]) -> Earned:
    return Earned(
        UserRef(Platform(row["platform"]), row["user_id"]),
        row["achievement"],
        row["game_id"],
        row["version"],
        row["rule_set"],
        row["at"],
    )


def progress_from_rows(
    users: Iterable[UserRef],
    progress: Iterable[Mapping[str, Any]],
    earned: Iterable[Mapping[str, Any]],
) -> dict[UserRef, Progress]:
    """:meth:`~bot.ports.Storage.achievement_progress` from the progress rows and
    the (``platform``, ``user_id``, ``achievement``) rows of the users asked for."""
    asked = set(users)
    rows = {UserRef(Platform(r["platform"]), r["user_id"]): r for r in progress}
    has: dict[UserRef, set[str]] = {}
    for r in earned:
        has.setdefault(UserRef(Platform(r["platform"]), r["user_id"]), set()).add(r["achievement"])
    found: dict[UserRef, Progress] = {}
    for user in asked & (rows.keys() | has.keys()):
        row = rows.get(user)
        found[user] = Progress(
            0 if row is None else row["rated_games"],
            None if row is None else row["partner"],
            0 if row is None else row["streak"],
            frozenset(has.get(user, ())),
        )
    return found


# --- Owed messages ---------------------------------------------------------------------


class OwedRow(TypedDict):
    game_id: int
    version: int
    idx: int
    kind: str
    number: int


def owed_to_row(owed: Owed) -> OwedRow:
    return {
        "game_id": owed.game_id,
        "version": owed.version,
        "idx": owed.index,
        "kind": owed.kind.value,
        "number": owed.number,
    }


def owed_from_row(row: Mapping[str, Any]) -> Owed:
    return Owed(row["game_id"], row["version"], row["idx"], OwedKind(row["kind"]), row["number"])


def check_owed(game: Game, owed: Sequence[Owed]) -> list[OwedRow]:
    """The rows of a save's owed messages; every one must belong to ``game``."""
    for item in owed:
        if item.game_id != game.id:
            raise ValueError(f"a message owed by game {item.game_id} saved with game {game.id}")
    return [owed_to_row(item) for item in owed]


# --- Send times ------------------------------------------------------------------------

#: How many send times of a chat are kept (a Telegram group's budget is 20 a minute).
MAX_SEND_TIMES = 64


def send_times_to_text(times: Sequence[float]) -> str:
    return _dumps([float(t) for t in list(times)[-MAX_SEND_TIMES:]])


def send_times_from_text(text: str) -> list[float]:
    values = json.loads(text)
    if not isinstance(values, list):
        return []
    return [float(v) for v in values if isinstance(v, int | float)]


def leaderboard_rows(platform: Platform, rows: Iterable[Any]) -> list[LeaderboardRow]:
    """A leaderboard query's rows (``user_id``, ``name``, ``series_played``,
    ``series_won`` by name), the same for every SQL storage."""
    return [
        LeaderboardRow(
            user=UserRef(platform, row["user_id"]),
            name=row["name"],
            series_played=row["series_played"],
            series_won=row["series_won"],
        )
        for row in rows
    ]
