"""Settings: from the environment and .env, documented, tokens kept secret."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.settings import Settings, database_url_problem, settings_of, settings_problem
from bot.thinking import cpu_count

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "123456:ABC-very-secret-token"
DISCORD_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GvErYs.discord-very-secret-token"


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
    monkeypatch.setenv("DISCORD_BOT_TOKEN", DISCORD_TOKEN)
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    with caplog.at_level(logging.INFO):
        logging.getLogger("kozel").info("settings: %s %r", settings, settings)
    for token in (TOKEN, DISCORD_TOKEN):
        assert token not in repr(settings) and token not in str(settings)
        assert token not in settings.model_dump_json()
        assert token not in caplog.text


def test_bad_values_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEFAULT_LOCALE", "de")
    with pytest.raises(ValidationError):
        Settings(_env_file=None)  # type: ignore[call-arg]


def test_env_example_documents_every_setting() -> None:
    """Each one as a line to fill in (the tokens) or, commented out, with its default."""
    example = (ROOT / ".env.example").read_text()
    for name in Settings.model_fields:
        assert f"\n{name.upper()}=" in example or f"\n# {name.upper()}=" in example, name


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
    assert problem.startswith(f"Kozel cannot start: {name.upper()}: ")
    assert len(problem.splitlines()) == 1


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
        "sqlite:////var/lib/kozel/kozel.sqlite3",
        "sqlite:///:memory:",
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


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("nonsense", "a URL, not a bare path"),
        ("data/kozel.sqlite3", "a URL, not a bare path"),
        ("sqlite://x", "sqlite: takes three slashes"),
        ("sqlite:x.db", "sqlite: takes three slashes"),
        ("sqlite:///", "sqlite: takes three slashes"),
        ("sqlite:///k.db?mode=ro", "without ?options"),
        ("postgresql:/kozel:hunter2@db/kozel", "postgresql: takes two slashes"),
        ("postgres:kozel:hunter2@db/kozel", "postgres: takes two slashes"),
        ("postgresql://kozel:hunter2@db:port/kozel", "the port is a number from 1 to 65535"),
        ("postgresql+asyncpg://kozel:hunter2@db/kozel", "not a postgresql+asyncpg: URL"),
        ("mysql://kozel:hunter2@db/kozel", "not a mysql: URL"),
    ],
)
def test_a_database_url_that_names_no_database_is_refused_in_one_line(
    monkeypatch: pytest.MonkeyPatch, url: str, said: str
) -> None:
    """Regression: ``nonsense`` made an SQLite file ./nonsense, and
    ``postgresql:/user:pw@host/db`` (one slash) a local SQLite file."""
    monkeypatch.setenv("DATABASE_URL", url)
    with pytest.raises(ValidationError) as refused:
        Settings(_env_file=None)  # type: ignore[call-arg]
    problem = settings_problem(refused.value)
    assert problem.startswith("Kozel cannot start: DATABASE_URL: ") and said in problem
    assert len(problem.splitlines()) == 1
    assert "hunter2" not in problem and "hunter2" not in str(refused.value)


@pytest.mark.parametrize(
    "token",
    ["garbage", "654321", "654321:", ":secret", "12a:secret", "123456:se cret", "123:тест"],
)
def test_a_telegram_token_that_cannot_be_one_is_refused(
    monkeypatch: pytest.MonkeyPatch, token: str
) -> None:
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", token)
    with pytest.raises(ValidationError) as refused:
        Settings(_env_file=None)  # type: ignore[call-arg]
    problem = settings_problem(refused.value)
    assert problem.startswith("Kozel cannot start: TELEGRAM_BOT_TOKEN: not a bot token")
    assert token not in problem and token not in str(refused.value)


@pytest.mark.parametrize(
    "token",
    [
        "two words",
        "discord-very-secret-token",  # no dots
        f"Bot {DISCORD_TOKEN}",  # as the Authorization header writes it
        "bm90IGFuIGlk.GvErYs.discord-very-secret-token",  # "not an id"
        "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ..discord-very-secret-token",  # a part missing
        "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.Gv=rYs.discord-very-secret-token",
        "M.GvErYs.discord-very-secret-token",  # no base64 has that length
    ],
)
def test_a_discord_token_that_cannot_be_one_is_refused(
    monkeypatch: pytest.MonkeyPatch, token: str
) -> None:
    """Issue 31, point 7: Discord's token gets the shape check Telegram's has: one
    line, never the token (a well-formed one is tried against the network)."""
    monkeypatch.setenv("DISCORD_BOT_TOKEN", token)
    with pytest.raises(ValidationError) as refused:
        Settings(_env_file=None)  # type: ignore[call-arg]
    problem = settings_problem(refused.value)
    assert problem.startswith("Kozel cannot start: DISCORD_BOT_TOKEN: not a bot token")
    assert "\n" not in problem
    assert token not in problem and token not in str(refused.value)


@pytest.mark.parametrize(
    ("name", "value", "said"),
    [
        ("DEFAULT_LOCALE", "de", "ru or en"),
        ("LOG_FORMAT", "xml", "text or json"),
        ("TELEGRAM_WEBHOOK_PATH", "hook", "a path that begins with /"),
        ("DISCORD_API_URL", "discord.com/api", "an http:// or https:// URL"),
    ],
)
def test_settings_errors_are_words_not_regular_expressions(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str, said: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError) as refused:
        Settings(_env_file=None)  # type: ignore[call-arg]
    problem = settings_problem(refused.value)
    assert problem.startswith(f"Kozel cannot start: {name}: {said}")
    assert "pattern" not in problem and "^" not in problem and "$" not in problem


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


# --- Issue 31, point 8: settings that cannot work together are refused ------------------


@pytest.mark.parametrize(
    ("given", "name", "said"),
    [
        ({"web_public_url": "https://kozel.example.org/"}, "WEB_PUBLIC_URL", "without WEB_PORT"),
        ({"web_app_name": "table"}, "WEB_APP_NAME", "without WEB_PORT"),
        ({"web_port": 8081, "web_app_name": "table"}, "WEB_APP_NAME", "an https:// address"),
        (
            {"web_port": 8081, "web_app_name": "table", "web_public_url": "HTTP://kozel.org/"},
            "WEB_APP_NAME",
            "a Mini App needs WEB_PUBLIC_URL to be an https:// address",
        ),
        (
            {"telegram_webhook_url": "http://kozel.example.org/tg"},
            "TELEGRAM_WEBHOOK_URL",
            "an https:// URL: Telegram posts updates to https only",
        ),
        (
            {"telegram_webhook_url": "https://kozel.example.org:8080/tg"},
            "TELEGRAM_WEBHOOK_URL",
            "a URL on port 443, 80, 88 or 8443",
        ),
    ],
)
def test_web_and_webhook_settings_that_cannot_work_are_refused_in_one_line(
    given: dict[str, object], name: str, said: str
) -> None:
    """Regression: a public URL or a Mini App without WEB_PORT (no web table at all), a
    Mini App on an http page, an http webhook on Telegram's own API were all taken
    silently, and the feature just did not work."""
    with pytest.raises(ValidationError) as refused:
        Settings(_env_file=None, **given)  # type: ignore[arg-type]
    problem = settings_problem(refused.value)
    assert problem.startswith(f"Kozel cannot start: {name}: ") and said in problem, problem
    assert len(problem.splitlines()) == 1


def test_web_and_webhook_settings_that_work_together_are_taken() -> None:
    mini_app = Settings(
        _env_file=None,  # type: ignore[call-arg]
        web_port=8081,
        web_public_url="https://kozel.example.org",
        web_app_name="table",
    )
    assert mini_app.web_url == "https://kozel.example.org/" and mini_app.web_app_name == "table"
    plain = Settings(_env_file=None, web_port=8081, web_public_url="http://kozel.example.org/")  # type: ignore[call-arg]
    assert plain.web_url == "http://kozel.example.org/"  # plain links: no Mini App asked
    # A Bot API server of one's own in --local mode posts to http, on any port.
    local = Settings(
        _env_file=None,  # type: ignore[call-arg]
        telegram_api_url="http://127.0.0.1:8081",
        telegram_webhook_url="http://127.0.0.1:8080/telegram",
    )
    assert local.telegram_webhook_url == "http://127.0.0.1:8080/telegram"
    assert Settings(
        _env_file=None,  # type: ignore[call-arg]
        telegram_webhook_url="https://kozel.example.org:8443/tg",
    ).telegram_webhook


def test_a_bad_web_port_is_said_once_not_again_by_the_settings_that_need_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("WEB_PORT", "abc")
    monkeypatch.setenv("WEB_PUBLIC_URL", "https://kozel.example.org/")
    monkeypatch.setenv("WEB_APP_NAME", "table")
    with pytest.raises(ValidationError) as refused:
        Settings(_env_file=None)  # type: ignore[call-arg]
    (line,) = settings_problem(refused.value).splitlines()
    assert line.startswith("Kozel cannot start: WEB_PORT: ")


# --- Issue 31, point 9: a command reads only the settings it uses ------------------------


def test_settings_of_reads_only_the_settings_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEB_PORT", "abc")
    monkeypatch.setenv("METRICS_PORT", "x")
    monkeypatch.setenv("DEFAULT_LOCALE", "en")
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", TOKEN)
    settings = settings_of({"default_locale"})
    assert settings.default_locale == "en"
    assert settings.web_port is None and settings.telegram_bot_token is None  # defaults
    monkeypatch.setenv("DEFAULT_LOCALE", "de")
    with pytest.raises(ValidationError) as refused:
        settings_of({"default_locale"})
    (line,) = settings_problem(refused.value).splitlines()
    assert line.startswith("Kozel cannot start: DEFAULT_LOCALE: ru or en")


# --- Issue 31, point 13: a PostgreSQL URL's real fault -------------------------------------


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("postgresql://kozel:hunter2@x@db/kozel", "the password has an '@'"),
        ("postgresql://kozel:@hunter2@db/kozel", "the password has an '@'"),
        ("postgresql://ko@zel:hunter2@db/kozel", "the user name has an '@'"),
        ("postgresql://kozel:hunter2@[::1/kozel", "the host's '[' is not closed"),
        ("postgresql://kozel:hunter2@[::1:5432/kozel", "the host's '[' is not closed"),
        ("postgresql://kozel:hunter2@::1]/kozel", "the host has a ']' without its '['"),
        ("postgresql://kozel:hunter2@[db]/kozel", "brackets hold an IPv6 address"),
        ("postgresql://kozel:hunter2@[::1]5432/kozel", "after the host's ']'"),
        ("postgresql://kozel:hunter2@::1/kozel", "an IPv6 address is written in brackets"),
        ("postgresql://kozel:hunter2@db:99999/kozel", "the port is a number from 1 to 65535"),
        ("postgresql://kozel:hunter2@db:0/kozel", "the port is a number from 1 to 65535"),
        ("postgresql://kozel:hun/ter2@db/kozel", "the password has a '/', '?' or '#'"),
        ("postgresql://kozel:hun?ter2@db/kozel", "the password has a '/', '?' or '#'"),
        ("postgresql://kozel:hun#ter2@db/kozel", "the password has a '/', '?' or '#'"),
        ("postgresql://kozel:hunter2@db/kozel?sslmode", "?options written name=value"),
        ("postgresql://kozel:hunter2@db/kozel?port=x", "?port= is a number"),
    ],
)
def test_a_postgresql_url_names_its_real_fault_never_the_password(url: str, said: str) -> None:
    """Regression: a password with an '@' made asyncpg look up the host "ss@db" ("Name
    or service not known"); an unclosed '[' was "a port that is a number"."""
    problem = database_url_problem(url)
    assert problem is not None and problem.startswith(said), problem
    assert "hunter2" not in problem and "ter2" not in problem


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://kozel:hunter%402@db/kozel",
        "postgresql://kozel:hunter2@[::1]:5432/kozel",
        "postgresql://kozel:hunter2@[fe80::1%25eth0]/kozel",
        "postgresql://kozel:hunter2@db1:5432,db2:5433/kozel",
        "postgresql://kozel:hunter2@db:/kozel",
        "postgresql://kozel@db/kozel?sslmode=require&port=5433",
        "postgresql:///kozel?host=/run/postgresql",
        "postgresql://",
    ],
)
def test_postgresql_urls_that_read_as_written_are_taken(url: str) -> None:
    assert database_url_problem(url) is None
