"""Cards, strength within a suit, trumps and card points (docs/rules/reference.md §1.1 and
notation)."""

from __future__ import annotations

from itertools import pairwise

import pytest

from core.cards import (
    CARDS,
    FULL_MASK,
    POINTS,
    SHORT_DECK,
    Card,
    Rank,
    Suit,
    cards_of,
    full_deck,
    mask_of,
    points_of,
)
from core.errors import KozelError, Reason
from core.yard.rules import beats

#: Yard strength within a suit, low to high: the ten is above the king.
ORDER = ["6", "7", "8", "9", "J", "Q", "K", "T", "A"]


def c(code: str) -> Card:
    return Card.parse(code)


@pytest.mark.parametrize("suit", "CSHD")
@pytest.mark.parametrize(("low", "high"), list(pairwise(ORDER)))
def test_strength_order_within_a_suit(suit: str, low: str, high: str) -> None:
    trump = Suit.HEARTS if suit != "H" else Suit.CLUBS
    for t in (trump, Suit("CSHD".index(suit))):  # as a plain suit and as the trump suit
        assert beats(c(high + suit), c(low + suit), t)
        assert not beats(c(low + suit), c(high + suit), t)


@pytest.mark.parametrize(
    ("x", "y", "trump", "expected"),
    [
        ("TS", "KS", Suit.HEARTS, True),  # the ten is above the king
        ("KS", "TS", Suit.HEARTS, False),
        ("AS", "TS", Suit.HEARTS, True),
        ("TS", "AS", Suit.HEARTS, False),
        ("KS", "QS", Suit.HEARTS, True),
        ("JS", "9S", Suit.HEARTS, True),
        ("AS", "AS", Suit.HEARTS, False),  # a card does not beat itself
        ("6H", "AS", Suit.HEARTS, True),  # the lowest trump beats a plain ace
        ("AS", "6H", Suit.HEARTS, False),
        ("7D", "6D", Suit.DIAMONDS, True),  # trump over trump by rank
        ("6D", "7D", Suit.DIAMONDS, False),
        ("AS", "6C", Suit.HEARTS, False),  # two plain suits: no comparison
        ("6C", "AS", Suit.HEARTS, False),
        ("AD", "6C", Suit.HEARTS, False),
    ],
)
def test_beats_table(x: str, y: str, trump: Suit, expected: bool) -> None:
    assert beats(c(x), c(y), trump) is expected


@pytest.mark.parametrize("trump", list(Suit))
def test_every_trump_beats_every_plain_card_and_never_the_reverse(trump: Suit) -> None:
    trumps = [card for card in CARDS if card.suit is trump]
    plain = [card for card in CARDS if card.suit is not trump]
    for t in trumps:
        for p in plain:
            assert beats(t, p, trump)
            assert not beats(p, t, trump)


@pytest.mark.parametrize("trump", list(Suit))
def test_plain_cards_of_different_suits_are_incomparable(trump: Suit) -> None:
    plain = [card for card in CARDS if card.suit is not trump]
    for x in plain:
        for y in plain:
            if x.suit is not y.suit:
                assert not beats(x, y, trump)


@pytest.mark.parametrize("trump", list(Suit))
def test_beats_matches_the_definition_for_every_pair(trump: Suit) -> None:
    for x in CARDS:
        for y in CARDS:
            same_suit_higher = x.suit is y.suit and ORDER.index(x.rank.letter) > ORDER.index(
                y.rank.letter
            )
            trump_over_plain = x.suit is trump and y.suit is not trump
            assert beats(x, y, trump) is (same_suit_higher or trump_over_plain), (x, y)


@pytest.mark.parametrize(
    ("rank", "points"),
    [("A", 11), ("T", 10), ("K", 4), ("Q", 3), ("J", 2), ("9", 0), ("8", 0), ("7", 0), ("6", 0)],
)
def test_card_points(rank: str, points: int) -> None:
    for suit in "CSHD":
        assert c(rank + suit).points == points
        assert POINTS[c(rank + suit).index] == points


def test_deck_is_36_cards_worth_120_points() -> None:
    deck = full_deck()
    assert len(deck) == 36 and len(set(deck)) == 36
    assert sum(card.points for card in deck) == 120
    assert points_of(FULL_MASK) == 120
    assert all(sum(card.points for card in deck if card.suit is s) == 30 for s in Suit)


def test_codes_round_trip_and_ten_spellings() -> None:
    for card in CARDS:
        assert Card.parse(card.code) == card
        assert Card.from_index(card.index) == card
    assert c("TH") == c("10H") == c("th") == Card(Rank.TEN, Suit.HEARTS)
    assert str(c("QC")) == "QC"
    assert (c("6D").suit.symbol, c("6D").suit.letter) == ("♦", "D")


@pytest.mark.parametrize("code", ["", "1H", "XX", "AHH", "6Z", "11C", "H", None, 5])
def test_unknown_card_codes_are_refused(code: object) -> None:
    with pytest.raises(KozelError) as caught:
        Card.parse(code)  # type: ignore[arg-type]
    assert caught.value.reason is Reason.UNKNOWN_CARD


def test_masks_round_trip_in_suit_then_strength_order() -> None:
    hand = [c("AH"), c("6D"), c("TH"), c("KH"), c("6C")]
    mask = mask_of(hand)
    assert mask.bit_count() == 5
    assert [card.code for card in cards_of(mask)] == ["6C", "KH", "TH", "AH", "6D"]
    assert points_of(mask) == 11 + 10 + 4


def test_short_deck_is_32_cards_without_sixes_worth_120_points() -> None:
    assert len(SHORT_DECK) == 32 and len(set(SHORT_DECK)) == 32
    assert {card.rank for card in SHORT_DECK} == set(Rank) - {Rank.SIX}
    assert set(SHORT_DECK) < set(full_deck())
    assert sum(card.points for card in SHORT_DECK) == 120
