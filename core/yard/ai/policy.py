"""The baseline's choices on bitmasks, for the search player's playouts.

:class:`~core.yard.ai.baseline.BaselinePlayer` judges a seat's legal actions from its
:class:`~core.yard.views.SeatView`; building views inside a playout would cost far
too much, so :func:`baseline_move` does the same sums on plain ints: the same
actions, the same values (to the last bit of the float), the same choice. A test
compares the two over thousands of random positions.

What a seat sees is worked out from a world's state as the engine would show it:
its hand, the table (face-down discards as counts), the face-up cards of finished
tricks (``gone``, public), the hand and stock sizes, and who drew the shown trump
card. So a playout of this policy is *not* sighted: each seat plays from what it
would see, as the baseline opponents at a real table do.
"""

from __future__ import annotations

from core.cards import DECK_SIZE, FULL_MASK, SUIT_BITS, indexes_of
from core.yard.ai.baseline import DEFAULT_WEIGHTS, Weights, at_least
from core.yard.deal import (
    BEAT,
    DISCARD,
    LEAD,
    beat_masks,
    lead_masks,
    points_in,
    single_masks,
    subset_masks,
)
from core.yard.rules import BEATERS


def _spent_table(weights: Weights) -> tuple[tuple[float, ...], ...]:
    """SPENT[trump][card]: the baseline's value of keeping ``card``."""
    return tuple(
        tuple(
            (weights.trump if card // SUIT_BITS == trump else weights.plain)[card % SUIT_BITS]
            for card in range(DECK_SIZE)
        )
        for trump in range(4)
    )


SPENT = _spent_table(DEFAULT_WEIGHTS)
#: (trump, set) -> its card points, the baseline's value of keeping it, and each
#: card's beaters.
_SETS: dict[tuple[int, int], tuple[int, float, tuple[int, ...]]] = {}


def _set_facts(trump: int, cards: int) -> tuple[int, float, tuple[int, ...]]:
    spent = SPENT[trump]
    beaters = BEATERS[trump]
    total = 0.0
    pools = []
    for i in indexes_of(cards):
        total += spent[i]
        pools.append(beaters[i])
    if len(_SETS) > 1 << 16:
        _SETS.clear()
    found = _SETS[(trump, cards)] = (points_in(cards), total, tuple(pools))
    return found


def baseline_move(
    hands: list[int],
    seat: int,
    plays: list[tuple[int, int, int]],
    n: int,
    win_seat: int,
    win_mask: int,
    trump: int,
    trump_card: int,
    trump_holder: int,
    stock_size: int,
    gone: int,
) -> tuple[int, int]:
    """The baseline's ``(kind, mask)`` for ``seat`` to play (molodka aside), with the
    default weights: ``plays`` is the trick so far ``(seat, kind, mask)``, ``gone``
    the face-up cards of finished tricks, ``trump_holder`` -1 while the trump card
    is in the stock."""
    weights = DEFAULT_WEIGHTS
    load, dump, will = weights.load, weights.dump, weights.will
    sets = _SETS
    hand = hands[seat]
    face_up = 0
    table_points = 0.0
    winner = -1
    for played_seat, kind, mask in plays:
        if kind == DISCARD:
            loading = (played_seat - winner) % 2 == 0
            table_points += mask.bit_count() * (load if loading else dump)
        else:
            face_up |= mask
            table_points += points_in(mask)
            winner = played_seat
    unseen = FULL_MASK & ~(hand | face_up | gone)
    known = 1 << trump_card
    known_seat = -1
    if unseen & known and (trump_holder >= 0 or stock_size > 0):
        unseen &= ~known
        if trump_holder >= 0 and trump_holder != seat:
            known_seat = trump_holder
    unseen_count = unseen.bit_count()
    if plays:
        first = plays[0][0]
        done = len(plays)
    else:
        first = seat
        done = 1
    mine = seat & 1
    # Per team, its opponents still to play after this seat: (hand size, the trump
    # card if known to be in that hand).
    rivals_of: tuple[list[tuple[int, int]], list[tuple[int, int]]] = ([], [])
    partners = opponents = 0
    for k in range(done, 4):
        other = (first + k) & 3
        if other == seat:
            continue
        if other & 1 == mine:
            partners += 1
        else:
            opponents += 1
        size = hands[other].bit_count()
        if other == known_seat:
            rivals_of[(other & 1) ^ 1].append((size - 1, known))
        else:
            rivals_of[(other & 1) ^ 1].append((size, 0))
    rivals = rivals_of[mine]
    won_per_card = load * partners + dump * opponents
    lost_per_card = dump * partners + load * opponents

    def keeps(cards: int, rivals: list[tuple[int, int]]) -> float:
        """Chance that the team holding the trick with ``cards`` keeps it, when
        ``rivals`` are its opponents still to play."""
        facts = sets.get((trump, cards)) or _set_facts(trump, cards)
        pools = facts[2]
        if len(pools) > 1:
            pools = tuple(sorted(pools, key=lambda m: (m & unseen).bit_count()))
        chance = 1.0
        for size, other_known in rivals:
            beat = 1.0
            union = 0
            for need, pool in enumerate(pools, 1):
                union |= pool
                held = need - 1 if union & other_known else need
                beat = min(beat, at_least(unseen_count, (union & unseen).bit_count(), size, held))
            chance *= 1.0 - will * beat
        return chance

    best_kind, best_mask = 0, 0
    best_key: tuple[float, bool, int, int] | None = None
    if n == 0:
        for mask in lead_masks(hand):
            points, spent, _ = sets.get((trump, mask)) or _set_facts(trump, mask)
            ours = keeps(mask, rivals) if rivals else 1.0
            size = mask.bit_count()
            base = table_points + points
            worth = (
                ours * (base + size * won_per_card)
                - (1.0 - ours) * (base + size * lost_per_card)
                - spent
            )
            key = (worth, False, -points, -mask)
            if best_key is None or key > best_key:
                best_kind, best_mask, best_key = LEAD, mask, key
        return best_kind, best_mask
    if n == 1:
        useful = hand & BEATERS[trump][win_mask.bit_length() - 1]
        beats = single_masks(useful) if useful else ()
        discards = single_masks(hand)
    else:
        beats = beat_masks(hand, win_mask, trump)
        discards = subset_masks(hand, n)
    overtake = weights.overtake if win_seat & 1 == mine else 0.0
    for mask in beats:
        points, spent, _ = sets.get((trump, mask)) or _set_facts(trump, mask)
        ours = keeps(mask, rivals) if rivals else 1.0
        base = table_points + points
        worth = ours * (base + n * won_per_card) - (1.0 - ours) * (base + n * lost_per_card) - spent
        if overtake:
            worth -= overtake
        key = (worth, False, -points, -mask)
        if best_key is None or key > best_key:
            best_kind, best_mask, best_key = BEAT, mask, key
    # Every discard leaves the trick to the set now winning it.
    holders = rivals_of[win_seat & 1]
    keep = keeps(win_mask, holders) if holders else 1.0
    ours = keep if win_seat & 1 == mine else 1.0 - keep
    for mask in discards:
        points, spent, _ = sets.get((trump, mask)) or _set_facts(trump, mask)
        base = table_points + points
        worth = ours * (base + n * won_per_card) - (1.0 - ours) * (base + n * lost_per_card) - spent
        key = (worth, True, -points, -mask)
        if best_key is None or key > best_key:
            best_kind, best_mask, best_key = DISCARD, mask, key
    return best_kind, best_mask
