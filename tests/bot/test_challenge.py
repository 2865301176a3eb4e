"""Duplicate challenges (bot/challenge.py, bot/service/challenges.py): the deals the
same for everyone, each played once, the loss kept with the deal's end, the table."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest

from bot import challenge as challenges
from bot.challenge import Challenge, ChallengeError
from bot.errors import ErrorCode, ServiceError
from bot.models import ChatRef, Game, GameStatus, Platform, Seat, SeatKind, TableSettings, User
from bot.ports import Storage
from bot.service import GameService
from core.ruleset import DealOutcome, get_rule_set
from core.seats import Team
from tests.bot.conftest import ALICE, BOB, CAROL, FakeClock

#: 2026-12-04 12:00 UTC.
NOON = 1_796_385_600.0


def chat_of(user: User) -> ChatRef:
    """The entrant's own private chat."""
    return ChatRef(Platform.CONSOLE, f"dm-{user.ref.id}")


@pytest.fixture
async def quick(storage: Storage) -> AsyncIterator[GameService]:
    """A service whose computers (the challenge's strong level) answer at once: the
    normal yard player stands in for them, so that a deal takes milliseconds."""
    yard = get_rule_set("yard")
    service = GameService(
        storage,
        clock=FakeClock(NOON),
        rng=random.Random(5),
        computer_delay=0,
        turn_timeout=0,
        players=lambda level: yard.computer("normal"),
    )
    try:
        yield service
    finally:
        await service.close()


async def play_out(service: GameService, game: Game, user: User) -> Game:
    """Play the entrant's seat with safe moves until the deal's game is over."""
    while True:
        await service.settle()
        game = await service.game(game.id)
        if game.status is not GameStatus.PLAYING:
            return game
        if game.play.turn == challenges.SEAT:
            action = game.play.safe_action(challenges.SEAT)
            await service.play(game.id, game.version, user.ref, action)


def hands(game: Game) -> list[tuple[str, ...]]:
    """Every seat's cards as dealt (the engine's own view of each seat)."""
    return [tuple(str(card) for card in game.play.seat_view(seat).hand) for seat in range(4)]


async def test_every_entrant_gets_the_same_deals_each_once_and_his_loss_is_kept(
    quick: GameService,
) -> None:
    service = quick
    daily = await service.challenges.find(None)
    assert daily.id == "yard-2026-12-04" and daily.deals == challenges.DEALS["yard"]
    assert await service.challenges.find("yard") == daily
    dealt: dict[int, list[list[tuple[str, ...]]]] = {}
    for user in (ALICE, BOB):
        for deal in range(daily.deals):
            game = await service.challenges.play(daily, chat_of(user), user)
            assert game.settings.challenge_deal == deal
            assert game.seats[0] == Seat(SeatKind.HUMAN, user.name, user.ref)
            assert all(s is not None and s.level == "strong" for s in game.seats[1:])
            dealt.setdefault(deal, []).append(hands(game))
            # Asked again in the middle of the deal: the same game, never a new deal.
            again = await service.challenges.play(daily, chat_of(user), user)
            assert again.id == game.id
            over = await play_out(service, game, user)
            assert over.status is GameStatus.FINISHED
        plays = await service.challenges.plays(daily, user.ref)
        assert [play.deal for play in plays] == list(range(daily.deals))
        assert all(play.loss is not None for play in plays)
        with pytest.raises(ServiceError) as done:
            await service.challenges.play(daily, chat_of(user), user)
        assert done.value.code == ChallengeError.DONE
    assert all(first == second for first, second in dealt.values())
    assert len({tuple(map(tuple, first)) for first, _ in dealt.values()}) == daily.deals


async def test_a_challenge_deal_cannot_be_stopped_nor_rematched(quick: GameService) -> None:
    service = quick
    daily = await service.challenges.find("yard")
    game = await service.challenges.play(daily, chat_of(ALICE), ALICE)
    with pytest.raises(ServiceError) as stopped:
        await service.cancel(game.id, None, ALICE.ref, is_admin=True)
    assert stopped.value.code == ChallengeError.NO_STOP
    over = await play_out(service, game, ALICE)
    with pytest.raises(ServiceError) as rematch:
        await service.rematch(over.id, ALICE.ref)
    assert rematch.value.code == ChallengeError.NO_REMATCH


async def test_a_chat_with_another_open_game_is_refused_and_nothing_is_started(
    quick: GameService,
) -> None:
    service = quick
    running = await service.open_table(chat_of(ALICE), ALICE)
    daily = await service.challenges.find(None)
    with pytest.raises(ServiceError) as refused:
        await service.challenges.play(daily, chat_of(ALICE), ALICE)
    assert (refused.value.code, refused.value.game_id) == (ErrorCode.GAME_RUNNING, running.id)
    assert await service.challenges.plays(daily, ALICE.ref) == []


@pytest.mark.parametrize(
    ("word", "code"),
    [
        ("yard-2026-12-05", ChallengeError.NOT_YET),  # tomorrow's: not begun
        ("chess-2026-12-04", ChallengeError.UNKNOWN),
        ("k7m2xq", ChallengeError.UNKNOWN),  # well formed, never made
        ("'; DROP TABLE games; --", ChallengeError.UNKNOWN),
        ("x" * 500, ChallengeError.UNKNOWN),
    ],
)
async def test_a_forged_or_future_challenge_id_is_refused(
    quick: GameService, word: str, code: str
) -> None:
    with pytest.raises(ServiceError) as refused:
        await quick.challenges.find(word)
    assert refused.value.code == code
    assert await quick.storage.challenge(word) is None


async def test_a_custom_challenge_keeps_its_rules_and_is_found_by_its_id(
    quick: GameService,
) -> None:
    made = await quick.challenges.create("classic", {"trump_suit": "D"})
    assert challenges.well_formed(made.id) and made.deals == challenges.DEALS["classic"]
    assert await quick.challenges.find(made.id.upper()) == made
    with pytest.raises(ServiceError) as refused:
        await quick.challenges.create("classic", {"colour": "red"})
    assert refused.value.code == "bad-options"


# --- The scoring, through each storage ----------------------------------------------


async def scored(
    storage: Storage, challenge: Challenge, user: User, deal: int, lost: int, name: str
) -> None:
    """Keep a deal of ``challenge`` played by ``user`` whose loss was ``lost`` (a yard
    deal that wrote ``lost`` loss points on his side, or on the other's if negative),
    as a save keeps it: with the game's end."""
    settings = TableSettings(rule_set="yard", challenge=challenge.id, challenge_deal=deal)
    play = settings.new_game()
    play.deal(random.Random(deal))
    computers = [Seat(SeatKind.COMPUTER, f"bot-name-{i}", level="strong") for i in (1, 2, 3)]
    game = Game(
        id=0,
        chat=chat_of(user),
        creator=user.ref,
        status=GameStatus.PLAYING,
        settings=settings,
        seats=[Seat(SeatKind.HUMAN, name, user.ref), *computers],
        play=play,
        version=1,
    )
    game = await storage.start_challenge_deal(game, challenge, deal, name)
    with pytest.raises(challenges.DealTaken):
        await storage.start_challenge_deal(game, challenge, deal, name)
    game.status = GameStatus.FINISHED
    game.version += 1
    score = (lost, 0) if lost >= 0 else (0, -lost)
    winner = Team.B if lost > 0 else Team.A if lost < 0 else None
    outcome = DealOutcome(0, winner, (60, 60), (2, 2), score, lost == 0)
    await storage.save_game(game, deals=[outcome], base=game.version - 1)


async def test_the_table_of_a_hand_worked_example(storage: Storage) -> None:
    """Deal 0: Alice lost 2, Bob 0, Carol -2 (the field's average 0); deal 1: Alice 0,
    Bob 4 (the average 2); Carol did not play it. Scores (average less his loss):
    Alice (0 - 2) + (2 - 0) = 0, Bob (0 - 0) + (2 - 4) = -2, Carol 0 - -2 = 2."""
    challenge = await storage.keep_challenge(Challenge("k7m2xq", "yard", {}, 8, NOON))
    for user, deal, lost in [
        (ALICE, 0, 2),
        (BOB, 0, 0),
        (CAROL, 0, -2),
        (ALICE, 1, 0),
        (BOB, 1, 4),
    ]:
        await scored(storage, challenge, user, deal, lost, user.name)
    table = await storage.challenge_standings(challenge, BOB.ref)
    assert [(s.place, s.name, s.score, s.deals) for s in table.top] == [
        (1, "Carol", 2.0, 1),
        (2, "Alice", 0.0, 2),
        (3, "Bob", -2.0, 2),
    ]
    assert table.own is not None and (table.own.place, table.own.score) == (3, -2.0)
    assert table.entrants == 3
    plays = await storage.challenge_plays(challenge.id, ALICE.ref)
    assert [(p.deal, p.loss) for p in plays] == [(0, 2), (1, 0)]
    nobody = await storage.challenge_standings(challenge, None, limit=1)
    assert [s.name for s in nobody.top] == ["Carol"] and nobody.own is None
