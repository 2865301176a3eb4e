"""The classic search computer player: sampled worlds, each card played out.

In the tricks (docs/rules/reference.md §2.10) the player samples *worlds*: the other three
hands dealt anew from the cards its seat has not seen, consistently with all it knows
(:class:`ClassicSampler`). It plays every legal card in every world (the same worlds
for all cards) and plays the world to the deal's end with a fast greedy policy that
looks at the world's hands (:func:`playout`); the card of the best mean value is played
(perfect-information Monte Carlo, as for yard in :mod:`core.yard.ai.search`). Elsewhere (the
praise, the lays, the naming, offers, answers and redeals) it decides as the baseline
:class:`~core.classic.ai.ClassicComputer` does.

A world agrees with the seat's view:

- the seat's own hand is its own, and a card seen (the tricks taken, the trick on the
  table) is in no hidden hand;
- every other hand gets exactly as many cards as it holds;
- the simple declarer's face-up cards are in his hand, and the card this seat gave its
  partner in a last-trump exchange is in the partner's hand (until played);
- a seat that did not follow a led suit (or a trump lead) holds none of it, and one that
  led a trump while it could only lead plain cards when holding one holds no plain card.

The value of a deal's end, for the searching team, is its pairs won or lost (1, 2 from
90 points, 4 for a kocherga catch, one more when the losers took no trick — Люся),
plus ``weight`` times the card-point margin over 60, in sixties (:func:`utility`).
Every bound is a count (worlds), never a clock: the same view and random numbers give
the same choice.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from core.classic.actions import ClassicAction, ClassicActionKind
from core.classic.ai import ClassicComputer, possible_holdings
from core.classic.cards import (
    CARDS,
    FULL_MASK,
    KOCHERGA,
    POINTS,
    QUEEN_OF_CLUBS,
    SUIT_SIZE,
    Trumps,
    bits,
    index_of,
    mask_of,
    table_for,
)
from core.classic.dealing import ACES_OF_LED, duties, trump_leaders
from core.classic.options import ClassicOptions, Follow
from core.classic.scoring import KOCHERGA_PAIRS, TWO_PAIR_POINTS
from core.classic.views import ClassicSeatView

K = ClassicActionKind
#: Tries of the quick placement before the careful one (:meth:`ClassicSampler.sample`).
PLACE_TRIES = 64


@dataclass(frozen=True, slots=True)
class ClassicSearchSettings:
    """How hard the classic search player looks (all counts)."""

    worlds: int = 40
    """Worlds sampled per decision."""
    explore: float = 0.0
    """Chance of a random legal card at each step of a playout."""
    weight: float = 0.5
    """Value of a 60-point margin, in pairs."""


CLASSIC_STRONG = ClassicSearchSettings()


@dataclass(slots=True)
class Rules:
    """What a playout needs of the deal's rules: the trump table, the follow duties,
    the ace ban and who may lead trumps (a bit per seat)."""

    table: Trumps
    duty1: tuple[int, ...]
    duty2: tuple[int, ...]
    banned_aces: int
    free_leaders: int

    @classmethod
    def of(cls, view: ClassicSeatView, options: ClassicOptions) -> Rules:
        trump = view.table.trump
        table = table_for(-1 if trump is None else int(trump), options.kocherga)
        duty1, duty2 = duties(table, options.follow is Follow.ANY_TRUMP)
        declarer = view.table.declarer
        free = trump_leaders(options, view.table.dealer, -1 if declarer is None else declarer)
        return cls(table, duty1, duty2, table.plain_aces if options.ace_ban else 0, free)


@dataclass(slots=True)
class ClassicWorld:
    """The tricks' state with every hand placed. Plain ints and bitmasks."""

    hands: list[int]
    trick: list[int]
    """The current trick's cards in play order, from ``leader``."""
    leader: int
    turn: int
    win_seat: int
    win_card: int
    qc_seat: int
    """The seat that played Q♣ to the current trick, or -1."""
    led: int
    """The plain suits led so far (a bit per suit), for the ace ban."""
    points: list[int]
    tricks: list[int]
    caught: int = -1
    """The team that caught Q♣ with the kocherga (the deal is over), or -1."""

    def copy(self) -> ClassicWorld:
        return ClassicWorld(
            list(self.hands),
            list(self.trick),
            self.leader,
            self.turn,
            self.win_seat,
            self.win_card,
            self.qc_seat,
            self.led,
            list(self.points),
            list(self.tricks),
            self.caught,
        )

    @property
    def over(self) -> bool:
        return self.caught >= 0 or not any(self.hands)


def legal_mask(world: ClassicWorld, rules: Rules) -> int:
    """The cards the seat to play may play (docs/rules/reference.md §2.10)."""
    hand = world.hands[world.turn]
    trick = world.trick
    if not trick:
        if rules.free_leaders >> world.turn & 1:
            return hand
        return hand & ~rules.table.trumps or hand
    lead = trick[0]
    must = hand & rules.duty1[lead] or hand & rules.duty2[lead]
    if must:
        return must
    if rules.banned_aces:
        free = hand & ~(rules.banned_aces & ~ACES_OF_LED[world.led])
        if free:
            return free
    return hand


def step(world: ClassicWorld, rules: Rules, card: int) -> None:
    """Play one legal card (the trick is taken when complete; a kocherga catch ends
    the deal)."""
    seat = world.turn
    world.hands[seat] ^= 1 << card
    trick = world.trick
    table = rules.table
    if not trick:
        world.win_seat, world.win_card = seat, card
        if not table.trumps >> card & 1:
            world.led |= 1 << (card // SUIT_SIZE)
    else:
        qc_seat = world.qc_seat
        if card == KOCHERGA and table.kocherga and qc_seat >= 0 and (qc_seat ^ seat) & 1:
            world.caught = seat & 1
            return
        if table.beaten_by[world.win_card] >> card & 1:
            world.win_seat, world.win_card = seat, card
    if card == QUEEN_OF_CLUBS:
        world.qc_seat = seat
    trick.append(card)
    if len(trick) < 4:
        world.turn = (seat + 1) & 3
        return
    team = world.win_seat & 1
    world.points[team] += POINTS[trick[0]] + POINTS[trick[1]] + POINTS[trick[2]] + POINTS[trick[3]]
    world.tricks[team] += 1
    world.trick = []
    world.qc_seat = -1
    world.leader = world.turn = world.win_seat


def _can_beat(world: ClassicWorld, rules: Rules, card: int, seat: int, after: int) -> bool:
    """Whether an opponent of ``seat`` among the ``after`` next players could play a
    card that beats ``card`` (winning now) to the current trick, led by ``lead``."""
    hands = world.hands
    lead = world.trick[0] if world.trick else card
    beaters = rules.table.beaten_by[card]
    for offset in range(1, after + 1):
        other = (seat + offset) & 3
        if not (other ^ seat) & 1:
            continue
        hand = hands[other]
        if not hand & beaters:
            continue
        must = hand & rules.duty1[lead] or hand & rules.duty2[lead] or hand
        if must & beaters:
            return True
    return False


def _cheap_key(table: Trumps, card: int) -> tuple[int, int, int]:
    return (table.trumps >> card & 1, POINTS[card], table.rank[card])


def choose_card(world: ClassicWorld, rules: Rules, legal: int) -> int:
    """The greedy policy's card (it sees the world's hands):

    - lead the richest card no opponent can beat, else the cheapest card;
    - catch Q♣ with the kocherga whenever it can;
    - on the partner's sure trick, load the richest plain card;
    - against an opponent's winning card, beat with the cheapest card that no opponent
      after it can beat, when the trick or the card holds points;
    - otherwise dump the cheapest card (never Q♣ while an opponent after holds 7♣).
    """
    table = rules.table
    seat = world.turn
    trick = world.trick
    cards = list(bits(legal))
    if len(cards) == 1:
        return cards[0]
    if not trick:
        safe = [c for c in cards if not _can_beat(world, rules, c, seat, 3)]
        if safe:
            return max(safe, key=lambda c: (POINTS[c], table.trumps >> c & 1, -c))
        return min(cards, key=lambda c: _cheap_key(table, c))
    qc_seat = world.qc_seat
    if legal >> KOCHERGA & 1 and table.kocherga and qc_seat >= 0 and (qc_seat ^ seat) & 1:
        return KOCHERGA
    after = 3 - len(trick)
    if world.win_seat == (seat ^ 2):
        if not _can_beat(world, rules, world.win_card, seat, after):
            return max(cards, key=lambda c: (POINTS[c] - 20 * (table.trumps >> c & 1), -c))
    else:
        beaters = [c for c in cards if table.beaten_by[world.win_card] >> c & 1]
        beaters.sort(key=lambda c: (table.rank[c], c))
        on_table = sum(POINTS[c] for c in trick)
        for c in beaters:
            if c == QUEEN_OF_CLUBS and _kocherga_after(world, seat, after, table):
                continue
            if not _can_beat(world, rules, c, seat, after):
                if on_table + POINTS[c] > 0 or not table.trumps >> c & 1:
                    return c
                break
    guarded = _kocherga_after(world, seat, after, table)
    dumps = [c for c in cards if c != QUEEN_OF_CLUBS or not guarded]
    return min(dumps or cards, key=lambda c: _cheap_key(table, c))


def _kocherga_after(world: ClassicWorld, seat: int, after: int, table: Trumps) -> bool:
    if not table.kocherga:
        return False
    for offset in range(1, after + 1):
        other = (seat + offset) & 3
        if (other ^ seat) & 1 and world.hands[other] >> KOCHERGA & 1:
            return True
    return False


def playout(world: ClassicWorld, rules: Rules, rand: random.Random, explore: float) -> None:
    """Play ``world`` to the deal's end with the greedy policy (changing it)."""
    while not world.over:
        legal = legal_mask(world, rules)
        if explore and rand.random() < explore:
            options = list(bits(legal))
            card = options[int(rand.random() * len(options))]
        else:
            card = choose_card(world, rules, legal)
        step(world, rules, card)


def utility(world: ClassicWorld, team: int, weight: float) -> float:
    """What the end of ``world``'s deal is worth to ``team``, in pairs (see the module)."""
    if world.caught >= 0:
        return float(KOCHERGA_PAIRS if world.caught == team else -KOCHERGA_PAIRS) + (
            weight if world.caught == team else -weight
        )
    mine, theirs = world.points[team], world.points[team ^ 1]
    margin = weight * (mine - theirs) / 120
    if mine == theirs:
        return margin
    won = mine > theirs
    winner_points = mine if won else theirs
    pairs = 2.0 if winner_points >= TWO_PAIR_POINTS else 1.0
    if world.tricks[team ^ 1 if won else team] == 0:
        pairs += 1.0  # Люся: the losers' pairs drop to nothing
    return (pairs if won else -pairs) + margin


class ClassicSampler:
    """Samples worlds for one seat's view (all but the placement worked out once)."""

    __slots__ = ("_base", "_cards", "_fixed", "_holds", "_others", "_sizes", "seat")

    def __init__(self, view: ClassicSeatView, options: ClassicOptions, rules: Rules) -> None:
        table = view.table
        self.seat = seat = view.seat
        hand = mask_of(view.hand)
        trick_cards = [index_of(p.card) for p in table.trick]
        seen = hand | mask_of(table.taken) | mask_of(p.card for p in table.trick)
        unknown = FULL_MASK & ~seen
        holds = possible_holdings(rules.table, options, table.played, unknown)
        # A seat that led a trump while only free leaders may holds no plain card.
        for start in range(0, len(table.played), 4):
            lead = table.played[start]
            card = index_of(lead.card)
            if not rules.free_leaders >> lead.seat & 1 and rules.table.trumps >> card & 1:
                holds[lead.seat] &= rules.table.trumps
        fixed = [0, 0, 0, 0]
        if table.declarer is not None and table.declarer != seat:
            fixed[table.declarer] |= mask_of(table.shown) & unknown
        exchange = view.exchange
        if exchange is not None:
            other = exchange.partner if exchange.offerer == seat else exchange.offerer
            given = index_of(exchange.given)
            if unknown >> given & 1:
                fixed[other] |= 1 << given
        self._others = others = [s for s in range(4) if s != seat]
        taken = 0
        for s in others:
            taken |= fixed[s]
            holds[s] = (holds[s] | fixed[s]) & unknown
        self._fixed = fixed
        self._holds = holds
        self._sizes = [table.hand_sizes[s] - fixed[s].bit_count() for s in range(4)]
        self._cards = list(bits(unknown & ~taken))
        leader = table.leader if table.leader is not None else seat
        win_seat, win_card = leader, -1
        qc_seat = -1
        for i, card in enumerate(trick_cards):
            player = (leader + i) & 3
            if i == 0 or rules.table.beaten_by[win_card] >> card & 1:
                win_seat, win_card = player, card
            if card == QUEEN_OF_CLUBS:
                qc_seat = player
        led = 0
        for suit in table.led_suits:
            led |= 1 << int(suit)
        points = list(table.points)
        self._base = ClassicWorld(
            hands=[hand if s == seat else fixed[s] for s in range(4)],
            trick=trick_cards,
            leader=leader,
            turn=table.turn if table.turn is not None else seat,
            win_seat=win_seat,
            win_card=win_card,
            qc_seat=qc_seat,
            led=led,
            points=points,
            tricks=list(table.tricks),
        )

    def sample(self, rng: random.Random) -> ClassicWorld:
        """One world that agrees with the view: a quick random placement (each card, the
        most constrained first, to a seat it may be in, by the room left), retried; then
        a careful one that backtracks."""
        for _ in range(PLACE_TRIES):
            world = self._place(rng)
            if world is not None:
                return world
        world = self._careful(rng)
        assert world is not None, "the view allows no world"
        return world

    def _order(self, rng: random.Random) -> list[int]:
        cards = list(self._cards)
        rng.shuffle(cards)
        holds = self._holds
        others = self._others
        cards.sort(key=lambda c: sum(holds[s] >> c & 1 for s in others))
        return cards

    def _place(self, rng: random.Random) -> ClassicWorld | None:
        holds, others = self._holds, self._others
        room = list(self._sizes)
        world = self._base.copy()
        hands = world.hands
        for card in self._order(rng):
            total = 0
            for s in others:
                if holds[s] >> card & 1:
                    total += room[s]
            if total == 0:
                return None
            pick = int(rng.random() * total)
            for s in others:
                if holds[s] >> card & 1 and room[s]:
                    if pick < room[s]:
                        hands[s] |= 1 << card
                        room[s] -= 1
                        break
                    pick -= room[s]
        return world

    def _careful(self, rng: random.Random) -> ClassicWorld | None:
        holds, others = self._holds, self._others
        cards = self._order(rng)
        room = list(self._sizes)
        world = self._base.copy()
        hands = world.hands

        def place(i: int) -> bool:
            if i == len(cards):
                return True
            card = cards[i]
            seats = [s for s in others if holds[s] >> card & 1 and room[s]]
            rng.shuffle(seats)
            for s in seats:
                room[s] -= 1
                hands[s] |= 1 << card
                if place(i + 1):
                    return True
                hands[s] ^= 1 << card
                room[s] += 1
            return False

        return world if place(0) else None


class ClassicSearchPlayer:
    """The classic search player (see the module). Use one per seat and per game.

    >>> from core.classic.dealing import Dealing
    >>> dealing = Dealing.shuffled(ClassicOptions(), 3, random.Random(2))
    >>> player = ClassicSearchPlayer(random.Random(0), ClassicSearchSettings(worlds=4))
    >>> action = player.choose(dealing.view(dealing.turn), dealing.options)
    >>> action is not None and dealing.can(action)
    True
    """

    #: It searches: the application asks it off its event loop (core.ruleset.Computer).
    searches = True

    def __init__(
        self, rng: random.Random | None = None, settings: ClassicSearchSettings = CLASSIC_STRONG
    ) -> None:
        self.rng = rng or random.Random()
        self.settings = settings
        self.baseline = ClassicComputer(self.rng)

    def choose(self, view: ClassicSeatView, options: ClassicOptions) -> ClassicAction | None:
        plays = [a for a in view.legal if a.kind is K.PLAY]
        if not plays or view.table.turn != view.seat:
            return self.baseline.choose(view, options)
        if len(plays) != len(view.legal):
            # Before the first card: an offer or a redeal as the baseline wants them.
            action = self.baseline.choose(view, options)
            if action is None or action.kind is not K.PLAY:
                return action
        if len(plays) == 1:
            return plays[0]
        cards = [index_of(a.card) for a in plays if a.card is not None]
        values = self.values(view, options, cards, self.rng.getrandbits(64))
        best = max(range(len(cards)), key=lambda i: (values[i], -cards[i]))
        return ClassicAction.play(view.seat, CARDS[cards[best]])

    def values(
        self, view: ClassicSeatView, options: ClassicOptions, cards: list[int], seed: int
    ) -> list[float]:
        """The total value of each card over the sampled worlds (the same for all)."""
        settings = self.settings
        rules = Rules.of(view, options)
        sampler = ClassicSampler(view, options, rules)
        rng = random.Random(seed)
        team = view.seat & 1
        totals = [0.0] * len(cards)
        for _ in range(settings.worlds):
            world = sampler.sample(rng)
            playout_seed = rng.getrandbits(32)
            for i, card in enumerate(cards):
                played = world.copy()
                step(played, rules, card)
                playout(played, rules, random.Random(playout_seed), settings.explore)
                totals[i] += utility(played, team, settings.weight)
        return totals


__all__ = [
    "CLASSIC_STRONG",
    "ClassicSampler",
    "ClassicSearchPlayer",
    "ClassicSearchSettings",
    "ClassicWorld",
    "Rules",
    "choose_card",
    "legal_mask",
    "playout",
    "step",
    "utility",
]
