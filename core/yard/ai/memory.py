"""What one seat remembers of a deal: everything its view showed it, and no more.

A :class:`DealMemory` is fed the public events of the deal (:mod:`core.events`) and
the seat's own actions. It keeps, for the search player's sampled worlds:

- the face-up cards of the finished tricks (they are out of play);
- the seat's own face-down discards (it knows what it threw away);
- for each team's pile, the known cards in it and how many unknown ones (the other
  seats' face-down discards on the tricks that team took);
- where the shown trump card may be once drawn: in its holder's hand, or among the
  face-down cards he discarded after drawing it;
- the finished tricks (:attr:`DealMemory.tricks`): who played what in each (face-down
  discards as counts), what was public then and how many cards each seat drew
  after it, so that a sampler can check the other seats' plays against a model of
  them (a seat's hand then is its hand now, plus what it played since, minus what
  it drew since).

A memory that did not see the deal from its start (a player created in the middle
of a deal) knows less; :attr:`complete` says so and the sampler falls back to what
the view alone tells.

>>> from core.cards import Card, cards_of
>>> from core.yard.events import CardsLed, CardsDiscarded, TrickTaken
>>> from core.seats import Team
>>> memory = DealMemory(seat=1)
>>> memory.observe(CardsLed(0, (Card.parse("AS"),)))
>>> memory.own(ActionKind.DISCARD, (Card.parse("6C"),))
>>> memory.observe(CardsDiscarded(1, 1))
>>> memory.observe(TrickTaken(0, Team.A, 4))
>>> [c.code for c in cards_of(memory.gone)], [c.code for c in cards_of(memory.own_gone)]
(['AS'], ['6C'])
"""

from __future__ import annotations

from typing import NamedTuple

from core.cards import DECK_SIZE, Card, mask_of
from core.yard.actions import ActionKind
from core.yard.deal import BEAT, DISCARD, HAND_SIZE, LEAD
from core.yard.events import (
    CardsBeaten,
    CardsDiscarded,
    CardsDrawn,
    CardsLed,
    DealStarted,
    Event,
    MolodkaDeclared,
    TrickStarted,
    TrickTaken,
)


class Trick(NamedTuple):
    """A finished trick as a seat saw it."""

    gone: int
    """The face-up cards of the tricks finished before it."""
    plays: tuple[tuple[int, int, int, int], ...]
    """``(seat, kind, mask, count)`` in order; a face-down discard's mask is 0."""
    molodka: bool
    """Whether it was a molodka (its lead was declared, not chosen)."""
    stock: int
    """The stock's size while it was played."""
    holder: int
    """The seat that had drawn the shown trump card by then, or -1."""
    draws: tuple[int, ...]
    """The cards each seat drew after it."""
    trump_to: int
    """The seat that drew the shown trump card after it, or -1."""


class DealMemory:
    """One seat's memory of the current deal (bitmasks of card indexes)."""

    __slots__ = (
        "_chosen",
        "_face_up",
        "_hidden",
        "_molodka",
        "_own",
        "_stock",
        "_trick",
        "_trump_table",
        "complete",
        "gone",
        "own_gone",
        "pile_hidden",
        "pile_known",
        "seat",
        "tricks",
        "trump_holder",
        "trump_piles",
    )

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.reset(complete=False)

    def reset(self, *, complete: bool) -> None:
        """Forget everything (a new deal)."""
        self.complete = complete
        """Whether the memory saw the deal from its first trick."""
        self.gone = 0
        """Face-up cards of finished tricks."""
        self.own_gone = 0
        """This seat's own face-down discards in finished tricks."""
        self.pile_known = [0, 0]
        """Per team: the known cards of its pile (face up, or this seat's discards)."""
        self.pile_hidden = [0, 0]
        """Per team: how many cards of its pile nobody but their owner saw."""
        self.trump_holder: int | None = None
        """The seat that drew the shown trump card, once drawn."""
        self.trump_piles: list[int] = []
        """One team per face-down card the trump holder discarded after drawing it
        (the trump card may be any of them), in finished tricks."""
        self.tricks: list[Trick] = []
        """The finished tricks, oldest first."""
        self._stock = DECK_SIZE - 4 * HAND_SIZE
        self._face_up = 0
        self._own = 0
        self._hidden = 0
        self._trump_table = 0
        self._chosen: tuple[ActionKind, int] | None = None
        self._trick: list[tuple[int, int, int, int]] = []
        self._molodka = False

    def own(self, kind: ActionKind, cards: tuple[Card, ...]) -> None:
        """The seat is about to play this action (its discards are known to it)."""
        self._chosen = (kind, mask_of(cards))

    @property
    def table_own(self) -> int:
        """This seat's face-down discard on the table of the current trick."""
        return self._own

    @property
    def table_trump_slots(self) -> int:
        """Face-down cards the trump holder discarded in the current trick after
        drawing the trump card (it may be among them)."""
        return self._trump_table

    def observe(self, event: Event) -> None:
        """Take in one public event."""
        if isinstance(event, CardsLed | CardsBeaten):
            mask = mask_of(event.cards)
            self._face_up |= mask
            kind = LEAD if isinstance(event, CardsLed) else BEAT
            self._trick.append((event.seat, kind, mask, len(event.cards)))
        elif isinstance(event, CardsDiscarded):
            self._trick.append((event.seat, DISCARD, 0, event.count))
            if event.seat == self.seat:
                chosen = self._chosen
                if chosen is not None and chosen[0] is ActionKind.DISCARD:
                    if chosen[1].bit_count() == event.count:
                        self._own |= chosen[1]
                    else:
                        self._hidden += event.count
                else:
                    self._hidden += event.count  # a move it did not choose: unknown
            else:
                self._hidden += event.count
                if event.seat == self.trump_holder:
                    self._trump_table += event.count
            self._chosen = None
        elif isinstance(event, TrickTaken):
            team = int(event.team)
            before = self.gone
            self.gone |= self._face_up
            self.own_gone |= self._own
            self.pile_known[team] |= self._face_up | self._own
            self.pile_hidden[team] += self._hidden
            self.trump_piles.extend([team] * self._trump_table)
            holder = -1 if self.trump_holder is None else self.trump_holder
            self.tricks.append(
                Trick(before, tuple(self._trick), self._molodka, self._stock, holder, (0,) * 4, -1)
            )
            self._face_up = self._own = self._hidden = self._trump_table = 0
            self._trick = []
            self._molodka = False
        elif isinstance(event, MolodkaDeclared):
            # Every card played to the trick went back to its owner's hand.
            self._face_up = mask_of(event.cards)
            self._own = self._hidden = self._trump_table = 0
            self._chosen = None
            self._trick = [(event.seat, LEAD, self._face_up, len(event.cards))]
            self._molodka = True
        elif isinstance(event, CardsDrawn):
            if self.tricks:
                to = -1 if event.trump_card_to is None else event.trump_card_to
                self.tricks[-1] = self.tricks[-1]._replace(draws=tuple(event.counts), trump_to=to)
            self._stock = event.stock_size
            if event.trump_card_to is not None:
                self.trump_holder = event.trump_card_to
        elif isinstance(event, DealStarted) or (
            isinstance(event, TrickStarted) and event.number == 0
        ):
            self.reset(complete=True)
            if isinstance(event, DealStarted):
                self._stock = event.stock_size
