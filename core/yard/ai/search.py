"""The search computer player ("Знаток"): sampled worlds, each action played out.

For each decision the player samples worlds that agree with everything its seat
has seen (:mod:`core.yard.ai.worlds`), plays every candidate action in every world and
values each by its mean (perfect-information Monte Carlo, as the strongest bridge,
Skat and Schafkopf programs do):

- before the stock is empty, each action is valued by playouts of the whole deal
  (:mod:`core.yard.ai.rollout`), the same worlds for every action, so that the actions
  are compared on equal terms: by default every seat plays the baseline's own
  choices from what it would see (``policy_plays``, :mod:`core.yard.ai.policy`: exactly
  the ``normal`` player), so an action is valued by where it leads when play goes on
  as at a table of normal players; with ``policy_plays`` 0, by a cheaper greedy
  policy whose players see the world's hands;
- once the stock is empty every card is in a hand, the piles or a face-down
  discard, and when every hand holds three cards or fewer once the trick in progress
  is over, each world is solved exactly
  (:mod:`core.yard.ai.endgame`) within a node budget, falling back to playouts when it
  runs out: by default (``endgame_model``) with the other team playing the
  baseline's choices, as the ``normal`` opponents do, and this team its best
  (:func:`core.yard.ai.endgame.solve_model`), else against perfect defence;
- a molodka is decided at the start of the trick, by the same search: declaring
  now against going on without it.

Every legal action is searched (``shortlist`` can limit them to the baseline's best),
all over the same worlds and random numbers (common random numbers: two actions are
compared on the same deals). The candidates come in the baseline's order, so the
first is the baseline's own choice, and it stands unless the best action is clearly
better: its values minus the baseline choice's, world by world, must have a mean
above ``confidence`` standard errors. When the best is ahead but not that clearly,
``confirm_worlds`` more worlds are played for the two of them alone and the test is
made again over all the worlds. (With 30 worlds the values of most actions differ
by less than the noise, and an action that looks best by a little is no better than
the baseline's in play; measured in docs/benchmarks.md, bench.yard_ai_gain. The playouts and the
endgames run in C, :mod:`core.yard.ai._playout`, which is what pays for 1,500 worlds.)
``margin`` can ask for a fixed lead instead.

Every bound is a count (worlds, playouts, nodes), never a clock, so a decision is
the same for the same view, memory and random numbers, whatever the machine. The
value of a deal's end is the loss points given minus those taken, plus ``win``
loss points for a deal won (minus for one lost), plus ``weight`` loss points per
60-point card margin (:func:`core.yard.ai.rollout.utility`).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from core.cards import mask_of
from core.yard.actions import Action, ActionKind
from core.yard.ai.baseline import DEFAULT_WEIGHTS, SeatTrick, cost_key
from core.yard.ai.endgame import Solver, solve, solve_model
from core.yard.ai.memory import DealMemory
from core.yard.ai.rollout import baseline_playout, played_out, step, utility
from core.yard.ai.worlds import Sampler, World
from core.yard.events import Event
from core.yard.views import SeatView


@dataclass(frozen=True, slots=True)
class SearchSettings:
    """How hard the search player looks (all counts)."""

    worlds: int = 1_500
    """Worlds sampled per decision."""
    playouts: int = 1
    """Playouts per action and world before the stock is empty."""
    shortlist: int = 0
    """Candidate actions searched: the baseline's best this many (0: every legal
    action)."""
    explore: float = 0.0
    """Chance of a random action at each step of a playout."""
    weight: float = 3.0
    """Value of a 60-point margin, in loss points."""
    win: float = 3.0
    """Value of winning the deal (lost: minus as much), in loss points, on top of
    the loss points themselves."""
    smooth: float = 0.0
    """When above 0, the ``win`` term is ``win`` × tanh(margin / ``smooth``): it
    counts most near 60 points, but a point more is worth a little, not all."""
    margin: float = 0.0
    """How much better (mean value) than the baseline's choice an action must
    look in playouts to be played instead."""
    sighted: bool = True
    """Whether the playouts' players see the world's hands (closer to best play)."""
    infer: int = 0
    """Worlds tried per sample for one in which the opponents' plays to the current
    trick are the baseline's choices (0: worlds uniform among those that agree with
    the view)."""
    infer_history: int = 0
    """With ``infer``, the last finished tricks whose opponents' face-up plays are
    checked too (a seat's hand then rebuilt from the world)."""
    confidence: float = 1.5
    """The baseline's choice stands unless the best action beats it, world by world,
    by more than this many standard errors of the mean difference (0: any amount)."""
    confirm_worlds: int = 750
    """When the best action is ahead of the baseline's choice but not clearly, this
    many more worlds are played for the two of them before the test is repeated."""
    policy_plays: int = 100
    """Plays of each playout made by the baseline's own choices (each seat from
    what it would see) before the greedy policy takes over (100: the whole deal)."""
    endgame_nodes: int = 20_000
    """Search nodes per world (per action with ``endgame_model``) for an exact
    stock-empty endgame (0: playouts)."""
    endgame_cards: int = 3
    """Largest hand, once the trick in progress is over, for which a stock-empty
    endgame is solved exactly (a lead from hands of four costs ten times more)."""
    endgame_model: bool = True
    """Whether exact endgames are played against the baseline's choices for the
    other team (:func:`core.yard.ai.endgame.solve_model`) instead of perfect defence."""
    lead_worlds: int = 0
    """Worlds sampled for a lead (0: ``worlds``)."""
    endgame_worlds: int = 600
    """Worlds sampled for a stock-empty endgame solved exactly (0: ``worlds``)."""
    endgame_confirm_worlds: int = 300
    """Confirming worlds in such an endgame (-1: ``confirm_worlds``)."""
    race_keep: int = 0
    """After the first worlds, the actions kept besides the baseline's choice: the
    best this many by their mean (0: no second round)."""
    race_worlds: int = 0
    """Worlds of the second round, played for the kept actions alone (0: none)."""
    race_leads: bool = False
    """Whether the second round is played for leads alone."""


STRONG = SearchSettings()

#: Mixed into the decision's seed for the confirming worlds (other worlds).
_CONFIRM_SEED = 0x5EED_C0F1
#: Mixed into the decision's seed for the second round's worlds.
_RACE_SEED = 0x5EED_2ACE


class SearchPlayer:
    """The search player. See the module docs.

    It remembers the deal through :meth:`observe` (public events) and its own
    choices; use one player per seat and per series.

    >>> from core.yard.deal import Deal
    >>> deal = Deal.shuffled(3, random.Random(1))
    >>> player = SearchPlayer(SearchSettings(worlds=4))
    >>> player.choose(deal.view(0), random.Random(0)) in deal.legal_actions(0)
    True
    """

    __slots__ = ("memory", "settings")

    #: It searches: the application asks it off its event loop (core.ruleset.Computer).
    searches = True

    def __init__(self, settings: SearchSettings = STRONG) -> None:
        self.settings = settings
        self.memory = DealMemory(seat=-1)

    def observe(self, event: Event) -> None:
        """Take in one public event of the deal."""
        self.memory.observe(event)

    def choose(self, view: SeatView, rng: random.Random) -> Action | None:
        """The best-valued legal action on the seat's turn; a molodka at the start of
        the trick when the search values it above going on without; otherwise None."""
        table = view.table
        may_declare = view.molodka and not table.plays
        if not view.legal or (table.turn != view.seat and not may_declare):
            return None
        self.memory.seat = view.seat
        seed = rng.getrandbits(64)
        sampler = Sampler(view, self.memory, self.settings.infer, self.settings.infer_history)
        if may_declare:
            molodka = next((a for a in view.legal if a.kind is ActionKind.MOLODKA), None)
            if molodka is not None and self._wants_molodka(view, sampler, seed):
                return self._chosen(molodka)
        if table.turn != view.seat:
            return None
        actions = [a for a in view.legal if a.kind is not ActionKind.MOLODKA]
        if len(actions) == 1:
            return self._chosen(actions[0])
        actions = self._shortlist(view, actions)
        settings = self.settings
        lead = not table.plays
        exact = _solved_exactly(view, settings)
        worlds = settings.lead_worlds if lead and settings.lead_worlds else settings.worlds
        confirm_worlds = settings.confirm_worlds
        if exact and settings.endgame_worlds:
            worlds = settings.endgame_worlds
        if exact and settings.endgame_confirm_worlds >= 0:
            confirm_worlds = settings.endgame_confirm_worlds
        per_world = self._world_values(view, sampler, [_raw(a) for a in actions], seed, worlds)
        values = [sum(row) for row in per_world]
        if settings.race_keep and settings.race_worlds and (lead or not settings.race_leads):
            # A second round for the baseline's choice and the best few alone.
            others = sorted(range(1, len(actions)), key=lambda i: (-values[i], i))
            kept = [0, *others[: settings.race_keep]]
            more = self._world_values(
                view,
                sampler,
                [_raw(actions[i]) for i in kept],
                seed ^ _RACE_SEED,
                settings.race_worlds,
            )
            actions = [actions[i] for i in kept]
            per_world = [per_world[i] + row for i, row in zip(kept, more, strict=True)]
            values = [sum(row) for row in per_world]
        best = max(range(len(actions)), key=lambda i: (values[i], -i))
        # Values are noisy: the baseline's choice (the first) stands unless the search
        # finds a clearly better one. Exact endgames ask for no margin, but their
        # worlds are sampled too, so they take the confidence test like playouts.
        margin = 0.0 if exact else settings.margin * len(per_world[0])
        doubtful = settings.confidence > 0 and not _clearly_better(
            per_world[best], per_world[0], settings.confidence
        )
        if doubtful and confirm_worlds > 0 and values[best] > values[0]:
            # Ahead but not clearly: more worlds for these two actions alone.
            more = self._world_values(
                view,
                sampler,
                [_raw(actions[0]), _raw(actions[best])],
                seed ^ _CONFIRM_SEED,
                confirm_worlds,
            )
            doubtful = not _clearly_better(
                per_world[best] + more[1], per_world[0] + more[0], settings.confidence
            )
        if values[best] - values[0] <= margin or doubtful:
            best = 0
        return self._chosen(actions[best])

    def _chosen(self, action: Action) -> Action:
        self.memory.own(action.kind, action.cards)
        return action

    def _shortlist(self, view: SeatView, actions: list[Action]) -> list[Action]:
        """The baseline's best ``shortlist`` actions (all when 0), best first: the
        baseline's choice first, so that it wins ties."""
        limit = self.settings.shortlist or len(actions)
        trick = SeatTrick(view, self.memory.gone if self.memory.complete else 0, DEFAULT_WEIGHTS)
        # The baseline's own order: its value, then its tie-break (the first is its choice).
        ranked = sorted(actions, key=lambda a: (trick.action_value(a), cost_key(a)), reverse=True)
        return ranked[:limit]

    def _wants_molodka(self, view: SeatView, sampler: Sampler, seed: int) -> bool:
        """Declaring now against going on without (this seat then plays on)."""
        values = self._values(view, sampler, [(3, 0), (-1, 0)], seed)
        return values[0] >= values[1]

    def _values(
        self, view: SeatView, sampler: Sampler, moves: list[tuple[int, int]], seed: int
    ) -> list[float]:
        """The total value of each ``(kind, mask)`` move over the sampled worlds.
        Kind -1 is "pass the molodka": the world goes on without it."""
        return [sum(row) for row in self._world_values(view, sampler, moves, seed)]

    def _world_values(
        self,
        view: SeatView,
        sampler: Sampler,
        moves: list[tuple[int, int]],
        seed: int,
        worlds: int = 0,
    ) -> list[list[float]]:
        """The value of each move in each of ``worlds`` (by default the settings')
        sampled worlds (a row per move)."""
        settings = self.settings
        seat = view.seat
        team = seat & 1
        rng = random.Random(seed)
        rows: list[list[float]] = [[] for _ in moves]
        exact = _solved_exactly(view, settings)
        fast = settings.explore <= 0
        for _ in range(worlds or settings.worlds):
            world = sampler.sample(rng)
            if exact:
                solved = _solve_moves(world, seat, moves, settings, team)
                if solved is not None:
                    for row, value in zip(rows, solved, strict=True):
                        row.append(value)
                    continue
                exact = False  # too big for the budget: the other worlds will be too
            seeds = [rng.random() for _ in range(settings.playouts)]
            if fast:
                # Without exploration every playout of a move in a world is the same.
                results = played_out(world, seat, moves, settings.sighted, settings.policy_plays)
                if results is not None:
                    for row, result in zip(rows, results, strict=True):
                        row.append(
                            utility(*result, team, settings.weight, settings.win, settings.smooth)
                        )
                    continue
            for row, (kind, mask) in zip(rows, moves, strict=True):
                total = 0.0
                for playout_seed in seeds:
                    played = _after(world, seat, kind, mask)
                    result = baseline_playout(
                        played,
                        settings.policy_plays,
                        random.Random(playout_seed).random,
                        settings.explore,
                        settings.sighted,
                    )
                    total += utility(*result, team, settings.weight, settings.win, settings.smooth)
                row.append(total / settings.playouts)
        return rows


def _clearly_better(values: list[float], base: list[float], z: float) -> bool:
    """Whether ``values`` beat ``base`` (world by world, the same worlds) by more than
    ``z`` standard errors of their mean difference."""
    count = len(values)
    if count < 2:
        return sum(values) > sum(base)
    diffs = [a - b for a, b in zip(values, base, strict=True)]
    mean = sum(diffs) / count
    variance = sum((d - mean) ** 2 for d in diffs) / (count - 1)
    return mean > z * math.sqrt(variance / count)


def _after(world: World, seat: int, kind: int, mask: int) -> World:
    played = world.copy()
    if kind < 0:
        played.molodka_seat, played.molodka_done = -1, True
    else:
        step(played, seat, kind, mask)
    return played


def _solved_exactly(view: SeatView, settings: SearchSettings) -> bool:
    """Whether the seat's worlds are solved exactly (:func:`_solve_moves`): the stock
    is empty and every hand holds ``endgame_cards`` or fewer once the trick in
    progress is over (the seats yet to play give the lead's size each; before a
    lead, the hands as they are). Hand sizes are public: every world agrees."""
    table = view.table
    if table.stock_size or settings.endgame_nodes <= 0:
        return False
    played = {play.seat for play in table.plays}
    largest = max(
        size - (table.lead_size if played and seat not in played else 0)
        for seat, size in enumerate(table.hand_sizes)
    )
    return largest <= settings.endgame_cards


def _solve_moves(
    world: World, seat: int, moves: list[tuple[int, int]], settings: SearchSettings, team: int
) -> list[float] | None:
    """Exact values of the moves in a stock-empty world small enough
    (:func:`_solved_exactly`), or None past the budget."""
    solver = Solver(world.trump, settings.endgame_nodes)
    values: list[float] = []
    for kind, mask in moves:
        if settings.endgame_model:
            value = solve_model(
                _after(world, seat, kind, mask),
                team,
                settings.weight,
                settings.endgame_nodes,
                settings.win,
                settings.smooth,
            )
            if value is None:
                return None
            values.append(value)
            continue
        value = solve(
            _after(world, seat, kind, mask),
            team,
            settings.weight,
            solver,
            settings.win,
            settings.smooth,
        )
        if value is None:
            return None
        values.append(value)
    return values


def _raw(action: Action) -> tuple[int, int]:
    return action.kind.code, mask_of(action.cards)
