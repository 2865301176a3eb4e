"""Swiss evenings (:mod:`bot.event`): registration, rounds paired and started, results
kept, the event finished; and the resumption after a restart.

Everything an event is lives in the database: a change of it is saved from the
version it started from (:meth:`bot.ports.Storage.save_event`), and a round's tables
are saved with their new games in that same transaction, so a round is there whole or
not at all. A table's result is read from what its game's saves kept (the whole
game's loser, its deals, who walked out: :meth:`bot.ports.Storage.game_end`), when the
game ends and again at every start: :meth:`Events.settle` is idempotent, so a process
killed between a table's end and the next round's pairing, or between the pairing and
the tables' first screens, finishes the step when it starts again (the games are
shown again as any restored game is).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from bot.challenge import LOSS_SIGN
from bot.errors import ServiceError
from bot.event import (
    MAX_TEAMS,
    MIN_TEAMS,
    Event,
    EventError,
    EventExists,
    EventRefused,
    EventState,
    EventTable,
    OpenWords,
    Player,
    Team,
    check_open,
    default_rounds,
    table_result,
)
from bot.models import ChatRef, Game, Platform, User
from bot.ports import Announcer, Change, ChangeKind, EventNews
from bot.reliability import Reliability
from bot.service.event_base import EventsBase
from bot.service.lobby import Lobby
from bot.service.people import People
from bot.service.publishing import Publishing
from bot.service.rounds import table_game, team_rating
from bot.service.steps import Steps
from bot.service.tables import Tables
from core.errors import KozelError
from core.ruleset import get_rule_set
from core.swiss import pair_round

log = logging.getLogger(__name__)


class Events(EventsBase):
    """The group's Swiss evenings."""

    def __init__(
        self, tables: Tables, steps: Steps, publishing: Publishing, people: People, lobby: Lobby
    ) -> None:
        super().__init__(tables, steps, publishing, people, lobby)
        tables.on_results.append(self._results_saved)

    async def chat_game(self, chat: ChatRef, user: Any) -> Game | None:
        """The chat's open game for ``user``: the ordinary one, else his own table of
        the chat's running event (a chat with an event has several tables)."""
        game = await self.tables.open_game(chat)
        if game is not None:
            return game
        event = await self.chat_event(chat)
        if event is None:
            return None
        for table in reversed(event.round_tables()):
            if table.result is None:
                found = await self.tables.game(table.game_id)
                if found.status.is_open and found.seat_of(user) is not None:
                    return found
        return None

    # --- Registration ---------------------------------------------------------------------

    async def open(self, chat: ChatRef, user: User, words: OpenWords, *, is_admin: bool) -> Event:
        """A group's admin opens an event (one live event a chat)."""
        if not is_admin:
            raise ServiceError(EventError.NOT_ADMIN)
        rule_set = words.rule_set or self.lobby.default_rule_set
        try:
            get_rule_set(rule_set).options({})
        except KozelError as error:
            raise ServiceError.from_rules(error) from None
        await self.people.touch_user(user)
        info = await self.storage.get_chat(chat)
        locale = info.locale if info and info.locale else self.people.default_chat_locale(chat)
        now = self.tables.clock.now()
        event = Event(
            0, chat, user.ref, rule_set, {}, words.deals, words.rounds, words.min_reliability,
            locale, created_at=now,
        )  # fmt: skip
        try:
            created: Event = await self.storage.create_event(event)
        except EventExists:
            raise ServiceError(EventError.EXISTS) from None
        return created

    async def register(
        self, event_id: int, chat: ChatRef, user: User, team: int | None, reliability: Reliability
    ) -> Event:
        """``team`` None: a new pair with the user in it; else the user takes the open
        seat of that pair. Refused unless the event is this chat's and open, the user
        in no team, the pair open, the event not full, his reliability enough."""
        async with self._locked(event_id) as event:
            check_open(event, chat)
            if event.team_of(user.ref) is not None:
                raise ServiceError(EventError.REGISTERED)
            if event.min_reliability and not reliability.meets(event.min_reliability):
                raise EventRefused(
                    EventError.UNRELIABLE,
                    percent=reliability.percent,
                    minimum=event.min_reliability,
                )
            player = Player(user.ref, user.name)
            if team is None:
                if len(event.teams) >= MAX_TEAMS:
                    raise ServiceError(EventError.FULL)
                number = max((t.number for t in event.teams), default=0) + 1
                teams = (*event.teams, Team(number, (player,)))
            else:
                found = event.team(team)
                if found is None:
                    raise ServiceError(EventError.NO_PAIR)
                if found.complete:
                    raise ServiceError(EventError.PAIR_FULL)
                joined = Team(found.number, (*found.players, player))
                teams = tuple(joined if t is found else t for t in event.teams)
            saved = await self._save(event.with_(teams=teams))
        await self.people.touch_user(user)
        return saved

    async def leave(self, event_id: int, chat: ChatRef, user: User) -> Event:
        """The user leaves his pair while the event is open (a pair left empty goes)."""
        async with self._locked(event_id) as event:
            check_open(event, chat)
            found = event.team_of(user.ref)
            if found is None:
                raise ServiceError(EventError.NOT_REGISTERED)
            rest = tuple(p for p in found.players if p.user != user.ref)
            teams = tuple(
                Team(t.number, rest) if t is found else t
                for t in event.teams
                if t is not found or rest
            )
            return await self._save(event.with_(teams=teams))

    async def start(
        self, event_id: int, chat: ChatRef, *, is_admin: bool, version: int | None = None
    ) -> Event:
        """The admin starts the event: the open pairs go, the first round is paired."""
        if not is_admin:
            raise ServiceError(EventError.NOT_ADMIN)
        async with self._locked(event_id) as event:
            check_open(event, chat)
            if version is not None and version != event.version:
                raise ServiceError(EventError.NOT_OPEN)
            teams = tuple(t for t in event.teams if t.complete)
            if len(teams) < MIN_TEAMS:
                raise ServiceError(EventError.TOO_FEW)
            rounds = event.rounds or default_rounds(len(teams))
            event = event.with_(teams=teams, rounds=rounds, state=EventState.RUNNING)
            return await self._next_round(event)

    async def kick(self, chat: ChatRef, number: int, *, is_admin: bool) -> Event:
        """The admin removes team ``number``: before the start it goes; during the
        event it plays no more rounds and its running table is lost by it."""
        if not is_admin:
            raise ServiceError(EventError.NOT_ADMIN)
        event = await self._live(chat)
        cancel: int | None = None
        async with self._locked(event.id) as event:
            found = event.team(number)
            if found is None or found.withdrawn:
                raise ServiceError(EventError.NO_PAIR)
            if event.state is EventState.OPEN:
                teams = tuple(t for t in event.teams if t is not found)
                return await self._save(event.with_(teams=teams))
            teams = tuple(Team(t.number, t.players, True) if t is found else t for t in event.teams)
            tables = list(event.tables)
            for i, table in enumerate(tables):
                if table.result is None and number in (table.team_a, table.team_b):
                    lost = table.lost_by(number)
                    tables[i] = EventTable(*table.key, lost)
                    cancel = table.game_id
            event = await self._save(event.with_(teams=teams, tables=tuple(tables)))
        if cancel is not None:
            await self._cancel(cancel, event)
        await self._announce(event, EventNews.STANDINGS)
        await self.settle(event.id)
        return await self.event(event.id)

    async def stop(self, chat: ChatRef, *, is_admin: bool) -> Event:
        """The admin stops the event: its running tables are stopped (counting against
        nobody), the standings so far are its last word."""
        if not is_admin:
            raise ServiceError(EventError.NOT_ADMIN)
        event = await self._live(chat)
        async with self._locked(event.id) as event:
            now = self.tables.clock.now()
            event = await self._save(event.with_(state=EventState.STOPPED, finished_at=now))
        for table in event.round_tables():
            if table.result is None:
                await self._cancel(table.game_id, event)
        await self._announce(event, EventNews.STOPPED)
        return event

    async def _cancel(self, game_id: int, event: Event) -> None:
        """Stop a table's game as the admin (counting against nobody)."""
        with contextlib.suppress(ServiceError):
            await self.lobby.cancel(game_id, None, event.opener, is_admin=True)

    # --- Rounds ---------------------------------------------------------------------------

    async def _next_round(self, event: Event) -> Event:
        """Pair the next round and save it with its tables' games (one transaction);
        then show them. ``event`` is the loaded event with the changes that led here."""
        playing = event.playing
        rating = {t.number: await team_rating(self.storage, event, t) for t in playing}
        entrants = [e for e in event.entrants(rating) if int(e.id) in rating]
        pairing = pair_round(entrants, event.met(), event.byes())
        number = event.round + 1
        info = await self.storage.get_chat(event.chat)
        chosen = info.turn_timeout if info and info.turn_timeout is not None else None
        timeout = self.lobby.turn_timeout if chosen is None else chosen
        rng, now = self.tables.rng, self.tables.clock.now()
        made: list[tuple[EventTable, Game]] = []
        dealt: dict[int, tuple[Any, ...]] = {}
        pairs: list[tuple[int, int | None]] = [(int(a), int(b)) for a, b in pairing.tables]
        if pairing.bye is not None:
            pairs.append((int(pairing.bye), None))
        for index, (a, b) in enumerate(pairs, start=1):
            team_b = None if b is None else event.team(b)
            game, events = table_game(event, event.team(a), team_b, timeout, rng, now)
            self.steps.set_deadline(game)
            made.append((EventTable(number, index, a, b, 0), game))
            dealt[index] = events
        saved = await self._save(event.with_(round=number), made)
        for table in saved.round_tables():
            started = await self.storage.load_game(table.game_id)
            if started is None:  # pragma: no cover - it was just saved
                continue
            self.tables.games[started.id] = started
            change = Change(ChangeKind.STARTED, dealt[table.number])
            await self.publishing.publish(started, change)
            self.tables.moved(started)
        await self._announce(saved, EventNews.ROUND)
        await self._announce(saved, EventNews.STANDINGS)
        return saved

    # --- Results --------------------------------------------------------------------------

    def _results_saved(self, game: Game | None, boards: bool) -> None:
        """A game's end was saved: if it is an event's table, settle its event."""
        if game is None or game.settings.event is None or game.status.is_open:
            return
        task = asyncio.get_running_loop().create_task(self.settle(game.settings.event))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def settle(self, event_id: int) -> None:
        """Keep the results of the running round's tables whose games ended; when the
        round is over, pair the next one, or finish the event after the last. Doing it
        twice does it once."""
        try:
            await self._settle(event_id)
        except Exception:
            log.exception("settling event %s failed", event_id)

    async def _settle(self, event_id: int) -> None:
        async with self._locked(event_id) as event:
            if event.state is not EventState.RUNNING:
                return
            tables, changed = list(event.tables), False
            for i, table in enumerate(tables):
                if table.result is not None or table.round != event.round:
                    continue
                game = await self.tables.game(table.game_id)
                if game.status.is_open:
                    continue
                end = await self.storage.game_end(game)
                sign = LOSS_SIGN.get(event.rule_set, 1)
                result = table_result(end, bye=table.team_b is None, loss_sign=sign)
                tables[i] = EventTable(*table.key, result)
                changed = True
            event = event.with_(tables=tuple(tables))
            if not event.round_over:
                if changed:
                    event = await self._save(event)
                    await self._announce(event, EventNews.STANDINGS)
                return
            if event.round < event.rounds and len(event.playing) >= 2:
                await self._next_round(event)
                return
            now = self.tables.clock.now()
            event = await self._save(event.with_(state=EventState.FINISHED, finished_at=now))
        await self._announce(event, EventNews.STANDINGS)
        await self._announce(event, EventNews.FINAL)

    def add_announcer(self, platform: Platform, announcer: Announcer) -> None:
        """A platform's side is up: its running events finish whatever step they were
        in when the process stopped (their games are shown again meanwhile)."""
        self.announcers[platform] = announcer
        task = asyncio.get_running_loop().create_task(self.resume(platform))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def resume(self, platform: Platform | None = None) -> None:
        """Finish whatever step the events (of ``platform``) were in, and show what the
        group was not sent: the running round's tables (unless the round is over: the
        settle pairs the next one and shows it), the final or stopped standings."""
        for event in await self.storage.events_to_resume():
            if platform is not None and event.chat.platform is not platform:
                continue
            if event.state is EventState.RUNNING:
                if event.round_shown < event.round and not event.round_over:
                    await self._announce(event, EventNews.ROUND)
                await self._announce(event, EventNews.STANDINGS)
                await self.settle(event.id)
            elif event.state is EventState.FINISHED:
                await self._announce(event, EventNews.STANDINGS)
                await self._announce(event, EventNews.FINAL)
            elif event.state is EventState.STOPPED:
                await self._announce(event, EventNews.STOPPED)
