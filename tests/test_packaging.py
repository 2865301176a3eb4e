"""The package as users install it: the wheel built from the sdist, installed into a
fresh venv, runs ``kozel play`` and ``kozel replay`` from an empty folder.

uv (a pinned dev tool) builds and installs; the dependencies are the locked ones
(``uv export`` of uv.lock), taken from uv's cache when it has them and from the index
otherwise. The lock itself: ``tests/test_lock.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.i18n import Translator

ROOT = Path(__file__).resolve().parents[1]
#: Variables of the developer's shell that would point the installed bot elsewhere.
_FOREIGN = ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "DATABASE_URL", "DEFAULT_LOCALE")


def _uv() -> str:
    from uv import find_uv_bin  # the dev extra's pinned uv

    return find_uv_bin()


def _run(
    args: list[str], *, cwd: Path, stdin: str | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args,
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=300,
        check=False,
    )


def _ok(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 0, f"{result.args}\n{result.stdout}\n{result.stderr}"
    return result.stdout


@dataclass(frozen=True)
class Installed:
    wheel: Path
    venv: Path
    env: dict[str, str]

    def bin(self, name: str) -> str:
        return str(self.venv / "bin" / name)


def _install(uv: str, venv: Path, args: list[str], env: dict[str, str]) -> None:
    """``uv pip install`` into ``venv``: offline from uv's cache if it can, else online."""
    python = str(venv / "bin" / "python")
    base = [uv, "pip", "install", "--quiet", "--compile-bytecode", "--python", python, *args]
    if _run([*base, "--offline"], cwd=venv, env=env).returncode != 0:
        _ok(_run(base, cwd=venv, env=env))


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    uv = _uv()
    work = tmp_path_factory.mktemp("wheel")
    env = {key: value for key, value in os.environ.items() if key not in _FOREIGN}
    env["UV_PYTHON_DOWNLOADS"] = "never"
    dist = work / "dist"
    _ok(_run([uv, "build", "--quiet", "--out-dir", str(dist), str(ROOT)], cwd=work, env=env))
    (wheel,) = dist.glob("kozel-*.whl")
    venv = work / "venv"
    _ok(_run([uv, "venv", "--quiet", "--python", sys.executable, str(venv)], cwd=work, env=env))
    requirements = work / "requirements.txt"
    export = [uv, "export", "--quiet", "--frozen", "--no-dev", "--no-emit-project"]
    _ok(_run([*export, "--output-file", str(requirements)], cwd=ROOT, env=env))
    _install(uv, venv, ["--requirement", str(requirements)], env)
    _install(uv, venv, ["--no-deps", str(wheel)], env)
    yield Installed(wheel, venv, env)


def _empty_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "empty"
    folder.mkdir()
    return folder


def test_the_wheel_holds_the_packages_and_the_locales_but_not_the_benchmarks(
    installed: Installed,
) -> None:
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    packages = {
        str(init.parent.relative_to(ROOT))
        for top in ("core", "bot", "adapters")
        for init in (ROOT / top).rglob("__init__.py")
    }
    assert {f"{package}/__init__.py" for package in packages} <= names
    for locale in ("ru", "en"):
        assert f"bot/locales/{locale}/kozel.ftl" in names
    # The web table's page: package data beside its server (and Discord's SDK in vendor/).
    static = ROOT / "adapters" / "web" / "static"
    page = {
        f"adapters/web/static/{path.relative_to(static).as_posix()}"
        for path in static.rglob("*")
        if path.is_file()
    }
    assert "adapters/web/static/index.html" in page
    assert "adapters/web/static/vendor/discord-sdk.js" in page
    assert page <= names, page - names
    repository_only = ("bench/", "tests/", "testing/", "locales/")
    assert not [name for name in names if name.startswith(repository_only)]
    assert "kozel-0.1.0.dist-info/licenses/LICENSE" in names


def test_the_installed_package_is_imported_from_the_venv_and_has_no_bench(
    installed: Installed, tmp_path: Path
) -> None:
    code = (
        "import importlib.util, bot, bot.i18n; "
        "print(bot.__file__); print(bot.i18n.default_locales_dir()); "
        "print(importlib.util.find_spec('bench')); print(importlib.util.find_spec('testing'))"
    )
    out = _ok(
        _run([installed.bin("python"), "-c", code], cwd=_empty_folder(tmp_path), env=installed.env)
    )
    module, locales, bench, testing = out.splitlines()
    site = str(installed.venv / "lib")
    assert module.startswith(site)
    assert locales.startswith(site)
    assert locales.endswith("bot/locales")
    assert bench == "None"
    assert testing == "None"  # the fake servers stay in the repository


def test_kozel_play_and_replay_run_from_an_empty_folder(
    installed: Installed, tmp_path: Path
) -> None:
    folder = _empty_folder(tmp_path)
    tr = Translator.from_dir()
    play = [installed.bin("kozel"), "play", "--seats", "bot,bot,bot,bot", "--seed", "3"]
    out = _ok(
        _run([*play, "--lang", "en", "--record", "series.json"], cwd=folder, env=installed.env)
    )
    assert tr.t("en", "console-record-written", path="series.json") in out
    assert "console-" not in out  # every text found, none shown by its id

    result = json.loads(
        _ok(_run([installed.bin("kozel"), "replay", "series.json"], cwd=folder, env=installed.env))
    )
    assert "error" not in result
    record = json.loads((folder / "series.json").read_text(encoding="utf-8"))
    assert len(result["deals"]) == len(record["deals"])
    assert max(result["series"]["loss_points"]) >= 12


def test_kozel_play_with_a_human_reads_piped_input_in_russian(
    installed: Installed, tmp_path: Path
) -> None:
    folder = _empty_folder(tmp_path)
    tr = Translator.from_dir()
    out = _ok(
        _run(
            [installed.bin("kozel"), "play", "--seed", "5", "--lang", "ru", "--delay", "0"],
            cwd=folder,
            stdin="q\n",
            env=installed.env,
        )
    )
    assert tr.t("ru", "console-prompt") in out
    assert tr.t("ru", "console-saved", command="") in out  # then the command line
    assert (folder / "data" / "kozel.sqlite3").is_file()  # the default database, here
