"""One locked set of versions: uv.lock matches pyproject.toml, every install takes it,
the dev tools and uv itself are pinned exactly, and the pins agree everywhere."""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
LOCK = tomllib.loads((ROOT / "uv.lock").read_text(encoding="utf-8"))
MAKEFILE = (ROOT / "Makefile").read_text(encoding="utf-8")
DOCKERFILE = (ROOT / "Dockerfile").read_text(encoding="utf-8")


def _locked(name: str) -> str:
    (version,) = [p["version"] for p in LOCK["package"] if p["name"] == name]
    return str(version)


def test_the_lock_matches_pyproject() -> None:
    from uv import find_uv_bin

    check = [find_uv_bin(), "lock", "--check", "--quiet"]
    result = subprocess.run(
        [*check, "--offline"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    if result.returncode != 0 and "offline" in result.stderr.lower():
        result = subprocess.run(check, cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0, f"uv.lock is stale: run `make lock`\n{result.stderr}"


def test_the_dev_tools_are_pinned_exactly_and_locked_at_their_pins() -> None:
    for line in PYPROJECT["project"]["optional-dependencies"]["dev"]:
        requirement = Requirement(line)
        (spec,) = requirement.specifier
        assert spec.operator == "==", line
        assert _locked(requirement.name) == spec.version, line


def test_uv_is_the_same_version_in_the_makefile_the_dockerfile_and_the_lock() -> None:
    make = re.search(r"^UV_VERSION := (\S+)$", MAKEFILE, re.MULTILINE)
    docker = re.search(r"^ARG UV_VERSION=(\S+)$", DOCKERFILE, re.MULTILINE)
    assert make is not None
    assert docker is not None
    assert make[1] == docker[1] == _locked("uv")


def test_every_install_syncs_the_lock() -> None:
    make = re.findall(r"^\t\$\(UV\) sync ([^\n]*)", MAKEFILE, re.MULTILINE)
    docker = re.findall(r"^RUN uv sync ([^\n]*)", DOCKERFILE, re.MULTILINE)
    syncs = make + docker
    assert len(make) == 2  # make install, make install-dev (which make test runs)
    assert len(docker) == 2
    assert all("--locked" in options for options in syncs), syncs
    assert "pip install -e" not in MAKEFILE
    assert not re.search(r"pip install (?!\"uv==)", DOCKERFILE)


def test_the_license_is_an_spdx_expression_built_by_a_recent_setuptools() -> None:
    assert PYPROJECT["project"]["license"] == "MIT"
    (backend,) = PYPROJECT["build-system"]["requires"]
    requirement = Requirement(backend)
    assert requirement.name == "setuptools"
    assert requirement.specifier.contains("84.2.1")
    assert not requirement.specifier.contains("76.0")  # SPDX `license` needs 77+
