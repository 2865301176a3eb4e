"""Swiss pairing (core.swiss): Hypothesis properties against a brute force over every
pairing of small fields, whole simulated events, and the standings."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import swiss
from core.swiss import Entrant, Pairing, pair_round, ranked, standings

FAST = settings(max_examples=200, deadline=None)


@dataclass(frozen=True)
class Field:
    """A round to pair: the entrants, the pairs that have met, who had a bye."""

    entrants: tuple[Entrant, ...]
    met: frozenset[frozenset[str]]
    byes: frozenset[str]

    def pair(self) -> Pairing:
        return pair_round(self.entrants, self.met, self.byes)


@st.composite
def fields(draw: st.DrawFn, low: int = 1, high: int = 10, meetings: bool = True) -> Field:
    """Up to ``high`` entrants with few distinct scores and ratings (ties are common),
    a random set of past meetings and of byes."""
    count = draw(st.integers(low, high))
    ids = [f"t{n}" for n in range(count)]
    entrants = tuple(
        Entrant(id_, draw(st.sampled_from((0.0, 1.0, 2.0, 3.0))), draw(st.integers(0, 3)))
        for id_ in ids
    )
    pairs = [frozenset(pair) for pair in combinations(ids, 2)]
    met = draw(st.sets(st.sampled_from(pairs))) if pairs and meetings else set()
    byes = draw(st.sets(st.sampled_from(ids))) if count % 2 else set()
    return Field(entrants, frozenset(met), frozenset(byes))


def every_pairing(ids: Sequence[str]) -> Iterator[list[tuple[str, str]]]:
    """Every way to seat an even list two by two."""
    if not ids:
        yield []
        return
    first, rest = ids[0], ids[1:]
    for n, partner in enumerate(rest):
        for tables in every_pairing(rest[:n] + rest[n + 1 :]):
            yield [(first, partner), *tables]


def rematches(field: Field, tables: Sequence[tuple[str, str]]) -> int:
    return sum(frozenset(table) in field.met for table in tables)


def eligible_byes(field: Field) -> list[str]:
    """Who may get the bye: anyone without one (everyone if all had one)."""
    if len(field.entrants) % 2 == 0:
        return []
    ids = [e.id for e in field.entrants]
    return [id_ for id_ in ids if id_ not in field.byes] or ids


def brute_force(field: Field) -> dict[str | None, int]:
    """The fewest rematches of any pairing, by the bye it gives (each bye allowed)."""
    ids = [e.id for e in field.entrants]
    best: dict[str | None, int] = {}
    for bye in eligible_byes(field) or [None]:
        rest = [id_ for id_ in ids if id_ != bye]
        best[bye] = min(rematches(field, tables) for tables in every_pairing(rest))
    return best


def placed(pairing: Pairing) -> list[str]:
    return [id_ for table in pairing.tables for id_ in table] + (
        [pairing.bye] if pairing.bye is not None else []
    )


@FAST
@given(fields(high=14))
def test_everyone_is_placed_exactly_once_and_a_bye_is_given_iff_the_count_is_odd(
    field: Field,
) -> None:
    pairing = field.pair()
    assert sorted(placed(pairing)) == sorted(e.id for e in field.entrants)
    assert (pairing.bye is not None) == (len(field.entrants) % 2 == 1)
    assert pairing.bye is None or pairing.bye in eligible_byes(field)  # never twice if avoidable
    assert pairing.rematches == rematches(field, pairing.tables)


@FAST
@given(fields())
def test_the_fewest_rematches_of_any_pairing_and_the_bye_as_low_as_they_allow(
    field: Field,
) -> None:
    best = brute_force(field)
    pairing = field.pair()
    assert pairing.rematches == min(best.values())
    if min(best.values()) == 0:  # the lowest-ranked bye that leaves no rematch
        rank = [e.id for e in ranked(field.entrants)]
        assert pairing.bye == max(
            (bye for bye, count in best.items() if count == 0),
            key=lambda bye: -1 if bye is None else rank.index(bye),
        )


@FAST
@given(fields(high=14, meetings=False))
def test_without_past_meetings_the_score_differences_are_the_least_possible(
    field: Field,
) -> None:
    """Nobody has met: the lowest-ranked eligible entrant gets the bye, and the sum of
    the tables' score differences is the least of any pairing of the others (sorted
    neighbours two by two)."""
    pairing = field.pair()
    order = [e for e in ranked(field.entrants) if e.id != pairing.bye]
    if pairing.bye is not None:
        assert (
            pairing.bye
            == [e.id for e in ranked(field.entrants) if e.id in eligible_byes(field)][-1]
        )
    score = {e.id: e.score for e in field.entrants}
    least = sum(abs(a.score - b.score) for a, b in zip(order[::2], order[1::2], strict=True))
    assert sum(abs(score[a] - score[b]) for a, b in pairing.tables) == least


@FAST
@given(fields(high=14))
def test_the_pairing_is_the_same_for_the_same_round_in_any_order(field: Field) -> None:
    shuffled = list(field.entrants)
    random.Random(len(shuffled)).shuffle(shuffled)
    again = pair_round(shuffled, list(field.met), sorted(field.byes))
    assert again == field.pair() == field.pair()


@FAST
@given(fields(high=14))
def test_tables_come_strongest_first_each_with_its_higher_ranked_first(field: Field) -> None:
    rank = {e.id: n for n, e in enumerate(ranked(field.entrants))}
    tables = field.pair().tables
    assert all(rank[a] < rank[b] for a, b in tables)
    assert [rank[a] for a, _ in tables] == sorted(rank[a] for a, _ in tables)


def test_a_score_group_is_paired_top_half_against_bottom_half_the_odd_one_floating_down() -> None:
    teams = [Entrant(name, 2 if name < "f" else 1, 10 - n) for n, name in enumerate("abcdefgh")]
    # a..e on 2 points, f..h on 1: a-c, b-d, e floats down to meet f, then g-h.
    assert pair_round(teams).tables == (("a", "c"), ("b", "d"), ("e", "f"), ("g", "h"))


def test_past_meetings_are_avoided_by_the_next_partner_in_the_fold() -> None:
    teams = [Entrant(name, 0, 10 - n) for n, name in enumerate("abcd")]
    met = [frozenset("ac")]
    assert pair_round(teams, met).tables == (("a", "d"), ("b", "c"))


def test_a_field_where_everyone_has_met_repeats_the_fewest_meetings() -> None:
    teams = [Entrant(name, 0, 10 - n) for n, name in enumerate("abcdef")]
    met = {frozenset(pair) for pair in combinations("abcd", 2)}  # a, b, c, d all met
    pairing = pair_round(teams, met)
    assert pairing.rematches == 1  # e and f take two of them; the other two meet again


@pytest.mark.parametrize("count", [8, 9, 15, 16, 33, 64])
def test_a_whole_simulated_swiss_has_no_rematch_and_no_second_bye(count: int) -> None:
    for seed in range(5):
        swiss_event(count, random.Random(seed))


@settings(max_examples=40, deadline=None)
@given(st.integers(8, 64), st.randoms(use_true_random=False))
def test_any_simulated_swiss_of_8_to_64_has_no_rematch(count: int, rng: random.Random) -> None:
    swiss_event(count, rng)


def swiss_event(count: int, rng: random.Random) -> None:
    """log2(count) + 1 rounds; the stronger team wins a series more often; a bye
    scores 1. Every round: everyone placed once, no rematch, no second bye.

    From 10 entrants on a pairing without rematch always exists: before the last
    round each has met at most log2(count) others, so among the m at tables each may
    still meet at least m / 2 of them, and such a graph has a perfect matching (Dirac).
    Of 9, the fifth round might have none: there the fewest possible are asked."""
    strength = {f"t{n}": float(rng.randrange(1000, 2000)) for n in range(count)}
    score = dict.fromkeys(strength, 0.0)
    met: set[frozenset[str]] = set()
    byes: set[str] = set()
    for _ in range(math.ceil(math.log2(count)) + 1):
        entrants = [Entrant(id_, score[id_], strength[id_]) for id_ in strength]
        pairing = pair_round(entrants, met, byes)
        assert sorted(placed(pairing)) == sorted(strength)
        field = Field(tuple(entrants), frozenset(met), frozenset(byes))
        assert pairing.rematches == (0 if count >= 10 else fewest_rematches(field))
        assert pairing.bye not in byes
        if pairing.bye is not None:
            byes.add(pairing.bye)
            score[pairing.bye] += 1
        for a, b in pairing.tables:
            met.add(frozenset((a, b)))
            odds = 1 / (1 + 10 ** ((strength[b] - strength[a]) / 400))
            score[a if rng.random() < odds else b] += 1


def fewest_rematches(field: Field) -> int:
    """The fewest rematches of any pairing, by a maximum matching of the pairs that
    have not met over subsets (exponential: for up to 14 entrants): a pairing needs
    a rematch for every two entrants that matching leaves out."""
    ids = [e.id for e in field.entrants]

    @cache
    def most_tables(rest: frozenset[str]) -> int:
        if len(rest) < 2:
            return 0
        first = min(rest)
        others = rest - {first}
        options = [most_tables(others)]  # the first meets one he has met
        for partner in others:
            if frozenset((first, partner)) not in field.met:
                options.append(1 + most_tables(others - {partner}))
        return max(options)

    return min(
        len(ids) // 2 - most_tables(frozenset(ids) - {bye})
        for bye in eligible_byes(field) or [None]
    )


def test_the_matching_finds_the_fewest_rematches_when_the_search_runs_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With no search steps at all, the blossom matching still finds a pairing with the
    fewest rematches (fields of up to 14 entrants, many of them met)."""
    monkeypatch.setattr(swiss, "SEARCH_STEPS", 0)
    rng = random.Random(7)
    for _ in range(300):
        count = rng.randrange(1, 15)
        ids = [f"t{n}" for n in range(count)]
        pairs = [frozenset(p) for p in combinations(ids, 2)]
        density = rng.choice((0.3, 0.6, 0.8))
        field = Field(
            tuple(Entrant(id_, rng.randrange(3), rng.randrange(3)) for id_ in ids),
            frozenset(p for p in pairs if rng.random() < density),
            frozenset(id_ for id_ in ids if rng.random() < 0.3),
        )
        pairing = field.pair()
        assert sorted(placed(pairing)) == sorted(ids)
        assert pairing.rematches == fewest_rematches(field)
        assert pairing.bye is None or pairing.bye in eligible_byes(field)


# --- Standings ---------------------------------------------------------------------------


@FAST
@given(fields(high=12))
def test_standings_order_by_score_then_buchholz_then_rating(field: Field) -> None:
    lines = standings(field.entrants, field.met)
    assert sorted(line.entrant.id for line in lines) == sorted(e.id for e in field.entrants)
    keys = [(-s.entrant.score, -s.buchholz, -s.entrant.rating, s.entrant.id) for s in lines]
    assert keys == sorted(keys)
    score = {e.id: e.score for e in field.entrants}
    for line in lines:
        opponents = [other for pair in field.met if line.entrant.id in pair for other in pair]
        assert line.buchholz == sum(score[o] for o in opponents if o != line.entrant.id)
    for n, line in enumerate(lines):  # equals share a place; else a place is its rank
        if n and keys[n][:3] == keys[n - 1][:3]:
            assert line.place == lines[n - 1].place
        else:
            assert line.place == n + 1
    assert standings(list(reversed(field.entrants)), list(field.met)) == lines


def test_standings_count_a_repeated_meeting_twice_and_ignore_who_left() -> None:
    teams = [Entrant("a", 2, 0), Entrant("b", 1, 0)]
    lines = standings(teams, [("a", "b"), ("b", "a"), ("a", "gone")])
    assert [(s.entrant.id, s.buchholz) for s in lines] == [("a", 2.0), ("b", 4.0)]


def test_two_entrants_with_one_id_are_refused() -> None:
    twins = [Entrant("a", 0, 0), Entrant("a", 1, 0)]
    with pytest.raises(ValueError, match="share an id"):
        pair_round(twins)
    with pytest.raises(ValueError, match="share an id"):
        standings(twins)
