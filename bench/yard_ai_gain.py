"""The search player's gain over the baseline, one decision at a time.

``python -m bench.yard_ai_gain --deals 150 --strong '{"confidence": 1.5}'``

Deals of four baseline players (``normal``) are played from ``--seed``; at about a
third of the decisions with two or more legal actions (the same decisions for every
variant), the strong player of ``--strong`` settings (JSON fields of
:class:`~core.yard.ai.search.SearchSettings`) chooses too, from the same view and memory.
When it chooses otherwise than the baseline, both choices are played to the deal's
end in the *real* deal (not a sampled world), with the baseline's choices at every
seat (:func:`core.yard.ai.rollout.baseline_playout`), and the gain is the difference in
deals won (+1 won, −1 lost, 0 eggs) for the deciding seat's team.

This is much less noisy than whole deals of ``bench.yard_ai`` (only the decisions that
differ count, and each against the same continuation), but it measures one decision
in a table of baseline players, not a whole deal of strong ones. Prints the mean
gain per decision with its 95 % interval, and the sums by kind of decision (leads,
follows while the stock lasts, any decision once it is empty: a lead with the stock
empty counts twice); CPU ms per search on stderr. ``--seed 1`` and ``--deals 150``
are the positions of README's table.

``--against '{...}'`` compares two settings on the same decisions (paired): each
searched decision is searched with both, and the figure is the difference of their
gains, decision by decision (``paired_gain_per_decision``: ``--strong``'s minus
``--against``'s, with its 95 % interval). Only the decisions on which the two
choose otherwise count, so a change is seen with far fewer deals than two separate
runs need.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import functools
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from core.cards import mask_of
from core.yard.actions import Action, ActionKind
from core.yard.ai import BaselinePlayer, CardCounter
from core.yard.ai.memory import DealMemory
from core.yard.ai.rollout import baseline_playout, step
from core.yard.ai.search import STRONG, SearchPlayer, SearchSettings
from core.yard.ai.worlds import World
from core.yard.deal import Deal
from core.yard.events import DealStarted
from core.yard.views import SeatView

#: One searched decision: (gain in deals won, differs, CPU seconds, stock size,
#: plays on the table).
Row = tuple[int, int, float, int, int]


def true_world(deal: Deal, gone: int) -> World:
    """The real deal as a world (every card where it is)."""
    holder = deal.view(0).table.trump_card_holder
    return World(
        trump=int(deal.trump),
        trump_card=deal.trump_card.index,
        hands=list(deal._hands),
        stock=[card.index for card in deal.deck[deal._stock_pos :]],
        trump_holder=-1 if holder is None else holder,
        piles=list(deal._piles),
        tricks=list(deal._tricks),
        leader=deal._leader,
        turn=deal._turn,
        plays=list(deal._plays),
        n=deal._n,
        win_seat=deal._win_seat,
        win_mask=deal._win_mask,
        molodka_seat=deal._molodka_seat,
        molodka_done=deal._molodka_done,
        last_winner=deal._last_winner,
        trick_no=deal._trick_no,
        gone=gone,
    )


def won(world: World, seat: int, action: Action) -> int:
    """+1, 0 or −1: the deal's end for ``seat``'s team after ``action``, every seat
    then playing the baseline's choices."""
    played = world.copy()
    step(played, seat, action.kind.code, mask_of(action.cards))
    points_a, _, _ = baseline_playout(played, 1_000, random.Random(0).random)
    points = points_a if seat % 2 == 0 else 120 - points_a
    return (points > 60) - (points < 60)


def deal_rows(k: int, seed: int, settings: SearchSettings) -> list[Row]:
    """The searched decisions of deal ``k``."""
    rng = random.Random(seed * 1_000 + k)
    deal, memories, counter = start_deal(k % 4, rng)
    rows: list[Row] = []
    for view, action in baseline_turns(deal, memories, counter, rng):
        seat = view.seat
        legal = [a for a in view.legal if a.kind is not ActionKind.MOLODKA]
        if rng.random() < 0.35 and len(legal) > 1:
            player = SearchPlayer(settings)
            player.memory = copy.deepcopy(memories[seat])
            started = time.process_time()
            searched = player.choose(view, random.Random(rng.getrandbits(32)))
            spent = time.process_time() - started
            assert searched is not None
            gain = 0
            if searched != action:
                world = true_world(deal, counter.gone)
                gain = won(world, seat, searched) - won(world, seat, action)
            rows.append((gain, int(searched != action), spent, deal.stock_size, len(deal._plays)))
    return rows


def baseline_turns(
    deal: Deal, memories: list[DealMemory], counter: CardCounter, rng: random.Random
) -> Iterator[tuple[SeatView, Action]]:
    """Play ``deal`` to its end with the baseline at every seat (a molodka declared
    when it falls): each turn's view and the baseline's choice are yielded before
    the choice is played."""
    while not deal.is_over:
        molodka = deal.molodka_seat
        if molodka is not None and not deal._plays:
            action = Action.molodka(molodka)
        else:
            seat = deal.turn
            assert seat is not None
            view = deal.view(seat)
            chosen = BaselinePlayer(counter).choose(view, rng)
            assert chosen is not None
            action = chosen
            yield view, action
        play(deal, memories, counter, action)


def start_deal(dealer: int, rng: random.Random) -> tuple[Deal, list[DealMemory], CardCounter]:
    """A shuffled deal, every seat's memory of it and the baseline's card counter."""
    deal = Deal.shuffled(dealer, rng)
    memories = [DealMemory(seat) for seat in range(4)]
    counter = CardCounter()
    start = DealStarted(0, deal.dealer, deal.first_leader, deal.trump_card, deal.stock_size)
    for memory in memories:
        memory.observe(start)
    counter.observe(start)
    return deal, memories, counter


def play(deal: Deal, memories: list[DealMemory], counter: CardCounter, action: Action) -> None:
    """Apply ``action``; its seat's memory keeps it, every memory and the counter
    observe its events."""
    memories[action.seat].own(action.kind, action.cards)
    for event in deal.apply(action):
        for memory in memories:
            memory.observe(event)
        counter.observe(event)


def _paired_rows(
    k: int, seed: int, settings: SearchSettings, other: SearchSettings
) -> list[tuple[int, int, float, int, int, int]]:
    """Deal ``k``'s rows for ``settings``, each with the gain of ``other`` on the
    same decision appended (the positions and decisions are the same: the search
    draws nothing from the deal's random numbers but its seed)."""
    first = deal_rows(k, seed, settings)
    second = deal_rows(k, seed, other)
    if len(first) != len(second):
        raise AssertionError("the two runs searched different decisions")
    return [(*a, b[0]) for a, b in zip(first, second, strict=True)]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=150)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--strong", default="{}", help="fields of SearchSettings (JSON)")
    parser.add_argument(
        "--against", default=None, help="settings (JSON) to compare with, decision by decision"
    )
    args = parser.parse_args(argv)
    settings = dataclasses.replace(STRONG, **json.loads(args.strong))
    work: Callable[[int], Sequence[tuple[Any, ...]]]
    work = functools.partial(deal_rows, seed=args.seed, settings=settings)
    if args.against is not None:
        other = dataclasses.replace(STRONG, **json.loads(args.against))
        work = functools.partial(_paired_rows, seed=args.seed, settings=settings, other=other)
    parts: list[Sequence[tuple[Any, ...]]]
    if args.jobs > 1:
        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
            parts = pool.map(work, range(args.deals), chunksize=1)
    else:
        parts = [work(k) for k in range(args.deals)]
    rows = [row for part in parts for row in part]
    if not rows:
        return
    if args.against is not None:
        diffs = [row[0] - row[5] for row in rows]
        half = 1.96 * statistics.pstdev(diffs) / math.sqrt(len(diffs))
        print(f"paired_gain_per_decision: {statistics.mean(diffs):+.4f} ± {half:.4f}")
        print(f"paired_outcomes_differ: {sum(d != 0 for d in diffs)}")
        print(f"against_gain: {sum(row[5] for row in rows):+d}")
    gains = [row[0] for row in rows]
    half = 1.96 * statistics.pstdev(gains) / math.sqrt(len(gains))
    print(f"decisions: {len(rows)}")
    print(f"differ: {sum(row[1] for row in rows)}")
    print(f"gain_per_decision: {statistics.mean(gains):+.4f} ± {half:.4f}")
    kinds = {
        "lead": lambda row: row[4] == 0,  # with the stock empty too
        "follow": lambda row: row[3] > 0 and row[4] > 0,
        "stock_empty": lambda row: row[3] == 0,
    }
    for name, test in kinds.items():
        part = [row for row in rows if test(row)]
        print(
            f"{name}: decisions {len(part)} differ {sum(row[1] for row in part)} "
            f"gain {sum(row[0] for row in part):+d}"
        )
    ms = sorted(row[2] * 1000 for row in rows)
    print(
        f"strong_ms_per_search: median {statistics.median(ms):.1f} "
        f"p95 {ms[min(len(ms) - 1, math.ceil(0.95 * len(ms)) - 1)]:.1f}",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
