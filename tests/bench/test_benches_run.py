"""The Telegram and storage benchmarks still run end to end (tiny sizes; no figures
checked): a benchmark that breaks unnoticed would report nothing the next time it
matters."""

from __future__ import annotations

import pytest

from adapters.postgres.local import LocalServer
from bench import discord_shards, outbox_failures, pictures, storage, telegram, telegram_floor


@pytest.mark.parametrize("webhook", [False, True])
async def test_the_telegram_benchmark_plays_every_game_to_the_end(webhook: bool) -> None:
    result = await telegram.run_bot(
        games=3, deals=1, storage_kind="sqlite", think=0.0, webhook=webhook
    )
    assert result["stalled_games"] == 0 and result["games"] == 3
    assert result["presses"] > 3 * 8  # at least a press per trick of each deal
    assert 0 < result["p50_ms"] <= result["p99_ms"] <= result["max_ms"]
    assert result["requests_per_press"] >= 1


async def test_the_telegram_benchmark_with_four_people_a_table_and_the_limits() -> None:
    result = await telegram.run_bot(
        games=2, deals=1, storage_kind="memory", think=0.0, humans=4, limits=True, seconds=4.0
    )
    assert result["stalled_games"] == 0 and result["humans_per_game"] == 4
    assert result["moves"] > 0 and result["presses"] >= result["moves"]
    assert (
        result["writes_per_move"] == pytest.approx(result["writes"] / result["moves"])
        and result["writes_per_move_editMessageText"] > 0
    )
    assert 0 < result["answer_p50_ms"] <= result["answer_p99_ms"]
    assert 0 < result["own_hand_p50_ms"] <= result["own_hand_p99_ms"]
    assert result["refused_429"] == 0


async def test_the_floor_benchmark_counts_every_press() -> None:
    result = await telegram_floor.run_bot(games=3, presses=4, session_kind="lean")
    assert result["presses"] == 3 * 4
    assert 0 < result["p50_ms"] <= result["p99_ms"]


async def test_the_discord_shards_benchmark_starts_every_shard_and_server() -> None:
    result = await discord_shards.measure(guilds=20, shards=2, channels=1, guild_wait=0.05)
    assert (result["guilds"], result["shards"]) == (20, 2)  # each shard's servers loaded
    assert result["cpu"] > 0 and result["wall"] > 0


async def test_the_outbox_failures_benchmark_counts_every_failure() -> None:
    result = await outbox_failures.measure(30)
    assert result["failures_counted"] == 30 and result["failures_kept"] == 10


async def test_the_storage_benchmark_saves_on_postgresql(postgres_server: LocalServer) -> None:
    rate, games = await storage.saves_per_second(
        storage._Postgres(postgres_server), storage._close, games=3, moves=5, seed=1
    )
    assert rate > 0
    assert [game.version for game in games] == [5, 5, 5]  # every save fenced and kept


async def test_the_telegram_benchmark_at_a_human_pace_on_postgresql(
    postgres_server: LocalServer,
) -> None:
    """Issue 12's mode: one person a table thinking, three computers, the limits as in
    production, PostgreSQL; and the strong computers of issue 13."""
    result = await telegram.run_bot(
        games=2,
        deals=1,
        storage_kind="postgres",
        think=0.05,
        level="strong",
        limits=True,
        seconds=3.0,
        database_url=postgres_server.create_database("bench_telegram"),
    )
    assert result["stalled_games"] == 0 and result["storage"] == "postgres"
    assert result["presses"] > 0 and result["bot_cpu_ms_per_press"] > 0
    assert 0 < result["answer_p50_ms"] <= result["answer_p99_ms"]
    assert result["refused_429"] == 0


def test_the_telegram_benchmark_sums_up_numbers_of_games(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--games 100,200,...``: a line per number of games (the medians of its runs,
    each run a process of its own, as above) and the headline."""
    assert telegram.main.__doc__ is None and telegram._counts("100,1_000") == [100, 1000]
    run = {"updates_per_second": 30.0, "answer_p50_ms": 5.0, "own_hand_p50_ms": 9.0,
           "own_hand_p99_ms": 90.0, "bot_cpu_ms_per_press": 3.0, "peak_rss_mb": 200.0}  # fmt: skip
    telegram.print_summary(
        {
            100: [run | {"answer_p99_ms": 40.0}, run | {"answer_p99_ms": 60.0}],
            200: [run | {"answer_p99_ms": 90.0}],
            500: [run | {"answer_p99_ms": 150.0}],
        }
    )
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == "100 | 30.0 | 5.0 / 50.0 | 9.0 / 90.0 | 3.00 | 200"
    assert lines[-1] == "headline: 200 games answered with p99 under 100 ms"


def test_the_web_sockets_benchmark_counts_every_press_and_socket() -> None:
    from argparse import Namespace

    from bench import web_sockets

    figures = web_sockets.run(Namespace(games=3, presses=20, concurrency=2, rate=0.0))
    assert figures["games"] == 3 and figures["sockets"] == 3 * web_sockets.PAGES
    assert figures["presses"] == 20  # every press of the turn's player is applied
    assert 0 < figures["p50_ms"] <= figures["p99_ms"]
    assert figures["cpu_ms_per_press"] >= 0 and figures["kb_per_socket"] > 0


def test_the_pictures_benchmark_draws_plain_and_emoji_names() -> None:
    result = pictures.measure(2)
    assert 0 < result["plain_p50_ms"] <= result["plain_p99_ms"]
    assert 0 < result["emoji_p50_ms"] <= result["emoji_p99_ms"]


async def test_the_telegram_benchmark_with_every_person_on_the_page_writes_only_the_table() -> None:
    # Issue 32, part 2: the four people play from the web table: no hand edits during
    # play (each hand is shown once more when its series ends, the game over).
    result = await telegram.run_bot(
        games=2, deals=1, storage_kind="memory", think=0.0, humans=4, limits=True, seconds=4.0,
        on_page=4,
    )  # fmt: skip
    assert result["stalled_games"] == 0 and result["on_page_per_game"] == 4
    assert result["moves"] > 0 and result["presses"] == 0
    assert result.get("writes_into_private", 0) <= 4 * result["games"] < result["moves"]
    assert 0 < result["writes_into_group"] <= result["moves"]
