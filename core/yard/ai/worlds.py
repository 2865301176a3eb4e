"""Worlds: complete deals that agree with everything one seat has seen.

A seat sees its hand, the table, the trump card, the stock and hand sizes and the
cards it watched go by (:class:`~core.yard.ai.memory.DealMemory`). The other cards are
*unknown*: the other hands, the stock, the face-down discards. A :class:`World`
places every unknown card somewhere, consistently with the view:

- a card seen face up, or held or discarded by the seat, is never hidden elsewhere;
- every hand, the stock, every face-down discard on the table and every team pile
  gets exactly as many unknown cards as it holds;
- the shown trump card is in the stock until drawn (never among the stock's last
  four when it can be elsewhere, as the dealer shows it from the middle), then in
  its holder's hand or among the cards he discarded face down after drawing it;
- the molodka the seat may (or may not) declare now is the one the rules give it:
  when the seat holds a molodka but is not offered it, someone nearer to the leader
  holds one, and when it is offered, nobody nearer does.

Worlds are sampled uniformly among the placements that satisfy all that (the last
point by rejection). With ``infer``, a sampler also prefers (by rejection, at most
``infer`` tries a world) worlds in which the opponents played the current trick as
the baseline would have from their hands there: a model of the ``normal`` player,
used only on this trick's plays, where a seat's hand is its hand now plus what it
played (no card was drawn since). :meth:`World.to_deal` turns a world into an engine
:class:`~core.deal.Deal`, whose view for the seat is the seat's real view (the tests
check it over many random positions).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from core.cards import DECK_SIZE, FULL_MASK, indexes_of, mask_of
from core.yard.ai.memory import DealMemory, Trick
from core.yard.ai.policy import baseline_move
from core.yard.deal import DISCARD, HAND_SIZE, MOLODKA_HANDS, Deal
from core.yard.views import SeatView

#: Tries to meet the molodka condition before a world is taken as it is.
MOLODKA_TRIES = 64
#: The dealer shows the trump card among stock positions 4..15 (core.deal).
_TRUMP_FIRST, _TRUMP_LAST = 4, 15


@dataclass(slots=True)
class World:
    """A full deal state: every card placed. Plain ints and bitmasks."""

    trump: int
    trump_card: int
    hands: list[int]
    stock: list[int]
    """Stock cards, top first."""
    trump_holder: int
    """The seat that drew the trump card, or -1 while it is in the stock."""
    piles: list[int]
    tricks: list[int]
    leader: int
    turn: int
    plays: list[tuple[int, int, int]]
    """The current trick: ``(seat, kind, mask)``, face-down discards included."""
    n: int
    win_seat: int
    win_mask: int
    molodka_seat: int
    molodka_done: bool
    last_winner: int
    trick_no: int
    number: int = 0
    dealer: int = 0
    gone: int = 0
    """The face-up cards of the finished tricks (public: every seat saw them)."""

    def copy(self) -> World:
        return World(
            self.trump,
            self.trump_card,
            list(self.hands),
            list(self.stock),
            self.trump_holder,
            list(self.piles),
            list(self.tricks),
            self.leader,
            self.turn,
            list(self.plays),
            self.n,
            self.win_seat,
            self.win_mask,
            self.molodka_seat,
            self.molodka_done,
            self.last_winner,
            self.trick_no,
            self.number,
            self.dealer,
            self.gone,
        )

    def to_deal(self) -> Deal:
        """The engine deal of this world (for tests and tools: no action log)."""
        stock = self.stock
        used = 0
        for card in stock:
            used |= 1 << card
        drawn = [i for i in indexes_of(FULL_MASK & ~used) if i != self.trump_card]
        if self.trump_holder < 0:
            deck = drawn + stock
            trump_index = deck.index(self.trump_card) - 4 * HAND_SIZE
        else:
            # Drawn already: put it among the cards drawn from the stock.
            at = DECK_SIZE - len(stock) - 1
            deck = [*drawn[:at], self.trump_card, *drawn[at:], *stock]
            trump_index = at - 4 * HAND_SIZE
        deal = Deal.__new__(Deal)
        deal.dealer = self.dealer
        deal.number = self.number
        deal.trump_index = trump_index
        deal._deck = tuple(deck)
        deal._hands = list(self.hands)
        deal._stock_pos = DECK_SIZE - len(stock)
        deal._trump = self.trump
        deal._trump_holder = None if self.trump_holder < 0 else self.trump_holder
        deal._piles = list(self.piles)
        deal._tricks = list(self.tricks)
        deal._log = []
        deal._result = None
        deal._last_winner = self.last_winner
        deal._trick_no = self.trick_no
        deal._plays = list(self.plays)
        deal._leader = self.leader
        deal._turn = self.turn
        deal._win_seat = self.win_seat
        deal._win_mask = self.win_mask
        deal._n = self.n
        deal._molodka_done = self.molodka_done
        deal._molodka_seat = self.molodka_seat
        return deal


def start_hands(hands: list[int], plays: list[tuple[int, int, int]]) -> list[int]:
    """Each seat's hand as it was when the current trick began."""
    start = list(hands)
    for seat, _, mask in plays:
        start[seat] |= mask
    return start


def molodka_seat_of(hands: list[int], plays: list[tuple[int, int, int]], leader: int) -> int:
    """The seat that may declare a molodka in a trick not yet restarted, or -1."""
    start = start_hands(hands, plays)
    if start[leader].bit_count() != HAND_SIZE:
        return -1
    for step in (1, 2, 3):
        seat = (leader + step) & 3
        if start[seat] in MOLODKA_HANDS:
            return seat
    return -1


class Sampler:
    """Samples worlds for one seat's view and memory (everything but the unknown
    cards' places is worked out once)."""

    __slots__ = (
        "_base",
        "_extra_piles",
        "_hidden_plays",
        "_history",
        "_seen",
        "_slots",
        "_trump_in_stock",
        "_trump_slots",
        "_unknown",
        "infer",
        "memory_used",
        "seat",
        "view",
    )

    def __init__(
        self, view: SeatView, memory: DealMemory | None, infer: int = 0, history: int = 0
    ) -> None:
        self.view = view
        self.infer = infer
        """Worlds tried per sample for one in which the opponents' plays to this
        trick (and to the ``history`` last finished tricks) are the baseline's
        choices (0: no such inference)."""
        self.seat = seat = view.seat
        table = view.table
        trump = int(table.trump)
        trump_card = table.trump_card.index
        hand = mask_of(view.hand)
        plays: list[tuple[int, int, int]] = []
        hidden_plays: list[tuple[int, int]] = []  # (index into plays, count)
        face_up = 0
        win_mask = 0
        own_table = memory.table_own if memory is not None else 0
        for played in table.plays:
            if played.face_down:
                if played.seat == seat and own_table and own_table.bit_count() == played.count:
                    plays.append((played.seat, DISCARD, own_table))
                    face_up |= own_table  # not face up, but known to this seat
                else:
                    hidden_plays.append((len(plays), played.count))
                    plays.append((played.seat, DISCARD, 0))
            else:
                mask = mask_of(played.cards)
                face_up |= mask
                win_mask = mask
                plays.append((played.seat, played.kind.code, mask))
        hand_sizes = table.hand_sizes
        others = [s for s in range(4) if s != seat]
        open_slots = (
            sum(hand_sizes[s] for s in others)
            + table.stock_size
            + sum(count for _, count in hidden_plays)
        )
        use = memory is not None and memory.complete
        known = hand | face_up
        pile_hidden = [0, 0]
        piles = [0, 0]
        if memory is not None and use:
            known |= memory.gone | memory.own_gone
            pile_hidden = list(memory.pile_hidden)
            piles = list(memory.pile_known)
            if (FULL_MASK & ~known).bit_count() != open_slots + sum(pile_hidden):
                # The memory disagrees with the view: judge from the view alone.
                use = False
                known = hand | face_up
                pile_hidden = [0, 0]
                piles = [0, 0]
        self.memory_used = use
        self._history: list[Trick] = []
        if history > 0 and use and memory is not None:
            self._history = memory.tricks[-history:]
        #: The baseline's choice by (trick, seat, hand) for the history's checks.
        self._seen: dict[tuple[int, int, int], tuple[int, int]] = {}
        unknown = FULL_MASK & ~known
        # Cards a memory cannot place (it missed the start of the deal) are in the
        # piles, shared by the tricks each team took.
        extra = unknown.bit_count() - open_slots - sum(pile_hidden)
        tricks = table.tricks
        self._extra_piles = (extra, tricks[0], tricks[1])
        self._hidden_plays = hidden_plays
        self._slots = (others, pile_hidden)
        self._unknown = unknown
        # Where the trump card may be.
        holder = table.trump_card_holder
        trump_unknown = bool(unknown >> trump_card & 1)
        self._trump_in_stock = trump_unknown and holder is None and table.stock_size > 0
        trump_slots: list[tuple[str, int]] = []
        if trump_unknown and holder is not None:
            if holder != seat:
                trump_slots = [("hand", holder)] * hand_sizes[holder]
            if use and memory is not None:
                trump_slots += [("pile", team) for team in memory.trump_piles]
                if memory.table_trump_slots:
                    for index, count in hidden_plays:
                        if plays[index][0] == holder:
                            trump_slots += [("play", index)] * count
            if not trump_slots and extra > 0:
                trump_slots = [("extra", 0)]
        self._trump_slots = trump_slots
        win_seat = table.winning_seat if table.winning_seat is not None else table.leader
        molodka_done = bool(plays) and plays[0][0] != table.leader
        self._base = World(
            trump=trump,
            trump_card=trump_card,
            hands=[hand if s == seat else 0 for s in range(4)],
            stock=[],
            trump_holder=-1 if holder is None else holder,
            piles=piles,
            tricks=list(tricks),
            leader=table.leader,
            turn=table.turn if table.turn is not None else table.leader,
            plays=plays,
            n=table.lead_size,
            win_seat=win_seat,
            win_mask=win_mask,
            molodka_seat=-1,
            molodka_done=molodka_done,
            last_winner=-1 if table.last_trick_winner is None else table.last_trick_winner,
            trick_no=table.trick_number,
            number=table.number,
            dealer=table.dealer,
            gone=memory.gone if memory is not None and use else 0,
        )

    def sample(self, rng: random.Random) -> World:
        """One world, uniformly among those that agree with the view (and, with
        :attr:`infer`, preferably one in which the opponents played this trick as
        the baseline would have)."""
        checks = self.infer
        fallback: World | None = None
        for _ in range(MOLODKA_TRIES):
            world = self._place(rng)
            if not self._molodka_agrees(world):
                continue
            if checks <= 0:
                return fallback or world
            checks -= 1
            if self._plays_agree(world) and self._history_agrees(world, rng):
                return world
            fallback = fallback or world
        return fallback or world

    def _history_agrees(self, world: World, rng: random.Random) -> bool:
        """Whether each opponent's face-up plays to the last finished tricks (the
        ``history`` last) are the baseline's choices from his hand then: his hand
        now, plus what he played since, minus what he drew since (which of his
        cards he drew is drawn at random: the world does not say). A seat that
        discarded face down since has a hand this seat cannot rebuild, and his
        earlier plays are not checked."""
        history = self._history
        if not history:
            return True
        mine = self.seat & 1
        hands = start_hands(world.hands, world.plays)
        sizes = [hand.bit_count() for hand in hands]
        exact = [seat & 1 != mine for seat in range(4)]
        trump_bit = 1 << world.trump_card
        seen = self._seen
        for number in range(len(history) - 1, -1, -1):
            gone, plays, molodka, stock, holder, draws, trump_to = history[number]
            for seat, drawn in enumerate(draws):
                if not drawn:
                    continue
                sizes[seat] -= drawn
                if exact[seat]:
                    hand = hands[seat]
                    cards = list(indexes_of(hand))
                    picked = 0
                    if trump_to == seat:
                        if not hand & trump_bit:
                            return False
                        picked = trump_bit
                        cards.remove(world.trump_card)
                        drawn -= 1
                    for card in rng.sample(cards, drawn):
                        picked |= 1 << card
                    hands[seat] = hand & ~picked
            for seat, kind, mask, count in plays:
                sizes[seat] += count
                if kind == DISCARD:
                    exact[seat] = False
                else:
                    hands[seat] |= mask
            if not any(exact):
                return True
            if molodka:
                continue
            # Only the sizes of the other hands count for the baseline's choice.
            others = [(1 << size) - 1 for size in sizes]
            n = win_seat = win_mask = 0
            for i, (seat, kind, mask, count) in enumerate(plays):
                if exact[seat]:
                    key = (number, seat, hands[seat])
                    chosen = seen.get(key)
                    if chosen is None:
                        others[seat] = hands[seat]
                        chosen = seen[key] = baseline_move(
                            others,
                            seat,
                            [(p[0], p[1], p[2] or (1 << p[3]) - 1) for p in plays[:i]],
                            n,
                            win_seat,
                            win_mask,
                            world.trump,
                            world.trump_card,
                            holder,
                            stock,
                            gone,
                        )
                        others[seat] = (1 << sizes[seat]) - 1
                    if chosen != (kind, mask):
                        return False
                if i == 0:
                    n = count
                if kind != DISCARD:
                    win_seat, win_mask = seat, mask
        return True

    def _plays_agree(self, world: World) -> bool:
        """Whether each opponent's play to the current trick is what the baseline
        would have played from his hand in ``world``. A face-down discard agrees when
        the baseline would have discarded: the world's cards of that seat are then
        split between hand and discard as the baseline would have split them (the
        same cards, so the world still agrees with the view)."""
        plays = world.plays
        mine = self.seat & 1
        hands = start_hands(world.hands, plays)
        # A molodka is declared, not chosen as a lead.
        first = 1 if world.molodka_done else 0
        n = win_seat = win_mask = 0
        stock = len(world.stock)
        for i, (seat, kind, mask) in enumerate(plays):
            if i >= first and seat & 1 != mine:
                chosen_kind, chosen = baseline_move(
                    hands,
                    seat,
                    plays[:i],
                    n,
                    win_seat,
                    win_mask,
                    world.trump,
                    world.trump_card,
                    world.trump_holder,
                    stock,
                    world.gone,
                )
                if kind == DISCARD:
                    if chosen_kind != DISCARD:
                        return False
                    world.hands[seat] = hands[seat] ^ chosen
                    plays[i] = (seat, kind, chosen)
                    mask = chosen
                elif (chosen_kind, chosen) != (kind, mask):
                    return False
            hands[seat] ^= mask
            if i == 0:
                n = mask.bit_count()
            if kind != DISCARD:
                win_seat, win_mask = seat, mask
        return True

    def _molodka_agrees(self, world: World) -> bool:
        if world.molodka_done:
            world.molodka_seat = -1
            return True
        world.molodka_seat = molodka_seat_of(world.hands, world.plays, world.leader)
        return (world.molodka_seat == self.seat) == self.view.molodka

    def _place(self, rng: random.Random) -> World:
        base = self._base
        world = base.copy()
        table = self.view.table
        cards = list(indexes_of(self._unknown))
        trump_card = base.trump_card
        trump_slot: tuple[str, int] | None = None
        stock_size = table.stock_size
        trump_at = -1
        if self._trump_in_stock:
            cards.remove(trump_card)
            drawn = 20 - stock_size
            low, high = max(_TRUMP_FIRST, drawn), _TRUMP_LAST
            if low > high:
                low, high = drawn, 19
            trump_at = rng.randint(low, high) - drawn
        elif self._trump_slots:
            cards.remove(trump_card)
            trump_slot = self._trump_slots[int(rng.random() * len(self._trump_slots))]
        rng.shuffle(cards)
        pos = 0
        others, pile_hidden = self._slots
        hands = world.hands
        for seat in others:
            size = table.hand_sizes[seat]
            if trump_slot == ("hand", seat):
                size -= 1
                hands[seat] |= 1 << trump_card
            for card in cards[pos : pos + size]:
                hands[seat] |= 1 << card
            pos += size
        take = stock_size - (1 if trump_at >= 0 else 0)
        stock = cards[pos : pos + take]
        pos += take
        if trump_at >= 0:
            stock.insert(trump_at, trump_card)
        world.stock = stock
        plays = world.plays
        for index, count in self._hidden_plays:
            seat, kind, _ = plays[index]
            mask = 0
            if trump_slot == ("play", index):
                count -= 1
                mask = 1 << trump_card
            for card in cards[pos : pos + count]:
                mask |= 1 << card
            pos += count
            plays[index] = (seat, kind, mask)
        piles = world.piles
        for team in (0, 1):
            count = pile_hidden[team]
            if trump_slot == ("pile", team):
                count -= 1
                piles[team] |= 1 << trump_card
            for card in cards[pos : pos + count]:
                piles[team] |= 1 << card
            pos += count
        extra, tricks_a, tricks_b = self._extra_piles
        if extra > 0:
            share = tricks_a / max(tricks_a + tricks_b, 1)
            rest = cards[pos:]
            if trump_slot == ("extra", 0):
                rest.append(trump_card)
            for card in rest:
                piles[0 if rng.random() < share else 1] |= 1 << card
        return world
