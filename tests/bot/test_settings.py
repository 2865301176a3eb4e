"""Settings: from the environment and .env, documented, tokens kept secret."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.settings import Settings, settings_problem
from bot.thinking import cpu_count

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "123456:ABC-very-secret-token"


def test_defaults_without_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    for name in Settings.model_fields:
        monkeypatch.delenv(name.upper(), raising=False)
    settings = Settings()
    assert settings.telegram_bot_token is None and settings.discord_bot_token is None
    assert not settings.has_platform
    assert settings.database_url == "sqlite:///./data/kozel.sqlite3"
    assert settings.telegram_api_url == "https://api.telegram.org"
    assert settings.default_locale == "ru"


def test_environment_and_dotenv(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text(f"TELEGRAM_BOT_TOKEN={TOKEN}\nTURN_TIMEOUT=30\n")
    monkeypatch.setenv("DEFAULT_LOCALE", "en")
    settings = Settings()
    assert settings.telegram_bot_token is not None
    assert settings.telegram_bot_token.get_secret_value() == TOKEN
    assert settings.turn_timeout == 30 and settings.default_locale == "en"
    assert settings.has_platform


def test_tokens_never_show_in_reprs_or_logs(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", TOKEN)
    monkeypatch.setenv("DISCORD_BOT_TOKEN", TOKEN)
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    with caplog.at_level(logging.INFO):
        logging.getLogger("kozel").info("settings: %s %r", settings, settings)
    assert TOKEN not in repr(settings) and TOKEN not in str(settings)
    assert TOKEN not in settings.model_dump_json()
    assert TOKEN not in caplog.text


def test_bad_values_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEFAULT_LOCALE", "de")
    with pytest.raises(ValidationError):
        Settings(_env_file=None)  # type: ignore[call-arg]


def test_env_example_documents_every_setting() -> None:
    example = (ROOT / ".env.example").read_text()
    for name in Settings.model_fields:
        assert f"\n{name.upper()}=" in example, name


def test_empty_values_are_unset(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Regression: ``TELEGRAM_BOT_TOKEN=`` (as in .env.example) was a token "", which
    crashed the process."""
    monkeypatch.chdir(tmp_path)
    for name in Settings.model_fields:
        monkeypatch.setenv(name.upper(), "")
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings == Settings(_env_file=None)  # type: ignore[call-arg]
    defaults = {name: field.get_default() for name, field in Settings.model_fields.items()}
    assert settings.model_dump() == defaults
    assert Settings(_env_file=None, telegram_bot_token="").telegram_bot_token is None  # type: ignore[call-arg]


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("telegram_api_url", "api.telegram.org"),
        ("telegram_api_url", "ftp://api.telegram.org"),
        ("telegram_api_url", "https://"),
        ("telegram_api_url", "https://api.telegram.org/?x=1"),
        ("telegram_webhook_url", "kozel.example.org/hook"),
        ("log_level", "LOUD"),
    ],
)
def test_urls_and_the_log_level_are_checked(name: str, value: str) -> None:
    with pytest.raises(ValidationError) as refused:
        Settings(_env_file=None, **{name: value})  # type: ignore[call-arg]
    problem = settings_problem(refused.value)
    assert f"  {name.upper()}: " in problem


def test_a_refused_secret_is_not_repeated() -> None:
    with pytest.raises(ValidationError) as refused:
        Settings(_env_file=None, telegram_webhook_secret="my secret!")  # type: ignore[call-arg]
    problem = settings_problem(refused.value)
    assert "TELEGRAM_WEBHOOK_SECRET: 1-256 characters" in problem
    assert "my secret!" not in problem


def test_urls_and_log_levels_that_are_fine() -> None:
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        telegram_api_url="http://127.0.0.1:8081/",
        telegram_webhook_url="https://kozel.example.org/tg",
        log_level="debug",
    )
    assert settings.telegram_api_url == "http://127.0.0.1:8081"
    assert settings.telegram_webhook_url == "https://kozel.example.org/tg"
    assert settings.log_level == "DEBUG"


@pytest.mark.parametrize(
    "url",
    [
        "sqlite:///./data/kozel.sqlite3",
        "data/kozel.sqlite3",
        "postgresql://kozel:secret@db:5432/kozel",
        "postgres:///kozel?host=/run/postgresql",
    ],
)
def test_database_urls_of_sqlite_and_postgresql(monkeypatch: pytest.MonkeyPatch, url: str) -> None:
    monkeypatch.setenv("DATABASE_URL", url)
    assert Settings(_env_file=None).database_url == url  # type: ignore[call-arg]


def test_a_database_password_never_shows_in_reprs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql://kozel:hunter2@db/kozel")
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert "hunter2" not in repr(settings) and "hunter2" not in str(settings)


def test_a_database_url_of_another_kind_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "mysql://kozel@db/kozel")
    with pytest.raises(ValidationError, match="postgresql://"):
        Settings(_env_file=None)  # type: ignore[call-arg]


def test_default_rule_set_is_one_the_bot_has(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DEFAULT_RULE_SET", raising=False)
    assert Settings(_env_file=None).default_rule_set == "yard"  # type: ignore[call-arg]
    monkeypatch.setenv("DEFAULT_RULE_SET", " Classic ")
    assert Settings(_env_file=None).default_rule_set == "classic"  # type: ignore[call-arg]
    monkeypatch.setenv("DEFAULT_RULE_SET", "poker")
    with pytest.raises(ValidationError) as refused:
        Settings(_env_file=None)  # type: ignore[call-arg]
    assert "DEFAULT_RULE_SET: one of yard, classic" in settings_problem(refused.value)


def test_computer_processes_one_per_cpu_unless_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COMPUTER_PROCESSES", raising=False)
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.computer_processes is None and settings.computer_workers == cpu_count() >= 1
    monkeypatch.setenv("COMPUTER_PROCESSES", "0")  # the old worker thread
    assert Settings(_env_file=None).computer_workers == 0  # type: ignore[call-arg]
    monkeypatch.setenv("COMPUTER_PROCESSES", "")
    assert Settings(_env_file=None).computer_workers == cpu_count()  # type: ignore[call-arg]
    monkeypatch.setenv("COMPUTER_PROCESSES", "-1")
    with pytest.raises(ValidationError):
        Settings(_env_file=None)  # type: ignore[call-arg]
