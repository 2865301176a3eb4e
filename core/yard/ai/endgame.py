"""Exact search of a stock-empty endgame in one world.

Once the stock is empty every card of a world is in a hand, on the table or in a
pile, and what is left is a game of perfect information of at most four tricks.
:func:`solve` finds the card points team A takes from here on with best play by
both teams (alpha-beta over the seats' actions, team A maximising, team B
minimising; the value after each finished trick is remembered by the hands and the
leader, since the points of later tricks do not depend on how one got there).

The search counts its nodes and gives up (returns None) past its budget, so that
its cost is bounded by a count, not by a clock.
"""

from __future__ import annotations

from core.cards import POINTS, SUIT_BITS, indexes_of
from core.yard.ai.rollout import c_playout, legal_moves, step, utility, world_move
from core.yard.ai.worlds import World
from core.yard.deal import (
    BEAT,
    DISCARD,
    LEAD,
    MOLODKA,
    beat_masks,
    lead_masks,
    points_in,
    single_masks,
    subset_masks,
)
from core.yard.rules import BEATERS


class _Budget(Exception):
    """The node budget ran out."""


class Solver:
    """Alpha-beta over one world's endgame; worlds' root actions share its table."""

    __slots__ = ("budget", "nodes", "table", "trump")

    def __init__(self, trump: int, budget: int) -> None:
        self.trump = trump
        self.budget = budget
        self.nodes = 0
        #: Bounds (low, high) on the value after a trick, by hands and leader.
        self.table: dict[tuple[int, int, int, int, int], tuple[int, int]] = {}

    def after_trick(self, hands: list[int], leader: int, alpha: int, beta: int) -> int:
        """Team A's points from the tricks still to play, ``leader`` to lead: exact
        when inside (alpha, beta), else a bound on the side it fell (fail-soft)."""
        if not hands[leader]:
            return 0
        key = (hands[0], hands[1], hands[2], hands[3], leader)
        low, high = self.table.get(key, (-1_000, 1_000))
        if low == high or low >= beta:
            return low
        if high <= alpha:
            return high
        a, b = max(alpha, low), min(beta, high)
        value = self.trick(hands, leader, 0, 0, leader, 0, 0, a, b)
        if value <= a:
            high = value
        elif value >= b:
            low = value
        else:
            low = high = value
        self.table[key] = (low, high)
        return value

    def trick(
        self,
        hands: list[int],
        turn: int,
        played: int,
        n: int,
        win_seat: int,
        win_mask: int,
        taken: int,
        alpha: int,
        beta: int,
    ) -> int:
        """Team A's points from now on; ``played`` players have played ``taken``."""
        self.nodes += 1
        if self.nodes > self.budget:
            raise _Budget
        if played == 4:
            points = points_in(taken) if win_seat & 1 == 0 else 0
            return points + self.after_trick(hands, win_seat, alpha - points, beta - points)
        hand = hands[turn]
        maximise = turn & 1 == 0
        best = -1_000 if maximise else 1_000
        nxt = (turn + 1) & 3
        live = hands[0] | hands[1] | hands[2] | hands[3] | win_mask
        for kind, mask in self.moves(hand, n, win_mask, live):
            hands[turn] = hand ^ mask
            if kind == DISCARD:
                value = self.trick(
                    hands, nxt, played + 1, n, win_seat, win_mask, taken | mask, alpha, beta
                )
            else:
                value = self.trick(
                    hands,
                    nxt,
                    played + 1,
                    n or mask.bit_count(),
                    turn,
                    mask,
                    taken | mask,
                    alpha,
                    beta,
                )
            hands[turn] = hand
            if maximise:
                if value > best:
                    best = value
                    if best > alpha:
                        alpha = best
            elif value < best:
                best = value
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        return best

    def moves(self, hand: int, n: int, win_mask: int, live: int) -> list[tuple[int, int]]:
        """The legal actions, one of each class of equivalent ones."""
        if n == 0:
            moves = [(LEAD, m) for m in lead_masks(hand)]
        else:
            if n == 1:
                useful = hand & BEATERS[self.trump][win_mask.bit_length() - 1]
                beats = single_masks(useful) if useful else ()
                discards = single_masks(hand)
            else:
                beats = beat_masks(hand, win_mask, self.trump)
                discards = subset_masks(hand, n)
            moves = [(BEAT, m) for m in beats] + [(DISCARD, m) for m in discards]
        pairs = _equivalent(hand, live)
        if not pairs:
            return moves
        return [
            (kind, mask)
            for kind, mask in moves
            if all(not mask & higher or mask & lower for higher, lower in pairs)
        ]


_EQUIVALENT: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {}


def _equivalent(hand: int, live: int) -> tuple[tuple[int, int], ...]:
    """Pairs ``(higher, lower)`` of cards of ``hand``, of one suit and of equal
    points, with no other ``live`` card between them: playing the higher one
    instead of the lower one changes nothing, so an action with the higher card
    alone is searched only as the one with the lower card."""
    key = (hand, live)
    found = _EQUIVALENT.get(key)
    if found is not None:
        return found
    pairs: list[tuple[int, int]] = []
    previous = -1
    for card in indexes_of(live):
        if (
            previous >= 0
            and hand >> card & 1
            and hand >> previous & 1
            and card // SUIT_BITS == previous // SUIT_BITS
            and POINTS[card] == POINTS[previous]
        ):
            pairs.append((1 << card, 1 << previous))
        previous = card
    if len(_EQUIVALENT) > 1 << 18:
        _EQUIVALENT.clear()
    found = _EQUIVALENT[key] = tuple(pairs)
    return found


def solve(
    world: World,
    team: int,
    weight: float,
    solver: Solver,
    win: float = 0.0,
    smooth: float = 0.0,
) -> float | None:
    """The value for ``team`` of the stock-empty ``world`` with best play; None when
    the ``solver``'s node budget ran out (a solver may be reused for the positions
    of one world: what it learnt of the later tricks holds for all of them).

    The value is :func:`core.yard.ai.rollout.utility` of the deal's end that best play
    for card points leads to (tricks count as taken when they bring points).
    """
    if world.stock:
        raise ValueError("the stock is not empty")
    if world.molodka_seat >= 0 and not world.molodka_done and not world.plays:
        world = world.copy()
        step(world, world.molodka_seat, MOLODKA, 0)
    hands = list(world.hands)
    plays = world.plays
    taken = 0
    for _, _, mask in plays:
        taken |= mask
    try:
        if plays:
            rest = solver.trick(
                hands,
                world.turn,
                len(plays),
                world.n,
                world.win_seat,
                world.win_mask,
                taken,
                -1_000,
                1_000,
            )
        else:
            rest = solver.after_trick(hands, world.leader, -1_000, 1_000)
    except _Budget:
        return None
    remaining = points_in(taken) + sum(points_in(h) for h in hands)
    points_a = points_in(world.piles[0]) + rest
    tricks_a = world.tricks[0] + (1 if rest > 0 else 0)
    tricks_b = world.tricks[1] + (1 if remaining - rest > 0 else 0)
    return utility(points_a, tricks_a, tricks_b, team, weight, win, smooth)


def solve_model(
    world: World,
    team: int,
    weight: float,
    budget: int,
    win: float = 0.0,
    smooth: float = 0.0,
) -> float | None:
    """The value for ``team`` of the stock-empty ``world`` when the other team plays
    the baseline's choices (each seat from what it would see: the ``normal``
    player, :func:`core.yard.ai.rollout.world_move`) and ``team``'s seats the best for
    ``team`` (seeing the world); None past ``budget`` nodes.

    Unlike :func:`solve`, the opponents do not see the world's hands, so the value
    is that of play against the baseline, not against perfect defence; and it is
    the value of the deal's end itself (:func:`core.yard.ai.rollout.utility`), so the
    step at 60 points and the loss points are what ``team`` maximises.

    The C endgame (``core/yard/ai/_playout.c``) solves when it was built: the same
    value to the last bit, None past the same budget.
    """
    if c_playout is not None:
        value: float | None = c_playout.solve_model(world, team, weight, budget, win, smooth)
        return value
    return py_solve_model(world, team, weight, budget, win, smooth)


def py_solve_model(
    world: World,
    team: int,
    weight: float,
    budget: int,
    win: float = 0.0,
    smooth: float = 0.0,
) -> float | None:
    """:func:`solve_model` in Python: the reference the C endgame is tested against
    (a node is a pass of the loop below)."""
    if world.stock:
        raise ValueError("the stock is not empty")
    nodes = 0

    def value(state: World) -> float:
        nonlocal nodes
        while True:
            nodes += 1
            if nodes > budget:
                raise _Budget
            seat = state.turn
            if not state.hands[seat] and not state.plays:
                return utility(
                    points_in(state.piles[0]),
                    state.tricks[0],
                    state.tricks[1],
                    team,
                    weight,
                    win,
                    smooth,
                )
            if state.molodka_seat >= 0 and not state.molodka_done and not state.plays:
                step(state, state.molodka_seat, MOLODKA, 0)
                continue
            if seat & 1 != team:
                kind, mask = world_move(state, seat)
                step(state, seat, kind, mask)
                continue
            moves = legal_moves(state)
            if len(moves) == 1:
                step(state, seat, *moves[0])
                continue
            best = -1e9
            for kind, mask in moves:
                child = state.copy()
                step(child, seat, kind, mask)
                found = value(child)
                if found > best:
                    best = found
            return best

    try:
        return value(world.copy())
    except _Budget:
        return None
