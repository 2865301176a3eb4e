"""compose.yaml (issue 12: the Docker image with PostgreSQL beside it) says what the
bot understands: no Docker engine runs here, so its structure is checked instead. A
bot process per platform, started as ``python -m bot --platform NAME`` under a profile
of that name, each on the one PostgreSQL database, with settings named as in
.env.example; ports published on 127.0.0.1 only, a health check that asks readiness,
no anonymous volume (issue 31, point 15)."""

from __future__ import annotations

import asyncio
import re
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

from adapters.health import HealthServer
from bot.__main__ import parse_args
from bot.memory import MemoryStorage
from bot.metrics import Metrics
from bot.models import Game, Platform
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


def test_each_platform_starts_only_under_its_own_profile(compose: dict[str, Any]) -> None:
    """Regression (issue 31, point 15): every bot service started with ``docker compose
    up``, and one without its token refused to start and was restarted in a loop. Now
    each is a profile of its platform's name; the database starts with any."""
    services = compose["services"]
    assert "profiles" not in services["db"]
    for platform in PLATFORMS:
        assert services[platform.value]["profiles"] == [platform.value]
    # How to name them: on the command line, or in .env (compose reads it too).
    assert example_lines()["COMPOSE_PROFILES"] == ("", False)  # none unless chosen
    for page in ("README.md", "docs/operations.md"):
        assert "docker compose --profile telegram" in (ROOT / page).read_text(), page


def published(service: dict[str, Any]) -> list[tuple[str, int, int]]:
    """A service's published ports as ``(host address, host port, container port)``."""
    found = []
    for entry in service.get("ports", []):
        assert isinstance(entry, str), entry  # the short form, "ADDRESS:HOST:CONTAINER"
        address, host, container = entry.rsplit(":", 2)
        found.append((address, int(host), int(container)))
    return found


def test_every_published_port_is_on_the_loopback_only(compose: dict[str, Any]) -> None:
    """Regression (issue 31, point 15): ``"8081:8081"`` published the web table (and the
    webhook) on every address of the host, though they are plain HTTP meant for a TLS
    proxy in front of them."""
    ports = {name: published(service) for name, service in compose["services"].items()}
    assert ports["telegram"], "the webhook and the web table are published"
    for name, entries in ports.items():
        for address, _, _ in entries:
            assert address == "127.0.0.1", f"{name} publishes on {address or 'every address'}"
    # They are the ports the bot listens on in the container.
    environment = compose["services"]["telegram"]["environment"]
    webhook = Settings.model_fields["telegram_webhook_port"].get_default()
    assert {container for _, _, container in ports["telegram"]} == {
        webhook,
        int(environment["WEB_PORT"]),
    }


class _Down(MemoryStorage):
    async def load_game(self, game_id: int) -> Game | None:
        raise ConnectionError("the database is gone")


async def _check(command: list[str], port: int) -> int:
    """The exit status of the health check's command, run as Docker runs it (in the
    container, whose METRICS_PORT is ``port`` here)."""
    assert command[:2] == ["CMD", "python"]
    arguments = [argument.replace(":9100/", f":{port}/") for argument in command[2:]]
    child = await asyncio.create_subprocess_exec(sys.executable, *arguments)
    return await asyncio.wait_for(child.wait(), timeout=60)  # a hang guard


async def test_the_healthcheck_fails_until_the_process_is_ready(compose: dict[str, Any]) -> None:
    """Regression (issue 31, point 15): the health check asked ``/healthz``, which
    answers while the event loop runs, so a bot whose storage was gone or whose
    platform was not connected stayed healthy. Its own command, run against the
    health endpoint: it fails while the storage does not answer or the platform is
    not connected, and passes once both are."""
    for platform in PLATFORMS:
        bot = compose["services"][platform.value]
        port = bot["environment"]["METRICS_PORT"]
        assert bot["environment"]["METRICS_HOST"] == "0.0.0.0"
        assert f"http://127.0.0.1:{port}/readyz" in " ".join(bot["healthcheck"]["test"])
    command = compose["services"]["telegram"]["healthcheck"]["test"]
    connected = [False]
    for storage, ready, status in [
        (MemoryStorage(), False, "unhealthy"),
        (_Down(), True, "unhealthy"),
        (MemoryStorage(), True, "healthy"),
    ]:
        connected[0] = ready
        server = HealthServer(Metrics(), storage, {"telegram": lambda: connected[0]}, port=0)
        await server.start()
        try:
            code = await _check(command, server.port)
        finally:
            await server.stop()
        assert ("healthy" if code == 0 else "unhealthy") == status, (storage, ready)


def test_the_readme_points_at_it() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "compose.yaml" in readme and "docker compose --profile" in readme


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


def test_the_images_database_is_in_data_and_its_own() -> None:
    text = (ROOT / "Dockerfile").read_text()
    path = dockerfile_env()["DATABASE_URL"].removeprefix("sqlite:///")
    assert path.startswith("/data/")
    assert "chown kozel /data" in text and "USER kozel" in text
    assert Settings(_env_file=None, database_url="sqlite:///" + path)  # type: ignore[call-arg]
    # The way to keep it: a named volume on /data.
    assert "docker run --env-file .env -v kozel-data:/data" in (ROOT / "README.md").read_text()


def test_no_volume_is_anonymous(compose: dict[str, Any]) -> None:
    """Regression (issue 31, point 15): the Dockerfile's ``VOLUME /data`` gave every
    container an anonymous volume, the compose bots too, which keep nothing there
    (their database is PostgreSQL). The image declares none; compose mounts only
    volumes it names."""
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert not re.search(r"^\s*VOLUME\b", dockerfile, re.IGNORECASE | re.MULTILINE)
    declared = set(compose["volumes"])
    mounted = [
        entry for service in compose["services"].values() for entry in service.get("volumes", [])
    ]
    assert mounted
    for entry in mounted:
        assert isinstance(entry, str) and entry.count(":") >= 1, entry
        assert entry.split(":")[0] in declared, f"{entry}: not a named volume"


def test_dockerignore_keeps_secrets_data_and_history_out_of_the_build() -> None:
    ignored = {
        line.strip()
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }
    assert {".env", "data/", ".git"} <= ignored
