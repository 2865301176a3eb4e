"""``python -m bot --platform telegram|discord``: one platform per process."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest

from bot import __main__ as main
from bot.models import Platform
from bot.service import GameService
from bot.settings import Settings


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
        discord_bot_token="discord",
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


def test_an_unknown_platform_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main.parse_args(["--platform", "icq"])
    assert stopped.value.code == 2
    assert "invalid choice: 'icq'" in capsys.readouterr().err
