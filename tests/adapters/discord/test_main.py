"""``python -m bot`` runs every platform with a token: a platform that fails is logged
and started again, one that refuses the bot does not stop the other, the process
fails once every platform refused it, and no token reaches a log."""

from __future__ import annotations

import asyncio
import http.server
import logging
import os
import socket
import subprocess
import sys
import threading
import types
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import adapters.discord
from adapters.discord import DiscordAdapter
from adapters.discord.client import KozelBot
from bot import __main__ as main
from bot import redact
from bot.settings import Settings
from bot.supervise import AllPlatformsFailed, Backoff
from testing.fakes.discord import FakeDiscord
from testing.fakes.telegram import FakeTelegram
from tests.adapters.discord.conftest import LogGuard
from tests.adapters.discord.harness import ALICE, CHANNEL

ROOT = Path(__file__).resolve().parents[3]
TELEGRAM_TOKEN = "123456:AAE-telegram-very-secret"
DISCORD_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GvErYs.discord-very-secret-token"
QUICK = Backoff(first=0.01, most=0.04, refusals=2)


class BrokenTelegram:
    """A Telegram adapter whose bot fails at once."""

    def __init__(self, *args: object) -> None:
        pass

    async def run(self) -> None:
        raise RuntimeError("telegram is down")


@pytest.fixture
def quick_discord(monkeypatch: pytest.MonkeyPatch) -> list[DiscordAdapter]:
    """Discord adapters made by ``run_platforms``, with a short guild wait."""
    made: list[DiscordAdapter] = []

    def quick(*args: object, **kwargs: object) -> DiscordAdapter:
        def client(adapter: DiscordAdapter) -> KozelBot:
            return KozelBot(adapter, guild_ready_timeout=0.01)

        made.append(DiscordAdapter(*args, client_factory=client, **kwargs))  # type: ignore[arg-type]
        return made[-1]

    monkeypatch.setattr(adapters.discord, "DiscordAdapter", quick)
    return made


@pytest.fixture
def redacted(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """The composition root's redaction, on the test's log capture."""
    caplog.set_level(logging.INFO)
    redaction = redact.install([TELEGRAM_TOKEN, DISCORD_TOKEN])
    try:
        yield
    finally:
        for handler in logging.getLogger().handlers:
            handler.removeFilter(redaction)


def settings_for(tmp_path: Path, **values: object) -> Settings:
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        database_url=f"sqlite:///{tmp_path / 'kozel.sqlite3'}",
        computer_delay=0,
        **values,  # type: ignore[arg-type]
    )


def closed_port() -> int:
    """A port on 127.0.0.1 where nothing listens (connections are refused)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def kozel_records(caplog: pytest.LogCaptureFixture, level: int) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "kozel" and r.levelno == level]


class LogWatch(logging.Handler):
    """Wakes a waiting test at each record of the ``kozel`` logger."""

    def __init__(self) -> None:
        super().__init__()
        self.logged = asyncio.Event()

    def emit(self, record: logging.LogRecord) -> None:
        self.logged.set()

    async def until(self, predicate: Callable[[], object], timeout: float = 60.0) -> None:  # noqa: ASYNC109
        async with asyncio.timeout(timeout):
            while not predicate():
                self.logged.clear()
                await self.logged.wait()


@pytest.fixture
def logs() -> Iterator[LogWatch]:
    watch = LogWatch()
    logger = logging.getLogger("kozel")
    logger.addHandler(watch)
    try:
        yield watch
    finally:
        logger.removeHandler(watch)


async def discord_started(dc: FakeDiscord, made: list[DiscordAdapter]) -> None:
    await dc.wait_for(lambda: made, timeout=60)
    async with asyncio.timeout(60):
        await made[0].started.wait()


async def discord_answers_help(dc: FakeDiscord) -> None:
    iid = await dc.slash(ALICE, CHANNEL, "help")
    await dc.wait_for(lambda: dc.responses(iid).content and not dc.responses(iid).loading)


async def test_a_failing_platform_does_not_stop_the_other(
    dc: FakeDiscord,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    logs: LogWatch,
    quick_discord: list[DiscordAdapter],
) -> None:
    telegram = types.ModuleType("adapters.telegram")
    telegram.TelegramAdapter = BrokenTelegram  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "adapters.telegram", telegram)
    settings = settings_for(
        tmp_path, telegram_bot_token="1:telegram", discord_bot_token=DISCORD_TOKEN
    )
    run = asyncio.create_task(main.run_platforms(settings, backoff=QUICK))
    try:
        await discord_started(dc, quick_discord)
        assert dc.commands.get(None)
        # The broken one is started again and again, with a growing pause.
        await logs.until(lambda: len(kozel_records(caplog, logging.ERROR)) >= 4)
        failed = kozel_records(caplog, logging.ERROR)
        assert failed[:4] == [
            f"the Telegram bot stopped with an error; it starts again in {delay:g} s; "
            "the other platforms go on"
            for delay in (0.01, 0.02, 0.04, 0.04)
        ]
        await discord_answers_help(dc)  # Discord still answers
        assert not run.done()
    finally:
        run.cancel()
        with pytest.raises(asyncio.CancelledError):
            await run


async def test_a_refused_connection_at_start_is_retried_and_never_logs_the_token(
    dc: FakeDiscord,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    logs: LogWatch,
    redacted: None,
    quick_discord: list[DiscordAdapter],
) -> None:
    """Regression: a network error at start ended Telegram polling for good."""
    settings = settings_for(
        tmp_path,
        telegram_bot_token=TELEGRAM_TOKEN,
        telegram_api_url=f"http://127.0.0.1:{closed_port()}",
        discord_bot_token=DISCORD_TOKEN,
    )
    run = asyncio.create_task(main.run_platforms(settings, backoff=QUICK))
    try:
        await logs.until(lambda: len(kozel_records(caplog, logging.ERROR)) >= 3)
        assert all("Telegram" in m for m in kozel_records(caplog, logging.ERROR))
        await discord_started(dc, quick_discord)
        await discord_answers_help(dc)
        assert not run.done()
    finally:
        run.cancel()
        with pytest.raises(asyncio.CancelledError):
            await run
    assert "ClientConnectorError" in caplog.text
    assert TELEGRAM_TOKEN not in caplog.text and DISCORD_TOKEN not in caplog.text
    assert TELEGRAM_TOKEN.split(":")[1] not in caplog.text


async def test_a_mistyped_telegram_api_url_never_logs_the_token(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, logs: LogWatch, redacted: None
) -> None:
    """Regression: a TELEGRAM_API_URL without its scheme logged ``/bot<token>/`` in
    aiohttp's URL errors and their tracebacks (the settings now refuse such a URL; the
    filter holds whatever a library logs)."""
    settings = settings_for(tmp_path, telegram_bot_token=TELEGRAM_TOKEN).model_copy(
        update={"telegram_api_url": "api.telegram.org"}  # past the settings' check
    )
    run = asyncio.create_task(main.run_platforms(settings, backoff=QUICK))
    try:
        await logs.until(lambda: len(kozel_records(caplog, logging.ERROR)) >= 2)
    finally:
        run.cancel()
        with pytest.raises(asyncio.CancelledError):
            await run
    assert "InvalidUrlClientError: api.telegram.org/bot***/" in caplog.text  # no token
    assert "Traceback" not in caplog.text  # one line a try (issue 31, point 7)
    assert TELEGRAM_TOKEN not in caplog.text
    assert TELEGRAM_TOKEN.split(":")[1] not in caplog.text


def test_a_traceback_never_logs_the_token(caplog: pytest.LogCaptureFixture, redacted: None) -> None:
    """A failure still logged with its traceback (a bug) has its URLs' tokens masked
    there too (a start without network is one line now: it has none)."""
    try:
        raise ValueError(f"GET /bot{TELEGRAM_TOKEN}/getMe")
    except ValueError:
        logging.getLogger("kozel").exception("the Telegram bot stopped with an error")
    assert "Traceback" in caplog.text and "ValueError: GET /bot***/getMe" in caplog.text
    assert TELEGRAM_TOKEN not in caplog.text
    assert TELEGRAM_TOKEN.split(":")[1] not in caplog.text


async def test_one_bad_token_is_given_up_and_the_other_platform_goes_on(
    dc: FakeDiscord,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    logs: LogWatch,
    quick_discord: list[DiscordAdapter],
) -> None:
    async with FakeTelegram(token="654321:the-right-one") as tg:
        settings = settings_for(
            tmp_path,
            telegram_bot_token=TELEGRAM_TOKEN,
            telegram_api_url=tg.base_url,
            discord_bot_token=DISCORD_TOKEN,
        )
        run = asyncio.create_task(main.run_platforms(settings, backoff=QUICK))
        try:
            await logs.until(lambda: len(kozel_records(caplog, logging.ERROR)) >= 2)
            await discord_started(dc, quick_discord)
            await discord_answers_help(dc)
            refused = (
                "the Telegram bot cannot run: the Bot API server refuses the token "
                "(Unauthorized); check TELEGRAM_BOT_TOKEN and TELEGRAM_API_URL; "
            )
            assert kozel_records(caplog, logging.ERROR) == [
                refused + "it tries again in 0.01 s; the other platforms go on",
                refused + "given up after 2 tries; the other platforms go on",
            ]
            assert [call.status for call in tg.calls] == [401, 401]  # then given up
            assert not run.done()
        finally:
            run.cancel()
            with pytest.raises(asyncio.CancelledError):
                await run


async def test_bad_tokens_on_every_platform_end_the_run_with_an_error(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, log_guard: LogGuard
) -> None:
    log_guard.expect("Improper token")
    async with (
        FakeTelegram(token="654321:the-right-one") as tg,
        FakeDiscord(token="the-right-one") as dc,
    ):
        settings = settings_for(
            tmp_path,
            telegram_bot_token=TELEGRAM_TOKEN,
            telegram_api_url=tg.base_url,
            discord_bot_token=DISCORD_TOKEN,
        )
        with pytest.raises(AllPlatformsFailed, match="Telegram, Discord"):
            async with asyncio.timeout(10):
                await main.run_platforms(settings, backoff=QUICK)
        assert [c.status for c in dc.calls if c.path == "/users/@me"] == [401, 401]
    refused = sorted(kozel_records(caplog, logging.ERROR))
    assert len(refused) == 4
    assert refused[0].startswith("the Discord bot cannot run: Discord refuses the token")
    assert refused[2].startswith("the Telegram bot cannot run: the Bot API server refuses")
    assert sum("given up after 2 tries" in message for message in refused) == 2


def test_env_example_with_only_the_discord_token_runs_discord(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: ``TELEGRAM_BOT_TOKEN=`` (empty, as in .env.example) crashed the process."""
    for name in Settings.model_fields:
        monkeypatch.delenv(name.upper(), raising=False)
    example = (ROOT / ".env.example").read_text()
    assert "\nTELEGRAM_BOT_TOKEN=\n" in example and "\nDISCORD_BOT_TOKEN=\n" in example
    env = tmp_path / ".env"
    env.write_text(
        example.replace("\nDISCORD_BOT_TOKEN=\n", f"\nDISCORD_BOT_TOKEN={DISCORD_TOKEN}\n")
    )
    settings = Settings(_env_file=env)  # type: ignore[call-arg]
    assert settings.telegram_bot_token is None and settings.telegram_webhook_secret is None
    assert settings.discord_bot_token is not None
    assert settings.discord_bot_token.get_secret_value() == DISCORD_TOKEN
    assert settings.telegram_webhook_path is None and not settings.telegram_webhook
    assert settings.has_platform


async def test_the_env_example_settings_run_the_discord_bot(
    dc: FakeDiscord,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    quick_discord: list[DiscordAdapter],
) -> None:
    for name in Settings.model_fields:
        monkeypatch.delenv(name.upper(), raising=False)
    monkeypatch.chdir(tmp_path)
    example = (ROOT / ".env.example").read_text()
    (tmp_path / ".env").write_text(
        example.replace("\nDISCORD_BOT_TOKEN=\n", f"\nDISCORD_BOT_TOKEN={DISCORD_TOKEN}\n")
    )
    run = asyncio.create_task(main.run_platforms(Settings(), backoff=QUICK))
    try:
        await discord_started(dc, quick_discord)
        await discord_answers_help(dc)
    finally:
        run.cancel()
        with pytest.raises(asyncio.CancelledError):
            await run
    assert (tmp_path / "data" / "kozel.sqlite3").exists()


class _Unauthorized(http.server.BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        body = b'{"ok":false,"error_code":401,"description":"Unauthorized"}'
        self.send_response(401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


#: ``python -m bot``'s own ``main`` in a child process, with the pauses between a failing
#: platform's starts cut to hundredths of a second (1 + 2 + 4 + 8 s before the fifth
#: refusal gives the platform up otherwise): what it says and its exit status are the
#: same, the test does not wait 15 s for them.
QUICK_PAUSES = """
import functools, sys
from bot import __main__ as main, supervise
main.Backoff = functools.partial(supervise.Backoff, first=0.01, most=0.02)
sys.exit(main.main())
"""


def run_bot(tmp_path: Path, *, quick: bool = False, **env: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot`` in an empty folder, with only these settings (``quick``: with
    :data:`QUICK_PAUSES`)."""
    clean = {k: v for k, v in os.environ.items() if k.upper() not in _SETTING_NAMES}
    start = ["-c", QUICK_PAUSES] if quick else ["-m", "bot"]
    return subprocess.run(
        [sys.executable, "-W", "default", *start],
        cwd=tmp_path,
        env={**clean, "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


_SETTING_NAMES = {name.upper() for name in Settings.model_fields}


def test_the_process_exits_with_an_error_when_every_platform_refuses(tmp_path: Path) -> None:
    """Regression: the process ended with status 0, so no supervisor restarted it."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Unauthorized)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        done = run_bot(
            tmp_path,
            quick=True,
            TELEGRAM_BOT_TOKEN=TELEGRAM_TOKEN,
            TELEGRAM_API_URL=f"http://127.0.0.1:{server.server_address[1]}",
            DISCORD_BOT_TOKEN="",
            DATABASE_URL=f"sqlite:///{tmp_path / 'kozel.sqlite3'}",
        )
    finally:
        server.shutdown()
        server.server_close()
    assert done.returncode == 1, done.stderr
    assert "the Telegram bot cannot run" in done.stderr
    assert "no platform can run (Telegram): stopping" in done.stderr
    assert "Traceback" not in done.stderr
    assert "never awaited" not in done.stderr
    assert TELEGRAM_TOKEN.split(":")[1] not in done.stderr + done.stdout


def test_bad_settings_are_named_without_a_traceback(tmp_path: Path) -> None:
    done = run_bot(
        tmp_path,
        TELEGRAM_BOT_TOKEN=TELEGRAM_TOKEN,
        TELEGRAM_API_URL="api.telegram.org",
        LOG_LEVEL="LOUD",
        TURN_TIMEOUT="",  # empty: the default
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines() == [
        "Kozel cannot start: fix these settings (in the environment or .env):",
        "  TELEGRAM_API_URL: an http:// or https:// URL with a host, e.g. https://api.telegram.org",
        "  LOG_LEVEL: one of DEBUG, INFO, WARNING, ERROR, CRITICAL",
    ]
    assert TELEGRAM_TOKEN not in done.stderr
    assert not list(tmp_path.iterdir())  # nothing was created


def test_a_gateway_reconnect_is_one_line_without_its_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Issue 31, point 7: with the network gone after the bot connected, discord.py
    logged each reconnect as an error with a traceback, for ever, and each login and
    its voice support in lines of their own. A reconnect is one warning line with the
    failure in a few words; the others are not logged."""
    from adapters.discord.adapter import quiet_reconnects

    quiet_reconnects()
    quiet_reconnects()  # once is enough
    client = logging.getLogger("discord.client")
    assert sum(type(f).__name__ == "QuietReconnects" for f in client.filters) == 1
    with caplog.at_level(logging.INFO, logger="discord"):
        client.warning("PyNaCl is not installed, voice will NOT be supported")
        client.info("logging in using static token")
        try:
            raise OSError(101, "Network is unreachable")
        except OSError:
            client.exception("Attempting a reconnect in %.2fs", 3.21)
    assert [(r.levelname, r.getMessage(), r.exc_info) for r in caplog.records] == [
        ("WARNING", "Attempting a reconnect in 3.21s after OSError: [Errno 101] Network is"
         " unreachable", None),
    ]  # fmt: skip
    assert "Traceback" not in caplog.text
