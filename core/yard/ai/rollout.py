"""Fast playouts of a :class:`~core.yard.ai.worlds.World` with a greedy policy.

The search player values an action in a sampled world by playing the world to its
end. Random play is a poor judge (any greedy player beats it in nine deals of ten),
so the playouts use a cheap greedy policy, with a little randomness:

- **lead**: every card of the longest plain suit (the richer suit on a tie); with
  trumps alone, the lowest trump, or all of them when they are four;
- **follow** an opponent's winning set: beat it with the cheapest beating set when
  the trick is worth the cards (points on the table and in the set against the
  value of the cards as kept, as the baseline counts them); otherwise discard
  the cards least worth keeping;
- **follow** the partner's winning set: the last to play loads points onto it
  (plain aces and tens first), the others discard what is least worth keeping;
- a molodka is declared at the start of the trick, as the rules ask of bots;
- with probability ``explore`` a uniformly random legal action instead.

``sighted`` playouts let the policy look at the world's hands (it is a sampled world,
so nothing real is revealed): a beat is made only with the cheapest set that no
opponent still to play can beat, at half the price, and points are loaded onto the
partner's set when no opponent still to play can beat it.

Everything is plain ints and bitmasks; one playout of a whole deal costs some tens
of microseconds in Python and about three in C (:mod:`core.yard.ai._playout`, built from
``core/yard/ai/_playout.c`` when a C compiler is at hand: :func:`playout` and
:func:`played_out` use it, with the same plays, and the Python stays as the
reference and the fallback).

:func:`baseline_playout` makes a playout's first plays (or all of them) by the
baseline's own choices (:func:`core.yard.ai.policy.baseline_move`), each seat from what
it would see (not sighted), and hands the rest to :func:`playout`: slower (about
a tenth of a millisecond a play), but the opponents at a table of ``normal``
computers play exactly so.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from types import ModuleType

from core.cards import DECK_SIZE, SUIT_BITS, SUIT_MASK, indexes_of
from core.yard.ai.baseline import DEFAULT_WEIGHTS
from core.yard.ai.policy import SPENT, baseline_move
from core.yard.ai.worlds import World
from core.yard.deal import (
    BEAT,
    DISCARD,
    HAND_SIZE,
    LEAD,
    MOLODKA,
    MOLODKA_HANDS,
    beat_masks,
    lead_masks,
    points_in,
    single_masks,
    subset_masks,
)
from core.yard.rules import BEATERS

#: Value of keeping a card, by rank 6..A: the baseline's weights.
_PLAIN_KEEP = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.0, 2.0)
_TRUMP_KEEP = (5.0, 5.5, 6.0, 6.5, 7.0, 8.0, 9.0, 15.0, 19.0)

#: KEEP[trump][card]: what a card is worth in hand.
KEEP: tuple[tuple[float, ...], ...] = tuple(
    tuple(
        (_TRUMP_KEEP if card // SUIT_BITS == trump else _PLAIN_KEEP)[card % SUIT_BITS]
        for card in range(DECK_SIZE)
    )
    for trump in range(4)
)
_POINTS = tuple((0, 0, 0, 0, 2, 3, 4, 10, 11)[card % SUIT_BITS] for card in range(DECK_SIZE))

#: A beat is worth it when the trick's points reach this share of the cards' value.
BEAT_FACTOR = 1.0

_COST: dict[tuple[int, int], float] = {}


def keep_value(trump: int, mask: int) -> float:
    """What the cards of ``mask`` are worth kept in hand."""
    key = (trump, mask)
    found = _COST.get(key)
    if found is None:
        keep = KEEP[trump]
        found = _COST[key] = sum(keep[i] for i in indexes_of(mask))
    return found


_LEAD_CHOICE: dict[tuple[int, int], int] = {}


def greedy_lead(hand: int, trump: int) -> int:
    """The policy's lead from ``hand``."""
    key = (hand, trump)
    found = _LEAD_CHOICE.get(key)
    if found is not None:
        return found
    best = 0
    best_key: tuple[int, int, int] = (-1, -1, -1)
    for suit in range(4):
        if suit == trump:
            continue
        part = hand & (SUIT_MASK << (suit * SUIT_BITS))
        if part:
            rank_key = (part.bit_count(), points_in(part), part)
            if rank_key > best_key:
                best, best_key = part, rank_key
    if not best:
        trumps = hand
        if trumps.bit_count() == HAND_SIZE:
            best = trumps
        else:
            best = trumps & -trumps
    _LEAD_CHOICE[key] = best
    return best


_DISCARD_CHOICE: dict[tuple[int, int, int, bool], int] = {}
#: Discard order keys by trump and card: least worth keeping first (plus points when
#: dumping, minus points when loading).
_DUMP_ORDER = tuple(tuple((KEEP[t][i] + _POINTS[i], i) for i in range(DECK_SIZE)) for t in range(4))
_LOAD_ORDER = tuple(tuple((KEEP[t][i] - _POINTS[i], i) for i in range(DECK_SIZE)) for t in range(4))


def greedy_discard(hand: int, n: int, trump: int, load: bool) -> int:
    """The policy's ``n`` cards to throw face down: what is least worth keeping,
    and when ``load``-ing onto the partner's trick, points first."""
    key = (hand, n, trump, load)
    found = _DISCARD_CHOICE.get(key)
    if found is not None:
        return found
    order = (_LOAD_ORDER if load else _DUMP_ORDER)[trump]
    cards = sorted(indexes_of(hand), key=order.__getitem__)
    mask = 0
    for i in cards[:n]:
        mask |= 1 << i
    _POINTS_OF[mask] = points_in(mask)
    _DISCARD_CHOICE[key] = mask
    return mask


def _cheapest(beats: tuple[int, ...], trump: int) -> tuple[int, float]:
    best = beats[0]
    best_cost = keep_value(trump, best) - points_in(best) * 0.01
    for mask in beats[1:]:
        cost = keep_value(trump, mask) - points_in(mask) * 0.01
        if cost < best_cost:
            best, best_cost = mask, cost
    return best, keep_value(trump, best)


_BY_COST: dict[tuple[tuple[int, ...], int], tuple[int, ...]] = {}


def _by_cost(beats: tuple[int, ...], trump: int) -> tuple[int, ...]:
    key = (beats, trump)
    found = _BY_COST.get(key)
    if found is None:
        found = _BY_COST[key] = tuple(
            sorted(beats, key=lambda m: (keep_value(trump, m) - points_in(m) * 0.01, m))
        )
    return found


def _holds(hands: list[int], mask: int, seat: int, after: int, trump: int) -> bool:
    """Whether no opponent of ``seat`` among the ``after`` next players can beat
    ``mask`` (the world's hands are open to the playout)."""
    beaters = BEATERS[trump]
    n = mask.bit_count()
    for offset in range(1, after + 1):
        other = (seat + offset) & 3
        if (other ^ seat) & 1 == 0:
            continue
        hand = hands[other]
        if n == 1:
            if hand & beaters[mask.bit_length() - 1]:
                return False
        elif beat_masks(hand, mask, trump):
            return False
    return True


#: The policy's beating facts by (hand, winning set, trump): the beating sets, the
#: cheapest, its points and the points a trick must be worth to beat with it.
_FOLLOW: dict[tuple[int, int, int], tuple[tuple[int, ...], int, int, float]] = {}
#: Card points of the sets played in playouts (a zero is looked up again).
_POINTS_OF: dict[int, int] = {}
#: The caches above are cleared when they grow past this many entries.
CACHE_LIMIT = 1 << 18


def _follow_entry(hand: int, win_mask: int, trump: int) -> tuple[tuple[int, ...], int, int, float]:
    n = win_mask.bit_count()
    if n == 1:
        useful = hand & BEATERS[trump][win_mask.bit_length() - 1]
        beats = single_masks(useful) if useful else ()
    else:
        beats = beat_masks(hand, win_mask, trump)
    best, cost, points = 0, 0.0, 0
    if beats:
        best, cost = _cheapest(beats, trump)
        points = points_in(best)
    if len(_FOLLOW) > CACHE_LIMIT:
        _FOLLOW.clear()
        _POINTS_OF.clear()
        _DISCARD_CHOICE.clear()
    entry = (beats, best, points, cost * BEAT_FACTOR - points)
    _FOLLOW[(hand, win_mask, trump)] = entry
    for mask in beats:
        _POINTS_OF[mask] = points_in(mask)
    return entry


def legal_moves(world: World) -> list[tuple[int, int]]:
    """The turn seat's legal ``(kind, mask)`` actions (molodka aside)."""
    hand = world.hands[world.turn]
    n = world.n
    if n == 0:
        return [(LEAD, m) for m in lead_masks(hand)]
    if n == 1:
        useful = hand & BEATERS[world.trump][world.win_mask.bit_length() - 1]
        beats = single_masks(useful) if useful else ()
        discards = single_masks(hand)
    else:
        beats = beat_masks(hand, world.win_mask, world.trump)
        discards = subset_masks(hand, n)
    return [(BEAT, m) for m in beats] + [(DISCARD, m) for m in discards]


def step(world: World, seat: int, kind: int, mask: int) -> None:
    """Apply one legal action to ``world`` (a molodka ignores ``mask``): the trick
    is taken, cards drawn and the next trick started as the engine does."""
    hands = world.hands
    if kind == MOLODKA:
        for played_seat, _, played in world.plays:
            hands[played_seat] |= played
        mask = hands[seat]
        hands[seat] = 0
        world.plays = [(seat, LEAD, mask)]
        world.n = HAND_SIZE
        world.win_seat, world.win_mask = seat, mask
        world.turn = (seat + 1) & 3
        world.molodka_done, world.molodka_seat = True, -1
        return
    hands[seat] ^= mask
    plays = world.plays
    plays.append((seat, kind, mask))
    if kind == LEAD:
        world.n = mask.bit_count()
    if kind != DISCARD:
        world.win_seat, world.win_mask = seat, mask
    if len(plays) < 4:
        world.turn = (seat + 1) & 3
        return
    _finish_trick(world)


def _finish_trick(world: World) -> None:
    plays = world.plays
    hands = world.hands
    winner = world.win_seat
    team = winner & 1
    world.piles[team] |= plays[0][2] | plays[1][2] | plays[2][2] | plays[3][2]
    for _, kind, mask in plays:
        if kind != DISCARD:
            world.gone |= mask
    world.tricks[team] += 1
    world.last_winner = winner
    stock = world.stock
    if stock:
        count = min(4 * (HAND_SIZE - hands[winner].bit_count()), len(stock))
        for i in range(count):
            card = stock[i]
            hands[(winner + i) & 3] |= 1 << card
            if card == world.trump_card:
                world.trump_holder = (winner + i) & 3
        del stock[:count]
    world.trick_no += 1
    world.leader = world.turn = world.win_seat = winner
    world.plays = []
    world.n = world.win_mask = 0
    world.molodka_done = False
    world.molodka_seat = -1
    if hands[winner].bit_count() == HAND_SIZE:
        for offset in (1, 2, 3):
            seat = (winner + offset) & 3
            if hands[seat] in MOLODKA_HANDS:
                world.molodka_seat = seat
                break


def playout(
    world: World, rand: Callable[[], float], explore: float = 0.1, sighted: bool = False
) -> tuple[int, int, int]:
    """Play ``world`` to the end of the deal with the greedy policy (it may change
    ``world``); return team A's card points and each team's tricks. Without
    exploration the C playout plays, when it was built (the same plays)."""
    if c_playout is not None and explore <= 0.0:
        result: tuple[int, int, int] = c_playout.playout(world, sighted)
        return result
    return py_playout(world, rand, explore, sighted)


def py_playout(
    world: World, rand: Callable[[], float], explore: float = 0.1, sighted: bool = False
) -> tuple[int, int, int]:
    """:func:`playout` in Python (changing ``world``), with exploration: the
    reference the C playout is tested against."""
    hands = world.hands
    trump = world.trump
    pile_points = [points_in(world.piles[0]), points_in(world.piles[1])]
    tricks = world.tricks
    stock = world.stock
    plays = world.plays
    turn, n = world.turn, world.n
    win_seat, win_mask = world.win_seat, world.win_mask
    # Bots decide a molodka at the start of a trick: one not declared by the time
    # cards are on the table stays undeclared.
    molodka_seat = world.molodka_seat if not world.molodka_done and not plays else -1
    trick_points = 0
    for _, _, mask in plays:
        trick_points += points_in(mask)
    follow_get = _FOLLOW.get
    discard_get = _DISCARD_CHOICE.get
    points_get = _POINTS_OF.get
    while hands[turn] or plays:
        if molodka_seat >= 0:
            for played_seat, _, played in plays:
                hands[played_seat] |= played
            mask = hands[molodka_seat]
            hands[molodka_seat] = 0
            plays = [(molodka_seat, LEAD, mask)]
            trick_points = points_in(mask)
            n, win_seat, win_mask = HAND_SIZE, molodka_seat, mask
            turn = (molodka_seat + 1) & 3
            molodka_seat = -1
            continue
        hand = hands[turn]
        if n == 0:
            if rand() < explore:
                moves = lead_masks(hand)
                mask = moves[int(rand() * len(moves))]
            else:
                mask = greedy_lead(hand, trump)
            kind = LEAD
            n = mask.bit_count()
        else:
            entry = follow_get((hand, win_mask, trump))
            if entry is None:
                entry = _follow_entry(hand, win_mask, trump)
            beats = entry[0]
            if rand() < explore:
                discards = single_masks(hand) if n == 1 else subset_masks(hand, n)
                pick = int(rand() * (len(beats) + len(discards)))
                if pick < len(beats):
                    kind, mask = BEAT, beats[pick]
                else:
                    kind, mask = DISCARD, discards[pick - len(beats)]
            elif sighted:
                partner = (win_seat ^ turn) & 1 == 0
                kind = DISCARD
                mask = 0
                after = 3 - len(plays)
                if beats and not partner:
                    for best in _by_cost(beats, trump):
                        if _holds(hands, best, turn, after, trump):
                            if trick_points + points_in(best) >= keep_value(trump, best) * 0.5:
                                kind, mask = BEAT, best
                            break
                if kind == DISCARD:
                    load = partner and _holds(hands, win_mask, turn, after, trump)
                    mask = greedy_discard(hand, n, trump, load)
            else:
                partner = (win_seat ^ turn) & 1 == 0
                if beats and not partner and trick_points >= entry[3]:
                    kind, mask = BEAT, entry[1]
                else:
                    kind = DISCARD
                    load = partner and len(plays) == 3
                    mask = discard_get((hand, n, trump, load)) or greedy_discard(
                        hand, n, trump, load
                    )
        hands[turn] ^= mask
        plays.append((turn, kind, mask))
        trick_points += points_get(mask) or points_in(mask)
        if kind != DISCARD:
            win_seat, win_mask = turn, mask
        if len(plays) < 4:
            turn = (turn + 1) & 3
            continue
        team = win_seat & 1
        pile_points[team] += trick_points
        tricks[team] += 1
        if stock:
            count = min(4 * (HAND_SIZE - hands[win_seat].bit_count()), len(stock))
            for i in range(count):
                hands[(win_seat + i) & 3] |= 1 << stock[i]
            del stock[:count]
        turn = win_seat
        plays = []
        n = win_mask = trick_points = 0
        if hands[turn].bit_count() == HAND_SIZE:
            for offset in (1, 2, 3):
                seat = (turn + offset) & 3
                if hands[seat] in MOLODKA_HANDS:
                    molodka_seat = seat
                    break
    return pile_points[0], tricks[0], tricks[1]


c_playout: ModuleType | None
try:
    from core.yard.ai import _playout
except ImportError:  # built without a C compiler: the Python playout plays
    c_playout = None
else:
    _playout.init(BEATERS, KEEP, _POINTS, BEAT_FACTOR)
    # The C endgame (core.yard.ai.endgame.solve_model) plays the baseline's choices.
    _playout.init_baseline(
        SPENT,
        DEFAULT_WEIGHTS.load,
        DEFAULT_WEIGHTS.dump,
        DEFAULT_WEIGHTS.will,
        DEFAULT_WEIGHTS.overtake,
    )
    c_playout = _playout


def played_out(
    world: World, seat: int, moves: Sequence[tuple[int, int]], sighted: bool, plays: int = 0
) -> list[tuple[int, int, int]] | None:
    """Each ``(kind, mask)`` move of ``seat`` played in ``world`` (kind -1: the
    molodka on offer passed), then the deal played out without exploration, its next
    ``plays`` plays by the baseline's choices: team A's card points and each team's
    tricks, in C; None when the C playout was not built. The same as :func:`step`
    and :func:`baseline_playout` on a copy for each move."""
    if c_playout is None:
        return None
    values: list[tuple[int, int, int]] = c_playout.values(world, seat, moves, sighted, plays)
    return values


def baseline_playout(
    world: World,
    plays: int,
    rand: Callable[[], float],
    explore: float = 0.0,
    sighted: bool = False,
) -> tuple[int, int, int]:
    """Play ``world`` to the end of the deal (changing it): its next ``plays`` plays
    by the baseline's choices (each seat from what it would see), the rest by the
    greedy playout (:func:`core.yard.ai.rollout.playout`); return team A's card points
    and each team's tricks. A molodka is declared at the start of a trick, as the
    baseline does."""
    hands = world.hands
    while plays > 0 and (hands[world.turn] or world.plays):
        if world.molodka_seat >= 0 and not world.molodka_done and not world.plays:
            step(world, world.molodka_seat, MOLODKA, 0)
            continue
        seat = world.turn
        kind, mask = world_move(world, seat)
        step(world, seat, kind, mask)
        plays -= 1
    return playout(world, rand, explore, sighted)


def loss_points(points: int, tricks: int) -> int:
    """Loss points of a team that lost with these card points and tricks."""
    if tricks == 0:
        return 6
    return 4 if points <= 30 else 2


def utility(
    points_a: int,
    tricks_a: int,
    tricks_b: int,
    team: int,
    weight: float,
    win: float = 0.0,
    smooth: float = 0.0,
) -> float:
    """What a deal's end is worth to ``team``: loss points given minus taken, plus
    ``win`` for a deal won (minus for one lost; eggs are neither), plus ``weight``
    times the card-point margin in sixties. With ``smooth``, the ``win`` term is
    ``win`` × tanh(margin / ``smooth``) instead: it still counts most near 60, but
    a point more or less changes it by a little, not by all or nothing.

    >>> utility(70, 3, 2, 0, 3.0), utility(70, 3, 2, 1, 3.0, win=2.0)
    (2.5, -4.5)
    >>> round(utility(61, 3, 2, 0, 0.0, win=6.0, smooth=10.0), 3)
    2.598
    """
    points = points_a if team == 0 else 120 - points_a
    mine, theirs = (tricks_a, tricks_b) if team == 0 else (tricks_b, tricks_a)
    if points > 60:
        value = float(loss_points(120 - points, theirs))
    elif points < 60:
        value = -float(loss_points(points, mine))
    else:
        value = 0.0
    if smooth > 0:
        value += win * math.tanh((points - 60) / smooth)
    elif points != 60:
        value += win if points > 60 else -win
    return value + weight * (points - 60) / 60


def world_move(world: World, seat: int) -> tuple[int, int]:
    """The baseline's ``(kind, mask)`` for ``seat`` to play in ``world`` as it stands
    (:func:`core.yard.ai.policy.baseline_move`)."""
    return baseline_move(
        world.hands,
        seat,
        world.plays,
        world.n,
        world.win_seat,
        world.win_mask,
        world.trump,
        world.trump_card,
        world.trump_holder,
        len(world.stock),
        world.gone,
    )
