"""``kozel play --challenge``: a duplicate challenge in the terminal, through the
``kozel`` script as a child with piped input (its local database)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.adapters.console.test_console_cli import kozel

PLAY = ("play", "--lang", "en", "--delay", "0", "--challenge")


def plays(tmp_path: Path) -> list[tuple[int, int, int | None]]:
    with sqlite3.connect(tmp_path / "k.sqlite3") as db:
        return db.execute(
            "SELECT deal, game_id, loss FROM challenge_plays ORDER BY deal"
        ).fetchall()


def saved(tmp_path: Path, game_id: int) -> str:
    with sqlite3.connect(tmp_path / "k.sqlite3") as db:
        row = db.execute("SELECT snapshot FROM games WHERE id = ?", (game_id,)).fetchone()
    return str(row[0])


def test_a_challenge_is_played_deal_after_deal_and_a_deal_begun_is_resumed(tmp_path: Path) -> None:
    first = kozel(tmp_path, *PLAY, "daily", typed="a\n" * 14)
    assert first.returncode == 0, first.stderr
    out = first.stdout
    assert "🎯 Challenge yard-" in out and ": deal 1 of 8." in out
    assert ": deal 1 of 8 is over. Your loss: " in out
    assert "Your score: 0 after 1 deal, place 1 of 1." in out
    assert out.rstrip().endswith("Your deal is saved: the same command goes on with it.")
    kept = plays(tmp_path)
    # Every deal but the last one begun is over, with its loss kept.
    assert [loss is None for *_, loss in kept] == [False] * (len(kept) - 1) + [True]
    deal, game_id, _ = kept[-1]
    snapshot = saved(tmp_path, game_id)

    # The same command again (by the rule set's name this time): the deal begun goes on,
    # its game as it was saved, never dealt anew.
    again = kozel(tmp_path, *PLAY, "yard")
    assert again.returncode == 0, again.stderr
    assert f": deal {deal + 1} of 8." in again.stdout
    assert plays(tmp_path) == kept
    assert saved(tmp_path, game_id) == snapshot


def test_a_forged_or_future_challenge_is_refused_in_one_line(tmp_path: Path) -> None:
    for word, line in [
        ("../etc/passwd", "There is no such challenge."),
        ("yard-2999-01-01", "That day's challenge has not begun yet."),
    ]:
        done = kozel(tmp_path, *PLAY, word)
        assert done.returncode == 2
        assert len(done.stdout.splitlines()) == 1 and done.stdout.startswith(line)
