"""The README and docs/ say what the code does: every default they name is the code's
default, every relative link leads somewhere, the README stays a short door and shows the
table and hand the presenters draw today.

How a default is marked, so that this test finds it:

- in a table whose header has a ``default`` column, keyed by its first column: a setting
  (``TELEGRAM_BOT_TOKEN``), a search setting (``SearchSettings.worlds``) or a classic
  option (``praise``). ``—`` (an em dash, then any words) is "unset" (None);
- in prose, by one of the sentences of :data:`PHRASES` below. A sentence rewritten so that
  it no longer matches fails the test as well: change the phrase here with it.
"""

from __future__ import annotations

import inspect
import os
import re
import unicodedata
from collections.abc import Callable, Iterator
from enum import Enum
from pathlib import Path

import pytest

from adapters.health import STORAGE_TIMEOUT
from adapters.telegram.outbox import REACHABLE_KEPT, Pacing
from bot import presenters
from bot.i18n import Translator
from bot.models import TURN_TIMEOUTS
from bot.presenters.common import COMMANDS
from bot.reliability import WINDOW
from bot.service import GameService
from bot.settings import Settings
from bot.supervise import Backoff
from bot.thinking import MAX_BROKEN_POOLS, WORKER_NICENESS
from core.classic.ai import EasyClassic
from core.classic.options import ClassicOptions
from core.classic.search import CLASSIC_STRONG, ClassicSearchSettings
from core.ruleset import DEFAULT_LEVEL, LEVEL_NAMES
from core.yard.ai import EasyPlayer
from core.yard.ai.search import STRONG, SearchSettings
from core.yard.deal import TRUMP_INDEX_RANGE
from core.yard.series import LOSS_LIMIT
from tests.docs_sample import sample

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").rglob("*.md"))
PAGES = [README, *DOCS]
MAX_README_LINES = 400


def text(page: str) -> str:
    return (ROOT / page).read_text(encoding="utf-8")


# --- tables ---------------------------------------------------------------------------

_CELL_SPLIT = re.compile(r"(?<!\\)\|")


def tables(page: str) -> Iterator[tuple[list[str], list[list[str]]]]:
    """Every markdown table of a page: its header's cells (lower case) and its rows."""
    block: list[list[str]] = []
    for line in [*text(page).splitlines(), ""]:
        if line.startswith("|"):
            block.append([cell.strip() for cell in _CELL_SPLIT.split(line.strip())[1:-1]])
            continue
        if len(block) >= 2 and set("".join(block[1])) <= set("-: "):
            yield [cell.lower() for cell in block[0]], block[2:]
        block = []


def defaults_table(page: str, first: str) -> dict[str, str]:
    """The ``default`` column of the page's tables whose first column is ``first``,
    by the first column's name (backticks dropped)."""
    found: dict[str, str] = {}
    for header, rows in tables(page):
        if header[0] == first and "default" in header:
            column = header.index("default")
            for row in rows:
                found[row[0].strip("`")] = row[column]
    assert found, f"{page} has no table of {first!r} with a default column"
    return found


def same(code: object, cell: str) -> bool:
    """Whether a table cell states the code's value."""
    if cell.startswith("—"):
        return code is None
    value = cell.strip("`").replace(",", "")
    if code is None:
        return value == "none"
    if isinstance(code, bool):
        return value in (("true", "on") if code else ("false", "off"))
    if isinstance(code, Enum):
        code = code.value
    if isinstance(code, int | float):
        try:
            return float(value) == float(code)
        except ValueError:
            return False
    return value == str(code)


def test_the_readme_settings_table_is_the_code_s_defaults() -> None:
    # The web table's settings are in its own page's table (docs/web.md).
    table = defaults_table("README.md", "variable") | defaults_table("docs/web.md", "variable")
    fields = Settings.model_fields
    assert set(table) == {name.upper() for name in fields}, "a setting missing or unknown"
    for name, cell in table.items():
        default = fields[name.lower()].get_default()
        assert same(default, cell), f"README: {name} default {cell!r}, the code's {default!r}"


def test_env_example_holds_the_defaults() -> None:
    """.env.example names every setting with its default (an empty value: unset), set
    (the tokens) or left commented as ``# NAME=default`` (the rest, so that the code's
    and the image's defaults hold)."""
    fields = Settings.model_fields
    named = set()
    for line in text(".env.example").splitlines():
        found = re.fullmatch(r"(?:# )?([A-Z][A-Z_]+)=(\S*)", line)
        if found is None:
            continue
        name, value = found.groups()
        if name in {"POSTGRES_PASSWORD", "COMPOSE_PROFILES"}:  # compose.yaml's, not the bot's
            continue
        named.add(name)
        default = fields[name.lower()].get_default()
        stated = value == "" if default is None else same(default, value)
        assert stated, f".env.example: {name}={value!r}, the code's {default!r}"
    assert named == {name.upper() for name in fields}


@pytest.mark.parametrize(
    ("prefix", "settings", "used"),
    [
        ("SearchSettings", SearchSettings, STRONG),
        ("ClassicSearchSettings", ClassicSearchSettings, CLASSIC_STRONG),
    ],
)
def test_the_search_settings_tables_are_the_code_s_defaults(
    prefix: str, settings: type, used: object
) -> None:
    """docs/ai.md lists every search setting with the strong level's value."""
    table = {
        name.removeprefix(prefix + "."): cell
        for name, cell in defaults_table("docs/ai.md", "setting").items()
        if name.startswith(prefix + ".")
    }
    fields = list(settings.__dataclass_fields__)  # type: ignore[attr-defined]
    assert set(table) == set(fields), f"docs/ai.md: {prefix} fields missing or unknown"
    for name, cell in table.items():
        value = getattr(used, name)
        assert same(value, cell), f"docs/ai.md: {prefix}.{name} {cell!r}, the code's {value!r}"


def test_the_house_rules_table_is_the_classic_options() -> None:
    table = defaults_table("docs/rules.md", "option")
    fields = ClassicOptions.model_fields
    assert set(table) == set(fields), "docs/rules.md: a classic option missing or unknown"
    for name, cell in table.items():
        default = fields[name].get_default()
        assert same(default, cell), f"docs/rules.md: {name} {cell!r}, the code's {default!r}"


def test_the_levels_table_names_the_levels() -> None:
    (levels,) = [rows for header, rows in tables("docs/ai.md") if header[0] == "level"]
    names = tuple(row[0].strip("`") for row in levels)
    assert names == LEVEL_NAMES


def test_the_commands_table_names_every_command() -> None:
    (commands,) = [rows for header, rows in tables("README.md") if header[0] == "command"]
    listed = set(re.findall(r"`/(\w+)", " ".join(row[0] for row in commands)))
    assert set(COMMANDS) <= listed


# --- defaults named in prose ----------------------------------------------------------


def _number(word: str) -> float:
    return float(word.replace(",", ""))


def _numbers(words: str) -> tuple[float, ...]:
    return tuple(_number(n) for n in re.findall(r"[\d,]*\d", words))


def _pauses_before_giving_up() -> float:
    """The seconds of pauses a platform never reached waits before it is given up, to
    the half minute."""
    backoff = Backoff()
    pause = backoff.delays()
    return round(sum(pause() for _ in range(backoff.unreachable - 1)) / 30) * 30


def _english(number: int) -> str:
    return ("zero", "one", "two", "three", "four", "five", "six")[number]


#: (page, a sentence that names a default, with the value as its first group, how to
#: read the group, the code's value).
PHRASES: list[tuple[str, str, Callable[[str], object], object]] = [
    (
        "README.md",
        r"turn timeouts: (0 \(none\), [\d, ]+ or \d+) seconds",
        _numbers,
        tuple(float(t) for t in TURN_TIMEOUTS),
    ),
    ("README.md", r"\(([\d,]+) worlds a yard decision", _number, STRONG.worlds),
    ("README.md", r"([\d,]+) worlds a classic play\)", _number, CLASSIC_STRONG.worlds),
    ("README.md", r"the team that reaches (\d+) loss points", _number, LOSS_LIMIT),
    (
        "README.md",
        r"\*\*`(\w+)`\*\* — Козёл на 4 карты, дворовые правила \(the default\)",
        str,
        Settings.model_fields["default_rule_set"].get_default(),
    ),
    (
        "docs/rules.md",
        r"the \*\*(\w+)\*\* game, \*Козёл на 4 карты, дворовые правила\* \(the default\)",
        str,
        Settings.model_fields["default_rule_set"].get_default(),
    ),
    (
        "docs/operations.md",
        r"`TELEGRAM_GLOBAL_RATE` \(default (\d+)\)",
        _number,
        Settings.model_fields["telegram_global_rate"].get_default(),
    ),
    (
        "docs/operations.md",
        r"`TELEGRAM_GLOBAL_RATE` \(default (\d+)\)",
        _number,
        Pacing().global_limit / Pacing().global_window,
    ),
    (
        "docs/ai.md",
        r"`COMPUTER_LEVEL`\s+\(default `(\w+)`\)",
        str,
        Settings.model_fields["computer_level"].get_default(),
    ),
    ("docs/ai.md", r"`COMPUTER_LEVEL`\s+\(default `(\w+)`\)", str, DEFAULT_LEVEL),
    (
        "docs/ai.md",
        r"random legal move in (\d+) %",
        lambda w: _number(w) / 100,
        EasyPlayer().careless,
    ),
    (
        "docs/ai.md",
        r"random legal card in (\d+) %",
        lambda w: _number(w) / 100,
        inspect.signature(EasyClassic).parameters["careless"].default,
    ),
    ("docs/ai.md", r"`os\.nice\((\d+)\)`", _number, WORKER_NICENESS),
    ("docs/ai.md", r"after (\w+) pools in a\s+row broke", str, _english(MAX_BROKEN_POOLS)),
    ("docs/rules.md", r"until a team has \*\*(\d+) loss points\*\*", _number, LOSS_LIMIT),
    (
        "docs/rules.md",
        r"the\s+stock's cards (\d+ to \d+) from the top",
        _numbers,
        (TRUMP_INDEX_RANGE.start + 1, TRUMP_INDEX_RANGE.stop),
    ),
    (
        "docs/operations.md",
        r"refreshed at most once every (\d+) seconds",
        _number,
        Pacing().refresh,
    ),
    (
        "docs/operations.md",
        r"a sliding window of (\d+) a minute per group",
        _number,
        Pacing().group_limit * 60 / Pacing().group_window,
    ),
    (
        "docs/operations.md",
        r"(one) request a second into each chat",
        lambda w: 1.0,
        Pacing().chat_interval,
    ),
    (
        "docs/operations.md",
        r"started again after (\d+) s, then 2, 4, … up to (?:\d+) minutes",
        _number,
        Backoff().first,
    ),
    (
        "docs/operations.md",
        r"started again after \d+ s, then 2, 4, … up to (\d+) minutes",
        lambda w: _number(w) * 60,
        Backoff().most,
    ),
    ("docs/operations.md", r"is tried\s+the same way (\d+) times", _number, Backoff().refusals),
    (
        "docs/operations.md",
        r"is given up after (\d+) tries in a row",
        _number,
        Backoff().unreachable,
    ),
    (
        "docs/operations.md",
        r"in a row \(about ([\d.]+) minutes of pauses\)",
        lambda w: _number(w) * 60,
        _pauses_before_giving_up(),
    ),
    (
        "docs/operations.md",
        r"cached for the ([\d,]+) most recent users",
        _number,
        inspect.signature(GameService).parameters["user_cache"].default,
    ),
    ("docs/operations.md", r"keeps the latest ([\d,]+) users", _number, REACHABLE_KEPT),
    ("docs/tournaments.md", r"his last \*\*(\d+)\*\* ended rated games", _number, WINDOW),
    ("README.md", r"rated games completed of your last (\d+)", _number, WINDOW),
    (
        "docs/operations.md",
        r"storage answers within (\d+) s",
        _number,
        STORAGE_TIMEOUT,
    ),
]


@pytest.mark.parametrize(
    ("page", "phrase", "read", "code"),
    PHRASES,
    ids=[f"{page}:{phrase[:40]}" for page, phrase, _, _ in PHRASES],
)
def test_a_default_named_in_prose_is_the_code_s(
    page: str, phrase: str, read: Callable[[str], object], code: object
) -> None:
    found = re.findall(phrase, " ".join(text(page).split()))  # a sentence may wrap
    assert found, f"{page} no longer says {phrase!r}: update the page or this test"
    for words in found:
        value = read(words)
        assert value == code, f"{page}: {words!r} where the code has {code!r}"


# --- the README, the links ------------------------------------------------------------


def test_the_readme_is_a_short_door() -> None:
    lines = len(README.read_text(encoding="utf-8").splitlines())
    assert lines < MAX_README_LINES, f"README.md has {lines} lines: move details to docs/"


def test_the_readme_shows_the_sample_the_presenters_draw() -> None:
    """The sample of a table and a hand is the presenters' own (regenerate it with
    ``python -m tests.docs_sample``)."""
    assert f"```text\n{sample()}\n```" in README.read_text(encoding="utf-8")


_LINK = re.compile(r"\]\(([^)\s]+)\)")


def _slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    heading = heading.strip().lower()
    kept = "".join(ch for ch in heading if ch in " -_" or unicodedata.category(ch)[0] in "LN")
    return kept.replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    anchors: set[str] = set()
    in_code = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and line.startswith("#"):
            slug = _slug(line.lstrip("#"))
            unique, n = slug, 0
            while unique in anchors:
                n += 1
                unique = f"{slug}-{n}"
            anchors.add(unique)
    return anchors


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_every_relative_link_leads_somewhere(page: Path) -> None:
    for target in _LINK.findall(page.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto:
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        assert linked.exists(), f"{page.name}: {target} leads nowhere"
        if anchor and linked.suffix == ".md":
            assert anchor in _anchors(linked), f"{page.name}: no heading #{anchor} in {path}"


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_rules_points_to_the_players_rules(locale: str) -> None:
    """``/rules`` (and the console's rules) name docs/rules.md, which exists."""
    shown = presenters.rules(Translator.from_dir(), locale, "yard", others=True).text
    assert "docs/rules.md" in shown
    assert (ROOT / "docs" / "rules.md").exists()


# --- The rules reference: every section the code and docs cite is there -----------------

RULES_REFERENCE = ROOT / "docs" / "rules" / "reference.md"
#: A citation of a section: §1.4, §2.16's, §3 (a part), §1.2.3 (item 3 of §1.2), a range
#: §2.3–2.12; or an appendix, Appendix A, or one of its items, Appendix A.12.
_SECTION = re.compile(r"§ ?(\d+(?:\.\d+)*)(?:[–-](\d+(?:\.\d+)*))?")
_APPENDIX = re.compile(r"\bAppendix ([A-Z])(?:\.(\d+))?")
#: What cites: the code, its tests, the docs and the locales.
_CITING = {".py", ".md", ".ftl"}


def _citing_lines() -> Iterator[tuple[str, str]]:
    """Every line of the files that may cite the rules (tools' folders aside), with
    where it is (``path:number``)."""
    for folder, subfolders, files in os.walk(ROOT):
        subfolders[:] = [d for d in subfolders if not d.startswith(".") and d != "__pycache__"]
        for name in files:
            if Path(name).suffix in _CITING:
                path = Path(folder, name)
                lines = path.read_text(encoding="utf-8").splitlines()
                for number, line in enumerate(lines, 1):
                    yield f"{path.relative_to(ROOT)}:{number}", line


def _reference_ids() -> set[str]:
    """The ids the rules reference defines: its numbered parts and sections (``1``,
    ``2.16``), their numbered items (``1.2.3``), its appendices (``Appendix A``) and
    their items (``Appendix A.12``)."""
    ids: set[str] = set()
    section, in_code = "", False
    for line in RULES_REFERENCE.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        if in_code:
            continue
        heading = re.match(r"#{2,3} (?:(\d+(?:\.\d+)?)\.? |Appendix ([A-Z]) )", line)
        if heading:
            section = heading[1] or f"Appendix {heading[2]}"
            ids.add(section)
        elif line.startswith("#"):
            section = ""
        elif (item := re.match(r" {0,3}(\d+)\. ", line)) and section:
            ids.add(f"{section}.{item[1]}")
    return ids


def _order(section: str) -> tuple[int, ...]:
    return tuple(int(part) for part in section.split("."))


def test_every_rules_section_cited_is_in_the_reference() -> None:
    """Regression (issue 31, point 14): the code, its tests and the docs cite the rules
    by section (§1.4, §2.3–2.12, §1.2.3), and the text they cited was not in the
    repository. Every citation is a heading or a numbered item of docs/rules/reference.md
    (a range: both ends, in order), the reference's own cross-references too."""
    ids = _reference_ids()
    assert {"1", "1.2", "1.2.3", "2.16", "3", "3.5", "Appendix A", "Appendix A.23"} <= ids
    missing = []
    for where, line in _citing_lines():
        for first, last in _SECTION.findall(line):
            missing += [f"{where}: §{c}" for c in (first, last) if c and c not in ids]
            if last and first in ids and last in ids:
                assert _order(first) < _order(last), f"{where}: §{first}–{last}"
        for letter, item in _APPENDIX.findall(line):
            cited = f"Appendix {letter}" + (f".{item}" if item else "")
            missing += [] if cited in ids else [f"{where}: {cited}"]
    assert not missing, "not in docs/rules/reference.md:\n" + "\n".join(missing)


def test_the_rules_are_cited_from_the_repository() -> None:
    """Regression (issue 31, point 14): the rules were cited as a file outside the
    repository (the docs called it authoritative), and its text as built from source
    files that are not here either. Nothing names them now; the players' page links
    the reference."""
    outside = re.compile(r"\bRULES\b(?:\.md)?")  # the file, or its bare name before a §
    sources = re.compile(r"\bseeds?/|\bseed 00\d", re.IGNORECASE)
    found = [
        f"{where}: {hit[0]}"
        for where, line in _citing_lines()
        for hit in (outside.search(line), sources.search(line))
        if hit
    ]
    assert not found, "\n".join(found)
    assert "](rules/reference.md)" in text("docs/rules.md")
