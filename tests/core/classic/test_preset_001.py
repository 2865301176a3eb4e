"""The compendium's four-player game (docs/rules/reference.md §2.16): each option and value on
hand-built decks, the preset 001, and records that carry them."""

from __future__ import annotations

import json
import random

import pytest

from core.cards import Suit
from core.classic.actions import ClassicAction, ClassicActionKind
from core.classic.ai import ClassicComputer, RandomPlayer, play_dealing, play_game
from core.classic.dealing import Dealing, Phase, trump_leaders
from core.classic.errors import ClassicReason
from core.classic.events import ClassicTitle, DealEnd
from core.classic.game import ClassicGame
from core.classic.options import (
    PRESETS,
    ClassicOptions,
    Praise,
    closest_preset,
    differences,
    preset_of,
)
from core.classic.record import game_from_record, game_to_record, replay, report
from core.classic.search import ClassicSearchPlayer, Rules
from core.errors import KozelError, Reason
from core.seats import Team
from tests.core.classic.helpers import (
    LOW_HAND,
    act,
    card,
    cards,
    find_dealing,
    later,
    lucy,
    opts,
    plain_deck,
    play,
    redeal_three_times,
)

PRESET = PRESETS["001"]
REDEAL = ClassicActionKind.REDEAL


def refused(target: Dealing | ClassicGame, text: str) -> object:
    with pytest.raises(KozelError) as error:
        target.apply(act(text))
    return error.value.reason


def kinds(dealing: Dealing, seat: int) -> set[ClassicActionKind]:
    return {action.kind for action in dealing.legal_actions(seat)}


# --- deal_by --------------------------------------------------------------------------


def test_deal_by_four_gives_each_player_four_then_four() -> None:
    deck = list(cards("7C 8C 9C TC JC QC KC AC 7S 8S 9S TS JS QS KS AS")) + list(
        cards("7H 8H 9H TH JH QH KH AH 7D 8D 9D TD JD QD KD AD")
    )
    dealing = later(opts(deal_by=4), deck, dealer=3)
    dealing.apply(act("0:deal"))
    # Seat 0 (after the dealer) the top 4 and the 17th to 20th; then clockwise.
    assert set(dealing.hand(0)) == set(cards("7C 8C 9C TC 7H 8H 9H TH"))
    assert set(dealing.hand(1)) == set(cards("JC QC KC AC JH QH KH AH"))
    assert set(dealing.hand(2)) == set(cards("7S 8S 9S TS 7D 8D 9D TD"))
    assert set(dealing.hand(3)) == set(cards("JS QS KS AS JD QD KD AD"))
    assert dealing.jack_of_clubs_holder == 1 and dealing.leader == 0


def test_deal_by_four_leaves_the_first_deal_one_at_a_time_but_not_a_later_redeal() -> None:
    deck = plain_deck({1: "JC AD"}, dealer=3)
    first = Dealing.from_deck(opts(deal_by=4), 3, deck)  # the game's first deal
    assert all(c in first.hand((i % 4 + 0) % 4) for i, c in enumerate(deck))
    redealt_first = Dealing.from_deck(opts(deal_by=4), 3, deck, attempt=1)
    assert redealt_first.hand(0) == first.hand(0)
    redealt_later = Dealing.from_deck(opts(deal_by=4), 3, deck, number=2, attempt=1)
    assert redealt_later.phase is Phase.PLAY  # no praise decision after a redeal
    assert set(redealt_later.hand(0)) == set(deck[0:4] + deck[16:20])


# --- first_leader ---------------------------------------------------------------------


def test_the_ace_of_diamonds_holder_leads_the_first_deal() -> None:
    deck = plain_deck({1: "JC", 2: "AD"}, dealer=3)
    assert Dealing.from_deck(ClassicOptions(), 3, deck).leader == 1  # J♣ (003)
    dealing = Dealing.from_deck(opts(first_leader="ad_holder"), 3, deck)
    assert dealing.leader == dealing.turn == 2
    assert dealing.jack_of_clubs_holder == 1  # the roulette still follows J♣
    assert dealing.trump is Suit.CLUBS and dealing.fixed_suits is not None
    # A redealt first deal: the new dealing's A♦ holder.
    again = Dealing.from_deck(opts(first_leader="ad_holder"), 3, plain_deck({0: "AD"}), attempt=1)
    assert again.leader == 0
    # A later deal without praise: the player after the dealer, as always.
    later_deal = later(opts(first_leader="ad_holder"), deck, dealer=3)
    later_deal.apply(act("0:deal"))
    assert later_deal.leader == 0


def test_the_ace_of_diamonds_holder_leads_even_when_the_exchange_moves_it() -> None:
    # Seat 2 holds A♦ as its only trump (trump suit ♦) and gives it to seat 0.
    hands = {2: "AD 7S 8S 9S 7H 8H 9H 7C", 0: "QS QH TS TH TC KC KS KH", 1: "JC"}
    options = opts(first_leader="ad_holder", trump_suit="D", kocherga=False)
    dealing = Dealing.from_deck(options, 3, plain_deck(hands, dealer=3))
    assert dealing.leader == 2
    play(dealing, "2:offer_trump", "0:accept_trump TS")
    assert card("AD") in dealing.hand(0) and dealing.leader == 2


# --- dealers ----------------------------------------------------------------------------


def _played_out(game: ClassicGame) -> None:
    dealing = game.current
    assert dealing is not None
    while not dealing.is_over:
        game.apply(dealing.legal_actions(dealing.turn)[0])


def test_the_deal_goes_round_clockwise_and_a_redeal_keeps_the_dealer() -> None:
    game = ClassicGame(opts(dealers="clockwise"), first_dealer=3)
    game.deal_from(plain_deck({1: "JC"}, dealer=3), 3)
    _played_out(game)
    assert game.next_dealer == 0  # not the J♣ holder (seat 1)
    game.deal_from(plain_deck({2: LOW_HAND, 3: "JC"}, dealer=0), 0)
    play(game, "1:deal", "2:redeal")
    assert game.next_dealer == 0  # a performed redeal: the same dealer
    game.deal_from(plain_deck({2: "JC"}, dealer=0), 0)
    _played_out(game)
    assert game.next_dealer == 1
    with pytest.raises(KozelError) as error:
        game.deal_from(plain_deck({}, dealer=2), 2)
    assert error.value.reason is Reason.BAD_DEALER


def test_after_a_third_redeal_penalty_the_next_seat_deals() -> None:
    game = ClassicGame(opts(dealers="clockwise"), first_dealer=3)
    game.deal_from(plain_deck({1: "JC"}, dealer=3), 3)
    _played_out(game)
    dealing = redeal_three_times(game)
    assert dealing.end is DealEnd.REDEAL_PENALTY and dealing.dealer == 0
    assert game.next_dealer == 1


# --- eggs -------------------------------------------------------------------------------


def _eggs(options: ClassicOptions, first: bool) -> ClassicGame:
    game = ClassicGame(options, first_dealer=2)
    if not first:
        game.deal_from(plain_deck({1: "JC"}, dealer=2), 2)
        _played_out(game)
    return find_dealing(game, lambda d: d.result is not None and d.result.eggs, seed=3)


@pytest.mark.parametrize("first", [True, False])
def test_eggs_replayed_by_the_same_dealer_give_no_pair(first: bool) -> None:
    carried = _eggs(ClassicOptions(), first)
    assert carried.egg_pairs == 1
    game = _eggs(opts(eggs="replay", dealers="clockwise"), first)
    dealing = game.current
    assert dealing is not None and dealing.result is not None and dealing.result.eggs
    assert dealing.result.pairs == (0, 0) and game.egg_pairs == 0
    assert game.next_dealer == dealing.dealer == report(game)["deals"][-1]["next_dealer"]
    game.deal(random.Random(1))  # the replay is a later deal: a praise decision first
    assert game.current is not None and game.current.phase is Phase.PRAISE
    assert game.current.dealer == dealing.dealer and game.current.number == dealing.number + 1
    assert game.eggs == 1  # the eggs still count for the title


# --- lucy -------------------------------------------------------------------------------


def test_lucy_against_a_team_with_no_pairs_wins_the_game() -> None:
    reset = ClassicGame(ClassicOptions(), first_dealer=3)
    lucy(reset, 0)
    assert not reset.is_over and reset.pairs == (2, 0)
    game = ClassicGame(opts(lucy="win"), first_dealer=3)
    lucy(game, 0)
    assert game.result is not None and game.is_over
    assert game.result.winner is Team.A and game.result.title is ClassicTitle.GOATS
    assert game.pairs == (2, 0)
    assert replay(json.dumps(game_to_record(game)))["game"]["finished"] is True


def test_lucy_against_a_team_with_pairs_only_resets_them() -> None:
    game = ClassicGame(opts(lucy="win", trump_roulette=False), first_dealer=3)
    game = find_dealing(
        game,
        lambda d: d.result is not None and d.result.winner is Team.A and not d.result.lucy,
        seed=5,
    )
    assert game.pairs[0] > 0 and game.pairs[1] == 0
    lucy(game, 1)
    assert not game.is_over and game.pairs[0] == 0 and game.pairs[1] == 2


# --- redeal_queens -----------------------------------------------------------------------

NO_QUEEN = "AS TS KS AH TH KH 9S QD"  # 49 points: no redeal for points


def _queens(partner: str, **options: object) -> Dealing:
    hands = {0: NO_QUEEN, 2: partner, 1: "QC QS QH"}
    dealing = later(opts(**options), plain_deck(hands, dealer=3), dealer=3)
    dealing.apply(act("0:deal"))
    return dealing


def test_a_pair_without_queens_but_the_queen_of_diamonds_may_ask_for_a_redeal() -> None:
    dealing = _queens("7S 8S 9H 7D 8D 9D TD KD", redeal_queens=True)
    assert REDEAL in kinds(dealing, 0) and REDEAL in kinds(dealing, 2)
    play(dealing, "0:redeal")
    assert dealing.end is DealEnd.REDEAL and dealing.result is not None
    assert dealing.result.next_dealer == 3


def test_the_queen_redeal_is_refused_when_the_partner_holds_another_queen() -> None:
    hands = {0: NO_QUEEN, 2: "QC 8S 9H 7D 8D 9D TD KD"}
    dealing = later(opts(redeal_queens=True), plain_deck(hands, dealer=3), dealer=3)
    dealing.apply(act("0:deal"))
    before = dealing.state_key()
    assert REDEAL not in kinds(dealing, 0)  # the engine knows both hands
    assert refused(dealing, "0:redeal") is ClassicReason.TEAM_HAS_QUEEN
    assert dealing.state_key() == before
    # The seat's own view offers the request as far as its own hand shows: the same
    # whatever its partner holds (the button would show the partner's queens).
    other = _queens("7S 8S 9H 7D 8D 9D TD KD", redeal_queens=True)
    ask = ClassicAction(0, REDEAL)
    assert ask in dealing.view(0).legal and ask in other.view(0).legal
    assert REDEAL not in {a.kind for a in dealing.view(2).legal}  # it holds Q♣


def test_the_queen_redeal_needs_the_option_and_the_redeal_option() -> None:
    partner = "7S 8S 9H 7D 8D 9D TD KD"
    assert refused(_queens(partner), "0:redeal") is ClassicReason.REDEAL_NOT_ALLOWED
    assert REDEAL not in {a.kind for a in _queens(partner).view(0).legal}
    off = _queens(partner, redeal_queens=True, redeal=False)
    assert refused(off, "0:redeal") is ClassicReason.OPTION_OFF
    assert REDEAL not in {a.kind for a in off.view(0).legal}


def test_the_queen_redeal_counts_toward_the_third_request() -> None:
    game = ClassicGame(opts(redeal_queens=True), first_dealer=3)
    hands = {0: NO_QUEEN, 2: "7S 8S 9H 7D 8D 9D TD KD", 1: "JC"}
    for _ in range(3):
        game.deal_from(plain_deck(hands, dealer=3), 3)
        play(game, "0:redeal")
    dealing = game.current
    assert dealing is not None and dealing.attempt == 2
    assert dealing.end is DealEnd.REDEAL_PENALTY and game.pairs == (1, 0)  # the dealer is B


# --- trump_lead = non_dealers -----------------------------------------------------------

TRUMPS_AND_PLAIN = "JC QS 7D AH TH KH 9H 8H"


def test_non_dealers_forbid_the_dealing_teams_trump_leads_without_a_declarer() -> None:
    deck = plain_deck({1: TRUMPS_AND_PLAIN}, dealer=3)  # seat 1 (team B) holds J♣, leads
    free = Dealing.from_deck(opts(trump_roulette=False), 3, deck)
    assert act("1:play QS") in free.legal_actions(1)  # 003: no declarer, no restriction
    dealing = Dealing.from_deck(opts(trump_roulette=False, trump_lead="non_dealers"), 3, deck)
    assert dealing.turn == 1
    plays = {a.card for a in dealing.legal_actions(1)}
    assert plays == set(cards("7D AH TH KH 9H 8H"))  # no trump suit: 7♦ is plain
    assert refused(dealing, "1:play QS") is ClassicReason.TRUMP_LEAD_FORBIDDEN
    # The team that did not deal leads what it likes.
    deck = plain_deck({0: TRUMPS_AND_PLAIN}, dealer=3)
    other = Dealing.from_deck(opts(trump_roulette=False, trump_lead="non_dealers"), 3, deck)
    assert other.turn == 0 and act("0:play QS") in other.legal_actions(0)


def test_non_dealers_with_a_declarer_is_his_team() -> None:
    options = opts(trump_lead="non_dealers")
    assert trump_leaders(options, 3, 0) == trump_leaders(opts(trump_lead="team"), 3, 0) == 0b0101
    assert trump_leaders(options, 3, -1) == 0b0101
    assert trump_leaders(options, 0, -1) == 0b1010
    assert trump_leaders(ClassicOptions(), 3, -1) == 0b1111


def test_the_computers_never_lead_a_trump_their_team_may_not_lead() -> None:
    deck = plain_deck({1: TRUMPS_AND_PLAIN}, dealer=3)
    options = opts(trump_roulette=False, trump_lead="non_dealers")
    dealing = Dealing.from_deck(options, 3, deck)
    view = dealing.view(1)
    assert Rules.of(view, options).free_leaders == 0b0101
    for player in (ClassicComputer(random.Random(1)), ClassicSearchPlayer(random.Random(1))):
        action = player.choose(view, options)
        assert action is not None and action.card in set(cards("7D AH TH KH 9H 8H"))


# --- praise = one_by_one ----------------------------------------------------------------


def test_one_by_one_deals_from_the_declarer_and_he_leads() -> None:
    deck = plain_deck({}, dealer=3)
    dealing = later(opts(praise="one_by_one", trump_suit="D"), deck, dealer=3)
    assert [a.praise for a in dealing.legal_actions(0) if a.praise] == [Praise.ONE_BY_ONE]
    play(dealing, "0:praise one_by_one")
    assert dealing.declarer == 0 and dealing.praise is Praise.ONE_BY_ONE
    for i, c in enumerate(deck):
        assert c in dealing.hand(i % 4)  # the first card to the declarer
    assert dealing.trump is Suit.DIAMONDS and dealing.leader == dealing.turn == 0
    assert dealing.phase is Phase.PLAY and dealing.trick_number == 0
    assert not kinds(dealing, 2) & {ClassicActionKind.OFFER_TRUMP, REDEAL}


def test_one_by_one_needs_a_trump_suit_and_is_a_fourth_kind_of_choose() -> None:
    with pytest.raises(KozelError) as error:
        opts(praise="one_by_one")
    assert error.value.reason is Reason.BAD_OPTIONS and "trump_suit" in str(error.value)
    choose = later(opts(praise="choose"), plain_deck({}), dealer=3)
    assert Praise.ONE_BY_ONE not in {a.praise for a in choose.legal_actions(0)}
    assert refused(choose, "0:praise one_by_one") is ClassicReason.PRAISE_KIND_MISMATCH
    fixed = later(opts(praise="choose", trump_suit="H"), plain_deck({}), dealer=3)
    assert {a.praise for a in fixed.legal_actions(0) if a.praise} == {
        Praise.SIMPLE,
        Praise.PANTS,
        Praise.MIRROR,
        Praise.ONE_BY_ONE,
    }
    simple = later(opts(trump_suit="H"), plain_deck({}), dealer=3)
    assert refused(simple, "0:praise one_by_one") is ClassicReason.PRAISE_KIND_MISMATCH


def _one_by_one_record(**options: object) -> dict[str, object]:
    """A record: a first deal played out, then a praise one_by_one by seat 2."""
    game = ClassicGame(opts(**options), first_dealer=3)
    game.deal_from(plain_deck({1: "JC"}, dealer=3), 3)
    _played_out(game)
    record = game_to_record(game)
    deck = [c.code for c in plain_deck({})]
    praise = {"seat": 2, "type": "praise", "kind": "one_by_one"}
    record["deals"].append({"dealer": game.next_dealer, "deck": deck, "actions": [praise]})
    return record


def test_a_one_by_one_kind_in_a_record_is_a_form_error_without_a_trump_suit() -> None:
    error = replay(json.dumps(_one_by_one_record(praise="choose")))["error"]
    assert (error["deal"], error["action"], error["seat"]) == (1, 0, 2)
    assert "kind must be simple, pants or mirror" in error["reason"]
    # With a trump suit the form is right; with praise = pants it is a rule error.
    record = _one_by_one_record(praise="pants", trump_suit="D")
    error = replay(json.dumps(record))["error"]
    assert (error["deal"], error["action"]) == (1, 0) and "kind" in error["reason"]
    fine = replay(json.dumps(_one_by_one_record(praise="choose", trump_suit="D")))
    assert fine["deals"][1]["praise"] == "one_by_one" and fine["deals"][1]["leader"] == 2


# --- The preset -------------------------------------------------------------------------


def test_the_preset_is_seed_001s_bundle_and_is_named() -> None:
    assert differences(PRESET, ClassicOptions()) == {
        "kocherga": False,
        "ace_ban": False,
        "trump_suit": "D",
        "praise": "choose",
        "follow": "any_trump",
        "trump_lead": "non_dealers",
        "dealers": "clockwise",
        "first_leader": "ad_holder",
        "deal_by": 4,
        "eggs": "replay",
        "lucy": "win",
        "redeal_queens": True,
    }
    assert preset_of(PRESET) == "001" and preset_of(ClassicOptions()) == "003"
    near = PRESET.model_copy(update={"ace_ban": True})
    assert preset_of(near) is None and closest_preset(near) == ("001", {"ace_ban": True})
    assert closest_preset(opts(kocherga=False)) == ("003", {"kocherga": False})


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_whole_preset_game_by_the_computers_replays_from_its_record(seed: int) -> None:
    rng = random.Random(seed)
    game = play_game([ClassicComputer(random.Random(seed + s)) for s in range(4)], rng, PRESET)
    assert game.result is not None
    text = json.dumps(game_to_record(game, seed=seed))
    assert json.loads(text)["options"] == PRESET.to_json()
    again = game_from_record(text)
    assert again == game and replay(text) == report(game)
    out = report(game)["deals"]
    for before, previous, dealing in zip(out, game.dealings, game.dealings[1:], strict=False):
        assert dealing.dealer == before["next_dealer"]
        stays = previous.end is DealEnd.REDEAL or before["eggs"]
        assert dealing.dealer == (previous.dealer if stays else (previous.dealer + 1) % 4)
    first = game.dealings[0]  # dealt one at a time; its A♦ holder leads
    holder = (first.dealer + 1 + first.deck.index(card("AD"))) % 4
    assert first.first_leader == holder


def test_the_computers_play_preset_deals_with_legal_moves_only() -> None:
    """play_dealing applies each choice through the engine's checks: a trump led by the
    dealing team while it holds a plain card, or any other illegal move, would raise."""
    for seed in range(20):
        dealing = Dealing.shuffled(PRESET, seed % 4, random.Random(seed), number=1)
        players = [ClassicComputer(random.Random(seed)) for _ in range(4)]
        result = play_dealing(dealing, players)
        assert dealing.is_over and result.end in (DealEnd.PLAYED, DealEnd.REDEAL)


def test_random_player_never_asks_a_queen_redeal_that_may_be_refused() -> None:
    """Regression: the random player chose the queen request its view offers, which the
    engine refused (an illegal move in a whole game under the preset)."""
    hands = {0: NO_QUEEN, 2: "QC 8S 9H 7D 8D 9D TD KD"}
    dealing = later(opts(redeal_queens=True), plain_deck(hands, dealer=3), dealer=3)
    dealing.apply(act("0:deal"))
    view = dealing.view(0)
    assert ClassicAction(0, REDEAL) in view.legal
    for seed in range(200):
        action = RandomPlayer(random.Random(seed)).choose(view, dealing.options)
        assert action is None or action.kind is not REDEAL
