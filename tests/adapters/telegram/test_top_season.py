"""``/top season 2025-11`` (issue 25): a past month's leaderboard of the group, through
the fake Bot API server; a month malformed or not begun gets one line."""

from __future__ import annotations

import pytest

from bot.models import ChatRef, Platform, UserRef
from bot.ratings import MIN_GAMES
from core.seats import Team
from tests.adapters.telegram.harness import GROUP, Harness
from tests.bot.test_storage_ratings import DECEMBER, finished

NOVEMBER = DECEMBER - 15 * 86400  # 2025-11-16
CHAT = ChatRef(Platform.TELEGRAM, str(GROUP))


@pytest.mark.parametrize("storage", ["memory", "sqlite"], indirect=True)
async def test_top_season_of_a_past_month_shows_that_months_board(h: Harness) -> None:
    alice = h.user(1, "Alice")
    players = [UserRef(Platform.TELEGRAM, str(n)) for n in (1, 2, 3, 4)]
    for n in range(MIN_GAMES):
        await finished(h.storage, players, Team.B, chat=CHAT, at=NOVEMBER + n)
    h.clock.value = DECEMBER + 9 * 86400  # December: November is the past month

    top = await h.command(alice, GROUP, "/top season 2025-11")
    text = top.text or ""
    expected = await h.interactions.top(CHAT, season=True, month="2025-11")
    assert expected.screen is not None and text == expected.screen.text
    assert text.startswith(h.tr.t("ru", "top-title-season", season="2025-11"))
    assert h.tr.t("ru", "top-rating-empty", games=MIN_GAMES) not in text
    assert all(f"P{n}" in text for n in (1, 2, 3, 4))
    assert len(text.splitlines()) == 1 + 4
    # "last" is the same month; this month has no rated game yet.
    last = await h.command(alice, GROUP, "/top last")
    assert last.text == text
    now = await h.command(alice, GROUP, "/top season")
    assert (now.text or "").splitlines() == [
        h.tr.t("ru", "top-title-season", season="2025-12"),
        h.tr.t("ru", "top-rating-empty", games=MIN_GAMES),
    ]


async def test_top_season_of_a_malformed_or_future_month_answers_one_line(h: Harness) -> None:
    alice = h.user(1, "Alice")
    h.clock.value = DECEMBER + 9 * 86400
    bad = await h.command(alice, GROUP, "/top season 11.2025")
    assert bad.text == h.tr.t(
        "ru", "top-month-malformed", top="/top", month="season", example="2025-11"
    )
    future = await h.command(alice, GROUP, "/top season 2026-01")
    assert future.text == h.tr.t("ru", "top-month-future", asked="2026-01", current="2025-12")
