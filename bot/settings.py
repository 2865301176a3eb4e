"""Settings from the environment and ``.env`` (one object, built in ``__main__``)."""

from __future__ import annotations

import base64
import ipaddress
import re
from collections.abc import Collection
from typing import Literal
from urllib.parse import parse_qs, urlsplit

from pydantic import (
    Field,
    HttpUrl,
    SecretStr,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
    field_validator,
)
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.flood import PRESSES
from bot.thinking import THINKING_DEADLINE, cpu_count
from core.ruleset import rule_set_ids

#: The URL schemes of PostgreSQL's ``DATABASE_URL``.
POSTGRES_SCHEMES = ("postgresql", "postgres")
#: What ``DATABASE_URL`` takes, in words.
DATABASE_URL_FORMS = (
    "sqlite:///<relative path>, sqlite:////<absolute path>"
    " or postgresql://<user>:<password>@<host>/<database>"
)
#: The ports of the webhook URLs Telegram's own Bot API posts to.
TELEGRAM_WEBHOOK_PORTS = (443, 80, 88, 8443)
#: What Telegram takes as a webhook's secret token.
_WEBHOOK_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")
#: A Telegram bot token: the bot's id, a colon, then the secret part.
_TELEGRAM_TOKEN = re.compile(r"[0-9]+:[A-Za-z0-9_-]+")
#: A Telegram Mini App's short name (BotFather's /newapp).
_WEB_APP_NAME = re.compile(r"[A-Za-z0-9_]{3,30}")
#: A Discord bot token: three parts of base64url joined by dots, the first the bot's
#: id (a number) in base64.
_DISCORD_TOKEN = re.compile(r"([A-Za-z0-9_-]+)\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+")
#: The levels ``LOG_LEVEL`` takes (in any case).
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
_HTTP_URL: TypeAdapter[HttpUrl] = TypeAdapter(HttpUrl)


def _http_url(value: str, example: str = "https://api.telegram.org") -> str:
    """``value`` if it is an http(s) URL with a host, without a trailing slash."""
    try:
        _HTTP_URL.validate_python(value)
    except ValidationError:
        raise ValueError(f"an http:// or https:// URL with a host, e.g. {example}") from None
    if urlsplit(value).query or urlsplit(value).fragment:
        raise ValueError("a URL without ?query or #fragment")
    return value.rstrip("/")


def is_discord_token(token: str) -> bool:
    """Whether ``token`` has the shape of a Discord bot token: the bot's id in base64,
    a dot, then two more parts of base64url joined by a dot.

    >>> is_discord_token("MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.fAkE-tOkEn_fOr-tHe-dOcS")
    True
    >>> is_discord_token("Bot MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.fAkE-tOkEn_fOr-tHe-dOcS")
    False
    >>> is_discord_token("bm90IGFuIGlk.GaBcDe.fAkE")  # "not an id"
    False
    """
    match = _DISCORD_TOKEN.fullmatch(token)
    if match is None:
        return False
    first = match.group(1)
    try:
        bot_id = base64.urlsafe_b64decode(first + "=" * (-len(first) % 4))
    except ValueError:  # binascii.Error: a length base64 never has
        return False
    return bot_id.isdigit()


def _is_telegrams_api(url: str) -> bool:
    """Whether ``url`` is Telegram's own Bot API (not a server of one's own)."""
    return (urlsplit(url).hostname or "").lower() == "api.telegram.org"


def _web_table_off(info: ValidationInfo) -> bool:
    """Whether ``WEB_PORT`` is unset (a refused one is said on its own)."""
    return "web_port" in info.data and info.data["web_port"] is None


def database_url_problem(url: str) -> str | None:
    """Why ``url`` names no database Kozel opens (in words that never repeat the URL:
    it may hold a password), or None when it names one.

    >>> database_url_problem("sqlite:///./data/kozel.sqlite3") is None
    True
    >>> database_url_problem("postgresql://kozel:secret@db:5432/kozel") is None
    True
    >>> print(database_url_problem("postgresql:/kozel:secret@db/kozel"))
    postgresql: takes two slashes: postgresql://<user>:<password>@<host>/<database>
    >>> print(database_url_problem("kozel.sqlite3"))
    a URL, not a bare path: sqlite:///<relative path>, sqlite:////<absolute path> or postgresql://<user>:<password>@<host>/<database>
    """
    scheme, colon, rest = url.partition(":")
    scheme = scheme.lower()
    if not colon or not scheme.isascii() or not scheme.replace("+", "").isalnum():
        return f"a URL, not a bare path: {DATABASE_URL_FORMS}"
    if scheme == "sqlite":
        if not rest.startswith("///") or len(rest) == 3:
            return (
                "sqlite: takes three slashes then the file's path:"
                " sqlite:///data/kozel.sqlite3, or four for an absolute path:"
                " sqlite:////var/lib/kozel/kozel.sqlite3"
            )
        if "?" in rest or "#" in rest:
            return "an SQLite URL without ?options or #fragment: sqlite:///<path>"
        return None
    if scheme in POSTGRES_SCHEMES:
        if not rest.startswith("//"):
            return f"{scheme}: takes two slashes: {scheme}://<user>:<password>@<host>/<database>"
        return postgres_url_problem(url)
    return f"{DATABASE_URL_FORMS}, not a {scheme}: URL"


def postgres_url_problem(url: str) -> str | None:
    """Why the ``postgresql://`` URL ``url`` does not say what it means to asyncpg,
    which reads the user and password up to the *first* ``@`` and the host up to the
    first ``/``, ``?`` or ``#`` (so a password with one of those is read as a host): in
    words that never repeat the URL; None when it reads as written.

    >>> print(postgres_url_problem("postgresql://kozel:p@ss@db/kozel"))
    the password has an '@', which ends it there: write it as %40
    >>> print(postgres_url_problem("postgresql://kozel:secret@[::1/kozel"))
    the host's '[' is not closed: an IPv6 address is written in brackets, [::1]
    >>> postgres_url_problem("postgresql://kozel:p%40ss@[::1]:5432,db:5433/kozel") is None
    True
    """
    scheme, _, rest = url.partition("://")
    end = next((at for at, sign in enumerate(rest) if sign in "/?#"), len(rest))
    authority, after = rest[:end], rest[end:]
    credentials, at, hosts = authority.rpartition("@")
    if "@" in credentials:
        user, colon, _ = credentials.partition(":")
        whose = "password" if colon and "@" not in user else "user name"
        return f"the {whose} has an '@', which ends it there: write it as %40"
    for host in hosts.split(","):
        problem = _host_problem(host)
        if problem is None:
            continue
        if not at and "@" in after:  # "user:pa/ss@db": "user:pa" read as a host and port
            return (
                "the password has a '/', '?' or '#', which ends the user and host part"
                " there: write them as %2F, %3F and %23"
            )
        return problem
    query = urlsplit(url).query
    try:
        options = parse_qs(query, strict_parsing=True) if query else {}
    except ValueError:
        return f"?options written name=value, joined by &: {scheme}:///kozel?host=/run/postgresql"
    if not all(_is_port(port) for ports in options.get("port", []) for port in ports.split(",")):
        return "?port= is a number from 1 to 65535"
    return None


def _host_problem(host: str) -> str | None:
    """What is wrong with one host of a PostgreSQL URL (``db``, ``db:5432``,
    ``[::1]:5432``, or empty: the local socket), or None."""
    port = ""
    if host.startswith("["):
        address, closed, tail = host[1:].partition("]")
        if not closed:
            return "the host's '[' is not closed: an IPv6 address is written in brackets, [::1]"
        try:
            ipaddress.IPv6Address(address)
        except ValueError:
            return "brackets hold an IPv6 address, e.g. [::1]; a name or IPv4 address goes without"
        if tail and not tail.startswith(":"):
            return "after the host's ']' comes nothing or ':' and the port: [::1]:5432"
        port = tail[1:]
    elif "]" in host:
        return "the host has a ']' without its '[': an IPv6 address is written [::1]"
    else:
        _, _, port = host.partition(":")
        if ":" in port:
            return "an IPv6 address is written in brackets: [::1] or [::1]:5432"
    if port and not _is_port(port):
        return "the port is a number from 1 to 65535: <host>:5432"
    return None


def _is_port(text: str) -> bool:
    return text.isascii() and text.isdigit() and 1 <= int(text) <= 65535


class Settings(BaseSettings):
    """Everything the people running the bot may set. Tokens are secrets: they are
    never logged or printed (``SecretStr`` hides them in reprs)."""

    #: An empty value (``TELEGRAM_BOT_TOKEN=`` as in ``.env.example``) means unset. A
    #: refused value is not repeated in the error (a URL may hold a password).
    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        env_ignore_empty=True,
        hide_input_in_errors=True,
    )

    telegram_bot_token: SecretStr | None = Field(default=None, description="Telegram bot token")
    telegram_api_url: str = Field(
        default="https://api.telegram.org", description="Bot API server base URL"
    )
    telegram_webhook_url: str | None = Field(
        default=None,
        description="public URL Telegram posts updates to (webhook mode); unset: long polling",
    )
    telegram_webhook_secret: SecretStr | None = Field(
        default=None, description="the webhook's secret token; unset: a random one per start"
    )
    telegram_webhook_host: str = Field(default="127.0.0.1", description="address to listen on")
    telegram_webhook_port: int = Field(default=8080, ge=1, le=65535)
    telegram_webhook_path: str | None = Field(
        default=None, description="path to serve; unset: the URL's path"
    )
    telegram_global_rate: int = Field(
        default=30,
        ge=1,
        le=10_000,
        description="new messages a second into users' private chats together (bulk"
        " notifications, Telegram's about 30 a second)",
    )
    discord_bot_token: SecretStr | None = Field(default=None, description="Discord bot token")
    discord_api_url: str | None = Field(
        default=None,
        description="Discord REST API base (a rate-limit proxy); unset: Discord's own",
    )
    database_url: str = Field(
        default="sqlite:///./data/kozel.sqlite3",
        description="sqlite:///<path> (one process) or postgresql://... (several)",
        repr=False,  # a PostgreSQL URL may hold a password
    )
    default_locale: str = Field(default="ru", description="ru or en")
    turn_timeout: int = Field(default=120, ge=0, le=3600, description="seconds; 0 = none")
    computer_delay: float = Field(default=1.2, ge=0, le=30, description="seconds per move")
    computer_level: Literal["easy", "normal", "strong"] = Field(
        default="strong", description="the computer players' level at new tables"
    )
    computer_processes: int | None = Field(
        default=None,
        ge=0,
        le=256,
        description="worker processes the strong computers think in; unset: one per CPU;"
        " 0: a worker thread of the bot's process",
    )
    computer_think_timeout: float = Field(
        default=THINKING_DEADLINE,
        gt=0,
        le=600,
        description="seconds a computer may think about one decision (its search takes"
        " under a second); past it, it plays the safe action and its worker is replaced",
    )
    default_rule_set: str = Field(
        default="yard",
        description="the rules of a table opened by /kozel without naming any: yard or classic",
    )
    max_missed_turns: int = Field(default=3, ge=1, le=20)
    press_rate: float = Field(
        default=PRESSES.rate,
        ge=0,
        le=1000,
        description="button presses a second one user may keep up after a burst of"
        f" {PRESSES.burst:.0f} (past it he is ignored for a while); 0: no limit",
    )
    log_level: str = Field(default="INFO", description="DEBUG, INFO, WARNING, ERROR or CRITICAL")
    log_format: str = Field(default="text", description="text or json")
    metrics_port: int | None = Field(
        default=None, ge=0, le=65535, description="/healthz, /readyz, /metrics; unset: off"
    )
    metrics_host: str = Field(default="127.0.0.1", description="address the metrics listen on")
    web_port: int | None = Field(
        default=None, ge=0, le=65535, description="the web table's HTTP port; unset: no web table"
    )
    web_host: str = Field(default="127.0.0.1", description="address the web table listens on")
    web_public_url: str | None = Field(
        default=None,
        description="the https URL players open (a reverse proxy's); unset:"
        " http://WEB_HOST:WEB_PORT/",
    )
    web_app_name: str | None = Field(
        default=None,
        description="the Telegram Mini App's short name (BotFather's /newapp); unset: Telegram"
        " tables carry a signed link instead",
    )
    web_auth_max_age: int = Field(
        default=3600,
        ge=10,
        le=7 * 24 * 3600,
        description="seconds a Telegram Mini App's launch data (initData) stays good",
    )
    event_loop: Literal["uvloop", "asyncio"] = Field(
        default="uvloop", description="uvloop (where installed) or asyncio's own loop"
    )

    @field_validator("*", mode="before")
    @classmethod
    def _empty_is_unset(cls, value: object, info: ValidationInfo) -> object:
        """An empty value passed in (as the environment's are, see ``env_ignore_empty``)
        means unset: the field's default."""
        if value == "" and info.field_name is not None:
            return cls.model_fields[info.field_name].get_default()
        return value

    @field_validator("telegram_api_url")
    @classmethod
    def _api_url(cls, value: str) -> str:
        return _http_url(value)

    @field_validator("telegram_webhook_url")
    @classmethod
    def _webhook_url(cls, value: str | None, info: ValidationInfo) -> str | None:
        """An http(s) URL; https when Telegram's own Bot API posts to it (only a Bot
        API server of one's own, in ``--local`` mode, posts to http)."""
        if value is None:
            return None
        url = _http_url(value, "https://kozel.example.org/telegram")
        api = info.data.get("telegram_api_url")
        if api is None or not _is_telegrams_api(api):
            return url
        parts = urlsplit(url)
        if parts.scheme == "http":
            raise ValueError(
                "an https:// URL: Telegram posts updates to https only (http only to a Bot"
                " API server of your own in --local mode, TELEGRAM_API_URL)"
            )
        if (parts.port or 443) not in TELEGRAM_WEBHOOK_PORTS:
            raise ValueError(
                "a URL on port 443, 80, 88 or 8443, the ports Telegram posts updates to"
                " (your proxy forwards to TELEGRAM_WEBHOOK_PORT)"
            )
        return url

    @field_validator("web_public_url")
    @classmethod
    def _web_public_url(cls, value: str | None, info: ValidationInfo) -> str | None:
        """An http(s) URL, kept with one trailing slash (the page's own address), of a
        web table that runs (``WEB_PORT``)."""
        if value is None:
            return None
        if _web_table_off(info):
            raise ValueError(
                "set without WEB_PORT, and without it there is no web table: set WEB_PORT"
                " (the port your proxy forwards to), or leave WEB_PUBLIC_URL empty"
            )
        return _http_url(value, "https://kozel.example.org/") + "/"

    @field_validator("web_app_name")
    @classmethod
    def _web_app_name(cls, value: str | None, info: ValidationInfo) -> str | None:
        """A Mini App's short name, of a web table that runs at an https address."""
        if value is not None and not _WEB_APP_NAME.fullmatch(value):
            raise ValueError("the Mini App's short name: 3-30 characters of A-Z, a-z, 0-9 and _")
        if value is not None and _web_table_off(info):
            raise ValueError(
                "set without WEB_PORT, and without it there is no web table for the Mini App"
                " to open: set WEB_PORT and an https:// WEB_PUBLIC_URL, or leave WEB_APP_NAME"
                " empty"
            )
        public = info.data.get("web_public_url", "")  # absent: refused itself
        if value is not None and (public is None or urlsplit(public).scheme == "http"):
            raise ValueError(
                "a Mini App needs WEB_PUBLIC_URL to be an https:// address (Telegram opens"
                " Mini Apps over https only): set it, or leave WEB_APP_NAME empty"
            )
        return value

    @field_validator("discord_api_url")
    @classmethod
    def _discord_api_url(cls, value: str | None) -> str | None:
        """Checked as the Telegram API's URL is, and kept as it is written."""
        if value is not None:
            _http_url(value, "https://discord.com/api/v10")
            if any(c.isspace() for c in value):
                raise ValueError("an http:// or https:// URL without spaces")
        return value

    @field_validator("telegram_webhook_path")
    @classmethod
    def _webhook_path(cls, value: str | None) -> str | None:
        if value is not None and (not value.startswith("/") or any(c.isspace() for c in value)):
            raise ValueError("a path that begins with / and has no spaces, e.g. /telegram")
        return value

    @field_validator("default_locale")
    @classmethod
    def _locale(cls, value: str) -> str:
        if value not in ("ru", "en"):
            raise ValueError("ru or en")
        return value

    @field_validator("log_format")
    @classmethod
    def _log_format(cls, value: str) -> str:
        if value not in ("text", "json"):
            raise ValueError("text or json")
        return value

    @field_validator("telegram_bot_token")
    @classmethod
    def _telegram_token(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not _TELEGRAM_TOKEN.fullmatch(value.get_secret_value()):
            raise ValueError(
                "not a bot token: @BotFather gives one as the bot's number, a colon, then"
                " letters, digits, _ and - (123456789:AAH...)"
            )
        return value

    @field_validator("discord_bot_token")
    @classmethod
    def _discord_token(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not is_discord_token(value.get_secret_value()):
            raise ValueError(
                "not a bot token: the Developer Portal (Bot, Reset Token) gives one as three"
                " parts of letters, digits, _ and - joined by dots, the first being the bot's"
                " id in base64 (MTA4...Nzg5.GhIjKl.MnOp...), without Bot in front"
            )
        return value

    @field_validator("metrics_port", "web_port")
    @classmethod
    def _a_port_of_its_own(cls, value: int | None, info: ValidationInfo) -> int | None:
        """The Telegram webhook, the metrics and the web table listen on ports of
        their own (0: any free one): a port an earlier one has is refused."""
        taken = {"METRICS_PORT": info.data.get("metrics_port")}
        if info.data.get("telegram_webhook_url") is not None:
            taken["TELEGRAM_WEBHOOK_PORT"] = info.data.get("telegram_webhook_port")
        for name, port in taken.items():
            if value and port == value:
                raise ValueError(
                    f"{value} is {name}'s too: the web table, the metrics and the Telegram"
                    " webhook each need a port of their own"
                )
        return value

    @field_validator("log_level")
    @classmethod
    def _log_level(cls, value: str) -> str:
        if value.upper() not in LOG_LEVELS:
            raise ValueError(f"one of {', '.join(LOG_LEVELS)}")
        return value.upper()

    @field_validator("default_rule_set")
    @classmethod
    def _rules_we_have(cls, value: str) -> str:
        ids = rule_set_ids()
        if value.strip().lower() not in ids:
            raise ValueError(f"one of {', '.join(ids)}")
        return value.strip().lower()

    @field_validator("telegram_webhook_secret")
    @classmethod
    def _secret_telegram_takes(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not _WEBHOOK_SECRET.fullmatch(value.get_secret_value()):
            raise ValueError("1-256 characters of A-Z, a-z, 0-9, _ and -")
        return value

    @field_validator("database_url")
    @classmethod
    def _a_database_we_know(cls, value: str) -> str:
        problem = database_url_problem(value)
        if problem is not None:
            raise ValueError(problem)
        return value

    @property
    def computer_workers(self) -> int:
        """``COMPUTER_PROCESSES``, or one per CPU when it is unset."""
        if self.computer_processes is None:
            return cpu_count()
        return self.computer_processes

    @property
    def has_platform(self) -> bool:
        return bool(self.telegram_bot_token or self.discord_bot_token)

    @property
    def web_url(self) -> str | None:
        """The URL the web table's page is opened at (with a trailing slash), or None
        when the web table is off (no ``WEB_PORT``)."""
        if self.web_port is None:
            return None
        if self.web_public_url is not None:
            return self.web_public_url
        return f"http://{self.web_host}:{self.web_port}/"

    @property
    def telegram_webhook(self) -> bool:
        """Whether Telegram posts updates to the bot (else the bot polls)."""
        return self.telegram_webhook_url is not None

    @property
    def webhook_path(self) -> str:
        """The path the webhook server serves: the setting, else the URL's path."""
        if self.telegram_webhook_path is not None:
            return self.telegram_webhook_path
        return urlsplit(self.telegram_webhook_url or "").path or "/"


def settings_problem(error: ValidationError) -> str:
    """What is wrong with the settings, by their environment names (values are not
    repeated: some are secrets): one line for one setting, else a line a setting."""
    problems = []
    for problem in error.errors():
        name = ".".join(str(part) for part in problem["loc"]).upper() or "SETTINGS"
        problems.append((name, problem["msg"].removeprefix("Value error, ")))
    if len(problems) == 1:
        ((name, message),) = problems
        return f"Kozel cannot start: {name}: {message} (fix it in the environment or .env)"
    lines = ["Kozel cannot start: fix these settings (in the environment or .env):"]
    lines.extend(f"  {name}: {message}" for name, message in problems)
    return "\n".join(lines)


def settings_of(names: Collection[str]) -> Settings:
    """The settings with only ``names`` read from the environment and ``.env``, every
    other one at its default: a command that uses only these (the terminal game,
    ``kozel rules``) is not stopped by a bad value of a setting it never reads. Raises
    :class:`~pydantic.ValidationError` for a bad value of one of ``names``."""
    unread = {
        name: field.get_default()
        for name, field in Settings.model_fields.items()
        if name not in names
    }
    return Settings(**unread)
