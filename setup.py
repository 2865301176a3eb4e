"""The one thing pyproject.toml cannot say: the packages found in the repository plus
``bot.locales``, the top-level ``locales/`` folder (one subfolder per language)
shipped inside the ``bot`` package; ``[tool.setuptools.package-dir]`` in
pyproject.toml maps it. Everything else about the package is in pyproject.toml."""

from pathlib import Path

from setuptools import Extension, find_packages, setup

LOCALES = Path(__file__).resolve().parent / "locales"

setup(
    packages=[
        *find_packages(include=["core", "core.*", "bot", "bot.*", "adapters", "adapters.*"]),
        "bot.locales",
        *sorted(f"bot.locales.{lang.name}" for lang in LOCALES.iterdir() if lang.is_dir()),
    ],
    # The search player's playouts and endgames in C (core/yard/ai/_playout.c). Optional:
    # without a C compiler the build goes on and core.yard.ai.rollout and core.yard.ai.endgame
    # play in Python, the same plays and values.
    ext_modules=[Extension("core.yard.ai._playout", ["core/yard/ai/_playout.c"], optional=True)],
)
