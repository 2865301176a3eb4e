"""The one thing pyproject.toml cannot say: the packages found in the repository plus
``bot.locales``, the top-level ``locales/`` folder (one subfolder per language)
shipped inside the ``bot`` package; ``[tool.setuptools.package-dir]`` in
pyproject.toml maps it. Everything else about the package is in pyproject.toml."""

from pathlib import Path

from setuptools import find_packages, setup

LOCALES = Path(__file__).resolve().parent / "locales"

setup(
    packages=[
        *find_packages(include=["core", "core.*", "bot", "bot.*", "adapters", "adapters.*"]),
        "bot.locales",
        *sorted(f"bot.locales.{lang.name}" for lang in LOCALES.iterdir() if lang.is_dir()),
    ],
)
