"""Before the first lead (docs/rules/reference.md §2.9): giving the last trump and asking for a
redeal."""

from __future__ import annotations

import pytest

from core.classic.dealing import Dealing, Phase
from core.classic.errors import ClassicReason
from core.classic.events import DealEnd, RedealAsked, TrumpAccepted, TrumpDeclined, TrumpOffered
from core.classic.game import ClassicGame
from core.classic.options import ClassicOptions
from core.errors import KozelError, Reason
from core.seats import Team
from tests.core.classic.helpers import (
    act,
    card,
    cards,
    dealt,
    ends_deck,
    later,
    opts,
    plain_deck,
    play,
)

HANDS = {
    0: "QC 7S 8S 9S TS KS AS 7D",  # one trump (♥ is the trump suit)
    1: "7C 8D 9D TD KD AD 8C 9C",
    2: "TH QS 7H 8H 9H KH AH TC",  # one plain card: TC
    3: "JC KC AC JS QH JH QD JD",
}


def refused(dealing: Dealing, text: str) -> Reason:
    with pytest.raises(KozelError) as error:
        dealing.verify(act(text))
    return error.value.reason


def kinds(dealing: Dealing, seat: int) -> list[str]:
    return [str(a) for a in dealing.legal_actions(seat)]


def test_a_player_with_exactly_one_trump_may_offer_it() -> None:
    dealing = dealt(opts(trump_suit="H"), HANDS)
    assert "0:offer_trump" in kinds(dealing, 0)
    assert "1:offer_trump" in kinds(dealing, 1)  # 7C, the kocherga, is his one trump
    assert refused(dealing, "3:offer_trump") is ClassicReason.NOT_ONE_TRUMP


def test_the_partner_answers_at_once_and_nothing_else_happens_meanwhile() -> None:
    dealing = dealt(opts(trump_suit="H"), HANDS)
    assert play(dealing, "0:offer_trump") == [TrumpOffered(0)]
    assert dealing.phase is Phase.ANSWER and dealing.turn == 2
    assert sorted(kinds(dealing, 2)) == ["2:accept_trump TC", "2:decline_trump"]
    assert [dealing.legal_actions(s) for s in (0, 1, 3)] == [[], [], []]
    assert refused(dealing, "0:play 7S") is ClassicReason.OFFER_PENDING
    assert refused(dealing, "1:redeal") is ClassicReason.OFFER_PENDING
    assert refused(dealing, "3:offer_trump") is ClassicReason.OFFER_PENDING
    assert refused(dealing, "1:decline_trump") is Reason.NOT_YOUR_TURN
    assert refused(dealing, "2:accept_trump TH") is ClassicReason.MUST_GIVE_PLAIN
    assert refused(dealing, "2:accept_trump 7S") is Reason.NOT_IN_HAND


def test_accepting_swaps_the_cards_and_only_the_partners_know_them() -> None:
    dealing = dealt(opts(trump_suit="H"), HANDS)
    events = play(dealing, "0:offer_trump", "2:accept_trump TC")
    assert events == [TrumpOffered(0), TrumpAccepted(2, 0)]
    assert card("TC") in dealing.hand(0) and card("QC") not in dealing.hand(0)
    assert card("QC") in dealing.hand(2) and card("TC") not in dealing.hand(2)
    assert dealing.table_view().exchanges == (0,)
    mine = dealing.view(0).exchange
    assert mine is not None and (mine.given, mine.got) == (card("QC"), card("TC"))
    theirs = dealing.view(2).exchange
    assert theirs is not None and (theirs.given, theirs.got) == (card("TC"), card("QC"))
    assert dealing.view(1).exchange is None and dealing.view(3).exchange is None
    assert dealing.phase is Phase.PLAY and dealing.turn == 0


def test_a_partner_holding_only_trumps_gives_any_card() -> None:
    hands = {**HANDS, 2: "TH QS 7H 8H 9H KH AH JS", 3: "JC KC AC TC QH JH QD JD"}
    dealing = dealt(opts(trump_suit="H"), hands)
    play(dealing, "0:offer_trump")
    assert len([a for a in dealing.legal_actions(2) if a.card is not None]) == 8
    play(dealing, "2:accept_trump AH")
    assert card("AH") in dealing.hand(0)


def test_one_offer_per_player_per_dealing() -> None:
    dealing = dealt(opts(trump_suit="H"), HANDS)
    assert play(dealing, "0:offer_trump", "2:decline_trump")[-1] == TrumpDeclined(2, 0)
    assert refused(dealing, "0:offer_trump") is ClassicReason.ALREADY_OFFERED
    assert "0:offer_trump" not in kinds(dealing, 0)


def test_no_answer_without_an_offer() -> None:
    dealing = dealt(opts(trump_suit="H"), HANDS)
    assert refused(dealing, "2:decline_trump") is ClassicReason.NO_OFFER
    assert refused(dealing, "2:accept_trump TC") is ClassicReason.NO_OFFER


def test_no_offer_or_redeal_once_the_first_card_is_played() -> None:
    hands = {0: "QC TS KS AS 7C TD KD AD", 1: "7S 8S 9S 7D 8D 9D 8C 9C", 2: HANDS[2]}
    dealing = dealt(opts(trump_suit="H"), hands)
    assert "1:redeal" in kinds(dealing, 1)
    play(dealing, "0:play TS")
    assert refused(dealing, "1:redeal") is ClassicReason.PLAY_STARTED
    assert refused(dealing, "0:offer_trump") is ClassicReason.PLAY_STARTED
    assert "1:redeal" not in kinds(dealing, 1)


def test_no_offer_or_redeal_with_a_declarer() -> None:
    dealing = later(ClassicOptions(), ends_deck("9H 7S 8S 9S 7D 8D 9D 7C"))
    play(dealing, "0:praise")
    for seat in range(4):
        assert not [a for a in dealing.legal_actions(seat) if a.kind.value != "play"]
    assert refused(dealing, "1:redeal") is ClassicReason.WITH_DECLARER
    assert refused(dealing, "1:offer_trump") is ClassicReason.WITH_DECLARER


def test_options_off_refuse_offers_and_redeals() -> None:
    hands = {0: HANDS[0], 1: "8C 9C TC 7H 8H 9H 8D 9D"}
    dealing = dealt(opts(trump_suit="H", last_trump=False, redeal=False), hands)
    assert refused(dealing, "0:offer_trump") is ClassicReason.OPTION_OFF
    assert refused(dealing, "1:redeal") is ClassicReason.OPTION_OFF


# --- Redeals -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "may"),
    [
        ("KS KH KD 7S 8S 7H 8H 7D", True),  # 12 points
        ("KS KH QD JS 7S 8S 7H 8H", False),  # 13 points
        ("9C 9S 9H 9D AS AH AD TS", True),  # four nines
    ],
)
def test_redeal_needs_twelve_points_or_less_or_four_nines(hand: str, may: bool) -> None:
    dealing = dealt(opts(trump_suit="H"), {3: hand})
    assert ("3:redeal" in kinds(dealing, 3)) is may
    if not may:
        assert refused(dealing, "3:redeal") is ClassicReason.REDEAL_NOT_ALLOWED


LOW = "7S 8S 9S 7H 8H 9H 7D 8D"


def test_a_redeal_shows_the_hand_ends_the_dealing_and_the_same_dealer_deals_again() -> None:
    game = ClassicGame(ClassicOptions(), first_dealer=1)
    game.deal_from(plain_deck({3: LOW, 0: "JC"}, dealer=1))
    events = play(game, "3:redeal")
    assert RedealAsked(3, cards(LOW), penalty=False) in events
    first = game.current
    assert first is not None and first.end is DealEnd.REDEAL
    assert first.result is not None and first.result.pairs == (0, 0)
    assert first.table_view().redeal_hand == cards(LOW)
    assert game.next_dealer == 1
    game.deal_from(plain_deck({2: "JC"}, dealer=1), dealer=1)
    again = game.current
    assert again is not None and (again.number, again.attempt) == (0, 1)
    assert again.phase is Phase.PLAY and again.leader == 2  # first deal: J♣ holder leads
    with pytest.raises(KozelError) as error:
        game.deal_from(plain_deck({}, dealer=1))
    assert error.value.reason is Reason.DEAL_NOT_OVER


def test_after_a_redeal_in_a_later_deal_there_is_no_praise_decision() -> None:
    dealing = Dealing.from_deck(ClassicOptions(), 2, plain_deck({}, dealer=2), number=3, attempt=1)
    assert dealing.phase is Phase.PLAY and dealing.leader == 3


def test_the_third_redeal_request_costs_the_dealers_team_one_pair() -> None:
    game = ClassicGame(ClassicOptions(), first_dealer=1)
    for _ in range(2):
        game.deal_from(plain_deck({3: LOW, 0: "JC"}, dealer=1), dealer=1)
        play(game, "3:redeal")
    game.deal_from(plain_deck({3: LOW, 0: "JC"}, dealer=1), dealer=1)
    events = play(game, "3:redeal")
    assert RedealAsked(3, cards(LOW), penalty=True) in events
    last = game.current
    assert last is not None and last.end is DealEnd.REDEAL_PENALTY and last.attempt == 2
    assert last.result is not None and last.result.winner is Team.A  # the dealer is seat 1
    assert game.pairs == (1, 0)
    assert game.next_dealer == 0  # the J♣ holder of the last dealing
