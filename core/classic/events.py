"""Events of classic Kozel: what happened, in the past tense, for the adapters.

Events are public: they never carry a hidden card. Cards dealt face down appear as
counts; the pants declarer's laid card is ``None`` until the laid trick shows it;
an accepted exchange names its two seats, never its cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from core.cards import Card, Suit
from core.classic.options import Praise
from core.seats import Team


class DealEnd(StrEnum):
    """How a dealing ended (§2.12)."""

    PLAYED = "played"  # its last trick
    KOCHERGA = "kocherga"  # 7♣ caught an opponent's Q♣
    REDEAL = "redeal"  # a redeal request; the same dealer deals again
    REDEAL_PENALTY = "redeal_penalty"  # the third request: the dealer's team loses


class ClassicTitle(StrEnum):
    """What the losers of a classic game are called (§2.13)."""

    GOATS = "goats"
    GOATS_WITH_EGGS = "goats_with_eggs"
    GOATS_WITH_TAILS = "goats_with_tails"
    GOATS_WITH_EGGS_AND_TAILS = "goats_with_eggs_and_tails"


@dataclass(frozen=True, slots=True)
class ClassicDealResult:
    """The end of one dealing and what it gave. ``pairs``: what each team got from it
    (egg pairs and the redeal penalty included); ``lucy``: the losers' pairs dropped to
    0; ``egg_pairs``: the egg pairs put aside after it."""

    end: DealEnd
    points: tuple[int, int]
    tricks: tuple[int, int]
    winner: Team | None
    pairs: tuple[int, int]
    eggs: bool
    lucy: bool
    kocherga: bool
    next_dealer: int
    egg_pairs: int

    @property
    def redeal(self) -> bool:
        return self.end in (DealEnd.REDEAL, DealEnd.REDEAL_PENALTY)


@dataclass(frozen=True, slots=True)
class ClassicGameResult:
    """The end of a game: the team with 6 or more pairs won; the others are goats."""

    winner: Team
    loser: Team
    title: ClassicTitle
    pairs: tuple[int, int]
    deals: int
    eggs: int


@dataclass(frozen=True, slots=True)
class DealingStarted:
    number: int  # the deal (кон) of the game, from 0
    attempt: int  # 0, then 1 and 2 after redeals
    dealer: int
    chooser: int | None  # the seat to say "deal" or praise, if there is a decision


@dataclass(frozen=True, slots=True)
class DealChosen:
    seat: int


@dataclass(frozen=True, slots=True)
class Praised:
    seat: int
    kind: Praise


@dataclass(frozen=True, slots=True)
class DeckCut:
    seat: int
    at: int


@dataclass(frozen=True, slots=True)
class CardLaid:
    """A pants or mirror player laid a card; ``card`` is None while it is face down."""

    seat: int
    card: Card | None


@dataclass(frozen=True, slots=True)
class CardsDealt:
    """The dealing's cards are all dealt. ``shown``: the simple declarer's face-up
    cards; ``leader``: the first leader, once known (not before the laid trick)."""

    hand_sizes: tuple[int, ...]
    shown: tuple[Card, ...]
    trump: Suit | None
    trump_set: bool
    fixed_suits: tuple[Suit, ...] | None
    leader: int | None


@dataclass(frozen=True, slots=True)
class TrumpNamed:
    seat: int
    suit: Suit | None


@dataclass(frozen=True, slots=True)
class LaidTrickTaken:
    """The four laid cards, now all face up, taken as the deal's first trick."""

    cards: tuple[Card, ...]  # in the order laid, the declarer's first
    seat: int
    team: Team


@dataclass(frozen=True, slots=True)
class TrumpOffered:
    seat: int


@dataclass(frozen=True, slots=True)
class TrumpAccepted:
    """Two partners exchanged a card each; nobody else learns which."""

    seat: int
    offerer: int


@dataclass(frozen=True, slots=True)
class TrumpDeclined:
    seat: int
    offerer: int


@dataclass(frozen=True, slots=True)
class RedealAsked:
    """A player showed his hand and asked for a redeal; ``penalty``: it was the third."""

    seat: int
    hand: tuple[Card, ...]
    penalty: bool


@dataclass(frozen=True, slots=True)
class CardPlayed:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class TrickTaken:
    seat: int
    team: Team
    number: int
    points: int


@dataclass(frozen=True, slots=True)
class KochergaCaught:
    seat: int
    team: Team


@dataclass(frozen=True, slots=True)
class DealScored:
    number: int
    attempt: int
    result: ClassicDealResult


@dataclass(frozen=True, slots=True)
class GameFinished:
    result: ClassicGameResult


ClassicEvent = (
    DealingStarted
    | DealChosen
    | Praised
    | DeckCut
    | CardLaid
    | CardsDealt
    | TrumpNamed
    | LaidTrickTaken
    | TrumpOffered
    | TrumpAccepted
    | TrumpDeclined
    | RedealAsked
    | CardPlayed
    | TrickTaken
    | KochergaCaught
    | DealScored
    | GameFinished
)
