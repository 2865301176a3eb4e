"""Schema migrations as numbered plain SQL files, one folder per SQL dialect.

A storage's ``migrations`` package holds ``0001_first_schema.sql``,
``0002_<what it adds>.sql``, ...: file *n* brings a database from schema version
*n - 1* to *n*. Files are only ever added: a released file is never edited, since
databases out there already ran it. They ship as package data, so an installed
wheel migrates as a checkout does.

>>> [(m.version, m.name) for m in load("adapters.sqlite.migrations")][:1]
[(1, 'first_schema')]
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


class SchemaTooNew(RuntimeError):
    """The database was migrated by a newer release than this one."""


@dataclass(frozen=True, slots=True)
class Migration:
    """One step: the SQL text of ``NNNN_name.sql``."""

    version: int
    name: str
    sql: str


def load(package: str) -> tuple[Migration, ...]:
    """The migrations of ``package`` in order; their numbers must run 1, 2, 3, ...
    with no gap (a missing or doubled file is an error, not a skipped step)."""
    found: list[Migration] = []
    for entry in resources.files(package).iterdir():
        match = _NAME.match(entry.name)
        if match is None:
            if entry.name.endswith(".sql"):
                raise ValueError(f"{package}: {entry.name} is not named NNNN_name.sql")
            continue
        found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda migration: migration.version)
    numbers = [migration.version for migration in found]
    if numbers != list(range(1, len(found) + 1)):
        raise ValueError(f"{package}: migrations must be numbered 1..n, found {numbers}")
    return tuple(found)
