"""``kozel play`` and ``kozel rules`` read only the settings they use: a bad bot setting
in ``.env`` (a web table's, the metrics', a webhook's) does not stop them, a bad one
they use still does, in one line (issue 31, point 9)."""

from __future__ import annotations

import asyncio
import io
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, ClassVar

from adapters.console import RULES_SETTINGS_READ, SETTINGS_READ, play_main
from adapters.console.play import build_parser, print_rules, run
from bot.settings import Settings

KOZEL = str(Path(sys.executable).parent / "kozel")

#: Settings of the bots only, each bad: none of them may stop the terminal game.
BAD_BOT_SETTINGS = (
    "WEB_PORT=abc\n"
    "METRICS_PORT=x\n"
    "TELEGRAM_WEBHOOK_URL=http://kozel.example.org/tg\n"
    "WEB_APP_NAME=table\n"
    "TELEGRAM_BOT_TOKEN=garbage\n"
    "LOG_FORMAT=xml\n"
)


class Watched(Settings):
    """Settings that note every one of them read."""

    read: ClassVar[set[str]] = set()

    def __getattribute__(self, name: str) -> Any:
        if name in Settings.model_fields:
            Watched.read.add(name)
        return super().__getattribute__(name)


def watched(tmp_path: Path) -> Watched:
    Watched.read = set()
    return Watched(
        _env_file=None,  # type: ignore[call-arg]
        database_url=f"sqlite:///{tmp_path / 'kozel.sqlite3'}",
        default_locale="en",
        computer_level="normal",
    )


def test_the_terminal_game_reads_only_the_settings_it_names(tmp_path: Path) -> None:
    """``SETTINGS_READ`` is what ``kozel play`` takes from the environment: a setting
    it read beyond it would be the default's, whatever the operator set. Computers
    alone, then a human's game (it reads the computers' delay)."""
    out = io.StringIO()
    computers = ["--seats", "bot,bot,bot,bot", "--seed", "5"]
    assert play_main(computers, settings=watched(tmp_path), out=out) == 0
    read = set(Watched.read)
    lines = iter(["a", "q"])

    async def read_line() -> str | None:
        return next(lines, None)

    args = build_parser().parse_args(["--seed", "4"])
    assert asyncio.run(run(args, watched(tmp_path), out, read_line)) == 0
    assert "The game is saved" in out.getvalue()
    read |= Watched.read
    assert read <= set(SETTINGS_READ), read - set(SETTINGS_READ)
    assert {"database_url", "computer_delay", "default_locale", "computer_level"} <= read


def test_kozel_rules_reads_only_the_settings_it_names(tmp_path: Path) -> None:
    settings = watched(tmp_path)
    args = build_parser().parse_args([])
    assert print_rules(args, io.StringIO(), settings) == 0
    assert Watched.read <= set(RULES_SETTINGS_READ)


def kozel(cwd: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``kozel`` in ``cwd`` (where its ``.env`` is), with no setting in the environment."""
    return subprocess.run(
        [KOZEL, *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        env={"PATH": "/usr/bin:/bin"},
        check=False,
    )


def test_a_bad_bot_setting_in_env_does_not_stop_kozel_rules_or_play(tmp_path: Path) -> None:
    """Regression: ``WEB_PORT=abc`` in ``.env`` stopped ``kozel play`` and ``kozel
    rules``, which need none of it."""
    (tmp_path / ".env").write_text(BAD_BOT_SETTINGS + "DEFAULT_LOCALE=en\nCOMPUTER_LEVEL=normal\n")
    rules = kozel(tmp_path, "rules", "--rules", "yard")
    assert rules.returncode == 0, rules.stderr
    assert rules.stdout.startswith("📜 Yard Kozel, 4 cards")  # DEFAULT_LOCALE was read
    played = kozel(tmp_path, "play", "--seed", "3", "--delay", "0", stdin="a\nq\n")
    assert played.returncode == 0, played.stderr
    assert "Your move>" in played.stdout and "The game is saved" in played.stdout
    assert (tmp_path / "data" / "kozel.sqlite3").exists()  # DATABASE_URL's default
    assert "Traceback" not in played.stderr + rules.stderr
    for done in (rules, played):
        assert "WEB_PORT" not in done.stderr and "garbage" not in done.stderr


def test_a_bad_setting_the_terminal_game_reads_still_stops_it_in_one_line(
    tmp_path: Path,
) -> None:
    (tmp_path / ".env").write_text(BAD_BOT_SETTINGS + "COMPUTER_LEVEL=genius\n")
    done = kozel(tmp_path, "play", "--lang", "en", stdin="q\n")
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert line.startswith("Kozel cannot start: COMPUTER_LEVEL: "), line
    (tmp_path / ".env").write_text(BAD_BOT_SETTINGS + "DEFAULT_RULE_SET=poker\n")
    done = kozel(tmp_path, "rules")
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "Kozel cannot start: DEFAULT_RULE_SET: one of yard, classic"
        " (fix it in the environment or .env)"
    ]
    assert not (tmp_path / "data").exists()  # nothing was played


def test_the_operations_guide_names_the_settings_the_terminal_game_reads() -> None:
    text = (Path(__file__).resolve().parents[3] / "docs" / "operations.md").read_text()
    paragraph = text[text.index("**The terminal game reads only its own settings.**") :]
    paragraph = paragraph[: paragraph.index("\n- ")]
    named = set(re.findall(r"`([A-Z_]+)`", paragraph)) - {"WEB_PORT"}
    assert named == {name.upper() for name in SETTINGS_READ}
