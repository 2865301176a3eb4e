"""Swiss pairing of an event's rounds: who plays whom, who plays the computers, and
the standings.

An event's entrants are teams (a pair of partners). Each round every team plays one
series against another team; with an odd count one team plays the team of computers
instead (the bye). :func:`pair_round` pairs a round from the entrants' scores and
ratings, the meetings so far and the byes so far; :func:`standings` orders the table.
Both are pure and deterministic: the same input gives the same answer, with no
randomness and no clock.

How a round is paired, in order of importance:

1. every entrant is placed exactly once, at a table or as the bye; a bye only with an
   odd count, to an entrant who has had none (while anyone has had none);
2. the fewest tables that repeat a past meeting (none whenever any pairing avoids
   them);
3. the bye to the lowest-ranked entrant it can go to;
4. entrants of equal score meet: the ranked list (score, then rating) is paired
   within each score group, top half against bottom half, the odd one floating down
   to the next group.

The search goes down the ranked list, the top entrant first, each one's partners in
the order of point 4, and backs up from a dead end (a bounded depth-first search:
:data:`SEARCH_STEPS` partners tried in all). It finds the pairing of point 4 at once
when nobody has met, and a pairing without rematches within a few steps in a real
event. If the search finds none in its steps, the fewest rematches are found by a
maximum matching of the pairs that have not met (Edmonds' blossoms, polynomial), then
tables are swapped two at a time while that lowers the rematches, the bye's rank or
the score differences.

>>> teams = [Entrant("a", 1, 1500), Entrant("b", 1, 1400), Entrant("c", 0, 1600),
...          Entrant("d", 0, 1300), Entrant("e", 0, 1200)]
>>> pair_round(teams, met=[frozenset("ac"), frozenset("be")], byes=["e"])
Pairing(tables=(('a', 'b'), ('c', 'e')), bye='d', rematches=0)
>>> [(s.place, s.entrant.id, s.buchholz) for s in standings(teams, [("a", "c"), ("b", "e")])]
[(1, 'a', 0.0), (2, 'b', 0.0), (3, 'c', 1.0), (4, 'e', 1.0), (5, 'd', 0.0)]
"""

from __future__ import annotations

from bisect import bisect_right
from collections import deque
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass

#: Partners the depth-first search tries in all before it falls back on the matching:
#: enough to search every pairing of a dozen entrants, a fraction of a second at most.
SEARCH_STEPS = 50_000
#: Passes of swaps over the matching's tables at most (each pass that improves none ends).
PASSES = 20


@dataclass(frozen=True, slots=True)
class Entrant:
    """A team of an event (a pair of partners).

    ``score`` is its points so far (a table won: 1, a loss: 0; the bye is a table
    against the computers, won or lost as any other); ``rating``
    its rating (e.g. the mean of its players' ordinals), the tie-break."""

    id: str
    score: float
    rating: float


@dataclass(frozen=True, slots=True)
class Pairing:
    """A round's pairing: the tables, strongest first (each pair higher-ranked
    first), the entrant that plays the team of computers, and how many tables repeat
    a past meeting."""

    tables: tuple[tuple[str, str], ...]
    bye: str | None
    rematches: int


@dataclass(frozen=True, slots=True)
class Standing:
    """An entrant's line of the standings: its place (equals share one) and its
    Buchholz, the sum of the scores of the opponents it has met."""

    place: int
    entrant: Entrant
    buchholz: float


def ranked(entrants: Iterable[Entrant]) -> list[Entrant]:
    """The entrants by score, then rating, highest first (then by id, so that the
    order is total).

    >>> [e.id for e in ranked([Entrant("x", 0, 9), Entrant("y", 1, 1), Entrant("w", 0, 9)])]
    ['y', 'w', 'x']
    """
    return sorted(entrants, key=lambda e: (-e.score, -e.rating, e.id))


def pair_round(
    entrants: Sequence[Entrant],
    met: Collection[frozenset[str]] = (),
    byes: Collection[str] = (),
) -> Pairing:
    """The next round's pairing of ``entrants``, given the pairs that have met
    (``met``: each a set of two ids; ids of others are ignored) and the entrants that
    have had a bye. Raises :class:`ValueError` if two entrants share an id.

    >>> pair_round([Entrant(str(n), 0, 1000 - n) for n in range(1, 9)])
    Pairing(tables=(('1', '5'), ('2', '6'), ('3', '7'), ('4', '8')), bye=None, rematches=0)
    >>> pair_round([Entrant("a", 2, 0), Entrant("b", 1, 0), Entrant("c", 1, 0)],
    ...            byes=["c"]).bye
    'b'
    """
    order = ranked(entrants)
    ids = [e.id for e in order]
    index = {id_: n for n, id_ in enumerate(ids)}
    if len(index) != len(ids):
        raise ValueError("two entrants share an id")
    blocked: list[set[int]] = [set() for _ in ids]
    for pair in met:
        if len(pair) == 2:
            one, other = pair
            a, b = index.get(one), index.get(other)
            if a is not None and b is not None:
                blocked[a].add(b)
                blocked[b].add(a)
    scores = [e.score for e in order]
    everyone = range(len(ids))
    eligible: list[int | None] = [None]
    if len(ids) % 2:
        had_bye = {index[id_] for id_ in byes if id_ in index}
        lowest_first = everyone[::-1]
        eligible = [n for n in lowest_first if n not in had_bye] or list(lowest_first)
    search = _Search(scores, blocked)
    for bye in eligible:
        found = search.tables([n for n in everyone if n != bye])
        if found is not None:
            return _pairing(ids, found, bye, blocked)
        if search.steps <= 0:
            break
    bye, tables = _fewest_rematches(scores, blocked, eligible)
    return _pairing(ids, tables, bye, blocked)


def standings(
    entrants: Sequence[Entrant], meetings: Iterable[Collection[str]] = ()
) -> list[Standing]:
    """The standings: by score, then Buchholz (the sum of the current scores of the
    opponents each has met, once per meeting; a bye adds nothing), then rating.
    Entrants equal on all three share a place and are listed by id. ``meetings`` are
    the tables played (each a pair of ids, as :attr:`Pairing.tables` or ``met``);
    a meeting with an id not among the entrants counts for the other one nothing.

    >>> teams = [Entrant("a", 1, 10), Entrant("b", 1, 10), Entrant("c", 0, 20)]
    >>> [(s.place, s.entrant.id) for s in standings(teams, [("a", "b")])]
    [(1, 'a'), (1, 'b'), (3, 'c')]
    """
    score = {e.id: e.score for e in entrants}
    if len(score) != len(entrants):
        raise ValueError("two entrants share an id")
    buchholz = dict.fromkeys(score, 0.0)
    for meeting in meetings:
        pair = tuple(meeting)
        if len(pair) != 2:
            continue
        for one, other in (pair, pair[::-1]):
            if one in buchholz and other in score:
                buchholz[one] += score[other]

    def strength(entrant: Entrant) -> tuple[float, float, float]:
        return (-entrant.score, -buchholz[entrant.id], -entrant.rating)

    order = sorted(entrants, key=lambda e: (strength(e), e.id))
    lines: list[Standing] = []
    for n, entrant in enumerate(order):
        same = lines and strength(lines[-1].entrant) == strength(entrant)
        place = lines[-1].place if same else n + 1
        lines.append(Standing(place, entrant, buchholz[entrant.id]))
    return lines


# --- The search down the ranked list ---------------------------------------------------


class _Search:
    """A depth-first search for a pairing without rematches, :data:`SEARCH_STEPS`
    partners tried at most over all its calls (``steps`` is what is left)."""

    def __init__(self, scores: Sequence[float], blocked: Sequence[set[int]]) -> None:
        self.scores = scores
        self.blocked = blocked
        self.steps = SEARCH_STEPS

    def partners(self, free: list[int]) -> Iterator[int]:
        """Positions in ``free`` (ranked entrants not yet paired) of the partners of
        the first, in the order tried: its score group's bottom half from its top
        (the fold: with ``m`` in the group, the first meets the one ``m // 2`` below),
        then the top half upwards, then the lower scores down the list."""
        top = self.scores[free[0]]
        group = bisect_right(free, -top, key=lambda n: -self.scores[n])  # free is ranked
        half = max(group // 2, 1)  # alone in its group (1): the lower scores at once
        yield from range(half, group)
        yield from range(half - 1, 0, -1)
        yield from range(group, len(free))

    def tables(self, free: list[int]) -> list[tuple[int, int]] | None:
        """The first pairing of ``free`` (ranked, even) with no rematch in the search's
        order, or None: there is none, or the steps ran out (``steps <= 0``)."""
        tables: list[tuple[int, int]] = []
        tried: list[tuple[list[int], Iterator[int]]] = []
        options = self.partners(free) if free else iter(())
        while free:
            for position in options:
                self.steps -= 1
                if self.steps <= 0:
                    return None
                first, partner = free[0], free[position]
                if partner not in self.blocked[first]:
                    tried.append((free, options))
                    tables.append((first, partner))
                    free = free[1:position] + free[position + 1 :]
                    options = self.partners(free) if free else iter(())
                    break
            else:
                if not tried:
                    return None
                free, options = tried.pop()
                tables.pop()
        return tables


# --- The fallback: a maximum matching of the pairs that have not met --------------------


def _fewest_rematches(
    scores: Sequence[float], blocked: Sequence[set[int]], eligible: Sequence[int | None]
) -> tuple[int | None, list[tuple[int, int]]]:
    """The bye and the tables with the fewest rematches: a maximum matching of the
    pairs that have not met (and of the bye, a vertex of its own, with the entrants
    it may go to), the rest paired down the list; then improved by swaps."""
    count = len(scores)
    bye_vertex = count if eligible != [None] else None
    vertices = count + (bye_vertex is not None)
    adjacent = [[m for m in range(count) if m != n and m not in blocked[n]] for n in range(count)]
    if bye_vertex is not None:
        allowed = [n for n in eligible if n is not None]
        for n in allowed:
            adjacent[n].append(bye_vertex)
        adjacent.append(allowed)
    match = [-1] * vertices
    if bye_vertex is not None:  # the lowest-ranked the bye may go to, if the matching keeps it
        match[bye_vertex], match[adjacent[bye_vertex][0]] = adjacent[bye_vertex][0], bye_vertex
    for n in range(count):  # greedily down the list first: the blossoms fix the rest
        for m in adjacent[n] if match[n] == -1 else ():
            if match[m] == -1 and m != bye_vertex:
                match[n], match[m] = m, n
                break
    for root in range(vertices):
        if match[root] == -1:
            _augment(adjacent, match, root)
    bye: int | None = None
    if bye_vertex is not None:
        if match[bye_vertex] == -1:  # a maximum matching that holds the bye is as large
            allowed = adjacent[bye_vertex]
            taker = next((n for n in allowed if match[n] == -1), allowed[0])
            if match[taker] != -1:
                match[match[taker]] = -1
            match[bye_vertex], match[taker] = taker, bye_vertex
        bye = match[bye_vertex]
    left = [n for n in range(count) if match[n] == -1]  # any two have met
    tables = [(n, match[n]) for n in range(count) if n < match[n] < count]
    tables += list(zip(left[::2], left[1::2], strict=True))
    return _improved(
        scores, blocked, bye, tables, set(adjacent[bye_vertex]) if bye_vertex is not None else set()
    )


def _augment(adjacent: Sequence[Sequence[int]], match: list[int], root: int) -> None:
    """Enlarges ``match`` by an augmenting path from the unmatched ``root`` if there
    is one (Edmonds' blossom algorithm: a search that shrinks odd cycles)."""
    vertices = len(adjacent)
    parent = [-1] * vertices
    base = list(range(vertices))
    used = [False] * vertices
    used[root] = True
    queue = deque([root])

    def common_base(a: int, b: int) -> int:
        seen = [False] * vertices
        while True:
            a = base[a]
            seen[a] = True
            if match[a] == -1:
                break
            a = parent[match[a]]
        while not seen[base[b]]:
            b = parent[match[base[b]]]
        return base[b]

    def mark(v: int, stem: int, child: int, blossom: list[bool]) -> None:
        while base[v] != stem:
            blossom[base[v]] = blossom[base[match[v]]] = True
            parent[v] = child
            child = match[v]
            v = parent[match[v]]

    while queue:
        v = queue.popleft()
        for to in adjacent[v]:
            if base[v] == base[to] or match[v] == to:
                continue
            if to == root or (match[to] != -1 and parent[match[to]] != -1):
                stem = common_base(v, to)
                blossom = [False] * vertices
                mark(v, stem, to, blossom)
                mark(to, stem, v, blossom)
                for n in range(vertices):
                    if blossom[base[n]]:
                        base[n] = stem
                        if not used[n]:
                            used[n] = True
                            queue.append(n)
            elif parent[to] == -1:
                parent[to] = v
                if match[to] == -1:
                    while to != -1:
                        back = parent[to]
                        after = match[back]
                        match[to], match[back] = back, to
                        to = after
                    return
                used[match[to]] = True
                queue.append(match[to])


def _improved(
    scores: Sequence[float],
    blocked: Sequence[set[int]],
    bye: int | None,
    tables: list[tuple[int, int]],
    allowed: Collection[int],
) -> tuple[int | None, list[tuple[int, int]]]:
    """``tables`` improved by swaps of partners between two tables, and of the bye
    with an entrant it may go to (``allowed``), while each lowers (rematches, the
    bye's rank, score differences) in that order; :data:`PASSES` passes at most."""

    spread = max(scores, default=0) - min(scores, default=0)
    weight = 4 * spread + 1  # a rematch outweighs the score differences of two tables

    def cost(a: int, b: int) -> float:
        return weight * (b in blocked[a]) + abs(scores[a] - scores[b])

    for _ in range(PASSES):
        better = False
        costs = [cost(a, b) for a, b in tables]
        for i in range(len(tables)):
            for j in range(len(tables)) if costs[i] else ():  # a table to mend, with any
                (a, b), (c, d) = tables[i], tables[j]
                swap = min(
                    (cost(a, c), cost(b, d), (a, c), (b, d)),
                    (cost(a, d), cost(b, c), (a, d), (b, c)),
                    key=lambda option: option[0] + option[1],
                )
                if i != j and swap[0] + swap[1] < costs[i] + costs[j]:
                    costs[i], costs[j], tables[i], tables[j] = swap
                    better = True
        if bye is not None:
            moved = _moved_bye(bye, tables, allowed, cost, weight)
            better = better or moved != bye
            bye = moved
        if not better:
            break
    return bye, tables


def _moved_bye(
    bye: int,
    tables: list[tuple[int, int]],
    allowed: Collection[int],
    cost: Callable[[int, int], float],
    weight: float,
) -> int:
    """The bye after giving it, table by table, to a player of the table it may go to
    (his partner then meets the bye's entrant) where that lowers (the table's
    rematches, the bye's rank, the table's score difference)."""
    for i, table in enumerate(tables):
        for stays, goes in (table, table[::-1]):
            if goes in allowed:
                now, then = cost(stays, goes), cost(stays, bye)
                if (then // weight, -goes, then) < (now // weight, -bye, now):
                    tables[i], bye = (stays, bye), goes
                    break
    return bye


def _pairing(
    ids: Sequence[str],
    tables: Iterable[tuple[int, int]],
    bye: int | None,
    blocked: Sequence[set[int]],
) -> Pairing:
    """The pairing by ids: each table's higher-ranked first, the strongest first."""
    ordered = sorted((min(a, b), max(a, b)) for a, b in tables)
    return Pairing(
        tables=tuple((ids[a], ids[b]) for a, b in ordered),
        bye=None if bye is None else ids[bye],
        rematches=sum(b in blocked[a] for a, b in ordered),
    )
