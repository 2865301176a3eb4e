"""The classic computer player: every decision legal, and sensible where it counts."""

from __future__ import annotations

import random

from hypothesis import given, settings

from core.classic.actions import ClassicActionKind
from core.classic.ai import ClassicComputer, RandomPlayer, play_dealing, play_game
from core.classic.dealing import Dealing
from core.classic.game import ClassicGame
from core.classic.options import ClassicOptions
from tests.core.classic.helpers import LOW_HAND, card, dealt, opts, plain_deck, play
from tests.core.classic.test_properties import OPTIONS, SEEDS


def choice(dealing: Dealing, seat: int) -> str:
    action = ClassicComputer(random.Random(0)).choose(dealing.view(seat), dealing.options)
    assert action is not None and dealing.can(action)
    return str(action)


@settings(max_examples=10, deadline=None)
@given(SEEDS, OPTIONS)
def test_computer_players_play_whole_games_legally(seed: int, options: ClassicOptions) -> None:
    rng = random.Random(seed)
    players = [ClassicComputer(rng), RandomPlayer(rng), ClassicComputer(rng), RandomPlayer(rng)]
    game = play_game(players, rng, options, first_dealer=seed % 4)  # an illegal move raises
    assert game.is_over


def test_it_catches_the_queen_of_clubs_with_the_kocherga() -> None:
    hands = {0: "QC 7S 8S 9S TS KS AS 7D", 1: "7C TH 8D 9D TD KD AD 8C"}
    dealing = dealt(opts(trump_suit="H"), hands)
    play(dealing, "0:play QC")
    assert choice(dealing, 1) == "1:play 7C"


def test_it_keeps_the_kocherga_while_the_queen_of_clubs_is_out() -> None:
    hands = {0: "7C QS JS TH 7S 8S 7D 8D"}
    dealing = dealt(opts(trump_suit="H"), hands)
    assert choice(dealing, 0) != "0:play 7C"
    play(dealing, "0:play 7S")
    other = dealt(opts(trump_suit="H"), {0: "JD 7S 8S 9S TS KS AS 8D", 1: "7C QS 9H 8C"})
    play(other, "0:play JD")  # a trump lead: seat 1 must play a trump
    assert choice(other, 1) != "1:play 7C"


def test_it_loads_points_on_its_partners_sure_trick_and_never_overtakes_him() -> None:
    hands = {
        0: "7H 7S 8S 9S 7D 8D 9D 8C",
        1: "AH 9C TC KC JC QC QS QH",
        2: "8H JS JH JD QD 7C AC AS",
        3: "TH KH 9H TS KS TD KD AD",
    }
    dealing = dealt(opts(trump_roulette=False), hands)
    play(dealing, "0:play 7H", "1:play AH", "2:play 8H")
    assert choice(dealing, 3) == "3:play TH"  # 10 points onto the partner's ace


def test_it_beats_cheaply_when_it_plays_last() -> None:
    hands = {
        0: "KH 7S 8S 9S 7D 8D 9D 8C",
        1: "7H 9C TC KC JC QC QS QH",
        2: "8H JS JH JD QD 7C AC AS",
        3: "AH TH 9H TS KS TD KD AD",
    }
    dealing = dealt(opts(trump_roulette=False), hands)
    play(dealing, "0:play KH", "1:play 7H", "2:play 8H")
    # The opponents win with KH: the ten takes it and the ace stays (no trump suit).
    assert choice(dealing, 3) == "3:play TH"


def test_it_asks_for_a_redeal_with_a_weak_hand_but_not_the_third_against_itself() -> None:
    dealing = dealt(opts(trump_suit="C"), {2: LOW_HAND})
    assert choice(dealing, 2).endswith("redeal")
    third = Dealing.from_deck(
        opts(trump_suit="C"), 0, plain_deck({2: LOW_HAND}, dealer=0), number=1, attempt=2
    )
    action = ClassicComputer().choose(third.view(2), third.options)  # seat 0 deals: ours
    assert action is None or action.kind is not ClassicActionKind.REDEAL
    theirs = Dealing.from_deck(
        opts(trump_suit="C"), 1, plain_deck({2: LOW_HAND}, dealer=1), number=1, attempt=2
    )
    assert choice(theirs, 2) == "2:redeal"


def test_it_takes_the_partners_last_trump_with_three_trumps_giving_its_cheapest_card() -> None:
    hands = {0: "QC 7S 8S 9S TS KS AS 7D", 2: "TH QS 7H 8H 9H KH AH TC"}
    dealing = dealt(opts(trump_suit="H"), hands)
    play(dealing, "0:offer_trump")
    assert choice(dealing, 2) == "2:accept_trump TC"
    assert card("TC") in dealing.hand(2)


def test_play_dealing_settles_a_games_dealing() -> None:
    rng = random.Random(4)
    game = ClassicGame(ClassicOptions(), first_dealer=1)
    game.deal(rng)
    result = play_dealing(game, [ClassicComputer(rng) for _ in range(4)])
    assert game.current is not None and game.current.result == result
    assert game.pairs == result.pairs
