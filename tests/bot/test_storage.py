"""The storage contract: the same cases against MemoryStorage, SqliteStorage and
PostgresStorage (on a real server the tests start).

MemoryStorage is the reference the service tests rely on; these cases pin that SQLite
behaves exactly like it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from dataclasses import dataclass, replace

import pytest

from adapters.postgres import PostgresStorage
from adapters.sqlite import SqliteStorage
from bot.memory import MemoryStorage
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
from bot.ports import ChatInfo, LeaderboardRow, LoggedAction, Owed, OwedKind, Storage, UserStats
from bot.rows import MAX_SEND_TIMES, DuplicateAction, NoSuchGame, StaleGame
from core.ruleset import DealOutcome, GameOutcome
from core.seats import Team
from core.yard.events import DealResult, SeriesResult, Title
from core.yard.ruleset import YardGame, deal_outcome, game_outcome
from core.yard.series import Series

TG = Platform.TELEGRAM
DC = Platform.DISCORD

# User ids run against the names' order, so sorting by name is seen to differ from
# sorting by id.
ALICE = UserRef(TG, "4")
BOB = UserRef(TG, "3")
CAROL = UserRef(TG, "2")
DAVE = UserRef(TG, "1")
EVE = UserRef(TG, "5")
ALICE_DC = UserRef(DC, "4")  # same id, other platform: another person

CHAT = ChatRef(TG, "-100", "7")
CHAT_X = ChatRef(TG, "-200")
CHAT_Y = ChatRef(TG, "-300")


# The ``storage`` fixture (tests/bot/conftest.py) runs every test here on both the
# in-memory and the SQLite storage.


# --- Builders --------------------------------------------------------------------------


def human(user: UserRef, name: str, **changes: object) -> Seat:
    return Seat(SeatKind.HUMAN, name, user).with_(**changes)


def computer(name: str = "Bot") -> Seat:
    return Seat(SeatKind.COMPUTER, name, level="baseline")


def mid_trick_series() -> Series:
    """A series with one deal played out and the second stopped inside a trick."""
    series = Series(first_dealer=3)
    series.deal(random.Random(1))
    deal = series.current
    assert deal is not None
    while not deal.is_over:
        series.apply(series.legal_actions()[0])
    series.deal(random.Random(2))
    for _ in range(2):
        series.apply(series.legal_actions()[0])
    current = series.current
    assert current is not None and current.turn != current.leader  # inside a trick
    return series


def full_game(rematch_of: int | None = None) -> Game:
    """A game with every field away from its default."""
    return Game(
        id=0,
        chat=ChatRef(TG, "-1001234567890", "42"),
        creator=ALICE,
        status=GameStatus.PLAYING,
        settings=TableSettings(
            rule_set="yard", turn_timeout=60, locale="en", computer_level="strong"
        ),
        seats=[
            human(ALICE, "Алиса 🐐", missed=2, away=True),
            Seat(SeatKind.COMPUTER, "Бот", level="strong"),
            None,
            human(BOB, "O'Brien\"; DROP TABLE games; --"),
        ],
        play=YardGame(mid_trick_series()),
        version=17,
        created_at=1_700_000_000.125,
        updated_at=1_700_000_123.5,
        turn_deadline=1_700_000_243.75,
        reminded=True,
        messages={"table": "981", "hand:0": "982", "hand:3": "9" * 20},
        rematch_of=rematch_of,
    )


async def new_game(
    storage: Storage,
    chat: ChatRef = CHAT,
    seats: list[Seat | None] | None = None,
    status: GameStatus = GameStatus.LOBBY,
) -> Game:
    game = Game(0, chat, ALICE, status=status)
    if seats is not None:
        game.seats = seats
    return await storage.create_game(game)


def logged(game: Game, version: int, seat: int = 0, **changes: object) -> LoggedAction:
    action = LoggedAction(
        game_id=game.id,
        version=version,
        seat=seat,
        user=ALICE,
        action={"seat": seat, "type": "lead", "cards": ["7C"]},
        at=1000.0 + version,
    )
    return replace(action, **changes)  # type: ignore[arg-type]


def deal(
    points: tuple[int, int], loss: tuple[int, int], winner: Team | None, eggs: bool = False
) -> DealResult:
    return DealResult(points, (4, 4), loss, eggs, winner, 0)


def series_lost_by(loser: Team, eggs: int = 0) -> GameOutcome:
    title = Title.GOATS_WITH_EGGS if eggs else Title.GOATS
    loss = (12, 2) if loser is Team.A else (2, 12)
    return game_outcome(SeriesResult(loser, title, loss, deals=3, eggs=eggs))


# --- Users and chats -----------------------------------------------------------------


async def test_users_round_trip_and_update(storage: Storage) -> None:
    assert await storage.get_user(ALICE) is None
    await storage.save_user(User(ALICE, "Alice"))
    assert await storage.get_user(ALICE) == User(ALICE, "Alice")
    await storage.save_user(User(ALICE, "Алиса", "ru"))
    assert await storage.get_user(ALICE) == User(ALICE, "Алиса", "ru")
    assert await storage.get_user(ALICE_DC) is None


async def test_chat_settings_belong_to_the_whole_chat(storage: Storage) -> None:
    assert await storage.get_chat(CHAT) is None
    await storage.save_chat(ChatInfo(CHAT, "en", 60))
    whole = ChatRef(CHAT.platform, CHAT.id)
    assert await storage.get_chat(CHAT) == ChatInfo(whole, "en", 60)
    assert await storage.get_chat(ChatRef(TG, CHAT.id, "other topic")) == ChatInfo(whole, "en", 60)
    await storage.save_chat(ChatInfo(whole, None, 0))
    assert await storage.get_chat(CHAT) == ChatInfo(whole, None, 0)
    assert await storage.get_chat(ChatRef(DC, CHAT.id)) is None


# --- Games ------------------------------------------------------------------------------


async def test_game_round_trips_exactly_with_a_series_mid_trick(storage: Storage) -> None:
    first = await new_game(storage)
    game = full_game(rematch_of=first.id)
    created = await storage.create_game(game)
    assert created.id > first.id
    assert created == replace(game, id=created.id)

    loaded = await storage.load_game(created.id)
    assert loaded == replace(game, id=created.id)
    assert loaded is not None and loaded.play.series is not game.play.series
    # The restored series plays on exactly as the original does.
    for series in (game.play.series, loaded.play.series):
        series.apply(series.legal_actions()[0])
    assert loaded.play.series == game.play.series
    assert loaded.play.series.legal_actions() == game.play.series.legal_actions()


async def test_defaults_round_trip(storage: Storage) -> None:
    game = Game(0, ChatRef(DC, "123456789012345678901"), ALICE_DC)
    created = await storage.create_game(game)
    assert await storage.load_game(created.id) == replace(game, id=created.id)


async def test_saved_game_does_not_alias_the_callers_object(storage: Storage) -> None:
    game = await storage.create_game(full_game())
    snapshot = replace(game, seats=list(game.seats), messages=dict(game.messages))
    await storage.save_game(game)

    game.play.series.apply(game.play.series.legal_actions()[0])
    game.seats[2] = computer()
    game.messages["table"] = "changed"
    game.version += 1

    loaded = await storage.load_game(game.id)
    assert loaded is not None
    assert loaded.version == snapshot.version
    assert loaded.seats == snapshot.seats
    assert loaded.messages == snapshot.messages
    assert loaded.play.series != game.play.series
    again = await storage.load_game(game.id)
    assert again == loaded and again is not loaded and again.play.series is not loaded.play.series


async def test_create_ignores_the_given_id(storage: Storage) -> None:
    a = await storage.create_game(replace(full_game(), id=999))
    b = await storage.create_game(replace(full_game(), id=999))
    assert (a.id, b.id) == (1, 2)
    assert await storage.load_game(999) is None


async def test_save_updates_version_status_and_fields(storage: Storage) -> None:
    game = await new_game(storage)
    game.version = 3
    game.status = GameStatus.PLAYING
    game.seats = [human(ALICE, "Alice"), computer(), computer(), human(BOB, "Bob")]
    game.turn_deadline = 55.5
    game.messages = {"table": "1"}
    await storage.save_game(game)
    assert await storage.load_game(game.id) == game

    game.version = 4
    game.turn_deadline = None
    game.reminded = False
    game.messages = {}
    await storage.save_game(game)
    assert await storage.load_game(game.id) == game


async def test_unknown_games(storage: Storage) -> None:
    assert await storage.load_game(12345) is None
    ghost = replace(full_game(), id=12345)
    with pytest.raises(NoSuchGame):
        await storage.save_game(ghost, [logged(ghost, 1)])
    with pytest.raises(NoSuchGame):
        await storage.record_deal(
            ghost, deal_outcome(0, deal((60, 60), (0, 0), None, eggs=True)), 1.0
        )
    with pytest.raises(NoSuchGame):
        await storage.record_series(ghost, series_lost_by(Team.A), 1.0)
    assert await storage.game_actions(12345) == []


async def test_open_game_of_a_chat_ignores_topic_and_closed_games(storage: Storage) -> None:
    assert await storage.open_game(CHAT) is None
    lobby = await new_game(storage, CHAT)
    assert await storage.open_game(CHAT) == lobby
    assert await storage.open_game(ChatRef(TG, CHAT.id)) == lobby
    assert await storage.open_game(ChatRef(TG, CHAT.id, "another topic")) == lobby
    assert await storage.open_game(ChatRef(DC, CHAT.id)) is None
    assert await storage.open_game(CHAT_X) is None

    lobby.status = GameStatus.PLAYING
    lobby.version = 1
    await storage.save_game(lobby)
    assert await storage.open_game(CHAT) == lobby

    for status in (GameStatus.FINISHED, GameStatus.CANCELLED):
        lobby.status = status
        await storage.save_game(lobby)
        assert await storage.open_game(CHAT) is None


async def test_open_game_is_the_newest_open_one(storage: Storage) -> None:
    older = await new_game(storage, CHAT, status=GameStatus.PLAYING)
    newer = await new_game(storage, ChatRef(TG, CHAT.id), status=GameStatus.LOBBY)
    await new_game(storage, CHAT, status=GameStatus.FINISHED)
    assert older.id < newer.id
    assert await storage.open_game(CHAT) == newer


async def test_active_games_are_every_lobby_and_running_game(storage: Storage) -> None:
    a = await new_game(storage, CHAT, status=GameStatus.PLAYING)
    await new_game(storage, CHAT_X, status=GameStatus.FINISHED)
    b = await new_game(storage, CHAT_X, status=GameStatus.LOBBY)
    await new_game(storage, CHAT_Y, status=GameStatus.CANCELLED)
    c = await new_game(storage, ChatRef(DC, "9"), status=GameStatus.PLAYING)
    assert await storage.active_games() == [a, b, c]


# --- The action log ----------------------------------------------------------------------


async def test_action_log_is_ordered_and_append_only(storage: Storage) -> None:
    game = await new_game(storage, status=GameStatus.PLAYING)
    a1 = logged(game, 1)
    a2 = logged(
        game,
        2,
        seat=1,
        user=None,
        auto=True,
        action={"seat": 1, "type": "beat", "cards": ["9C"]},
    )
    game.version = 2
    await storage.save_game(game, [a2, a1])
    assert await storage.game_actions(game.id) == [a1, a2]

    a3 = logged(game, 3, seat=2, user=BOB, action={"seat": 2, "type": "molodka"})
    game.version = 3
    await storage.save_game(game, [a3])
    assert await storage.game_actions(game.id) == [a1, a2, a3]

    # A retried save of an action already logged is refused as a whole.
    game.version = 5
    with pytest.raises(DuplicateAction) as refused:
        await storage.save_game(game, [logged(game, 4), logged(game, 2)])
    assert refused.value.version == 2
    loaded = await storage.load_game(game.id)
    assert loaded is not None and loaded.version == 3
    assert await storage.game_actions(game.id) == [a1, a2, a3]

    with pytest.raises(DuplicateAction):
        await storage.save_game(game, [logged(game, 4), logged(game, 4)])
    assert await storage.game_actions(game.id) == [a1, a2, a3]


async def test_a_save_from_a_version_no_longer_stored_is_stale_and_keeps_nothing(
    storage: Storage,
) -> None:
    seats: list[Seat | None] = [human(ALICE, "Alice"), None, None, None]
    game = await new_game(storage, seats=seats, status=GameStatus.PLAYING)
    game.version = 1
    await storage.save_game(game, [logged(game, 1)], base=0)
    # A second writer that also started from version 0 lost the race.
    late = replace(game, status=GameStatus.CANCELLED, seats=[None, None, None, None])
    won = deal((70, 50), (0, 2), Team.A)
    with pytest.raises(StaleGame) as refused:
        await storage.save_game(
            late, [logged(late, 1, seat=3)], deals=[deal_outcome(0, won)], base=0
        )
    assert (refused.value.game_id, refused.value.expected, refused.value.stored) == (
        game.id,
        0,
        1,
    )
    # Another version in the log does not get it through either: the row is fenced.
    late.version = 2
    with pytest.raises(StaleGame):
        await storage.save_game(late, [logged(late, 2)], base=0)
    assert await storage.load_game(game.id) == game
    assert await storage.game_actions(game.id) == [logged(game, 1)]
    assert await storage.user_stats(ALICE) == UserStats(ALICE, "Alice")  # no deal kept
    # From the stored version it goes on; a save that keeps the version fences on it.
    game.version = 2
    await storage.save_game(game, [logged(game, 2)], base=1)
    game.messages = {"table": "5"}
    await storage.save_game(game, base=2)
    assert await storage.load_game(game.id) == game


async def test_of_two_saves_racing_from_one_version_exactly_one_is_kept(
    storage: Storage,
) -> None:
    game = await new_game(storage, status=GameStatus.PLAYING)
    one, two = replace(game, version=1), replace(game, version=1, reminded=True)
    results = await asyncio.gather(
        storage.save_game(one, [logged(one, 1, seat=0)], base=0),
        storage.save_game(two, [logged(two, 1, seat=2)], base=0),
        return_exceptions=True,
    )
    assert results[0] is None and isinstance(results[1], StaleGame)
    assert await storage.load_game(game.id) == one
    assert [a.seat for a in await storage.game_actions(game.id)] == [0]


async def test_an_unknown_game_is_unknown_before_it_is_stale(storage: Storage) -> None:
    ghost = Game(404, CHAT, ALICE, version=1)
    with pytest.raises(NoSuchGame):
        await storage.save_game(ghost, [logged(ghost, 1)], base=0)


async def test_actions_must_belong_to_the_saved_game(storage: Storage) -> None:
    game = await new_game(storage)
    other = await new_game(storage, CHAT_X)
    game.version = 1
    with pytest.raises(ValueError, match="action of game"):
        await storage.save_game(game, [logged(other, 1)])
    loaded = await storage.load_game(game.id)
    assert loaded is not None and loaded.version == 0
    assert await storage.game_actions(other.id) == []


async def test_logs_of_games_are_separate(storage: Storage) -> None:
    one = await new_game(storage)
    two = await new_game(storage, CHAT_X)
    await storage.save_game(one, [logged(one, 1)])
    await storage.save_game(two, [logged(two, 1), logged(two, 2)])
    assert [a.version for a in await storage.game_actions(one.id)] == [1]
    assert [a.version for a in await storage.game_actions(two.id)] == [1, 2]


async def test_concurrent_saves_of_many_games_are_all_kept_in_order(storage: Storage) -> None:
    games = [await new_game(storage, ChatRef(TG, str(-i))) for i in range(40)]

    async def play(game: Game) -> None:
        for version in range(1, 6):
            game.version = version
            game.messages = {"table": f"{game.id}-{version}"}
            await storage.save_game(game, [logged(game, version, seat=version % 4)])

    await asyncio.gather(*(play(game) for game in games))
    for game in games:
        assert await storage.load_game(game.id) == game
        log = await storage.game_actions(game.id)
        assert [(a.version, a.seat) for a in log] == [(v, v % 4) for v in range(1, 6)]


async def test_a_refused_save_among_concurrent_ones_keeps_nothing(storage: Storage) -> None:
    seats: list[Seat | None] = [human(ALICE, "Al"), None, None, None]
    good = await new_game(storage, CHAT_X, seats, GameStatus.PLAYING)
    bad = await new_game(storage, CHAT_Y, seats, GameStatus.PLAYING)
    await storage.save_game(bad, [logged(bad, 1)])
    before = await storage.load_game(bad.id)

    good.version = bad.version = 2
    bad.seats = [None, None, None, None]
    bad.status = GameStatus.FINISHED
    ghost = replace(full_game(), id=12345)
    won = deal((70, 50), (0, 2), Team.A)
    outcomes = await asyncio.gather(
        storage.save_game(good, [logged(good, 1), logged(good, 2)], deals=[deal_outcome(0, won)]),
        storage.save_game(
            bad,
            [logged(bad, 2), logged(bad, 1)],
            deals=[deal_outcome(0, won)],
            series=series_lost_by(Team.B),
        ),
        storage.save_game(ghost, [logged(ghost, 1)]),
        return_exceptions=True,
    )
    assert outcomes[0] is None
    assert isinstance(outcomes[1], DuplicateAction) and outcomes[1].version == 1
    assert isinstance(outcomes[2], NoSuchGame)

    assert await storage.load_game(good.id) == good
    assert [a.version for a in await storage.game_actions(good.id)] == [1, 2]
    assert await storage.load_game(bad.id) == before
    assert [a.version for a in await storage.game_actions(bad.id)] == [1]
    # Only the good game's deal counts: the refused save kept no result.
    stats = await storage.user_stats(ALICE)
    assert stats is not None
    assert (stats.deals_played, stats.series_played) == (1, 0)


async def test_results_saved_with_the_game_are_kept_once(storage: Storage) -> None:
    game = await new_game(storage, seats=[human(ALICE, "Al"), None, None, None])
    game.status = GameStatus.PLAYING
    game.version = 1
    await storage.save_game(
        game, [logged(game, 1)], deals=[deal_outcome(0, deal((70, 50), (0, 2), Team.A))]
    )
    game.status = GameStatus.FINISHED
    game.version = 2
    await storage.save_game(
        game,
        [logged(game, 2)],
        deals=[
            deal_outcome(0, deal((0, 120), (12, 0), Team.B)),
            deal_outcome(1, deal((20, 100), (12, 0), Team.B)),
        ],
        series=series_lost_by(Team.B),
    )
    game.version = 3
    await storage.save_game(game, [logged(game, 3)], series=series_lost_by(Team.A))
    stats = await storage.user_stats(ALICE)
    assert stats is not None
    assert (stats.deals_played, stats.deals_won, stats.points) == (2, 1, 70 + 20)
    assert (stats.series_played, stats.series_won) == (1, 1)


# --- Results and statistics -------------------------------------------------------------


@dataclass
class History:
    games: dict[str, Game]


async def build_history(storage: Storage) -> History:
    """Known results: see the expectations in the tests below.

    g1 (chat X, finished): Alice A, Bob B, Carol A. Deals: A won 70-50; eggs 60-60;
        B won 20-100. Team A lost the series with eggs.
    g2 (chat X, finished): Bob A, Alice B, Dave A, Carol B. One deal, A won 120-0;
        team B lost.
    g3 (chat Y, finished): Alice A, Dave B. One deal, A won 90-30; team B lost.
    g4 (chat X, cancelled): results recorded but never counted.
    g5 (chat X, lobby): Eve only sat here.
    g6 (chat X, playing): Alice A; one deal B won 40-80, no series yet.
    g7 (Discord): Alice's namesake lost a series.
    """
    await storage.save_user(User(ALICE, "Alice"))
    games: dict[str, Game] = {}

    async def add(key: str, chat: ChatRef, seats: list[Seat | None], status: GameStatus) -> Game:
        game = await new_game(storage, chat, seats, status)
        games[key] = game
        return game

    g1 = await add(
        "g1",
        CHAT_X,
        [human(ALICE, "Al"), human(BOB, "Bobby"), human(CAROL, "Carol"), computer()],
        GameStatus.FINISHED,
    )
    await storage.record_deal(g1, deal_outcome(0, deal((70, 50), (0, 2), Team.A)), 10.0)
    await storage.record_deal(g1, deal_outcome(0, deal((70, 50), (0, 2), Team.A)), 99.0)  # retried
    await storage.record_deal(g1, deal_outcome(1, deal((60, 60), (0, 0), None, eggs=True)), 11.0)
    await storage.record_deal(g1, deal_outcome(2, deal((20, 100), (12, 0), Team.B)), 12.0)
    await storage.record_series(g1, series_lost_by(Team.A, eggs=1), 12.0)
    await storage.record_series(g1, series_lost_by(Team.B), 13.0)  # retried: ignored

    g2 = await add(
        "g2",
        CHAT_X,
        [human(BOB, "Bob"), human(ALICE, "Al"), human(DAVE, "Dave"), human(CAROL, "Carol")],
        GameStatus.FINISHED,
    )
    await storage.record_deal(g2, deal_outcome(0, deal((120, 0), (0, 12), Team.A)), 20.0)
    await storage.record_series(g2, series_lost_by(Team.B), 20.0)

    g3 = await add(
        "g3",
        CHAT_Y,
        [human(ALICE, "Al"), human(DAVE, "Dave"), computer(), computer()],
        GameStatus.FINISHED,
    )
    await storage.record_deal(g3, deal_outcome(0, deal((90, 30), (0, 12), Team.A)), 30.0)
    await storage.record_series(g3, series_lost_by(Team.B), 30.0)

    g4 = await add(
        "g4",
        CHAT_X,
        [human(ALICE, "Al"), human(BOB, "Bob"), human(CAROL, "Carol"), human(DAVE, "Dave")],
        GameStatus.PLAYING,
    )
    await storage.record_deal(g4, deal_outcome(0, deal((100, 20), (0, 12), Team.A)), 40.0)
    await storage.record_series(g4, series_lost_by(Team.B), 40.0)
    g4.status = GameStatus.CANCELLED
    await storage.save_game(g4)

    await add("g5", CHAT_X, [human(EVE, "Eve"), None, None, None], GameStatus.LOBBY)

    g6 = await add(
        "g6",
        CHAT_X,
        [human(ALICE, "Al"), computer(), computer(), computer()],
        GameStatus.PLAYING,
    )
    await storage.record_deal(g6, deal_outcome(0, deal((40, 80), (2, 0), Team.B)), 60.0)

    g7 = await add(
        "g7",
        ChatRef(DC, CHAT_X.id),
        [human(ALICE_DC, "Alice D"), computer(), computer(), computer()],
        GameStatus.FINISHED,
    )
    await storage.record_series(g7, series_lost_by(Team.A), 70.0)
    return History(games)


async def test_user_stats_count_humans_in_playing_and_finished_games(storage: Storage) -> None:
    await build_history(storage)
    assert await storage.user_stats(ALICE) == UserStats(
        user=ALICE,
        name="Alice",  # the saved name beats the seat's
        series_played=3,
        series_won=1,
        goat=2,
        goat_with_eggs=1,
        deals_played=6,
        deals_won=2,
        deals_lost=3,
        deals_eggs=1,
        points=(70 + 60 + 20) + 0 + 90 + 40,
    )
    assert await storage.user_stats(BOB) == UserStats(
        user=BOB,
        name="Bob",  # his name at his latest seat
        series_played=2,
        series_won=2,
        deals_played=4,
        deals_won=2,
        deals_lost=1,
        deals_eggs=1,
        points=(50 + 60 + 100) + 120,
    )
    assert await storage.user_stats(ALICE_DC) == UserStats(
        user=ALICE_DC, name="Alice D", series_played=1, goat=1
    )


async def test_user_stats_none_for_who_never_played(storage: Storage) -> None:
    await build_history(storage)
    assert await storage.user_stats(EVE) is None  # only sat in a lobby
    assert await storage.user_stats(UserRef(TG, "nobody")) is None


async def test_results_are_recorded_once(storage: Storage) -> None:
    game = await new_game(storage, seats=[human(ALICE, "Al"), None, None, None])
    game.status = GameStatus.FINISHED
    await storage.save_game(game)
    for _ in range(3):
        await storage.record_deal(game, deal_outcome(0, deal((70, 50), (0, 2), Team.A)), 1.0)
        await storage.record_series(game, series_lost_by(Team.B), 1.0)
    stats = await storage.user_stats(ALICE)
    assert stats is not None
    assert (stats.deals_played, stats.deals_won, stats.points) == (1, 1, 70)
    assert (stats.series_played, stats.series_won) == (1, 1)


async def test_leaderboard_of_a_platform(storage: Storage) -> None:
    await build_history(storage)
    rows = await storage.leaderboard(TG, None)
    assert rows == [
        LeaderboardRow(BOB, "Bob", 2, 2),
        LeaderboardRow(DAVE, "Dave", 2, 1),  # 1 of 2 beats Alice's 1 of 3
        LeaderboardRow(ALICE, "Alice", 3, 1),
        LeaderboardRow(CAROL, "Carol", 2, 0),
    ]
    assert await storage.leaderboard(TG, None, limit=2) == rows[:2]
    assert await storage.leaderboard(TG, None, limit=0) == []
    assert await storage.leaderboard(TG, None, min_series=3) == [rows[2]]
    assert await storage.leaderboard(TG, None, min_series=4) == []
    assert await storage.leaderboard(DC, None) == [LeaderboardRow(ALICE_DC, "Alice D", 1, 0)]


async def test_leaderboard_of_a_chat(storage: Storage) -> None:
    await build_history(storage)
    chat_x = [
        LeaderboardRow(BOB, "Bob", 2, 2),
        LeaderboardRow(DAVE, "Dave", 1, 1),
        LeaderboardRow(ALICE, "Alice", 2, 0),  # ties Carol: by name, though her id is greater
        LeaderboardRow(CAROL, "Carol", 2, 0),
    ]
    assert await storage.leaderboard(TG, CHAT_X) == chat_x
    assert await storage.leaderboard(TG, ChatRef(TG, CHAT_X.id, "topic")) == chat_x
    assert await storage.leaderboard(TG, CHAT_Y) == [
        LeaderboardRow(ALICE, "Alice", 1, 1),
        LeaderboardRow(DAVE, "Dave", 1, 0),
    ]
    assert await storage.leaderboard(TG, ChatRef(TG, "-999")) == []


async def test_stats_and_leaderboards_by_rule_set(storage: Storage) -> None:
    """Results keep their game's rule set: figures count every rule set's games, or
    one rule set's (the history is the yard game's; g8 is a classic game in chat X:
    Alice and Carol of team A won its one deal 80-40 and the game, team B goats
    with eggs and tails)."""
    await build_history(storage)
    yard_alice = await storage.user_stats(ALICE)
    yard_board = await storage.leaderboard(TG, None)
    seats = [human(ALICE, "Al"), human(BOB, "Bob"), human(CAROL, "Carol"), human(DAVE, "Dave")]
    classic = Game(0, CHAT_X, ALICE, GameStatus.FINISHED, TableSettings(rule_set="classic"), seats)
    classic = await storage.create_game(classic)
    assert classic.play.rule_set_id == "classic"
    won = DealOutcome(0, Team.A, (80, 40), (5, 3), (2, 0), False)
    await storage.record_deal(classic, won, 80.0)
    await storage.record_series(
        classic, GameOutcome(Team.B, "goats_with_eggs_and_tails", (6, 0), 1, 1), 80.0
    )

    assert await storage.user_stats(ALICE, "yard") == yard_alice
    assert await storage.user_stats(ALICE, "classic") == UserStats(
        user=ALICE,
        name="Alice",
        series_played=1,
        series_won=1,
        deals_played=1,
        deals_won=1,
        points=80,
    )
    assert await storage.user_stats(BOB, "classic") == UserStats(
        user=BOB,
        name="Bob",
        series_played=1,
        goat=1,
        goat_with_eggs=1,
        deals_played=1,
        deals_lost=1,
        points=40,
    )
    every = await storage.user_stats(ALICE)
    assert yard_alice is not None and every is not None
    assert (every.series_played, every.series_won, every.deals_played, every.points) == (
        yard_alice.series_played + 1,
        yard_alice.series_won + 1,
        yard_alice.deals_played + 1,
        yard_alice.points + 80,
    )
    assert await storage.user_stats(EVE, "classic") is None
    assert await storage.user_stats(ALICE_DC, "classic") is None

    assert await storage.leaderboard(TG, None, rule_set="yard") == yard_board
    assert await storage.leaderboard(TG, CHAT_X, rule_set="classic") == [
        LeaderboardRow(ALICE, "Alice", 1, 1),
        LeaderboardRow(CAROL, "Carol", 1, 1),
        LeaderboardRow(BOB, "Bob", 1, 0),
        LeaderboardRow(DAVE, "Dave", 1, 0),
    ]
    assert await storage.leaderboard(TG, CHAT_Y, rule_set="classic") == []
    assert (await storage.leaderboard(TG, None))[0] == LeaderboardRow(BOB, "Bob", 3, 2)


async def test_leaderboard_uses_the_latest_saved_name(storage: Storage) -> None:
    await build_history(storage)
    await storage.save_user(User(CAROL, "Aaron"))
    rows = await storage.leaderboard(TG, CHAT_X)
    assert [row.name for row in rows] == ["Bob", "Dave", "Aaron", "Alice"]


# --- Chats changing ids -----------------------------------------------------------------


async def test_migrate_chat_moves_games_and_settings(storage: Storage) -> None:
    old = ChatRef(TG, "-42", "3")
    new = ChatRef(TG, "-100042")
    await storage.save_chat(ChatInfo(old, "en", 30))
    done = await new_game(storage, old, [human(ALICE, "Al"), None, None, None], GameStatus.FINISHED)
    await storage.record_series(done, series_lost_by(Team.B), 1.0)
    lobby = await new_game(storage, old)
    elsewhere = await new_game(storage, CHAT_X)

    await storage.migrate_chat(ChatRef(TG, old.id), new)

    assert await storage.open_game(old) is None
    moved = await storage.open_game(new)
    assert moved == replace(lobby, chat=ChatRef(TG, new.id, old.thread))
    assert await storage.open_game(CHAT_X) == elsewhere
    assert await storage.get_chat(old) is None
    assert await storage.get_chat(new) == ChatInfo(new, "en", 30)
    assert await storage.leaderboard(TG, new) == [LeaderboardRow(ALICE, "Al", 1, 1)]
    assert await storage.leaderboard(TG, old) == []


async def test_migrate_chat_keeps_newer_settings_of_the_new_chat(storage: Storage) -> None:
    old, new = ChatRef(TG, "-42"), ChatRef(TG, "-100042")
    await storage.save_chat(ChatInfo(old, "en", 30))
    await storage.save_chat(ChatInfo(new, "ru", 120))
    await storage.migrate_chat(old, new)
    assert await storage.get_chat(new) == ChatInfo(new, "ru", 120)
    assert await storage.get_chat(old) is None


async def test_migrate_chat_to_itself_changes_nothing(storage: Storage) -> None:
    await storage.save_chat(ChatInfo(CHAT_X, "en", 30))
    game = await new_game(storage, CHAT_X)
    await storage.migrate_chat(CHAT_X, CHAT_X)
    assert await storage.get_chat(CHAT_X) == ChatInfo(CHAT_X, "en", 30)
    assert await storage.open_game(CHAT_X) == game


# --- Games that no longer load -----------------------------------------------------------


async def corrupt(storage: Storage, game_id: int) -> None:
    """Make the game's stored snapshot one that no longer replays: its first action
    twice (the second out of turn, with cards already played)."""
    if isinstance(storage, MemoryStorage):
        rows = storage._games
        text = rows[game_id]["snapshot"]
    elif isinstance(storage, PostgresStorage):
        text = await storage.pool.fetchval("SELECT snapshot FROM games WHERE id = $1", game_id)
    else:
        assert isinstance(storage, SqliteStorage)
        async with storage.connection.execute(
            "SELECT snapshot FROM games WHERE id = ?", (game_id,)
        ) as cursor:
            found = await cursor.fetchone()
        assert found is not None
        text = found[0]
    data = json.loads(text)
    actions = data["deals"][-1]["actions"]
    actions.insert(1, dict(actions[0]))  # the same seat plays the same cards again
    broken = json.dumps(data)
    if isinstance(storage, MemoryStorage):
        storage._games[game_id]["snapshot"] = broken
    elif isinstance(storage, PostgresStorage):
        await storage.pool.execute("UPDATE games SET snapshot = $1 WHERE id = $2", broken, game_id)
    else:
        assert isinstance(storage, SqliteStorage)
        await storage.connection.execute(
            "UPDATE games SET snapshot = ? WHERE id = ?", (broken, game_id)
        )


async def test_a_corrupt_game_row_is_set_aside_and_every_other_game_loads(
    storage: Storage, caplog: pytest.LogCaptureFixture
) -> None:
    """Regression: one snapshot that no longer replays made every read of the open
    games fail, which stopped the bot and the console from starting."""
    games = []
    for chat in (CHAT_X, CHAT, CHAT_Y):
        game = full_game()
        game.chat = chat
        games.append(await storage.create_game(game))
    await corrupt(storage, games[1].id)
    with caplog.at_level(logging.ERROR):
        assert [g.id for g in await storage.active_games()] == [games[0].id, games[2].id]
    (record,) = [r for r in caplog.records if "set aside" in r.getMessage()]
    assert record.getMessage().startswith(f"game {games[1].id} ")
    assert record.levelno == logging.ERROR
    aside = await storage.set_aside()  # type: ignore[attr-defined]
    assert list(aside) == [games[1].id] and "RecordError" in aside[games[1].id]
    # Every read skips it from now on, without logging it again.
    caplog.clear()
    assert await storage.load_game(games[1].id) is None
    assert await storage.open_game(CHAT) is None
    assert [g.id for g in await storage.active_games()] == [games[0].id, games[2].id]
    assert not caplog.records
    # Its chat can play again.
    fresh = await new_game(storage, CHAT)
    loaded = await storage.open_game(CHAT)
    assert loaded is not None and loaded.id == fresh.id
    assert await storage.load_game(games[0].id) == games[0]


async def test_a_corrupt_newest_game_of_a_chat_leaves_the_older_open_one(
    storage: Storage,
) -> None:
    older = await new_game(storage, CHAT)
    newer = full_game()
    newer.chat = CHAT
    newer = await storage.create_game(newer)
    await corrupt(storage, newer.id)
    found = await storage.open_game(CHAT)
    assert found is not None and found.id == older.id


# --- Owed messages and send times --------------------------------------------------------


def owed(game: Game, version: int, index: int = 0, number: int | None = None) -> Owed:
    if number is None:
        return Owed(game.id, version, index, OwedKind.SERIES_RESULT)
    return Owed(game.id, version, index, OwedKind.DEAL_RESULT, number)


async def test_owed_messages_are_saved_with_the_game_in_order_until_sent(
    storage: Storage,
) -> None:
    seats: list[Seat | None] = [human(ALICE, "Al"), None, None, None]
    first = await new_game(storage, CHAT_X, seats, GameStatus.PLAYING)
    second = await new_game(storage, CHAT_Y, seats, GameStatus.PLAYING)
    assert await storage.owed_messages() == []
    second.version = 1
    await storage.save_game(second, [logged(second, 1)], owed=[owed(second, 1, number=0)])
    first.version = 2
    first.status = GameStatus.FINISHED
    ended = [owed(first, 2, 0, number=3), owed(first, 2, 1)]
    await storage.save_game(first, [logged(first, 1), logged(first, 2)], owed=ended)
    first.version = 1  # saved again with the same owed messages: they are kept once
    await storage.save_game(first, owed=[owed(first, 1, number=2)])
    await storage.save_game(first, owed=[owed(first, 1, number=2)])

    expected = [owed(first, 1, number=2), *ended, owed(second, 1, number=0)]
    assert await storage.owed_messages() == expected
    await storage.message_sent(ended[0])
    await storage.message_sent(ended[0])  # twice is harmless
    assert await storage.owed_messages() == [expected[0], expected[2], expected[3]]
    for item in await storage.owed_messages():
        await storage.message_sent(item)
    assert await storage.owed_messages() == []


async def test_a_refused_save_owes_nothing(storage: Storage) -> None:
    game = await new_game(storage, seats=[human(ALICE, "Al"), None, None, None])
    game.version = 1
    await storage.save_game(game, [logged(game, 1)])
    with pytest.raises(DuplicateAction):
        await storage.save_game(game, [logged(game, 1)], owed=[owed(game, 1)])
    ghost = replace(full_game(), id=4242)
    with pytest.raises(NoSuchGame):
        await storage.save_game(ghost, owed=[owed(ghost, 1)])
    with pytest.raises(ValueError, match="owed by game"):
        await storage.save_game(game, owed=[owed(ghost, 1)])
    assert await storage.owed_messages() == []


async def test_a_stale_fenced_save_owes_nothing(storage: Storage) -> None:
    game = await new_game(storage, seats=[human(ALICE, "Al"), None, None, None])
    game.version = 1
    await storage.save_game(game, [logged(game, 1)], base=0)
    game.version = 2
    with pytest.raises(StaleGame):
        await storage.save_game(game, [logged(game, 2)], owed=[owed(game, 2)], base=0)
    assert await storage.owed_messages() == []
    await storage.save_game(game, [logged(game, 2)], owed=[owed(game, 2)], base=1)
    assert await storage.owed_messages() == [owed(game, 2)]


async def test_send_times_are_kept_per_platform_and_chat(storage: Storage) -> None:
    assert await storage.send_times(TG) == {}
    await storage.save_send_times(TG, "-100", [1.5, 2.5])
    await storage.save_send_times(TG, "-200", [3.0])
    await storage.save_send_times(DC, "-100", [9.0])
    await storage.save_send_times(TG, "-100", [float(t) for t in range(200)])
    times = await storage.send_times(TG)
    assert times.keys() == {"-100", "-200"} and times["-200"] == [3.0]
    assert times["-100"] == [float(t) for t in range(200 - MAX_SEND_TIMES, 200)]
    assert await storage.send_times(DC) == {"-100": [9.0]}


async def test_a_secret_is_made_once_and_read_the_same_by_every_caller(storage: Storage) -> None:
    key = await storage.secret("join-links")
    assert len(key) == 32
    assert await asyncio.gather(*(storage.secret("join-links") for _ in range(5))) == [key] * 5
    assert await storage.secret("other") != key
