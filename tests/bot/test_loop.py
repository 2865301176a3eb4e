"""The bot's event loop: uvloop by default, asyncio's own when asked or missing."""

from __future__ import annotations

import asyncio
import gc
import importlib.util
import os
import signal
import threading
from pathlib import Path

import pytest
import uvloop

from bot import __main__ as main
from bot import loop
from bot.settings import Settings


async def _kind() -> str:
    return type(asyncio.get_running_loop()).__module__.split(".")[0]


def test_the_bot_runs_on_uvloop_by_default() -> None:
    assert Settings(_env_file=None).event_loop == "uvloop"  # type: ignore[call-arg]
    assert loop.run(_kind()) == "uvloop"
    assert isinstance(loop.run(_loop()), uvloop.Loop)


def test_event_loop_asyncio_runs_the_standard_loop() -> None:
    assert loop.run(_kind(), "asyncio") == "asyncio"


def test_without_uvloop_installed_the_standard_loop_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "uvloop" else real(name, *a)
    )
    assert loop.available("uvloop") == "asyncio"
    assert loop.run(_kind()) == "asyncio"


def test_a_bad_event_loop_setting_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EVENT_LOOP", "trio")
    with pytest.raises(ValueError, match="event_loop"):
        Settings(_env_file=None)  # type: ignore[call-arg]


def test_python_m_bot_runs_the_platforms_on_the_setting_s_loop(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env
    seen: list[str] = []

    async def run_platforms(settings: Settings, platforms: object) -> None:
        seen.append(await _kind())

    monkeypatch.setattr(main, "run_platforms", run_platforms)
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", "1:telegram")
    monkeypatch.setenv("DATABASE_URL", "sqlite:///:memory:")
    for kind in ("uvloop", "asyncio"):
        monkeypatch.setenv("EVENT_LOOP", kind)
        assert main.main(["--platform", "telegram"]) == 0
    assert seen == ["uvloop", "asyncio"]


async def _loop() -> asyncio.AbstractEventLoop:
    return asyncio.get_running_loop()


def test_settle_heap_freezes_the_start_and_collects_young_objects_less_often() -> None:
    saved = gc.get_threshold()
    try:
        gc.unfreeze()
        loop.settle_heap()
        assert gc.get_freeze_count() > 1000  # the modules and what they made
        assert gc.get_threshold() == loop.THRESHOLDS
        assert loop.THRESHOLDS[0] > 700  # CPython's (an earlier test may have set others)
    finally:
        gc.unfreeze()
        gc.set_threshold(*saved)


@pytest.mark.parametrize("kind", ["uvloop", "asyncio"])
def test_sigterm_cancels_the_stoppable_work_which_closes_and_the_handlers_come_back(
    kind: loop.LoopKind,
) -> None:
    closed: list[str] = []

    async def work() -> str:
        try:
            os.kill(os.getpid(), signal.SIGTERM)
            await asyncio.Event().wait()  # until cancelled
        finally:
            closed.append("closed")
        return "never"

    before = signal.getsignal(signal.SIGTERM)
    assert loop.run(loop.stoppable(work()), kind) is None
    assert closed == ["closed"]
    assert signal.getsignal(signal.SIGTERM) is before
    assert loop.run(loop.stoppable(_kind()), kind) == kind  # an ending work: its result


def test_sigint_stops_the_work_unless_the_process_was_started_with_it_ignored(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert loop.stop_signals() == [signal.SIGTERM, signal.SIGINT]
    monkeypatch.setattr(signal, "getsignal", lambda signum: signal.SIG_IGN)
    assert loop.stop_signals() == [signal.SIGTERM]


def test_stoppable_work_runs_where_signals_cannot_be_handled() -> None:
    """Out of the main thread (an embedding program, a test's worker) the loop cannot
    take the signals: the work runs as it would without them."""
    results: list[str | None] = []
    worker = threading.Thread(target=lambda: results.append(loop.run(loop.stoppable(_kind()))))
    worker.start()
    worker.join(timeout=60)
    assert results == ["uvloop"]
