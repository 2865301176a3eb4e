"""The trump line of every hand and of the table is the deal's trump (issue 31, point
2), for every combination of the classic options that decide it, and both presets.

The expected trump comes from the rules (docs/rules/reference.md §2.4–2.8, §2.16),
worked out here from the dealing's deck, its dealer and the decisions taken, not from
the engine: with ``trump_suit`` set, that suit from the start; a dealing dealt without
praise has the roulette's suit of its J♣ holder (the first dealing of the game fixes the
suits: its J♣ holder ♣, his partner ♠, the next player ♥, the one before ♦), or none
without the roulette; a simple praise has the suit of the first card dealt to the
declarer that is not a queen, a jack, an ace or (with the kocherga) 7♣, none when all
eight are; in pants and mirror it is not set until the declarer names it. The engine
must agree, and so must the table's line and each seat's hand, at every decision from
the deal to the first card of each dealing, the computers' choices deciding."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest

from bot.i18n import Translator
from bot.models import ChatRef, Game, GameStatus, Platform, Seat, SeatKind, TableSettings, UserRef
from bot.presenters import classic as cp
from core.cards import Card, Rank, Suit
from core.classic.actions import ClassicAction, ClassicActionKind
from core.classic.ai import ClassicComputer
from core.classic.dealing import Dealing, Phase
from core.classic.game import ClassicGame
from core.classic.options import (
    PRESETS,
    ClassicOptions,
    DealBy,
    Dealers,
    Eggs,
    FirstLeader,
    Follow,
    Lucy,
    Praise,
    TrumpLead,
    TrumpSuit,
)
from core.classic.ruleset import ClassicGameAdapter
from tests.bot.truth import classic_trump_words

USERS = tuple(UserRef(Platform.TELEGRAM, str(100 + seat)) for seat in range(4))
LOCALES = ("ru", "en")
#: Dealings a game is watched for (the first is dealt without praise; the later ones
#: are praised now and then).
DEALINGS = 4
JACK_OF_CLUBS = Card(Rank.JACK, Suit.CLUBS)


def deciding() -> Iterator[ClassicOptions]:
    """Every combination of the options that decide a dealing's trump or who deals
    it: the praise, the fixed trump suit, the kocherga (a good card of a simple
    praise), the roulette, dealing by four, who deals, redeals."""
    for praise, suit, kocherga, roulette, by, dealers, redeal in itertools.product(
        Praise, (None, *TrumpSuit), (True, False), (True, False), DealBy, Dealers, (True, False)
    ):
        if praise is Praise.ONE_BY_ONE and suit is None:
            continue  # a form error (§2.16)
        yield ClassicOptions(
            praise=praise,
            trump_suit=suit,
            kocherga=kocherga,
            trump_roulette=roulette,
            deal_by=by,
            dealers=dealers,
            redeal=redeal,
        )


def with_the_rest(options: ClassicOptions, rng: random.Random) -> ClassicOptions:
    """The same, every other option at a value ``rng`` picks."""
    return options.model_copy(
        update={
            "ace_ban": rng.random() < 0.5,
            "last_trump": rng.random() < 0.5,
            "follow": rng.choice(list(Follow)),
            "trump_lead": rng.choice(list(TrumpLead)),
            "first_leader": rng.choice(list(FirstLeader)),
            "eggs": rng.choice(list(Eggs)),
            "lucy": rng.choice(list(Lucy)),
            "redeal_queens": rng.random() < 0.5,
        }
    )


def good(card: Card, options: ClassicOptions) -> bool:
    """A card that keeps a simple praise going (§2.6), with no fixed trump suit."""
    kocherga = options.kocherga and card == Card(Rank.SEVEN, Suit.CLUBS)
    return card.rank in (Rank.QUEEN, Rank.JACK, Rank.ACE) or kocherga


def jc_holder(dealing: Dealing, options: ClassicOptions) -> int:
    """The seat J♣ is dealt to in a dealing without praise (§2.5, §2.16 ``deal_by``)."""
    by = 4 if options.deal_by is DealBy.FOUR and dealing.number > 0 else 1
    return (dealing.dealer + 1 + dealing.deck.index(JACK_OF_CLUBS) // by) % 4


def expected(
    dealing: Dealing, options: ClassicOptions, fixed: dict[int, Suit], named: Suit | bool | None
) -> tuple[bool, Suit | None]:
    """The trump the rules give the dealing now: (set yet, suit or None for none).
    ``named``: what the declarer named, False before he did."""
    if options.trump_suit is not None:
        return True, options.trump_suit.suit
    if dealing.phase is Phase.PRAISE:
        return False, None
    praise = dealing.praise
    if praise is None:  # dealt as "deal"
        if not options.trump_roulette:
            return True, None
        return True, fixed[jc_holder(dealing, options)]
    if praise is Praise.SIMPLE:
        first_not_good = next((card for card in dealing.deck if not good(card, options)), None)
        return True, None if first_not_good is None else first_not_good.suit
    if named is False:
        return False, None
    assert named is not False
    return True, named


def table_of(play: ClassicGame) -> Game:
    game = Game(
        id=1,
        chat=ChatRef(Platform.TELEGRAM, "-100"),
        creator=USERS[0],
        status=GameStatus.PLAYING,
        settings=TableSettings(rule_set="classic", options=play.options.to_json()),
        version=1,
        play=ClassicGameAdapter(play),
    )
    game.seats = [Seat(SeatKind.HUMAN, f"P{seat}", USERS[seat]) for seat in range(4)]
    return game


def untruths(game: Game, want: tuple[bool, Suit | None], tr: Translator, locale: str) -> list[str]:
    """Where the engine, the table or a hand names another trump than ``want``."""
    play = game.play
    assert isinstance(play, ClassicGameAdapter)
    dealing = play.game.current
    assert dealing is not None
    found = []
    if (dealing.trump_set, dealing.trump) != want:
        found.append(f"the engine has {(dealing.trump_set, dealing.trump)}")
    line = classic_trump_words(want, play.game.options, tr, locale)
    if line not in cp.table(game, tr, locale, 0.0).text.split("\n"):
        found.append("the table")
    for seat in range(4):
        if line not in cp.hand(game, seat, 0, tr, locale).text.split("\n"):
            found.append(f"seat {seat}'s hand")
    return found


def play_a_game(options: ClassicOptions, seed: int, tr: Translator) -> tuple[list[str], set[str]]:
    """Deal ``DEALINGS`` dealings; in each, take the computers' decisions (praising
    often) up to the first card, checking every moment; play the rest at random. What
    was untrue, and the kinds of dealing seen."""
    rng = random.Random(seed)
    locale = LOCALES[seed % 2]
    play = ClassicGame(options, first_dealer=rng.randrange(4))
    game = table_of(play)
    computer = ClassicComputer(rng)
    fixed: dict[int, Suit] = {}
    found: list[str] = []
    kinds: set[str] = set()
    for _ in range(DEALINGS):
        if play.is_over:
            break
        play.deal(rng)
        dealing = play.current
        assert dealing is not None
        if not fixed:  # the game's first dealing fixes the roulette's suits
            jc = jc_holder(dealing, options)
            fixed = {jc: Suit.CLUBS, (jc + 2) % 4: Suit.SPADES}
            fixed |= {(jc + 1) % 4: Suit.HEARTS, (jc + 3) % 4: Suit.DIAMONDS}
        named: Suit | bool | None = False
        while not dealing.is_over and not dealing.table_view().played:
            want = expected(dealing, options, fixed, named)
            wrong = untruths(game, want, tr, locale)
            if wrong:
                moment = (dealing.number, dealing.attempt, dealing.phase.value, want)
                found.append(f"{options.to_json()} seed {seed} at {moment}: {wrong}")
                return found, kinds
            action = decide(play, dealing, computer, rng)
            if action.kind is ClassicActionKind.NAME_TRUMP:
                named = action.suit
            play.apply(action)
        kinds.add("deal" if dealing.praise is None else dealing.praise.value)
        if not dealing.is_over:
            play.playout_dealing(rng.random)
    return found, kinds


def decide(
    play: ClassicGame, dealing: Dealing, computer: ClassicComputer, rng: random.Random
) -> ClassicAction:
    """The decision taken now: praise when one may (most times), else the computer
    player's choice for the seat to act, now and then an optional action of anyone."""
    legal = play.legal_actions()
    praises = [a for a in legal if a.kind is ClassicActionKind.PRAISE]
    if praises and rng.random() < 0.8:
        return rng.choice(praises)
    if rng.random() < 0.2:
        return rng.choice(legal)
    turn = dealing.turn
    assert turn is not None
    chosen = computer.choose(dealing.view(turn), play.options)
    return chosen if chosen is not None else rng.choice(legal)


@pytest.fixture(scope="module")
def tr() -> Translator:
    return Translator.from_dir()


def test_every_combination_of_the_options_that_decide_the_trump(tr: Translator) -> None:
    found: list[str] = []
    kinds: set[str] = set()
    combinations = list(deciding())
    for index, options in enumerate(combinations):
        rng = random.Random(index)
        wrong, seen = play_a_game(with_the_rest(options, rng), index, tr)
        found += wrong
        kinds |= seen
    assert not found, found[:5]
    assert len(combinations) == 768
    assert kinds == {"deal", "simple", "pants", "mirror", "one_by_one"}


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_presets(tr: Translator, preset: str) -> None:
    found: list[str] = []
    for seed in range(30):
        found += play_a_game(PRESETS[preset], seed, tr)[0]
    assert not found, found[:5]
