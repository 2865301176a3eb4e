"""The computer player interface and the random player.

A player sees one seat's :class:`~core.yard.views.SeatView` and nothing else: its own
hand, the table (face-down discards as counts), the trump card, the stock size,
whose turn it is and its own legal actions. It answers with one of
``view.legal``, or None to do nothing now.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from core.yard.actions import Action
from core.yard.events import Event
from core.yard.views import SeatView


@runtime_checkable
class Player(Protocol):
    """A computer player for one seat."""

    def choose(self, view: SeatView, rng: random.Random) -> Action | None:
        """One of ``view.legal``, or None to do nothing now.

        A seat that is to play must answer with an action. A seat that is not to
        play answers None, or a molodka when ``view.molodka`` allows it.
        """
        ...


@runtime_checkable
class Observer(Protocol):
    """A player that remembers what it has seen: it is fed every public event."""

    def observe(self, event: Event) -> None:
        """Take in one public event of the deal."""
        ...


class RandomPlayer:
    """Uniform among the seat's legal actions on its turn (molodka included);
    None when it is not its turn.

    >>> from core.yard.deal import Deal
    >>> deal = Deal.shuffled(3, random.Random(1))
    >>> RandomPlayer().choose(deal.view(1), random.Random(2)) is None
    True
    >>> RandomPlayer().choose(deal.view(0), random.Random(2)) in deal.legal_actions(0)
    True
    """

    __slots__ = ()

    #: It answers at once: the application asks it on its event loop
    #: (core.ruleset.Computer).
    searches = False

    def choose(self, view: SeatView, rng: random.Random) -> Action | None:
        if view.table.turn != view.seat or not view.legal:
            return None
        return view.legal[int(rng.random() * len(view.legal))]

    def __repr__(self) -> str:
        return "RandomPlayer()"
