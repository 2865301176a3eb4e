"""One dealing (раздача) of classic Kozel as a state machine (docs/rules/reference.md §2.3–2.12).

A deal (кон) takes one dealing, or up to three when players ask for redeals. A
:class:`Dealing` runs every step that involves no choice by itself (the one-at-a-time
deal, the simple praise, the forced pants lays, the mirror draws after a cut, the
rest of the deck, the roulette, the laid trick) and stops where a player must
choose: the praise decision, a pants lay, a mirror cut, the naming, an offer's
answer, a play. Before the first card of a deal without a declarer, any seat may
also offer its last trump or ask for a redeal.

The public API speaks :class:`~core.cards.Card` and
:class:`~core.classic.actions.ClassicAction`; inside, cards are ints and sets are
32-bit masks (see :mod:`core.classic.cards`). Every action has three faces:
:meth:`Dealing.verify` raises a :class:`KozelError` with a reason, :meth:`Dealing.can`
answers, :meth:`Dealing.apply` applies and returns the events. An illegal action
changes nothing.

>>> from core.classic.cards import CARDS
>>> dealing = Dealing.from_deck(ClassicOptions(), dealer=3, deck=CARDS)
>>> dealing.phase, dealing.turn, dealing.trump, dealing.leader
(<Phase.PLAY: 'play'>, 3, <Suit.CLUBS: 0>, 3)
>>> [card.code for card in dealing.hand(0)]
['7C', 'QC', '7S', 'QS', '7H', 'QH', '7D', 'QD']
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from enum import StrEnum

from core.cards import Card, Suit
from core.classic.actions import KIND_BY_CODE, ClassicAction, ClassicActionKind, Kind
from core.classic.cards import (
    ACE,
    ACES,
    CARDS,
    DECK_SIZE,
    FULL_MASK,
    HAND_SIZE,
    JACK_OF_CLUBS,
    KOCHERGA,
    NINES,
    QUEEN,
    QUEEN_OF_CLUBS,
    QUEENS,
    SUIT_MASKS,
    SUIT_SIZE,
    Trumps,
    cards_of,
    index_of,
    points_in,
    table_for,
    trick_winner,
)
from core.classic.errors import ClassicReason
from core.classic.events import (
    CardLaid,
    CardPlayed,
    CardsDealt,
    ClassicDealResult,
    ClassicEvent,
    DealChosen,
    DealEnd,
    DeckCut,
    KochergaCaught,
    LaidTrickTaken,
    Praised,
    RedealAsked,
    TrickTaken,
    TrumpAccepted,
    TrumpDeclined,
    TrumpNamed,
    TrumpOffered,
)
from core.classic.options import (
    PRAISE_KINDS,
    ClassicOptions,
    DealBy,
    Dealers,
    Eggs,
    FirstLeader,
    Follow,
    Praise,
    TrumpLead,
)
from core.classic.scoring import score_dealing
from core.classic.views import (
    ClassicSeatView,
    ClassicTableView,
    Exchange,
    LaidCard,
    PlayedCard,
)
from core.errors import KozelError, Reason, ReasonCode
from core.seats import Team


class Phase(StrEnum):
    """Where a dealing stands: whose choice it waits for."""

    PRAISE = "praise"  # the player after the dealer says "deal" or praises
    LAY = "lay"  # a pants player chooses which card of his last pair to lay
    CUT = "cut"  # a mirror player cuts the deck
    NAME = "name"  # the declarer names the trump suit
    PLAY = "play"  # the tricks; before the first card also offers and redeals
    ANSWER = "answer"  # the offerer's partner accepts or declines
    OVER = "over"


PRAISE, LAY, CUT, NAME, PLAY, ANSWER, OVER = range(7)
_PHASES = tuple(Phase)
(
    K_DEAL,
    K_PRAISE,
    K_LAY,
    K_CUT,
    K_NAME,
    K_OFFER,
    K_ACCEPT,
    K_DECLINE,
    K_REDEAL,
    K_PLAY,
) = (int(k) for k in Kind)
SIMPLE, PANTS, MIRROR, ONE_BY_ONE = range(4)
#: The step each dealing action belongs to.
_STEP_OF_KIND = {K_DEAL: PRAISE, K_PRAISE: PRAISE, K_LAY: LAY, K_CUT: CUT, K_NAME: NAME}

#: The raw argument's range for the kinds whose argument indexes a table: a card
#: index, a suit code (0: no trump suit) or a praise kind (0: the table's kind).
_ARG_LIMITS = {K_PLAY: DECK_SIZE, K_LAY: DECK_SIZE, K_ACCEPT: DECK_SIZE, K_NAME: 5, K_PRAISE: 5}

#: Redeals a deal may have; the request after them costs the dealer's team the deal.
MAX_REDEALS = 2
REDEAL_POINTS = 12
PAIR_LIMIT = 4  # a pants player draws at most four pairs
KEEP_LIMIT = HAND_SIZE - 1  # in pants and mirror a hand holds 7 and one card is laid

RawAction = tuple[int, int, int]
"""``(seat, kind, arg)``: the engine's form of an action (see :mod:`core.classic.actions`)."""

_DECK_ORDERS = 1
for _n in range(2, DECK_SIZE + 1):
    _DECK_ORDERS *= _n
_DECK_ORDER_BITS = _DECK_ORDERS.bit_length()


def random_permutation(rng: random.Random) -> list[int]:
    """A uniformly random order of the 32 card indexes (one draw of random bits read
    as a mixed-radix number driving a Fisher-Yates shuffle)."""
    while True:
        number = rng.getrandbits(_DECK_ORDER_BITS)
        if number < _DECK_ORDERS:
            break
    deck = list(range(DECK_SIZE))
    for i in range(DECK_SIZE - 1, 0, -1):
        number, j = divmod(number, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def good_mask(options: ClassicOptions) -> int:
    """Good cards of simple and pants (§2.6): permanent trumps, aces and, with a fixed
    trump suit, every card of it."""
    table = table_for(-1, options.kocherga)
    mask = table.permanent | ACES
    if options.trump_suit is not None:
        mask |= SUIT_MASKS[options.fixed_suit_index]
    return mask


def mirror_keep_mask(options: ClassicOptions) -> int:
    """The cards a mirror player keeps (§2.8): permanent trumps; with a fixed trump
    suit, every trump."""
    suit = options.fixed_suit_index
    return table_for(suit, options.kocherga).trumps


def redeal_qualifies(hand: int) -> bool:
    """A hand worth 12 points or less, or holding all four nines (§2.9)."""
    return points_in(hand) <= REDEAL_POINTS or hand & NINES == NINES


#: The queens that make a team's hands "with queens" for ``redeal_queens`` (§2.16):
#: every queen but Q♦.
TEAM_QUEENS = QUEENS & ~(1 << (3 * SUIT_SIZE + QUEEN))
ACE_OF_DIAMONDS = 3 * SUIT_SIZE + ACE


def trump_leaders(options: ClassicOptions, dealer: int, declarer: int) -> int:
    """The seats (a bit each) that may lead a trump while holding a plain card (§2.10,
    §2.16): everybody in a deal without a declarer, else the declarer (and his partner
    with ``team``); with ``non_dealers`` the team that did not deal, in every deal."""
    rule = options.trump_lead
    if rule is TrumpLead.NON_DEALERS:
        return 0b1010 if dealer & 1 == 0 else 0b0101
    if declarer < 0:
        return 15
    if rule is TrumpLead.TEAM:
        return (1 << declarer) | (1 << ((declarer + 2) & 3))
    return 1 << declarer


ACES_OF_LED: tuple[int, ...] = tuple(
    sum(1 << (s * SUIT_SIZE + 7) for s in range(4) if led >> s & 1) for led in range(16)
)


_DUTIES: dict[tuple[int, int, bool], tuple[tuple[int, ...], tuple[int, ...]]] = {}


def duties(table: Trumps, any_trump: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """What a follower must play to each lead card: ``duty1[lead]``, else ``duty2[lead]``
    (a permanent trump after a trump-suit lead with ``suit_first``), else anything."""
    key = (table.suit, table.kocherga, any_trump)
    found = _DUTIES.get(key)
    if found is not None:
        return found
    perm, suit_cards, trumps, plain = table.permanent, table.suit_cards, table.trumps, table.plain
    duty1 = []
    duty2 = []
    for card in range(DECK_SIZE):
        if perm >> card & 1:
            duty1.append(trumps)
            duty2.append(0)
        elif suit_cards >> card & 1:
            duty1.append(trumps if any_trump else suit_cards)
            duty2.append(0 if any_trump else perm)
        else:
            duty1.append(plain[card // SUIT_SIZE])
            duty2.append(0)
    found = _DUTIES[key] = (tuple(duty1), tuple(duty2))
    return found


class Dealing:
    """One dealing: the praise decision, the dealing procedure, the exchange window,
    the tricks and the end (its pairs are worked out with the game's egg pairs)."""

    __slots__ = (
        "_ace_ban",
        "_ad",
        "_chooser",
        "_deck",
        "_declarer",
        "_duty1",
        "_duty2",
        "_egg_pairs",
        "_end",
        "_exchanges",
        "_fixed",
        "_free_leaders",
        "_good",
        "_hands",
        "_jc",
        "_laid",
        "_last_trick",
        "_leader",
        "_led",
        "_log",
        "_offer",
        "_offered",
        "_options",
        "_pair",
        "_pairs",
        "_phase",
        "_piles",
        "_played",
        "_praise",
        "_qc_seat",
        "_redeal_hand",
        "_redeal_seat",
        "_rest",
        "_result",
        "_shown",
        "_step",
        "_table",
        "_trick",
        "_trick_no",
        "_tricks",
        "_trump",
        "_trump_set",
        "_turn",
        "_win_card",
        "_win_seat",
        "attempt",
        "dealer",
        "first",
        "number",
    )

    def __init__(
        self,
        options: ClassicOptions,
        dealer: int,
        deck: Sequence[int],
        *,
        number: int = 0,
        attempt: int = 0,
        fixed_suits: tuple[int, ...] | None = None,
        egg_pairs: int = 0,
        _checked: bool = False,
    ) -> None:
        """A dealing from card indexes; prefer :meth:`from_deck` or :meth:`shuffled`.

        ``number`` is the deal of the game (0: the first deal, dealt without praise),
        ``attempt`` the dealing within it (1 and 2 after redeals), ``fixed_suits`` the
        roulette's suits by seat once set, ``egg_pairs`` those put aside so far."""
        if not _checked:
            _check_args(options, dealer, deck, attempt)
        self._options = options
        self.dealer = dealer
        self.number = number
        self.attempt = attempt
        self.first = number == 0
        self._deck: tuple[int, ...] = tuple(deck)
        self._egg_pairs = egg_pairs
        self._fixed = fixed_suits
        self._ace_ban = options.ace_ban
        self._good = 0
        self._rest: list[int] = list(self._deck)
        self._hands = [0, 0, 0, 0]
        self._chooser = (dealer + 1) & 3
        self._declarer = -1
        self._praise = -1
        self._trump = options.fixed_suit_index
        self._trump_set = options.trump_suit is not None
        self._set_table()
        self._jc = -1
        self._ad = -1
        self._free_leaders = trump_leaders(options, dealer, -1)
        self._shown = 0
        self._laid = [-1, -1, -1, -1]
        self._step = 0
        self._pairs = 0
        self._pair = (-1, -1)
        self._leader = -1
        self._turn = -1
        self._trick: list[int] = []
        self._win_seat = -1
        self._win_card = -1
        self._qc_seat = -1
        self._led = 0
        self._piles = [0, 0]
        self._tricks = [0, 0]
        self._trick_no = 0
        self._last_trick: tuple[tuple[int, int], ...] = ()
        self._played = False
        self._offered = 0
        self._offer = -1
        self._exchanges: list[tuple[int, int, int, int]] = []
        self._redeal_seat = -1
        self._redeal_hand = 0
        self._end: DealEnd | None = None
        self._result: ClassicDealResult | None = None
        self._log: list[RawAction] = []
        if self.first or attempt > 0:
            self._phase = PLAY
            self._deal_plain(None)
        else:
            self._phase = PRAISE

    # --- Construction -------------------------------------------------------------

    @classmethod
    def from_deck(
        cls,
        options: ClassicOptions,
        dealer: int,
        deck: Sequence[Card],
        *,
        number: int = 0,
        attempt: int = 0,
        fixed_suits: Sequence[Suit] | None = None,
        egg_pairs: int = 0,
    ) -> Dealing:
        """Deal a given deck order (top first)."""
        indexes = [index_of(card) for card in deck]
        fixed = None if fixed_suits is None else tuple(int(s) for s in fixed_suits)
        return cls(
            options,
            dealer,
            indexes,
            number=number,
            attempt=attempt,
            fixed_suits=fixed,
            egg_pairs=egg_pairs,
        )

    @classmethod
    def shuffled(
        cls,
        options: ClassicOptions,
        dealer: int,
        rng: random.Random,
        *,
        number: int = 0,
        attempt: int = 0,
        fixed_suits: tuple[int, ...] | None = None,
        egg_pairs: int = 0,
    ) -> Dealing:
        """Shuffle with ``rng`` (``random.SystemRandom()`` in real games) and deal."""
        _check_args(options, dealer, _ALL_CARDS, attempt)
        return cls(
            options,
            dealer,
            random_permutation(rng),
            number=number,
            attempt=attempt,
            fixed_suits=fixed_suits,
            egg_pairs=egg_pairs,
            _checked=True,
        )

    def _set_table(self) -> None:
        table = self._table = table_for(self._trump, self._options.kocherga)
        self._duty1, self._duty2 = duties(table, self._options.follow is Follow.ANY_TRUMP)

    # --- The dealing procedures ---------------------------------------------------

    def _give(self, seat: int, card: int) -> None:
        self._hands[seat] |= 1 << card
        if card == JACK_OF_CLUBS:
            self._jc = seat

    def _deal_plain(self, events: list[ClassicEvent] | None) -> None:
        """§2.5: one at a time (or, §2.16 ``deal_by``, four at a time in a later deal)
        clockwise from the player after the dealer; the trump by the option, the
        roulette or none; the leader."""
        first = (self.dealer + 1) & 3
        deck, hands = self._rest, self._hands
        by = 4 if self._options.deal_by is DealBy.FOUR and not self.first else 1
        for position, card in enumerate(deck):
            hands[(first + position // by) & 3] |= 1 << card
        self._jc = (first + deck.index(JACK_OF_CLUBS) // by) & 3
        self._ad = (first + deck.index(ACE_OF_DIAMONDS) // by) & 3
        self._rest = []
        options = self._options
        if options.trump_suit is None and options.trump_roulette:
            jc = self._jc
            if self._fixed is None:
                fixed = [0, 0, 0, 0]
                fixed[jc], fixed[(jc + 2) & 3] = int(Suit.CLUBS), int(Suit.SPADES)
                fixed[(jc + 1) & 3], fixed[(jc + 3) & 3] = int(Suit.HEARTS), int(Suit.DIAMONDS)
                self._fixed = tuple(fixed)
            self._trump = self._fixed[jc]
            self._set_table()
        self._trump_set = True
        if not self.first:
            self._leader = self._turn = first
        elif self._options.first_leader is FirstLeader.AD_HOLDER:
            self._leader = self._turn = self._ad
        else:
            self._leader = self._turn = self._jc
        self._phase = PLAY
        self._dealt(events)

    def _dealt(self, events: list[ClassicEvent] | None) -> None:
        if events is not None:
            events.append(
                CardsDealt(
                    hand_sizes=tuple([h.bit_count() for h in self._hands]),
                    shown=cards_of(self._shown),
                    trump=self.trump,
                    trump_set=self._trump_set,
                    fixed_suits=self.fixed_suits,
                    leader=None if self._leader < 0 else self._leader,
                )
            )

    def _deal_simple(self, events: list[ClassicEvent] | None) -> None:
        """§2.6: face up to the declarer until a card that is not good (or 8 cards)."""
        declarer, rest, good = self._declarer, self._rest, self._good
        k = 0
        last_good = True
        while k < HAND_SIZE:
            card = rest[k]
            self._give(declarer, card)
            self._shown |= 1 << card
            k += 1
            if not good >> card & 1:
                last_good = False
                break
        if self._options.trump_suit is None:
            self._trump = -1 if last_good else rest[k - 1] // SUIT_SIZE
            self._set_table()
        self._trump_set = True
        pos = k
        for step in (1, 2, 3):
            for card in rest[pos : pos + k]:
                self._give((declarer + step) & 3, card)
            pos += k
        for i, card in enumerate(rest[pos:]):
            self._give((declarer + i) & 3, card)
        self._rest = []
        self._leader = self._turn = declarer
        self._phase = PLAY
        self._dealt(events)

    def _deal_one_by_one(self, events: list[ClassicEvent] | None) -> None:
        """§2.16 ``one_by_one``: one at a time clockwise from the declarer; the trump
        suit is the option's; the declarer leads."""
        declarer = self._declarer
        for position, card in enumerate(self._rest):
            self._give((declarer + position) & 3, card)
        self._rest = []
        self._trump_set = True
        self._leader = self._turn = declarer
        self._phase = PLAY
        self._dealt(events)

    def _run_pants(self, events: list[ClassicEvent] | None) -> None:
        """§2.7: each player from the declarer draws pairs (top, bottom) and keeps good
        cards; the last pair gives his laid card, by force or by his choice."""
        rest, good = self._rest, self._good
        while self._step < 4:
            seat = (self._declarer + self._step) & 3
            top, bottom = rest.pop(0), rest.pop()
            self._give(seat, top)
            self._give(seat, bottom)
            self._pairs += 1
            top_good, bottom_good = good >> top & 1, good >> bottom & 1
            if top_good and bottom_good and self._pairs < PAIR_LIMIT:
                continue
            if top_good != bottom_good:
                self._lay(seat, bottom if top_good else top, events)
                continue
            self._pair = (top, bottom)
            self._phase = LAY
            return
        self._deal_rest(events)

    def _lay(self, seat: int, card: int, events: list[ClassicEvent] | None) -> None:
        self._hands[seat] &= ~(1 << card)
        self._laid[seat] = card
        self._step += 1
        self._pairs = 0
        self._pair = (-1, -1)
        if events is not None:
            face_down = self._praise == PANTS and seat == self._declarer
            events.append(CardLaid(seat, None if face_down else CARDS[card]))

    def _cut_and_draw(self, at: int, events: list[ClassicEvent] | None) -> None:
        """§2.8: the cut, then cards from the bottom while they are kept (8 at most);
        the last one is laid face up."""
        rest = self._rest
        seat = (self._declarer + self._step) & 3
        rest[:] = rest[at:] + rest[:at]
        if events is not None:
            events.append(DeckCut(seat, at))
        keep = self._good
        got = 0
        while True:
            card = rest.pop()
            got += 1
            self._give(seat, card)
            if keep >> card & 1 and got < HAND_SIZE:
                continue
            self._lay(seat, card, events)
            break
        if self._step < 4:
            self._phase = CUT
        else:
            self._deal_rest(events)

    def _deal_rest(self, events: list[ClassicEvent] | None) -> None:
        """The middle part, one at a time from the top, clockwise from the declarer,
        skipping players who hold 7; then the naming or the laid trick."""
        hands, rest = self._hands, self._rest
        seat = self._declarer
        for card in rest:
            while hands[seat].bit_count() >= KEEP_LIMIT:
                seat = (seat + 1) & 3
            self._give(seat, card)
            seat = (seat + 1) & 3
        self._rest = []
        self._dealt(events)
        if self._trump_set:
            self._laid_trick(events)
        else:
            self._phase = NAME

    def _laid_trick(self, events: list[ClassicEvent] | None) -> None:
        """The four laid cards are the first trick, the declarer's card its lead."""
        declarer = self._declarer
        order = [self._laid[(declarer + i) & 3] for i in range(4)]
        position = trick_winner(self._table, order)
        winner = (declarer + position) & 3
        lead = order[0]
        if not self._table.trumps >> lead & 1:
            self._led |= 1 << (lead // SUIT_SIZE)
        team = winner & 1
        taken = (1 << order[0]) | (1 << order[1]) | (1 << order[2]) | (1 << order[3])
        self._piles[team] |= taken
        self._tricks[team] += 1
        self._trick_no = 1
        self._last_trick = tuple([((declarer + i) & 3, card) for i, card in enumerate(order)])
        self._leader = self._turn = winner
        self._phase = PLAY
        if events is not None:
            events.append(LaidTrickTaken(tuple([CARDS[c] for c in order]), winner, Team(team)))

    # --- Public state ----------------------------------------------------------------

    @property
    def options(self) -> ClassicOptions:
        return self._options

    @property
    def phase(self) -> Phase:
        return _PHASES[self._phase]

    @property
    def deck(self) -> tuple[Card, ...]:
        return tuple([CARDS[i] for i in self._deck])

    @property
    def trump(self) -> Suit | None:
        """The trump suit as set so far (None: no trump suit, or not set yet)."""
        return None if self._trump < 0 or not self._trump_set else Suit(self._trump)

    @property
    def trump_set(self) -> bool:
        return self._trump_set

    @property
    def fixed_suits(self) -> tuple[Suit, ...] | None:
        return None if self._fixed is None else tuple(Suit(s) for s in self._fixed)

    @property
    def fixed_suit_codes(self) -> tuple[int, ...] | None:
        return self._fixed

    @property
    def declarer(self) -> int | None:
        return None if self._declarer < 0 else self._declarer

    @property
    def praise(self) -> Praise | None:
        return None if self._praise < 0 else PRAISE_KINDS[self._praise]

    @property
    def leader(self) -> int | None:
        """The leader of the trick being played (of the next one between tricks), once
        known; before the first play, the seat that makes it."""
        return None if self._leader < 0 else self._leader

    @property
    def first_leader(self) -> int | None:
        """The seat that makes (or would make) the dealing's first ``play`` once that is
        known (docs/rules/reference.md §3.5 ``leader``): in pants and mirror the laid trick's
        winner."""
        for seat, kind, _ in self._log:
            if kind == K_PLAY:
                return seat
        return self.leader

    @property
    def jack_of_clubs_holder(self) -> int | None:
        """The seat J♣ was dealt to (§2.3), once dealt."""
        return None if self._jc < 0 else self._jc

    @property
    def is_over(self) -> bool:
        return self._phase == OVER

    @property
    def end(self) -> DealEnd | None:
        return self._end

    @property
    def result(self) -> ClassicDealResult | None:
        return self._result

    @property
    def egg_pairs_before(self) -> int:
        return self._egg_pairs

    @property
    def turn(self) -> int | None:
        """The seat whose choice the dealing waits for (the player to play in the
        tricks; other seats may still offer or ask for a redeal before the first card)."""
        phase = self._phase
        if phase == OVER:
            return None
        if phase == PRAISE:
            return self._chooser
        if phase in (LAY, CUT):
            return (self._declarer + self._step) & 3
        if phase == NAME:
            return self._declarer
        if phase == ANSWER:
            return (self._offer + 2) & 3
        return self._turn

    @property
    def points(self) -> tuple[int, int]:
        """Card points of the tricks each team has taken (all their cards are public)."""
        return (points_in(self._piles[0]), points_in(self._piles[1]))

    @property
    def tricks(self) -> tuple[int, int]:
        return (self._tricks[0], self._tricks[1])

    @property
    def trick_number(self) -> int:
        """Tricks finished so far (the laid trick counts)."""
        return self._trick_no

    @property
    def actions(self) -> tuple[ClassicAction, ...]:
        return tuple([self._to_action(raw) for raw in self._log])

    def log_raw(self) -> tuple[RawAction, ...]:
        return tuple(self._log)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards a seat holds (hidden: only for that seat)."""
        _check_seat(seat)
        return cards_of(self._hands[seat])

    def hand_mask(self, seat: int) -> int:
        return self._hands[seat]

    @property
    def trumps(self) -> Trumps:
        """The trump table in force (before the naming: that of no trump suit)."""
        return self._table

    def cards_accounted(self) -> int:
        """How many cards are somewhere (hands, piles, the trick, the laid cards, the
        deck not dealt yet); 32 at every step."""
        laid = sum(1 for seat in range(4) if self._laid[seat] >= 0 and not self._laid_taken())
        return (
            sum(h.bit_count() for h in self._hands)
            + self._piles[0].bit_count()
            + self._piles[1].bit_count()
            + len(self._trick)
            + laid
            + len(self._rest)
        )

    def _laid_taken(self) -> bool:
        return self._trick_no > 0

    # --- Legal actions -----------------------------------------------------------------

    def _play_mask(self, seat: int) -> int:
        """The cards ``seat`` may play now (its turn in the tricks)."""
        hand = self._hands[seat]
        trick = self._trick
        if not trick:
            if self._free_leaders >> seat & 1:
                return hand
            plain = hand & ~self._table.trumps
            return plain or hand
        lead = trick[0]
        must = hand & self._duty1[lead]
        if must:
            return must
        must = hand & self._duty2[lead]
        if must:
            return must
        if self._ace_ban:
            banned = self._table.plain_aces & ~ACES_OF_LED[self._led]
            free = hand & ~banned
            if free:
                return free
        return hand

    def _offer_ok(self, seat: int) -> bool:
        return (
            self._options.last_trump
            and not self._offered >> seat & 1
            and (self._hands[seat] & self._table.trumps).bit_count() == 1
        )

    def _redeal_ok(self, seat: int) -> bool:
        """Whether ``seat`` qualifies for a redeal now (§2.9, and §2.16's team without
        a queen but Q♦), whoever's hands that takes."""
        hand = self._hands[seat]
        if redeal_qualifies(hand):
            return True
        team = hand | self._hands[(seat + 2) & 3]
        return self._options.redeal_queens and not team & TEAM_QUEENS

    def may_ask_redeal(self, seat: int) -> bool:
        """Whether ``seat`` may ask for a redeal as far as its own hand shows (§2.16: a
        request for the team's queens is checked against the partner's hand, which the
        seat does not see, and may be refused)."""
        if not self._options.redeal or self._phase != PLAY or self._played:
            return False
        if self._declarer >= 0:
            return False
        hand = self._hands[seat]
        if redeal_qualifies(hand):
            return True
        return self._options.redeal_queens and not hand & TEAM_QUEENS

    def _give_back_mask(self, seat: int) -> int:
        hand = self._hands[seat]
        plain = hand & ~self._table.trumps
        return plain or hand

    def legal_raw(self, seat: int | None = None) -> list[RawAction]:
        """Legal actions as ``(seat, kind, arg)``; every seat's when ``seat`` is None."""
        phase = self._phase
        out: list[RawAction] = []
        if phase == PLAY:
            turn = self._turn
            if seat is None or seat == turn:
                mask = self._play_mask(turn)
                while mask:
                    low = mask & -mask
                    out.append((turn, K_PLAY, low.bit_length() - 1))
                    mask ^= low
            if not self._played and self._declarer < 0:
                options = self._options
                for s in range(4) if seat is None else (seat,):
                    if self._offer_ok(s):
                        out.append((s, K_OFFER, 0))
                    if options.redeal and self._redeal_ok(s):
                        out.append((s, K_REDEAL, 0))
            return out
        if phase == OVER:
            return out
        who = self.turn
        assert who is not None
        if seat is not None and seat != who:
            return out
        if phase == PRAISE:
            out.append((who, K_DEAL, 0))
            out.extend(
                (who, K_PRAISE, PRAISE_KINDS.index(kind) + 1) for kind in self._options.praise_kinds
            )
        elif phase == LAY:
            top, bottom = self._pair
            out.append((who, K_LAY, top))
            out.append((who, K_LAY, bottom))
        elif phase == CUT:
            out.extend((who, K_CUT, at) for at in range(1, len(self._rest)))
        elif phase == NAME:
            out.extend((who, K_NAME, suit) for suit in range(5))
        elif phase == ANSWER:
            out.append((who, K_DECLINE, 0))
            mask = self._give_back_mask(who)
            while mask:
                low = mask & -mask
                out.append((who, K_ACCEPT, low.bit_length() - 1))
                mask ^= low
        return out

    def legal_actions(self, seat: int | None = None) -> list[ClassicAction]:
        """Every legal action of ``seat`` now, or of every seat when ``seat`` is None."""
        if seat is not None:
            _check_seat(seat)
        return [self._to_action(raw) for raw in self.legal_raw(seat)]

    def seats_to_act(self) -> tuple[int, ...]:
        """The seats that have a legal action now."""
        return tuple(sorted({raw[0] for raw in self.legal_raw()}))

    # --- verify / can / apply ------------------------------------------------------------

    def reason_raw(self, seat: int, kind: int, arg: int) -> ReasonCode | None:
        """Why the raw action is illegal now, or None if it is legal."""
        phase = self._phase
        if phase == OVER:
            return Reason.DEAL_OVER
        if not 0 <= seat < 4:
            return Reason.BAD_SEAT
        limit = _ARG_LIMITS.get(kind)
        if limit is not None and not 0 <= arg < limit:
            return Reason.UNKNOWN_CARD if limit == DECK_SIZE else ClassicReason.MISSING_ARGUMENT
        if kind == K_PLAY:
            return self._play_reason(seat, arg)
        if kind in (K_OFFER, K_REDEAL):
            if kind == K_OFFER and not self._options.last_trump:
                return ClassicReason.OPTION_OFF
            if kind == K_REDEAL and not self._options.redeal:
                return ClassicReason.OPTION_OFF
            if self._declarer >= 0:
                return ClassicReason.WITH_DECLARER
            if phase == ANSWER:
                return ClassicReason.OFFER_PENDING
            if phase != PLAY:
                return ClassicReason.WRONG_STEP
            if self._played:
                return ClassicReason.PLAY_STARTED
            if kind == K_REDEAL:
                if self._redeal_ok(seat):
                    return None
                if self._options.redeal_queens and not self._hands[seat] & TEAM_QUEENS:
                    return ClassicReason.TEAM_HAS_QUEEN
                return ClassicReason.REDEAL_NOT_ALLOWED
            if self._offered >> seat & 1:
                return ClassicReason.ALREADY_OFFERED
            if (self._hands[seat] & self._table.trumps).bit_count() != 1:
                return ClassicReason.NOT_ONE_TRUMP
            return None
        if kind in (K_ACCEPT, K_DECLINE):
            if phase != ANSWER:
                return ClassicReason.NO_OFFER
            if seat != (self._offer + 2) & 3:
                return Reason.NOT_YOUR_TURN
            if kind == K_ACCEPT:
                if not self._hands[seat] >> arg & 1:
                    return Reason.NOT_IN_HAND
                if not self._give_back_mask(seat) >> arg & 1:
                    return ClassicReason.MUST_GIVE_PLAIN
            return None
        expected = _STEP_OF_KIND.get(kind)
        if expected is None:
            return Reason.UNKNOWN_ACTION
        if phase != expected:
            return ClassicReason.OFFER_PENDING if phase == ANSWER else ClassicReason.WRONG_STEP
        if seat != self.turn:
            return Reason.NOT_YOUR_TURN
        if kind == K_PRAISE:
            praise = self._options.praise
            if arg == 0:
                return ClassicReason.PRAISE_KIND_REQUIRED if praise is Praise.CHOOSE else None
            if PRAISE_KINDS[arg - 1] not in self._options.praise_kinds:
                return ClassicReason.PRAISE_KIND_MISMATCH
        elif kind == K_LAY:
            if arg not in self._pair:
                return ClassicReason.NOT_IN_PAIR
        elif kind == K_CUT and not 1 <= arg < len(self._rest):
            return ClassicReason.CUT_OUT_OF_RANGE
        return None

    def _play_reason(self, seat: int, card: int) -> ReasonCode | None:
        phase = self._phase
        if phase != PLAY:
            return ClassicReason.OFFER_PENDING if phase == ANSWER else ClassicReason.WRONG_STEP
        if seat != self._turn:
            return Reason.NOT_YOUR_TURN
        hand = self._hands[seat]
        if not hand >> card & 1:
            return Reason.NOT_IN_HAND
        if self._play_mask(seat) >> card & 1:
            return None
        trick = self._trick
        if not trick:
            return ClassicReason.TRUMP_LEAD_FORBIDDEN
        lead = trick[0]
        table = self._table
        if hand & self._duty1[lead]:
            if not table.trumps >> lead & 1:
                return ClassicReason.MUST_FOLLOW_SUIT
            if table.suit_cards >> lead & 1 and self._options.follow is Follow.SUIT_FIRST:
                return ClassicReason.MUST_PLAY_TRUMP_SUIT
            return ClassicReason.MUST_PLAY_TRUMP
        if hand & self._duty2[lead]:
            return ClassicReason.MUST_PLAY_PERMANENT_TRUMP
        return ClassicReason.ACE_BANNED

    def verify(self, action: ClassicAction) -> None:
        """Raise :class:`KozelError` with the reason if ``action`` is illegal now."""
        seat, kind, arg = self._to_raw(action)
        reason = self.reason_raw(seat, kind, arg)
        if reason is not None:
            raise KozelError(reason)

    def can(self, action: ClassicAction) -> bool:
        try:
            self.verify(action)
        except KozelError:
            return False
        return True

    def apply(self, action: ClassicAction) -> list[ClassicEvent]:
        """Apply a legal action; return the events it caused (the dealing's automatic
        steps after it included)."""
        seat, kind, arg = self._to_raw(action)
        reason = self.reason_raw(seat, kind, arg)
        if reason is not None:
            raise KozelError(reason)
        events: list[ClassicEvent] = []
        self.step_raw(seat, kind, arg, events)
        return events

    def apply_raw(self, seat: int, kind: int, arg: int) -> None:
        reason = self.reason_raw(seat, kind, arg)
        if reason is not None:
            raise KozelError(reason)
        self.step_raw(seat, kind, arg, None)

    # --- The transition ----------------------------------------------------------------

    def step_raw(self, seat: int, kind: int, arg: int, events: list[ClassicEvent] | None) -> None:
        """Apply a raw action known to be legal. Events go to ``events`` unless None."""
        if kind == K_PLAY:
            self._log.append((seat, kind, arg))
            self._play(seat, arg, events)
            return
        if kind == K_PRAISE and arg == 0:
            arg = PRAISE_KINDS.index(self._options.praise) + 1
        self._log.append((seat, kind, arg))
        if kind == K_DEAL:
            if events is not None:
                events.append(DealChosen(seat))
            self._deal_plain(events)
        elif kind == K_PRAISE:
            self._declarer = seat
            self._praise = arg - 1
            if events is not None:
                events.append(Praised(seat, PRAISE_KINDS[arg - 1]))
            self._free_leaders = trump_leaders(self._options, self.dealer, seat)
            if self._praise == MIRROR:
                self._good = mirror_keep_mask(self._options)
                self._phase = CUT
            elif self._praise == ONE_BY_ONE:
                self._deal_one_by_one(events)
            else:
                self._good = good_mask(self._options)
                if self._praise == SIMPLE:
                    self._deal_simple(events)
                else:
                    self._run_pants(events)
        elif kind == K_LAY:
            self._lay(seat, arg, events)
            self._run_pants(events)
        elif kind == K_CUT:
            self._cut_and_draw(arg, events)
        elif kind == K_NAME:
            self._trump = arg - 1
            self._trump_set = True
            self._set_table()
            if events is not None:
                events.append(TrumpNamed(seat, self.trump))
            self._laid_trick(events)
        elif kind == K_OFFER:
            self._offered |= 1 << seat
            self._offer = seat
            self._phase = ANSWER
            if events is not None:
                events.append(TrumpOffered(seat))
        elif kind == K_ACCEPT:
            offerer = self._offer
            trump = self._hands[offerer] & self._table.trumps
            given = trump.bit_length() - 1
            self._hands[offerer] ^= trump | (1 << arg)
            self._hands[seat] ^= trump | (1 << arg)
            self._exchanges.append((offerer, seat, given, arg))
            self._offer = -1
            self._phase = PLAY
            if events is not None:
                events.append(TrumpAccepted(seat, offerer))
        elif kind == K_DECLINE:
            offerer = self._offer
            self._offer = -1
            self._phase = PLAY
            if events is not None:
                events.append(TrumpDeclined(seat, offerer))
        elif kind == K_REDEAL:
            self._redeal_seat = seat
            self._redeal_hand = self._hands[seat]
            penalty = self.attempt >= MAX_REDEALS
            if events is not None:
                events.append(RedealAsked(seat, cards_of(self._hands[seat]), penalty))
            if penalty:
                self._finish(DealEnd.REDEAL_PENALTY, Team((self.dealer + 1) & 1))
            else:
                self._finish(DealEnd.REDEAL, None)

    def _play(self, seat: int, card: int, events: list[ClassicEvent] | None) -> None:
        self._hands[seat] ^= 1 << card
        self._played = True
        trick = self._trick
        if events is not None:
            events.append(CardPlayed(seat, CARDS[card]))
        if not trick:
            self._win_seat, self._win_card = seat, card
            if not self._table.trumps >> card & 1:
                self._led |= 1 << (card // SUIT_SIZE)
        else:
            if (
                card == KOCHERGA
                and self._qc_seat >= 0
                and (self._qc_seat ^ seat) & 1
                and self._table.kocherga
            ):
                trick.append(card)
                if events is not None:
                    events.append(KochergaCaught(seat, Team(seat & 1)))
                self._finish(DealEnd.KOCHERGA, Team(seat & 1))
                return
            if self._table.beaten_by[self._win_card] >> card & 1:
                self._win_seat, self._win_card = seat, card
        if card == QUEEN_OF_CLUBS:
            self._qc_seat = seat
        trick.append(card)
        if len(trick) < 4:
            self._turn = (seat + 1) & 3
            return
        winner = self._win_seat
        team = winner & 1
        taken = (1 << trick[0]) | (1 << trick[1]) | (1 << trick[2]) | (1 << trick[3])
        self._piles[team] |= taken
        self._tricks[team] += 1
        self._trick_no += 1
        leader = self._leader
        self._last_trick = tuple([((leader + i) & 3, c) for i, c in enumerate(trick)])
        self._trick = []
        self._qc_seat = -1
        if events is not None:
            events.append(TrickTaken(winner, Team(team), self._trick_no - 1, points_in(taken)))
        if self._hands[winner]:
            self._leader = self._turn = winner
        else:
            self._finish(DealEnd.PLAYED, None)

    def _finish(self, end: DealEnd, winner: Team | None) -> None:
        """The dealing is over: work out what it gives (§2.12)."""
        self._phase = OVER
        self._end = end
        options = self._options
        replay_eggs = options.eggs is Eggs.REPLAY
        points = self.points
        if end is DealEnd.REDEAL or (
            replay_eggs and end is DealEnd.PLAYED and points[0] == points[1]
        ):
            next_dealer = self.dealer
        elif options.dealers is Dealers.CLOCKWISE:
            next_dealer = (self.dealer + 1) & 3
        else:
            next_dealer = self._jc
        self._result = score_dealing(
            end,
            points,
            self.tricks,
            winner,
            self._egg_pairs,
            next_dealer,
            egg_pair=not replay_eggs,
        )

    # --- Random playouts ----------------------------------------------------------------

    def playout(self, rand: Callable[[], float]) -> ClassicDealResult:
        """Play the dealing to its end, each step a uniformly random choice among ALL the
        legal actions of the position (every seat's), and score it.

        ``rand`` returns floats in [0, 1), e.g. ``random.Random(seed).random``. Each
        choice is ``legal_raw()[int(rand() * len(legal_raw()))]``, so a playout makes
        exactly the moves of a step-by-step loop over :meth:`legal_raw` and
        :meth:`step_raw` with the same numbers (the tests check this); once only plays
        are possible it keeps the tricks in local variables, which is several times
        faster. For benchmarks and look-ahead players.
        """
        while self._phase != PLAY or (not self._played and self._declarer < 0):
            if self._phase == OVER:
                assert self._result is not None
                return self._result
            legal = self.legal_raw()
            seat, kind, arg = legal[int(rand() * len(legal))]
            self.step_raw(seat, kind, arg, None)
        hands, log, trick = self._hands, self._log, self._trick
        piles, tricks = self._piles, self._tricks
        table = self._table
        beaten_by, all_trumps = table.beaten_by, table.trumps
        banned_aces = table.plain_aces if self._ace_ban else 0
        duty1, duty2 = self._duty1, self._duty2
        kocherga = table.kocherga
        free_leaders = self._free_leaders
        turn, leader = self._turn, self._leader
        win_seat, win_card, qc_seat, led = self._win_seat, self._win_card, self._qc_seat, self._led
        trick_no = self._trick_no
        aces_of_led = ACES_OF_LED
        allowed = ~(banned_aces & ~aces_of_led[led])
        play = K_PLAY
        lead = trick[0] if trick else -1
        while True:
            hand = hands[turn]
            if trick:
                mask = hand & duty1[lead] or hand & duty2[lead] or hand & allowed or hand
            elif free_leaders >> turn & 1:
                mask = hand
            else:
                mask = hand & ~all_trumps or hand
            pick = int(rand() * mask.bit_count())
            while pick:
                mask &= mask - 1
                pick -= 1
            card = (mask & -mask).bit_length() - 1
            log.append((turn, play, card))
            hands[turn] = hand ^ (1 << card)
            if not trick:
                win_seat, win_card, lead = turn, card, card
                if not all_trumps >> card & 1:
                    led |= 1 << (card >> 3)
                    allowed = ~(banned_aces & ~aces_of_led[led])
            else:
                if card == KOCHERGA and kocherga and qc_seat >= 0 and (qc_seat ^ turn) & 1:
                    trick.append(card)
                    self._store(turn, leader, win_seat, win_card, qc_seat, led, trick_no)
                    self._finish(DealEnd.KOCHERGA, Team(turn & 1))
                    break
                if beaten_by[win_card] >> card & 1:
                    win_seat, win_card = turn, card
            if card == QUEEN_OF_CLUBS:
                qc_seat = turn
            trick.append(card)
            if len(trick) < 4:
                turn = (turn + 1) & 3
                continue
            team = win_seat & 1
            piles[team] |= (1 << trick[0]) | (1 << trick[1]) | (1 << trick[2]) | (1 << trick[3])
            tricks[team] += 1
            trick_no += 1
            self._last_trick = (
                (leader, trick[0]),
                ((leader + 1) & 3, trick[1]),
                ((leader + 2) & 3, trick[2]),
                ((leader + 3) & 3, trick[3]),
            )
            trick.clear()
            if not hands[win_seat]:
                self._store(turn, leader, win_seat, win_card, -1, led, trick_no)
                self._finish(DealEnd.PLAYED, None)
                break
            leader = turn = win_seat
            qc_seat = -1
        assert self._result is not None
        return self._result

    def _store(
        self, turn: int, leader: int, win_seat: int, win_card: int, qc: int, led: int, no: int
    ) -> None:
        self._played = True
        self._turn, self._leader, self._win_seat, self._win_card = turn, leader, win_seat, win_card
        self._qc_seat, self._led, self._trick_no = qc, led, no

    # --- Views ---------------------------------------------------------------------------

    def table_view(self) -> ClassicTableView:
        """What everybody at the table may see."""
        declarer = self._declarer
        hidden_laid = self._praise == PANTS and self._trick_no == 0
        laid: tuple[LaidCard, ...] = ()
        if self._trick_no == 0 and any(card >= 0 for card in self._laid):
            laid = tuple(
                [
                    LaidCard(
                        seat,
                        None if hidden_laid and seat == declarer else CARDS[self._laid[seat]],
                    )
                    for seat in ((declarer + i) & 3 for i in range(4))
                    if self._laid[seat] >= 0
                ]
            )
        leader = self._leader
        redeal_hand = cards_of(self._redeal_hand) if self._redeal_seat >= 0 else ()
        return ClassicTableView(
            number=self.number,
            attempt=self.attempt,
            dealer=self.dealer,
            phase=self.phase,
            turn=self.turn,
            praise=self.praise,
            declarer=self.declarer,
            trump=self.trump,
            trump_set=self._trump_set,
            fixed_suits=self.fixed_suits,
            shown=cards_of(self._shown & self._hands[declarer]) if declarer >= 0 else (),
            laid=laid,
            hand_sizes=tuple([h.bit_count() for h in self._hands]),
            deck_left=len(self._rest),
            leader=None if leader < 0 else leader,
            trick=tuple(
                [PlayedCard((leader + i) & 3, CARDS[card]) for i, card in enumerate(self._trick)]
            ),
            winning_seat=self._win_seat if self._trick else None,
            trick_number=self._trick_no,
            last_trick=tuple([PlayedCard(s, CARDS[c]) for s, c in self._last_trick]),
            tricks=self.tricks,
            points=self.points,
            taken=cards_of(self._piles[0] | self._piles[1]),
            played=tuple(
                [PlayedCard(seat, CARDS[card]) for seat, kind, card in self._log if kind == K_PLAY]
            ),
            led_suits=tuple(Suit(s) for s in range(4) if self._led >> s & 1),
            offer_from=None if self._offer < 0 else self._offer,
            exchanges=tuple(offerer for offerer, *_ in self._exchanges),
            redeal_by=None if self._redeal_seat < 0 else self._redeal_seat,
            redeal_hand=redeal_hand,
            result=self._result,
        )

    def view(self, seat: int) -> ClassicSeatView:
        """What ``seat`` may see: the table, its own hand, its own legal actions, its
        pants pair to lay from, and an exchange it took part in."""
        _check_seat(seat)
        exchange = None
        for offerer, partner, trump, returned in self._exchanges:
            if seat in (offerer, partner):
                given, got = (trump, returned) if seat == offerer else (returned, trump)
                exchange = Exchange(offerer, partner, CARDS[given], CARDS[got])
        pair: tuple[Card, ...] = ()
        if self._phase == LAY and self.turn == seat:
            pair = (CARDS[self._pair[0]], CARDS[self._pair[1]])
        own_laid = None
        if self._laid[seat] >= 0 and self._trick_no == 0:
            own_laid = CARDS[self._laid[seat]]
        legal = self.legal_actions(seat)
        # A request for the team's queens is offered as far as the seat's own hand shows
        # (its partner's hand would show in the button otherwise); it may be refused.
        if self.may_ask_redeal(seat) and not any(a.kind.code == K_REDEAL for a in legal):
            legal.append(ClassicAction(seat, KIND_BY_CODE[K_REDEAL]))
        return ClassicSeatView(
            seat=seat,
            table=self.table_view(),
            hand=cards_of(self._hands[seat]),
            legal=tuple(legal),
            pair=pair,
            laid=own_laid,
            exchange=exchange,
        )

    # --- Copies, records and equality ----------------------------------------------------

    def copy(self) -> Dealing:
        other = Dealing.__new__(Dealing)
        for name in Dealing.__slots__:
            setattr(other, name, getattr(self, name))
        other._hands = list(self._hands)
        other._piles = list(self._piles)
        other._tricks = list(self._tricks)
        other._laid = list(self._laid)
        other._rest = list(self._rest)
        other._trick = list(self._trick)
        other._exchanges = list(self._exchanges)
        other._log = list(self._log)
        return other

    def _to_action(self, raw: RawAction) -> ClassicAction:
        seat, kind, arg = raw
        name = KIND_BY_CODE[kind]
        if kind in (K_PLAY, K_LAY, K_ACCEPT):
            return ClassicAction(seat, name, card=CARDS[arg])
        if kind == K_CUT:
            return ClassicAction(seat, name, at=arg)
        if kind == K_NAME:
            return ClassicAction(seat, name, suit=None if arg == 0 else Suit(arg - 1))
        if kind == K_PRAISE:
            return ClassicAction(seat, name, praise=None if arg == 0 else PRAISE_KINDS[arg - 1])
        return ClassicAction(seat, name)

    @staticmethod
    def _to_raw(action: ClassicAction) -> RawAction:
        seat = action.seat
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 4:
            raise KozelError(Reason.BAD_SEAT)
        kind = action.kind
        if not isinstance(kind, ClassicActionKind):
            raise KozelError(Reason.UNKNOWN_ACTION)
        code = kind.code
        if code in (K_PLAY, K_LAY, K_ACCEPT):
            if not isinstance(action.card, Card):
                raise KozelError(ClassicReason.MISSING_ARGUMENT, f"{kind.value} needs a card")
            return seat, code, index_of(action.card)
        if code == K_CUT:
            at = action.at
            if not isinstance(at, int) or isinstance(at, bool):
                raise KozelError(ClassicReason.MISSING_ARGUMENT, "cut needs the number of cards")
            return seat, code, at
        if code == K_NAME:
            suit = action.suit
            if suit is not None and not isinstance(suit, Suit):
                raise KozelError(ClassicReason.MISSING_ARGUMENT, "name_trump needs a suit or None")
            return seat, code, 0 if suit is None else int(suit) + 1
        if code == K_PRAISE:
            praise = action.praise
            if praise is None:
                return seat, code, 0
            if not isinstance(praise, Praise) or praise is Praise.CHOOSE:
                raise KozelError(
                    ClassicReason.MISSING_ARGUMENT, "praise is simple, pants or mirror"
                )
            return seat, code, PRAISE_KINDS.index(praise) + 1
        return seat, code, 0

    def state_key(self) -> tuple[object, ...]:
        """Everything that makes up the state; equal keys mean equal dealings."""
        return tuple(
            tuple(value) if isinstance(value, list) else value
            for value in (getattr(self, name) for name in Dealing.__slots__)
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Dealing):
            return NotImplemented
        return self.state_key() == other.state_key()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<Dealing #{self.number}.{self.attempt} dealer={self.dealer} phase={self.phase.value}"
            f" turn={self.turn} actions={len(self._log)}>"
        )


def _check_seat(seat: int) -> None:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 4:
        raise KozelError(Reason.BAD_SEAT)


_ALL_CARDS = tuple(range(DECK_SIZE))


def _check_args(options: ClassicOptions, dealer: int, deck: Sequence[int], attempt: int) -> None:
    if not isinstance(options, ClassicOptions):
        raise KozelError(Reason.BAD_OPTIONS, "options must be ClassicOptions")
    _check_seat(dealer)
    if deck is not _ALL_CARDS and (
        len(deck) != DECK_SIZE
        or not all(isinstance(i, int) and 0 <= i < DECK_SIZE for i in deck)
        or sum(1 << i for i in set(deck)) != FULL_MASK
    ):
        raise KozelError(Reason.BAD_DECK, "the deck must hold each of the 32 cards once")
    if not 0 <= attempt <= MAX_REDEALS:
        raise KozelError(Reason.BAD_RECORD, "a deal has at most three dealings")
