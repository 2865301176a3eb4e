"""Views of classic Kozel: what one seat, or a spectator, may see of a dealing.

Public: what the rules make so (the simple declarer's face-up cards while he holds
them, laid cards face up, the cards of the tricks, a redeal asker's shown hand).
Hidden cards leave the core only through their owner's :class:`ClassicSeatView`: the
pants declarer's laid card stays hidden until the naming, and an accepted exchange
is known in its cards to the two partners only (the table learns that it happened).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from core.cards import Card, Suit
from core.classic.actions import ClassicAction
from core.classic.events import ClassicDealResult, ClassicGameResult
from core.classic.options import ClassicOptions, Praise

if TYPE_CHECKING:
    from core.classic.dealing import Phase


@dataclass(frozen=True, slots=True)
class PlayedCard:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class LaidCard:
    """A card laid for the laid trick; ``card`` is None while it lies face down."""

    seat: int
    card: Card | None


@dataclass(frozen=True, slots=True)
class Exchange:
    """An accepted last-trump exchange, as its two partners know it: ``given`` is
    what the viewing seat gave, ``got`` what it got."""

    offerer: int
    partner: int
    given: Card
    got: Card


@dataclass(frozen=True, slots=True)
class ClassicTableView:
    """The public table: what a spectator sees."""

    number: int
    attempt: int
    dealer: int
    phase: Phase
    turn: int | None
    praise: Praise | None
    declarer: int | None
    trump: Suit | None
    trump_set: bool
    fixed_suits: tuple[Suit, ...] | None
    shown: tuple[Card, ...]
    laid: tuple[LaidCard, ...]
    hand_sizes: tuple[int, ...]
    deck_left: int
    leader: int | None
    trick: tuple[PlayedCard, ...]
    winning_seat: int | None
    trick_number: int
    last_trick: tuple[PlayedCard, ...]
    tricks: tuple[int, int]
    points: tuple[int, int]
    taken: tuple[Card, ...]  # every card of the tricks taken so far (all face up)
    played: tuple[PlayedCard, ...]  # every card played to the tricks, in order
    led_suits: tuple[Suit, ...]
    offer_from: int | None
    exchanges: tuple[int, ...]  # the offerers of accepted exchanges
    redeal_by: int | None
    redeal_hand: tuple[Card, ...]
    result: ClassicDealResult | None


@dataclass(frozen=True, slots=True)
class ClassicSeatView:
    """What one seat sees: the table, its hand, its legal actions, the pants pair it
    lays from, its own laid card, and an exchange it took part in."""

    seat: int
    table: ClassicTableView
    hand: tuple[Card, ...]
    legal: tuple[ClassicAction, ...]
    pair: tuple[Card, ...]
    laid: Card | None
    exchange: Exchange | None


@dataclass(frozen=True, slots=True)
class ClassicGameView:
    """What everyone sees of a whole game: its options, the pairs, the egg pairs put
    aside, each dealing so far as its deal's number and its result (None while it is
    played; a deal's redeals are dealings of the same number), and the game's result
    once it is over.

    >>> view = ClassicGameView(ClassicOptions(), (0, 0), 0, ((0, None),), None)
    >>> view.deals, view.deal_result(0)
    (1, None)
    """

    options: ClassicOptions
    pairs: tuple[int, int]
    egg_pairs: int
    dealings: tuple[tuple[int, ClassicDealResult | None], ...]
    result: ClassicGameResult | None

    @property
    def deals(self) -> int:
        """How many deals have been dealt (0: the table waits for the first)."""
        return self.dealings[-1][0] + 1 if self.dealings else 0

    def deal_result(self, number: int) -> ClassicDealResult | None:
        """How the last dealing of deal ``number`` that ended, ended (a redeal, or
        the deal's end); None if none has."""
        ended = [result for deal, result in self.dealings if deal == number]
        return next((result for result in reversed(ended) if result is not None), None)
