"""What a press or a command does, and what a game change shows: for every platform.

Adapters only translate: an update or interaction becomes a call here, and the
:class:`Reply` or the :class:`Output` list comes back as messages, edits, alerts or
ephemeral answers. No platform writes a flow of its own.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum

from bot import presenters
from bot.codec import CodecError, Command, Verb, decode, parse_action_arg
from bot.errors import ErrorCode, ServiceError
from bot.i18n import Translator, normalize_locale
from bot.models import ChatRef, Game, GameStatus, User, UserRef
from bot.ports import Change, ChangeKind, Owed, OwedKind
from bot.presenters import Screen
from bot.service import LOCALES, GameService
from core.seats import Team

CanMessage = Callable[[], Awaitable[bool]]

#: The buttons of a hand message: a card, a move, "clear".
HAND_VERBS = frozenset({Verb.SELECT, Verb.PLAY, Verb.REFRESH})


@dataclass(frozen=True, slots=True)
class Reply:
    """The answer to the user who pressed a button or sent a command.

    ``alert`` is a short note for that user only (a callback answer, an ephemeral
    message); ``screen`` a message to answer with (``private``: only that user may
    see it); ``hand`` the user's own hand, re-rendered. ``dm_needed`` asks the
    adapter to show the way to a private chat with the bot.
    """

    alert: str | None = None
    screen: Screen | None = None
    private: bool = False
    hand: Screen | None = None
    seat: int | None = None
    game: Game | None = None
    dm_needed: bool = False


class Target(StrEnum):
    TABLE = "table"  # the game's one public message, edited in place (lobby, then table)
    HAND = "hand"  # a seat's private hand message, edited in place
    CHAT = "chat"  # a new message in the game's chat
    PRIVATE = "private"  # a new private message to a seat's player


@dataclass(frozen=True, slots=True)
class Output:
    """One thing a game change shows. ``owed``: the saved message this output is;
    once it is sent the publisher confirms it (:meth:`GameService.message_sent`)."""

    target: Target
    screen: Screen
    seat: int | None = None
    user: UserRef | None = None
    owed: Owed | None = None


class Interactions:
    """Button presses and commands, the same on every platform."""

    def __init__(self, service: GameService, tr: Translator) -> None:
        self.service = service
        self.tr = tr

    # --- Locales -------------------------------------------------------------------

    async def user_locale(self, user: User | UserRef, platform_language: str | None = None) -> str:
        ref = user.ref if isinstance(user, User) else user
        fallback = normalize_locale(platform_language, self.service.default_locale)
        return await self.service.user_locale(ref, fallback)

    async def chat_locale(self, chat: ChatRef) -> str:
        return await self.service.chat_locale(chat)

    def error_text(self, code: str, locale: str) -> str:
        return presenters.error(code, self.tr, locale).text

    # --- Button presses ------------------------------------------------------------

    async def press(
        self,
        user: User,
        token: str,
        *,
        platform_language: str | None = None,
        is_admin: bool = False,
        can_message: CanMessage | None = None,
    ) -> Reply:
        """Handle a pressed button. Never raises for a bad press: every refusal is an
        alert in the user's language, and nothing changes.

        The user's language is the one he chose with ``/lang``, else the language of
        the game's table (as in :meth:`outputs`, so a hand keeps its language), else
        his platform's."""
        try:
            command = decode(token)
        except CodecError:
            locale = await self.user_locale(user, platform_language)
            return Reply(alert=self.error_text(ErrorCode.MALFORMED, locale))
        table_locale: str | None
        try:
            table_locale = (await self.service.game(command.game_id)).settings.locale
        except ServiceError:
            table_locale = platform_language
        locale = await self.user_locale(user, table_locale)
        try:
            return await self._press(user, command, locale, is_admin, can_message)
        except ServiceError as error:
            game = None
            if error.game_id is not None:
                try:
                    game = await self.service.game(error.game_id)
                except ServiceError:
                    game = None
            reply = Reply(alert=self.error_text(error.code, locale), game=game)
            seat = None if game is None else game.seat_of(user.ref)
            if game is None or seat is None or game.status is GameStatus.LOBBY:
                return reply
            if error.code == ErrorCode.STALE and game.status is GameStatus.PLAYING:
                # Show the player his hand as it is now.
                hand = presenters.hand(game, seat, 0, self.tr, locale)
                return Reply(alert=reply.alert, hand=hand, seat=seat, game=game)
            if error.code == ErrorCode.GAME_OVER and command.verb in HAND_VERBS:
                # An old hand of a game over since: it shows how the game ended.
                ended = await self.hand_screen(game, seat)
                return Reply(alert=reply.alert, hand=ended, seat=seat, game=game)
            return reply

    async def _press(
        self,
        user: User,
        command: Command,
        locale: str,
        is_admin: bool,
        can_message: CanMessage | None,
    ) -> Reply:
        service, verb, game_id, version = (
            self.service,
            command.verb,
            command.game_id,
            command.version,
        )
        ref = user.ref
        if verb is Verb.JOIN or verb is Verb.ADD_COMPUTER:
            team = _team(command.arg, game_id)
            if verb is Verb.JOIN:
                if can_message is not None and not await can_message():
                    return Reply(
                        alert=self.error_text(ErrorCode.CANNOT_MESSAGE, locale),
                        dm_needed=True,
                        game=await service.game(game_id),
                    )
                game = await service.join(game_id, version, user, team)
            else:
                game = await service.add_computer(game_id, version, ref, team)
            return Reply(game=game)
        if verb is Verb.LEAVE:
            return Reply(game=await service.leave(game_id, version, ref))
        if verb is Verb.REMOVE_COMPUTER:
            if not command.arg.isdigit():
                raise ServiceError(ErrorCode.MALFORMED, game_id)
            game = await service.remove_computer(game_id, version, ref, int(command.arg))
            return Reply(game=game)
        if verb is Verb.SETTING:
            return Reply(game=await service.change_setting(game_id, version, ref, command.arg))
        if verb is Verb.START:
            return Reply(game=(await service.start(game_id, version, ref)).game)
        if verb is Verb.CANCEL_ASK:
            game = await service.game(game_id)
            if not game.status.is_open:
                raise ServiceError(ErrorCode.GAME_OVER, game_id)
            if ref != game.creator and not is_admin:
                raise ServiceError(ErrorCode.NOT_ALLOWED, game_id)
            table_locale = game.settings.locale
            screen = presenters.cancel_confirm(game, self.tr, table_locale)
            return Reply(screen=screen, game=game)
        if verb is Verb.CANCEL:
            # The confirmation carries the game's version like every button: one drawn
            # before the game moved on is stale (a repeated press finds it over).
            game = await service.cancel(game_id, version, ref, is_admin=is_admin)
            return Reply(game=game)
        if verb is Verb.REMATCH:
            return Reply(game=(await service.rematch(game_id, ref)).game)
        if verb is Verb.REFRESH:
            # "No" on a confirmation: nothing changes. Only a seated player of a running
            # game gets a hand back (the hand branch below).
            game = await service.game(game_id)
            if game.seat_of(ref) is None or game.status is not GameStatus.PLAYING:
                return Reply(game=game)
        # The hand: selecting cards changes nothing in the game; playing does.
        game = await service.game(game_id)
        seat = game.seat_of(ref)
        if seat is None:
            raise ServiceError(ErrorCode.NOT_SEATED, game_id)
        if game.status is not GameStatus.PLAYING:
            raise ServiceError(
                ErrorCode.GAME_NOT_STARTED
                if game.status is GameStatus.LOBBY
                else ErrorCode.GAME_OVER,
                game_id,
            )
        if verb is Verb.PLAY:
            try:
                action = parse_action_arg(seat, command.arg)
            except CodecError:
                raise ServiceError(ErrorCode.MALFORMED, game_id) from None
            outcome = await service.play(game_id, version, ref, action)
            return Reply(game=outcome.game, seat=seat)
        if verb in (Verb.SELECT, Verb.REFRESH, Verb.SHOW_HAND):
            player = game.seats[seat]
            if player is not None and player.away:
                await service.come_back(game_id, ref)
            if verb is Verb.SELECT and version != game.version:
                raise ServiceError(ErrorCode.STALE, game_id)
            selection = presenters.parse_selection(command.arg) if verb is Verb.SELECT else 0
            screen = presenters.hand(game, seat, selection, self.tr, locale)
            return Reply(hand=screen, seat=seat, game=game, private=True)
        raise ServiceError(ErrorCode.MALFORMED, game_id)

    # --- Commands ------------------------------------------------------------------

    async def hands(self, user: User) -> list[Reply]:
        """``/hand`` (and ``/start``) in a private chat: the user's current hand in
        every running game he sits in, oldest game first."""
        replies = []
        for game in self.service.games_of(user.ref):
            seat = game.seat_of(user.ref)
            hand = None if seat is None else await self.hand_screen(game, seat)
            if seat is not None and hand is not None:
                replies.append(Reply(hand=hand, seat=seat, game=game, private=True))
        return replies

    async def kozel(self, chat: ChatRef, user: User, *, private: bool = False) -> Reply:
        """``/kozel``: open a lobby, or point to the running game. In a private chat it
        starts a solo game against three computer players at once."""
        locale = await self.chat_locale(chat)
        try:
            game = await self.service.open_table(chat, user, join=private)
        except ServiceError as error:
            if error.code != ErrorCode.GAME_RUNNING or error.game_id is None:
                raise
            running = await self.service.game(error.game_id)
            return Reply(alert=self.error_text(error.code, locale), game=running)
        if private:
            for team in (Team.B, Team.A, Team.B):
                game = await self.service.add_computer(game.id, None, user.ref, team)
            game = (await self.service.start(game.id, None, user.ref)).game
        return Reply(game=game)

    async def stop(self, chat: ChatRef, user: UserRef, *, is_admin: bool = False) -> Reply:
        """``/stop``: ask the creator or an admin to confirm ending the chat's game."""
        locale = await self.chat_locale(chat)
        game = await self.service.open_game(chat)
        if game is None:
            return Reply(alert=self.error_text(ErrorCode.UNKNOWN_GAME, locale))
        if user != game.creator and not is_admin:
            return Reply(alert=self.error_text(ErrorCode.NOT_ALLOWED, locale), game=game)
        return Reply(screen=presenters.cancel_confirm(game, self.tr, locale), game=game)

    async def top(self, chat: ChatRef, *, everywhere: bool = False) -> Reply:
        locale = await self.chat_locale(chat)
        rows = await self.service.leaderboard(chat, everywhere=everywhere)
        return Reply(
            screen=presenters.leaderboard(
                rows, self.tr, locale, global_=everywhere, platform=chat.platform
            )
        )

    async def stats(self, chat: ChatRef, user: UserRef) -> Reply:
        locale = await self.chat_locale(chat)
        found = await self.service.stats(user)
        return Reply(screen=presenters.stats(found, self.tr, locale, platform=chat.platform))

    async def rules(self, chat: ChatRef, rule_set: str | None = None) -> Reply:
        locale = await self.chat_locale(chat)
        name = (rule_set or "yard").strip().lower()
        return Reply(
            screen=presenters.rules(self.tr, locale, name or "yard", platform=chat.platform)
        )

    async def help(self, chat: ChatRef) -> Reply:
        locale = await self.chat_locale(chat)
        return Reply(screen=presenters.help(self.tr, locale, platform=chat.platform))

    async def lang(
        self, chat: ChatRef, user: User, code: str | None, *, private: bool = False
    ) -> Reply:
        """``/lang ru|en``: the chat's language (in a private chat, the user's)."""
        locale = await self.chat_locale(chat)
        code = (code or "").strip().lower()
        if code not in LOCALES:
            return Reply(screen=presenters.language_usage(self.tr, locale, platform=chat.platform))
        if private:
            await self.service.set_user_locale(user, code)
        await self.service.set_chat_locale(chat, code)
        return Reply(screen=presenters.language_switched(self.tr, code))

    # --- Game changes --------------------------------------------------------------

    async def outputs(
        self, game: Game, change: Change, *, hand_button: bool = False
    ) -> list[Output]:
        """What a change of a game shows: the table, the hands, results, notices.
        ``hand_button`` puts a "My hand" button on the table while a deal runs (Discord
        answers it with an ephemeral hand)."""
        tr, locale = self.tr, game.settings.locale
        now = self.service.clock.now()
        owed = await self.owed_outputs(game, change)
        if change.kind is ChangeKind.RESTORED:
            # What a crash may have kept from going out: the owed messages first, in
            # order, then the table and the hands as they are saved.
            redraw = Change(ChangeKind.PLAYED)  # no events: the table and the hands
            return [*owed, *await self.outputs(game, redraw, hand_button=hand_button)]
        out: list[Output] = []
        if change.kind is ChangeKind.LOBBY or game.status is GameStatus.LOBBY:
            return [Output(Target.TABLE, presenters.lobby(game, tr, locale))]
        table = presenters.table(game, tr, locale, now, with_hand_button=hand_button)
        if change.kind is ChangeKind.REMINDER:
            # The table's "time left" is refreshed too, and the player is reminded.
            seat = change.seat
            player = game.seats[seat] if seat is not None else None
            if seat is None or player is None or player.user is None:
                return [Output(Target.TABLE, table)]
            user_locale = await self.user_locale(player.user, locale)
            screen = presenters.reminder(game, seat, tr, user_locale, now)
            return [Output(Target.TABLE, table), Output(Target.PRIVATE, screen, seat, player.user)]
        out.append(Output(Target.TABLE, table))
        if change.kind is ChangeKind.CANCELLED:
            out.append(Output(Target.CHAT, presenters.cancelled(tr, locale)))
        for seat, player in game.humans:
            assert player.user is not None
            user_locale = await self.user_locale(player.user, locale)
            if game.status is GameStatus.CANCELLED:
                hand = presenters.cancelled(tr, user_locale)
            else:
                hand = presenters.hand(game, seat, 0, tr, user_locale)
            out.append(Output(Target.HAND, hand, seat, player.user))
        out.extend(owed)
        if change.seat is not None and change.kind in (ChangeKind.AWAY, ChangeKind.BACK):
            kind = (
                presenters.Notice.AWAY if change.kind is ChangeKind.AWAY else presenters.Notice.BACK
            )
            out.append(Output(Target.CHAT, presenters.notice(kind, game, change.seat, tr, locale)))
        return out

    async def owed_outputs(self, game: Game, change: Change) -> list[Output]:
        """The messages a change owes (a deal's result, the series'), drawn from the
        game. One the game cannot draw (it has no such result) is owed no more."""
        out: list[Output] = []
        for owed in change.owed:
            screen = self.owed_screen(game, owed)
            if screen is None:
                await self.service.message_sent(owed)
            else:
                out.append(Output(Target.CHAT, screen, owed=owed))
        return out

    def owed_screen(self, game: Game, owed: Owed) -> Screen | None:
        """An owed message as the game shows it now (None: the game has no such
        result, e.g. a record from another release)."""
        tr, locale = self.tr, game.settings.locale
        if owed.kind is OwedKind.DEAL_RESULT:
            deal = next((d for d in game.series.deals if d.number == owed.number), None)
            if deal is None or deal.result is None:
                return None
            return presenters.deal_result(game, owed.number, deal.result, tr, locale)
        result = game.series.result
        return None if result is None else presenters.series_result(game, result, tr, locale)

    # --- The table and a hand as they are now ------------------------------------------
    # For adapters that render lazily: when several changes of a game queue up before
    # a message can be sent (rate limits), only the newest state is worth rendering.
    # These show exactly what `outputs` puts in its TABLE and HAND outputs.

    def table_screen(self, game: Game, *, hand_button: bool = False) -> Screen:
        """The game's one public message now: the lobby, then the table."""
        locale = game.settings.locale
        if game.status is GameStatus.LOBBY:
            return presenters.lobby(game, self.tr, locale)
        now = self.service.clock.now()
        return presenters.table(game, self.tr, locale, now, with_hand_button=hand_button)

    async def hand_screen(self, game: Game, seat: int) -> Screen | None:
        """A seat's private hand now (None if no human sits there)."""
        player = game.seats[seat] if 0 <= seat < len(game.seats) else None
        if player is None or player.user is None or player.is_computer:
            return None
        locale = await self.user_locale(player.user, game.settings.locale)
        if game.status is GameStatus.CANCELLED:
            return presenters.cancelled(self.tr, locale)
        return presenters.hand(game, seat, 0, self.tr, locale)

    def lazy_outputs(
        self, game: Game, change: Change
    ) -> list[tuple[Target, int | None, UserRef | None]] | None:
        """The outputs of this change as (target, seat, user), to be rendered later
        with :meth:`table_screen` and :meth:`hand_screen`; or None when the change
        shows more than the table and the hands (a result, a notice, a reminder):
        then take :meth:`outputs`."""
        if change.owed:
            return None
        if change.kind is ChangeKind.LOBBY or (
            change.kind is ChangeKind.RESTORED and game.status is GameStatus.LOBBY
        ):
            return [(Target.TABLE, None, None)]
        plain = (ChangeKind.STARTED, ChangeKind.PLAYED, ChangeKind.DEALT, ChangeKind.RESTORED)
        if change.kind not in plain:
            return None
        hands = [(Target.HAND, seat, player.user) for seat, player in game.humans]
        return [(Target.TABLE, None, None), *hands]


def _team(arg: str, game_id: int) -> Team:
    if arg in ("A", "B"):
        return Team[arg]
    raise ServiceError(ErrorCode.MALFORMED, game_id)
