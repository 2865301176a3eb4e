"""What fails in a command or a press is logged as an error (so the guard fails the
test) and the user is told; nothing is silent."""

from __future__ import annotations

from typing import Any

import pytest

from bot.interactions import Reply
from bot.outputs import PressReply
from tests.adapters.discord.conftest import LogGuard
from tests.adapters.discord.harness import ALICE, BOB, Harness


async def test_a_failing_command_is_logged_and_the_user_told(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, log_guard: LogGuard
) -> None:
    async def broken(*args: Any, **kwargs: Any) -> Reply:
        raise RuntimeError("help is broken")

    monkeypatch.setattr(harness.interactions, "help", broken)
    log_guard.expect("help is broken")
    rec = await harness.slash(ALICE, "help")
    assert rec.content == harness.t("err-generic")
    assert [r.name for r in log_guard.records()] == ["adapters.discord.client"]


async def test_a_failing_press_is_logged_and_the_user_told(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, log_guard: LogGuard
) -> None:
    _, table = await harness.open_table()

    async def broken(*args: Any, **kwargs: Any) -> PressReply:
        raise RuntimeError("press is broken")

    monkeypatch.setattr(harness.interactions, "press", broken)
    log_guard.expect("press is broken")
    rec = await harness.click(BOB, table, harness.t("lobby-join-a"))
    assert rec.ephemeral and rec.content == harness.t("err-generic")
    assert [r.name for r in log_guard.records()] == ["adapters.discord.presses"]
