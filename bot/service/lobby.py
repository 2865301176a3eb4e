"""The lobby: a table opened in a chat, its seats and settings, the series started,
a game cancelled, a rematch."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import replace
from typing import Any

from bot.challenge import ChallengeError
from bot.errors import ErrorCode, ServiceError
from bot.models import (
    TURN_TIMEOUTS,
    ChatRef,
    Game,
    GameStatus,
    Seat,
    SeatKind,
    TableSettings,
    User,
    UserRef,
)
from bot.options import option_pages, parse_option_arg, parse_preset_arg, with_option
from bot.ports import Change, ChangeKind, ChatInfo
from bot.reliability import endings
from bot.service.people import LOCALES, People
from bot.service.publishing import Publishing
from bot.service.steps import Event, Outcome, Steps
from bot.service.tables import Tables, check_version
from core.errors import KozelError
from core.ruleset import LEVEL_NAMES, get_rule_set, rule_set_ids
from core.seats import Team

#: Computer players' names are locale ids: ``bot-name-1`` .. ``bot-name-8``.
COMPUTER_NAMES = tuple(f"bot-name-{i}" for i in range(1, 9))


class Lobby:
    """Tables before their series, and the start and end of a series."""

    def __init__(
        self,
        tables: Tables,
        steps: Steps,
        publishing: Publishing,
        people: People,
        *,
        turn_timeout: int,
        computer_level: str,
        default_rule_set: str,
    ) -> None:
        self.tables = tables
        self.steps = steps
        self.publishing = publishing
        self.people = people
        self.turn_timeout = turn_timeout
        self.computer_level = computer_level
        #: The rule set of a table opened without naming one.
        self.default_rule_set = default_rule_set

    async def open_table(
        self,
        chat: ChatRef,
        creator: User,
        *,
        join: bool = False,
        seed: int | None = None,
        rule_set: str | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> Game:
        """Open a lobby in a chat; a chat has one open game at most. ``seed``: the seed
        of the service's random source, kept for the game's record. ``rule_set``: the
        table's rules (default: :attr:`default_rule_set`), with ``options`` (default:
        every default); unknown rules or options the rules refuse are refused
        (``unknown-rule-set``, ``bad-options``)."""
        rule_set = rule_set or self.default_rule_set
        try:
            get_rule_set(rule_set).options(options or {})
        except KozelError as error:
            raise ServiceError.from_rules(error) from None
        tables = self.tables
        async with tables.chat_lock(chat):
            running = await tables.open_game(chat)
            if running is not None:
                raise ServiceError(ErrorCode.GAME_RUNNING, running.id)
            await self.people.touch_user(creator)
            info = await tables.storage.get_chat(chat)
            settings = TableSettings(
                locale=(
                    info.locale if info and info.locale else self.people.default_chat_locale(chat)
                ),
                turn_timeout=(
                    info.turn_timeout
                    if info and info.turn_timeout is not None
                    else self.turn_timeout
                ),
                seed=seed,
                computer_level=self.computer_level,
                rule_set=rule_set,
                options=dict(options or {}),
            )
            now = tables.clock.now()
            game = Game(
                id=0,
                chat=chat,
                creator=creator.ref,
                settings=settings,
                created_at=now,
                updated_at=now,
            )
            if join:
                game.seats[0] = Seat(SeatKind.HUMAN, creator.name, creator.ref)
            game = await tables.storage.create_game(game)
            tables.games[game.id] = game
        await self.publishing.publish(game, Change(ChangeKind.LOBBY))
        return game

    async def join(
        self, game_id: int, version: int | None, user: User, team: Team | None = None
    ) -> Game:
        """Sit down at a free seat (of ``team`` if given); a seated player changes team.
        A refused join keeps nothing, not even the user's name."""

        def change(game: Game) -> None:
            current = game.seat_of(user.ref)
            if current is not None and (team is None or current % 2 == team):
                raise ServiceError(ErrorCode.ALREADY_SEATED, game.id)
            seat = _free_seat(game, team)
            if current is not None:
                game.seats[current] = None
            game.seats[seat] = Seat(SeatKind.HUMAN, user.name, user.ref)

        game = await self._lobby_change(game_id, version, change)
        await self.people.touch_user(user)
        return game

    async def leave(self, game_id: int, version: int | None, user: UserRef) -> Game:
        def change(game: Game) -> None:
            seat = game.seat_of(user)
            if seat is None:
                raise ServiceError(ErrorCode.NOT_SEATED, game.id)
            game.seats[seat] = None

        return await self._lobby_change(game_id, version, change)

    async def add_computer(
        self, game_id: int, version: int | None, user: UserRef, team: Team | None = None
    ) -> Game:
        def change(game: Game) -> None:
            _check_host(game, user)
            seat = _free_seat(game, team)
            used = {s.name for s in game.seats if s is not None and s.is_computer}
            name = next(n for n in COMPUTER_NAMES if n not in used)
            game.seats[seat] = Seat(SeatKind.COMPUTER, name, level=game.settings.computer_level)

        return await self._lobby_change(game_id, version, change)

    async def remove_computer(
        self, game_id: int, version: int | None, user: UserRef, seat: int
    ) -> Game:
        def change(game: Game) -> None:
            _check_host(game, user)
            if not 0 <= seat < 4:
                raise ServiceError(ErrorCode.NO_SUCH_SEAT, game.id)
            occupant = game.seats[seat]
            if occupant is None or not occupant.is_computer:
                raise ServiceError(ErrorCode.NO_SUCH_SEAT, game.id)
            game.seats[seat] = None

        return await self._lobby_change(game_id, version, change)

    async def change_setting(
        self,
        game_id: int,
        version: int | None,
        user: UserRef,
        arg: str,
        *,
        chat_admin: Callable[[ChatRef], Awaitable[bool]] | None = None,
    ) -> Game:
        """``t<seconds>`` sets the turn timeout, ``l<locale>`` the table's language,
        ``c<level>`` its computer players' level (those seated and those to come),
        ``r<rule set>`` its rules (every option back to its default), ``o...`` one of
        the rules' options (:func:`bot.options.option_arg`), ``po`` and ``p`` show the
        lobby's options page and its seats page. Only the creator changes them; an
        argument that names none of these is refused (``bad-setting``).

        A new language or turn time becomes the chat's default for its next tables
        only if ``chat_admin`` says the user is an admin of the game's chat (asked
        only then); otherwise it is this table's alone."""
        changed: list[TableSettings] = []

        def change(game: Game) -> None:
            if user != game.creator:
                raise ServiceError(ErrorCode.NOT_CREATOR, game.id)
            settings = _parse_setting(game.settings, arg)
            if settings is None:
                raise ServiceError(ErrorCode.BAD_SETTING, game.id)
            changed[:] = [game.settings, settings]
            rules = (settings.rule_set, settings.options)
            if rules != (game.settings.rule_set, game.settings.options):
                game.play = settings.new_game()  # the game of the rules chosen, not dealt
            game.settings = settings
            for index, seat in enumerate(game.seats):
                if seat is not None and seat.is_computer:
                    game.seats[index] = seat.with_(level=settings.computer_level)

        game = await self._lobby_change(game_id, version, change)
        before, after = changed
        defaults: dict[str, Any] = {}
        if after.locale != before.locale:
            defaults["locale"] = after.locale
        if after.turn_timeout != before.turn_timeout:
            defaults["turn_timeout"] = after.turn_timeout
        if defaults and chat_admin is not None and await chat_admin(game.chat):
            storage = self.tables.storage
            info = await storage.get_chat(game.chat) or ChatInfo(game.chat)
            await storage.save_chat(replace(info, **defaults))
        return game

    async def _lobby_change(
        self, game_id: int, version: int | None, change: Callable[[Game], None]
    ) -> Game:
        async with self.tables.locked(game_id, version) as game:
            _check_lobby(game)
            check_version(game, version)
            seats, settings, play = list(game.seats), game.settings, game.play
            change(game)
            game.version += 1
            game.updated_at = self.tables.clock.now()
            try:
                await self.tables.store(game, base=game.version - 1)
            except BaseException:
                game.seats, game.settings, game.play = seats, settings, play
                game.version -= 1
                raise
            await self.publishing.publish(game, Change(ChangeKind.LOBBY))
        return game

    async def start(self, game_id: int, version: int | None, user: UserRef) -> Outcome:
        """The creator starts the series once all four seats are taken."""
        async with self.tables.locked(game_id, version) as game:
            _check_lobby(game)
            check_version(game, version)
            if user != game.creator:
                raise ServiceError(ErrorCode.NOT_CREATOR, game.id)
            if not game.is_full:
                raise ServiceError(ErrorCode.TABLE_NOT_FULL, game.id)
            events = await self._begin_series(game)
        self.tables.moved(game)
        return Outcome(game, tuple(events))

    async def _begin_series(self, game: Game) -> list[Event]:
        rng = self.tables.rng
        game.play = game.settings.new_game(first_dealer=rng.randrange(4))
        events = list(game.play.deal(rng))
        self.tables.reset(game.id)
        game.status = GameStatus.PLAYING
        game.version += 1
        self.steps.set_deadline(game)
        await self.tables.save(game, base=game.version - 1)
        await self.publishing.publish(game, Change(ChangeKind.STARTED, tuple(events)))
        return events

    async def cancel(
        self, game_id: int, version: int | None, user: UserRef, *, is_admin: bool = False
    ) -> Game:
        """The creator or a chat admin ends a lobby or a running game. A running
        rated game keeps its players' rows (:mod:`bot.reliability`): the creator's
        stop counts against him unless ``is_admin`` says he is an admin of the chat."""
        async with self.tables.locked(game_id, version) as game:
            if not game.status.is_open:
                raise ServiceError(ErrorCode.GAME_OVER, game.id)
            check_version(game, version)
            if user != game.creator and not is_admin:
                raise ServiceError(ErrorCode.NOT_ALLOWED, game.id)
            if game.settings.challenge is not None:  # played out, never dealt again
                raise ServiceError(ChallengeError.NO_STOP, game.id)
            started = game.status is GameStatus.PLAYING
            game.status = GameStatus.CANCELLED
            game.turn_deadline = None
            game.version += 1
            ended = endings(game, stopped_by=None if is_admin else user) if started else ()
            await self.tables.save(game, base=game.version - 1, endings=ended)
            self.tables.forget(game.id)
            await self.publishing.publish(game, Change(ChangeKind.CANCELLED))
        return game

    async def rematch(self, game_id: int, user: UserRef) -> Outcome:
        """A new series with the same seats, started at once."""
        tables = self.tables
        old = await tables.game(game_id)
        if old.status is not GameStatus.FINISHED:
            raise ServiceError(ErrorCode.GAME_RUNNING, old.id)
        if old.settings.challenge is not None or old.settings.event is not None:
            raise ServiceError(ChallengeError.NO_REMATCH, old.id)
        if old.seat_of(user) is None and user != old.creator:
            raise ServiceError(ErrorCode.NOT_SEATED, old.id)
        async with tables.chat_lock(old.chat):
            running = await tables.open_game(old.chat)
            if running is not None:
                raise ServiceError(ErrorCode.GAME_RUNNING, running.id)
            now = tables.clock.now()
            game = Game(
                id=0,
                chat=old.chat,
                creator=user,
                settings=replace(old.settings, seed=None),
                seats=[None if s is None else s.with_(missed=0, away=False) for s in old.seats],
                created_at=now,
                updated_at=now,
                rematch_of=old.id,
            )
            game = await tables.storage.create_game(game)
            tables.games[game.id] = game
        async with tables.locked(game.id):
            events = await self._begin_series(game)
        tables.moved(game)
        return Outcome(game, tuple(events))


def _check_lobby(game: Game) -> None:
    if game.status is not GameStatus.LOBBY:
        raise ServiceError(
            ErrorCode.GAME_STARTED if game.status.is_open else ErrorCode.GAME_OVER, game.id
        )


def _check_host(game: Game, user: UserRef) -> None:
    if user != game.creator and game.seat_of(user) is None:
        raise ServiceError(ErrorCode.NOT_SEATED, game.id)


def _free_seat(game: Game, team: Team | None) -> int:
    seats: Iterator[int] = iter(range(4)) if team is None else iter(team.seats)
    for seat in seats:
        if game.seats[seat] is None:
            return seat
    raise ServiceError(ErrorCode.TEAM_FULL, game.id)


def _parse_setting(settings: TableSettings, arg: str) -> TableSettings | None:
    if arg.startswith("r") and arg[1:] in rule_set_ids():
        return replace(settings, rule_set=arg[1:], options={}, lobby_page="")
    if arg == "p" or arg[1:] in option_pages(settings.rule_set):
        return replace(settings, lobby_page=arg[1:])
    preset = parse_preset_arg(settings.rule_set, arg)
    if preset is not None:
        return replace(settings, options=preset)
    option = parse_option_arg(settings.rule_set, arg)
    if option is not None:
        try:
            options = with_option(settings.rule_set, settings.options, *option)
        except KozelError:
            return None
        return replace(settings, options=options)
    if arg.startswith("t") and arg[1:].isdigit() and int(arg[1:]) in TURN_TIMEOUTS:
        return replace(settings, turn_timeout=int(arg[1:]))
    if arg.startswith("l") and arg[1:] in LOCALES:
        return replace(settings, locale=arg[1:])
    if arg.startswith("c") and arg[1:] in LEVEL_NAMES:
        return replace(settings, computer_level=arg[1:])
    return None
