"""The PLAY argument of every classic action (RULES §3.5's types), for :mod:`bot.codec`.

A classic button carries ``k:p:<game>:<version>:<arg>``; the seat is the presser's.
The argument is a letter for the action's type and its field, at most 3 characters
of ``[0-9A-Za-z]``, so a token stays far below 64 bytes whatever the game's id:

==========  ===================  ==========================================
type        argument             field
==========  ===================  ==========================================
play        ``p`` + card         ``pQC``
lay         ``y`` + card         ``y9D``
accept      ``a`` + card         ``a8D`` (the card given back)
cut         ``c`` + at           ``c5`` (decimal, 1..31, no leading zero)
name_trump  ``n`` + suit or 0    ``nD``; ``n0``: no trump suit
praise      ``h`` + kind or —    ``hs``, ``hp``, ``hm``; ``h``: the table's kind
deal        ``s``
offer       ``o``
decline     ``x``
redeal      ``r``
==========  ===================  ==========================================

The letters differ from the yard game's (``l b d m``), so a yard argument is never
a classic action. Only the canonical form of an action is accepted: whatever
:func:`classic_arg` would not write raises :class:`~bot.codec.CodecError`.

>>> from core.cards import Card
>>> arg = classic_arg(ClassicAction.accept_trump(2, Card.parse("TD")))
>>> arg, parse_classic_arg(2, arg) == ClassicAction.accept_trump(2, Card.parse("TD"))
('aTD', True)
>>> classic_arg(ClassicAction.name_trump(1, None)), classic_arg(ClassicAction.cut(0, 12))
('n0', 'c12')
"""

from __future__ import annotations

from bot.codec import CodecError
from core.cards import Card, Suit
from core.classic.actions import ClassicAction, ClassicActionKind
from core.classic.cards import CARDS, DECK_SIZE
from core.classic.options import PRAISE_KINDS, Praise

_LETTERS = {
    ClassicActionKind.PLAY: "p",
    ClassicActionKind.LAY: "y",
    ClassicActionKind.ACCEPT_TRUMP: "a",
    ClassicActionKind.CUT: "c",
    ClassicActionKind.NAME_TRUMP: "n",
    ClassicActionKind.PRAISE: "h",
    ClassicActionKind.DEAL: "s",
    ClassicActionKind.OFFER_TRUMP: "o",
    ClassicActionKind.DECLINE_TRUMP: "x",
    ClassicActionKind.REDEAL: "r",
}
_KINDS = {letter: kind for kind, letter in _LETTERS.items()}
_CARDS = {card.code: card for card in CARDS}
_SUITS = {suit.letter: suit for suit in Suit}
_PRAISES = {kind.value[0]: kind for kind in PRAISE_KINDS}
#: The longest argument: a card kind's letter and a card code.
MAX_CLASSIC_ARG = 3


def classic_arg(action: ClassicAction) -> str:
    """The PLAY argument of a classic action (the seat is implied by who presses);
    raises :class:`CodecError` for an action no rule allows in any form (a cut
    outside 1..31, a praise of the kind ``choose``)."""
    letter = _LETTERS[action.kind]
    if action.kind in (
        ClassicActionKind.PLAY,
        ClassicActionKind.LAY,
        ClassicActionKind.ACCEPT_TRUMP,
    ):
        if action.card is None or action.card.code not in _CARDS:
            raise CodecError(f"{action.kind.value} needs a card of the 32-card deck")
        return letter + action.card.code
    if action.kind is ClassicActionKind.CUT:
        if action.at is None or not 1 <= action.at < DECK_SIZE:
            raise CodecError("a cut is 1 to 31 cards")
        return f"{letter}{action.at}"
    if action.kind is ClassicActionKind.NAME_TRUMP:
        return letter + ("0" if action.suit is None else action.suit.letter)
    if action.kind is ClassicActionKind.PRAISE:
        if action.praise is Praise.CHOOSE:
            raise CodecError("a praise names simple, pants or mirror")
        return letter + ("" if action.praise is None else action.praise.value[0])
    return letter


def parse_classic_arg(seat: int, arg: str) -> ClassicAction:
    """The classic action a PLAY argument names for ``seat``; raises
    :class:`CodecError` for anything :func:`classic_arg` does not write."""
    if not isinstance(arg, str) or not 1 <= len(arg) <= MAX_CLASSIC_ARG:
        raise CodecError("not a classic action")
    kind = _KINDS.get(arg[0])
    rest = arg[1:]
    action: ClassicAction | None = None
    if kind in (ClassicActionKind.PLAY, ClassicActionKind.LAY, ClassicActionKind.ACCEPT_TRUMP):
        card: Card | None = _CARDS.get(rest)
        if card is not None:
            action = ClassicAction(seat, kind, card=card)
    elif kind is ClassicActionKind.CUT:
        if rest.isdigit() and rest[0] != "0" and int(rest) < DECK_SIZE:
            action = ClassicAction.cut(seat, int(rest))
    elif kind is ClassicActionKind.NAME_TRUMP:
        if rest == "0":
            action = ClassicAction.name_trump(seat, None)
        elif rest in _SUITS:
            action = ClassicAction.name_trump(seat, _SUITS[rest])
    elif kind is ClassicActionKind.PRAISE:
        if not rest:
            action = ClassicAction.praise_with(seat)
        elif rest in _PRAISES:
            action = ClassicAction.praise_with(seat, _PRAISES[rest])
    elif kind is not None and not rest:
        action = ClassicAction(seat, kind)
    if action is None:
        raise CodecError(f"not a classic action: {arg!r}")
    return action
