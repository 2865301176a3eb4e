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


# --- The application speaks the rule-set contract only (core.ruleset) ------------------

#: Each rule set's own packages in the core: only its presenter module imports them.
RULE_SET_PACKAGES = {
    "yard": ("core.yard",),  # its computer players too: core.yard.ai
    "classic": ("core.classic",),
}


def imported_submodules(path: Path) -> set[str]:
    """Every module ``path`` imports, also those named after ``from package import``
    (``from core import yard`` imports ``core.yard``)."""
    found = imported_modules(path)
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def rule_set_imports(modules: set[str]) -> dict[str, set[str]]:
    """The imported modules that belong to a rule set's own packages, by rule set."""
    found: dict[str, set[str]] = {}
    for rule_set, packages in RULE_SET_PACKAGES.items():
        hits = {m for m in modules if any(m == p or m.startswith(p + ".") for p in packages)}
        if hits:
            found[rule_set] = hits
    return found


def test_every_rule_set_is_listed() -> None:
    from core.ruleset import rule_set_ids

    assert set(rule_set_ids()) == set(RULE_SET_PACKAGES)


@pytest.mark.parametrize(
    "path",
    sources("bot") + sources("adapters"),
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_bot_and_adapters_import_no_rule_set_but_through_its_presenter(path: Path) -> None:
    """bot/ and adapters/ hold a game through core.ruleset; only a rule set's presenter
    (bot/presenters/<rule set id>.py) imports that rule set's own packages."""
    relative = path.relative_to(ROOT)
    found = rule_set_imports(imported_submodules(path))
    own = relative.parent == Path("bot/presenters") and relative.stem in RULE_SET_PACKAGES
    allowed = {relative.stem} if own else set()
    assert set(found) <= allowed, f"{relative} imports {found}"


def test_the_check_sees_a_rule_set_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import core.classic\nfrom core.yard.actions import Action\nfrom core import ruleset\n"
        "from core.ruleset import get_rule_set\nimport core.yardstick\nfrom core.yard import ai\n"
    )
    assert rule_set_imports(imported_submodules(bad)) == {
        "yard": {"core.yard.actions", "core.yard.actions.Action", "core.yard", "core.yard.ai"},
        "classic": {"core.classic"},
    }
