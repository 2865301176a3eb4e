"""A database of the release before results carried their rule set (schema version 4),
and what that release counted in it: both storages' migration tests open it.

``sqlite/fixtures/schema_v4.db`` was made by that release's code through its
``SqliteStorage``: four players (Alice, Bob, Carol, Dave of one Telegram group)
finished a yard series (game 1: 80 moves, 3 deals, team B the goats), and three of
them and a computer play its rematch (game 2, version 37, in its second deal,
Alice to move; its table message is ``77``).
"""

from __future__ import annotations

import random
from pathlib import Path

from bot.models import ChatRef, GameStatus, Platform, UserRef
from bot.ports import Storage
from bot.service import GameService

FIXTURE = Path(__file__).parent / "sqlite" / "fixtures" / "schema_v4.db"
#: Its tables, parents first.
TABLES = (
    "users",
    "chats",
    "games",
    "participants",
    "game_actions",
    "deal_results",
    "series_results",
)
TG = Platform.TELEGRAM
CHAT = ChatRef(TG, "-100500")
USERS = [UserRef(TG, user_id) for user_id in ("101", "102", "103", "104")]
#: By user: (series played, won, goat), (deals played, won, lost), points.
STATS = [
    ((1, 1, 0), (4, 4, 0), 395),
    ((1, 0, 1), (4, 0, 4), 85),
    ((1, 1, 0), (4, 4, 0), 395),
    ((1, 0, 1), (3, 0, 3), 52),
]


async def check_games_and_stats(storage: Storage) -> None:
    """Its results count as the yard game's, every figure as the release counted it;
    the running game loads as it was and plays on (a move is saved)."""
    for user, (series, deals, points) in zip(USERS, STATS, strict=True):
        stats = await storage.user_stats(user)
        assert stats is not None and await storage.user_stats(user, "yard") == stats
        assert (stats.series_played, stats.series_won, stats.goat) == series
        assert (stats.deals_played, stats.deals_won, stats.deals_lost) == deals
        assert stats.points == points and stats.goat_with_eggs == stats.deals_eggs == 0
        assert await storage.user_stats(user, "classic") is None
    board = await storage.leaderboard(TG, CHAT)
    assert [row.name for row in board] == ["Alice", "Carol", "Bob", "Dave"]
    assert await storage.leaderboard(TG, None, rule_set="yard") == board
    assert await storage.leaderboard(TG, CHAT, rule_set="classic") == []
    done = await storage.load_game(1)
    assert done is not None and done.status is GameStatus.FINISHED and done.play.is_over
    (running,) = await storage.active_games()
    assert (running.id, running.version, running.rematch_of) == (2, 37, 1)
    assert running.settings.rule_set == "yard" and running.settings.options == {}
    assert running.play.turn == 0 and running.messages == {"table": "77"}
    assert len(await storage.game_actions(running.id)) == 37
    service = GameService(storage, rng=random.Random(1), computer_delay=0)
    try:
        played = await service.play(2, 37, USERS[0], running.play.safe_action(0))
        assert played.game.version == 38
        await service.settle()  # the computer at seat 3 may move on
    finally:
        await service.close()
    reloaded = await storage.load_game(2)
    assert reloaded is not None and reloaded.version >= 38
    assert len(await storage.game_actions(2)) == reloaded.version
