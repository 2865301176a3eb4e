"""A memory of the cards a seat has seen played face up during a deal.

The counter is fed only public events (:mod:`core.yard.events`), so it never learns a
hidden card. It remembers the face-up cards of finished tricks; the current trick
is on the table of every :class:`~core.yard.views.SeatView` anyway. Cards that a molodka
sends back to their owners' hands are forgotten again: they are back in play.

>>> from core.cards import Card
>>> from core.yard.events import CardsLed, TrickTaken, Team
>>> counter = CardCounter()
>>> counter.observe(CardsLed(0, (Card.parse("AS"), Card.parse("TS"))))
>>> counter.gone
0
>>> counter.observe(TrickTaken(0, Team.A, 8))
>>> [card.code for card in counter.gone_cards()]
['TS', 'AS']
"""

from __future__ import annotations

from core.cards import Card, cards_of, mask_of
from core.yard.events import (
    CardsBeaten,
    CardsLed,
    DealStarted,
    Event,
    MolodkaDeclared,
    TrickStarted,
    TrickTaken,
)


class CardCounter:
    """Face-up cards of the finished tricks of the current deal (a bitmask)."""

    __slots__ = ("_pending", "gone")

    def __init__(self) -> None:
        self.gone = 0
        """Cards known to be out of play: shown face up in a finished trick."""
        self._pending = 0

    def reset(self) -> None:
        """Forget everything (a new deal)."""
        self.gone = 0
        self._pending = 0

    def observe(self, event: Event) -> None:
        """Take in one public event."""
        if isinstance(event, CardsLed | CardsBeaten):
            self._pending |= mask_of(event.cards)
        elif isinstance(event, TrickTaken):
            self.gone |= self._pending
            self._pending = 0
        elif isinstance(event, MolodkaDeclared):
            self._pending = mask_of(event.cards)
        elif isinstance(event, DealStarted) or (
            isinstance(event, TrickStarted) and event.number == 0
        ):
            self.reset()  # a new deal

    def gone_cards(self) -> tuple[Card, ...]:
        """The cards of :attr:`gone`, ordered by suit then strength."""
        return cards_of(self.gone)
