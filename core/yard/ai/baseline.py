"""The baseline computer player ("Простак"): a one-trick look-ahead with card values.

Every legal action of the seat is given a value in team points (ours minus theirs)
and the best one is played:

- **This trick.** The chance that our team takes the trick after this action: the
  set now winning (ours, the partner's or an opponent's) against the players still
  to play, each of whom holds a random hand from the cards this seat cannot see.
  The trick is worth the points on the table (face-down discards at a guess), the
  cards this action adds, and what the players after us will add (a partner loads
  points onto a trick we win, an opponent dumps low cards).
- **The cards spent.** Each card kept in hand has a value: trumps win tricks later,
  the ace of a plain suit often does, low cards are what one discards. Spending a
  card costs its value.

So it beats only when the trick is worth the cards, with the cheapest set that is
likely to hold; it discards low cards onto the opponents' tricks and loads points
onto a trick its partner is sure to take; it does not beat its partner's winning set
unless the partner would lose the trick; it leads sets the opponents are unlikely to
beat. A molodka is decided at the start of the trick, like a lead of the four cards.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from math import comb

from core.cards import FULL_MASK, SUIT_BITS, indexes_of, mask_of
from core.yard.actions import Action, ActionKind
from core.yard.ai.counter import CardCounter
from core.yard.ai.players import RandomPlayer
from core.yard.deal import points_in
from core.yard.events import Event
from core.yard.rules import BEATERS
from core.yard.views import SeatView


@dataclass(frozen=True, slots=True)
class Weights:
    """The baseline's tunable numbers (team points unless said otherwise)."""

    plain: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.0, 2.0)
    """Value of keeping a plain-suit card, by rank 6..A."""
    trump: tuple[float, ...] = (5.0, 5.5, 6.0, 6.5, 7.0, 8.0, 9.0, 15.0, 19.0)
    """Value of keeping a trump, by rank 6..A."""
    load: float = 2.5
    """Points guessed per card discarded onto one's own team's trick."""
    dump: float = 1.0
    """Points guessed per card discarded onto the other team's trick."""
    will: float = 0.8
    """Chance that a player who can beat a set does beat it."""
    overtake: float = 0.3
    """What beating one's partner's winning set must gain over discarding."""
    molodka_min: float = -1e9
    """Declare a molodka when its value as a lead is at least this. By default always:
    declaring beat every threshold tried, even when the partner was to lead."""


DEFAULT_WEIGHTS = Weights()

MOLODKA = ActionKind.MOLODKA
BEAT = ActionKind.BEAT
DISCARD = ActionKind.DISCARD


@cache
def at_least(unseen: int, useful: int, hand: int, need: int) -> float:
    """Chance that ``hand`` cards drawn from ``unseen`` hold ``need`` of ``useful``."""
    hand = min(hand, unseen)
    if need > hand or need > useful:
        return 0.0
    if need <= 0:
        return 1.0
    total = comb(unseen, hand)
    hits = sum(comb(useful, j) * comb(unseen - useful, hand - j) for j in range(need, hand + 1))
    return hits / total


def _mask(action: Action) -> int:
    return mask_of(action.cards)


class SeatTrick:
    """What one seat knows of the trick in front of it, in the engine's form."""

    __slots__ = (
        "after",
        "hand_sizes",
        "known",
        "known_seat",
        "seat",
        "table_points",
        "trump",
        "unseen",
        "unseen_count",
        "weights",
        "win_mask",
        "win_seat",
    )

    def __init__(self, view: SeatView, gone: int, weights: Weights) -> None:
        table = view.table
        seat = view.seat
        self.seat = seat
        self.weights = weights
        self.trump = int(table.trump)
        self.hand_sizes = table.hand_sizes
        hand = mask_of(view.hand)
        face_up = 0
        points = 0.0
        win_mask = 0
        winner = -1
        for played in table.plays:
            if played.face_down:
                # Onto his own team's trick one loads points; onto the other's, low cards.
                loading = (played.seat - winner) % 2 == 0
                points += played.count * (weights.load if loading else weights.dump)
            else:
                cards = mask_of(played.cards)
                face_up |= cards
                points += points_in(cards)
                win_mask = cards
                winner = played.seat
        self.table_points = points
        self.win_mask = win_mask
        self.win_seat = table.winning_seat
        unseen = FULL_MASK & ~(hand | face_up | gone)
        # The trump card shown at the deal is in the stock until drawn, then (unless
        # seen played) in its holder's hand.
        holder = table.trump_card_holder
        known = 1 << table.trump_card.index
        self.known = 0
        self.known_seat = -1
        if unseen & known and (holder is not None or table.stock_size > 0):
            unseen &= ~known
            if holder is not None and holder != seat:
                self.known = known
                self.known_seat = holder
        self.unseen = unseen
        self.unseen_count = unseen.bit_count()
        first = table.plays[0].seat if table.plays else seat
        done = len(table.plays) + (0 if table.plays else 1)
        if table.plays and table.turn != seat:
            done = 4  # not our turn: nobody is "after" us
        self.after = tuple((first + k) & 3 for k in range(done, 4) if (first + k) & 3 != seat)

    def can_beat(self, cards: int, seat: int) -> float:
        """Chance that ``seat`` holds a set that beats ``cards``."""
        table = BEATERS[self.trump]
        unseen = self.unseen
        pools = sorted(
            (table[i] for i in indexes_of(cards)), key=lambda m: (m & unseen).bit_count()
        )
        size = self.hand_sizes[seat]
        known = self.known if seat == self.known_seat else 0
        if known:
            size -= 1
        chance = 1.0
        union = 0
        for need, pool in enumerate(pools, 1):
            union |= pool
            held = need - 1 if union & known else need
            useful = (union & unseen).bit_count()
            chance = min(chance, at_least(self.unseen_count, useful, size, held))
        return chance

    def keeps(self, cards: int, team: int, after: tuple[int, ...]) -> float:
        """Chance that ``team`` keeps the trick won by ``cards``, ``after`` playing next."""
        chance = 1.0
        will = self.weights.will
        for other in after:
            if other & 1 != team:
                chance *= 1.0 - will * self.can_beat(cards, other)
        return chance

    def value(
        self, cards: int, win_mask: int, win_team: int, after: tuple[int, ...] | None = None
    ) -> float:
        """Value for our team of adding ``cards`` to the trick, the trick then won by
        ``win_mask`` of ``win_team``, with ``after`` (by default the seats still to
        play) playing next."""
        weights = self.weights
        mine = self.seat & 1
        if after is None:
            after = self.after
        keep = self.keeps(win_mask, win_team, after)
        ours = keep if win_team == mine else 1.0 - keep
        size = cards.bit_count()
        partners = sum(1 for other in after if other & 1 == mine)
        opponents = len(after) - partners
        base = self.table_points + points_in(cards)
        if_won = base + size * (weights.load * partners + weights.dump * opponents)
        if_lost = base + size * (weights.dump * partners + weights.load * opponents)
        return ours * if_won - (1.0 - ours) * if_lost - self.spent(cards)

    def spent(self, cards: int) -> float:
        """The value of the cards as kept in hand."""
        weights = self.weights
        low = self.trump * SUIT_BITS
        total = 0.0
        for i in indexes_of(cards):
            rank = i % SUIT_BITS
            total += weights.trump[rank] if low <= i < low + SUIT_BITS else weights.plain[rank]
        return total

    def action_value(self, action: Action) -> float:
        """The value of a lead, a beat or a discard."""
        cards = _mask(action)
        mine = self.seat & 1
        if action.kind is DISCARD:
            win_seat = self.win_seat if self.win_seat is not None else self.seat
            return self.value(cards, self.win_mask, win_seat & 1)
        value = self.value(cards, cards, mine)
        if action.kind is BEAT and self.win_seat is not None and self.win_seat & 1 == mine:
            value -= self.weights.overtake
        return value


def cost_key(action: Action) -> tuple[int, int, int]:
    """Ties go to a discard (it shows nothing), then to the set of fewer points, then
    to a fixed order of cards."""
    cards = _mask(action)
    points = points_in(cards)
    return (action.kind is DISCARD, -points, -cards)


class BaselinePlayer:
    """The baseline computer player ("Простак"). See the module docs.

    ``counter``, when given, remembers the face-up cards of finished tricks (feed it
    through :meth:`observe`); without it the player judges from the view alone. The
    choice is deterministic: the ``rng`` of :meth:`choose` is not used.

    >>> from core.yard.deal import Deal
    >>> deal = Deal.shuffled(3, random.Random(1))
    >>> BaselinePlayer().choose(deal.view(0), random.Random(0)) in deal.legal_actions(0)
    True
    """

    __slots__ = ("counter", "weights")

    #: It answers at once: the application asks it on its event loop
    #: (core.ruleset.Computer).
    searches = False

    def __init__(
        self, counter: CardCounter | None = None, weights: Weights = DEFAULT_WEIGHTS
    ) -> None:
        self.counter = counter
        self.weights = weights

    def observe(self, event: Event) -> None:
        """Feed a public event to the card counter, if there is one."""
        if self.counter is not None:
            self.counter.observe(event)

    def choose(self, view: SeatView, rng: random.Random) -> Action | None:
        """The best-valued legal action on the seat's turn; a molodka at the start of
        the trick when it is worth declaring; otherwise None."""
        table = view.table
        may_declare = view.molodka and not table.plays
        if not view.legal or (table.turn != view.seat and not may_declare):
            return None
        gone = self.counter.gone if self.counter is not None else 0
        trick = SeatTrick(view, gone, self.weights)
        if may_declare:
            molodka = next((a for a in view.legal if a.kind is MOLODKA), None)
            if molodka is not None and self._wants_molodka(view, trick):
                return molodka
        if table.turn != view.seat:
            return None
        return _best_action(view, trick)

    def _wants_molodka(self, view: SeatView, trick: SeatTrick) -> bool:
        """Whether the molodka, led now, is worth at least ``molodka_min``."""
        cards = mask_of(view.hand)
        after = tuple((view.seat + k) & 3 for k in (1, 2, 3))
        return trick.value(cards, cards, view.seat & 1, after) >= self.weights.molodka_min

    def __repr__(self) -> str:
        return "BaselinePlayer()" if self.counter is None else "BaselinePlayer(counter)"


def _best_action(view: SeatView, trick: SeatTrick) -> Action:
    """The best-valued action of the turn seat, a molodka aside."""
    best: Action | None = None
    best_key: tuple[float, tuple[int, int, int]] | None = None
    for action in view.legal:
        if action.kind is MOLODKA:
            continue
        key = (trick.action_value(action), cost_key(action))
        if best_key is None or key > best_key:
            best, best_key = action, key
    if best is None:
        raise ValueError("no legal action other than a molodka")
    return best


class EasyPlayer:
    """The ``easy`` level: the baseline without a card memory, that plays a random
    legal action instead in ``careless`` of its turns (molodka decisions included).

    >>> from core.yard.deal import Deal
    >>> deal = Deal.shuffled(3, random.Random(1))
    >>> EasyPlayer().choose(deal.view(0), random.Random(2)) in deal.legal_actions(0)
    True
    """

    __slots__ = ("careless",)

    #: It answers at once: the application asks it on its event loop
    #: (core.ruleset.Computer).
    searches = False

    def __init__(self, careless: float = 0.4) -> None:
        self.careless = careless

    def choose(self, view: SeatView, rng: random.Random) -> Action | None:
        if view.legal and rng.random() < self.careless:
            if view.table.turn == view.seat:
                return RandomPlayer().choose(view, rng)
            return None
        return BaselinePlayer().choose(view, rng)

    def __repr__(self) -> str:
        return f"EasyPlayer({self.careless})"
