"""What each button does: a table from verb to handler, each returning the outputs
the press shows (:class:`~bot.outputs.PressReply`).

:meth:`Interactions.press` decodes the token, refuses a press that does not belong
where it was pressed (:func:`place_refusal`), then runs the verb's handler from
:data:`PRESSES`. A handler calls the service (which publishes the change it makes)
and says what the presser sees besides: an alert, his hand (in the pressed message
when it is his own hand, else privately), a question, the question closed. Adapters
carry the outputs out; none of them decides by the verb.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot import presenters
from bot.codec import HAND_ONLY_VERBS, CodecError, Command, Verb, decode
from bot.errors import ErrorCode, ServiceError
from bot.models import ChatRef, Game, GameStatus, User, UserRef
from bot.outputs import Output, PressReply, Target
from bot.presenters import Screen
from core.seats import Team

if TYPE_CHECKING:
    from bot.interactions import Interactions
    from bot.service import GameService

CanMessage = Callable[[], Awaitable[bool]]
#: A question about the presser in a chat, asked of the platform: is he an admin
#: there, is he a member there. Always asked about the GAME's chat.
ChatCheck = Callable[[ChatRef], Awaitable[bool]]

#: The buttons of a hand message: a card, a move, "clear".
HAND_BUTTONS = HAND_ONLY_VERBS | {Verb.REFRESH}
#: Presses on a hand: the only ones a seated player may make outside the game's chat,
#: in his own private chat with the bot (where his hand is).
HAND_VERBS = HAND_BUTTONS | {Verb.SHOW_HAND}
#: Presses answered with a new message rather than in the pressed one.
NEW_MESSAGE_VERBS = frozenset({Verb.SHOW_HAND, Verb.CANCEL_ASK})


def opens_message(token: str) -> bool:
    """Whether a press of ``token`` is answered with a new message (a question, a hand
    shown anew) rather than in the pressed one: what a platform that acknowledges a
    press before its answer is ready (Discord) must know ahead."""
    try:
        return decode(token).verb in NEW_MESSAGE_VERBS
    except CodecError:
        return False


@dataclass(frozen=True, slots=True)
class Pressed:
    """Where a button was pressed, as the platform says (never as the button's data
    says: a user client can send any data on any message it sees).

    ``chat`` is the chat of the pressed message. ``owner`` is the one user who sees
    that message when only one does: the user of a private chat with the bot, the
    receiver of an ephemeral message; None for a message in a group or a channel.
    ``tokens``: what the pressed message's buttons carry (None for a button that
    carries no token, e.g. a link).
    """

    chat: ChatRef
    owner: UserRef | None = None
    tokens: tuple[str | None, ...] = ()

    def is_hand_of(self, game_id: int) -> bool:
        """Whether the pressed message is a hand of the game: its buttons are all of
        that game, a card or a move among them."""
        games = {_game_of(token) for token in self.tokens if token is not None}  # not links
        return games == {game_id} and presenters.is_hand(self.tokens, game_id)

    def is_registration_of(self, event_id: int) -> bool:
        """Whether the pressed message is that event's registration: its buttons are
        all the event's (a forged event button on another message is not)."""
        found = [_command_of(token) for token in self.tokens if token is not None]
        return bool(found) and all(
            c is not None and c.verb is Verb.EVENT and c.game_id == event_id for c in found
        )

    @property
    def is_question(self) -> bool:
        """Whether the pressed message asks to confirm a cancel (it has a Yes)."""
        return any(_verb_of(token) is Verb.CANCEL for token in self.tokens)


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


@dataclass(frozen=True, slots=True)
class Press:
    """A press being handled: the button, who pressed it where, his language, and the
    platform's answers about him (None: not asked; he is no admin, not checked for
    membership, written to without asking)."""

    ui: Interactions
    user: User
    command: Command
    where: Pressed
    locale: str
    is_admin: ChatCheck | None = None
    is_member: ChatCheck | None = None
    can_message: CanMessage | None = None

    @property
    def service(self) -> GameService:
        return self.ui.service

    @property
    def ref(self) -> UserRef:
        return self.user.ref

    def alert(self, code: str, *, link: str | None = None) -> Output:
        return Output(Target.ALERT, Screen(self.ui.error_text(code, self.locale)), link=link)

    def on_own_hand(self, game: Game) -> bool:
        """Whether the pressed message is the presser's own hand message of the game."""
        return self.where.owner == self.ref and self.where.is_hand_of(game.id)

    def hand_output(self, game: Game, seat: int, screen: Screen) -> Output:
        """The presser's hand: in the pressed message when that is his own hand
        message of this game, else shown to him privately (the pressed message stays
        as it is)."""
        target = Target.PRESSED if self.on_own_hand(game) else Target.HAND
        return Output(target, screen, seat, self.ref)

    def closing(self, game: Game) -> PressReply:
        """A press that answered a question: the question goes away."""
        return PressReply((Output(Target.CLOSE),) if self.where.is_question else (), game)

    async def admin(self, game: Game) -> bool:
        """Whether the presser is an admin of the game's chat (never of the pressed one)."""
        return self.is_admin is not None and await self.is_admin(game.chat)


Handler = Callable[[Press], Awaitable[PressReply]]


# --- The lobby ---------------------------------------------------------------------


async def join(press: Press) -> PressReply:
    command, service = press.command, press.service
    team = _team(command)
    game = await service.game(command.game_id)
    if press.is_member is not None and not await press.is_member(game.chat):
        raise ServiceError(ErrorCode.NOT_MEMBER, game.id)
    if press.can_message is not None and not await press.can_message():
        # A hand goes to a private chat the bot cannot write to: the way there.
        link = await press.ui.join_link(game, team.name)
        return PressReply((press.alert(ErrorCode.CANNOT_MESSAGE, link=link),), game)
    game = await service.join(game.id, command.version, press.user, team)
    return PressReply((Output(Target.SEATED, seat=game.seat_of(press.ref), user=press.ref),), game)


async def add_computer(press: Press) -> PressReply:
    command = press.command
    team = _team(command)
    game = await press.service.add_computer(command.game_id, command.version, press.ref, team)
    return PressReply(game=game)


async def leave(press: Press) -> PressReply:
    command = press.command
    return PressReply(game=await press.service.leave(command.game_id, command.version, press.ref))


async def remove_computer(press: Press) -> PressReply:
    command = press.command
    if not command.arg.isdigit():
        raise ServiceError(ErrorCode.MALFORMED, command.game_id)
    game = await press.service.remove_computer(
        command.game_id, command.version, press.ref, int(command.arg)
    )
    return PressReply(game=game)


async def setting(press: Press) -> PressReply:
    # The table's language and turn time become the chat's defaults only when an
    # admin of the chat sets them (asked only then).
    command = press.command
    game = await press.service.change_setting(
        command.game_id, command.version, press.ref, command.arg, chat_admin=press.is_admin
    )
    return PressReply(game=game)


async def start(press: Press) -> PressReply:
    command = press.command
    outcome = await press.service.start(command.game_id, command.version, press.ref)
    return PressReply(game=outcome.game)


# --- Ending a game, another one ------------------------------------------------------


async def cancel_ask(press: Press) -> PressReply:
    game = await press.service.game(press.command.game_id)
    if not game.status.is_open:
        raise ServiceError(ErrorCode.GAME_OVER, game.id)
    if press.ref != game.creator and not await press.admin(game):
        raise ServiceError(ErrorCode.NOT_ALLOWED, game.id)
    screen = presenters.cancel_confirm(game, press.ui.tr, game.settings.locale)
    return PressReply((Output(Target.ANSWER, screen, user=press.ref),), game)


async def cancel(press: Press) -> PressReply:
    # The confirmation carries the game's version like every button: one drawn before
    # the game moved on is stale (a repeated press finds it over).
    command, service = press.command, press.service
    game = await service.game(command.game_id)
    # The creator's stop of a started game counts against him unless he is an admin
    # of the chat (bot.reliability): asked then too.
    asked = press.ref != game.creator or game.status is GameStatus.PLAYING
    admin = asked and await press.admin(game)
    game = await service.cancel(command.game_id, command.version, press.ref, is_admin=admin)
    return press.closing(game)


async def rematch(press: Press) -> PressReply:
    """A rematch; under a challenge deal's result, "Next deal"."""
    game = await press.service.game(press.command.game_id)
    if game.settings.challenge is not None:
        return PressReply(game=await press.ui.challenge_next(game, press.user))
    outcome = await press.service.rematch(press.command.game_id, press.ref)
    return PressReply(game=outcome.game)


# --- The hand ------------------------------------------------------------------------
# Selecting cards changes nothing in the game; playing does.


async def refresh(press: Press) -> PressReply:
    """ "Clear" on a hand, or "No" on a question: nothing changes. Only a seated player
    of a running game gets his hand back (unless he answered a question)."""
    game = await press.service.game(press.command.game_id)
    if game.seat_of(press.ref) is None or game.status is not GameStatus.PLAYING:
        return press.closing(game)
    shown = await show_hand(press)
    return press.closing(game) if press.where.is_question else shown


async def show_hand(press: Press) -> PressReply:
    """A card selected or unselected, "clear", "My hand": the hand as it is now."""
    command, service = press.command, press.service
    game, seat = await _seated(press)
    player = game.seats[seat]
    if player is not None and player.away:
        await service.come_back(game.id, press.ref)
    select = command.verb is Verb.SELECT
    if select and press.ui.current_version(game, seat, command.version) != game.version:
        raise ServiceError(ErrorCode.STALE, game.id)
    selection = presenters.parse_selection(command.arg) if select else 0
    screen = press.ui.hand_view(game, seat, selection, press.locale)
    return PressReply((press.hand_output(game, seat, screen),), game)


async def play(press: Press) -> PressReply:
    command = press.command
    game, seat = await _seated(press)
    try:
        action = presenters.presenter_of(game).parse_action_arg(seat, command.arg)
    except CodecError:
        raise ServiceError(ErrorCode.MALFORMED, game.id) from None
    version = press.ui.current_version(game, seat, command.version)
    outcome = await press.service.play(game.id, version, press.ref, action)
    own = press.on_own_hand(game)
    follow = (Output(Target.FOLLOW, seat=seat, user=press.ref),) if own else ()
    return PressReply(follow, outcome.game)


async def _seated(press: Press) -> tuple[Game, int]:
    """The running game and the presser's seat in it; refused otherwise."""
    game = await press.service.game(press.command.game_id)
    seat = game.seat_of(press.ref)
    if seat is None:
        raise ServiceError(ErrorCode.NOT_SEATED, game.id)
    if game.status is not GameStatus.PLAYING:
        raise ServiceError(
            ErrorCode.GAME_NOT_STARTED if game.status is GameStatus.LOBBY else ErrorCode.GAME_OVER,
            game.id,
        )
    return game, seat


async def event(press: Press) -> PressReply:
    """A Swiss evening's registration button (:mod:`bot.event_ui`): its "game" is the
    event, checked there against the pressed chat."""
    return await press.ui.event_ui.press(
        press.user, press.command, press.where, press.locale, press.is_admin, press.can_message
    )


#: What each button does.
PRESSES: dict[Verb, Handler] = {
    Verb.JOIN: join,
    Verb.LEAVE: leave,
    Verb.ADD_COMPUTER: add_computer,
    Verb.REMOVE_COMPUTER: remove_computer,
    Verb.SETTING: setting,
    Verb.START: start,
    Verb.CANCEL_ASK: cancel_ask,
    Verb.CANCEL: cancel,
    Verb.REMATCH: rematch,
    Verb.REFRESH: refresh,
    Verb.SELECT: show_hand,
    Verb.SHOW_HAND: show_hand,
    Verb.PLAY: play,
    Verb.EVENT: event,
}


async def refused(press: Press, error: ServiceError) -> PressReply:
    """A refused press: its alert, and for a hand's button the presser's hand as it is
    now (a stale press on a running game; on a game over since, it shows how the game
    ended)."""
    game = None
    if error.game_id is not None:
        try:
            game = await press.service.game(error.game_id)
        except ServiceError:
            game = None
    alert = press.alert(error.code)
    seat = None if game is None else game.seat_of(press.ref)
    if game is None or seat is None or press.command.verb not in HAND_BUTTONS:
        return PressReply((alert,), game)
    hand = None
    if error.code == ErrorCode.STALE and game.status is GameStatus.PLAYING:
        hand = press.ui.hand_view(game, seat, 0, press.locale)
    elif error.code == ErrorCode.GAME_OVER and game.status is not GameStatus.LOBBY:
        hand = await press.ui.hand_screen(game, seat)
    if hand is None:
        return PressReply((alert,), game)
    return PressReply((alert, press.hand_output(game, seat, hand)), game)


def _team(command: Command) -> Team:
    if command.arg in ("A", "B"):
        return Team[command.arg]
    raise ServiceError(ErrorCode.MALFORMED, command.game_id)


def _command_of(token: str | None) -> Command | None:
    try:
        return decode(token or "")
    except CodecError:
        return None


def _game_of(token: str | None) -> int | None:
    command = _command_of(token)
    return None if command is None else command.game_id


def _verb_of(token: str | None) -> Verb | None:
    command = _command_of(token)
    return None if command is None else command.verb
