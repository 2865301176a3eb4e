"""What a press or a command does, and what a game change shows: for every platform.

Adapters only translate: an update or interaction becomes a call here, and the
:class:`Reply` or the :class:`Output` list comes back as messages, edits, alerts or
ephemeral answers. No platform writes a flow of its own.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, replace
from enum import StrEnum

from bot import presenters
from bot.codec import (
    CodecError,
    Command,
    Verb,
    decode,
    join_payload,
    parse_join_payload,
)
from bot.errors import ErrorCode, ServiceError
from bot.flood import Admission, FloodGuard
from bot.i18n import Translator, normalize_locale
from bot.metrics import Metrics
from bot.models import ChatRef, Game, GameStatus, Seat, User, UserRef
from bot.ports import Change, ChangeKind, Owed, OwedKind
from bot.presenters import Screen
from bot.service import LOCALES, GameService
from core.seats import Team

CanMessage = Callable[[], Awaitable[bool]]
#: A question about the presser in a chat, asked of the platform: is he an admin
#: there, is he a member there. Always asked about the GAME's chat.
ChatCheck = Callable[[ChatRef], Awaitable[bool]]

#: Presses on a hand: the only ones a seated player may make outside the game's chat,
#: in his own private chat with the bot (where his hand is).
HAND_VERBS = frozenset({Verb.SELECT, Verb.PLAY, Verb.REFRESH, Verb.SHOW_HAND})


@dataclass(frozen=True, slots=True)
class Pressed:
    """Where a button was pressed, as the platform says (never as the button's data
    says: a user client can send any data on any message it sees).

    ``chat`` is the chat of the pressed message. ``owner`` is the one user who sees
    that message when only one does: the user of a private chat with the bot, the
    receiver of an ephemeral message; None for a message in a group or a channel.
    """

    chat: ChatRef
    owner: UserRef | None = None


#: The buttons of a hand message: a card, a move, "clear".
HAND_BUTTONS = frozenset({Verb.SELECT, Verb.PLAY, Verb.REFRESH})


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
    in_place: bool = False
    ignored: bool = False

    # ``ignored``: the user floods (:mod:`bot.flood`): nothing was done and nothing is
    # answered (a press's query only stops its spinner).

    # ``in_place``: the pressed message is the presser's own (his private chat, his
    # ephemeral message), so a ``hand`` may replace it. Otherwise the pressed message
    # stays as it is and the hand goes to the player's own hand message.


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

    def __init__(
        self,
        service: GameService,
        tr: Translator,
        metrics: Metrics | None = None,
        *,
        flood: FloodGuard | None = None,
    ) -> None:
        self.service = service
        self.tr = tr
        self.metrics = metrics
        #: How fast each user may send commands and press buttons. Not limited unless
        #: told (tests and benchmarks drive it at machine speed): the bot's
        #: composition root passes the real limits.
        self.flood = flood or FloodGuard(commands=None, presses=None)
        #: What each seat's hand last showed, and from which game version on: by game
        #: id, then seat. A hand whose content did not change is not shown again.
        self._hands: dict[int, dict[int, _Shown]] = {}

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
        where: Pressed,
        platform_language: str | None = None,
        is_admin: ChatCheck | None = None,
        is_member: ChatCheck | None = None,
        can_message: CanMessage | None = None,
    ) -> Reply:
        """Handle a pressed button. Never raises for a bad press: every refusal is an
        alert in the user's language, and nothing changes.

        Before anything else the press must belong where it was pressed
        (:func:`place_refusal`): the game is the pressed chat's, or the press is on a
        hand in the seated player's own private chat. ``is_admin`` and ``is_member``
        are asked about the game's chat (a chat admin may cancel; only a member may
        join); without them the presser is neither an admin nor checked for
        membership.

        The user's language is the one he chose with ``/lang``, else the language of
        the game's table (as in :meth:`outputs`, so a hand keeps its language), else
        his platform's.

        A user pressing faster than :data:`bot.flood.PRESSES` allows gets one alert,
        then his presses are ignored for a while (``Reply.ignored``)."""
        admission = self.flood.press(user.ref)
        if admission is not Admission.ALLOWED:
            return await self._flooded(
                admission,
                ErrorCode.TOO_MANY_PRESSES,
                lambda: self.user_locale(user, platform_language),
            )
        started = time.perf_counter()
        try:
            return await self._handle_press(
                user,
                token,
                where=where,
                platform_language=platform_language,
                is_admin=is_admin,
                is_member=is_member,
                can_message=can_message,
            )
        finally:
            if self.metrics is not None:
                self.metrics.pressed(user.ref.platform.value, time.perf_counter() - started)

    async def _handle_press(
        self,
        user: User,
        token: str,
        *,
        where: Pressed,
        platform_language: str | None,
        is_admin: ChatCheck | None,
        is_member: ChatCheck | None,
        can_message: CanMessage | None,
    ) -> Reply:
        try:
            command = decode(token)
        except CodecError:
            self._count_refusal(ErrorCode.MALFORMED)
            locale = await self.user_locale(user, platform_language)
            return Reply(alert=self.error_text(ErrorCode.MALFORMED, locale))
        game: Game | None = None
        try:
            game = await self.service.game(command.game_id)
            refusal = place_refusal(game, user.ref, command.verb, where)
        except ServiceError as error:
            refusal = error.code
        if refusal is not None or game is None:
            # Nothing of another chat's game is shown, not even its language.
            code = refusal or ErrorCode.UNKNOWN_GAME
            self._count_refusal(code)
            locale = await self.user_locale(user, platform_language)
            return Reply(alert=self.error_text(code, locale))
        locale = await self.user_locale(user, game.settings.locale)
        in_place = where.owner == user.ref
        try:
            reply = await self._press(user, command, locale, is_admin, is_member, can_message)
        except ServiceError as error:
            self._count_refusal(error.code)
            reply = await self._refused(user, error, command.verb, locale)
        return replace(reply, in_place=True) if in_place and reply.hand is not None else reply

    async def _refused(self, user: User, error: ServiceError, verb: Verb, locale: str) -> Reply:
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
        if error.code == ErrorCode.GAME_OVER and verb in HAND_BUTTONS:
            # An old hand of a game over since: it shows how the game ended.
            ended = await self.hand_screen(game, seat)
            return Reply(alert=reply.alert, hand=ended, seat=seat, game=game)
        return reply

    async def command_flood(self, chat: ChatRef, user: UserRef) -> Reply | None:
        """Whether a user's command is handled: None if so, else the answer instead of
        it: the one "slow down" alert (in the chat's language) when his commands
        came faster than :data:`bot.flood.COMMANDS` allows, then ``Reply.ignored``
        for a while. Adapters ask before every command."""
        admission = self.flood.command(user)
        if admission is Admission.ALLOWED:
            return None
        return await self._flooded(
            admission, ErrorCode.TOO_MANY_COMMANDS, lambda: self.chat_locale(chat)
        )

    async def _flooded(
        self, admission: Admission, code: ErrorCode, locale: Callable[[], Awaitable[str]]
    ) -> Reply:
        """The answer to a flooding user: one alert, then nothing (``ignored``)."""
        if admission is Admission.IGNORED:
            return Reply(ignored=True)
        self._count_refusal(code)
        return Reply(alert=self.error_text(code, await locale()))

    async def dropped_answers(self, chat: ChatRef) -> Screen:
        """The notice that some answers to commands in a chat were dropped (too many
        at once)."""
        return Screen(self.tr.t(await self.chat_locale(chat), "notice-answers-dropped"))

    def _count_refusal(self, reason: str) -> None:
        if self.metrics is not None:
            self.metrics.refused(reason)

    async def _press(
        self,
        user: User,
        command: Command,
        locale: str,
        is_admin: ChatCheck | None,
        is_member: ChatCheck | None,
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
                game = await service.game(game_id)
                if is_member is not None and not await is_member(game.chat):
                    raise ServiceError(ErrorCode.NOT_MEMBER, game_id)
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
            # The table's language and turn time become the chat's defaults only when
            # an admin of the chat sets them (asked only then).
            game = await service.change_setting(
                game_id, version, ref, command.arg, chat_admin=is_admin
            )
            return Reply(game=game)
        if verb is Verb.START:
            return Reply(game=(await service.start(game_id, version, ref)).game)
        if verb is Verb.CANCEL_ASK:
            game = await service.game(game_id)
            if not game.status.is_open:
                raise ServiceError(ErrorCode.GAME_OVER, game_id)
            if ref != game.creator and not await _admin(is_admin, game):
                raise ServiceError(ErrorCode.NOT_ALLOWED, game_id)
            table_locale = game.settings.locale
            screen = presenters.cancel_confirm(game, self.tr, table_locale)
            return Reply(screen=screen, game=game)
        if verb is Verb.CANCEL:
            # The confirmation carries the game's version like every button: one drawn
            # before the game moved on is stale (a repeated press finds it over).
            game = await service.game(game_id)
            admin = ref != game.creator and await _admin(is_admin, game)
            return Reply(game=await service.cancel(game_id, version, ref, is_admin=admin))
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
                action = presenters.presenter_of(game).parse_action_arg(seat, command.arg)
            except CodecError:
                raise ServiceError(ErrorCode.MALFORMED, game_id) from None
            version = self.current_version(game, seat, version)
            outcome = await service.play(game_id, version, ref, action)
            return Reply(game=outcome.game, seat=seat)
        if verb in (Verb.SELECT, Verb.REFRESH, Verb.SHOW_HAND):
            player = game.seats[seat]
            if player is not None and player.away:
                await service.come_back(game_id, ref)
            if verb is Verb.SELECT and self.current_version(game, seat, version) != game.version:
                raise ServiceError(ErrorCode.STALE, game_id)
            selection = presenters.parse_selection(command.arg) if verb is Verb.SELECT else 0
            screen = presenters.hand(game, seat, selection, self.tr, locale)
            return Reply(hand=screen, seat=seat, game=game, private=True)
        raise ServiceError(ErrorCode.MALFORMED, game_id)

    # --- Join links ----------------------------------------------------------------

    async def join_link(self, game: Game, team: str) -> str:
        """The payload of a private-chat link that seats its sender in ``team`` of
        ``game`` (for a player the bot could not write to yet)."""
        return join_payload(game.id, team, await self.service.link_key())

    async def join_by_link(
        self,
        user: User,
        payload: str,
        *,
        is_member: ChatCheck,
        platform_language: str | None = None,
    ) -> Reply:
        """Seat the sender of a join link made by :meth:`join_link`, if he is a member
        of the game's chat. Every refusal is an alert and changes nothing; a player
        already seated is not refused (nor moved). A seated player of a running game
        gets his hand (``hand``, ``seat``)."""
        target = parse_join_payload(payload, await self.service.link_key())
        if target is None:
            locale = await self.user_locale(user, platform_language)
            return Reply(alert=self.error_text(ErrorCode.BAD_LINK, locale))
        game_id, team = target
        try:
            game = await self.service.game(game_id)
        except ServiceError as error:
            locale = await self.user_locale(user, platform_language)
            return Reply(alert=self.error_text(error.code, locale))
        locale = await self.user_locale(user, game.settings.locale)
        try:
            if game.chat.platform is not user.ref.platform:
                raise ServiceError(ErrorCode.BAD_LINK, game_id)
            if not await is_member(game.chat):
                raise ServiceError(ErrorCode.NOT_MEMBER, game_id)
            if game.seat_of(user.ref) is None:  # a link pressed twice seats him once
                game = await self.service.join(game_id, None, user, Team[team])
        except ServiceError as error:
            return Reply(alert=self.error_text(error.code, locale))
        seat = game.seat_of(user.ref)
        if seat is None or game.status is not GameStatus.PLAYING:
            return Reply(game=game, seat=seat)
        hand = presenters.hand(game, seat, 0, self.tr, locale)
        return Reply(game=game, seat=seat, hand=hand, private=True, in_place=False)

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

    def rule_set_of(self, word: str | None) -> str | None:
        """The rule set a command's word names: its id (``classic``, ``yard``) or its
        name in any language, in any case; None for a word that names none."""
        wanted = _folded(word or "")
        for rule_set in presenters.rule_presenter_ids():
            names = {rule_set}
            for locale in LOCALES:
                names.add(_folded(presenters.rules_name(rule_set, self.tr, locale)))
                names.add(_folded(presenters.rules_short_name(rule_set, self.tr, locale)))
            if wanted in names:
                return rule_set
        return None

    async def kozel(
        self, chat: ChatRef, user: User, *, private: bool = False, rules: str | None = None
    ) -> Reply:
        """``/kozel [classic|yard]``: open a lobby (of the rules named, else of the
        default ones), or point to the running game. In a private chat it starts a solo
        game against three computer players at once. A word that names no rules opens
        nothing: the answer says so, with the help."""
        locale = await self.chat_locale(chat)
        rule_set = None
        if rules is not None and rules.strip():
            rule_set = self.rule_set_of(rules)
            if rule_set is None:
                screen = presenters.unknown_rules(rules.strip(), self.tr, locale, chat.platform)
                return Reply(screen=screen)
        try:
            game = await self.service.open_table(chat, user, join=private, rule_set=rule_set)
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

    async def top(
        self, chat: ChatRef, *, everywhere: bool = False, rule_set: str | None = None
    ) -> Reply:
        """The best players of the chat (``everywhere``: of every chat of its
        platform), over every rule set's games or over ``rule_set``'s (a word naming
        it, as :meth:`rule_set_of` reads it)."""
        locale = await self.chat_locale(chat)
        if rule_set is not None:
            named = self.rule_set_of(rule_set)
            if named is None:
                return Reply(screen=presenters.top_usage(rule_set, self.tr, locale, chat.platform))
            rule_set = named
        rows = await self.service.leaderboard(chat, everywhere=everywhere, rule_set=rule_set)
        return Reply(
            screen=presenters.leaderboard(
                rows, self.tr, locale, global_=everywhere, platform=chat.platform, rule_set=rule_set
            )
        )

    async def top_command(self, chat: ChatRef, words: str | None) -> Reply:
        """``/top [classic|yard] [all]``, the words in any order; a word that is neither
        gets the command's usage and no leaderboard."""
        tokens = (words or "").split()
        rest = " ".join(word for word in tokens if _folded(word) not in self._all_words())
        everywhere = len(rest.split()) < len(tokens)
        return await self.top(chat, everywhere=everywhere, rule_set=rest or None)

    def _all_words(self) -> set[str]:
        words = {"all", "global", "все"}
        return words | {_folded(self.tr.t(locale, "cmd-option-all")) for locale in LOCALES}

    async def stats(self, chat: ChatRef, user: UserRef) -> Reply:
        """A player's statistics, for each rule set he played."""
        locale = await self.chat_locale(chat)
        found = await self.service.stats_by_rules(user)
        return Reply(
            screen=presenters.stats_by_rules(found, self.tr, locale, platform=chat.platform)
        )

    async def rules(self, chat: ChatRef, rule_set: str | None = None) -> Reply:
        """``/rules [classic|yard]``: the rules named; without a word, the rules of the
        chat's open table with its options, else the default rules and how to read
        the others."""
        locale = await self.chat_locale(chat)
        platform = chat.platform
        if rule_set is not None and rule_set.strip():
            named = self.rule_set_of(rule_set)
            if named is None:
                return Reply(
                    screen=presenters.unknown_rules(rule_set.strip(), self.tr, locale, platform)
                )
            return Reply(screen=presenters.rules(self.tr, locale, named, platform=platform))
        game = await self.service.open_game(chat)
        if game is not None:
            return Reply(screen=presenters.table_rules(game, self.tr, locale, platform=platform))
        default = self.service.default_rule_set
        return Reply(
            screen=presenters.rules(self.tr, locale, default, platform=platform, others=True)
        )

    async def help(self, chat: ChatRef) -> Reply:
        locale = await self.chat_locale(chat)
        return Reply(screen=presenters.help(self.tr, locale, platform=chat.platform))

    async def lang(
        self,
        chat: ChatRef,
        user: User,
        code: str | None,
        *,
        private: bool = False,
        is_admin: bool = False,
    ) -> Reply:
        """``/lang ru|en``: in a private chat, the user's language; in a group, the
        group's when an admin of it asks (``is_admin``), else the member's own (the
        group's stays as its admins chose it)."""
        locale = await self.chat_locale(chat)
        code = (code or "").strip().lower()
        if code not in LOCALES:
            return Reply(screen=presenters.language_usage(self.tr, locale, platform=chat.platform))
        if private or not is_admin:
            await self.service.set_user_locale(user, code)
        if not private and not is_admin:
            return Reply(screen=presenters.own_language_switched(self.tr, code, locale))
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
            self._hands.pop(game.id, None)  # every hand is redrawn, whatever it showed
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
        for seat, player in self.changed_hands(game):
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
            return presenters.owed_deal_result(game, owed.number, tr, locale)
        return presenters.game_result(game, tr, locale)

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
        if change.kind is ChangeKind.RESTORED:
            self._hands.pop(game.id, None)  # every hand is redrawn, whatever it showed
        hands = [(Target.HAND, seat, player.user) for seat, player in self.changed_hands(game)]
        return [(Target.TABLE, None, None), *hands]

    # --- Which hands a change shows ----------------------------------------------------
    # A hand shows what is its seat's own (presenters.HandContent): a card played
    # elsewhere changes the table, not a waiting player's hand, so his message is left
    # as it is until its content changes (his turn comes, his cards are refilled, a
    # molodka becomes his to declare). Its buttons then carry an older game version;
    # a press of them is as good as a current one while the hand's content is the same
    # (current_version).

    def changed_hands(self, game: Game) -> list[tuple[int, Seat]]:
        """The human seats whose hand screen shows something new since it was last
        shown (every one the first time, e.g. after a restart), remembered as shown
        now. Called when a change is published, so every platform shows the same."""
        shown = self._hands.setdefault(game.id, {})
        out: list[tuple[int, Seat]] = []
        playing = game.status is GameStatus.PLAYING
        for seat, player in game.humans:
            content = presenters.hand_content(game, seat) if playing else None
            before = shown.get(seat)
            if content is None or before is None or before.content != content:
                shown[seat] = _Shown(content, game.version)
                out.append((seat, player))
        if not game.status.is_open:
            self._hands.pop(game.id, None)
        return out

    def urgent_seats(self, game: Game, change: Change) -> frozenset[int]:
        """The seats whose hand must not wait behind other messages: the one that
        acted (the presser is looking at it) and the one to act now; every seat when
        the change ended a deal (a new deal is news for every player: he plans, and
        may hold a molodka)."""
        if any(owed.kind is OwedKind.DEAL_RESULT for owed in change.owed):
            return frozenset(seat for seat, _ in game.humans)
        turn = game.play.turn
        seats = {change.seat} if change.seat is not None else set()
        if turn is not None:
            seats.add(turn)
        return frozenset(seats)

    def current_version(self, game: Game, seat: int, version: int) -> int:
        """The game version a press of the seat's hand stands for: the current one if
        the hand it was pressed on (drawn at ``version``) shows what the hand shows
        now, else ``version`` itself (a stale press)."""
        if version == game.version or game.status is not GameStatus.PLAYING:
            return version
        before = self._hands.get(game.id, {}).get(seat)
        if (
            before is None
            or not before.since <= version <= game.version
            or before.content != presenters.hand_content(game, seat)
        ):
            return version
        return game.version


@dataclass(frozen=True, slots=True)
class _Shown:
    content: Hashable | None
    since: int  # the game version from which the hand showed it


def place_refusal(game: Game, user: UserRef, verb: Verb, where: Pressed) -> str | None:
    """Why a press of ``verb`` on ``game`` by ``user`` does not belong where it was
    pressed (an error code), or None when it does.

    - a message only another user sees is his: nobody else presses on it;
    - a game's buttons work in the game's chat (a user of another platform has none);
    - a hand's buttons work also in the seated player's own private chat.
    """
    platform = game.chat.platform
    if user.platform is not platform or where.chat.platform is not platform:
        return ErrorCode.NOT_HERE
    if where.owner is not None and where.owner != user:
        return ErrorCode.NOT_YOURS
    if where.chat.id == game.chat.id:
        return None
    if verb in HAND_VERBS and where.owner == user and game.seat_of(user) is not None:
        return None
    return ErrorCode.NOT_HERE


async def _admin(is_admin: ChatCheck | None, game: Game) -> bool:
    """Whether the presser is an admin of the game's chat (never of the pressed one)."""
    return is_admin is not None and await is_admin(game.chat)


def _folded(word: str) -> str:
    """A word as commands compare it: trimmed, lowercase, ё as е."""
    return " ".join(word.split()).lower().replace("ё", "е")


def _team(arg: str, game_id: int) -> Team:
    if arg in ("A", "B"):
        return Team[arg]
    raise ServiceError(ErrorCode.MALFORMED, game_id)
