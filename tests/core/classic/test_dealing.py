"""The dealings: the first deal, the praise decision, simple, pants and mirror on given
decks, the roulette, the naming and the laid trick (docs/rules/reference.md §2.3–2.8)."""

from __future__ import annotations

import pytest

from core.cards import Suit
from core.classic.actions import ClassicAction, ClassicActionKind
from core.classic.dealing import Dealing, Phase
from core.classic.errors import ClassicReason
from core.classic.events import CardLaid, DeckCut, LaidTrickTaken, TrumpNamed
from core.classic.game import ClassicGame
from core.classic.options import ClassicOptions, Praise
from core.errors import KozelError, Reason
from tests.core.classic.helpers import (
    NO_TRUMPS,
    act,
    card,
    cards,
    codes,
    ends_deck,
    later,
    opts,
    plain_deck,
    play,
)

# --- The first deal and the roulette ------------------------------------------------


def test_first_deal_one_at_a_time_no_praise_and_the_jack_of_clubs_holder_leads() -> None:
    deck = plain_deck({2: "JC 7S 8S 9S TS KS AS QH"}, dealer=0)
    dealing = Dealing.from_deck(ClassicOptions(), 0, deck)
    assert dealing.phase is Phase.PLAY
    for i, c in enumerate(deck):
        assert c in dealing.hand((0 + 1 + i) % 4)
    assert dealing.jack_of_clubs_holder == 2
    assert dealing.leader == dealing.turn == 2
    assert not any(a.kind is ClassicActionKind.DEAL for a in dealing.legal_actions())


def test_roulette_first_dealing_is_clubs_and_fixes_every_seats_suit() -> None:
    dealing = Dealing.from_deck(ClassicOptions(), 3, plain_deck({1: "JC"}))
    assert dealing.trump is Suit.CLUBS
    # The J♣ holder ♣, his partner ♠, the player after him ♥, the player before him ♦.
    assert dealing.fixed_suits == (Suit.DIAMONDS, Suit.CLUBS, Suit.HEARTS, Suit.SPADES)


def test_roulette_later_dealing_takes_the_jack_of_clubs_holders_fixed_suit() -> None:
    game = ClassicGame(ClassicOptions(), first_dealer=3)
    game.deal_from(plain_deck({1: "JC"}, dealer=3))
    assert game.fixed_suits == (Suit.DIAMONDS, Suit.CLUBS, Suit.HEARTS, Suit.SPADES)
    game.apply(act("1:play JC"))  # no more offers or redeals; play the deal out
    while not game.current.is_over:  # type: ignore[union-attr]
        game.apply(game.legal_actions()[0])
    assert game.next_dealer == 1  # the J♣ holder deals next
    game.deal_from(plain_deck({0: "JC"}, dealer=1))
    play(game, "2:deal")
    assert game.current is not None
    assert game.current.trump is Suit.DIAMONDS  # seat 0's fixed suit
    assert game.current.leader == 2  # the player after the dealer


def test_roulette_suits_are_kept_across_a_redeal_of_the_dealing_that_fixed_them() -> None:
    game = ClassicGame(ClassicOptions(), first_dealer=3)
    game.deal_from(plain_deck({1: "JC", 2: "7S 8S 9S 7H 8H 9H 7D 8D"}, dealer=3))
    fixed = game.fixed_suits
    play(game, "2:redeal")
    game.deal_from(plain_deck({3: "JC"}, dealer=3), dealer=3)
    assert game.fixed_suits == fixed
    assert game.current is not None
    assert game.current.trump is Suit.SPADES  # seat 3's suit, fixed in the first dealing
    assert game.current.leader == 3  # still the first deal: its J♣ holder leads


def test_without_roulette_the_deal_has_no_trump_suit_and_a_fixed_suit_wins() -> None:
    plain = Dealing.from_deck(opts(**NO_TRUMPS), 3, plain_deck({}))
    assert plain.trump is None and plain.trump_set and plain.fixed_suits is None
    fixed = Dealing.from_deck(opts(trump_suit="D"), 3, plain_deck({}))
    assert fixed.trump is Suit.DIAMONDS and fixed.fixed_suits is None


# --- The praise decision -------------------------------------------------------------


def test_the_player_after_the_dealer_says_deal_or_praises() -> None:
    dealing = later(ClassicOptions(), plain_deck({}, dealer=2), dealer=2)
    assert dealing.phase is Phase.PRAISE and dealing.turn == 3
    assert [str(a) for a in dealing.legal_actions()] == ["3:deal", "3:praise simple"]
    assert dealing.legal_actions(0) == []
    with pytest.raises(KozelError) as error:
        dealing.verify(act("0:deal"))
    assert error.value.reason is Reason.NOT_YOUR_TURN
    with pytest.raises(KozelError) as error:
        dealing.verify(act("3:play 7C"))
    assert error.value.reason is ClassicReason.WRONG_STEP
    play(dealing, "3:deal")
    assert dealing.phase is Phase.PLAY and dealing.leader == 3 and dealing.declarer is None


def test_praise_kind_must_match_the_option_or_be_named_with_choose() -> None:
    dealing = later(opts(praise="pants"), ends_deck(""))
    with pytest.raises(KozelError) as error:
        dealing.verify(act("0:praise mirror"))
    assert error.value.reason is ClassicReason.PRAISE_KIND_MISMATCH
    assert dealing.can(act("0:praise")) and dealing.can(act("0:praise pants"))
    choose = later(opts(praise="choose"), ends_deck(""))
    with pytest.raises(KozelError) as error:
        choose.verify(act("0:praise"))
    assert error.value.reason is ClassicReason.PRAISE_KIND_REQUIRED
    assert {a.praise for a in choose.legal_actions() if a.praise} == {
        Praise.SIMPLE,
        Praise.PANTS,
        Praise.MIRROR,
    }


# --- Simple -----------------------------------------------------------------------------


def test_simple_face_up_until_a_card_that_is_not_good() -> None:
    deck = ends_deck("QC AS JD 9H  7C 8C 9C KC  7S 8S 9S TS  7H 8H TH KH")
    dealing = later(ClassicOptions(), deck)
    play(dealing, "0:praise")
    assert dealing.trump is Suit.HEARTS
    assert set(dealing.table_view().shown) == set(cards("QC AS JD 9H"))
    assert set(dealing.hand(1)) >= set(cards("7C 8C 9C KC"))
    assert set(dealing.hand(2)) >= set(cards("7S 8S 9S TS"))
    assert set(dealing.hand(3)) >= set(cards("7H 8H TH KH"))
    # The rest one at a time from the declarer.
    rest = deck[16:]
    for i, c in enumerate(rest):
        assert c in dealing.hand(i % 4)
    assert dealing.leader == dealing.turn == 0


def test_simple_eight_good_cards_give_no_trump_suit() -> None:
    deck = ends_deck("QC QS QH QD JC JS JH JD")
    dealing = later(ClassicOptions(), deck)
    play(dealing, "0:praise")
    assert dealing.trump is None and dealing.trump_set
    assert set(dealing.hand(0)) == set(deck[:8])
    assert set(dealing.hand(1)) == set(deck[8:16])
    assert set(dealing.hand(3)) == set(deck[24:])


def test_simple_the_eighth_card_not_good_sets_the_trump() -> None:
    dealing = later(ClassicOptions(), ends_deck("QC QS QH QD JC JS JH 9S"))
    play(dealing, "0:praise")
    assert dealing.trump is Suit.SPADES
    assert len(dealing.table_view().shown) == 8


def test_simple_one_card_when_the_first_is_not_good() -> None:
    deck = ends_deck("KD")
    dealing = later(ClassicOptions(), deck)
    play(dealing, "0:praise")
    assert dealing.trump is Suit.DIAMONDS
    assert codes(dealing.table_view().shown) == ["KD"]
    for i, c in enumerate(deck):
        assert c in dealing.hand(i % 4)


def test_simple_with_a_fixed_trump_suit_its_cards_are_good() -> None:
    dealing = later(opts(trump_suit="D"), ends_deck("7D QC 9H"))
    play(dealing, "0:praise")
    assert dealing.trump is Suit.DIAMONDS
    assert set(dealing.table_view().shown) == set(cards("7D QC 9H"))


def test_without_kocherga_seven_of_clubs_is_not_good() -> None:
    dealing = later(opts(kocherga=False), ends_deck("QC 7C"))
    play(dealing, "0:praise")
    assert dealing.trump is Suit.CLUBS and len(dealing.table_view().shown) == 2


# --- Pants -------------------------------------------------------------------------------

PANTS_DECK = ends_deck("QC 9H 8S QS QD JH AD KS", "JC AC AH JS QH 7D JD AS")


def test_pants_pairs_forced_and_free_lays_and_the_rest() -> None:
    dealing = later(opts(praise="pants"), PANTS_DECK)
    events = play(dealing, "0:praise")
    # Seat 0: (QC, AS) kept, (9H, JD): 9H is not good, laid face down by force.
    assert CardLaid(0, None) in events
    # Seat 1: (8S, 7D), neither good: he chooses.
    assert dealing.phase is Phase.LAY and dealing.turn == 1
    assert dealing.view(1).pair == cards("8S 7D")
    assert sorted(str(a) for a in dealing.legal_actions()) == ["1:lay 7D", "1:lay 8S"]
    with pytest.raises(KozelError) as error:
        dealing.verify(act("1:lay QC"))
    assert error.value.reason is ClassicReason.NOT_IN_PAIR
    events = play(dealing, "1:lay 7D")
    assert CardLaid(1, card("7D")) in events
    # Seat 2: three good pairs, then (AD, AC) at his fourth pair, both good: he chooses.
    assert dealing.turn == 2 and dealing.view(2).pair == cards("AD AC")
    events = play(dealing, "2:lay AC")
    # Seat 3: (KS, JC): KS laid by force. Then the naming.
    assert CardLaid(3, card("KS")) in events
    assert dealing.phase is Phase.NAME and dealing.turn == 0
    assert set(dealing.hand(0)) == set(cards("7C KC QC AS 9S JD 8H"))
    assert codes(dealing.hand(1)) == codes(cards("8C TC 8S TS KS"[:0] + "8C TC 8S TS KH 8D KD"))
    assert set(dealing.hand(2)) == set(cards("QS JS JH QH AH QD AD"))
    assert set(dealing.hand(3)) == set(cards("9C JC 7S 7H TH 9D TD"))
    assert dealing.cards_accounted() == 32


def _pants_to_naming() -> Dealing:
    dealing = later(opts(praise="pants"), PANTS_DECK)
    play(dealing, "0:praise", "1:lay 7D", "2:lay AC")
    return dealing


def test_pants_declarers_laid_card_is_hidden_until_the_naming() -> None:
    dealing = _pants_to_naming()
    laid = {lc.seat: lc.card for lc in dealing.table_view().laid}
    assert laid == {0: None, 1: card("7D"), 2: card("AC"), 3: card("KS")}
    assert dealing.view(0).laid == card("9H")
    assert dealing.view(1).laid == card("7D")
    events = play(dealing, "0:name_trump D")
    assert TrumpNamed(0, Suit.DIAMONDS) in events
    taken = next(e for e in events if isinstance(e, LaidTrickTaken))
    assert taken.cards == cards("9H 7D AC KS")


@pytest.mark.parametrize(("suit", "winner"), [("D", 1), ("-", 0), ("H", 0), ("S", 3)])
def test_pants_laid_trick_is_judged_under_the_named_trump_and_its_winner_leads(
    suit: str, winner: int
) -> None:
    dealing = _pants_to_naming()
    play(dealing, f"0:name_trump {suit}")
    assert dealing.leader == dealing.turn == winner
    assert dealing.trick_number == 1
    assert dealing.tricks[winner % 2] == 1 and dealing.points[winner % 2] == 15
    led = dealing.table_view().led_suits
    assert led == (() if suit == "H" else (Suit.HEARTS,))  # a plain lead counts as led


def test_pants_with_a_fixed_trump_suit_has_no_naming() -> None:
    dealing = later(opts(praise="pants", trump_suit="D"), PANTS_DECK)
    events = play(dealing, "0:praise")  # 7D is good now: seat 1 lays 8S by force
    assert CardLaid(1, card("8S")) in events
    play(dealing, "2:lay AC")
    assert dealing.phase is Phase.PLAY and dealing.trump is Suit.DIAMONDS
    assert dealing.leader == 0  # 9H leads; nobody else lays a heart or a trump


# --- Mirror ------------------------------------------------------------------------------

MIRROR_DECK = ends_deck("7S TC AH JS QC KD 9S JH 7C")


def test_mirror_every_player_cuts_and_draws_from_the_bottom() -> None:
    dealing = later(opts(praise="mirror"), MIRROR_DECK)
    play(dealing, "0:praise")
    assert dealing.phase is Phase.CUT and dealing.turn == 0
    cuts = [a.at for a in dealing.legal_actions()]
    assert cuts == list(range(1, 32))
    for bad in (0, 32):
        with pytest.raises(KozelError) as error:
            dealing.verify(ClassicAction.cut(0, bad))
        assert error.value.reason is ClassicReason.CUT_OUT_OF_RANGE
    # 5 cards from the top go under: the bottom is now QC, then JS, then AH.
    events = play(dealing, "0:cut 5")
    assert DeckCut(0, 5) in events and CardLaid(0, card("AH")) in events
    assert set(cards("QC JS")) <= set(dealing.hand(0))
    # Seat 1: one card under, KD comes first and is laid (only permanent trumps are kept).
    assert play(dealing, "1:cut 1")[-1] == CardLaid(1, card("KD"))
    assert dealing.hand(1) == ()
    assert play(dealing, "2:cut 1")[-1] == CardLaid(2, card("9S"))
    # Seat 3: two under: 7C and JH come first (kept), then the old bottom card TC... of
    # what is left: the deck's second card, moved under by seat 0's cut.
    events = play(dealing, "3:cut 2")
    assert CardLaid(3, card("TC")) in events
    assert dealing.phase is Phase.NAME
    assert [len(dealing.hand(s)) for s in range(4)] == [7, 7, 7, 7]
    assert set(cards("7C JH")) <= set(dealing.hand(3))
    assert [lc.card for lc in dealing.table_view().laid] == list(cards("AH KD 9S TC"))
    play(dealing, "0:name_trump D")
    assert dealing.leader == 1  # KD, the only trump


def test_mirror_eight_cards_at_most_the_eighth_laid_whatever_it_is() -> None:
    dealing = later(opts(praise="mirror"), ends_deck("7C QC QS QH QD JC JS JH"))
    play(dealing, "0:praise", "0:cut 8")
    assert set(dealing.hand(0)) == set(cards("QC QS QH QD JC JS JH"))
    assert dealing.table_view().laid[0].card == card("7C")


def test_mirror_with_a_fixed_trump_suit_keeps_every_trump() -> None:
    dealing = later(opts(praise="mirror", trump_suit="H"), ends_deck("7S 9H AH QC"))
    play(dealing, "0:praise", "0:cut 4")
    assert set(cards("QC AH 9H")) <= set(dealing.hand(0))
    assert dealing.table_view().laid[0].card == card("7S")
