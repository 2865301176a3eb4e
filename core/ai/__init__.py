"""Computer players of yard Kozel and the driver that plays deals with them.

A player sees only its seat's :class:`~core.yard.views.SeatView` and answers with one of
its legal actions (or None to do nothing now):

>>> import random
>>> from core.yard.deal import Deal
>>> deal = Deal.shuffled(3, random.Random(4))
>>> player = make_player("baseline")
>>> player.choose(deal.view(0), random.Random(0)) in deal.legal_actions(0)
True
>>> safe_move(deal.view(0)) in deal.legal_actions(0)
True
"""

from __future__ import annotations

import random

from core.ai.baseline import DEFAULT_WEIGHTS, BaselinePlayer, Weights
from core.ai.counter import CardCounter
from core.ai.play import play_deal, play_series
from core.ai.players import Observer, Player, RandomPlayer
from core.errors import KozelError, Reason
from core.yard.actions import Action, ActionKind
from core.yard.views import SeatView

__all__ = [
    "DEFAULT_WEIGHTS",
    "LEVELS",
    "BaselinePlayer",
    "CardCounter",
    "Observer",
    "Player",
    "RandomPlayer",
    "Weights",
    "make_player",
    "play_deal",
    "play_series",
    "safe_move",
]

#: The levels :func:`make_player` knows.
LEVELS: tuple[str, ...] = ("random", "baseline")


def make_player(level: str = "baseline") -> Player:
    """A new player of the given level: ``"random"`` or ``"baseline"`` (the default).

    The baseline gets its own :class:`CardCounter`, so use one player per seat and
    per series, and feed it the events (:func:`play_deal` does).
    """
    if level == "random":
        return RandomPlayer()
    if level == "baseline":
        return BaselinePlayer(CardCounter())
    raise ValueError(f"unknown player level {level!r}; known: {', '.join(LEVELS)}")


def safe_move(view: SeatView) -> Action:
    """A safe legal move for an absent human whose turn it is: the baseline's choice,
    never a molodka. Raises :class:`KozelError` when it is not the seat's turn."""
    if view.table.turn != view.seat:
        raise KozelError(Reason.NOT_YOUR_TURN)
    legal = tuple(a for a in view.legal if a.kind is not ActionKind.MOLODKA)
    if not legal:
        raise KozelError(Reason.NOT_YOUR_TURN)
    plain_view = SeatView(view.seat, view.table, view.hand, legal, molodka=False)
    action = BaselinePlayer().choose(plain_view, random.Random(0))
    assert action is not None
    return action
