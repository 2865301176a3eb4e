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


def example_lines() -> dict[str, tuple[str, bool]]:
    """The settings .env.example names: their values, and whether the line is set
    (else commented out, ``# NAME=default``)."""
    text = (ROOT / ".env.example").read_text()
    found = re.findall(r"^(# )?([A-Z][A-Z0-9_]*)=(.*)$", text, re.MULTILINE)
    return {name: (value, not comment) for comment, name, value in found}


def example_names() -> set[str]:
    return set(example_lines())


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


# --- The image (issue 23, point 13): ``cp .env.example .env``, ``docker run --env-file .env``


def dockerfile_env() -> dict[str, str]:
    """The ``ENV`` the Dockerfile sets (``NAME=value`` pairs, continued lines)."""
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    found: dict[str, str] = {}
    for line in text.splitlines():
        if line.startswith("ENV "):
            found.update(pair.split("=", 1) for pair in line[4:].split())
    return found


def test_env_example_overrides_none_of_the_images_settings() -> None:
    """Regression: the example's DATABASE_URL (a path outside the volume, not writable
    by the image's user) and TELEGRAM_WEBHOOK_HOST overrode the image's."""
    image = dockerfile_env()
    assert image["DATABASE_URL"] == "sqlite:////data/kozel.sqlite3"
    assert image["TELEGRAM_WEBHOOK_HOST"] == "0.0.0.0"
    lines = example_lines()
    for name in image.keys() & lines.keys():
        assert not lines[name][1], f".env.example sets {name}, which the image sets"
    # What the example sets at all is for the user to fill in: empty, so unset.
    assert {name: value for name, (value, on) in lines.items() if on} == {
        "TELEGRAM_BOT_TOKEN": "",
        "DISCORD_BOT_TOKEN": "",
        "POSTGRES_PASSWORD": "",
    }
    # Each commented line shows the code's default.
    for name, field in Settings.model_fields.items():
        value, on = lines[name.upper()]
        default = field.get_default()
        if not on:
            assert value == ("" if default is None else str(default)), name


def test_the_images_database_is_on_its_volume_and_its_own() -> None:
    text = (ROOT / "Dockerfile").read_text()
    path = dockerfile_env()["DATABASE_URL"].removeprefix("sqlite:///")
    assert 'VOLUME ["/data"]' in text and path.startswith("/data/")
    assert "chown kozel /data" in text and "USER kozel" in text
    assert Settings(_env_file=None, database_url="sqlite:///" + path)  # type: ignore[call-arg]


def test_dockerignore_keeps_secrets_data_and_history_out_of_the_build() -> None:
    ignored = {
        line.strip()
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }
    assert {".env", "data/", ".git"} <= ignored
