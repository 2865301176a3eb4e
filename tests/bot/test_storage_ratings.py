"""The storage contract for ratings (migration 0009, :mod:`adapters.ratings`): the
same cases against MemoryStorage, SqliteStorage and PostgresStorage."""

from __future__ import annotations

import random

import pytest

from bot import ratings
from bot.models import ChatRef, Game, GameStatus, Seat, SeatKind, TableSettings, UserRef
from bot.ports import Storage
from bot.ratings import EVERY, Board, RatedGame
from bot.rows import StaleGame
from core.seats import Team
from tests.bot.test_storage import CHAT, CHAT_X, TG, human, series_lost_by

USERS = [UserRef(TG, str(n)) for n in range(1, 9)]
DECEMBER = 1_764_547_200.0  # 2025-12-01 00:00 UTC


async def finished(
    storage: Storage,
    players: list[UserRef],
    loser: Team,
    *,
    chat: ChatRef = CHAT,
    at: float = DECEMBER,
    rule_set: str = "yard",
    computer_at: int | None = None,
    record: bool = False,
) -> Game:
    """A game of ``players`` (by seat) that ``loser`` lost, kept as the service keeps
    it (the finishing save), or by ``record_series``."""
    seats: list[Seat | None] = [human(user, f"P{user.id}") for user in players]
    if computer_at is not None:
        seats[computer_at] = Seat(SeatKind.COMPUTER, "Bot")
    settings = TableSettings(rule_set=rule_set)
    game = await storage.create_game(Game(0, chat, players[0], GameStatus.PLAYING, settings, seats))
    game.status = GameStatus.FINISHED
    game.updated_at = at
    if record:
        await storage.save_game(game)
        await storage.record_series(game, series_lost_by(loser), at)
    else:
        await storage.save_game(game, series=series_lost_by(loser))
    return game


def expected(games: list[RatedGame]) -> dict[ratings.Key, ratings.Skill]:
    book, _ = ratings.replay(games)
    return book


async def test_a_rated_game_gives_each_player_his_change_once(storage: Storage) -> None:
    game = await finished(storage, USERS[:4], Team.B)
    changes = await storage.game_ratings(game.id)
    assert [(c.user_id, c.seat, c.before, c.after, c.won) for c in changes] == [
        ("1", 0, 1000, 1097, True),
        ("2", 1, 1000, 940, False),
        ("3", 2, 1000, 1097, True),
        ("4", 3, 1000, 940, False),
    ]
    # The result kept again (a repeated save, a record of it): rated once.
    await storage.save_game(game, series=series_lost_by(Team.B))
    await storage.record_series(game, series_lost_by(Team.B), DECEMBER)
    assert await storage.game_ratings(game.id) == changes
    mine = {r.rule_set: r for r in await storage.player_ratings(USERS[0])}
    assert set(mine) == {"yard", EVERY}
    assert (mine["yard"].rating, mine["yard"].games, mine["yard"].wins) == (1097, 1, 1)
    assert mine["yard"].last == (97,)
    assert mine["yard"].partner is not None and mine["yard"].partner.user == USERS[2]


async def test_a_result_kept_by_record_series_is_rated_too(storage: Storage) -> None:
    game = await finished(storage, USERS[:4], Team.A, record=True)
    assert [c.delta for c in await storage.game_ratings(game.id)] == [-60, 97, -60, 97]


@pytest.mark.parametrize("computer_at", [0, 3])
async def test_a_game_with_a_computer_changes_no_rating(storage: Storage, computer_at: int) -> None:
    game = await finished(storage, USERS[:4], Team.B, computer_at=computer_at)
    assert await storage.game_ratings(game.id) == ()
    for user in USERS[:4]:
        assert await storage.player_ratings(user) == []
    board = Board(min_games=0)
    assert await storage.rating_board(TG, None, board) == []
    assert await storage.rating_board(TG, CHAT, board) == []


async def test_a_cancelled_game_changes_no_rating(storage: Storage) -> None:
    seats: list[Seat | None] = [human(user, "P") for user in USERS[:4]]
    game = await storage.create_game(Game(0, CHAT, USERS[0], GameStatus.PLAYING, seats=seats))
    game.status = GameStatus.CANCELLED
    await storage.save_game(game)
    assert await storage.player_ratings(USERS[0]) == []


async def test_a_stale_save_of_a_result_rates_nothing(storage: Storage) -> None:
    seats: list[Seat | None] = [human(user, "P") for user in USERS[:4]]
    game = await storage.create_game(Game(0, CHAT, USERS[0], GameStatus.PLAYING, seats=seats))
    game.version = 1
    await storage.save_game(game, base=0)
    game.status = GameStatus.FINISHED
    game.version = 2
    with pytest.raises(StaleGame):
        await storage.save_game(game, series=series_lost_by(Team.A), base=0)
    assert await storage.game_ratings(game.id) == ()
    assert await storage.player_ratings(USERS[0]) == []


@pytest.mark.parametrize("seed", range(3))
async def test_the_kept_ratings_equal_a_replay_of_the_games_in_order(
    storage: Storage, seed: int
) -> None:
    rng = random.Random(seed)
    games: list[RatedGame] = []
    for n in range(25):
        players = rng.sample(USERS, 4)
        loser = rng.choice([Team.A, Team.B])
        rule_set = rng.choice(["yard", "classic"])
        at = DECEMBER + 86400 * 20 * n / 25  # December, then January
        computer = rng.choice([None, None, None, 1])
        game = await finished(
            storage, players, loser, at=at, rule_set=rule_set, computer_at=computer
        )
        if computer is None:
            ids = (players[0].id, players[1].id, players[2].id, players[3].id)
            games.append(RatedGame(game.id, "telegram", CHAT.id, rule_set, at, ids, int(loser)))
    book = expected(games)
    for user in USERS:
        kept = {r.rule_set: r for r in await storage.player_ratings(user)}
        want = {
            key[1]: skill for key, skill in book.items() if key[0] is None and key[2] == user.id
        }
        assert {rs: (r.rating, r.best, r.games, r.wins) for rs, r in kept.items()} == {
            rs: (s.rating, s.best, s.games, s.wins) for rs, s in want.items()
        }
    for rule_set in ("yard", "classic", None):
        board = await storage.rating_board(TG, None, Board(rule_set, min_games=3), limit=5)
        want_rows = sorted(
            (
                (-skill.rating, key[2])
                for key, skill in book.items()
                if key[0] is None and key[1] == (rule_set or EVERY) and skill.games >= 3
            )
        )[:5]
        assert [(-row.rating, row.user.id) for row in board] == want_rows
    season = ratings.season_of(games[0].at)
    board = await storage.rating_board(TG, CHAT, Board(season=season, min_games=1), limit=8)
    want_season = sorted(
        (-skill.rating, key[2])
        for key, skill in book.items()
        if key[0] == (CHAT.id, season) and key[1] == EVERY
    )[:8]
    assert [(-row.rating, row.user.id) for row in board] == want_season


async def test_a_board_needs_the_rated_games_and_a_chat_board_the_chats_players(
    storage: Storage,
) -> None:
    for _ in range(ratings.MIN_GAMES - 1):
        await finished(storage, USERS[:4], Team.B)
    assert await storage.rating_board(TG, CHAT, Board()) == []
    await finished(storage, USERS[:4], Team.B)
    board = await storage.rating_board(TG, CHAT, Board())
    assert [row.user for row in board] == [USERS[0], USERS[2], USERS[1], USERS[3]]
    assert [(row.games, row.wins) for row in board] == [(5, 5), (5, 5), (5, 0), (5, 0)]
    assert board[0].name == "P1"
    # Another chat: its players only (these four played no series there).
    assert await storage.rating_board(TG, CHAT_X, Board()) == []
    assert len(await storage.rating_board(TG, None, Board())) == 4
    assert len(await storage.rating_board(TG, CHAT, Board("yard"))) == 4
    assert await storage.rating_board(TG, CHAT, Board("classic")) == []
    # A season is a chat's: none for the platform.
    assert await storage.rating_board(TG, None, Board(season="2025-12")) == []
    assert len(await storage.rating_board(TG, CHAT, Board(season="2025-12"))) == 4
    assert await storage.rating_board(TG, CHAT, Board(season="2026-01")) == []


async def test_a_chat_that_changes_its_id_keeps_its_season(storage: Storage) -> None:
    for _ in range(ratings.MIN_GAMES):
        await finished(storage, USERS[:4], Team.A)
    season = Board(season="2025-12")
    before = await storage.rating_board(TG, CHAT, season)
    assert len(before) == 4
    new = ChatRef(TG, "-100999")
    await storage.migrate_chat(CHAT, new)
    assert await storage.rating_board(TG, new, season) == before
    assert await storage.rating_board(TG, new, Board()) == await storage.rating_board(
        TG, None, Board()
    )
    assert await storage.rating_board(TG, CHAT, season) == []


async def test_a_past_months_season_is_its_own_board(storage: Storage) -> None:
    # November: players 1-4, team A loses (2 and 4 win); December: 1, 5, 3, 6, team B
    # loses (1 and 3 win). Each month's board is its own games' replay.
    november = DECEMBER - 15 * 86400
    nov_players, dec_players = USERS[:4], [USERS[0], USERS[4], USERS[2], USERS[5]]
    games: list[RatedGame] = []
    for n in range(ratings.MIN_GAMES):
        for at, players, loser in (
            (november + n, nov_players, Team.A),
            (DECEMBER + n, dec_players, Team.B),
        ):
            game = await finished(storage, players, loser, at=at)
            ids = (players[0].id, players[1].id, players[2].id, players[3].id)
            games.append(RatedGame(game.id, "telegram", CHAT.id, "yard", at, ids, int(loser)))
    book = expected(games)
    for season, players in (("2025-11", nov_players), ("2025-12", dec_players)):
        for rule_set in (None, "yard"):
            board = await storage.rating_board(TG, CHAT, Board(rule_set, season))
            want = sorted(
                (-skill.rating, key[2], skill.games, skill.wins)
                for key, skill in book.items()
                if key[0] == (CHAT.id, season) and key[1] == (rule_set or EVERY)
            )
            assert [(-r.rating, r.user.id, r.games, r.wins) for r in board] == want
            assert {row.user for row in board} == set(players), season
            assert all(row.games == ratings.MIN_GAMES for row in board)
    # November's winners lead November's board, December's December's.
    nov = await storage.rating_board(TG, CHAT, Board(season="2025-11"))
    assert {nov[0].user, nov[1].user} == {USERS[1], USERS[3]}
    assert [(row.games, row.wins) for row in nov[:2]] == [(5, 5), (5, 5)]
    # A month without rated games here, or another chat's November: empty.
    assert await storage.rating_board(TG, CHAT, Board(season="2025-10")) == []
    assert await storage.rating_board(TG, CHAT_X, Board(season="2025-11")) == []
