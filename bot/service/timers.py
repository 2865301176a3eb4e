"""The turn clocks: a reminder when a player's time runs out, a move for a player out
of time (after ``max_missed`` turns in a row a computer plays for him until he is
back), and the moment the bot was last alive, so that the clocks resume after a stop
with the time they had."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Sequence

from bot.errors import ServiceError
from bot.models import Game, GameStatus, Platform
from bot.ports import Change, ChangeKind
from bot.service.publishing import Publishing
from bot.service.steps import Steps
from bot.service.tables import Tables

log = logging.getLogger(__name__)

#: Seconds between the moments the running bot keeps as its last alive: after a
#: sudden stop its turn clocks resume with at most this much more time than they had.
ALIVE_EVERY = 5.0


class Timers:
    """Each game's turn timer, and the bot's heartbeat."""

    def __init__(
        self, tables: Tables, steps: Steps, publishing: Publishing, *, max_missed: int
    ) -> None:
        self.tables = tables
        self.steps = steps
        self.publishing = publishing
        self.max_missed = max_missed
        #: Each game's turn timer at work (a reminder, a move for an absent player).
        self.timers: dict[int, asyncio.Task[None]] = {}
        #: When the bot last kept the moment it was alive (None: it keeps no clocks).
        self._alive_at: float | None = None
        self._keeping_alive: asyncio.Task[None] | None = None

    async def tick(self) -> None:
        """Remind players whose time runs out, and move for those out of time; after
        ``max_missed`` turns in a row a computer plays for the player until he is back.

        Each game's timer runs as a task of its own (:meth:`_start_timers`), so that a
        game whose lock is held or whose save or message is slow never holds up
        another game's clock. This waits for the timers it started; the running bot
        (:meth:`run_timers`) does not."""
        started = self._start_timers()
        if started:
            await asyncio.wait(started)

    def _start_timers(self) -> list[asyncio.Task[None]]:
        """Start the timer of every game whose clock is due (unless the one started
        before is still at work: it goes on, and the game is looked at again next
        time), and keep the moment the bot is alive now and then; returns the tasks
        started."""
        now = self.tables.clock.now()
        started = []
        loop = asyncio.get_running_loop()
        keeping = self._keeping_alive
        if (
            self._alive_at is not None
            and now - self._alive_at >= ALIVE_EVERY
            and (keeping is None or keeping.done())
        ):
            self._alive_at = now
            self._keeping_alive = loop.create_task(self._keep_alive(now))
            started.append(self._keeping_alive)
        for game_id, game in list(self.tables.games.items()):
            deadline = game.turn_deadline
            if (
                deadline is None
                or game.status is not GameStatus.PLAYING
                or not self.tables.owns(game)
                or game_id in self.timers
            ):
                continue
            timeout = game.settings.turn_timeout
            if now >= deadline:
                work = self._time_out(game_id, deadline)
            elif not game.reminded and now >= deadline - min(30.0, timeout / 2):
                work = self._remind(game_id, deadline)
            else:
                continue
            task = loop.create_task(self._timer(game_id, work))
            self.timers[game_id] = task
            started.append(task)
        return started

    async def _timer(self, game_id: int, work: Awaitable[None]) -> None:
        try:
            await work
        except asyncio.CancelledError:
            raise
        except ServiceError as error:
            # Another process moved the game on first, or it is gone.
            log.info("turn timer of game %s stopped: %s", game_id, error.code)
        except Exception:
            log.exception("turn timer of game %s failed", game_id)
        finally:
            self.timers.pop(game_id, None)

    async def _remind(self, game_id: int, deadline: float) -> None:
        async with self.tables.locked(game_id) as game:
            if game.turn_deadline != deadline or game.reminded:
                return
            game.reminded = True
            await self.tables.save(game, base=game.version)
            await self.publishing.publish(game, Change(ChangeKind.REMINDER, seat=game.play.turn))

    async def _time_out(self, game_id: int, deadline: float) -> None:
        async with self.tables.locked(game_id) as game:
            seat_no = game.play.turn
            if game.turn_deadline != deadline or seat_no is None:
                return
            seat = game.seats[seat_no]
            if seat is None:
                return
            missed = seat.missed + 1
            away = missed >= self.max_missed
            game.seats[seat_no] = seat.with_(missed=missed, away=away)
            action = game.play.safe_action(seat_no)
            await self.steps.apply(game, action, user=None, auto=True)
            if away:
                await self.publishing.publish(game, Change(ChangeKind.AWAY, seat=seat_no))
        self.tables.moved(game)

    async def run_timers(self, interval: float = 1.0) -> None:
        """Check the turn timers forever (a background task of the running bot): every
        ``interval`` seconds the due ones start, each in a task of its own, whatever
        the timers started before are still doing."""
        await self._keep_alive(self.tables.clock.now())
        while True:
            try:
                self._start_timers()
            except Exception:
                log.exception("turn timers failed")
            await asyncio.sleep(interval)

    def tasks(self) -> list[asyncio.Task[None]]:
        """The timers at work, and the heartbeat being kept."""
        tasks = [*self.timers.values()]
        if self._keeping_alive is not None:
            tasks.append(self._keeping_alive)
        return tasks

    async def stopped(self) -> None:
        """The timers were stopped: a bot that kept its clocks keeps the moment."""
        self.timers.clear()
        if self._alive_at is not None:
            await self._keep_alive(self.tables.clock.now())

    # --- Downtime -----------------------------------------------------------------------

    async def _keep_alive(self, now: float) -> None:
        """Keep ``now`` as the moment the bot was last alive (its turn clocks ran), for
        :meth:`resume_clocks` after a stop, however sudden."""
        self._alive_at = now
        platforms = self.tables.platforms
        try:
            await self.tables.storage.save_alive(
                set(Platform) if platforms is None else platforms, now
            )
        except Exception:
            log.exception("keeping the moment the bot is alive failed")

    async def resume_clocks(self, games: Sequence[Game]) -> None:
        """After a start: the turn clocks stood still while the bot was down. Each
        running clock resumes with the time it had left when the process stopped (the
        last moment it was known alive: its last heartbeat, or a later save of a game
        of the platform), so nobody is moved for the downtime, nor counted away."""
        alive = await self.tables.storage.last_alive()
        for game in games:
            platform = game.chat.platform
            if platform in alive:
                alive[platform] = max(alive[platform], game.updated_at)
        now = self.tables.clock.now()
        for game in games:
            stopped = alive.get(game.chat.platform)
            if game.turn_deadline is None or stopped is None or now <= stopped:
                continue
            game.turn_deadline += now - stopped
            try:
                await self.tables.store(game, base=game.version)
            except ServiceError:  # another process moved it on: its own clock stands
                log.info("game %s changed elsewhere while the bot was down", game.id)
        await self._keep_alive(now)
