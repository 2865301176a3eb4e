"""``python -m bot`` refuses settings that cannot work in one line (a web table's
address or Mini App without a web table, a Mini App on http, an http webhook), names
the address the web table takes, plays in the terminal without a token whatever the
bots' settings, and names a PostgreSQL URL's real fault (issue 31, points 8, 9, 13)."""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from bot import __main__ as main
from testing.fakes.bot_process import SETTING_NAMES, BotProcess, telegram_env
from testing.fakes.discord import TOKEN as DISCORD_TOKEN
from testing.fakes.telegram import FakeTelegram
from tests.adapters.console.test_console_terminal import Terminal
from tests.adapters.telegram.harness import free_port
from tests.in_process import Ran
from tests.test_main import ROOT

TOKEN = "123:not-used"
#: A process's start (importing aiogram alone takes seconds on a busy machine).
START = 300.0


@pytest.mark.parametrize(
    ("env", "said"),
    [
        ({"WEB_PUBLIC_URL": "https://kozel.example.org/"}, "WEB_PUBLIC_URL: set without WEB_PORT"),
        ({"WEB_APP_NAME": "table"}, "WEB_APP_NAME: set without WEB_PORT"),
        (
            {"WEB_PORT": "8081", "WEB_APP_NAME": "table", "WEB_PUBLIC_URL": "http://k.org/"},
            "WEB_APP_NAME: a Mini App needs WEB_PUBLIC_URL to be an https:// address",
        ),
        (
            {"TELEGRAM_WEBHOOK_URL": "http://kozel.example.org/tg"},
            "TELEGRAM_WEBHOOK_URL: an https:// URL: Telegram posts updates to https only",
        ),
    ],
)
def test_settings_that_cannot_work_stop_the_start_in_one_line(
    tmp_path: Path, bot_here: Callable[..., Ran], env: dict[str, str], said: str
) -> None:
    """Regression: each was taken silently, and the web table, the Mini App or the
    webhook just did not work."""
    done = bot_here(TELEGRAM_BOT_TOKEN=TOKEN, **env)
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"Kozel cannot start: {said}"), line
    assert line.endswith("(fix it in the environment or .env)")
    assert not list(tmp_path.iterdir())  # nothing was opened


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("postgresql://kozel:hunter@2@db/kozel", "the password has an '@', which ends it there"),
        ("postgresql://kozel:hunter2@[::1/kozel", "the host's '[' is not closed"),
    ],
)
def test_a_postgresql_url_says_its_real_fault_at_start(
    tmp_path: Path, bot_here: Callable[..., Ran], url: str, said: str
) -> None:
    """Regression: a password with an '@' gave "Name or service not known" (asyncpg
    looked up the host "2@db"); an unclosed '[' was called "a port that is a number"."""
    done = bot_here(TELEGRAM_BOT_TOKEN=TOKEN, DATABASE_URL=url)
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"Kozel cannot start: DATABASE_URL: {said}"), line
    assert "hunter" not in done.stderr + done.stdout
    assert not list(tmp_path.iterdir())


def test_a_bad_web_setting_still_stops_the_bot_that_reads_it(
    tmp_path: Path, bot_here: Callable[..., Ran]
) -> None:
    (tmp_path / ".env").write_text("WEB_PORT=abc\n")
    done = bot_here(TELEGRAM_BOT_TOKEN=TOKEN)
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert line.startswith("Kozel cannot start: WEB_PORT: ")


def test_without_a_token_python_m_bot_plays_in_the_terminal_whatever_the_bots_settings(
    tmp_path: Path,
) -> None:
    """Regression: ``WEB_PORT=abc`` in ``.env`` stopped the terminal game ``python -m
    bot`` plays without a token, which reads none of it."""
    (tmp_path / ".env").write_text(
        "WEB_PORT=abc\nMETRICS_PORT=x\nWEB_APP_NAME=table\nDEFAULT_LOCALE=en\n"
        "COMPUTER_LEVEL=normal\nCOMPUTER_DELAY=0\n"
    )
    clean = {k: v for k, v in os.environ.items() if k.upper() not in SETTING_NAMES}
    terminal = Terminal(
        [],
        {**clean, "PYTHONPATH": str(ROOT), "TMPDIR": str(tmp_path)},
        program=(sys.executable, "-m", "bot"),
        cwd=tmp_path,
    )
    terminal.wait_for("Your move>")
    terminal.type("q")
    status, screen = terminal.finish()
    assert status == 0, screen
    assert "Kozel in the terminal." in screen and "The game is saved" in screen
    assert "WEB_PORT" not in screen and "Traceback" not in screen


async def test_the_start_line_names_the_address_the_web_table_takes(tmp_path: Path) -> None:
    """The log names the web table's public address; where Telegram's messages cannot
    carry a link to it (this machine), a warning says so and what to set."""
    async with FakeTelegram() as tg:
        for public, said in (
            ("https://kozel.example.org/", "INFO kozel: web table: players open {public}"),
            ("", "WARNING kozel: web table at {public}, not a public address: Telegram's"),
        ):
            port = free_port()
            env = telegram_env(tg.base_url, tmp_path / "kozel.sqlite3")
            env.update({"WEB_PORT": str(port), "WEB_PUBLIC_URL": public})
            bot = BotProcess(tmp_path / "bot.log", env)
            before = len(tg.calls_of("deleteWebhook"))  # then it polls
            await bot.start()
            try:
                await tg.wait_for(lambda t: len(t.calls_of("deleteWebhook")) > before, START)  # noqa: B023
            finally:
                await bot.kill()
            line = said.format(public=public or f"http://127.0.0.1:{port}/")
            assert line in bot.output(), bot.output()[-3000:]
            assert bot.errors() == [], bot.output()[-3000:]


@pytest.mark.parametrize(
    ("url", "telegram", "said"),
    [
        ("https://kozel.example.org/", True, "web table: players open https://kozel.example.org/"),
        ("http://127.0.0.1:8081/", False, "web table: players open http://127.0.0.1:8081/"),
        (
            "http://127.0.0.1:8081/",
            True,
            "web table at http://127.0.0.1:8081/, not a public address: Telegram's messages"
            " carry no link to it (set WEB_PUBLIC_URL",
        ),
        (
            "http://0.0.0.0:8081/",
            False,
            "web table at http://0.0.0.0:8081/, not a public address: its links lead nowhere",
        ),
        ("http://[::]:8081/", False, "web table at http://[::]:8081/, not a public address"),
    ],
)
def test_the_web_tables_start_line_warns_where_its_links_cannot_work(
    caplog: pytest.LogCaptureFixture, url: str, telegram: bool, said: str
) -> None:
    with caplog.at_level(logging.INFO, logger="kozel"):
        main.say_web_address(url, telegram=telegram)
    (record,) = caplog.records
    assert record.getMessage().startswith(said)
    assert record.levelno == (logging.INFO if said.startswith("web table:") else logging.WARNING)


def test_an_activity_without_its_secret_stops_the_start_in_one_line(
    tmp_path: Path, bot_here: Callable[..., Ran]
) -> None:
    """Issue 32, part 1: DISCORD_CLIENT_ID alone cannot exchange a code; the bot says
    so and starts nothing, and never prints the secrets it was given."""
    env = {
        "DISCORD_BOT_TOKEN": DISCORD_TOKEN,
        "WEB_PORT": "8081",
        "WEB_PUBLIC_URL": "https://kozel.example.org/",
        "DISCORD_CLIENT_ID": "900000000000000001",
    }
    done = bot_here(**env)
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert line.startswith(
        "Kozel cannot start: DISCORD_CLIENT_ID: set without DISCORD_CLIENT_SECRET"
    )
    done = bot_here(
        **{**env, "WEB_PUBLIC_URL": "http://k.org/", "DISCORD_CLIENT_SECRET": "cs-secret"}
    )
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert "an Activity needs WEB_PUBLIC_URL to be an https:// address" in line
    assert "cs-secret" not in done.stderr + done.stdout
    assert DISCORD_TOKEN not in done.stderr + done.stdout
    assert not list(tmp_path.iterdir())
