"""What the service answers without changing anything: statistics, leaderboards,
records and the games a user sits in. Statistics and leaderboards are kept a few
seconds (:class:`bot.readcache.ReadCache`); a result saved here drops what it makes
stale."""

from __future__ import annotations

import asyncio
from collections.abc import Hashable
from functools import partial
from typing import TYPE_CHECKING

from bot import ratings
from bot.achievements import Earned
from bot.challenge import Challenge, Standings
from bot.models import ChatRef, Game, GameStatus, UserRef
from bot.ports import LeaderboardRow, UserStats
from bot.readcache import ReadCache
from bot.reliability import Reliability
from bot.service.tables import Tables

if TYPE_CHECKING:
    from bot.service.challenges import Challenges
from core.ruleset import rule_set_ids


class Queries:
    """Reads for the screens, through the read cache."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.storage = tables.storage
        #: Statistics and leaderboards, kept a few seconds (a new result here drops
        #: what it makes stale).
        self.read_cache = ReadCache()
        tables.on_results.append(self._results_changed)

    def games_of(self, user: UserRef) -> list[Game]:
        """The running games the user sits in, oldest first."""
        return [
            game
            for _, game in sorted(self.tables.games.items())
            if game.status is GameStatus.PLAYING and game.seat_of(user) is not None
        ]

    async def stats(self, user: UserRef, rule_set: str | None = None) -> UserStats | None:
        """A user's statistics over every rule set's games, or over ``rule_set``'s
        (kept a few seconds: :attr:`read_cache`)."""
        return await self.read_cache.get(
            ("stats", user, rule_set), partial(self.storage.user_stats, user, rule_set)
        )

    async def stats_by_rules(self, user: UserRef) -> list[tuple[str, UserStats]]:
        """A user's statistics for each rule set he played, in the rule sets' order."""
        rule_sets = rule_set_ids()
        every = await asyncio.gather(*(self.stats(user, rule_set) for rule_set in rule_sets))
        return [
            (rule_set, stats)
            for rule_set, stats in zip(rule_sets, every, strict=True)
            if stats is not None and (stats.series_played or stats.deals_played)
        ]

    async def leaderboard(
        self, chat: ChatRef, everywhere: bool = False, rule_set: str | None = None
    ) -> list[LeaderboardRow]:
        """The best players of a chat (or of every chat of its platform), over every
        rule set's games or over ``rule_set``'s."""
        where, least = (None, 3) if everywhere else (chat, 1)
        key = ("top", chat.platform, None if where is None else where.id, rule_set)
        read = partial(
            self.storage.leaderboard,
            chat.platform,
            where,
            limit=10,
            min_series=least,
            rule_set=rule_set,
        )
        return await self.read_cache.get(key, read)

    async def rating_board(
        self,
        chat: ChatRef,
        everywhere: bool = False,
        rule_set: str | None = None,
        season: bool = False,
        month: str | None = None,
    ) -> tuple[ratings.Board, list[ratings.BoardRow]]:
        """The best rated players of a chat (``everywhere``: of every chat of its
        platform; ``season``: of the chat's current season, the month in UTC;
        ``month``: of the chat's season ``YYYY-MM``, one begun, as
        :func:`bot.ratings.season_named` reads it), over every rule set's games or
        ``rule_set``'s; the board asked, and its rows. A season's board is read by its
        key, ``(chat, season)``, whichever month it is."""
        if month is None and season:
            month = ratings.season_of(self.tables.clock.now())
        board = ratings.Board(rule_set, month)
        where = None if everywhere and month is None else chat
        key = ("rating-top", chat.platform, None if where is None else where.id, rule_set)
        read = partial(self.storage.rating_board, chat.platform, where, board, 10)
        return board, await self.read_cache.get((*key, board.season), read)

    async def player_ratings(self, user: UserRef) -> list[ratings.PlayerRating]:
        """A user's ratings (kept a few seconds, as :meth:`stats`)."""
        return await self.read_cache.get(
            ("ratings", user), partial(self.storage.player_ratings, user)
        )

    async def reliability(self, user: UserRef) -> Reliability:
        """Of a user's last ended rated games (:data:`bot.reliability.WINDOW`), how many
        he completed; empty without rated games (kept a few seconds, as
        :meth:`stats`, and read again once a game of his ends)."""
        return await self.read_cache.get(
            ("stats", user, "reliability"), partial(self.storage.reliability, user)
        )

    async def game_ratings(self, game_id: int) -> tuple[ratings.RatingChange, ...]:
        """What a finished game changed of its players' ratings (empty: unrated)."""
        return await self.storage.game_ratings(game_id)

    def _results_changed(self, game: Game | None, boards: bool) -> None:
        """A result of ``game`` was kept, or what counts of it changed: its players'
        statistics are read again, and (``boards``: a series' result or the game's
        end) its chat's and platform's leaderboards. None: every result may have
        moved (a chat changed its id), every answer is read again."""
        if game is None:
            self.read_cache.forget()
            return
        players = {seat.user for seat in game.seats if seat is not None and seat.user is not None}
        platform, chat = game.chat.platform, game.chat.id

        def stale(key: Hashable) -> bool:
            match key:
                case ("stats", user, _) | ("ratings", user):
                    return user in players
                case ("top" | "rating-top", board_platform, board_chat, *_):
                    return boards and board_platform == platform and board_chat in (None, chat)
            return False

        self.read_cache.forget(stale)

    async def achievements_of(self, user: UserRef) -> list[Earned]:
        """Every achievement a user has (kept a few seconds, as his statistics)."""
        return await self.read_cache.get(
            ("stats", user, "achievements"), partial(self.storage.achievements_of, user)
        )

    async def achievements_earned(self, game_id: int, version: int) -> list[Earned]:
        """What the save of a game's ``version`` earned (its announcement)."""
        return await self.storage.achievements_earned(game_id, version)

    async def record(self, game_id: int) -> dict[str, object]:
        """The game as a game record (docs/rules/reference.md §3), with the seed it was shuffled
        with, if it was given one."""
        game = await self.tables.game(game_id)
        return game.play.record(seed=game.settings.seed)

    async def challenge_standings(
        self, challenges: Challenges, challenge: Challenge, user: UserRef | None
    ) -> Standings:
        """A challenge's table (``/top challenge``), kept a few seconds as the other
        boards: a burst of it is one read, on a read connection, apart from the
        saves."""
        return await self.read_cache.get(
            ("challenge", challenge.id, user), partial(challenges.standings, challenge, user)
        )
