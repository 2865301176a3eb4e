"""Computer players of yard Kozel and the driver that plays deals with them.

A player sees only its seat's :class:`~core.yard.views.SeatView` and answers with one of
its legal actions (or None to do nothing now):

>>> import random
>>> from core.yard.deal import Deal
>>> deal = Deal.shuffled(3, random.Random(4))
>>> player = make_player("strong")
>>> player.choose(deal.view(0), random.Random(0)) in deal.legal_actions(0)
True
>>> safe_move(deal.view(0)) in deal.legal_actions(0)
True
"""

from __future__ import annotations

import random

from core.errors import KozelError, Reason
from core.ruleset import DEFAULT_LEVEL, LEVEL_NAMES
from core.yard.actions import Action, ActionKind
from core.yard.ai.baseline import DEFAULT_WEIGHTS, BaselinePlayer, EasyPlayer, Weights
from core.yard.ai.counter import CardCounter
from core.yard.ai.play import play_deal, play_series, public_events
from core.yard.ai.players import Observer, Player, RandomPlayer
from core.yard.ai.search import STRONG, SearchPlayer, SearchSettings
from core.yard.views import SeatView

__all__ = [
    "DEFAULT_WEIGHTS",
    "LEVELS",
    "BaselinePlayer",
    "CardCounter",
    "EasyPlayer",
    "Observer",
    "Player",
    "RandomPlayer",
    "SearchPlayer",
    "SearchSettings",
    "Weights",
    "canonical_level",
    "make_player",
    "play_deal",
    "play_series",
    "public_events",
    "safe_move",
]

#: Older names, still read from saved games: the baseline is ``normal``.
_ALIASES = {"baseline": "normal"}
#: Every name :func:`make_player` knows (``random`` is for benchmarks and tests).
LEVELS: tuple[str, ...] = (*LEVEL_NAMES, "baseline", "random")


def canonical_level(level: str) -> str:
    """The level's name as the lobby shows it (``baseline`` is ``normal``).

    >>> canonical_level("baseline"), canonical_level("strong")
    ('normal', 'strong')
    """
    level = _ALIASES.get(level, level)
    if level not in LEVELS:
        raise ValueError(f"unknown player level {level!r}; known: {', '.join(LEVELS)}")
    return level


def make_player(level: str = DEFAULT_LEVEL) -> Player:
    """A new player of the given level: ``easy`` (the baseline, forgetful and often
    careless), ``normal`` (the baseline), ``strong`` (the search player, the
    default), or ``random``.

    Players remember the deal, so use one player per seat and per series, and feed
    it the events (:func:`play_deal` does).
    """
    level = canonical_level(level)
    if level == "random":
        return RandomPlayer()
    if level == "easy":
        return EasyPlayer()
    if level == "normal":
        return BaselinePlayer(CardCounter())
    return SearchPlayer(STRONG)


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
