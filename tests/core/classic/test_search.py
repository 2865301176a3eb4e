"""The classic search player: its worlds agree with the seat's view (the engine itself
replays the tricks with a world's hands), it sees nothing else, and it plays legally."""

from __future__ import annotations

import random
from collections.abc import Iterator

from core.classic.actions import ClassicActionKind
from core.classic.ai import ClassicComputer, EasyClassic, RandomPlayer, new_player, play_game
from core.classic.cards import index_of, mask_of
from core.classic.dealing import Dealing, Phase
from core.classic.options import ClassicOptions
from core.classic.search import (
    ClassicSampler,
    ClassicSearchPlayer,
    ClassicSearchSettings,
    ClassicWorld,
    Rules,
    legal_mask,
    playout,
    step,
    utility,
)
from tests.core.classic.helpers import dealt, opts, play

SMALL = ClassicSearchSettings(worlds=4)
K = ClassicActionKind

OPTION_SETS = [
    ClassicOptions.from_json(data)
    for data in (
        {},
        {"praise": "pants"},
        {"praise": "mirror", "follow": "any_trump", "trump_lead": "team"},
        {"trump_roulette": False, "ace_ban": False, "kocherga": False},
        {"trump_suit": "D", "praise": "choose"},
    )
]


def _position(rng: random.Random, options: ClassicOptions) -> tuple[Dealing, Dealing] | None:
    """A dealing some random cards into its tricks, and its copy at the first card."""
    dealing = Dealing.shuffled(options, rng.randrange(4), rng, number=rng.randrange(2))
    baseline = ClassicComputer(rng)
    while dealing.phase is not Phase.PLAY or not any(
        a.kind is K.PLAY for a in dealing.legal_actions(dealing.turn)
    ):
        if dealing.is_over:
            return None
        turn = dealing.turn
        assert turn is not None
        action = baseline.choose(dealing.view(turn), options)
        assert action is not None
        dealing.apply(action)
    # Offers and exchanges before the first card, from any seat.
    for seat in range(4):
        offer = [a for a in dealing.legal_actions(seat) if a.kind is K.OFFER_TRUMP]
        if offer and rng.random() < 0.5:
            dealing.apply(offer[0])
            answer = [
                a
                for a in dealing.legal_actions(dealing.turn)
                if a.kind in (K.ACCEPT_TRUMP, K.DECLINE_TRUMP)
            ]
            dealing.apply(rng.choice(answer))
    start = dealing.copy()
    for _ in range(rng.randrange(0, 30)):
        if dealing.is_over:
            break
        plays = [a for a in dealing.legal_actions(dealing.turn) if a.kind is K.PLAY]
        dealing.apply(rng.choice(plays))
    return None if dealing.is_over else (dealing, start)


def _positions(
    rng: random.Random, count: int
) -> Iterator[tuple[ClassicOptions, Dealing, Dealing, int]]:
    """Up to ``count`` positions (options, dealing, its copy at the first card, the seat
    to play), the option sets taken in turn."""
    for i in range(count):
        options = OPTION_SETS[i % len(OPTION_SETS)]
        found = _position(rng, options)
        if found is not None:
            turn = found[0].turn
            assert turn is not None
            yield options, found[0], found[1], turn


def _world_dealing(dealing: Dealing, start: Dealing, world: ClassicWorld) -> Dealing:
    """The dealing replayed by the engine from its first card with the world's hands
    (each card played then must be legal there)."""
    played = dealing.actions[len(start.actions) :]
    replay = start.copy()
    for seat in range(4):
        later = mask_of(a.card for a in played if a.seat == seat and a.card is not None)
        assert not world.hands[seat] & later
        replay._hands[seat] = world.hands[seat] | later
    for action in played:
        assert replay.can(action), f"{action} is illegal in the world"
        replay.apply(action)
    return replay


def test_no_sampled_world_contradicts_the_seat_view() -> None:
    """The engine replays every card of the tricks from the first one with a world's
    hidden hands (each play legal), and the seat's view of the result is its view."""
    rng = random.Random(5)
    checked = 0
    for options, dealing, start, _ in _positions(rng, 300):
        for seat in range(4):
            view = dealing.view(seat)
            sampler = ClassicSampler(view, options, Rules.of(view, options))
            for _ in range(3):
                world = sampler.sample(rng)
                assert world.hands[seat] == dealing.hand_mask(seat)
                assert _world_dealing(dealing, start, world).view(seat) == view
                checked += 1
    assert checked > 1500


def test_the_real_hands_are_a_possible_world() -> None:
    """What the sampler rules out (voids, shown cards, an exchanged card) is never true
    of the real hands: every real hidden card may be where it really is."""
    rng = random.Random(8)
    for options, dealing, _, _ in _positions(rng, 200):
        for seat in range(4):
            view = dealing.view(seat)
            sampler = ClassicSampler(view, options, Rules.of(view, options))
            for other in range(4):
                if other != seat:
                    real = dealing.hand_mask(other)
                    assert real & sampler._holds[other] | real & sampler._fixed[other] == real
                    assert sampler._fixed[other] & ~real == 0


def test_the_choice_does_not_change_when_only_hidden_cards_do() -> None:
    """Same view, other hidden hands (a sampled world made a real dealing), same seed:
    the same card."""
    rng = random.Random(3)
    for i, (options, dealing, start, turn) in enumerate(_positions(rng, 30)):
        view = dealing.view(turn)
        world = ClassicSampler(view, options, Rules.of(view, options)).sample(rng)
        other = _world_dealing(dealing, start, world)
        first = ClassicSearchPlayer(random.Random(i), SMALL).choose(view, options)
        again = ClassicSearchPlayer(random.Random(i), SMALL).choose(other.view(turn), options)
        assert first == again
        assert first is not None and dealing.can(first) and other.can(first)


def test_playouts_end_the_deal_with_every_card_counted() -> None:
    rng = random.Random(4)
    for options, dealing, _, turn in _positions(rng, 40):
        view = dealing.view(turn)
        rules = Rules.of(view, options)
        world = ClassicSampler(view, options, rules).sample(rng)
        playout(world, rules, rng, 0.2)
        assert world.over
        if world.caught < 0:
            assert sum(world.points) == 120
            assert sum(world.tricks) == 8
        value = utility(world, 0, 0.5)
        assert value == -utility(world, 1, 0.5)


def test_it_catches_the_queen_of_clubs() -> None:
    hands = {0: "QC 7S 8S 9S TS KS AS 7D", 1: "7C TH 8D 9D TD KD AD 8C"}
    dealing = dealt(opts(trump_suit="H"), hands)
    play(dealing, "0:play QC")
    action = ClassicSearchPlayer(random.Random(0), SMALL).choose(dealing.view(1), dealing.options)
    assert str(action) == "1:play 7C"


def test_every_level_plays_whole_games_legally() -> None:
    rng = random.Random(2)
    for level in ("easy", "normal", "strong", "computer"):
        players = [
            new_player(level, rng) if seat % 2 == 0 else RandomPlayer(rng) for seat in range(4)
        ]
        if level == "strong":
            players = [
                ClassicSearchPlayer(rng, SMALL) if seat % 2 == 0 else RandomPlayer(rng)
                for seat in range(4)
            ]
        game = play_game(players, rng, ClassicOptions(), first_dealer=1)
        assert game.is_over
    assert isinstance(new_player("easy"), EasyClassic)
    assert isinstance(new_player("strong"), ClassicSearchPlayer)


def test_step_takes_the_trick_as_the_engine_does() -> None:
    rng = random.Random(9)
    for options, dealing, _, _ in _positions(rng, 40):
        while not dealing.is_over:
            turn = dealing.turn
            assert turn is not None
            view = dealing.view(turn)
            rules = Rules.of(view, options)
            world = ClassicSampler(view, options, rules).sample(rng)
            world.hands = [dealing.hand_mask(s) for s in range(4)]
            plays = [a.card for a in view.legal if a.kind is K.PLAY and a.card is not None]
            assert legal_mask(world, rules) == mask_of(plays)
            card = rng.choice(plays)
            step(world, rules, index_of(card))
            dealing.apply(next(a for a in view.legal if a.card == card))
            if dealing.is_over:
                break
            assert world.hands == [dealing.hand_mask(s) for s in range(4)]
            assert world.turn == dealing.turn
            assert tuple(world.points) == dealing.points
