"""The one door of the service: :class:`GameService` builds the jobs, wires their
hooks, and offers their methods under the names the adapters call."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Collection
from functools import partial
from typing import Generic, TypeVar, overload

from bot.metrics import Metrics
from bot.models import Game, Platform
from bot.ports import Clock, Storage
from bot.readcache import ReadCache
from bot.service.challenges import Challenges
from bot.service.computers import Computers, Sleep
from bot.service.events import Events
from bot.service.lobby import Lobby
from bot.service.moves import Moves
from bot.service.people import People
from bot.service.publishing import Publishing
from bot.service.queries import Queries
from bot.service.steps import Steps
from bot.service.tables import SystemClock, Tables
from bot.service.timers import Timers
from bot.thinking import THINKING_DEADLINE, WORKER_NICENESS, Thinkers
from core.ruleset import DEFAULT_LEVEL, Computer

_T = TypeVar("_T")


class _Of(Generic[_T]):
    """An attribute of the service that is a job's own (read and set there)."""

    def __init__(self, job: str) -> None:
        self.job = job
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, service: None, owner: type) -> _Of[_T]: ...
    @overload
    def __get__(self, service: object, owner: type) -> _T: ...
    def __get__(self, service: object | None, owner: type) -> _Of[_T] | _T:
        if service is None:
            return self
        value: _T = getattr(getattr(service, self.job), self.name)
        return value

    def __set__(self, service: object, value: _T) -> None:
        setattr(getattr(service, self.job), self.name, value)


class GameService:
    """Tables, series, computer players and turn timers, for every platform."""

    clock: _Of[Clock] = _Of("tables")
    rng: _Of[random.Random] = _Of("tables")
    platforms: _Of[frozenset[Platform] | None] = _Of("tables")
    default_rule_set: _Of[str] = _Of("lobby")
    turn_timeout: _Of[int] = _Of("lobby")
    computer_level: _Of[str] = _Of("lobby")
    default_locale: _Of[str] = _Of("people")
    user_cache: _Of[int] = _Of("people")
    read_cache: _Of[ReadCache] = _Of("queries")
    computer_delay: _Of[float] = _Of("computers")
    thinkers: _Of[Thinkers] = _Of("computers")
    max_missed: _Of[int] = _Of("timers")

    def __init__(
        self,
        storage: Storage,
        *,
        clock: Clock | None = None,
        rng: random.Random | None = None,
        computer_delay: float = 1.2,
        turn_timeout: int = 120,
        max_missed: int = 3,
        default_locale: str = "ru",
        computer_level: str = DEFAULT_LEVEL,
        default_rule_set: str = "yard",
        players: Callable[[str], Computer] | None = None,
        sleep: Sleep = asyncio.sleep,
        user_cache: int = 10_000,
        platforms: Collection[Platform] | None = None,
        metrics: Metrics | None = None,
        computer_processes: int = 0,
        computer_niceness: int = WORKER_NICENESS,
        think_timeout: float = THINKING_DEADLINE,
    ) -> None:
        """``platforms``: those whose games this process owns (None: every one): it
        restores them, and runs their timers and computer players, and no other's.
        Computers that search think in ``computer_processes`` worker processes (0: a
        worker thread), ``computer_niceness`` below the bot's priority, each decision
        within ``think_timeout`` seconds (past it: the safe action)."""
        self.storage = storage
        self.metrics = metrics
        self.tables = tables = Tables(
            storage,
            clock=clock or SystemClock(),
            rng=rng or random.SystemRandom(),
            metrics=metrics,
            platforms=None if platforms is None else frozenset(platforms),
        )
        self.publishing = publishing = Publishing(tables)
        self.steps = steps = Steps(tables, publishing)
        self.people = people = People(tables, default_locale=default_locale, user_cache=user_cache)
        self.queries = queries = Queries(tables)
        thinkers = Thinkers(computer_processes, niceness=computer_niceness, deadline=think_timeout)
        self.computers = computers = Computers(
            tables, steps, thinkers, computer_delay=computer_delay, players=players, sleep=sleep
        )
        self.timers = timers = Timers(tables, steps, publishing, max_missed=max_missed)
        self.lobby = lobby = Lobby(
            tables,
            steps,
            publishing,
            people,
            turn_timeout=turn_timeout,
            computer_level=computer_level,
            default_rule_set=default_rule_set,
        )
        self.moves = moves = Moves(tables, steps, publishing)
        self.challenges = challenges = Challenges(tables, steps, publishing, people, lobby)
        self.events = events = Events(tables, steps, publishing, people, lobby)
        # The adapters' calls, each answered by its job.
        self.add_publisher = publishing.add_publisher
        self.remove_publisher = publishing.remove_publisher
        self.add_watcher = publishing.add_watcher
        self.remove_watcher = publishing.remove_watcher
        self.showing = publishing.showing
        self.show_hands = publishing.show_hands
        self.owns = tables.owns
        self.set_message = publishing.set_message
        self.message_sent = publishing.message_sent
        self.send_times = publishing.send_times
        self.save_send_times = publishing.save_send_times
        self.touch_user = people.touch_user
        self.set_user_locale = people.set_user_locale
        self.set_chat_locale = people.set_chat_locale
        self.chat_locale = people.chat_locale
        self.set_chat_pictures = people.set_chat_pictures
        self.chat_pictures = people.chat_pictures
        self.user_locale = people.user_locale
        self.migrate_chat = people.migrate_chat
        self.link_key = people.link_key
        self.game = tables.game
        self.open_game = tables.open_game
        self.chat_game = events.chat_game
        self.games_of = queries.games_of
        self.stats = queries.stats
        self.stats_by_rules = queries.stats_by_rules
        self.achievements_of = queries.achievements_of
        self.achievements_earned = queries.achievements_earned
        self.leaderboard = queries.leaderboard
        self.rating_board = queries.rating_board
        self.player_ratings = queries.player_ratings
        self.game_ratings = queries.game_ratings
        self.reliability = queries.reliability
        self.record = queries.record
        self.challenge_standings = partial(queries.challenge_standings, challenges)
        self.open_table = lobby.open_table
        self.join = lobby.join
        self.leave = lobby.leave
        self.add_computer = lobby.add_computer
        self.remove_computer = lobby.remove_computer
        self.change_setting = lobby.change_setting
        self.start = lobby.start
        self.cancel = lobby.cancel
        self.rematch = lobby.rematch
        self.play = moves.play
        self.come_back = moves.come_back
        self.computer_choice = computers.computer_choice
        self.tick = timers.tick
        self.run_timers = timers.run_timers

    async def restore(self) -> list[Game]:
        """After a start: load every open game of this process's platforms and let
        computers and timers go on. Each game is shown again as it was saved (first
        the messages it still owes, in order, then its table and hands: what went out
        before a crash may be older) through its platform's publisher, as soon as
        there is one: now for the publishers already added, else when one is added.
        A game over since the crash is shown too while it owes messages."""
        tables = self.tables
        games = [game for game in await self.storage.active_games() if tables.owns(game)]
        await self.timers.resume_clocks(games)
        for game in games:
            tables.games.setdefault(game.id, game)
        await self.publishing.redraw_restored()
        for game in games:
            tables.moved(game)
        return games

    async def settle(self) -> None:
        """Wait until no computer player is about to move and every saved game was
        shown again through its platform's publisher (for tests and shutdown)."""
        drivers, redraws = self.computers.drivers, self.publishing.redraws
        while drivers or redraws or self.events.tasks:
            tasks = [*drivers.values(), *self.publishing.tasks(), *self.events.tasks]
            await asyncio.gather(*tasks, return_exceptions=True)

    async def close(self) -> None:
        """Stop the redraws, the computers, the timers and the computers' worker
        processes (those that do not stop at once are killed): returns within a few
        seconds whatever they were doing. A bot that kept its clocks keeps the moment
        it stopped."""
        tasks = [*self.publishing.tasks(), *self.computers.drivers.values()]
        tasks += [*self.timers.tasks(), *self.events.tasks]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.computers.drivers.clear()
        await self.timers.stopped()
        await self.computers.thinkers.close()
