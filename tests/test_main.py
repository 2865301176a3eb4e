"""``python -m bot --platform telegram|discord``: one platform per process."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import signal
import socket
import subprocess
import sys
import types
from collections.abc import Callable
from pathlib import Path

import pytest

from adapters.sqlite import SqliteStorage
from bot import __main__ as main
from bot.models import Platform
from bot.service import GameService
from bot.settings import Settings
from testing.fakes.bot_process import BotProcess, telegram_env
from testing.fakes.discord import TOKEN as DISCORD_TOKEN
from testing.fakes.telegram import FakeTelegram
from tests.adapters.telegram.test_kill import wait_until
from tests.bot.conftest import ALICE, CHAT
from tests.in_process import Ran


class FakeAdapter:
    """Stands in for a platform adapter: records the service it was given."""

    made: list[tuple[str, GameService]]

    def __init__(self, settings: Settings, service: GameService, *args: object) -> None:
        self.made.append((type(self).__name__, service))

    async def run(self) -> None:
        return None


async def test_one_platform_runs_alone_and_owns_only_its_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[tuple[str, GameService]] = []
    for module, name in (("telegram", "TelegramAdapter"), ("discord", "DiscordAdapter")):
        fake = types.ModuleType(f"adapters.{module}")
        setattr(fake, name, type(name, (FakeAdapter,), {"made": made}))
        monkeypatch.setitem(sys.modules, f"adapters.{module}", fake)
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        telegram_bot_token="1:telegram",
        discord_bot_token=DISCORD_TOKEN,
        database_url=f"sqlite:///{tmp_path / 'kozel.sqlite3'}",
    )
    settled: list[bool] = []
    monkeypatch.setattr(main.loop, "settle_heap", lambda: settled.append(True))
    await main.run_platforms(settings, {Platform.DISCORD})
    assert settled == [True]  # once the games were restored
    assert [(name, service.platforms) for name, service in made] == [
        ("DiscordAdapter", frozenset({Platform.DISCORD}))
    ]
    made.clear()
    await main.run_platforms(settings)  # by default: every platform with a token
    assert [(name, service.platforms) for name, service in made] == [
        ("TelegramAdapter", None),
        ("DiscordAdapter", None),
    ]


def test_a_platform_without_its_token_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", "1:telegram")
    monkeypatch.delenv("DISCORD_BOT_TOKEN", raising=False)
    assert main.main(["--platform", "discord"]) == 2
    assert "--platform discord needs DISCORD_BOT_TOKEN" in capsys.readouterr().err
    assert not (tmp_path / "data").exists()  # nothing was opened


def test_the_terminal_games_arguments_are_refused_with_a_token(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``make run ARGS=--new`` passes ``kozel play``'s words to ``python -m bot``; with a
    token the bots run, and they take none of them: one line, nothing opened."""
    monkeypatch.chdir(tmp_path)  # no .env
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", "1:telegram")
    monkeypatch.setenv("KOZEL_COMMAND", "make run")
    assert main.main(["--new", "--lang", "en"]) == 2
    assert capsys.readouterr().err == (
        "make run: --new --lang en: not understood (the terminal game's arguments are taken"
        " only without a token)\n"
    )
    assert not list(tmp_path.iterdir())  # nothing was opened


def test_an_unknown_platform_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main.parse_args(["--platform", "icq"])
    assert stopped.value.code == 2
    assert "invalid choice: 'icq'" in capsys.readouterr().err


# --- The start refuses what cannot work, in one line (issue 23, points 11-13) ---------------

ROOT = Path(__file__).resolve().parent.parent
_SETTING_NAMES = {name.upper() for name in Settings.model_fields}


def run_bot(
    cwd: Path, *, close_stdin: bool = False, **env: str
) -> subprocess.CompletedProcess[str]:
    """``python -m bot`` in ``cwd`` with only these settings, without a terminal
    (``close_stdin``: with no standard input at all, as ``<&-`` starts it)."""
    clean = {k: v for k, v in os.environ.items() if k.upper() not in _SETTING_NAMES}
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=cwd,
        env={**clean, "PYTHONPATH": str(ROOT), **env},
        stdin=subprocess.DEVNULL,
        preexec_fn=(lambda: os.close(0)) if close_stdin else None,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.mark.parametrize("name", ["TELEGRAM_BOT_TOKEN", "DISCORD_BOT_TOKEN"])
def test_garbage_token_stops_with_one_line(
    tmp_path: Path, bot_here: Callable[..., Ran], name: str
) -> None:
    """Regression: ``TELEGRAM_BOT_TOKEN=garbage`` was tried again and again for ever,
    with aiogram's "Token is invalid!" traceback each time; ``DISCORD_BOT_TOKEN`` was
    tried against the network (issue 31, point 7)."""
    done = bot_here(**{name: "garbage"})
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"Kozel cannot start: {name}: not a bot token")
    assert "garbage" not in done.stderr + done.stdout
    assert not list(tmp_path.iterdir())  # nothing was opened


@pytest.mark.parametrize(
    "url",
    [
        "nonsense",
        "postgresql:/kozel:hunter2@db/kozel",
        "sqlite://x",
        "postgresql://kozel:hunter2@db:port/kozel",
    ],
)
def test_database_url_with_one_slash_is_refused_without_the_password(
    tmp_path: Path, bot_here: Callable[..., Ran], url: str
) -> None:
    """Regression: ``nonsense`` made an SQLite file ./nonsense; one slash after
    ``postgresql:`` made a local SQLite file, and the log printed the password."""
    done = bot_here(TELEGRAM_BOT_TOKEN="123:not-used", DATABASE_URL=url)
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert line.startswith("Kozel cannot start: DATABASE_URL: ")
    assert "hunter2" not in done.stderr + done.stdout
    assert not list(tmp_path.iterdir())  # no file, no folder


def test_a_database_that_cannot_be_opened_stops_the_start_in_one_line(
    tmp_path: Path, bot_here: Callable[..., Ran]
) -> None:
    """A folder, a path under a file, a PostgreSQL server that refuses: one line, no
    traceback, never the password."""
    (tmp_path / "folder").mkdir()
    (tmp_path / "file").write_text("")
    with socket.socket() as closed:  # a port nobody listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    for url, said in (
        ("sqlite:///folder", "the SQLite database folder is a folder"),
        ("sqlite:///file/kozel.sqlite3", "cannot be opened"),
        (f"postgresql://kozel:hunter2@127.0.0.1:{port}/kozel", "cannot be used"),
    ):
        done = bot_here(
            TELEGRAM_BOT_TOKEN="123:not-used",
            TELEGRAM_API_URL="http://127.0.0.1:9",
            DATABASE_URL=url,
        )
        assert done.returncode == 1, done.stderr
        (line,) = done.stderr.splitlines()
        assert "ERROR kozel: Kozel cannot start: " in line and said in line, line
        assert "hunter2" not in done.stderr + done.stdout


def test_no_token_and_no_terminal_says_what_to_set(tmp_path: Path) -> None:
    """Regression: the image without a token, run without a terminal (``docker run``
    without ``-it``), failed with a traceback. Closed stdin is no terminal either."""
    for close_stdin in (False, True):
        done = run_bot(tmp_path, close_stdin=close_stdin)
        assert done.returncode == 2
        assert done.stderr.splitlines() == [main.NO_TOKEN_NO_TERMINAL]
        assert "TELEGRAM_BOT_TOKEN or DISCORD_BOT_TOKEN" in done.stderr
    assert not list(tmp_path.iterdir())


def test_the_database_password_is_a_secret_of_the_logs() -> None:
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        database_url="postgresql://kozel:hunter%402@db/kozel",
    )
    assert {"hunter%402", "hunter@2"} <= set(main.secrets_of(settings))
    assert main.secrets_of(Settings(_env_file=None)) == []  # type: ignore[call-arg]


async def test_the_log_counts_one_open_game_in_the_singular(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Regression: "resumed 1 open games"."""
    url = f"sqlite:///{tmp_path / 'kozel.sqlite3'}"
    async with await SqliteStorage.open(url) as storage:
        await GameService(storage).open_table(CHAT, ALICE)
    made: list[tuple[str, GameService]] = []
    fake = types.ModuleType("adapters.telegram")
    fake.TelegramAdapter = type("TelegramAdapter", (FakeAdapter,), {"made": made})  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "adapters.telegram", fake)
    monkeypatch.setattr(main.loop, "settle_heap", lambda: None)
    settings = Settings(_env_file=None, telegram_bot_token="1:telegram", database_url=url)  # type: ignore[call-arg]
    with caplog.at_level(logging.INFO, logger="kozel"):
        await main.run_platforms(settings)
    assert "resumed 1 open game" in caplog.messages


def test_press_rate_sets_each_users_press_limit_and_zero_lifts_it() -> None:
    """PRESS_RATE is the presses a second one user may keep up after the burst; 0 lifts
    the limit (the kill tests' players press at machine speed through python -m bot)."""
    from bot.flood import PRESSES, Admission

    user = ALICE
    limited = main.flood_guard(Settings(_env_file=None, press_rate=2.0))  # type: ignore[call-arg]
    answers = [limited.press(user) for _ in range(int(PRESSES.burst) + 2)]
    assert answers[: int(PRESSES.burst)] == [Admission.ALLOWED] * int(PRESSES.burst)
    assert answers[-2:] == [Admission.WARNED, Admission.IGNORED]
    free = main.flood_guard(Settings(_env_file=None, press_rate=0))  # type: ignore[call-arg]
    assert {free.press(user) for _ in range(1000)} == {Admission.ALLOWED}
    assert free.command(user) is Admission.ALLOWED  # commands keep their own limit


# --- make run's terminal game (issue 31, point 10) -------------------------------------------

#: A line as the log writes it (bot.logs.TEXT_FORMAT): "2026-01-02 03:04:05,678 INFO name: ...".
LOG_LINE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} [A-Z]+ [\w.]+: ")


def test_the_terminal_game_of_python_m_bot_shows_no_log_line(tmp_path: Path) -> None:
    """Regression: ``make run`` without a token printed "INFO bot.thinking: computer
    players think in 1 worker processes" on the game's screen (``python -m bot`` set
    its log handler on standard error, the terminal, before the game took its log off
    the screen). As the README says, the lines go to kozel-play.log in the temporary
    folder."""
    from tests.adapters.console.test_console_terminal import Terminal

    env = {
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": str(ROOT),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'k.sqlite3'}",
        "COMPUTER_LEVEL": "strong",  # its computers think in a worker process, and log it
        "TMPDIR": str(tmp_path),
    }
    program = (sys.executable, "-m", "bot")
    terminal = Terminal(["--lang", "en", "--seed", "4", "--delay", "0"], env, program, tmp_path)
    terminal.wait_for("Your move>")
    terminal.type("a")  # the table's computer chooses this move
    terminal.wait_for("Your move>", times=2)
    terminal.type("q")
    status, screen = terminal.finish()
    assert status == 0, screen
    assert "Kozel in the terminal." in screen and "The game is saved" in screen
    assert not LOG_LINE.search(screen), screen
    log = (tmp_path / "kozel-play.log").read_text()
    assert "INFO bot.thinking: computer players think in" in log


# --- The operator's first hour: one clear line, the right status (issue 31) ------------------

#: A child's start (importing aiogram alone takes seconds on a busy machine): a safety net.
START = 300.0


def polling(tg: FakeTelegram, bot: BotProcess) -> bool:
    """The child polls the fake: it started."""
    return tg.polls > 0 and "Run polling" in bot.output()


@pytest.mark.parametrize(
    ("sigint_ignored", "signals"),
    [(True, (signal.SIGINT, signal.SIGTERM)), (False, (signal.SIGINT,))],
    ids=["background-job", "ctrl-c"],
)
async def test_sigterm_stops_a_bot_started_with_sigint_ignored(
    tmp_path: Path, sigint_ignored: bool, signals: tuple[signal.Signals, ...]
) -> None:
    """Regression (issue 31, point 6): started in the background by a script
    (``( python -m bot & )``: SIGINT ignored, as nohup and some supervisors leave it),
    the bot ignored SIGTERM for good (its handler raised SIGINT); only SIGKILL stopped
    it. Now the running loop handles SIGTERM, and SIGINT unless it was ignored: a
    SIGINT sent first to the background job changes nothing, its SIGTERM stops it."""
    async with FakeTelegram() as tg:
        bot = BotProcess(tmp_path / "bot.log", telegram_env(tg.base_url, tmp_path / "k.sqlite3"))
        await bot.start(sigint_ignored=sigint_ignored)
        try:
            await wait_until(tg, lambda: polling(tg, bot), START)
            code = await bot.stop(*signals)
        finally:
            await bot.kill()
    log = bot.output()
    assert code == 0, log
    stopped_by = signals[-1].name
    assert f"INFO kozel: {stopped_by}: stopping" in log
    assert log.rstrip().endswith("INFO kozel: Kozel stopped"), log
    assert "SIGINT: stopping" not in log or not sigint_ignored
    assert "Traceback" not in log and not bot.errors(), log


def listening_socket() -> socket.socket:
    """A socket that listens on 127.0.0.1 at a free port: another program's."""
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    return taken


@pytest.mark.parametrize(
    ("settings", "said"),
    [
        ({"METRICS_PORT": "{taken}"}, "METRICS_PORT={taken} is in use on 127.0.0.1: "),
        ({"WEB_PORT": "{taken}"}, "WEB_PORT={taken} is in use on 127.0.0.1: "),
        (
            {"WEB_PORT": "0", "WEB_HOST": "nosuch.invalid"},
            "WEB_HOST=nosuch.invalid is no name this machine knows (",
        ),
        (
            {"METRICS_PORT": "0", "METRICS_HOST": "192.0.2.1"},
            "METRICS_HOST=192.0.2.1 is not an address of this machine; use one of its",
        ),
    ],
    ids=["metrics-port-in-use", "web-port-in-use", "web-host-unknown", "metrics-host-elsewhere"],
)
def test_a_server_that_cannot_listen_stops_the_start_in_one_line(
    bot_here: Callable[..., Ran], settings: dict[str, str], said: str
) -> None:
    """Regression (issue 31, point 4): WEB_PORT or METRICS_PORT in use, or a WEB_HOST
    that is no address of this machine, ended in a 30-line traceback. One line naming
    the setting and its value, exit status 1 (as a database that cannot be opened)."""
    with listening_socket() as taken:
        port = str(taken.getsockname()[1])
        done = bot_here(
            TELEGRAM_BOT_TOKEN="123:not-used",
            TELEGRAM_API_URL="http://127.0.0.1:9",
            **{name: value.format(taken=port) for name, value in settings.items()},
        )
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    errors = [line for line in done.stderr.splitlines() if " ERROR " in line]
    assert errors == [done.stderr.splitlines()[-1]]
    assert f"ERROR kozel: Kozel cannot start: {said.format(taken=port)}" in errors[0], errors


@pytest.mark.parametrize("other", ["METRICS_PORT", "TELEGRAM_WEBHOOK_PORT"])
def test_two_servers_of_the_bot_on_one_port_are_refused_by_the_settings(
    tmp_path: Path, bot_here: Callable[..., Ran], other: str
) -> None:
    """METRICS_PORT equal to WEB_PORT (or the webhook's port) could only fail once
    started: refused with the settings, one line, exit status 2, nothing opened."""
    webhook = {"TELEGRAM_WEBHOOK_URL": "https://kozel.example.org/hook"}
    done = bot_here(
        TELEGRAM_BOT_TOKEN="123:not-used",
        WEB_PORT="8123",
        **{other: "8123"},
        **(webhook if other == "TELEGRAM_WEBHOOK_PORT" else {}),
    )
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"Kozel cannot start: WEB_PORT: 8123 is {other}'s too: the web table, the metrics"
        " and the Telegram webhook each need a port of their own (fix it in the environment"
        " or .env)"
    ]
    assert not list(tmp_path.iterdir())


def closed_port() -> int:
    """A port on 127.0.0.1 where nothing listens (connections are refused)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_no_network_is_one_line_a_try_with_the_next_pause(tmp_path: Path) -> None:
    """Regression (issue 31, point 7): well-formed tokens and no network (the APIs at a
    closed port) logged a 60-line traceback at every try, for ever. Each try is one
    line naming the platform, the error in a few words and the next pause; SIGTERM
    stops the tries at once."""
    port = closed_port()
    clean = {k: v for k, v in os.environ.items() if k.upper() not in _SETTING_NAMES}
    env = {
        **clean,
        "PYTHONPATH": str(ROOT),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'kozel.sqlite3'}",
        "TELEGRAM_BOT_TOKEN": "123456:AAE-well-formed",
        "TELEGRAM_API_URL": f"http://127.0.0.1:{port}",
        "DISCORD_BOT_TOKEN": DISCORD_TOKEN,
        "DISCORD_API_URL": f"http://127.0.0.1:{port}/api/v10",
    }
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path, env=env,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    assert child.stdout is not None
    lines: list[str] = []

    def tries(name: str) -> list[str]:
        """What the platform's tries said, each without its time."""
        return [line.split(" ERROR kozel: ")[1] for line in lines if f"the {name} bot" in line]

    try:
        async with asyncio.timeout(START):
            while len(tries("Telegram")) < 3 or len(tries("Discord")) < 3:
                line = (await child.stdout.readline()).decode()
                assert line, lines  # it ended
                lines.append(line.rstrip("\n"))
        child.send_signal(signal.SIGTERM)
        async with asyncio.timeout(60):  # a safety net
            rest, _ = await child.communicate()
    finally:
        if child.returncode is None:
            child.kill()
            await child.wait()
    assert child.returncode == 0
    lines += rest.decode().splitlines()
    assert "Traceback" not in "\n".join(lines)
    refused = f"ClientConnectorError: Cannot connect to host 127.0.0.1:{port} ssl:default"
    for name in ("Telegram", "Discord"):
        for delay, said in zip((1, 2, 4), tries(name), strict=False):
            start, end = said.split(" [Connect call failed ")
            assert start == f"the {name} bot cannot connect: {refused}"
            assert end.endswith(f"]; it tries again in {delay} s; the other platforms go on")
    others = [line for line in lines if " INFO " not in line and "cannot connect" not in line]
    assert others == [], others  # one line a try, nothing else
    assert [line.split(" ", 2)[2] for line in lines[-2:]] == [
        "INFO kozel: SIGTERM: stopping",
        "INFO kozel: Kozel stopped",
    ]


async def test_a_platform_never_reached_is_given_up_and_the_process_fails(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The give-up rule: a platform whose every start failed to reach its server is
    given up after ``Backoff.unreachable`` tries in a row; with no other platform the
    run fails (python -m bot exits 1, as when every token is refused)."""
    from bot.supervise import AllPlatformsFailed, Backoff

    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        telegram_bot_token="123456:AAE-well-formed",
        telegram_api_url=f"http://127.0.0.1:{closed_port()}",
        database_url=f"sqlite:///{tmp_path / 'kozel.sqlite3'}",
    )
    quick = Backoff(first=0.01, most=0.02, unreachable=3)
    with caplog.at_level(logging.INFO, logger="kozel"), pytest.raises(AllPlatformsFailed):
        async with asyncio.timeout(60):  # a safety net
            await main.run_platforms(settings, backoff=quick)
    said = [r for r in caplog.records if r.name == "kozel" and r.levelno == logging.ERROR]
    assert [r.getMessage().split("; ", 1)[1] for r in said] == [
        "it tries again in 0.01 s; the other platforms go on",
        "it tries again in 0.02 s; the other platforms go on",
        "given up after 3 tries (it never connected); the other platforms go on",
    ]
    assert all(r.getMessage().startswith("the Telegram bot cannot connect: ") for r in said)
    assert not any(r.exc_info for r in caplog.records)


async def test_a_bot_api_server_error_at_the_start_is_one_line_a_try(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Bot API that answers 502 to the start's getMe counts as not reached: one line
    a try, with what the server answered, and the same give-up rule."""
    from bot.supervise import AllPlatformsFailed, Backoff
    from testing.fakes.telegram import ApiError

    async def bad_gateway(params: object) -> None:
        raise ApiError(502, "Bad Gateway")

    async with FakeTelegram() as tg:
        monkeypatch.setattr(tg, "_m_getme", bad_gateway)
        settings = Settings(
            _env_file=None,  # type: ignore[call-arg]
            telegram_bot_token="123456:AAE-well-formed",
            telegram_api_url=tg.base_url,
            database_url=f"sqlite:///{tmp_path / 'kozel.sqlite3'}",
        )
        quick = Backoff(first=0.01, most=0.02, unreachable=2)
        with pytest.raises(AllPlatformsFailed):
            async with asyncio.timeout(60):  # a safety net
                await main.run_platforms(settings, backoff=quick)
    said = [r.getMessage() for r in caplog.records if r.name == "kozel" and r.levelno >= 40]
    assert said == [
        "the Telegram bot cannot connect: the Bot API server answered Bad Gateway; " + end
        for end in (
            "it tries again in 0.01 s; the other platforms go on",
            "given up after 2 tries (it never connected); the other platforms go on",
        )
    ]
    assert not any(r.exc_info for r in caplog.records)
