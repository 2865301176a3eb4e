"""The Telegram and storage benchmarks still run end to end (tiny sizes; no figures
checked): a benchmark that breaks unnoticed would report nothing the next time it
matters."""

from __future__ import annotations

import pytest

from adapters.postgres.local import LocalServer
from bench import storage, telegram, telegram_floor


@pytest.mark.parametrize("webhook", [False, True])
async def test_the_telegram_benchmark_plays_every_game_to_the_end(webhook: bool) -> None:
    result = await telegram.run_bot(
        games=3, deals=1, storage_kind="sqlite", think=0.0, webhook=webhook
    )
    assert result["stalled_games"] == 0 and result["games"] == 3
    assert result["presses"] > 3 * 8  # at least a press per trick of each deal
    assert 0 < result["p50_ms"] <= result["p99_ms"] <= result["max_ms"]
    assert result["requests_per_press"] >= 1


async def test_the_floor_benchmark_counts_every_press() -> None:
    result = await telegram_floor.run_bot(games=3, presses=4, session_kind="lean")
    assert result["presses"] == 3 * 4
    assert 0 < result["p50_ms"] <= result["p99_ms"]


async def test_the_storage_benchmark_saves_on_postgresql(postgres_server: LocalServer) -> None:
    rate, games = await storage.saves_per_second(
        storage._Postgres(postgres_server), storage._close, games=3, moves=5, seed=1
    )
    assert rate > 0
    assert [game.version for game in games] == [5, 5, 5]  # every save fenced and kept
