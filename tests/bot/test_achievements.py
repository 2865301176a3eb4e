"""Achievements (issue 25): each one from hand-built events and results, kept once per
player, announced once after the result, listed in /stats."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from bot.achievements import (
    CATALOGUE,
    GAMES,
    Awards,
    Earned,
    Moment,
    Progress,
    career,
    decide,
    generic_moments,
)
from bot.i18n import Translator
from bot.interactions import Interactions
from bot.models import ChatRef, Game, GameStatus, Platform, Seat, SeatKind, TableSettings, UserRef
from bot.ports import ChangeKind, OwedKind, Storage
from bot.presenters.classic import moments as classic_moments
from bot.presenters.yard import moments as yard_moments
from bot.service import GameService
from core.classic.events import DealEnd, DealScored, KochergaCaught
from core.classic.options import Praise
from core.classic.scoring import score_dealing
from core.ruleset import DealOutcome, GameOutcome
from core.seats import Team
from core.yard import events as yard
from tests.bot.conftest import ALICE, PLAYERS, RecordingPublisher
from tests.bot.test_service import full_table, play_to_the_end

TG = Platform.TELEGRAM
USERS = [UserRef(TG, str(n)) for n in (11, 12, 13, 14)]


def table(
    *, computers: tuple[int, ...] = (), away: tuple[int, ...] = (), rules: str = "yard"
) -> Game:
    seats: list[Seat | None] = []
    for seat, user in enumerate(USERS):
        if seat in computers:
            seats.append(Seat(SeatKind.COMPUTER, f"Bot {seat}", level="easy"))
        else:
            seats.append(Seat(SeatKind.HUMAN, f"P{seat}", user, away=seat in away))
    return Game(
        5,
        ChatRef(TG, "-100"),
        USERS[0],
        status=GameStatus.FINISHED,
        settings=TableSettings(rule_set=rules),
        seats=seats,
    )


def earned(awards: Awards) -> set[tuple[str, str]]:
    return {(e.user.id, e.achievement) for e in awards.earned}


def eggs_deal() -> DealOutcome:
    return DealOutcome(2, None, (60, 60), (3, 3), (0, 0), True)


def lost_by(team: Team, title: str = "goats", score: tuple[int, int] = (12, 4)) -> GameOutcome:
    return GameOutcome(team, title, score, 6, 0)


# --- The catalogue in words -------------------------------------------------------------


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_every_achievement_has_a_name_and_a_phrase(locale: str) -> None:
    """(Every message formats without errors: tests/locales.)"""
    tr = Translator.from_dir()
    for achievement in CATALOGUE:
        for message in (f"achievement-{achievement.id}", f"achievement-{achievement.id}-phrase"):
            text = tr.t(locale, message)
            assert text and text != message, message


# --- Deal moments: humans at any table, never a computer ---------------------------------


def test_eggs_in_a_deal_go_to_every_human_and_no_computer_nor_away_seat() -> None:
    game = table(computers=(1,), away=(2,))
    awards = decide(game, generic_moments(game, [eggs_deal()], None), None, {}, version=9, at=1.0)
    assert earned(awards) == {("11", "eggs"), ("14", "eggs")}
    assert {e.version for e in awards.earned} == {9} and awards.progress == ()


def test_a_yard_molodka_that_took_a_trick_worth_30_or_more() -> None:
    def scored(*tricks: tuple[int, int]) -> yard.DealScored:
        result = yard.DealResult((70, 50), (6, 3), (0, 2), False, Team.A, 0, tricks)
        return yard.DealScored(0, result)

    assert yard_moments([scored((2, 30))]) == [Moment("molodka-30", (2,))]
    assert yard_moments([scored((2, 29))]) == []
    assert yard_moments([scored((1, 45), (3, 10))]) == [Moment("molodka-30", (1,))]
    game = table(computers=(1,))
    awards = decide(game, yard_moments([scored((1, 45))]), None, {}, version=3, at=1.0)
    assert awards.earned == ()  # the computer's molodka earns nothing


def test_a_dry_series_is_12_to_0() -> None:
    dry = yard.SeriesFinished(yard.SeriesResult(Team.A, yard.Title.GOATS, (12, 0), 3, 0))
    close = yard.SeriesFinished(yard.SeriesResult(Team.A, yard.Title.GOATS, (12, 2), 4, 0))
    assert yard_moments([dry]) == [Moment("dry-series", (1, 3))]
    assert yard_moments([close]) == []


class _Table:
    """A classic game's stand-in: the table as a finished dealing left it."""

    def __init__(self, view: Any) -> None:
        self.view = view

    def spectator_view(self) -> Any:
        return self.view


def classic_table(declarer: int | None, praise: Praise | None) -> Game:
    game = table(rules="classic")
    play = TableSettings(rule_set="classic").new_game()
    play.deal(random.Random(1))
    view = replace(play.spectator_view(), declarer=declarer, praise=praise)
    game.play = _Table(view)  # type: ignore[assignment]
    return game


def classic_scored(points: tuple[int, int], tricks: tuple[int, int]) -> DealScored:
    return DealScored(1, 0, score_dealing(DealEnd.PLAYED, points, tricks, None, 0, 0))


def test_classic_lucy_is_120_to_0_for_the_winners() -> None:
    game = classic_table(None, None)
    assert classic_moments(game, [classic_scored((0, 120), (0, 8))]) == [Moment("lucy", (1, 3))]
    assert classic_moments(game, [classic_scored((10, 110), (1, 7))]) == []


def test_classic_kocherga_catching_the_queen_of_clubs_is_the_catchers() -> None:
    game = classic_table(None, None)
    caught = score_dealing(DealEnd.KOCHERGA, (20, 10), (1, 2), Team.B, 0, 0)
    events = [KochergaCaught(3, Team.B), DealScored(2, 0, caught)]
    assert classic_moments(game, events) == [Moment("kocherga", (3,))]


@pytest.mark.parametrize("kind", [Praise.SIMPLE, Praise.PANTS, Praise.MIRROR])
def test_a_praise_won_is_the_declarers_by_its_kind(kind: Praise) -> None:
    won = classic_moments(classic_table(2, kind), [classic_scored((95, 25), (6, 2))])
    assert won == [Moment(f"praise-{kind.value}", (2,))]
    # His team lost the deal: no achievement.
    assert classic_moments(classic_table(1, kind), [classic_scored((95, 25), (6, 2))]) == []
    # No praise in the deal: none either.
    assert classic_moments(classic_table(None, None), [classic_scored((95, 25), (6, 2))]) == []


# --- Game and career achievements: rated games only ---------------------------------------


def test_the_goats_with_eggs_only_in_a_rated_game() -> None:
    finished = lost_by(Team.B, "goats_with_eggs")
    rated = table()
    awards = decide(rated, generic_moments(rated, [], finished), finished, {}, version=4, at=1.0)
    assert {a for _, a in earned(awards)} == {"goats-with-eggs", "first-rated-game"}
    assert {u for u, a in earned(awards) if a == "goats-with-eggs"} == {"12", "14"}
    with_a_computer = table(computers=(0,))
    moments = generic_moments(with_a_computer, [], finished)
    assert decide(with_a_computer, moments, finished, {}, version=4, at=1.0).earned == ()


def test_three_wins_in_a_row_with_the_same_partner() -> None:
    progress = Progress()
    reached: list[list[str]] = []
    for partner, won in [("7", True), ("7", True), ("8", True), ("8", True), ("8", False)]:
        progress, now = career(progress, partner, won)
        reached.append([a for a in now if a == "three-in-a-row"])
    assert reached == [[], [], [], [], []]  # another partner starts again; a loss ends it
    for _ in range(3):
        progress, now = career(progress, "9", True)
    assert "three-in-a-row" in now and progress.streak == 3


def test_first_rated_game_and_a_hundred() -> None:
    game = table()
    finished = lost_by(Team.A)
    first = decide(game, [], finished, {}, version=1, at=1.0)
    assert {a for _, a in earned(first)} == {"first-rated-game"}
    assert dict(first.progress)[USERS[0]] == Progress(1, "13", 0)
    assert dict(first.progress)[USERS[1]] == Progress(1, "14", 1)
    veteran = {USERS[0]: Progress(GAMES - 1, "13", 0, frozenset({"first-rated-game"}))}
    hundredth = decide(game, [], finished, veteran, version=2, at=2.0)
    assert ("11", "games-100") in earned(hundredth)
    assert ("11", "first-rated-game") not in earned(hundredth)  # he has it already


def test_a_game_with_a_computer_changes_no_progress() -> None:
    game = table(computers=(3,))
    assert decide(game, [], lost_by(Team.A), {}, version=1, at=1.0) == Awards()


# --- Kept once: the storages ---------------------------------------------------------------


async def test_an_achievement_is_kept_once_per_player(storage: Storage) -> None:
    game = await storage.create_game(table())
    again = await storage.create_game(table())
    first = Awards(
        (Earned(USERS[0], "eggs", game.id, 3, "yard", 10.0),),
        ((USERS[0], Progress(1, "13", 1)),),
    )
    await storage.save_game(game, awards=first)
    await storage.save_game(game, awards=first)  # the same result saved again
    later = Awards((Earned(USERS[0], "eggs", again.id, 8, "yard", 20.0),))
    await storage.save_game(again, awards=later)  # earned again elsewhere
    assert await storage.achievements_of(USERS[0]) == list(first.earned)
    assert await storage.achievements_earned(game.id, 3) == list(first.earned)
    assert await storage.achievements_earned(again.id, 8) == []  # nothing to announce
    progress = await storage.achievement_progress(USERS)
    assert progress == {USERS[0]: Progress(1, "13", 1)}
    assert progress[USERS[0]].earned == frozenset({"eggs"})
    await storage.save_game(game, awards=Awards(progress=((USERS[0], Progress(2, "13", 2)),)))
    assert (await storage.achievement_progress([USERS[0]]))[USERS[0]] == Progress(2, "13", 2)


async def test_the_awards_of_a_stale_save_are_not_kept(storage: Storage) -> None:
    from bot.rows import StaleGame

    game = await storage.create_game(table())
    game.version = 5
    await storage.save_game(game)
    awards = Awards((Earned(USERS[1], "lucy", game.id, 4, "classic", 1.0),))
    with pytest.raises(StaleGame):
        await storage.save_game(game, base=3, awards=awards)
    assert await storage.achievements_of(USERS[1]) == []


# --- Through the service: saved with the result, announced once ------------------------------


async def test_four_humans_finish_a_series_and_each_achievement_is_announced_once(
    service: GameService, storage: Storage, publisher: RecordingPublisher
) -> None:
    game_id = await full_table(service, humans=4)
    await play_to_the_end(service, game_id, humans=4)
    game = await service.game(game_id)
    owed = [
        (version, item)
        for _, version, change in publisher.changes
        for item in change.owed
        if item.kind is OwedKind.ACHIEVEMENTS
    ]
    finished = [v for _, v, c in publisher.changes if c.kind is ChangeKind.FINISHED]
    assert finished == [game.version]
    last = [item for version, item in owed if version == game.version]
    assert len(last) == 1  # one announcement of the end, after the results
    (kinds,) = [
        [item.kind for item in change.owed]
        for _, _, change in publisher.changes
        if change.kind is ChangeKind.FINISHED
    ]
    assert kinds[-1] is OwedKind.ACHIEVEMENTS and OwedKind.SERIES_RESULT in kinds
    for player in PLAYERS:
        mine = {e.achievement for e in await storage.achievements_of(player.ref)}
        assert "first-rated-game" in mine
    ui = Interactions(service, Translator.from_dir())
    change = next(c for _, _, c in publisher.changes if c.kind is ChangeKind.FINISHED)
    outputs = await ui.owed_outputs(game, change)
    texts = [out.screen.text for out in outputs if out.owed is last[0]]
    assert len(texts) == 1 and "Alice, Bob, Carol, Dan" in texts[0]
    assert "Первая партия в зачёт" in texts[0]
    # The same end saved again (a replay) keeps nothing new and announces the same.
    stored = await storage.achievements_earned(game_id, game.version)
    await storage.save_game(game, awards=Awards(tuple(stored)))
    assert await storage.achievements_earned(game_id, game.version) == stored
    # /stats lists them.
    stats = await ui.stats(game.chat, ALICE.ref)
    assert stats.screen is not None and "🎖 Первая партия в зачёт" in stats.screen.text


async def test_one_human_with_computers_gets_no_game_achievement(
    service: GameService, storage: Storage
) -> None:
    game_id = await full_table(service, humans=1)
    await play_to_the_end(service, game_id, humans=1)
    mine = {e.achievement for e in await storage.achievements_of(ALICE.ref)}
    assert not mine & {"first-rated-game", "goats-with-eggs", "dry-series", "games-100"}
    assert await storage.achievement_progress([ALICE.ref]) in ({}, {ALICE.ref: Progress()})
