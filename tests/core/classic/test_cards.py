"""Cards, strength, permanent trumps, the trump suit and points (docs/rules/reference.md §2.2)."""

from __future__ import annotations

import pytest

from core.cards import Suit
from core.classic.cards import (
    CARDS,
    DECK_SIZE,
    index_of,
    points_in,
    strongest_first,
    trick_winner,
    trumps_for,
)
from core.errors import KozelError, Reason
from tests.core.classic.helpers import card, cards, codes


def test_the_deck_has_32_cards_7_to_ace_and_120_points() -> None:
    assert len(CARDS) == DECK_SIZE == len(set(CARDS))
    assert {c.rank.letter for c in CARDS} == set("789TJQKA")
    assert points_in((1 << DECK_SIZE) - 1) == 120
    assert [card(code).points for code in ("AS", "TS", "KS", "QS", "JS", "9S", "8S", "7S")] == [
        11,
        10,
        4,
        3,
        2,
        0,
        0,
        0,
    ]


def test_a_six_is_not_in_the_deck() -> None:
    with pytest.raises(KozelError) as error:
        index_of(card("6H"))
    assert error.value.reason is Reason.UNKNOWN_CARD


def test_trump_order_kocherga_queens_jacks_then_the_trump_suit() -> None:
    table = trumps_for(Suit.DIAMONDS, kocherga=True)
    deck = cards("7D AD JD QD 7C JC KD QC TD 9D 8D QH QS JS JH")
    assert codes(strongest_first(table, deck)) == codes(
        cards("7C QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D")
    )


def test_plain_order_ace_ten_king_nine_eight_seven() -> None:
    table = trumps_for(None, kocherga=True)
    assert codes(strongest_first(table, cards("7S KS 9S AS 8S TS"))) == codes(
        cards("AS TS KS 9S 8S 7S")
    )


@pytest.mark.parametrize(
    ("kocherga", "suit", "code", "trump"),
    [
        (True, None, "7C", True),
        (False, None, "7C", False),
        (False, Suit.CLUBS, "7C", True),
        (True, None, "QH", True),
        (True, None, "JD", True),
        (True, Suit.HEARTS, "AH", True),
        (True, Suit.HEARTS, "AS", False),
        (True, None, "AH", False),
    ],
)
def test_which_cards_are_trumps(kocherga: bool, suit: Suit | None, code: str, trump: bool) -> None:
    assert trumps_for(suit, kocherga).is_trump(card(code)) is trump


def test_a_permanent_trump_belongs_to_no_suit() -> None:
    table = trumps_for(Suit.HEARTS, kocherga=True)
    assert not table.suit_cards >> index_of(card("QH")) & 1
    assert not table.plain[Suit.CLUBS] >> index_of(card("7C")) & 1
    assert trumps_for(Suit.HEARTS, kocherga=False).plain[Suit.CLUBS] >> index_of(card("7C")) & 1


@pytest.mark.parametrize(
    ("suit", "trick", "winner"),
    [
        (None, "KH AH 9H TS", 1),  # the strongest of the led suit
        (None, "KH AS TD 7H", 0),  # other suits do not compete
        (Suit.SPADES, "AH 7S TH KH", 1),  # any trump beats plain cards
        (Suit.SPADES, "AS JD 7C QC", 2),  # 7♣ is the strongest trump
        (Suit.SPADES, "JD JH QD JC", 2),
    ],
)
def test_trick_winner(suit: Suit | None, trick: str, winner: int) -> None:
    table = trumps_for(suit, kocherga=True)
    assert trick_winner(table, [index_of(c) for c in cards(trick)]) == winner
