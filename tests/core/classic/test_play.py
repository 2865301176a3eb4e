"""Playing the tricks: the follow rules, the trump-lead restriction, the ace ban and
the kocherga catch (docs/rules/reference.md §2.10, §2.11), each on hand-built hands."""

from __future__ import annotations

import pytest

from core.classic.dealing import Dealing, Phase
from core.classic.errors import ClassicReason
from core.classic.events import DealEnd, KochergaCaught
from core.classic.options import ClassicOptions
from core.errors import KozelError, Reason
from core.seats import Team
from tests.core.classic.helpers import act, dealt, later, opts, play, round_deck

SEAT0 = "KS QD 9H 8C 9C TC KC AC"


def legal_cards(dealing: Dealing, seat: int) -> set[str]:
    return {a.card.code for a in dealing.legal_actions(seat) if a.card is not None}


def refused(dealing: Dealing, text: str) -> Reason:
    with pytest.raises(KozelError) as error:
        dealing.verify(act(text))
    return error.value.reason


def auto(dealing: Dealing, *seats: int) -> None:
    """Each seat plays its first legal card."""
    for seat in seats:
        dealing.apply(dealing.legal_actions(seat)[0])


# --- Following --------------------------------------------------------------------------


@pytest.mark.parametrize("follow", ["suit_first", "any_trump"])
def test_plain_lead_must_be_followed_by_a_plain_card_of_its_suit(follow: str) -> None:
    dealing = dealt(opts(trump_suit="H", follow=follow), {0: SEAT0, 1: "7S QS TH 7D 8D 9D TD KD"})
    play(dealing, "0:play KS")
    assert legal_cards(dealing, 1) == {"7S"}  # QS is a permanent trump, not a spade
    assert refused(dealing, "1:play QS") is ClassicReason.MUST_FOLLOW_SUIT


@pytest.mark.parametrize("follow", ["suit_first", "any_trump"])
def test_permanent_trump_lead_must_be_followed_by_any_trump(follow: str) -> None:
    dealing = dealt(opts(trump_suit="H", follow=follow), {0: SEAT0, 1: "7S QS TH 7D 8D 9D TD KD"})
    play(dealing, "0:play QD")
    assert legal_cards(dealing, 1) == {"QS", "TH"}
    assert refused(dealing, "1:play 7S") is ClassicReason.MUST_PLAY_TRUMP


def test_trump_suit_lead_suit_first_then_a_permanent_trump() -> None:
    dealing = dealt(opts(trump_suit="H"), {0: SEAT0, 1: "7S QS TH 7D 8D 9D TD KD"})
    play(dealing, "0:play 9H")
    assert legal_cards(dealing, 1) == {"TH"}
    assert refused(dealing, "1:play QS") is ClassicReason.MUST_PLAY_TRUMP_SUIT
    no_hearts = dealt(opts(trump_suit="H"), {0: SEAT0, 1: "7S QS 7D 8D 9D TD KD AD"})
    play(no_hearts, "0:play 9H")
    assert legal_cards(no_hearts, 1) == {"QS"}
    assert refused(no_hearts, "1:play 7S") is ClassicReason.MUST_PLAY_PERMANENT_TRUMP


def test_trump_suit_lead_any_trump_takes_every_trump_alike() -> None:
    hands = {0: SEAT0, 1: "7S QS TH 7D 8D 9D TD KD"}
    dealing = dealt(opts(trump_suit="H", follow="any_trump"), hands)
    play(dealing, "0:play 9H")
    assert legal_cards(dealing, 1) == {"QS", "TH"}
    assert refused(dealing, "1:play 7S") is ClassicReason.MUST_PLAY_TRUMP


@pytest.mark.parametrize("follow", ["suit_first", "any_trump"])
def test_without_a_card_to_follow_any_card_but_a_banned_ace(follow: str) -> None:
    dealing = dealt(opts(trump_suit="H", follow=follow), {0: SEAT0, 1: "7S 8S 7D 8D 9D TD KD AD"})
    play(dealing, "0:play 9H")
    assert legal_cards(dealing, 1) == {"7S", "8S", "7D", "8D", "9D", "TD", "KD"}
    assert refused(dealing, "1:play AD") is ClassicReason.ACE_BANNED


def test_card_not_in_hand_and_out_of_turn_are_refused() -> None:
    dealing = dealt(ClassicOptions(), {0: SEAT0})
    assert refused(dealing, "0:play AS") is Reason.NOT_IN_HAND
    assert refused(dealing, "1:play 7S") is Reason.NOT_YOUR_TURN


# --- The trump-lead restriction ------------------------------------------------------------

# Seat 0 praises simple; its first card 9H is not good: trump ♥, one card each, the rest
# one at a time from the declarer.
RESTRICT = {
    0: "9H 7S 7C 8C 9C TC KC AC",
    1: "8S QC QS TH KH AH JC JS",
    2: "AS 7D 8D 9D TD KD AD QD",
    3: "9S TS KS 7H 8H QH JH JD",
}


def declared(hands: dict[int, str], **options: object) -> Dealing:
    dealing = later(opts(**options), round_deck(hands, first=0))
    play(dealing, "0:praise")
    assert dealing.declarer == 0 and dealing.leader == 0
    return dealing


@pytest.mark.parametrize("trump_lead", ["declarer", "team"])
def test_the_declarer_may_lead_trumps(trump_lead: str) -> None:
    dealing = declared(RESTRICT, trump_lead=trump_lead)
    assert {"7C", "9H"} <= legal_cards(dealing, 0)


def test_an_opponent_with_a_plain_card_may_not_lead_trumps() -> None:
    dealing = declared(RESTRICT)
    play(dealing, "0:play 8C", "1:play QC", "2:play 7D", "3:play 7H")
    assert dealing.turn == 1
    assert legal_cards(dealing, 1) == {"8S"}
    assert refused(dealing, "1:play QS") is ClassicReason.TRUMP_LEAD_FORBIDDEN


def test_a_player_holding_only_trumps_may_lead_one() -> None:
    hands = {**RESTRICT, 1: "QC QS TH KH AH JC JS 8H", 3: "9S TS KS 7H 8S QH JH JD"}
    dealing = declared(hands)
    play(dealing, "0:play 8C", "1:play QC", "2:play 7D", "3:play 7H")
    assert legal_cards(dealing, 1) == {"QS", "TH", "KH", "AH", "JC", "JS", "8H"}


@pytest.mark.parametrize(("trump_lead", "may"), [("declarer", False), ("team", True)])
def test_the_declarers_partner_leads_trumps_only_with_team(trump_lead: str, may: bool) -> None:
    dealing = declared(RESTRICT, trump_lead=trump_lead)
    play(dealing, "0:play 7S", "1:play 8S", "2:play AS", "3:play 9S")
    assert dealing.turn == 2
    assert ("QD" in legal_cards(dealing, 2)) is may


def test_without_a_declarer_everybody_may_lead_trumps() -> None:
    dealing = dealt(opts(trump_suit="H"), {0: SEAT0})
    assert legal_cards(dealing, 0) == set(SEAT0.split())


# --- The ace ban ------------------------------------------------------------------------------


def test_ace_ban_lifts_once_the_suit_has_been_led() -> None:
    hands = {
        0: "KD TD 8C 9C TC KC AC 9H",
        1: "7D AD AS 7S 8S 9S TS JS",
        2: "8D 7C QC JC QS KS 7H 8H",
        3: "9D TH KH AH QH JH QD JD",
    }
    dealing = dealt(opts(trump_suit="H"), hands)
    play(dealing, "0:play KD", "1:play 7D", "2:play 8D", "3:play 9D", "0:play 8C")
    # No club and no duty: diamonds were led, so AD may go; spades were not: AS may not.
    assert legal_cards(dealing, 1) == {"AD", "7S", "8S", "9S", "TS", "JS"}
    assert refused(dealing, "1:play AS") is ClassicReason.ACE_BANNED


def test_the_trump_suit_ace_is_never_banned_and_without_trump_suit_all_aces_are() -> None:
    hands = {0: SEAT0, 1: "7S AH 7D 8D 9D TD KD AD"}
    dealing = dealt(opts(trump_suit="H"), hands)
    play(dealing, "0:play 8C")
    assert "AH" in legal_cards(dealing, 1) and "AD" not in legal_cards(dealing, 1)
    no_trump = dealt(opts(trump_roulette=False), hands)
    play(no_trump, "0:play 8C")
    assert not {"AH", "AD"} & legal_cards(no_trump, 1)


def test_ace_ban_off_allows_any_ace() -> None:
    hands = {0: SEAT0, 1: "7S 8S 7D 8D 9D TD KD AD"}
    dealing = dealt(opts(trump_suit="H", ace_ban=False), hands)
    play(dealing, "0:play 9H")
    assert "AD" in legal_cards(dealing, 1)


def test_a_player_holding_only_banned_aces_may_play_one() -> None:
    hands = {0: "QC QS QH QD KC 9C TC AC", 1: "JC JS JH JD 8C AS AH AD"}
    dealing = dealt(opts(trump_roulette=False, kocherga=False), hands)
    for queen, jack in (("QC", "JC"), ("QS", "JS"), ("QH", "JH"), ("QD", "JD")):
        play(dealing, f"0:play {queen}", f"1:play {jack}")
        auto(dealing, 2, 3)
    play(dealing, "0:play KC", "1:play 8C")
    auto(dealing, 2, 3)
    assert dealing.turn == 0
    play(dealing, "0:play 9C")
    assert legal_cards(dealing, 1) == {"AS", "AH", "AD"}


# --- Kocherga ------------------------------------------------------------------------------------

KOCHERGA_HANDS = {
    0: "QC 7S 8S 9S TS KS AS 7D",
    1: "7C 8D 9D TD KD AD 8C 9C",
    2: "TH QS 7H 8H 9H KH AH TC",
    3: "JC KC AC JS QH JH QD JD",
}


def test_kocherga_after_an_opponents_queen_of_clubs_ends_the_deal() -> None:
    dealing = dealt(opts(trump_suit="H"), KOCHERGA_HANDS)
    events = play(dealing, "0:play QC", "1:play 7C")
    assert KochergaCaught(1, Team.B) in events
    assert dealing.phase is Phase.OVER and dealing.end is DealEnd.KOCHERGA
    result = dealing.result
    assert result is not None and result.winner is Team.B and result.pairs == (0, 4)
    assert dealing.tricks == (0, 0) and dealing.points == (0, 0)  # the trick goes to nobody
    assert dealing.cards_accounted() == 32
    assert dealing.legal_actions() == []


def test_kocherga_catches_a_queen_of_clubs_that_did_not_lead() -> None:
    hands = {
        0: "9H 7S 8S 9S TS KS AS 7D",
        1: "QC 8D 9D TD KD AD 8C 9C",
        2: "7C QS 7H 8H TH KH AH TC",
        3: "JC KC AC JS QH JH QD JD",
    }
    dealing = dealt(opts(trump_suit="H", follow="any_trump"), hands)
    events = play(dealing, "0:play 9H", "1:play QC", "2:play 7C")
    assert KochergaCaught(2, Team.A) in events and dealing.end is DealEnd.KOCHERGA


def test_kocherga_after_the_partners_queen_is_just_the_strongest_trump() -> None:
    hands = {**KOCHERGA_HANDS, 1: "TH 8D 9D TD KD AD 8C 9C", 2: "7C QS 7H 8H 9H KH AH TC"}
    dealing = dealt(opts(trump_suit="H"), hands)
    play(dealing, "0:play QC", "1:play TH", "2:play 7C")
    auto(dealing, 3)
    assert dealing.phase is Phase.PLAY and dealing.tricks == (1, 0) and dealing.turn == 2


def test_kocherga_before_the_queen_is_just_the_strongest_trump() -> None:
    hands = {
        0: "7C 7S 8S 9S TS KS AS 7D",
        1: "QC TH 8D 9D TD KD AD 8C",
        2: "9C QS 7H 8H 9H KH AH TC",
        3: "JC KC AC JS QH JH QD JD",
    }
    dealing = dealt(opts(trump_suit="H"), hands)
    play(dealing, "0:play 7C", "1:play QC")
    auto(dealing, 2, 3)
    assert dealing.end is None and dealing.tricks == (1, 0) and dealing.turn == 0


def test_without_kocherga_seven_of_clubs_catches_nothing() -> None:
    hands = {0: "QC 7S", 1: "7C 8C 9C TC 8S 9S TS KS"}
    dealing = dealt(opts(trump_suit="H", kocherga=False), hands)
    play(dealing, "0:play QC", "1:play 7C")
    assert dealing.end is None
    auto(dealing, 2, 3)
    assert sum(dealing.tricks) == 1
