"""``kozel play`` refuses a database it cannot play on in one line, and a closed
standard input ends the game like the end of input (issue 23, point 12)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(sys.executable).parent / "kozel"
#: The command that goes on with :func:`kozel_play`'s game (the script is not on its PATH).
AGAIN = f"{SCRIPT} play --seed 3 --lang en --delay 0"


def kozel_play(
    tmp_path: Path, *args: str, database_url: str, close_stdin: bool = False
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SCRIPT), "play", "--seed", "3", "--lang", "en", "--delay", "0", *args],
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        preexec_fn=(lambda: os.close(0)) if close_stdin else None,
        capture_output=True,
        text=True,
        timeout=120,
        env={"DATABASE_URL": database_url, "PATH": "/usr/bin:/bin"},
        check=False,
    )


def test_kozel_play_with_a_postgresql_database_url_says_it_needs_sqlite(tmp_path: Path) -> None:
    """Regression: ``ValueError: not an SQLite URL: '<the URL with its password>'``."""
    done = kozel_play(tmp_path, database_url="postgresql://kozel:hunter2@db/kozel")
    assert done.returncode == 2
    assert done.stdout.splitlines() == [
        "The terminal game keeps its games in SQLite, not in PostgreSQL: give it a file"
        " with --db sqlite:///kozel.sqlite3."
    ]
    assert "Traceback" not in done.stderr and "hunter2" not in done.stdout + done.stderr
    played = kozel_play(
        tmp_path,
        "--db",
        f"sqlite:///{tmp_path / 'k.sqlite3'}",
        database_url="postgresql://kozel:hunter2@db/kozel",
    )
    assert played.returncode == 0, played.stderr
    assert "The game is saved" in played.stdout


@pytest.mark.parametrize(
    ("db", "said", "status"),
    [
        ("nonsense", "--db a URL, not a bare path", 2),
        ("postgresql:/kozel:hunter2@db/kozel", "--db postgresql: takes two slashes", 2),
        ("sqlite:///folder", "The game cannot start: the SQLite database folder is a folder", 1),
    ],
)
def test_kozel_play_refuses_a_database_it_cannot_open_in_one_line(
    tmp_path: Path, db: str, said: str, status: int
) -> None:
    (tmp_path / "folder").mkdir()
    done = kozel_play(tmp_path, "--db", db, database_url=f"sqlite:///{tmp_path / 'k.sqlite3'}")
    assert done.returncode == status
    (line,) = done.stdout.splitlines()
    assert line.startswith(said), line
    assert "Traceback" not in done.stderr and "hunter2" not in done.stdout + done.stderr
    assert sorted(path.name for path in tmp_path.iterdir()) == ["folder"]


def test_closed_stdin_in_the_terminal_game_ends_it_saved(tmp_path: Path) -> None:
    """Regression: ``kozel play <&-`` died with a traceback (no ``sys.stdin``)."""
    done = kozel_play(
        tmp_path, database_url=f"sqlite:///{tmp_path / 'k.sqlite3'}", close_stdin=True
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout.rstrip().endswith(f"The game is saved. To go on, run: {AGAIN}")


def test_stdin_from_dev_null_ends_the_terminal_game_saved(tmp_path: Path) -> None:
    """Regression: ``kozel play </dev/null`` died with a traceback (the event loop
    cannot watch /dev/null)."""
    done = kozel_play(tmp_path, database_url=f"sqlite:///{tmp_path / 'k.sqlite3'}")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout.rstrip().endswith(f"The game is saved. To go on, run: {AGAIN}")
