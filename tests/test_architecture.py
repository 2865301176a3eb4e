"""Imports follow the data flow: core imports nothing of ours, bot imports core and no
platform library, only adapters import aiogram, discord, aiosqlite and asyncpg."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PLATFORM_LIBRARIES = {"aiogram", "discord", "aiosqlite", "aiohttp", "sqlite3", "asyncpg"}
#: The composition root and the command line wire adapters in, lazily.
ENTRY_POINTS = {"bot/__main__.py", "bot/cli.py"}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def sources(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("path", sources("core"), ids=lambda p: str(p.relative_to(ROOT)))
def test_core_imports_nothing_of_ours_or_of_a_platform(path: Path) -> None:
    for module in imported_modules(path):
        top = module.split(".")[0]
        assert top not in {"bot", "adapters", "bench", "tests"}, module
        assert top not in PLATFORM_LIBRARIES | {"pydantic_settings", "asyncio"}, module


@pytest.mark.parametrize("path", sources("bot"), ids=lambda p: str(p.relative_to(ROOT)))
def test_bot_imports_core_and_no_platform(path: Path) -> None:
    relative = str(path.relative_to(ROOT))
    for module in imported_modules(path):
        top = module.split(".")[0]
        assert top not in PLATFORM_LIBRARIES, f"{relative} imports {module}"
        if relative not in ENTRY_POINTS:
            assert top not in {"adapters", "tests", "bench"}, f"{relative} imports {module}"


def test_the_check_sees_a_wrong_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import aiogram\nfrom adapters.sqlite import SqliteStorage\n")
    assert imported_modules(bad) == {"aiogram", "adapters.sqlite"}
