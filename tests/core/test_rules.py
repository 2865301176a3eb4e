"""Set beating (docs/rules/reference.md §1.1): a one-to-one pairing where every card beats its
partner."""

from __future__ import annotations

from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.cards import CARDS, Card, Suit
from core.yard.rules import beats, set_beats

from .decks import cards

H, D, S, C = Suit.HEARTS, Suit.DIAMONDS, Suit.SPADES, Suit.CLUBS


def brute_force(xs: list[Card], ys: list[Card], trump: Suit) -> bool:
    return len(xs) == len(ys) and any(
        all(beats(x, y, trump) for x, y in zip(perm, ys, strict=True)) for perm in permutations(xs)
    )


@pytest.mark.parametrize(
    ("x", "y", "trump", "expected"),
    [
        # One card.
        ("7H", "6H", D, True),
        ("6D", "AH", D, True),
        ("AH", "6D", D, False),
        # Same suit, the pairing is free.
        ("AS KS", "QS JS", H, True),
        ("KS QS", "AS 6S", H, False),  # nothing beats the ace of spades
        ("7S 9S", "6S 8S", H, True),
        ("7S 8S", "6S 9S", H, False),
        # Mixed: only TS→KS, 8D→7D works; listed in the order that pairs wrongly.
        ("8D TS", "KS 7D", D, True),
        # Each card beats something, but no pairing beats both: 6D is below 7D.
        ("AS 6D", "KS 7D", D, False),
        # Trumps beating a mixed set (plain ace + trump nine).
        ("6D TD", "AS 9D", D, True),
        ("6D 7D", "AS 9D", D, False),
        ("TD 6D", "9D AS", D, True),
        # Some higher cards of the led suit, some trumps.
        ("AS 7H", "KS QS", H, True),
        ("TH 6D 7D 8D", "6H 7H 8H 9H", D, True),
        ("TH JH QH 6C", "6H 7H 8H 9H", D, False),  # a plain club beats no heart
        ("TH JH QH KH", "6H 7H 8H 9H", D, True),
        ("6D 7D 8D 9D", "AS TS KS QS", D, True),
        ("6D 7D 8D 9D", "AD TS KS QS", D, False),  # the trump ace is unbeatable
        # A higher card of a third suit does nothing.
        ("AC", "6S", H, False),
        # Sizes must match; a card cannot be given twice.
        ("AS KS", "QS", H, False),
        ("AS", "QS JS", H, False),
        ("AS AS", "QS JS", H, False),
    ],
)
def test_set_beats_table(x: str, y: str, trump: Suit, expected: bool) -> None:
    xs, ys = list(cards(x)), list(cards(y))
    assert set_beats(xs, ys, trump) is expected
    if len(set(xs)) == len(xs):
        assert brute_force(xs, ys, trump) is expected


def test_set_beats_does_not_depend_on_order() -> None:
    xs, ys = cards("8D TS"), cards("KS 7D")
    for px in permutations(xs):
        for py in permutations(ys):
            assert set_beats(px, py, D)


@st.composite
def two_sets(draw: st.DrawFn) -> tuple[list[Card], list[Card], Suit]:
    n = draw(st.integers(1, 4))
    indexes = draw(st.lists(st.integers(0, 35), min_size=2 * n, max_size=2 * n, unique=True))
    trump = draw(st.sampled_from(list(Suit)))
    chosen = [CARDS[i] for i in indexes]
    return chosen[:n], chosen[n:], trump


@st.composite
def close_sets(draw: st.DrawFn) -> tuple[list[Card], list[Card], Suit]:
    """Sets from two suits only, so that beating is neither rare nor trivial."""
    trump = draw(st.sampled_from(list(Suit)))
    plain = draw(st.sampled_from([s for s in Suit if s is not trump]))
    pool = [card for card in CARDS if card.suit in (trump, plain)]
    n = draw(st.integers(1, 4))
    chosen = draw(st.permutations(pool))[: 2 * n]
    return chosen[:n], chosen[n:], trump


@settings(max_examples=300, deadline=None)
@given(two_sets())
def test_set_beats_equals_brute_force_on_random_sets(sets: tuple[list[Card], ...]) -> None:
    xs, ys, trump = sets
    assert set_beats(xs, ys, trump) is brute_force(xs, ys, trump)


@settings(max_examples=300, deadline=None)
@given(close_sets())
def test_set_beats_equals_brute_force_on_two_suit_sets(sets: tuple[list[Card], ...]) -> None:
    xs, ys, trump = sets
    assert set_beats(xs, ys, trump) is brute_force(xs, ys, trump)
