"""What a press or a command does, and what a game change shows: for every platform.

Adapters only translate: an update or interaction becomes a call here, and the
:class:`Reply` of a command, or the :class:`~bot.outputs.Output` list of a press or a
game change, comes back as messages, edits, alerts or ephemeral answers. No platform
writes a flow of its own; what each button does is :mod:`bot.presses`.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot import pictures, presenters
from bot.challenge import DEALS as CHALLENGE_DEALS
from bot.challenge import NEW_WORDS as NEW_CHALLENGE_WORDS
from bot.challenge import Challenge, ChallengeError
from bot.codec import CodecError, Verb, decode, join_payload, parse_join_payload
from bot.errors import ErrorCode, ServiceError
from bot.event_ui import EventUI
from bot.flood import Admission, FloodGuard
from bot.i18n import Translator, normalize_locale
from bot.metrics import Metrics
from bot.models import ChatRef, Game, GameStatus, Platform, Seat, User, UserRef
from bot.options import presets_of
from bot.outputs import Output, PressReply, Target
from bot.ports import Change, ChangeKind, Owed, OwedKind
from bot.presenters import Button, Screen
from bot.presenters import achievements as achievement_words
from bot.presenters import challenge as challenge_words
from bot.presenters import reliability as reliability_words
from bot.presses import PRESSES, CanMessage, ChatCheck, Press, Pressed, place_refusal, refused
from bot.ratings import (
    BadSeason,
    RatingChange,
    looks_like_month,
    previous_season,
    season_named,
    season_of,
)
from bot.service import LOCALES, GameService
from core.seats import Team


class WebLinks(Protocol):
    """The way to a game's live table in the browser (``adapters.web``), when the
    bot runs one: the buttons its messages carry there. None: no button."""

    def table_button(self, game: Game, locale: str) -> Button | None:
        """The button of a game's public table (a spectator's way in)."""
        ...

    def hand_button(self, game: Game, seat: int, locale: str) -> Button | None:
        """The button of a seat's private hand (signed for its player)."""
        ...

    def link_button(self, game: Game, seat: int | None, locale: str) -> Button | None:
        """A plain link to the game's web table for the player at ``seat`` (signed
        for him), or for a spectator (``seat`` None)."""
        ...

    def bot_named(self, platform: Platform, username: str) -> None:
        """The bot's username on a platform, as its adapter learned it (a link into
        the platform's app names it)."""
        ...

    async def revoke(self, game: Game, seat: int) -> Game:
        """Revoke every link of a seat made so far (their open pages are closed):
        the game as it is now, whose links of that seat are new ones."""
        ...

    def picture_url(self, game: Game) -> str | None:
        """The address of a finished game's result picture (a JPEG the web table
        serves), for a platform that shows a picture by its address (Telegram's
        inline results); None before the game is over."""
        ...


#: A platform's way to share a finished game's result with its player: the id of a
#: message prepared for him to send (Telegram's ``savePreparedInlineMessage``), or
#: None when the platform would not prepare it.
Sharer = Callable[[Game, User], Awaitable[str | None]]


@dataclass(frozen=True, slots=True)
class Reply:
    """The answer to the user who sent a command (a press answers with a
    :class:`~bot.outputs.PressReply`).

    ``alert`` is a short note for that user only (an ephemeral message); ``screen`` a
    message to answer with (``private``: only that user may see it); ``hand`` the
    user's own hand, drawn from the game at ``version`` (taken from ``game`` when the
    reply is made).
    """

    alert: str | None = None
    screen: Screen | None = None
    private: bool = False
    hand: Screen | None = None
    seat: int | None = None
    game: Game | None = None
    ignored: bool = False
    version: int | None = None

    def __post_init__(self) -> None:
        if self.version is None and self.game is not None:
            object.__setattr__(self, "version", self.game.version)

    # ``ignored``: the user floods (:mod:`bot.flood`): nothing was done and nothing is
    # answered.


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
        #: The seats whose player has the web table open (authenticated pages, by game
        #: id, then seat): their hands, once shown, are not redrawn meanwhile.
        self._watched: dict[int, Counter[int]] = {}
        #: The web table, when the bot runs one: its buttons on tables and hands.
        self.web: WebLinks | None = None
        #: The platforms that share a game's result from the web table, as each
        #: platform's adapter says (Telegram: a prepared inline message).
        self.sharers: dict[Platform, Sharer] = {}
        #: ``/event`` and its registration buttons (:mod:`bot.event_ui`).
        self.event_ui = EventUI(self)

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
    ) -> PressReply:
        """Handle a pressed button: what it shows, as outputs (:mod:`bot.presses`).
        Never raises for a bad press: every refusal is an alert in the user's
        language, and nothing changes.

        Before anything else the press must belong where it was pressed
        (:func:`~bot.presses.place_refusal`): the game is the pressed chat's, or the
        press is on a hand in the seated player's own private chat. ``is_admin`` and
        ``is_member`` are asked about the game's chat (a chat admin may cancel; only a
        member may join); without them the presser is neither an admin nor checked
        for membership. ``can_message`` is asked before a Join: a player the bot
        cannot write to is not seated, and gets the way to its private chat.

        The user's language is the one he chose with ``/lang``, else the language of
        the game's table (as in :meth:`outputs`, so a hand keeps its language), else
        his platform's.

        A user pressing faster than :data:`bot.flood.PRESSES` allows gets one alert,
        then his presses are ignored for a while (no outputs)."""
        admission = self.flood.press(user.ref)
        if admission is not Admission.ALLOWED:
            alert = await self._flood_alert(
                admission,
                ErrorCode.TOO_MANY_PRESSES,
                lambda: self.user_locale(user, platform_language),
            )
            return PressReply(() if alert is None else (Output(Target.ALERT, Screen(alert)),))
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
    ) -> PressReply:
        try:
            command = decode(token)
        except CodecError:
            self._count_refusal(ErrorCode.MALFORMED)
            locale = await self.user_locale(user, platform_language)
            return _alert(self.error_text(ErrorCode.MALFORMED, locale))
        if command.verb is Verb.EVENT:  # an event's registration, not a game
            locale = await self.user_locale(user, platform_language)
            press = Press(self, user, command, where, locale, is_admin, is_member, can_message)
            return await PRESSES[Verb.EVENT](press)
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
            return _alert(self.error_text(code, locale))
        locale = await self.user_locale(user, game.settings.locale)
        press = Press(self, user, command, where, locale, is_admin, is_member, can_message)
        try:
            return await PRESSES[command.verb](press)
        except ServiceError as error:
            self._count_refusal(error.code)
            return await refused(press, error)

    async def command_flood(self, chat: ChatRef, user: UserRef) -> Reply | None:
        """Whether a user's command is handled: None if so, else the answer instead of
        it: the one "slow down" alert (in the chat's language) when his commands
        came faster than :data:`bot.flood.COMMANDS` allows, then ``Reply.ignored``
        for a while. Adapters ask before every command."""
        admission = self.flood.command(user)
        if admission is Admission.ALLOWED:
            return None
        alert = await self._flood_alert(
            admission, ErrorCode.TOO_MANY_COMMANDS, lambda: self.chat_locale(chat)
        )
        return Reply(ignored=True) if alert is None else Reply(alert=alert)

    async def _flood_alert(
        self, admission: Admission, code: ErrorCode, locale: Callable[[], Awaitable[str]]
    ) -> str | None:
        """The answer to a flooding user: one alert, then nothing (None)."""
        if admission is Admission.IGNORED:
            return None
        self._count_refusal(code)
        return self.error_text(code, await locale())

    async def dropped_answers(self, chat: ChatRef) -> Screen:
        """The notice that some answers to commands in a chat were dropped (too many
        at once)."""
        return Screen(self.tr.t(await self.chat_locale(chat), "notice-answers-dropped"))

    def _count_refusal(self, reason: str) -> None:
        if self.metrics is not None:
            self.metrics.refused(reason)

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
        hand = self.hand_view(game, seat, 0, locale)
        return Reply(game=game, seat=seat, hand=hand, private=True)

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

    @staticmethod
    def wants_new_links(words: str | None) -> bool:
        """Whether ``/hand``'s words ask for new links to the web table (``/hand new``).

        >>> Interactions.wants_new_links("new"), Interactions.wants_new_links(" Новые ")
        (True, True)
        >>> Interactions.wants_new_links(None), Interactions.wants_new_links("all")
        (False, False)
        """
        return _folded(words or "") in _NEW_WORDS

    async def renew_hand_links(self, user: User, platform_language: str | None = None) -> Reply:
        """``/hand new`` in a private chat: every link to the web table that the user's
        hands carried so far stops working (the pages opened with them are closed):
        the line to answer with (``screen``), then his hands (:meth:`hands`), which
        carry the new links. A hand that carries no link (no web table, or none that
        the platform takes) has nothing to revoke: ``alert`` says so."""
        locale = await self.user_locale(user, platform_language)
        web = self.web
        if web is None:
            return Reply(alert=self.tr.t(locale, "web-renew-no-links"))
        renewed = 0
        for game in self.service.games_of(user.ref):
            seat = game.seat_of(user.ref)
            if seat is None or web.hand_button(game, seat, locale) is None:
                continue
            await web.revoke(game, seat)
            self._hands.get(game.id, {}).pop(seat, None)
            renewed += 1
        if not renewed:
            return Reply(alert=self.tr.t(locale, "web-renew-no-links"))
        return Reply(screen=Screen(self.tr.t(locale, "web-renew-hands")), private=True)

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

    def rules_of(self, words: str) -> tuple[str, dict[str, Any]] | None:
        """The rule set and options a command's words name: the rules (as
        :meth:`rule_set_of` reads them) and optionally one of their presets after them
        (``classic 001``), or a preset alone when one rule set has it (``001``); None
        for words that name none.

        >>> ui = Interactions.__new__(Interactions)
        >>> ui.tr = Translator.from_dir()
        >>> ui.rules_of("classic")
        ('classic', {})
        >>> rules, options = ui.rules_of("Хвалёный козёл 001")
        >>> rules, options["trump_suit"]
        ('classic', 'D')
        >>> ui.rules_of("001")[0], ui.rules_of("classic 002"), ui.rules_of("yard 001")
        ('classic', None, None)
        """
        rule_set = self.rule_set_of(words)
        if rule_set is not None:
            return rule_set, {}
        head, _, last = words.strip().rpartition(" ")
        rule_sets = [self.rule_set_of(head)] if head else list(presenters.rule_presenter_ids())
        found = [
            (rule_set, dict(options))
            for rule_set in rule_sets
            if rule_set is not None
            for name, options in presets_of(rule_set)
            if name == last
        ]
        return found[0] if len(found) == 1 else None

    async def kozel(
        self, chat: ChatRef, user: User, *, private: bool = False, rules: str | None = None
    ) -> Reply:
        """``/kozel [classic|yard] [preset]``: open a lobby (of the rules named, with
        the preset's options if one is named, else of the default ones), or point to the
        running game. In a private chat it starts a solo game against three computer
        players at once. Words that name no rules open nothing: the answer says so,
        with the help."""
        challenge_words = self._challenge_words(rules)
        if challenge_words is not None:
            return await self.challenge(chat, user, challenge_words, private=private)
        locale = await self.chat_locale(chat)
        rule_set = None
        options: dict[str, Any] = {}
        if rules is not None and rules.strip():
            named = self.rules_of(rules)
            if named is None:
                screen = presenters.unknown_rules(rules.strip(), self.tr, locale, chat.platform)
                return Reply(screen=screen)
            rule_set, options = named
        try:
            game = await self.service.open_table(
                chat, user, join=private, rule_set=rule_set, options=options
            )
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

    # --- Duplicate challenges (bot.challenge) --------------------------------------------

    def _challenge_words(self, words: str | None) -> str | None:
        """The words after ``challenge`` (``вызов``) when a command's words begin with
        it (``""`` for none); None when they do not."""
        head, _, rest = (words or "").strip().partition(" ")
        names = {"challenge", *(self.tr.t(locale, "challenge-word") for locale in LOCALES)}
        return rest.strip() if head and _folded(head) in names else None

    async def challenge(
        self, chat: ChatRef, user: User, words: str, *, private: bool = False
    ) -> Reply:
        """``/kozel challenge [ID|yard|classic|new] [preset]`` in the private chat with
        the bot: the user's next deal of the challenge named (none: the day's of the
        default rules; a rule set: the day's of it; rules with a preset, or ``new``
        and rules: a new custom challenge), started, or his deal begun resumed. In
        a group the answer points to the private chat (a deal shown there would be
        seen by those who have not played it). Every refusal is one line."""
        locale = await self.chat_locale(chat)
        if not private:
            return Reply(alert=self.error_text(ChallengeError.IN_GROUP, locale))
        challenges = self.service.challenges
        try:
            found = await self._challenge_named(words)
            resumed = bool([p for p in await challenges.plays(found, user.ref) if p.loss is None])
            game = await challenges.play(found, chat, user)
        except ServiceError as error:
            return Reply(alert=self.error_text(error.code, locale))
        if resumed:
            deal = (game.settings.challenge_deal or 0) + 1
            text = self.tr.t(locale, "challenge-resumed", id=found.id, deal=deal)
            return Reply(alert=text, game=game)
        return Reply(game=game)

    async def _challenge_named(self, words: str) -> Challenge:
        """The challenge a command's words name (see :meth:`challenge`), a new custom
        one made for ``new`` or a preset."""
        challenges = self.service.challenges
        head, _, rest = words.strip().partition(" ")
        new = _folded(head) in NEW_CHALLENGE_WORDS
        if new:
            words = rest
        named = self.rules_of(words) if words.strip() else None
        if named is not None and (new or named[1]):
            return await challenges.create(*named)
        if new:
            return await challenges.create(self.service.default_rule_set, {})
        if named is not None:
            return await challenges.find(named[0])
        return await challenges.find(words)

    async def challenge_next(self, game: Game, user: User) -> Game:
        """ "Next deal" under a challenge deal's result: the user's next deal of its
        challenge in the same chat (his deal begun, if he began it already)."""
        found = await self.service.challenges.challenge_of(game)
        if found is None:
            raise ServiceError(ErrorCode.UNKNOWN_GAME, game.id)
        return await self.service.challenges.play(found, game.chat, user)

    async def challenge_top(self, chat: ChatRef, user: UserRef | None, words: str) -> Reply:
        """``/top challenge [ID|yard|classic]``: a challenge's table (none named: the
        day's of the default rules) and the asker's place."""
        locale = await self.chat_locale(chat)
        try:
            found = await self.service.challenges.find(words)
        except ServiceError as error:
            return Reply(alert=self.error_text(error.code, locale))
        standings = await self.service.challenge_standings(found, user)
        return Reply(screen=challenge_words.table(standings, self.tr, locale))

    async def challenge_over(self, game: Game, user: UserRef) -> Screen | None:
        """What a challenge deal's end shows its entrant: his loss, the field's, his
        score and place, the way to his next deal."""
        found = await self.service.challenges.challenge_of(game)
        if found is None:
            return None
        plays = await self.service.challenges.plays(found, user)
        standings = await self.service.challenges.standings(found, user)
        locale = await self.user_locale(user, game.settings.locale)
        return challenge_words.deal_over(game, found, plays, standings, self.tr, locale)

    async def web_table(self, chat: ChatRef, user: UserRef, *, renew: bool = False) -> Reply:
        """``/kozel web``: the user's own link to the chat's open game on the web table
        (a spectator's when he does not sit at it), to be shown to him only.

        ``renew`` (``/kozel web new``): a player's every older link of his seat stops
        working (the pages opened with them are closed) and he gets a new one. Only
        the seat's own player renews its links: nobody else is refused and nothing
        changes."""
        locale = await self.chat_locale(chat)
        if self.web is None:
            return Reply(alert=self.tr.t(locale, "web-link-off"))
        game = await self.service.chat_game(chat, user)
        if game is None:
            return Reply(alert=self.tr.t(locale, "web-link-none"))
        seat = game.seat_of(user)
        if renew:
            if seat is None or self.web.link_button(game, seat, locale) is None:
                return Reply(alert=self.tr.t(locale, "web-renew-not-seated"))
            game = await self.web.revoke(game, seat)
            # His DM hand's button carries the old link: the next change redraws it.
            self._hands.get(game.id, {}).pop(seat, None)
        button = self.web.link_button(game, seat, locale)
        if button is None:
            return Reply(alert=self.tr.t(locale, "web-link-none"))
        key = "web-renew-text" if renew else "web-link-text"
        text = self.tr.t(locale, "web-link-spectator" if seat is None else key)
        return Reply(screen=Screen(text, ((button,),)), private=True, game=game, seat=seat)

    async def activity(self, chat: ChatRef) -> Reply:
        """``/kozel`` with the Activity's choice (Discord): the chat's open game, whose
        table the platform opens as its Activity; without one, the line that says so
        (to the user alone), and nothing is opened."""
        game = await self.service.open_game(chat)
        if game is None:
            return Reply(alert=self.tr.t(await self.chat_locale(chat), "web-error-no-game"))
        return Reply(game=game)

    async def stop(self, chat: ChatRef, user: UserRef, *, is_admin: bool = False) -> Reply:
        """``/stop``: ask the creator or an admin to confirm ending the chat's game."""
        locale = await self.chat_locale(chat)
        game = await self.service.chat_game(chat, user)  # his own table of an event too
        if game is None:
            return Reply(alert=self.error_text(ErrorCode.UNKNOWN_GAME, locale))
        if user != game.creator and not is_admin:
            return Reply(alert=self.error_text(ErrorCode.NOT_ALLOWED, locale), game=game)
        return Reply(screen=presenters.cancel_confirm(game, self.tr, locale), game=game)

    async def top(
        self,
        chat: ChatRef,
        *,
        everywhere: bool = False,
        rule_set: str | None = None,
        season: bool = False,
        month: str | None = None,
    ) -> Reply:
        """The best rated players of the chat (``everywhere``: of every chat of its
        platform; ``season``: of the chat this month; ``month``: of the chat in a
        past month, ``YYYY-MM`` or a word for the previous one), over every rule
        set's games or over ``rule_set``'s (a word naming it, as :meth:`rule_set_of`
        reads it). A month malformed or not begun gets one line and no board."""
        locale = await self.chat_locale(chat)
        if rule_set is not None:
            named = self.rule_set_of(rule_set)
            if named is None:
                return Reply(screen=presenters.top_usage(rule_set, self.tr, locale, chat.platform))
            rule_set = named
        asked = None
        if month is not None:
            now = self.service.clock.now()
            try:
                asked = self._season_asked(month, now)
            except BadSeason as refused:
                current = season_of(now)
                screen = presenters.rating.bad_season(
                    refused, current, self.tr, locale, chat.platform
                )
                return Reply(screen=screen)
        board, rows = await self.service.rating_board(
            chat, everywhere=everywhere, rule_set=rule_set, season=season, month=asked
        )
        screen = presenters.rating.board(
            rows,
            self.tr,
            locale,
            global_=everywhere and board.season is None,
            platform=chat.platform,
            rule_set=rule_set,
            season=board.season,
            min_games=board.min_games,
        )
        return Reply(screen=screen)

    async def top_command(
        self, chat: ChatRef, words: str | None, user: UserRef | None = None
    ) -> Reply:
        """``/top [classic|yard] [all] [season] [YYYY-MM|last]``, the words in any
        order; a month (a word of digits like ``2026-11``, or ``last``) asks that
        month's season. A word that is none of them, or a second month, gets the
        command's usage and no leaderboard. ``/top challenge [ID]``: a challenge's
        table, with ``user``'s place (:meth:`challenge_top`)."""
        challenge = self._challenge_words(words)
        if challenge is not None:
            return await self.challenge_top(chat, user, challenge)
        tokens = (words or "").split()
        every, season, last = self._all_words(), self._season_words(), _LAST_WORDS
        months = [w for w in tokens if looks_like_month(w) or _folded(w) in last]
        rest = [w for w in tokens if _folded(w) not in every | season and w not in months]
        return await self.top(
            chat,
            everywhere=any(_folded(word) in every for word in tokens),
            rule_set=" ".join(months[1:] + rest) or None,
            season=any(_folded(word) in season for word in tokens),
            month=months[0] if months else None,
        )

    def _season_asked(self, word: str, now: float) -> str:
        """The season a month word names (:func:`bot.ratings.season_named`, or the
        previous month's for a word of :data:`_LAST_WORDS`)."""
        if _folded(word) in _LAST_WORDS:
            return previous_season(season_of(now))
        return season_named(word, now)

    def _all_words(self) -> set[str]:
        words = {"all", "global", "все"}
        return words | {_folded(self.tr.t(locale, "cmd-option-all")) for locale in LOCALES}

    def _season_words(self) -> set[str]:
        words = {"season", "month", "сезон", "месяц"}
        return words | {_folded(self.tr.t(locale, "cmd-option-season")) for locale in LOCALES}

    async def stats(self, chat: ChatRef, user: UserRef) -> Reply:
        """A player's statistics, for each rule set he played."""
        # Independent reads, asked at once: the answer waits for the slowest, not
        # for their sum (each waits its turn for a read connection).
        locale, found, rated, earned, reliable = await asyncio.gather(
            self.chat_locale(chat),
            self.service.stats_by_rules(user),
            self.service.player_ratings(user),
            self.service.achievements_of(user),
            self.service.reliability(user),
        )
        more = presenters.rating.stats_more(rated, self.tr, locale)
        more[""] += reliability_words.stats_lines(reliable, self.tr, locale)
        screen = presenters.stats_by_rules(
            found, self.tr, locale, platform=chat.platform, more=more
        )
        played = any(s.series_played or s.deals_played for _, s in found)
        return Reply(
            screen=achievement_words.with_achievements(
                screen, earned if played else [], self.tr, locale, played=played
            )
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

    async def pictures(
        self,
        chat: ChatRef,
        word: str | None,
        *,
        private: bool = False,
        is_admin: bool = False,
    ) -> Reply:
        """``/pictures on|off``: whether the chat gets a game's result as a picture too
        (default on). In a group only its admins change it; without a word, or with
        another one, the setting now and how to change it."""
        locale = await self.chat_locale(chat)
        word = _folded(word or "")
        on = word in _ON_WORDS
        if not on and word not in _OFF_WORDS:
            current = await self.service.chat_pictures(chat)
            usage = achievement_words.pictures_usage(current, self.tr, locale, chat.platform)
            return Reply(screen=usage)
        if not private and not is_admin:
            return Reply(alert=self.tr.t(locale, "pictures-admins"))
        await self.service.set_chat_pictures(chat, on)
        return Reply(screen=achievement_words.pictures_switched(on, self.tr, locale))

    # --- Game changes --------------------------------------------------------------

    async def outputs(
        self, game: Game, change: Change, *, hand_button: bool = False, pictures: bool = False
    ) -> list[Output]:
        """What a change of a game shows: the table, the hands, results, notices.
        ``hand_button`` puts a "My hand" button on the table while a deal runs (Discord
        answers it with an ephemeral hand); ``pictures``: the platform shows pictures
        (the game's result is sent as one too, where the chat wants it)."""
        tr, locale = self.tr, game.settings.locale
        now = self.service.clock.now()
        owed = await self.owed_outputs(game, change, pictures=pictures)
        if change.kind is ChangeKind.RESTORED:
            # What a crash may have kept from going out: the owed messages first, in
            # order, then the table and the hands as they are saved.
            redraw = Change(ChangeKind.PLAYED)  # no events: the table and the hands
            self._hands.pop(game.id, None)  # every hand is redrawn, whatever it showed
            return [*owed, *await self.outputs(game, redraw, hand_button=hand_button)]
        out: list[Output] = []
        if change.kind is ChangeKind.HANDS:  # a seat's last web page closed
            return await self._hand_outputs(game) if game.status is GameStatus.PLAYING else []
        if change.kind is ChangeKind.LOBBY or game.status is GameStatus.LOBBY:
            return [Output(Target.TABLE, presenters.lobby(game, tr, locale))]
        table = self._table_link(
            game, presenters.table(game, tr, locale, now, with_hand_button=hand_button), locale
        )
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
        if change.kind is ChangeKind.FINISHED and game.settings.challenge is not None:
            entrant = game.seats[0]
            over = None
            if entrant is not None and entrant.user is not None:
                over = await self.challenge_over(game, entrant.user)
            if over is not None:
                out.append(Output(Target.CHAT, over))
        if change.kind is ChangeKind.CANCELLED:
            out.append(Output(Target.CHAT, presenters.cancelled(tr, locale)))
        out.extend(await self._hand_outputs(game))
        out.extend(owed)
        if change.seat is not None and change.kind is ChangeKind.REFUSED:
            reason = str(change.extra["reason"])
            out.append(
                Output(Target.CHAT, presenters.refused(reason, game, change.seat, tr, locale))
            )
        if change.seat is not None and change.kind in (ChangeKind.AWAY, ChangeKind.BACK):
            kind = (
                presenters.Notice.AWAY if change.kind is ChangeKind.AWAY else presenters.Notice.BACK
            )
            out.append(Output(Target.CHAT, presenters.notice(kind, game, change.seat, tr, locale)))
        return out

    async def _hand_outputs(self, game: Game) -> list[Output]:
        """The hands a change shows (:meth:`changed_hands`)."""
        out: list[Output] = []
        for seat, player in self.changed_hands(game):
            assert player.user is not None
            user_locale = await self.user_locale(player.user, game.settings.locale)
            if game.status is GameStatus.CANCELLED:
                hand = presenters.cancelled(self.tr, user_locale)
            else:
                hand = self.hand_view(game, seat, 0, user_locale)
            out.append(Output(Target.HAND, hand, seat, player.user))
        return out

    async def owed_outputs(
        self, game: Game, change: Change, *, pictures: bool = False
    ) -> list[Output]:
        """The messages a change owes (a deal's result, the series', its picture, the
        achievements), drawn from the game. One the game cannot draw (it has no such
        result), or that the platform or the chat does not show (a picture), is owed
        no more."""
        out: list[Output] = []
        for owed in change.owed:
            if owed.kind is OwedKind.RESULT_PICTURE:
                picture = await self.result_picture(game, owed) if pictures else None
                if picture is None:
                    await self.service.message_sent(owed)
                else:
                    out.append(picture)
                continue
            if owed.kind is OwedKind.ACHIEVEMENTS:
                screen = await self.achievements_screen(game, owed)
            else:
                ratings = None
                if owed.kind is OwedKind.SERIES_RESULT:
                    ratings = await self.service.game_ratings(game.id)
                screen = self.owed_screen(game, owed, ratings)
            if screen is None:
                await self.service.message_sent(owed)
            else:
                out.append(Output(Target.CHAT, screen, owed=owed))
        return out

    def owed_screen(
        self, game: Game, owed: Owed, ratings: Sequence[RatingChange] | None = None
    ) -> Screen | None:
        """An owed message as the game shows it now (None: the game has no such
        result, e.g. a record from another release); the game's result with its
        players' rating changes (``ratings``, as kept with the result)."""
        tr, locale = self.tr, game.settings.locale
        if owed.kind is OwedKind.DEAL_RESULT:
            return presenters.owed_deal_result(game, owed.number, tr, locale)
        return presenters.game_result(game, tr, locale, ratings)

    async def result_picture(self, game: Game, owed: Owed) -> Output | None:
        """The game's result as a picture (None: the chat does not want one, or the
        game is not over)."""
        if not await self.service.chat_pictures(game.chat):
            return None
        image = await self.picture(game)
        if image is None:
            return None
        caption = Screen(self.tr.t(game.settings.locale, "picture-caption"))
        return Output(Target.CHAT, caption, owed=owed, image=image)

    async def picture(self, game: Game) -> bytes | None:
        """The finished game's result picture (a PNG; None before the end), in the
        table's language, drawn on a worker thread; the rating changes come from
        ratings kept with the result."""
        changes = {change.seat: change.delta for change in await self.service.game_ratings(game.id)}
        locale = game.settings.locale
        return await asyncio.to_thread(pictures.result_picture, game, self.tr, locale, changes)

    async def shared_game(self, ref: str, user: UserRef) -> Game | None:
        """The finished game ``ref`` (its id in base 36, as a web view names it) if
        ``user`` played it; None for any other game, ref or user: a result is shared
        only by those who played it."""
        ref = ref.strip().lstrip("#").lower()
        if not 0 < len(ref) <= 12 or not ref.isascii() or not ref.isalnum():
            return None
        try:
            game = await self.service.game(int(ref, 36))
        except ServiceError:
            return None
        if game.status is not GameStatus.FINISHED or game.chat.platform is not user.platform:
            return None
        return game if game.seat_of(user) is not None else None

    async def achievements_screen(self, game: Game, owed: Owed) -> Screen | None:
        """The announcement of what the save of ``owed.version`` earned, in the
        table's language (None: nothing new was kept, e.g. all of it was had)."""
        earned = await self.service.achievements_earned(game.id, owed.version)
        return achievement_words.announced(game, earned, self.tr, game.settings.locale)

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
        table = presenters.table(game, self.tr, locale, now, with_hand_button=hand_button)
        return self._table_link(game, table, locale)

    async def hand_screen(self, game: Game, seat: int) -> Screen | None:
        """A seat's private hand now (None if no human sits there)."""
        player = game.seats[seat] if 0 <= seat < len(game.seats) else None
        if player is None or player.user is None or player.is_computer:
            return None
        locale = await self.user_locale(player.user, game.settings.locale)
        if game.status is GameStatus.CANCELLED:
            return presenters.cancelled(self.tr, locale)
        return self.hand_view(game, seat, 0, locale)

    def hand_view(self, game: Game, seat: int, selection: int, locale: str) -> Screen:
        """A seat's hand (:func:`presenters.hand`), with the way to the web table
        when the bot runs one."""
        screen = presenters.hand(game, seat, selection, self.tr, locale)
        if self.web is None or game.status is not GameStatus.PLAYING:
            return screen
        return _with_button(game, screen, self.web.hand_button(game, seat, locale))

    def _table_link(self, game: Game, screen: Screen, locale: str) -> Screen:
        """A started game's table, with the way to the web table when there is one (a
        challenge deal's says which first)."""
        settings = game.settings
        if settings.challenge is not None and settings.challenge_deal is not None:
            header = self.tr.t(
                locale,
                "challenge-table-header",
                id=settings.challenge,
                deal=settings.challenge_deal + 1,
                deals=challenge_deals(settings.rule_set),
            )
            screen = Screen(f"{header}\n{screen.text}", screen.rows)
        if self.web is None or game.status is not GameStatus.PLAYING:
            return screen
        return _with_button(game, screen, self.web.table_button(game, locale))

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
        if change.kind not in (*plain, ChangeKind.HANDS):
            return None
        if change.kind is ChangeKind.RESTORED:
            self._hands.pop(game.id, None)  # every hand is redrawn, whatever it showed
        hands: list[tuple[Target, int | None, UserRef | None]] = [
            (Target.HAND, seat, player.user) for seat, player in self.changed_hands(game)
        ]
        if change.kind is ChangeKind.HANDS:
            return hands if game.status is GameStatus.PLAYING else []
        return [(Target.TABLE, None, None), *hands]

    # --- Which hands a change shows ----------------------------------------------------
    # A hand shows what is its seat's own (presenters.HandContent): a card played
    # elsewhere changes the table, not a waiting player's hand, so his message is left
    # as it is until its content changes (his turn comes, his cards are refilled, a
    # molodka becomes his to declare). Its buttons then carry an older game version;
    # a press of them is as good as a current one while the hand's content is the same
    # (current_version).
    #
    # A seat whose player has the web table open sees everything there: its hand, once
    # shown, is not redrawn while the page is open (each redraw is a write the platform
    # counts); its buttons stay as they are, a press of them checked as any other.
    # When the seat's last page closes, its hand is shown again once, if it changed
    # meanwhile (page_closed).

    def page_opened(self, game_id: int, seat: int) -> None:
        """An authenticated page of a seat's player opened (the web hub says so)."""
        self._watched.setdefault(game_id, Counter())[seat] += 1

    def page_closed(self, game_id: int, seat: int) -> bool:
        """A page that :meth:`page_opened` counted closed. True when it was the seat's
        last one: the caller then has the hands shown at once
        (:meth:`GameService.show_hands`), the seat's among them if it is not as it was
        last shown (a hand the same as then is true as it is)."""
        watched = self._watched.get(game_id)
        if watched is None or watched[seat] <= 0:
            return False
        watched[seat] -= 1
        if watched[seat] > 0:
            return False
        del watched[seat]
        if not watched:
            del self._watched[game_id]
        return True

    def changed_hands(self, game: Game) -> list[tuple[int, Seat]]:
        """The human seats whose hand screen shows something new since it was last
        shown (every one the first time, e.g. after a restart), remembered as shown
        now. Called when a change is published, so every platform shows the same. A
        hand shown once is not redrawn during play while its seat is watched on the
        web (:meth:`page_opened`): what it was last shown with stays remembered."""
        shown = self._hands.setdefault(game.id, {})
        out: list[tuple[int, Seat]] = []
        playing = game.status is GameStatus.PLAYING
        watched = self._watched.get(game.id, Counter[int]())
        for seat, player in game.humans:
            content = presenters.hand_content(game, seat) if playing else None
            before = shown.get(seat)
            if playing and before is not None and watched.get(seat, 0) > 0:
                continue
            if content is None or before is None or before.content != content:
                shown[seat] = _Shown(content, game.version)
                out.append((seat, player))
        if not game.status.is_open:
            self._hands.pop(game.id, None)
        return out

    def hand_unshown(self, game_id: int, seat: int) -> None:
        """A hand that :meth:`changed_hands` gave out was not shown after all (a
        platform that renders lazily found the game in the middle of its next change,
        or its edit failed for good): the next change shows it, as it shows a hand
        never shown."""
        shown = self._hands.get(game_id)
        if shown is not None:
            shown.pop(seat, None)

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


#: The words ``/pictures`` takes (as :func:`_folded` leaves them).
_ON_WORDS = frozenset({"on", "yes", "вкл", "да", "1"})
_OFF_WORDS = frozenset({"off", "no", "выкл", "нет", "0"})


#: The words of ``/hand new`` (new links to the web table), folded.
_NEW_WORDS = frozenset({"new", "новая", "новые", "новую", "новое"})


#: The words of ``/top`` for the previous month's season (``/top last``), folded.
_LAST_WORDS = frozenset({"last", "previous", "прошлый", "предыдущий"})


def challenge_deals(rule_set: str) -> int:
    """How many deals a challenge of a rule set has."""
    return CHALLENGE_DEALS.get(rule_set, 0)


def _folded(word: str) -> str:
    """A word as commands compare it: trimmed, lowercase, ё as е."""
    return " ".join(word.split()).lower().replace("ё", "е")


def _with_button(game: Game, screen: Screen, button: Button | None) -> Screen:
    """The screen with one more button on a row of its own (Discord takes 5 rows: the
    last row's end there, when it has room; else none is added)."""
    if button is None:
        return screen
    rows = screen.rows
    if game.chat.platform is Platform.TELEGRAM or len(rows) < presenters.MAX_ROWS:
        return Screen(screen.text, (*rows, (button,)))
    if rows and len(rows[-1]) < presenters.MAX_ROW:
        return Screen(screen.text, (*rows[:-1], (*rows[-1], button)))
    return screen


def _alert(text: str) -> PressReply:
    return PressReply((Output(Target.ALERT, Screen(text)),))
