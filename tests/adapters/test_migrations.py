"""The migration files: named NNNN_name.sql, numbered 1..n, shipped with the package."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from adapters import migrations


def package_at(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *files: str) -> str:
    folder = tmp_path / "fake_migrations"
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    for name in files:
        (folder / name).write_text(f"-- {name}\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "fake_migrations", raising=False)
    return "fake_migrations"


def test_files_load_in_their_numbers_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = package_at(tmp_path, monkeypatch, "0002_more.sql", "0001_first.sql", "notes.txt")
    loaded = migrations.load(package)
    assert [(m.version, m.name, m.sql) for m in loaded] == [
        (1, "first", "-- 0001_first.sql\n"),
        (2, "more", "-- 0002_more.sql\n"),
    ]


@pytest.mark.parametrize(
    ("files", "message"),
    [
        (("0001_first.sql", "0003_gap.sql"), "numbered 1..n"),
        (("0001_first.sql", "0001_twice.sql"), "numbered 1..n"),
        (("0002_no_first.sql",), "numbered 1..n"),
        (("0001_first.sql", "2_short.sql"), "not named NNNN_name.sql"),
    ],
)
def test_a_gap_a_double_or_a_bad_name_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: tuple[str, ...], message: str
) -> None:
    package = package_at(tmp_path, monkeypatch, *files)
    with pytest.raises(ValueError, match=message):
        migrations.load(package)


def test_the_sql_files_are_package_data() -> None:
    pyproject = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text()
    for package in ("adapters.sqlite.migrations", "adapters.postgres.migrations"):
        assert f'"{package}" = ["*.sql"]' in pyproject
        assert migrations.load(package), package
