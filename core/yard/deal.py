"""One deal of yard Kozel as a state machine.

The public API speaks :class:`~core.cards.Card` and :class:`~core.yard.actions.Action`;
inside, cards are ints and sets of cards are bitmasks (see :mod:`core.cards`), so
that whole random deals run fast enough for computer players and benchmarks.

Every action has three faces: :meth:`Deal.verify` raises a :class:`KozelError` with
a reason, :meth:`Deal.can` answers yes or no, :meth:`Deal.apply` applies a legal
action and returns the events it caused. An illegal action changes nothing.

>>> from core.cards import Card
>>> deck = [Card.from_index(i) for i in range(36)]
>>> deal = Deal.from_deck(dealer=3, deck=deck, trump_index=4)
>>> deal.turn, [c.code for c in deal.hand(0)], deal.trump_card.code
(0, ['6C', 'JC', 'AC', '9S'], '8H')
>>> [type(e).__name__ for e in deal.apply(Action.lead(0, Card.parse("AC")))]
['CardsLed']
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import combinations
from math import factorial

from core.cards import (
    DECK_SIZE,
    FULL_MASK,
    POINTS,
    SUIT_BITS,
    SUIT_MASK,
    Card,
    Suit,
    cards_of,
    indexes_of,
    mask_of,
)
from core.errors import KozelError, Reason, ReasonCode
from core.seats import Team
from core.yard.actions import KIND_BY_CODE, Action, ActionKind, Kind
from core.yard.errors import YardReason
from core.yard.events import (
    CardsBeaten,
    CardsDiscarded,
    CardsDrawn,
    CardsLed,
    DealResult,
    DealScored,
    Event,
    MolodkaDeclared,
    TrickStarted,
    TrickTaken,
)
from core.yard.rules import BEATERS, set_beats_mask
from core.yard.views import PlayedSet, SeatView, TableView

HAND_SIZE = 4
STOCK_SIZE = DECK_SIZE - 4 * HAND_SIZE
#: Where in the stock a dealer shows the trump card from: its middle.
TRUMP_INDEX_RANGE = range(4, 16)

# Plain ints in the hot path (comparing with IntEnum members costs more).
LEAD, BEAT, DISCARD, MOLODKA = (int(k) for k in Kind)

RawAction = tuple[int, int, int]
"""``(seat, kind, mask)``: the engine's form of an action."""
ActionGroup = tuple[int, int, tuple[int, ...]]
"""``(seat, kind, masks)``: legal actions of one seat and kind."""


# --- Per-hand facts. A hand never holds more than four cards, so there are few
# distinct hands (66,712 with up to four cards): single cards and leads are cached
# by hand without a bound; the rest is computed from them.


def _suit_subsets(suit: int, part: int, max_size: int) -> tuple[int, ...]:
    bits = [1 << (suit * SUIT_BITS + rank) for rank in range(SUIT_BITS) if part >> rank & 1]
    return tuple(
        sum(combo)
        for size in range(1, min(len(bits), max_size) + 1)
        for combo in combinations(bits, size)
    )


#: _SUIT_LEADS[suit][part]: the leads from the cards ``part`` (9 bits) of ``suit``.
_SUIT_LEADS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_suit_subsets(suit, part, HAND_SIZE) for part in range(1 << SUIT_BITS))
    for suit in range(4)
)
#: _SUIT_SINGLES[suit][part]: each card of ``part`` of ``suit`` alone.
_SUIT_SINGLES: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_suit_subsets(suit, part, 1) for part in range(1 << SUIT_BITS)) for suit in range(4)
)
_SINGLES: dict[int, tuple[int, ...]] = {}
_LEADS: dict[int, tuple[int, ...]] = {}
_NO_CARDS = (0,)

#: Every hand of four cards of one suit.
MOLODKA_HANDS: frozenset[int] = frozenset(
    sum(1 << (suit * SUIT_BITS + rank) for rank in ranks)
    for suit in range(4)
    for ranks in combinations(range(SUIT_BITS), HAND_SIZE)
)


def _per_suit(table: tuple[tuple[tuple[int, ...], ...], ...], mask: int) -> tuple[int, ...]:
    return (
        table[0][mask & SUIT_MASK]
        + table[1][mask >> SUIT_BITS & SUIT_MASK]
        + table[2][mask >> 2 * SUIT_BITS & SUIT_MASK]
        + table[3][mask >> 3 * SUIT_BITS]
    )


def single_masks(hand: int) -> tuple[int, ...]:
    """Each card of ``hand`` alone, as one-bit masks."""
    found = _SINGLES.get(hand)
    if found is None:
        found = _SINGLES[hand] = _per_suit(_SUIT_SINGLES, hand)
    return found


def lead_masks(hand: int) -> tuple[int, ...]:
    """Every legal lead from ``hand``: non-empty sets of one suit."""
    found = _LEADS.get(hand)
    if found is None:
        found = _LEADS[hand] = _per_suit(_SUIT_LEADS, hand)
    return found


def subset_masks(hand: int, size: int) -> tuple[int, ...]:
    """Every ``size``-card subset of ``hand`` (at most four cards), as masks."""
    cards = single_masks(hand)
    count = len(cards)
    if size == 1:
        return cards
    if size == count:
        return (hand,)
    if size == count - 1:
        return tuple([hand ^ card for card in cards])
    if size == 2 and count == 4:
        a, b, c, d = cards
        return (a | b, a | c, a | d, b | c, b | d, c | d)
    return tuple(sum(combo) for combo in combinations(cards, size))


#: For sets of 2 to 4 cards: the proper subsets of positions, as index tuples, for
#: Hall's condition (every k cards of the set need at least k distinct beaters).
_HALL: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(combo for k in range(1, n) for combo in combinations(range(n), k)) for n in range(5)
)


def beat_masks(hand: int, winning: int, trump: int) -> tuple[int, ...]:
    """Every subset of ``hand`` that beats the set ``winning`` one to one.

    A set X beats Y when there is a one-to-one pairing in which every card of X
    beats its partner; by Hall's theorem, when every k cards of Y have at least k
    cards of X that beat one of them. With at most four cards that is a few checks.
    """
    table = BEATERS[trump]
    targets = [table[card.bit_length() - 1] for card in single_masks(winning)]
    size = len(targets)
    useful = 0
    for beaters in targets:
        useful |= beaters
    useful &= hand
    if useful.bit_count() < size:
        return ()
    conditions = []
    for combo in _HALL[size]:
        union = 0
        for index in combo:
            union |= targets[index]
        conditions.append((union, len(combo)))
    return tuple(
        [
            candidate
            for candidate in subset_masks(useful, size)
            if all((candidate & union).bit_count() >= k for union, k in conditions)
        ]
    )


_DECK_ORDERS = factorial(DECK_SIZE)
_DECK_ORDER_BITS = _DECK_ORDERS.bit_length()


def random_permutation(rng: random.Random) -> list[int]:
    """A uniformly random order of the 36 card indexes.

    One draw of random bits (rejection-sampled below 36!) is read as a mixed-radix
    number whose digits drive a Fisher-Yates shuffle: a bijection, so every order is
    equally likely, at a third of the cost of ``rng.shuffle``.
    """
    while True:
        number = rng.getrandbits(_DECK_ORDER_BITS)
        if number < _DECK_ORDERS:
            break
    deck = list(range(DECK_SIZE))
    for i in range(DECK_SIZE - 1, 0, -1):
        number, j = divmod(number, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def is_molodka(hand: int) -> bool:
    """Whether a hand is four cards of one suit."""
    return hand in MOLODKA_HANDS


def _one_suit(mask: int) -> bool:
    suit = ((mask & -mask).bit_length() - 1) // SUIT_BITS
    return mask >> ((suit + 1) * SUIT_BITS) == 0


#: Card points of every 9-bit part of a mask (one suit's cards).
_SUIT_POINTS: tuple[int, ...] = tuple(
    sum(POINTS[rank] for rank in range(SUIT_BITS) if part >> rank & 1)
    for part in range(1 << SUIT_BITS)
)


def points_in(mask: int) -> int:
    """Card points in a mask."""
    return (
        _SUIT_POINTS[mask & SUIT_MASK]
        + _SUIT_POINTS[mask >> SUIT_BITS & SUIT_MASK]
        + _SUIT_POINTS[mask >> 2 * SUIT_BITS & SUIT_MASK]
        + _SUIT_POINTS[mask >> 3 * SUIT_BITS]
    )


def loss_points_for(points: int, tricks: int) -> int:
    """Loss points of a team that lost a deal with these points and tricks."""
    if tricks == 0:
        return 6
    if points <= 30:
        return 4
    return 2


class Deal:
    """One deal: dealing, the trump reveal, tricks, molodka, drawing and the score."""

    __slots__ = (
        "_deck",
        "_hands",
        "_last_winner",
        "_leader",
        "_log",
        "_molodka_done",
        "_molodka_seat",
        "_molodka_won",
        "_n",
        "_piles",
        "_plays",
        "_result",
        "_stock_pos",
        "_trick_no",
        "_tricks",
        "_trump",
        "_trump_holder",
        "_turn",
        "_win_mask",
        "_win_seat",
        "dealer",
        "number",
        "trump_index",
    )

    def __init__(
        self,
        dealer: int,
        deck: Sequence[int],
        trump_index: int,
        number: int = 0,
        *,
        _checked: bool = False,
    ) -> None:
        """Deal from card indexes; prefer :meth:`from_deck` or :meth:`shuffled`."""
        if not _checked:
            _check_deal_args(dealer, deck, trump_index)
        self.dealer = dealer
        self.number = number
        self.trump_index = trump_index
        self._deck: tuple[int, ...] = tuple(deck)
        hands = [0, 0, 0, 0]
        for i in range(4 * HAND_SIZE):
            hands[(dealer + 1 + i) % 4] |= 1 << self._deck[i]
        self._hands = hands
        self._stock_pos = 4 * HAND_SIZE
        self._trump = self._deck[4 * HAND_SIZE + trump_index] // SUIT_BITS
        self._trump_holder: int | None = None
        self._piles = [0, 0]
        self._tricks = [0, 0]
        self._log: list[RawAction] = []
        self._result: DealResult | None = None
        self._last_winner = -1
        self._trick_no = -1
        self._plays: list[RawAction] = []
        #: The tricks a molodka took: (declarer, the trick's card points).
        self._molodka_won: tuple[tuple[int, int], ...] = ()
        self._start_trick((dealer + 1) % 4)

    # --- Construction -------------------------------------------------------

    @classmethod
    def from_deck(
        cls, dealer: int, deck: Sequence[Card], trump_index: int, number: int = 0
    ) -> Deal:
        """Deal a given deck order (top first) with the trump shown at ``trump_index``
        of the stock."""
        return cls(dealer, [card.index for card in deck], trump_index, number)

    @classmethod
    def shuffled(cls, dealer: int, rng: random.Random, number: int = 0) -> Deal:
        """Shuffle with ``rng`` (use ``random.SystemRandom()`` in real games) and deal."""
        _check_seat(dealer)
        deck = random_permutation(rng)
        return cls(dealer, deck, rng.choice(TRUMP_INDEX_RANGE), number, _checked=True)

    def _start_trick(self, leader: int) -> None:
        self._trick_no += 1
        self._leader = self._turn = self._win_seat = leader
        self._plays = []
        self._n = self._win_mask = 0
        self._molodka_done = False
        self._molodka_seat = -1
        hands = self._hands
        if hands[leader].bit_count() == HAND_SIZE:
            for step in (1, 2, 3):
                seat = (leader + step) & 3
                if hands[seat] in MOLODKA_HANDS:
                    self._molodka_seat = seat
                    break

    def _start_hand(self, seat: int) -> int:
        """The seat's hand as it was when the current trick began."""
        hand = self._hands[seat]
        for played_seat, _, played in self._plays:
            if played_seat == seat:
                hand |= played
        return hand

    # --- Public state -------------------------------------------------------

    @property
    def trump(self) -> Suit:
        return Suit(self._trump)

    @property
    def trump_card(self) -> Card:
        return Card.from_index(self._deck[4 * HAND_SIZE + self.trump_index])

    @property
    def deck(self) -> tuple[Card, ...]:
        return tuple(Card.from_index(i) for i in self._deck)

    @property
    def first_leader(self) -> int:
        return (self.dealer + 1) % 4

    @property
    def leader(self) -> int:
        """The seat that was to lead the current trick when it began."""
        return self._leader

    @property
    def turn(self) -> int | None:
        """The seat to play now, or None when the deal is over."""
        return None if self._result is not None else self._turn

    @property
    def stock_size(self) -> int:
        return DECK_SIZE - self._stock_pos

    @property
    def is_over(self) -> bool:
        return self._result is not None

    @property
    def result(self) -> DealResult | None:
        return self._result

    @property
    def tricks(self) -> tuple[int, int]:
        return (self._tricks[0], self._tricks[1])

    @property
    def trick_number(self) -> int:
        return self._trick_no

    @property
    def last_trick_winner(self) -> int | None:
        return None if self._last_winner < 0 else self._last_winner

    @property
    def molodka_seat(self) -> int | None:
        """The seat that may still declare a molodka in this trick, if any."""
        if self._result is not None or self._molodka_seat < 0:
            return None
        return self._molodka_seat

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action applied so far, in order."""
        return tuple(self._to_action(raw) for raw in self._log)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards a seat holds (hidden information: only for that seat)."""
        _check_seat(seat)
        return cards_of(self._hands[seat])

    def pile_points(self) -> tuple[int, int]:
        """Card points in each team's pile (hidden while the deal runs: face-down
        discards count)."""
        return (points_in(self._piles[0]), points_in(self._piles[1]))

    # --- Legal actions --------------------------------------------------------

    def legal_groups(self, seat: int | None = None) -> list[ActionGroup]:
        """Legal actions grouped as ``(seat, kind, masks)``: every seat's when ``seat``
        is None. The engine's fast form; :meth:`legal_raw` flattens it."""
        if self._result is not None:
            return []
        turn = self._turn
        groups: list[ActionGroup] = []
        if seat is None or seat == turn:
            hand = self._hands[turn]
            n = self._n
            if n == 0:
                groups.append((turn, LEAD, lead_masks(hand)))
            else:
                if n == 1:
                    useful = hand & BEATERS[self._trump][self._win_mask.bit_length() - 1]
                    beats = single_masks(useful) if useful else ()
                    discards = single_masks(hand)
                else:
                    beats = beat_masks(hand, self._win_mask, self._trump)
                    discards = subset_masks(hand, n)
                if beats:
                    groups.append((turn, BEAT, beats))
                groups.append((turn, DISCARD, discards))
        ms = self._molodka_seat
        if ms >= 0 and (seat is None or seat == ms):
            groups.append((ms, MOLODKA, _NO_CARDS))
        return groups

    def legal_raw(self, seat: int | None = None) -> list[RawAction]:
        """Legal actions as ``(seat, kind, mask)``; every seat's when ``seat`` is None."""
        return [(s, kind, m) for s, kind, masks in self.legal_groups(seat) for m in masks]

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every legal action for ``seat`` now (molodka included, also out of turn),
        or for every seat when ``seat`` is None."""
        if seat is not None:
            _check_seat(seat)
        return [self._to_action(raw) for raw in self.legal_raw(seat)]

    # --- verify / can / apply -----------------------------------------------

    def reason_raw(self, seat: int, kind: int, mask: int) -> ReasonCode | None:
        """Why the raw action is illegal, or None if it is legal."""
        if self._result is not None:
            return Reason.DEAL_OVER
        if not 0 <= seat < 4:
            return Reason.BAD_SEAT
        if kind == MOLODKA:
            if self._molodka_done:
                return YardReason.MOLODKA_ALREADY
            if seat == self._leader:
                return YardReason.MOLODKA_BY_LEADER
            if not is_molodka(self._start_hand(seat)):
                return YardReason.MOLODKA_NOT_HELD
            if seat != self._molodka_seat:
                return YardReason.MOLODKA_NOT_NEAREST
            if mask and mask != self._start_hand(seat):
                return YardReason.MOLODKA_CARDS
            return None
        if seat != self._turn:
            return Reason.NOT_YOUR_TURN
        if mask == 0:
            return YardReason.NO_CARDS
        if self._n == 0 and kind == LEAD and mask.bit_count() > HAND_SIZE:
            return YardReason.TOO_MANY_CARDS
        if mask & ~self._hands[seat]:
            return Reason.NOT_IN_HAND
        if self._n == 0:
            if kind != LEAD:
                return YardReason.MUST_LEAD
            if not _one_suit(mask):
                return YardReason.MIXED_SUITS
            return None
        if kind == LEAD:
            return YardReason.ALREADY_LED
        if mask.bit_count() != self._n:
            return YardReason.WRONG_COUNT
        if kind == BEAT and not set_beats_mask(mask, self._win_mask, self._trump):
            return YardReason.DOES_NOT_BEAT
        return None

    def verify(self, action: Action) -> None:
        """Raise :class:`KozelError` with the reason if ``action`` is illegal now."""
        seat, kind, mask = _to_raw(action)
        reason = self.reason_raw(seat, kind, mask)
        if reason is not None:
            raise KozelError(reason)

    def can(self, action: Action) -> bool:
        """Whether ``action`` is legal now."""
        try:
            self.verify(action)
        except KozelError:
            return False
        return True

    def apply(self, action: Action) -> list[Event]:
        """Apply a legal action and return the events it caused, in order."""
        seat, kind, mask = _to_raw(action)
        reason = self.reason_raw(seat, kind, mask)
        if reason is not None:
            raise KozelError(reason)
        events: list[Event] = []
        self.step_raw(seat, kind, mask, events)
        return events

    def apply_raw(self, seat: int, kind: int, mask: int) -> None:
        """Apply a raw action after checking it (no events)."""
        reason = self.reason_raw(seat, kind, mask)
        if reason is not None:
            raise KozelError(reason)
        self.step_raw(seat, kind, mask, None)

    # --- The transition -------------------------------------------------------

    def step_raw(self, seat: int, kind: int, mask: int, events: list[Event] | None) -> None:
        """Apply a raw action known to be legal (from :meth:`legal_raw` or checked by
        :meth:`reason_raw`). Events are appended to ``events`` unless it is None."""
        hands = self._hands
        if kind == MOLODKA:
            self._declare_molodka(seat, events)
            return
        action = (seat, kind, mask)
        self._log.append(action)
        hands[seat] ^= mask
        plays = self._plays
        plays.append(action)
        if kind == LEAD:
            self._n = mask.bit_count()
            self._win_seat = seat
            self._win_mask = mask
            if events is not None:
                events.append(CardsLed(seat, cards_of(mask)))
        elif kind == BEAT:
            self._win_seat = seat
            self._win_mask = mask
            if events is not None:
                events.append(CardsBeaten(seat, cards_of(mask)))
        elif events is not None:
            events.append(CardsDiscarded(seat, mask.bit_count()))
        if len(plays) < 4:
            self._turn = (seat + 1) & 3
            return
        # The trick is complete: the winner takes it, everybody draws, the winner leads.
        winner = self._win_seat
        team = winner & 1
        taken = plays[0][2] | plays[1][2] | plays[2][2] | plays[3][2]
        self._piles[team] |= taken
        self._tricks[team] += 1
        self._last_winner = winner
        if self._molodka_done and winner == plays[0][0]:  # the molodka took the trick
            self._molodka_won = (*self._molodka_won, (winner, points_in(taken)))
        if events is not None:
            events.append(TrickTaken(winner, Team(team), taken.bit_count()))
        if self._stock_pos < DECK_SIZE:
            self._draw(winner, events)
        if hands[0]:
            self._start_trick(winner)
            if events is not None:
                events.append(TrickStarted(winner, self._trick_no))
        else:
            self._score(events)

    def _declare_molodka(self, seat: int, events: list[Event] | None) -> None:
        hands = self._hands
        self._log.append((seat, MOLODKA, 0))
        returned = [0, 0, 0, 0]
        for played_seat, _, played in self._plays:
            hands[played_seat] |= played
            returned[played_seat] += played.bit_count()
        mask = hands[seat]
        hands[seat] = 0
        self._plays = [(seat, LEAD, mask)]
        self._n = HAND_SIZE
        self._win_seat = seat
        self._win_mask = mask
        self._turn = (seat + 1) & 3
        self._molodka_done = True
        self._molodka_seat = -1
        if events is not None:
            events.append(MolodkaDeclared(seat, cards_of(mask), tuple(returned)))

    def _draw(self, first: int, events: list[Event] | None) -> None:
        """Everybody draws from the top of the stock, one card at a time clockwise from
        ``first``, until each holds four or the stock is empty. Hands are always of one
        size and the stock a multiple of four, so the draw is a run of whole rounds."""
        hands, deck = self._hands, self._deck
        pos = self._stock_pos
        count = min(4 * (HAND_SIZE - hands[first].bit_count()), DECK_SIZE - pos)
        for i in range(count):
            hands[(first + i) & 3] |= 1 << deck[pos + i]
        offset = 4 * HAND_SIZE + self.trump_index - pos
        trump_to = (first + offset) & 3 if 0 <= offset < count else None
        if trump_to is not None:
            self._trump_holder = trump_to
        self._stock_pos = pos + count
        if events is not None:
            each = count // 4
            events.append(CardsDrawn((each,) * 4, DECK_SIZE - pos - count, trump_to))

    def _score(self, events: list[Event] | None) -> None:
        points = (points_in(self._piles[0]), points_in(self._piles[1]))
        tricks = (self._tricks[0], self._tricks[1])
        loss = [0, 0]
        winner: Team | None = None
        eggs = points[0] == points[1]
        if not eggs:
            winner = Team.A if points[0] > points[1] else Team.B
            loser = 1 - winner
            loss[loser] = loss_points_for(points[loser], tricks[loser])
        self._result = DealResult(
            points=points,
            tricks=tricks,
            loss_points=(loss[0], loss[1]),
            eggs=eggs,
            winner=winner,
            next_leader=self._last_winner,
            molodka_tricks=self._molodka_won,
        )
        if events is not None:
            events.append(DealScored(self.number, self._result))

    # --- Random playouts ------------------------------------------------------

    def playout(self, rand: Callable[[], float]) -> DealResult:
        """Play the deal to its end, each step a uniformly random choice among ALL the
        legal actions of the position (every seat's, molodka included), and score it.

        ``rand`` returns floats in [0, 1), e.g. ``random.Random(seed).random``. The
        choice at each step is ``legal_raw()[int(rand() * len(legal_raw()))]``, so a
        playout makes exactly the moves that a step-by-step loop over
        :meth:`legal_raw` and :meth:`step_raw` would make with the same numbers (the
        tests check this); it just keeps the state in local variables, which makes
        it several times faster. For benchmarks and look-ahead players.
        """
        if self._result is not None:
            return self._result
        hands, deck, log = self._hands, self._deck, self._log
        beaters = BEATERS[self._trump]
        trump = self._trump
        piles, tricks = self._piles, self._tricks
        pos = self._stock_pos
        trump_pos = 4 * HAND_SIZE + self.trump_index
        leader, turn, plays = self._leader, self._turn, self._plays
        n, win_seat, win_mask = self._n, self._win_seat, self._win_mask
        molodka_seat, trick_no = self._molodka_seat, self._trick_no
        molodka_done = self._molodka_done
        singles, leads = _SINGLES.get, _LEADS.get
        # Every card that beats some card of the winning set (a quick test first).
        win_union = 0
        for card in indexes_of(win_mask):
            win_union |= beaters[card]
        while True:
            hand = hands[turn]
            if n == 0:
                moves = leads(hand) or lead_masks(hand)
                count = len(moves)
                pick = int(rand() * (count + (molodka_seat >= 0)))
                kind = LEAD
            else:
                useful = hand & win_union
                if n == 1:
                    beats = (singles(useful) or single_masks(useful)) if useful else ()
                    moves = singles(hand) or single_masks(hand)
                else:
                    beats = beat_masks(hand, win_mask, trump) if useful.bit_count() >= n else ()
                    moves = subset_masks(hand, n)
                count_beats = len(beats)
                count = count_beats + len(moves)
                pick = int(rand() * (count + (molodka_seat >= 0)))
                if pick < count_beats:
                    moves, kind = beats, BEAT
                else:
                    kind = DISCARD
                    pick -= count_beats
                    count -= count_beats
            if pick == count:
                # The molodka (listed last): every card played to the trick goes back.
                seat = molodka_seat
                log.append((seat, MOLODKA, 0))
                for played_seat, _, played in plays:
                    hands[played_seat] |= played
                mask = hands[seat]
                hands[seat] = 0
                plays = [(seat, LEAD, mask)]
                n, win_seat, win_mask = HAND_SIZE, seat, mask
                win_union = 0
                for card in indexes_of(mask):
                    win_union |= beaters[card]
                turn = (seat + 1) & 3
                molodka_seat, molodka_done = -1, True
                continue
            mask = moves[pick]
            action = (turn, kind, mask)
            log.append(action)
            hands[turn] ^= mask
            plays.append(action)
            if kind != DISCARD:
                if kind == LEAD:
                    n = mask.bit_count()
                win_seat, win_mask = turn, mask
                if n == 1:
                    win_union = beaters[mask.bit_length() - 1]
                else:
                    win_union = 0
                    for card in singles(mask) or single_masks(mask):
                        win_union |= beaters[card.bit_length() - 1]
            if len(plays) < 4:
                turn = (turn + 1) & 3
                continue
            # The trick is complete: take it, draw, and lead again or score.
            team = win_seat & 1
            piles[team] |= plays[0][2] | plays[1][2] | plays[2][2] | plays[3][2]
            tricks[team] += 1
            if pos < DECK_SIZE:
                draw = min(4 * (HAND_SIZE - hands[win_seat].bit_count()), DECK_SIZE - pos)
                for i in range(draw):
                    hands[(win_seat + i) & 3] |= 1 << deck[pos + i]
                if 0 <= trump_pos - pos < draw:
                    self._trump_holder = (win_seat + trump_pos - pos) & 3
                pos += draw
            self._last_winner = win_seat
            if not hands[0]:
                break
            trick_no += 1
            leader = turn = win_seat
            plays = []
            n = win_mask = 0
            molodka_seat, molodka_done = -1, False
            if hands[leader].bit_count() == HAND_SIZE:
                for step in (1, 2, 3):
                    seat = (leader + step) & 3
                    if hands[seat] in MOLODKA_HANDS:
                        molodka_seat = seat
                        break
        self._stock_pos = pos
        self._leader, self._turn, self._plays = leader, turn, plays
        self._n, self._win_seat, self._win_mask = n, win_seat, win_mask
        self._molodka_seat, self._molodka_done = molodka_seat, molodka_done
        self._trick_no = trick_no
        self._score(None)
        assert self._result is not None
        return self._result

    # --- Views ----------------------------------------------------------------

    def table_view(self) -> TableView:
        """What everybody at the table may see."""
        trump_card = self.trump_card  # its suit is the trump
        plays = self._plays
        return TableView(
            number=self.number,
            dealer=self.dealer,
            trump=trump_card.suit,
            trump_card=trump_card,
            trump_card_holder=self._trump_holder,
            stock_size=self.stock_size,
            hand_sizes=tuple([h.bit_count() for h in self._hands]),
            trick_number=self._trick_no,
            leader=self._leader,
            turn=self.turn,
            lead_size=self._n,
            plays=tuple(
                [
                    PlayedSet(
                        seat=seat,
                        kind=KIND_BY_CODE[kind],
                        cards=() if kind == DISCARD else cards_of(mask),
                        count=mask.bit_count(),
                    )
                    for seat, kind, mask in plays
                ]
            ),
            winning_seat=self._win_seat if plays else None,
            tricks=self.tricks,
            last_trick_winner=self.last_trick_winner,
            result=self._result,
        )

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may see: the table, its own hand and its own legal actions."""
        _check_seat(seat)
        to_action = self._to_action
        return SeatView(
            seat=seat,
            table=self.table_view(),
            hand=cards_of(self._hands[seat]),
            legal=tuple([to_action(raw) for raw in self.legal_raw(seat)]),
            molodka=self.molodka_seat == seat,
        )

    # --- Records and equality -------------------------------------------------

    def copy(self) -> Deal:
        """An independent copy (for computer players that look ahead)."""
        other = Deal.__new__(Deal)
        for name in Deal.__slots__:
            setattr(other, name, getattr(self, name))
        other._hands = list(self._hands)
        other._piles = list(self._piles)
        other._tricks = list(self._tricks)
        other._log = list(self._log)
        other._plays = list(self._plays)
        return other

    def log_raw(self) -> tuple[RawAction, ...]:
        """Every action applied so far, in the engine's form."""
        return tuple(self._log)

    def _to_action(self, raw: RawAction) -> Action:
        seat, kind, mask = raw
        return Action(seat, KIND_BY_CODE[kind], cards_of(mask))

    def state_key(self) -> tuple[object, ...]:
        """Everything that makes up the state; equal keys mean equal deals."""
        return (
            self.dealer,
            self.number,
            self._deck,
            self.trump_index,
            tuple(self._log),
            tuple(self._hands),
            tuple(self._piles),
            tuple(self._tricks),
            self._stock_pos,
            tuple(self._plays),
            self._turn,
            self._result,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Deal):
            return NotImplemented
        return self.state_key() == other.state_key()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<Deal #{self.number} dealer={self.dealer} trump={self.trump.name} "
            f"turn={self.turn} stock={self.stock_size} actions={len(self._log)}>"
        )


def _check_seat(seat: int) -> None:
    if not isinstance(seat, int) or not 0 <= seat < 4:
        raise KozelError(Reason.BAD_SEAT)


def _check_deal_args(dealer: int, deck: Sequence[int], trump_index: int) -> None:
    _check_seat(dealer)
    if (
        len(deck) != DECK_SIZE
        or not all(isinstance(i, int) and 0 <= i < DECK_SIZE for i in deck)
        or sum(1 << i for i in set(deck)) != FULL_MASK
    ):
        raise KozelError(Reason.BAD_DECK)
    if not isinstance(trump_index, int) or not 0 <= trump_index < STOCK_SIZE:
        raise KozelError(Reason.BAD_DECK, f"trump_index must be 0 to {STOCK_SIZE - 1}")


def _to_raw(action: Action) -> RawAction:
    if not isinstance(action.seat, int) or not 0 <= action.seat < 4:
        raise KozelError(Reason.BAD_SEAT)
    mask = mask_of(action.cards)
    if mask.bit_count() != len(action.cards):
        raise KozelError(YardReason.DUPLICATE_CARDS)
    kind = action.kind
    if not isinstance(kind, ActionKind):
        raise KozelError(Reason.UNKNOWN_ACTION)
    return action.seat, kind.code, mask
