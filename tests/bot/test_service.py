"""The game service: lobby, play, versions, computers, timers, restarts."""

from __future__ import annotations

import asyncio
import random
import threading
from pathlib import Path

import pytest

from adapters.sqlite import SqliteStorage
from bot.errors import ErrorCode, ServiceError
from bot.memory import MemoryStorage
from bot.models import (
    ChatRef,
    Game,
    GameStatus,
    Platform,
    SeatKind,
    TableSettings,
    User,
    UserRef,
)
from bot.ports import Change, ChangeKind, Owed, OwedKind, Storage
from bot.service import GameService
from core.record import replay
from core.seats import Team
from core.yard.actions import Action, ActionKind
from core.yard.ai import make_player, safe_move
from core.yard.deal import Deal
from core.yard.events import CardsBeaten, CardsDiscarded, CardsLed, MolodkaDeclared
from core.yard.record import series_to_record
from core.yard.views import SeatView
from tests.bot.conftest import (
    ALICE,
    BOB,
    CAROL,
    CHAT,
    EVE,
    PLAYERS,
    FakeClock,
    RecordingPublisher,
)
from tests.bot.test_storage import corrupt


async def full_table(service: GameService, humans: int = 4, chat: ChatRef = CHAT) -> int:
    """A started game: the first ``humans`` players sit down, computers fill the rest."""
    game = await service.open_table(chat, ALICE)
    for index in range(4):
        team = Team(index % 2)
        if index < humans:
            game = await service.join(game.id, game.version, PLAYERS[index], team)
        else:
            game = await service.add_computer(game.id, game.version, ALICE.ref, team)
    outcome = await service.start(game.id, game.version, ALICE.ref)
    return outcome.game.id


async def turn_user(service: GameService, game_id: int) -> tuple[int, int, Action]:
    """Who is to play, at which version, and a safe legal move for him."""
    game = await service.game(game_id)
    deal = game.play.series.current
    assert deal is not None and deal.turn is not None
    return deal.turn, game.version, safe_move(deal.view(deal.turn))


# --- The lobby ---------------------------------------------------------------------------


async def test_one_open_game_per_chat(service: GameService) -> None:
    game = await service.open_table(CHAT, ALICE)
    with pytest.raises(ServiceError) as refused:
        await service.open_table(CHAT, BOB)
    assert refused.value.code == ErrorCode.GAME_RUNNING
    assert refused.value.game_id == game.id
    other = await service.open_table(ChatRef(Platform.CONSOLE, "chat-2"), BOB)
    assert other.id != game.id


async def test_a_chats_language_chosen_else_the_platforms_else_the_default(
    service: GameService,
) -> None:
    assert service.default_locale == "ru"
    english = ChatRef(Platform.DISCORD, "777", language="en-GB")
    assert english == ChatRef(Platform.DISCORD, "777")  # a hint, not the chat's identity
    assert await service.chat_locale(english) == "en"
    assert await service.chat_locale(ChatRef(Platform.DISCORD, "777", language="de")) == "en"
    assert await service.chat_locale(ChatRef(Platform.DISCORD, "777", language="ru")) == "ru"
    assert await service.chat_locale(ChatRef(Platform.DISCORD, "777")) == "ru"
    game = await service.open_table(english, ALICE)
    assert game.settings.locale == "en"
    await service.cancel(game.id, None, ALICE.ref)
    await service.set_chat_locale(english, "ru")
    assert await service.chat_locale(english) == "ru"
    assert (await service.open_table(english, ALICE)).settings.locale == "ru"


async def test_seats_by_team_and_team_changes(service: GameService) -> None:
    game = await service.open_table(CHAT, ALICE)
    game = await service.join(game.id, game.version, ALICE, Team.A)
    game = await service.join(game.id, game.version, BOB, Team.A)
    assert [s.name if s else None for s in game.seats] == ["Alice", None, "Bob", None]
    with pytest.raises(ServiceError) as full:
        await service.join(game.id, game.version, CAROL, Team.A)
    assert full.value.code == ErrorCode.TEAM_FULL
    with pytest.raises(ServiceError) as again:
        await service.join(game.id, game.version, ALICE, Team.A)
    assert again.value.code == ErrorCode.ALREADY_SEATED
    game = await service.join(game.id, game.version, ALICE, Team.B)
    assert game.seat_of(ALICE.ref) == 1 and game.seats[0] is None
    game = await service.leave(game.id, game.version, BOB.ref)
    assert game.seat_of(BOB.ref) is None


async def test_computers_and_who_may_change_the_lobby(service: GameService) -> None:
    game = await service.open_table(CHAT, ALICE)
    with pytest.raises(ServiceError) as stranger:
        await service.add_computer(game.id, game.version, EVE.ref, Team.B)
    assert stranger.value.code == ErrorCode.NOT_SEATED
    game = await service.add_computer(game.id, game.version, ALICE.ref, Team.B)
    game = await service.add_computer(game.id, game.version, ALICE.ref, Team.B)
    computers = [s for s in game.seats if s is not None]
    assert [s.kind for s in computers] == [SeatKind.COMPUTER, SeatKind.COMPUTER]
    assert len({s.name for s in computers}) == 2
    with pytest.raises(ServiceError) as no_seat:
        await service.remove_computer(game.id, game.version, ALICE.ref, 0)
    assert no_seat.value.code == ErrorCode.NO_SUCH_SEAT
    game = await service.remove_computer(game.id, game.version, ALICE.ref, 1)
    assert game.seats[1] is None


async def test_start_needs_the_creator_and_a_full_table(service: GameService) -> None:
    game = await service.open_table(CHAT, ALICE)
    game = await service.join(game.id, game.version, BOB, Team.A)
    with pytest.raises(ServiceError) as not_full:
        await service.start(game.id, game.version, ALICE.ref)
    assert not_full.value.code == ErrorCode.TABLE_NOT_FULL
    for team in (Team.B, Team.A, Team.B):
        game = await service.add_computer(game.id, game.version, ALICE.ref, team)
    with pytest.raises(ServiceError) as not_creator:
        await service.start(game.id, game.version, BOB.ref)
    assert not_creator.value.code == ErrorCode.NOT_CREATOR
    outcome = await service.start(game.id, game.version, ALICE.ref)
    assert outcome.game.status is GameStatus.PLAYING
    assert outcome.game.play.series.current is not None


async def test_settings_only_by_the_creator_and_only_known_values(
    service: GameService, storage: Storage
) -> None:
    game = await service.open_table(CHAT, ALICE)
    with pytest.raises(ServiceError) as not_creator:
        await service.change_setting(game.id, game.version, BOB.ref, "t30")
    assert not_creator.value.code == ErrorCode.NOT_CREATOR
    for bad in ("t7", "lxx", "", "q1", "cgrandmaster", "cbaseline"):
        with pytest.raises(ServiceError) as refused:
            await service.change_setting(game.id, game.version, ALICE.ref, bad)
        assert refused.value.code == ErrorCode.BAD_SETTING
    game = await service.change_setting(game.id, game.version, ALICE.ref, "t30", chat_admin=admin)
    game = await service.change_setting(game.id, game.version, ALICE.ref, "len", chat_admin=admin)
    assert game.settings.turn_timeout == 30 and game.settings.locale == "en"
    chat = await storage.get_chat(CHAT)
    assert chat is not None and chat.locale == "en" and chat.turn_timeout == 30


async def admin(chat: ChatRef) -> bool:
    return True


async def test_lobby_defaults_for_the_group_are_for_its_admins(
    service: GameService, storage: Storage
) -> None:
    """Regression: any creator's lobby saved its language and turn time as the group's
    defaults. A member's change is his table's alone; an admin's is the group's."""
    asked: list[ChatRef] = []

    async def no_admin(chat: ChatRef) -> bool:
        asked.append(chat)
        return False

    game = await service.open_table(CHAT, BOB)
    game = await service.change_setting(game.id, None, BOB.ref, "t30", chat_admin=no_admin)
    game = await service.change_setting(game.id, None, BOB.ref, "len", chat_admin=no_admin)
    game = await service.change_setting(game.id, None, BOB.ref, "p", chat_admin=no_admin)
    assert game.settings.turn_timeout == 30 and game.settings.locale == "en"
    assert await storage.get_chat(CHAT) is None
    assert asked == [CHAT, CHAT]  # only for the language and the turn time
    await service.cancel(game.id, None, BOB.ref)
    again = await service.open_table(CHAT, BOB)
    assert again.settings.locale == "ru" and again.settings.turn_timeout == service.turn_timeout
    # An admin's choice is the group's: what he changed, and only that.
    again = await service.change_setting(again.id, None, BOB.ref, "t300", chat_admin=admin)
    chat = await storage.get_chat(CHAT)
    assert chat is not None and chat.turn_timeout == 300 and chat.locale is None


async def test_new_tables_have_strong_computers_and_the_creator_may_change_their_level(
    service: GameService, storage: Storage
) -> None:
    assert TableSettings().computer_level == "strong"
    assert GameService(storage).computer_level == "strong"
    game = await service.open_table(CHAT, ALICE, join=True)
    assert game.settings.computer_level == "normal"  # the tests' service
    game = await service.add_computer(game.id, game.version, ALICE.ref, Team.B)
    assert [s.level for s in game.seats if s is not None and s.is_computer] == ["normal"]
    game = await service.change_setting(game.id, game.version, ALICE.ref, "ceasy")
    game = await service.add_computer(game.id, game.version, ALICE.ref, Team.A)
    assert game.settings.computer_level == "easy"
    # The seated computer and the one added after are both easy.
    assert [s.level for s in game.seats if s is not None and s.is_computer] == ["easy", "easy"]
    with pytest.raises(ServiceError) as refused:
        await service.change_setting(game.id, game.version, BOB.ref, "cnormal")
    assert refused.value.code == ErrorCode.NOT_CREATOR


async def test_cancel_by_creator_or_admin_only(service: GameService) -> None:
    game = await service.open_table(CHAT, ALICE)
    with pytest.raises(ServiceError) as refused:
        await service.cancel(game.id, game.version, BOB.ref)
    assert refused.value.code == ErrorCode.NOT_ALLOWED
    game = await service.cancel(game.id, game.version, BOB.ref, is_admin=True)
    assert game.status is GameStatus.CANCELLED
    assert await service.open_game(CHAT) is None
    with pytest.raises(ServiceError) as over:
        await service.join(game.id, None, CAROL, Team.A)
    assert over.value.code == ErrorCode.GAME_OVER


# --- Play --------------------------------------------------------------------------------


async def test_bad_requests_change_nothing(service: GameService, storage: Storage) -> None:
    game_id = await full_table(service)
    seat, version, action = await turn_user(service, game_id)
    before = await storage.load_game(game_id)
    assert before is not None
    wrong = PLAYERS[(seat + 1) % 4]
    cases = [
        (EVE.ref, version, action, ErrorCode.NOT_SEATED),
        (PLAYERS[seat].ref, version - 1, action, ErrorCode.STALE),
        (wrong.ref, version, action, "not-your-turn"),
        (
            PLAYERS[seat].ref,
            version,
            Action(seat, ActionKind.BEAT, action.cards),
            "must-lead",
        ),
    ]
    for user, at_version, attempt, code in cases:
        with pytest.raises(ServiceError) as refused:
            await service.play(game_id, at_version, user, attempt)
        assert refused.value.code == code
    with pytest.raises(ServiceError) as unknown:
        await service.play(9999, 0, ALICE.ref, action)
    assert unknown.value.code == ErrorCode.UNKNOWN_GAME
    after = await storage.load_game(game_id)
    assert after is not None
    assert after.version == before.version
    assert after.play.series == before.play.series
    assert await storage.game_actions(game_id) == []


async def test_an_action_is_saved_before_it_is_published(
    service: GameService, storage: Storage, publisher: RecordingPublisher
) -> None:
    game_id = await full_table(service)
    seat, version, action = await turn_user(service, game_id)
    seen: list[int] = []

    async def check_saved(game: object, change: object) -> None:
        saved = await storage.load_game(game_id)
        assert saved is not None
        seen.append(saved.version)

    publisher.publish = check_saved  # type: ignore[method-assign]
    outcome = await service.play(game_id, version, PLAYERS[seat].ref, action)
    assert seen == [outcome.game.version] == [version + 1]
    logged = await storage.game_actions(game_id)
    assert [(a.version, a.seat, a.user) for a in logged] == [(version + 1, seat, PLAYERS[seat].ref)]


async def test_duplicate_presses_apply_once(service: GameService, storage: Storage) -> None:
    game_id = await full_table(service)
    seat, version, action = await turn_user(service, game_id)
    user = PLAYERS[seat].ref
    results = await asyncio.gather(
        *(service.play(game_id, version, user, action) for _ in range(5)),
        return_exceptions=True,
    )
    applied = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, ServiceError)]
    assert len(applied) == 1 and len(refused) == 4
    assert {r.code for r in refused} == {ErrorCode.STALE}
    assert len(await storage.game_actions(game_id)) == 1


async def test_a_press_another_process_applied_first_is_refused_as_stale(
    service: GameService, storage: Storage, clock: FakeClock
) -> None:
    """Two services on one storage, as two processes on one database: each keeps its
    own copy of the game, and the database's fence decides which press stands."""
    other = GameService(storage, clock=clock, rng=random.Random(8), computer_delay=0)
    game_id = await full_table(service)
    await other.game(game_id)  # the other process has the game too, at this version
    seat, version, action = await turn_user(service, game_id)
    await service.play(game_id, version, PLAYERS[seat].ref, action)
    # The next press, made from what the first process showed, reaches the other
    # one: its copy is behind the version the press saw, so it loads the stored game.
    seat, version, action = await turn_user(service, game_id)
    outcome = await other.play(game_id, version, PLAYERS[seat].ref, action)
    assert outcome.game.version == version + 1
    # The same press reaches the first process too, whose copy still says
    # ``version``: the change is made in memory, the database refuses to keep it.
    with pytest.raises(ServiceError) as refused:
        await service.play(game_id, version, PLAYERS[seat].ref, action)
    assert refused.value.code == ErrorCode.STALE
    stored = await storage.load_game(game_id)
    assert stored is not None and stored.version == version + 1
    assert [a.version for a in await storage.game_actions(game_id)] == [version, version + 1]
    # The refused process dropped its copy: it shows and goes on from the stored game.
    assert (await service.game(game_id)) == stored
    await other.close()


async def test_a_process_of_one_platform_restores_and_times_only_its_games(
    storage: Storage, clock: FakeClock
) -> None:
    opener = GameService(storage, clock=clock, rng=random.Random(3), turn_timeout=60)
    started = {}
    for platform in (Platform.TELEGRAM, Platform.DISCORD):
        players = [User(UserRef(platform, str(seat)), f"P{seat}") for seat in range(4)]
        game = await opener.open_table(ChatRef(platform, "-5"), players[0])
        for seat, player in enumerate(players):
            game = await opener.join(game.id, game.version, player, Team(seat % 2))
        started[platform] = (await opener.start(game.id, game.version, players[0].ref)).game
    telegram = GameService(
        storage, clock=clock, rng=random.Random(4), turn_timeout=60, platforms={Platform.TELEGRAM}
    )
    assert [game.id for game in await telegram.restore()] == [started[Platform.TELEGRAM].id]
    clock.advance(61)  # both games' players are out of time
    await telegram.tick()
    for platform, game in started.items():
        stored = await storage.load_game(game.id)
        assert stored is not None
        moved = stored.version - game.version
        assert moved == (1 if platform is Platform.TELEGRAM else 0), platform
    await telegram.close()


async def test_four_users_at_once_no_deadlock_nothing_twice(
    service: GameService, storage: Storage
) -> None:
    game_id = await full_table(service)
    start_version = (await service.game(game_id)).version
    for _ in range(12):
        game = await service.game(game_id)
        version = game.version
        deal = game.play.series.current
        assert deal is not None

        async def attempt(seat: int, version: int = version, deal: Deal = deal) -> object:
            view = deal.view(seat)
            move = (
                safe_move(view)
                if view.table.turn == seat
                else view.hand and Action(seat, ActionKind.LEAD, view.hand[:1])
            )
            assert isinstance(move, Action)
            return await service.play(game_id, version, PLAYERS[seat].ref, move)

        results = await asyncio.wait_for(
            asyncio.gather(*(attempt(seat) for seat in range(4)), return_exceptions=True),
            timeout=5,
        )
        assert sum(not isinstance(r, BaseException) for r in results) == 1
        assert all(isinstance(r, ServiceError) for r in results if isinstance(r, BaseException))
    assert len(await storage.game_actions(game_id)) == 12
    assert (await service.game(game_id)).version == start_version + 12


async def test_molodka_out_of_turn_from_a_human(service: GameService) -> None:
    """Whoever may declare a molodka can do it out of turn through the service."""
    for seed in range(200):
        service.rng = random.Random(seed)
        game_id = await full_table(service)
        game = await service.game(game_id)
        deal = game.play.series.current
        assert deal is not None
        holder = deal.molodka_seat
        if holder is not None and holder != deal.turn:
            outcome = await service.play(
                game_id, game.version, PLAYERS[holder].ref, Action.molodka(holder)
            )
            assert outcome.events and type(outcome.events[0]).__name__ == "MolodkaDeclared"
            return
        await service.cancel(game_id, None, ALICE.ref)
    pytest.fail("no deal with a molodka for a seat out of turn in 200 seeds")


# --- Computers, results, stats -----------------------------------------------------------


async def play_to_the_end(service: GameService, game_id: int, humans: int) -> None:
    for _ in range(2000):
        await service.settle()
        game = await service.game(game_id)
        if game.status is not GameStatus.PLAYING:
            return
        seat, version, action = await turn_user(service, game_id)
        assert seat < humans, "computers should have moved"
        await service.play(game_id, version, PLAYERS[seat].ref, action)
    pytest.fail("the series did not end")


async def test_one_human_and_three_computers_finish_a_series(
    service: GameService, storage: Storage, publisher: RecordingPublisher
) -> None:
    game_id = await full_table(service, humans=1)
    await play_to_the_end(service, game_id, humans=1)
    game = await service.game(game_id)
    assert game.status is GameStatus.FINISHED
    result = game.play.series.result
    assert result is not None and max(result.loss_points) >= 12
    kinds = publisher.kinds()
    assert kinds.count("finished") == 1 and "dealt" in kinds
    stats = await storage.user_stats(ALICE.ref)
    assert stats is not None
    assert stats.series_played == 1
    assert stats.series_won == (0 if result.loser is Team.A else 1)
    assert stats.deals_played == len(game.play.series.deals)
    # The action log replays to the same series.
    logged = await storage.game_actions(game_id)
    assert len(logged) == sum(len(d.actions) for d in game.play.series.deals)
    assert replay(series_to_record(game.play.series))["series"]["finished"] is True


async def test_rematch_keeps_the_seats(service: GameService) -> None:
    game_id = await full_table(service, humans=1)
    await play_to_the_end(service, game_id, humans=1)
    with pytest.raises(ServiceError) as stranger:
        await service.rematch(game_id, EVE.ref)
    assert stranger.value.code == ErrorCode.NOT_SEATED
    outcome = await service.rematch(game_id, ALICE.ref)
    old = await service.game(game_id)
    assert outcome.game.id != game_id and outcome.game.rematch_of == game_id
    assert [s.name if s else None for s in outcome.game.seats] == [
        s.name if s else None for s in old.seats
    ]
    assert outcome.game.status is GameStatus.PLAYING
    with pytest.raises(ServiceError) as running:
        await service.rematch(game_id, ALICE.ref)
    assert running.value.code == ErrorCode.GAME_RUNNING


async def test_a_failing_publisher_loses_nothing(
    service: GameService, storage: Storage, publisher: RecordingPublisher
) -> None:
    game_id = await full_table(service)
    publisher.fail = True
    seat, version, action = await turn_user(service, game_id)
    await service.play(game_id, version, PLAYERS[seat].ref, action)
    saved = await storage.load_game(game_id)
    assert saved is not None and saved.version == version + 1


async def test_a_failing_save_changes_nothing(service: GameService, storage: Storage) -> None:
    game_id = await full_table(service)
    seat, version, action = await turn_user(service, game_id)
    real_save = storage.save_game

    async def broken(*args: object, **kwargs: object) -> None:
        raise OSError("disk full")

    storage.save_game = broken  # type: ignore[method-assign]
    with pytest.raises(OSError):
        await service.play(game_id, version, PLAYERS[seat].ref, action)
    storage.save_game = real_save  # type: ignore[method-assign]
    game = await service.game(game_id)
    assert game.version == version
    assert game.play.series.current is not None and len(game.play.series.current.actions) == 0
    await service.play(game_id, version, PLAYERS[seat].ref, action)


#: The events of one action each.
PLAY_EVENTS = (CardsLed, CardsBeaten, CardsDiscarded, MolodkaDeclared)


async def play_a_deal_with_saves_recorded(
    service: GameService, storage: Storage
) -> tuple[int, list[tuple[list[int], list[int], bool]]]:
    """Alice and three computers play the first deal; each save_game call as (the
    versions of its actions, the numbers of the deals it records, a series or not)."""
    saves: list[tuple[list[int], list[int], bool]] = []
    real_save = storage.save_game

    async def recording(game, actions=(), *, deals=(), series=None, owed=(), base=None, **more):  # type: ignore[no-untyped-def]
        saves.append(([a.version for a in actions], [d.number for d in deals], series is not None))
        await real_save(game, actions, deals=deals, series=series, owed=owed, base=base, **more)

    async def refused(*args: object) -> None:
        raise AssertionError("results are saved with the game, in its transaction")

    storage.save_game = recording  # type: ignore[method-assign]
    storage.record_deal = refused  # type: ignore[method-assign]
    storage.record_series = refused  # type: ignore[method-assign]
    game_id = await full_table(service, humans=1)
    await service.settle()
    while not (await service.game(game_id)).play.series.deals[0].is_over:
        seat, version, action = await turn_user(service, game_id)
        assert seat == 0
        await service.play(game_id, version, ALICE.ref, action)
        await service.settle()
    return game_id, saves


async def test_computer_moves_without_a_delay_are_saved_together(
    service: GameService, storage: Storage, publisher: RecordingPublisher
) -> None:
    game_id, saves = await play_a_deal_with_saves_recorded(service, storage)
    logged = [a.version for a in await storage.game_actions(game_id)]
    moves = [versions for versions, _, _ in saves if versions]
    # Each save is shown once, with every event of its moves, at its last version.
    played = [(version, change) for _, version, change in publisher.changes]
    played = [(v, c) for v, c in played if c.kind in (ChangeKind.PLAYED, ChangeKind.FINISHED)]
    assert [v for v, _ in played] == [versions[-1] for versions in moves]
    for (_, change), versions in zip(played, moves, strict=True):
        plays = [e for e in change.events if isinstance(e, PLAY_EVENTS)]
        assert len(plays) == len(versions)
    assert [v for versions in moves for v in versions] == logged  # all of them, in order
    assert max(len(versions) for versions in moves) > 1  # computers in a row: one save
    assert len(moves) < len(logged)
    for versions in moves:
        assert versions == list(range(versions[0], versions[0] + len(versions)))
    # The deal's result went with the save of the move that ended it.
    (ending,) = [(versions, deals) for versions, deals, _ in saves if deals]
    first_deal = (await service.game(game_id)).play.series.deals[0]
    assert ending[1] == [0] and ending[0][-1] == logged[len(first_deal.actions) - 1]
    stats = await storage.user_stats(ALICE.ref)
    assert stats is not None and stats.deals_played == 1


async def test_computer_moves_with_a_delay_are_saved_one_by_one(
    storage: Storage, clock: FakeClock
) -> None:
    async def no_wait(seconds: float) -> None:
        await asyncio.sleep(0)

    service = GameService(
        storage, clock=clock, rng=random.Random(7), computer_delay=1.0, sleep=no_wait
    )
    try:
        _, saves = await play_a_deal_with_saves_recorded(service, storage)
    finally:
        await service.close()
    assert all(len(versions) <= 1 for versions, _, _ in saves)


class _SlowThinker:
    """A searching computer player whose first decision waits until the test lets it
    go (the service asks a player that searches off its event loop)."""

    searches = True

    def __init__(
        self, entered: asyncio.Event, release: threading.Event, done: asyncio.Event
    ) -> None:
        self.loop = asyncio.get_running_loop()
        self.entered, self.release, self.done = entered, release, done
        self.inner = make_player("normal")
        self.released: bool | None = None  # whether the test let it go (not a timeout)

    def choose(self, view: SeatView, rng: random.Random) -> Action | None:
        if self.released is None and not self.entered.is_set():
            self.loop.call_soon_threadsafe(self.entered.set)
            self.released = self.release.wait(timeout=3)
            self.loop.call_soon_threadsafe(self.done.set)
        return self.inner.choose(view, rng)


async def test_a_computer_thinking_does_not_block_the_event_loop(
    storage: Storage, clock: FakeClock
) -> None:
    entered, release, done = asyncio.Event(), threading.Event(), asyncio.Event()
    thinkers: list[_SlowThinker] = []

    def players(level: str) -> _SlowThinker:
        thinkers.append(_SlowThinker(entered, release, done))
        return thinkers[-1]

    service = GameService(
        storage, clock=clock, rng=random.Random(7), computer_delay=0, players=players
    )
    try:
        await full_table(service, humans=0)
        await asyncio.wait_for(entered.wait(), timeout=10)
        # The loop serves another chat while the computer is still thinking.
        other = await service.open_table(ChatRef(Platform.CONSOLE, "chat-2"), BOB)
        assert other.status is GameStatus.LOBBY
        release.set()
        await asyncio.wait_for(done.wait(), timeout=10)
    finally:
        release.set()
        await service.close()
    # The first to think was let go by the test, not by its timeout.
    assert [t.released for t in thinkers if t.released is not None] == [True]


# --- Turn timers ---------------------------------------------------------------------------


async def test_reminder_then_an_automatic_move(
    service: GameService, clock: FakeClock, publisher: RecordingPublisher, storage: Storage
) -> None:
    game_id = await full_table(service)
    game = await service.game(game_id)
    assert game.turn_deadline == clock.now() + 60
    await service.tick()
    assert "reminder" not in publisher.kinds()
    clock.advance(31)
    await service.tick()
    await service.tick()
    assert publisher.kinds().count("reminder") == 1
    for _ in range(3):
        seat, version, expected = await turn_user(service, game_id)
        deadline = (await service.game(game_id)).turn_deadline
        assert deadline is not None
        clock.value = deadline - 1
        await service.tick()
        assert (await service.game(game_id)).version == version  # not yet
        clock.advance(2)
        await service.tick()
        game = await service.game(game_id)
        assert game.version == version + 1
        player = game.seats[seat]
        assert player is not None and player.missed >= 1 and not player.away
        logged = (await storage.game_actions(game_id))[-1]
        assert logged.auto and logged.seat == seat and logged.user is None
        assert logged.action["type"] == expected.kind.value


class _StuckReminders(RecordingPublisher):
    """A publisher whose first reminder hangs (a platform that never answers) until
    the test lets it go: the game's lock stays held meanwhile."""

    def __init__(self) -> None:
        super().__init__()
        self.entered, self.release = asyncio.Event(), asyncio.Event()

    async def publish(self, game: Game, change: Change) -> None:
        await super().publish(game, change)
        if change.kind is ChangeKind.REMINDER and not self.entered.is_set():
            self.entered.set()
            await self.release.wait()


async def test_a_game_whose_timer_hangs_never_holds_up_another_games_clock(
    storage: Storage, clock: FakeClock
) -> None:
    """Regression: tick() handled the games one after the other, each under its lock,
    so one game whose lock was held (a computer thinking, a hung message) stopped
    every other chat's clock. Here the first game's reminder hangs: the second game
    still times out on schedule, and the first once its reminder is done."""
    publisher = _StuckReminders()
    service = GameService(
        storage, clock=clock, rng=random.Random(5), computer_delay=0, turn_timeout=60
    )
    service.add_publisher(Platform.CONSOLE, publisher)
    stuck = await full_table(service)
    clock.advance(20)
    other = await full_table(service, chat=ChatRef(Platform.CONSOLE, "chat-2"))
    try:
        clock.advance(11)  # the first game's reminder is due
        reminding = asyncio.create_task(service.tick())
        await asyncio.wait_for(publisher.entered.wait(), timeout=30)
        clock.advance(50)  # both games are out of time
        await asyncio.wait_for(service.tick(), timeout=30)  # a hang guard only
        [moved] = await storage.game_actions(other)
        assert moved.auto and moved.user is None
        assert await storage.game_actions(stuck) == [] and not reminding.done()
        publisher.release.set()
        await asyncio.wait_for(reminding, timeout=30)
        await service.tick()
        [moved] = await storage.game_actions(stuck)
        assert moved.auto
    finally:
        publisher.release.set()
        await service.close()


async def test_a_player_away_after_three_misses_and_back(
    storage: Storage, clock: FakeClock, publisher: RecordingPublisher
) -> None:
    """Alice misses three turns in a row: a computer plays for her (without waiting for
    the clock) until she touches her hand again. Bob plays his own turns."""
    service = GameService(storage, clock=clock, rng=random.Random(3), computer_delay=0)
    service.add_publisher(Platform.CONSOLE, publisher)
    game = await service.open_table(CHAT, ALICE)
    game = await service.join(game.id, None, ALICE, Team.A)
    game = await service.join(game.id, None, BOB, Team.B)
    for team in (Team.A, Team.B):
        game = await service.add_computer(game.id, None, ALICE.ref, team)
    game = (await service.start(game.id, None, ALICE.ref)).game

    async def bob_plays_until_alice() -> int | None:
        for _ in range(100):
            await service.settle()
            seat, version, move = await turn_user(service, game.id)
            if seat == 0:
                return version
            await service.play(game.id, version, BOB.ref, move)
        return None

    for miss in (1, 2, 3):
        version = await bob_plays_until_alice()
        assert version is not None
        clock.advance(game.settings.turn_timeout + 1)
        await service.tick()
        alice = (await service.game(game.id)).seats[0]
        assert alice is not None and alice.missed == miss and alice.away == (miss == 3)
    assert publisher.kinds().count("away") == 1
    # Away: the computer plays Alice's turns at once; only Bob's turn waits.
    await service.settle()
    seat, _, _ = await turn_user(service, game.id)
    assert seat == 1
    alice_moves = [a for a in await storage.game_actions(game.id) if a.seat == 0]
    assert all(a.auto for a in alice_moves)
    # Alice touches her hand again: she is back, and her turns wait for her again.
    assert await service.come_back(game.id, ALICE.ref)
    assert not await service.come_back(game.id, ALICE.ref)
    alice = (await service.game(game.id)).seats[0]
    assert alice is not None and not alice.away and alice.missed == 0
    assert publisher.kinds().count("back") == 1
    assert await bob_plays_until_alice() is not None
    await service.close()


async def test_timers_survive_a_restart(tmp_path: Path) -> None:
    clock = FakeClock()
    path = tmp_path / "k.sqlite3"
    async with await SqliteStorage.open(path) as storage:
        service = GameService(storage, clock=clock, rng=random.Random(5), computer_delay=0)
        game_id = await full_table(service)
        deadline = (await service.game(game_id)).turn_deadline
        await service.close()
    async with await SqliteStorage.open(path) as storage:
        fresh = GameService(storage, clock=clock, rng=random.Random(5), computer_delay=0)
        games = await fresh.restore()
        assert [g.id for g in games] == [game_id]
        assert games[0].turn_deadline == deadline
        clock.advance(1000)
        await fresh.tick()
        assert len(await storage.game_actions(game_id)) == 1
        await fresh.close()


async def test_ten_minutes_down_neither_moves_for_the_human_nor_counts_a_miss(
    storage: Storage, clock: FakeClock
) -> None:
    """Regression: after 10 minutes down the first tick moved for the human whose turn
    it was and counted a missed turn (the saved deadline is wall-clock time). The bot
    stops suddenly 20 s into a 60 s turn: after the restart the clock resumes with the
    40 s that were left."""
    service = GameService(
        storage, clock=clock, rng=random.Random(5), computer_delay=0, turn_timeout=60
    )
    game_id = await full_table(service)
    await service.restore()  # the running bot: restored, then its timers run
    clock.advance(20)
    await service.tick()  # the bot keeps the moment it was last alive
    seat, version, _ = await turn_user(service, game_id)
    # Killed here (no close: nothing more is saved); 10 minutes later it starts again.
    clock.advance(600)
    restarted = GameService(
        storage, clock=clock, rng=random.Random(5), computer_delay=0, turn_timeout=60
    )
    try:
        [game] = await restarted.restore()
        assert game.turn_deadline == clock.now() + 40
        await restarted.tick()
        game = await restarted.game(game_id)
        assert game.version == version and game.play.turn == seat
        human = game.seats[seat]
        assert human is not None and human.missed == 0 and not human.away
        assert await storage.game_actions(game_id) == []
        stored = await storage.load_game(game_id)  # also after a second restart
        assert stored is not None and stored.turn_deadline == clock.now() + 40
        clock.advance(39)
        await restarted.tick()
        assert (await restarted.game(game_id)).version == version  # 1 s is left
        clock.advance(2)
        await restarted.tick()
        [moved] = await storage.game_actions(game_id)
        assert moved.auto and moved.seat == seat
        human = (await restarted.game(game_id)).seats[seat]
        assert human is not None and human.missed == 1
    finally:
        await restarted.close()
        await service.close()


async def test_a_bot_stopped_cleanly_resumes_every_clock_with_the_time_it_had_left(
    storage: Storage, clock: FakeClock
) -> None:
    """Two games, two clocks; the bot stops (close) 50 s into one's turn and 10 s
    into the other's, and starts an hour later: 10 s and 50 s are left."""
    service = GameService(
        storage, clock=clock, rng=random.Random(5), computer_delay=0, turn_timeout=60
    )
    first = await full_table(service)
    clock.advance(40)
    second = await full_table(service, chat=ChatRef(Platform.CONSOLE, "chat-2"))
    await service.restore()
    clock.advance(10)
    await service.close()
    clock.advance(3600)
    restarted = GameService(
        storage, clock=clock, rng=random.Random(5), computer_delay=0, turn_timeout=60
    )
    try:
        games = {game.id: game for game in await restarted.restore()}
        assert games[first].turn_deadline == clock.now() + 10
        assert games[second].turn_deadline == clock.now() + 50
        await restarted.tick()
        assert await storage.game_actions(first) == []
        assert await storage.game_actions(second) == []
    finally:
        await restarted.close()


# --- Restart: the same result as an uninterrupted run ------------------------------------


async def scripted_run(storage_factory: object, cut: int | None, path: Path) -> dict[str, object]:
    """Play a 4-human series with safe moves; with ``cut``, drop everything after that
    many actions and go on with a fresh service on the same file."""
    rng = random.Random(11)
    storage = await SqliteStorage.open(path)
    service = GameService(storage, rng=rng, computer_delay=0)
    game_id = await full_table(service)
    done = 0
    while True:
        game = await service.game(game_id)
        if game.status is not GameStatus.PLAYING:
            break
        if cut is not None and done == cut:
            await service.close()
            await storage.close()
            del service, storage, game
            storage = await SqliteStorage.open(path)
            service = GameService(storage, rng=rng, computer_delay=0)
            await service.restore()
            cut = None
            continue
        seat, version, action = await turn_user(service, game_id)
        await service.play(game_id, version, PLAYERS[seat].ref, action)
        done += 1
    record = await service.record(game_id)
    await service.close()
    await storage.close()
    return record


async def test_restart_midway_gives_the_same_series(tmp_path: Path) -> None:
    straight = await scripted_run(None, None, tmp_path / "a.sqlite3")
    interrupted = await scripted_run(None, 57, tmp_path / "b.sqlite3")
    assert interrupted == straight
    assert replay(interrupted)["series"]["finished"] is True


async def test_memory_storage_is_a_storage() -> None:
    storage: Storage = MemoryStorage()
    service = GameService(storage, rng=random.Random(1), computer_delay=0)
    game_id = await full_table(service, humans=2)
    assert (await service.game(game_id)).status is GameStatus.PLAYING
    await service.close()


async def test_changes_are_published_in_order(
    service: GameService, publisher: RecordingPublisher
) -> None:
    game_id = await full_table(service, humans=1)
    await play_to_the_end(service, game_id, humans=1)
    versions = [version for gid, version, _ in publisher.changes if gid == game_id]
    assert versions == sorted(versions)
    assert publisher.changes[-1][2].kind is ChangeKind.FINISHED


async def test_a_corrupt_game_row_is_set_aside_and_the_service_starts(
    service: GameService, storage: Storage, clock: FakeClock, publisher: RecordingPublisher
) -> None:
    """Regression: one game whose snapshot no longer replays stopped ``restore`` (and so
    the bot and the console) from starting."""
    broken_id = await full_table(service)
    seat, version, action = await turn_user(service, broken_id)
    await service.play(broken_id, version, PLAYERS[seat].ref, action)
    other = await service.open_table(ChatRef(Platform.CONSOLE, "chat-2"), BOB)
    await service.close()
    await corrupt(storage, broken_id)

    restarted = GameService(storage, clock=clock, rng=random.Random(3), computer_delay=0)
    restarted.add_publisher(Platform.CONSOLE, publisher)
    try:
        assert [g.id for g in await restarted.restore()] == [other.id]
        with pytest.raises(ServiceError) as refused:  # its old buttons: a clear refusal
            await restarted.play(broken_id, version + 1, PLAYERS[0].ref, action)
        assert refused.value.code == ErrorCode.UNKNOWN_GAME
        fresh = await restarted.open_table(CHAT, ALICE)  # its chat plays again
        assert fresh.id not in (broken_id, other.id)
    finally:
        await restarted.close()


# --- Owed messages -------------------------------------------------------------------------


async def test_a_deals_result_is_owed_in_the_moves_save_until_a_publisher_sends_it(
    storage: Storage, clock: FakeClock
) -> None:
    first = RecordingPublisher()
    service = GameService(storage, clock=clock, rng=random.Random(7), computer_delay=0)
    service.add_publisher(Platform.CONSOLE, first)
    game_id = await full_table(service, humans=1)
    await service.settle()
    while not (await service.game(game_id)).play.series.deals[0].is_over:
        _, version, action = await turn_user(service, game_id)
        await service.play(game_id, version, ALICE.ref, action)
        await service.settle()
    game = await service.game(game_id)
    [(scored_version, change)] = [(v, c) for _, v, c in first.changes if c.owed]
    expected = Owed(game_id, scored_version, 0, OwedKind.DEAL_RESULT, 0)
    assert change.owed == (expected,) and change.kind is ChangeKind.PLAYED
    # Saved with the move: the action that scored the deal is logged at that version.
    logged = await storage.game_actions(game_id)
    assert scored_version in [a.version for a in logged]
    assert await storage.owed_messages() == [expected]
    await service.close()

    # A restart before it was sent: the restored game shows it again, then its screens.
    again = RecordingPublisher()
    restarted = GameService(storage, clock=clock, rng=random.Random(8), computer_delay=0)
    restarted.add_publisher(Platform.CONSOLE, again)
    await restarted.restore()
    [(_, version, restored)] = [(g, v, c) for g, v, c in again.changes if g == game_id][:1]
    assert restored.kind is ChangeKind.RESTORED and restored.owed == (expected,)
    assert version == game.version
    await restarted.message_sent(expected)
    await restarted.close()
    assert await storage.owed_messages() == []

    third = RecordingPublisher()
    once_more = GameService(storage, clock=clock, rng=random.Random(9), computer_delay=0)
    once_more.add_publisher(Platform.CONSOLE, third)
    await once_more.restore()
    assert [c.owed for _, _, c in third.changes if c.kind is ChangeKind.RESTORED] == [()]
    await once_more.close()


async def test_a_finished_game_that_still_owes_its_result_is_shown_after_a_restart(
    storage: Storage, clock: FakeClock
) -> None:
    # Four computers play the whole series: baseline ones (the level is not the point).
    service = GameService(
        storage, clock=clock, rng=random.Random(3), computer_delay=0, computer_level="normal"
    )
    service.add_publisher(Platform.CONSOLE, RecordingPublisher())
    game_id = await full_table(service, humans=0)
    await service.settle()
    game = await service.game(game_id)
    assert game.status is GameStatus.FINISHED
    owed = await storage.owed_messages()
    kinds = [item.kind for item in owed]
    deals = [OwedKind.DEAL_RESULT] * len(game.play.series.deals)
    # The series' result, then its picture (issue 25); computers earn no achievement.
    assert kinds == [*deals, OwedKind.SERIES_RESULT, OwedKind.RESULT_PICTURE]
    assert [item.number for item in owed[: len(deals)]] == [
        deal.number for deal in game.play.series.deals
    ]
    await service.close()

    publisher = RecordingPublisher()
    restarted = GameService(storage, clock=clock, rng=random.Random(4), computer_delay=0)
    restarted.add_publisher(Platform.CONSOLE, publisher)
    assert await restarted.restore() == []  # nothing to play on
    [(shown, _, change)] = publisher.changes
    assert shown == game_id and change.kind is ChangeKind.RESTORED and list(change.owed) == owed
    await restarted.close()


async def _owing_a_deals_result(storage: Storage, clock: FakeClock) -> tuple[int, Owed]:
    """Four humans play until deal 0 is scored and the move that ends deal 1 is next;
    the result of deal 0 was never sent (its publisher confirms nothing)."""
    service = GameService(storage, clock=clock, rng=random.Random(7), computer_delay=0)
    service.add_publisher(Platform.CONSOLE, RecordingPublisher())
    game_id = await full_table(service)
    while True:
        game = await service.game(game_id)
        deal = game.play.series.current
        assert deal is not None
        seat, version, action = await turn_user(service, game_id)
        if deal.number == 1:
            ahead = deal.copy()
            ahead.apply(action)
            if ahead.is_over:
                break
        await service.play(game_id, version, PLAYERS[seat].ref, action)
    [owed] = await storage.owed_messages()
    await service.close()
    return game_id, owed


def _owed_shown(publisher: RecordingPublisher) -> list[Owed]:
    return [owed for _, _, change in publisher.changes for owed in change.owed]


async def test_a_publisher_added_after_restore_shows_the_saved_games_and_what_they_owe(
    storage: Storage, clock: FakeClock
) -> None:
    """Regression (issue 23, point 9): ``python -m bot`` restores before the platforms'
    bots add their publishers, and the restored games were shown to nobody. Each
    publisher added after the restore (a bot started late, or again after a failure)
    shows them, with the messages not confirmed sent; one whose bot stopped shows
    nothing more."""
    game_id, owed = await _owing_a_deals_result(storage, clock)
    restarted = GameService(storage, clock=clock, rng=random.Random(8), computer_delay=0)
    try:
        assert [g.id for g in await restarted.restore()] == [game_id]
        first = RecordingPublisher()
        restarted.add_publisher(Platform.CONSOLE, first)
        await restarted.settle()
        version = (await restarted.game(game_id)).version
        assert [(g, v, c.kind, c.owed) for g, v, c in first.changes] == [
            (game_id, version, ChangeKind.RESTORED, (owed,))
        ]
        # The platform's bot fails and starts again: the new publisher shows it all
        # again (what the first had queued may be lost), the first gets nothing more.
        again = RecordingPublisher()
        restarted.add_publisher(Platform.CONSOLE, again)
        await restarted.settle()
        assert [(c.kind, c.owed) for _, _, c in again.changes] == [(ChangeKind.RESTORED, (owed,))]
        assert len(first.changes) == 1
        # Its bot stops: a move meanwhile is only saved (a publisher no longer the
        # platform's is not removed by its bot).
        restarted.remove_publisher(Platform.CONSOLE, first)
        restarted.remove_publisher(Platform.CONSOLE, again)
        seat, version, action = await turn_user(restarted, game_id)
        await restarted.play(game_id, version, PLAYERS[seat].ref, action)  # ends deal 1
        assert len(again.changes) == 1 and len(first.changes) == 1
        await restarted.message_sent(owed)  # sent: not sent again by the next one
        third = RecordingPublisher()
        restarted.add_publisher(Platform.CONSOLE, third)
        await restarted.settle()
        second = Owed(game_id, version + 1, 0, OwedKind.DEAL_RESULT, 1)
        assert [(v, c.kind, c.owed) for _, v, c in third.changes] == [
            (version + 1, ChangeKind.RESTORED, (second,))
        ]
    finally:
        await restarted.close()


async def test_a_change_before_the_redraw_comes_after_it_and_nothing_owed_goes_twice(
    storage: Storage, clock: FakeClock
) -> None:
    """A move made while a new publisher's redraw is still to come: the game's saved
    state and the result it owed before are shown first, then the move, whose own
    result (already in the storage when the redraw reads what is owed) goes once."""
    game_id, owed = await _owing_a_deals_result(storage, clock)
    restarted = GameService(storage, clock=clock, rng=random.Random(8), computer_delay=0)
    publisher = RecordingPublisher()
    try:
        await restarted.restore()
        restarted.add_publisher(Platform.CONSOLE, publisher)
        seat, version, action = await turn_user(restarted, game_id)
        await restarted.play(game_id, version, PLAYERS[seat].ref, action)  # ends deal 1
        await restarted.settle()
        second = Owed(game_id, version + 1, 0, OwedKind.DEAL_RESULT, 1)
        assert await storage.owed_messages() == [owed, second]
        assert [(c.kind, c.owed) for _, _, c in publisher.changes] == [
            (ChangeKind.RESTORED, (owed,)),
            (ChangeKind.PLAYED, (second,)),
            (ChangeKind.DEALT, ()),
        ]
        assert _owed_shown(publisher) == [owed, second]
    finally:
        await restarted.close()


class _QuickThinker:
    """A computer player that does not search: it answers in place, on the loop."""

    searches = False

    def __init__(self) -> None:
        self.inner = make_player("normal")
        self.threads: set[int] = set()

    def choose(self, view: SeatView, rng: random.Random) -> Action | None:
        self.threads.add(threading.get_ident())
        return self.inner.choose(view, rng)


async def test_a_computer_that_does_not_search_chooses_on_the_loop(
    storage: Storage, clock: FakeClock
) -> None:
    thinkers: list[_QuickThinker] = []

    def players(level: str) -> _QuickThinker:
        thinkers.append(_QuickThinker())
        return thinkers[-1]

    service = GameService(
        storage, clock=clock, rng=random.Random(7), computer_delay=0, players=players
    )
    try:
        game_id = await full_table(service, humans=0)
        await service.settle()
        assert (await service.game(game_id)).version > 4
    finally:
        await service.close()
    assert {ident for t in thinkers for ident in t.threads} == {threading.get_ident()}
