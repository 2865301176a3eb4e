"""compose.yaml (issue 12: the Docker image with PostgreSQL beside it) says what the
bot understands: no Docker engine runs here, so its structure is checked instead. A
bot process per platform, started as ``python -m bot --platform NAME``, each on the
one PostgreSQL database, with settings named as in .env.example."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

from bot.__main__ import parse_args
from bot.models import Platform
from bot.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
#: The platforms a bot process runs (``python -m bot --platform``); the console is a game.
PLATFORMS = (Platform.TELEGRAM, Platform.DISCORD)
#: ``${NAME}``, ``${NAME:-default}``, ``${NAME:?message}``: compose's interpolation.
INTERPOLATED = re.compile(r"\$\{([A-Z_][A-Z0-9_]*)(?::?[-?][^}]*)?\}")


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    loaded = yaml.safe_load((ROOT / "compose.yaml").read_text())  # merge keys resolved
    assert isinstance(loaded, dict)
    return loaded


def example_names() -> set[str]:
    text = (ROOT / ".env.example").read_text()
    return set(re.findall(r"^([A-Z][A-Z0-9_]*)=", text, re.MULTILINE))


def test_a_bot_per_platform_and_postgresql_beside_them(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert set(services) == {"db", *(platform.value for platform in PLATFORMS)}
    assert services["db"]["image"].startswith("postgres:")
    assert "pgdata" in compose["volumes"]
    for platform in PLATFORMS:
        bot = services[platform.value]
        command = bot["command"]
        assert command[:3] == ["python", "-m", "bot"]
        assert parse_args(command[3:]).platform == [platform.value]  # as the bot parses it
        assert bot["build"] == "." and bot["image"] == "kozel"  # the Dockerfile beside it
        assert bot["env_file"] == ".env"
        assert bot["depends_on"] == {"db": {"condition": "service_healthy"}}


def test_the_bots_share_the_database_the_server_makes(compose: dict[str, Any]) -> None:
    db = compose["services"]["db"]["environment"]
    for platform in PLATFORMS:
        url = compose["services"][platform.value]["environment"]["DATABASE_URL"]
        parts = urlsplit(INTERPOLATED.sub("secret", url))
        assert parts.scheme == "postgresql" and parts.hostname == "db" and parts.port == 5432
        assert parts.username == db["POSTGRES_USER"] and parts.path == f"/{db['POSTGRES_DB']}"
        assert INTERPOLATED.findall(url) == INTERPOLATED.findall(db["POSTGRES_PASSWORD"])


def test_every_variable_is_named_as_in_env_example(compose: dict[str, Any]) -> None:
    names = example_names()
    settings = {name.upper() for name in Settings.model_fields}
    for platform in PLATFORMS:
        environment = compose["services"][platform.value]["environment"]
        assert set(environment) <= settings & names, set(environment) - (settings & names)
        assert all(isinstance(value, str) for value in environment.values())  # as compose wants
    interpolated = set(INTERPOLATED.findall((ROOT / "compose.yaml").read_text()))
    assert interpolated and interpolated <= names, interpolated - names


def test_the_healthcheck_asks_the_metrics_port(compose: dict[str, Any]) -> None:
    for platform in PLATFORMS:
        bot = compose["services"][platform.value]
        port = bot["environment"]["METRICS_PORT"]
        assert bot["environment"]["METRICS_HOST"] == "0.0.0.0"
        assert f"127.0.0.1:{port}/healthz" in " ".join(bot["healthcheck"]["test"])


def test_the_readme_points_at_it() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "compose.yaml" in readme and "docker compose up" in readme
