"""Snapshots written piece by piece (``snapshot`` and ``SnapshotCache``) are exactly the
plain JSON dump of the record, at every step of random play."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from core.yard.actions import Action
from core.yard.events import Event
from core.yard.record import SNAPSHOT_VERSION, SnapshotCache, restore, series_to_record, snapshot
from core.yard.series import Series

from .test_properties import SEEDS, random_play

FAST = settings(max_examples=60, deadline=None)


def plain_snapshot(series: Series) -> str:
    """The snapshot as it was first written: the record dumped whole."""
    data = series_to_record(series)
    data["snapshot"] = SNAPSHOT_VERSION
    data["first_dealer"] = series.first_dealer
    return json.dumps(data, separators=(",", ":"))


@FAST
@given(SEEDS, st.integers(1, 4))
def test_cached_snapshots_equal_the_plain_dump_at_every_step(seed: int, size: int) -> None:
    """A small cache also forgets deals it still needs: they are written again."""
    cache = SnapshotCache(size=size)
    steps = 0

    def check(series: Series, action: Action | None, events: list[Event]) -> None:
        nonlocal steps
        steps += 1
        expected = plain_snapshot(series)
        assert cache.snapshot(series) == expected
        assert snapshot(series) == expected
        assert len(cache) <= size
        if steps % 17 == 0:
            assert restore(expected) == series

    series, _ = random_play(seed, max_deals=3, on_step=check)
    assert cache.snapshot(series) == plain_snapshot(series)


@settings(max_examples=30, deadline=None)
@given(SEEDS)
def test_one_cache_serves_many_series_and_their_restored_copies(seed: int) -> None:
    rng = random.Random(seed)
    cache = SnapshotCache()
    series = [Series(first_dealer=rng.randrange(4)) for _ in range(3)]
    for s in series:
        assert cache.snapshot(s) == plain_snapshot(s)
    for step in range(200):
        s = rng.choice([s for s in series if not s.is_over] or series)
        if s.is_over:
            break
        current = s.current
        if current is None or current.is_over:
            s.deal(rng)
        else:
            s.apply(rng.choice(s.legal_actions()))
        text = cache.snapshot(s)
        assert text == plain_snapshot(s)
        if step % 25 == 0:
            copy = restore(text)
            assert copy == s
            # New deal objects, equal to the old ones: the same text.
            assert cache.snapshot(copy) == text
