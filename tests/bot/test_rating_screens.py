"""Ratings on the screens (issue 25): the result of a game of four people shows each
player's new rating and change, a game with a computer says it is unrated; ``/top``
ranks by rating once a player has five rated games (per chat, every chat, the
season); ``/stats`` shows the rating, its best, the latest changes, the partner."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest

from bot import presenters
from bot.i18n import Translator
from bot.interactions import Interactions
from bot.memory import MemoryStorage
from bot.models import Game, GameStatus, User
from bot.ports import ChangeKind, OwedKind
from bot.presenters.rating import grouped, signed
from bot.ratings import MIN_GAMES, season_of
from bot.service import GameService
from core.seats import Team
from tests.bot.conftest import ALICE, BOB, CAROL, CHAT, DAN, FakeClock, RecordingPublisher

FOUR = (ALICE, BOB, CAROL, DAN)
#: 2025-12-10 UTC: the season is December's.
NOW = 1_765_324_800.0


@pytest.fixture
async def ui() -> AsyncIterator[tuple[Interactions, RecordingPublisher]]:
    service = GameService(
        MemoryStorage(),
        clock=FakeClock(NOW),
        rng=random.Random(5),
        computer_delay=0,
        computer_level="easy",
    )
    publisher = RecordingPublisher()
    service.add_publisher(CHAT.platform, publisher)
    try:
        yield Interactions(service, Translator.from_dir()), publisher
    finally:
        await service.close()


async def play_four(ui: Interactions, rules: str = "yard", computer: bool = False) -> Game:
    """Alice, Bob, Carol and Dan (or Alice, Bob, Carol and a computer) play a whole
    game of ``rules`` with safe moves."""
    service = ui.service
    game = await service.open_table(CHAT, ALICE, rule_set=rules)
    seated: tuple[User, ...] = FOUR[:3] if computer else FOUR
    for user, team in zip(seated, (Team.A, Team.B, Team.A, Team.B), strict=False):
        game = await service.join(game.id, None, user, team)
    if computer:
        game = await service.add_computer(game.id, None, ALICE.ref, Team.B)
    await service.start(game.id, None, ALICE.ref)
    while True:
        await service.settle()
        game = await service.game(game.id)
        if game.status is not GameStatus.PLAYING:
            break
        seat = game.play.turn
        assert seat is not None
        player = game.seats[seat]
        if player is not None and not player.plays_itself and player.user is not None:
            await service.play(game.id, game.version, player.user, game.play.safe_action(seat))
    assert game.status is GameStatus.FINISHED
    return game


async def result_text(ui: Interactions, publisher: RecordingPublisher, game: Game) -> str:
    """The series' result message as the publisher would send it."""
    finished = [
        c for gid, _, c in publisher.changes if gid == game.id and c.kind is ChangeKind.FINISHED
    ]
    assert len(finished) == 1
    outputs = await ui.owed_outputs(game, finished[0])
    results = [
        out.screen
        for out in outputs
        if out.owed is not None and out.owed.kind is OwedKind.SERIES_RESULT
    ]
    assert len(results) == 1 and isinstance(results[0], presenters.Screen)
    return results[0].text


@pytest.mark.parametrize("rules", ["yard", "classic"])
async def test_the_result_of_four_people_shows_each_players_change(
    ui: tuple[Interactions, RecordingPublisher], rules: str
) -> None:
    interactions, publisher = ui
    tr = interactions.tr
    game = await play_four(interactions, rules)
    changes = await interactions.service.game_ratings(game.id)
    assert len(changes) == 4 and {c.delta for c in changes} == {97, -60}
    text = await result_text(interactions, publisher, game)
    assert tr.t("ru", "rating-changes-title") in text
    for change, user in zip(changes, FOUR, strict=True):
        line = tr.t(
            "ru",
            "rating-change",
            name=user.name,
            rating=grouped(change.after, "ru"),
            delta=signed(change.delta),
        )
        assert line in text
    assert "Alice 1\xa0097 (+97)" in text or "Alice 940 (−60)" in text
    assert tr.t("ru", "rating-unrated") not in text


async def test_a_game_with_a_computer_says_it_is_unrated(
    ui: tuple[Interactions, RecordingPublisher],
) -> None:
    interactions, publisher = ui
    game = await play_four(interactions, computer=True)
    assert await interactions.service.game_ratings(game.id) == ()
    text = await result_text(interactions, publisher, game)
    assert interactions.tr.t("ru", "rating-unrated") in text
    assert await interactions.service.player_ratings(ALICE.ref) == []


async def test_top_and_stats_show_the_ratings_after_five_rated_games(
    ui: tuple[Interactions, RecordingPublisher],
) -> None:
    interactions, _ = ui
    tr = interactions.tr
    empty = tr.t("ru", "top-rating-empty", games=MIN_GAMES)
    for n in range(MIN_GAMES):
        top = await interactions.top_command(CHAT, None)
        assert top.screen is not None and empty in top.screen.text, n
        await play_four(interactions)
    for words in (None, "all", "yard", "season", "сезон yard"):
        top = await interactions.top_command(CHAT, words)
        assert top.screen is not None
        text = top.screen.text
        assert empty not in text, words
        assert all(user.name in text for user in FOUR), words
        assert f"· {MIN_GAMES} игр ·" in text, words
    season = await interactions.top_command(CHAT, "season")
    assert season.screen is not None
    assert season.screen.text.startswith(tr.t("ru", "top-title-season", season=season_of(NOW)))
    # Ranked by rating: each row's rating is no higher than the one above.
    board, rows = await interactions.service.rating_board(CHAT)
    assert [row.rating for row in rows] == sorted((row.rating for row in rows), reverse=True)
    assert board.season is None and len(rows) == 4

    stats = await interactions.stats(CHAT, ALICE.ref)
    assert stats.screen is not None
    text = stats.screen.text
    mine = {r.rule_set: r for r in await interactions.service.player_ratings(ALICE.ref)}
    yard = mine["yard"]
    assert yard.games == MIN_GAMES and len(yard.last) == MIN_GAMES
    assert grouped(yard.rating, "ru") in text and grouped(yard.best, "ru") in text
    changes = ", ".join(signed(delta) for delta in yard.last)
    assert tr.t("ru", "stats-rating-last", changes=changes) in text
    assert (
        tr.t(
            "ru",
            "stats-rating-overall",
            rating=grouped(mine["*"].rating, "ru"),
            best=grouped(mine["*"].best, "ru"),
            games=MIN_GAMES,
        )
        in text
    )
    if yard.partner is not None:
        assert yard.partner.user == CAROL.ref  # Alice's partner at seat 2
        assert "Лучший напарник: Carol" in text


async def test_top_with_an_unknown_word_names_season_in_its_usage(
    ui: tuple[Interactions, RecordingPublisher],
) -> None:
    interactions, _ = ui
    reply = await interactions.top_command(CHAT, "poker")
    assert reply.screen is not None
    args = presenters.command_args(CHAT.platform, interactions.tr, "ru")
    assert reply.screen.text == interactions.tr.t("ru", "top-usage", word="poker", **args)
    assert "season" in reply.screen.text


async def test_top_of_a_past_month_shows_that_months_season(
    ui: tuple[Interactions, RecordingPublisher],
) -> None:
    interactions, _ = ui
    tr = interactions.tr
    clock = interactions.service.clock
    assert isinstance(clock, FakeClock)
    clock.value = NOW - 20 * 86400  # 2025-11-20: November's season
    for _ in range(MIN_GAMES):
        await play_four(interactions)
    clock.value = NOW  # December: its season has no rated game yet
    empty = tr.t("ru", "top-rating-empty", games=MIN_GAMES)
    november = tr.t("ru", "top-title-season", season="2025-11")
    for words in ("season 2025-11", "2025-11", "сезон 2025-11 yard", "last", "season прошлый"):
        top = await interactions.top_command(CHAT, words)
        assert top.screen is not None
        text = top.screen.text
        assert text.startswith(november), words
        assert all(user.name in text for user in FOUR) and empty not in text, words
    current = await interactions.top_command(CHAT, "season")
    assert current.screen is not None
    assert current.screen.text.startswith(tr.t("ru", "top-title-season", season="2025-12"))
    assert empty in current.screen.text
    # A month with no rated game: the empty board, as for any season.
    october = await interactions.top_command(CHAT, "season 2025-10")
    assert october.screen is not None
    assert october.screen.text == "\n".join(
        [tr.t("ru", "top-title-season", season="2025-10"), empty]
    )
    # "all" with a month: the month's season is a chat's, as with "season all".
    both = await interactions.top_command(CHAT, "all 2025-11")
    assert both.screen is not None and both.screen.text.startswith(november)


@pytest.mark.parametrize("locale", ["ru", "en"])
@pytest.mark.parametrize("words", ["season 11.2025", "season 2025-13", "2025-1", "season 2025/11"])
async def test_top_of_a_malformed_month_says_how_to_write_one(
    ui: tuple[Interactions, RecordingPublisher], words: str, locale: str
) -> None:
    interactions, _ = ui
    await interactions.service.set_chat_locale(CHAT, locale)
    reply = await interactions.top_command(CHAT, words)
    args = presenters.command_args(CHAT.platform, interactions.tr, locale)
    line = interactions.tr.t(locale, "top-month-malformed", example="2025-11", **args)
    assert reply.screen is not None and reply.screen.text == line
    assert not reply.screen.rows and reply.alert is None
    assert "/top season 2025-11" in line


@pytest.mark.parametrize("locale", ["ru", "en"])
async def test_top_of_a_month_not_begun_says_so_and_reads_no_board(
    ui: tuple[Interactions, RecordingPublisher], locale: str
) -> None:
    interactions, _ = ui
    await interactions.service.set_chat_locale(CHAT, locale)
    asked: list[object] = []
    read = interactions.service.rating_board

    async def spy(*args: object, **kwargs: object) -> object:
        asked.append((args, kwargs))
        return await read(*args, **kwargs)  # type: ignore[arg-type]

    interactions.service.rating_board = spy  # type: ignore[method-assign]
    reply = await interactions.top_command(CHAT, "season 2026-01")
    line = interactions.tr.t(locale, "top-month-future", asked="2026-01", current="2025-12")
    assert reply.screen is not None and reply.screen.text == line
    assert asked == []
    assert "2026-01" in line and "2025-12" in line


async def test_top_with_two_months_gets_the_usage(
    ui: tuple[Interactions, RecordingPublisher],
) -> None:
    interactions, _ = ui
    reply = await interactions.top_command(CHAT, "season 2025-10 2025-11")
    args = presenters.command_args(CHAT.platform, interactions.tr, "ru")
    assert reply.screen is not None
    assert reply.screen.text == interactions.tr.t("ru", "top-usage", word="2025-11", **args)
