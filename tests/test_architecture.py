"""Imports follow the data flow: core imports nothing of ours, bot imports core and no
platform library, only adapters import aiogram, discord, aiosqlite and asyncpg; the
product imports no test nor benchmark, and the benchmarks no test; and no two modules,
nor two packages, import each other."""

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


# --- Tests and benchmarks stay out of the product, tests out of the benchmarks ----------

#: Only the repository has these: the wheel holds core, bot and adapters.
REPOSITORY_ONLY = {"tests", "testing", "bench"}


def repository_only_imports(path: Path, forbidden: set[str] = REPOSITORY_ONLY) -> set[str]:
    """The modules of ``forbidden`` packages that ``path`` imports, at load time or
    inside a function (where the benchmarks import the fake servers)."""
    return {module for module in imported_modules(path) if module.split(".")[0] in forbidden}


@pytest.mark.parametrize(
    "path",
    sources("core") + sources("bot") + sources("adapters"),
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_production_code_imports_no_test_nor_benchmark(path: Path) -> None:
    """The installed package holds no tests/, testing/ nor bench/: an import of them
    would fail on a user's machine only."""
    assert repository_only_imports(path) == set()


@pytest.mark.parametrize(
    "path",
    sources("bench") + sources("testing"),
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_benchmarks_and_the_fakes_import_no_test(path: Path) -> None:
    """Issue 22: bench/telegram.py imported tests.fakes; what the benchmarks share
    with the tests lives in testing/, and the test tree is the tests' own."""
    assert repository_only_imports(path, {"tests"}) == set()


def test_the_check_sees_a_test_import_inside_a_function(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import bench.stats\n"
        "async def _telegram() -> None:\n"
        "    from tests.fakes.telegram import FakeTelegram\n"
        "    import testing.fakes\n"
    )
    assert repository_only_imports(bad) == {"bench.stats", "tests.fakes.telegram", "testing.fakes"}
    assert repository_only_imports(bad, {"tests"}) == {"tests.fakes.telegram"}


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


#: What holds a rule set's engine: its contract adapter and the engine's classes. A
#: presenter reads a game through the contract and the rule set's views instead.
ENGINES = {
    "core.yard.ruleset",
    "core.yard.series.Series",
    "core.yard.deal.Deal",
    "core.classic.ruleset",
    "core.classic.game",
    "core.classic.dealing.Dealing",
}


@pytest.mark.parametrize(
    "path",
    [ROOT / "bot" / "presenters" / f"{rule_set}.py" for rule_set in RULE_SET_PACKAGES],
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_a_presenter_reaches_no_engine_past_the_contract(path: Path) -> None:
    """Not ``game.play.series`` nor ``held.game``: what a presenter needs, the contract
    (``seat_view``, ``spectator_view``, ``game_view``) and the rule set's views give it."""
    modules = imported_submodules(path)
    assert {m for m in modules if any(m == e or m.startswith(f"{e}.") for e in ENGINES)} == set()


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


# --- No import cycles: between modules, nor between packages ---------------------------

#: Our top-level packages, whose imports among themselves are walked.
OUR_PACKAGES = ("core", "bot", "adapters", "bench", "testing")


def module_name(path: Path, root: Path = ROOT) -> str:
    """``core/yard/deal.py`` -> ``core.yard.deal``; a package is its ``__init__.py``."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_module(name: str, root: Path = ROOT) -> bool:
    """A module of ours by that name: a .py file, a package or a C extension (.pyi)."""
    where = root.joinpath(*name.split("."))
    return (
        where.with_suffix(".py").is_file()
        or where.with_suffix(".pyi").is_file()
        or (where / "__init__.py").is_file()
    )


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def load_time_imports(path: Path, root: Path = ROOT) -> set[str]:
    """The modules of ours that importing ``path`` imports: its module-level imports
    (in ``try`` and ``if`` blocks too), not those under ``if TYPE_CHECKING:`` nor those
    inside a function (made when it runs, once every module is loaded). ``from package
    import name`` imports the submodule ``package.name`` when there is one, else
    ``package``; relative imports are resolved."""
    name = module_name(path, root)
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()

    def walk(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                continue
            if isinstance(node, ast.If) and _is_type_checking(node):
                walk(node.orelse)
                continue
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parent = package[: len(package) - (node.level - 1)]
                    base = ".".join([*parent, *([base] if base else [])])
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    found.add(sub if is_module(sub, root) else base)
            else:
                walk([child for child in ast.iter_child_nodes(node) if isinstance(child, ast.stmt)])

    walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)).body)
    return {module for module in found if module != name and is_module(module, root)}


def import_graph(
    root: Path = ROOT, packages: tuple[str, ...] = OUR_PACKAGES
) -> dict[str, set[str]]:
    """Each module of ours and the modules of ours it imports when loaded."""
    paths = [path for package in packages for path in sorted((root / package).rglob("*.py"))]
    return {module_name(path, root): load_time_imports(path, root) for path in paths}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            part = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                part.append(other)
                if other == node:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def package_graph(graph: dict[str, set[str]], root: Path = ROOT) -> dict[str, set[str]]:
    """The module graph folded into packages (a module counts as its package). A
    package and the packages inside it are one family: a subpackage using its parent's
    modules, and the parent using the subpackage, is no cycle between packages."""

    def package_of(module: str) -> str:
        is_package = (root.joinpath(*module.split(".")) / "__init__.py").is_file()
        return module if is_package else module.rpartition(".")[0]

    folded: dict[str, set[str]] = {}
    for module, imported in graph.items():
        source = package_of(module)
        for other in imported:
            target = package_of(other)
            related = source == target or source.startswith(f"{target}.")
            if not related and not target.startswith(f"{source}."):
                folded.setdefault(source, set()).add(target)
    return folded


def test_no_import_cycle_between_modules() -> None:
    assert cycles(import_graph()) == []


def test_no_import_cycle_between_packages() -> None:
    """core.yard and its computer players imported each other when these lived in a
    package core.ai of their own: such a pair must not come back."""
    assert cycles(package_graph(import_graph())) == []


def write(root: Path, files: dict[str, str]) -> None:
    for name, source in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)


def test_the_check_sees_an_import_cycle(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "core/__init__.py": "",
            "core/a.py": "from core import b\n",
            "core/b.py": "import core.c\n",
            "core/c.py": "from typing import TYPE_CHECKING\nfrom .a import x\n",
            "core/d.py": "if TYPE_CHECKING:\n    import core.e\n",
            "core/e.py": "import core.d\ndef later():\n    import core.a\n",
        },
    )
    graph = import_graph(tmp_path, ("core",))
    assert graph["core.e"] == {"core.d"}  # a function's import is made later
    assert graph["core.d"] == set()  # TYPE_CHECKING imports aside
    assert cycles(graph) == [["core.a", "core.b", "core.c"]]


def test_the_check_sees_a_cycle_between_packages(tmp_path: Path) -> None:
    # The old core.yard <-> core.ai: no module cycle, yet the packages need each other.
    write(
        tmp_path,
        {
            "core/__init__.py": "",
            "core/yard/__init__.py": "",
            "core/yard/deal.py": "",
            "core/yard/ruleset.py": "from core import ai\n",
            "core/ai/__init__.py": "from core.yard.deal import Deal\n",
            # A subpackage and its parent are one family: no cycle.
            "core/yard/ai/__init__.py": "from core.yard.deal import Deal\n",
            "core/yard/game.py": "from core.yard import ai\n",
        },
    )
    graph = import_graph(tmp_path, ("core",))
    assert cycles(graph) == []
    assert cycles(package_graph(graph, tmp_path)) == [["core.ai", "core.yard"]]


# --- No module reaches for another's private names -------------------------------------


def private_imports(path: Path, root: Path = ROOT) -> set[str]:
    """The ``_private`` names ``path`` imports from another module: what two modules
    share is public. A package's private module (``from core.yard.ai import _playout``,
    its C extension) may be imported by the package's own modules."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                private = alias.name.startswith("_") and not alias.name.startswith("__")
                own = node.module == package and is_module(f"{node.module}.{alias.name}", root)
                if private and not own:
                    found.add(f"{node.module}.{alias.name}")
    return found


@pytest.mark.parametrize(
    "path",
    sources("core") + sources("bot") + sources("adapters") + sources("bench") + sources("testing"),
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_no_module_imports_anothers_private_names(path: Path) -> None:
    """bench/telegram_floor.py took ``_percentile``, ``_rss_mb`` and ``_free_port`` from
    bench/telegram.py (issue 22); they are public now, in bench.stats and bench.common."""
    assert private_imports(path) == set()


def test_the_check_sees_a_private_import(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "core/__init__.py": "",
            "core/deal.py": "_beats = 1\n",
            "core/ai/__init__.py": "",
            "core/ai/_playout.pyi": "",
            "core/ai/rollout.py": "from core.deal import _beats\nfrom core.ai import _playout\n",
            "core/other.py": "from core.ai import _playout\n",
        },
    )
    assert private_imports(tmp_path / "core/ai/rollout.py", tmp_path) == {"core.deal._beats"}
    assert private_imports(tmp_path / "core/other.py", tmp_path) == {"core.ai._playout"}


# --- The service is a package of small jobs ---------------------------------------------

#: The most lines a module of bot/service/ may have (each holds one job).
MAX_SERVICE_MODULE_LINES = 400


@pytest.mark.parametrize("path", sources("bot/service"), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_service_module_grows_past_its_job(path: Path) -> None:
    """bot/service.py grew to one class of 1,500 lines and nine sections; its jobs now
    live one a module (issue 22), and none may grow back into the whole service."""
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_SERVICE_MODULE_LINES, f"{path.relative_to(ROOT)}: {lines} lines"


def test_the_service_is_a_package_of_jobs() -> None:
    assert not (ROOT / "bot" / "service.py").exists()
    assert len(sources("bot/service")) > 1
