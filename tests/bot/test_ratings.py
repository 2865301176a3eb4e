"""The rating maths (:mod:`bot.ratings`): OpenSkill's own numbers, which games are
rated, the order of games, the shown number."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from bot import ratings
from bot.models import ChatRef, Game, GameStatus, Platform, Seat, SeatKind, UserRef
from bot.ratings import EVERY, RatedGame, Skill

TG = Platform.TELEGRAM
USERS = [UserRef(TG, str(n)) for n in range(1, 9)]
CHAT = ChatRef(TG, "-100")
AT = 1_764_547_200.0  # 2025-12-01 00:00 UTC


def rated(
    game_id: int, players: tuple[str, str, str, str], loser: int, at: float = AT
) -> RatedGame:
    return RatedGame(game_id, "telegram", "-100", "yard", at, players, loser)


def game_of(seats: list[Seat | None], status: GameStatus = GameStatus.FINISHED) -> Game:
    return Game(1, CHAT, USERS[0], status, seats=seats)


def human(n: int, **changes: object) -> Seat:
    return Seat(SeatKind.HUMAN, f"P{n}", USERS[n]).with_(**changes)


def test_a_first_game_moves_each_seat_as_openskill_does() -> None:
    model = PlackettLuce()
    a, b, c, d = (model.rating() for _ in range(4))
    [[wa, wc], [lb, ld]] = model.rate([[a, c], [b, d]], ranks=[1.0, 2.0])
    after = ratings.rate((Skill(), Skill(), Skill(), Skill()), loser=1)
    assert [s.mu for s in after] == pytest.approx([wa.mu, lb.mu, wc.mu, ld.mu])
    assert [s.sigma for s in after] == pytest.approx([wa.sigma, lb.sigma, wc.sigma, ld.sigma])
    # The package's numbers for this case, pinned: a new model must not move them.
    assert after[0].mu == pytest.approx(26.9643, abs=1e-4)
    assert after[1].mu == pytest.approx(23.0357, abs=1e-4)
    assert after[0].sigma == pytest.approx(8.17796, abs=1e-5)
    assert [s.rating for s in after] == [1097, 940, 1097, 940]
    assert [(s.games, s.wins, s.best) for s in after] == [(1, 1, 1097), (1, 0, 940)] * 2


skills = st.builds(
    Skill,
    mu=st.floats(-50.0, 100.0),
    sigma=st.floats(0.001, 20.0),
    games=st.integers(0, 1000),
    wins=st.just(0),
    best=st.integers(0, 3000),
)


@given(st.tuples(skills, skills, skills, skills), st.integers(0, 1))
def test_the_update_is_openskills_to_the_last_bit(
    before: tuple[Skill, Skill, Skill, Skill], loser: int
) -> None:
    """bot.ratings.rate writes OpenSkill's Plackett-Luce update out for two teams of
    two: any skills, either result, the very same floats as the package."""
    model = PlackettLuce()
    theirs = [model.rating(mu=skill.mu, sigma=skill.sigma) for skill in before]
    teams = [[theirs[0], theirs[2]], [theirs[1], theirs[3]]]
    (a0, a2), (b1, b3) = model.rate(teams, ranks=[2.0, 1.0] if loser == 0 else [1.0, 2.0])
    after = ratings.rate(before, loser)
    assert [(s.mu, s.sigma) for s in after] == [(r.mu, r.sigma) for r in (a0, b1, a2, b3)]


@pytest.mark.parametrize("seed", range(5))
def test_a_history_rates_each_game_as_openskill_rates_it(seed: int) -> None:
    rng = random.Random(seed)
    model = PlackettLuce()
    theirs = {user.id: model.rating() for user in USERS}
    book: dict[ratings.Key, Skill] = {}
    for game_id in range(30):
        players = tuple(u.id for u in rng.sample(USERS, 4))
        loser = rng.randrange(2)
        ratings.apply(rated(game_id, players, loser), book)  # type: ignore[arg-type]
        teams = [[theirs[players[0]], theirs[players[2]]], [theirs[players[1]], theirs[players[3]]]]
        new = model.rate(teams, ranks=[2.0, 1.0] if loser == 0 else [1.0, 2.0])
        for team, seats in zip(new, ((0, 2), (1, 3)), strict=True):
            for rating, seat in zip(team, seats, strict=True):
                theirs[players[seat]] = rating
    for user, rating in theirs.items():
        mine = book.get((None, "yard", user))
        if mine is None:
            continue
        assert (mine.mu, mine.sigma) == pytest.approx((rating.mu, rating.sigma))
        assert mine.rating == round(1000 + 40 * rating.ordinal())


def test_the_order_of_games_matters() -> None:
    one = rated(1, ("1", "2", "3", "4"), loser=1)
    two = rated(2, ("1", "2", "3", "4"), loser=0)
    forward, _ = ratings.replay([one, two])
    backward, _ = ratings.replay([two, one])
    key = (None, "yard", "1")
    assert forward[key].rating != backward[key].rating
    # Lost last: a lower rating than having won last.
    assert forward[key].rating < backward[key].rating


def test_one_game_updates_the_rule_set_every_rule_set_and_the_season() -> None:
    book: dict[ratings.Key, Skill] = {}
    applied = ratings.apply(rated(7, ("1", "2", "3", "4"), loser=0), book)
    season = ("-100", "2025-12")
    assert set(book) == {
        (scope, rule_set, user)
        for scope in (None, season)
        for rule_set in ("yard", EVERY)
        for user in "1234"
    }
    assert [(c.user_id, c.seat, c.won) for c in applied.changes] == [
        ("1", 0, False),
        ("2", 1, True),
        ("3", 2, False),
        ("4", 3, True),
    ]
    assert [c.delta for c in applied.changes] == [-60, 97, -60, 97]


def test_a_season_is_the_results_calendar_month_in_utc() -> None:
    assert rated(1, ("1", "2", "3", "4"), 0, at=AT - 1).season == "2025-11"
    assert rated(1, ("1", "2", "3", "4"), 0, at=AT).season == "2025-12"


def test_four_humans_finishing_make_a_rated_game() -> None:
    game = game_of([human(n) for n in range(4)])
    found = ratings.rated_game(game, loser=1, at=AT)
    assert found == RatedGame(1, "telegram", "-100", "yard", AT, ("1", "2", "3", "4"), 1)


def test_a_player_the_computer_played_for_while_away_is_still_rated() -> None:
    game = game_of([human(0, away=True), human(1), human(2), human(3)])
    found = ratings.rated_game(game, loser=0, at=AT)
    assert found is not None and not found.won(0)


@pytest.mark.parametrize(
    "seats, status",
    [
        ([human(0), human(1), human(2), Seat(SeatKind.COMPUTER, "Bot")], GameStatus.FINISHED),
        ([human(0), human(1), human(2), None], GameStatus.FINISHED),
        ([human(0), human(1), human(2), human(0)], GameStatus.FINISHED),
        ([human(0), human(1), human(2), human(3)], GameStatus.CANCELLED),
        ([human(0), human(1), human(2), human(3)], GameStatus.PLAYING),
    ],
    ids=["computer", "empty-seat", "one-user-twice", "cancelled", "not-over"],
)
def test_unrated_games(seats: list[Seat | None], status: GameStatus) -> None:
    assert ratings.rated_game(game_of(seats, status), loser=0, at=AT) is None


def test_a_user_of_another_platform_makes_the_game_unrated() -> None:
    other = Seat(SeatKind.HUMAN, "X", UserRef(Platform.DISCORD, "9"))
    assert ratings.rated_game(game_of([human(0), human(1), human(2), other]), 0, AT) is None


# --- A past month's season (/top season 2025-11) ------------------------------------------

#: 2025-12-10 UTC: the current season is December's.
TENTH = 1_765_324_800.0


@pytest.mark.parametrize(
    ("word", "season"),
    [
        ("2025-12", "2025-12"),
        ("2025-11", "2025-11"),
        ("2024-01", "2024-01"),
        (" 1999-07 ", "1999-07"),
    ],
)
def test_a_month_written_yyyy_mm_names_its_season(word: str, season: str) -> None:
    assert ratings.season_named(word, TENTH) == season


@pytest.mark.parametrize(
    "word", ["11.2025", "2025-13", "2025-00", "2025-1", "25-11", "2025/11", "0000-05", "", "yard"]
)
def test_a_month_not_written_yyyy_mm_is_malformed(word: str) -> None:
    with pytest.raises(ratings.BadSeason) as refused:
        ratings.season_named(word, TENTH)
    assert refused.value.reason is ratings.SeasonRefusal.MALFORMED


@pytest.mark.parametrize(
    ("word", "now"),
    # December 2025 begins on its first second (AT), not a second before.
    [("2026-01", TENTH), ("2099-12", TENTH), ("2025-12", AT - 1)],
)
def test_a_month_not_begun_is_in_the_future(word: str, now: float) -> None:
    with pytest.raises(ratings.BadSeason) as refused:
        ratings.season_named(word, now)
    assert refused.value.reason is ratings.SeasonRefusal.FUTURE
    assert refused.value.asked == word
    assert ratings.season_named("2025-12", AT) == "2025-12"


def test_words_of_digits_and_separators_are_meant_as_months() -> None:
    meant = ["2025-11", "11.2025", "2025/13", "1-2", "2025-11-05"]
    not_meant = ["2025", "yard", "all", "last", "2025-", "-11", "٢٠٢٥-١١", "2025-11-05-01"]
    assert all(ratings.looks_like_month(word) for word in meant)
    assert not any(ratings.looks_like_month(word) for word in not_meant)


def test_the_previous_season_crosses_the_year() -> None:
    assert ratings.previous_season("2025-12") == "2025-11"
    assert ratings.previous_season("2026-01") == "2025-12"
    assert ratings.previous_season(ratings.season_of(AT)) == ratings.season_of(AT - 1)
