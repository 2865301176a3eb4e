"""What the bot shows, as every platform receives it: :class:`Output` lists.

A game change (:meth:`Interactions.outputs`) and a button press
(:meth:`Interactions.press`) both come out of ``bot/`` as outputs: where each goes
(:class:`Target`), the screen, the seat and user it is for. An adapter renders and
sends them in its platform's idiom; it never decides by the button pressed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from bot.models import Game, UserRef
from bot.ports import Owed
from bot.presenters import Screen


class Target(StrEnum):
    # What a game change shows:
    TABLE = "table"  # the game's one public message, edited in place (lobby, then table)
    HAND = "hand"  # a seat's private hand (for a press: elsewhere than the pressed message)
    CHAT = "chat"  # a new message in the game's chat
    PRIVATE = "private"  # a new private message to a seat's player
    # What a press shows besides the change it made, to the presser:
    ALERT = "alert"  # a short note answering the press (``link``: a way to a private chat)
    ANSWER = "answer"  # a new message answering the press where it was pressed (a question)
    PRESSED = "pressed"  # the pressed message, his own hand, shows the screen now
    FOLLOW = "follow"  # the pressed message, his own hand, follows his hand as the game goes on
    CLOSE = "close"  # the pressed message (an answered question) goes away
    SEATED = "seated"  # he sat down: a platform that sends hands privately checks it can
    EDIT = "edit"  # the pressed public message (an event's registration) shows the screen now


#: The screen of an output that shows none of its own (FOLLOW, CLOSE, SEATED).
NO_SCREEN = Screen("")


@dataclass(frozen=True, slots=True)
class Output:
    """One thing to show. ``owed``: the saved message this output is; once it is sent
    the publisher confirms it (:meth:`GameService.message_sent`). ``link``: an ALERT's
    payload of a link that opens the presser's private chat with the bot and seats
    him (:meth:`Interactions.join_link`), to answer with where the platform can.
    ``image``: a PNG to send with the screen's text as its caption (a CHAT output:
    the game's result as a picture, :mod:`bot.pictures`)."""

    target: Target
    screen: Screen = NO_SCREEN
    seat: int | None = None
    user: UserRef | None = None
    owed: Owed | None = None
    link: str | None = None
    image: bytes | None = field(default=None, repr=False)


@dataclass(frozen=True, slots=True)
class PressReply:
    """What a press shows, in order (an ALERT first), and the game it was about (None
    when the press belongs to no game it may see). The change the press made, if any,
    is published like every change; these are the outputs for the presser. No
    outputs: nothing to show (a flooding presser, a press the table answers). A
    screen drawn for the presser shows the game at ``version``: shown later than a
    change of the game published since, it must not stay over it."""

    outputs: tuple[Output, ...] = ()
    game: Game | None = None
    #: The game's version when the reply was made: what its screens show (the game
    #: may move on before they are shown). Taken from ``game`` unless given.
    version: int | None = None

    def __post_init__(self) -> None:
        if self.version is None and self.game is not None:
            object.__setattr__(self, "version", self.game.version)

    def first(self, *targets: Target) -> Output | None:
        """The first output of one of ``targets``, if any."""
        return next((out for out in self.outputs if out.target in targets), None)

    @property
    def alert(self) -> str | None:
        found = self.first(Target.ALERT)
        return None if found is None else found.screen.text

    @property
    def hand(self) -> Screen | None:
        """The presser's hand shown, in the pressed message or elsewhere."""
        found = self.first(Target.PRESSED, Target.HAND)
        return None if found is None else found.screen

    @property
    def screen(self) -> Screen | None:
        """The message answering the press (a question), if any."""
        found = self.first(Target.ANSWER)
        return None if found is None else found.screen
