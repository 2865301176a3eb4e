"""Settings from the environment and ``.env`` (one object, built in ``__main__``)."""

from __future__ import annotations

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Everything the people running the bot may set. Tokens are secrets: they are
    never logged or printed (``SecretStr`` hides them in reprs)."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    telegram_bot_token: SecretStr | None = Field(default=None, description="Telegram bot token")
    telegram_api_url: str = Field(
        default="https://api.telegram.org", description="Bot API server base URL"
    )
    discord_bot_token: SecretStr | None = Field(default=None, description="Discord bot token")
    database_url: str = Field(default="sqlite:///./data/kozel.sqlite3")
    default_locale: str = Field(default="ru", pattern="^(ru|en)$")
    turn_timeout: int = Field(default=120, ge=0, le=3600, description="seconds; 0 = none")
    computer_delay: float = Field(default=1.2, ge=0, le=30, description="seconds per move")
    max_missed_turns: int = Field(default=3, ge=1, le=20)
    log_level: str = Field(default="INFO")

    @property
    def has_platform(self) -> bool:
        return bool(self.telegram_bot_token or self.discord_bot_token)
