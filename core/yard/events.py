"""Events: what happened, in the past tense, for the adapters to render.

Events are public: they never carry a hidden card. Face-down discards appear as a
count, and drawn cards as counts per seat; a player learns his own cards from his
own view only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from core.cards import Card
from core.seats import Team


class Title(StrEnum):
    """What the losers of a series are called."""

    GOATS = "goats"
    GOATS_WITH_EGGS = "goats_with_eggs"


@dataclass(frozen=True, slots=True)
class DealResult:
    """The end of a deal: points and tricks per team, loss points, eggs.

    ``molodka_tricks``: each trick a molodka took (its declarer won it) as the
    declarer's seat and the card points of the whole trick, discards included. It is
    told only now that the deal is over (a trick's worth during the deal would tell
    something of its face-down discards), it is not part of the score (results
    compare equal without it), and a random playout (:meth:`Deal.playout`) does not
    keep it.
    """

    points: tuple[int, int]
    tricks: tuple[int, int]
    loss_points: tuple[int, int]
    eggs: bool
    winner: Team | None
    next_leader: int
    molodka_tricks: tuple[tuple[int, int], ...] = field(default=(), compare=False)


@dataclass(frozen=True, slots=True)
class SeriesResult:
    """The end of a series: who lost it and what they are called."""

    loser: Team
    title: Title
    loss_points: tuple[int, int]
    deals: int
    eggs: int


@dataclass(frozen=True, slots=True)
class DealStarted:
    number: int
    dealer: int
    leader: int
    trump_card: Card
    stock_size: int


@dataclass(frozen=True, slots=True)
class TrickStarted:
    leader: int
    number: int


@dataclass(frozen=True, slots=True)
class CardsLed:
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class CardsBeaten:
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class CardsDiscarded:
    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class MolodkaDeclared:
    """A molodka restarted the trick: every card played to it went back."""

    seat: int
    cards: tuple[Card, ...]
    returned: tuple[int, ...]  # cards given back to each seat 0..3


@dataclass(frozen=True, slots=True)
class TrickTaken:
    seat: int
    team: Team
    card_count: int


@dataclass(frozen=True, slots=True)
class CardsDrawn:
    counts: tuple[int, ...]  # cards drawn by each seat 0..3
    stock_size: int
    trump_card_to: int | None  # the seat that drew the known trump card, if it was drawn now


@dataclass(frozen=True, slots=True)
class DealScored:
    number: int
    result: DealResult


@dataclass(frozen=True, slots=True)
class SeriesFinished:
    result: SeriesResult


Event = (
    DealStarted
    | TrickStarted
    | CardsLed
    | CardsBeaten
    | CardsDiscarded
    | MolodkaDeclared
    | TrickTaken
    | CardsDrawn
    | DealScored
    | SeriesFinished
)
