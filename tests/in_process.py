"""An entry point (``python -m bot``'s :func:`bot.__main__.main`, ``kozel``'s
:func:`bot.cli.main`) run in this process as a child process would run it: in a folder,
with its arguments in ``sys.argv``, only the settings it is given in the environment,
standard input from a string (or closed), standard output and error captured, and its
exit status (``return`` or :class:`SystemExit`).

A child process costs its interpreter's start and every import again (aiogram's alone
takes a second or more on a busy machine): the tests of what the entry point says and
does use this, and each real entry point keeps tests of its own that start it as a
child (a signal, a closed standard input, a pseudo-terminal, a kill).

What the entry point changes for the whole process is put back afterwards: the root
logger (its handlers, filters and level), the temporary folder ``tempfile`` caches,
the working folder, the environment, ``sys.argv`` and the standard streams.
"""

from __future__ import annotations

import io
import logging
import os
import sys
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.settings import Settings

#: The settings' environment names (and ``KOZEL_COMMAND``): the run sees only the ones
#: a test gives it, as the child processes were started.
SETTING_NAMES = frozenset({*(name.upper() for name in Settings.model_fields), "KOZEL_COMMAND"})


@dataclass(frozen=True)
class Ran:
    """What a run left, as :class:`subprocess.CompletedProcess` has it."""

    returncode: int
    stdout: str
    stderr: str


def _status(code: object) -> tuple[int, str]:
    """The exit status ``sys.exit(code)`` gives, and what it prints."""
    if code is None:
        return 0, ""
    if isinstance(code, int):
        return code, ""
    return 1, f"{code}\n"


def run_in_process(
    entry: Callable[[], int | None],
    argv: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    stdin: str | None = "",
    drop: Iterable[str] = SETTING_NAMES,
) -> Ran:
    """Call ``entry()`` with ``sys.argv`` = ``argv`` in ``cwd``, the environment less the
    names in ``drop`` plus ``env``, ``stdin`` as standard input (None: closed, as
    ``<&-`` leaves it). Its own exceptions other than :class:`SystemExit` propagate, as
    a traceback would end a child."""
    out, err = io.StringIO(), io.StringIO()
    root = logging.getLogger()
    kept = (root.handlers[:], root.filters[:], root.level)
    dropped = {name.upper() for name in drop}
    with pytest.MonkeyPatch.context() as patch:
        for name in list(os.environ):
            if name.upper() in dropped:
                patch.delenv(name)
        for name, value in env.items():
            patch.setenv(name, value)
        patch.chdir(cwd)
        patch.setattr(sys, "argv", list(argv))
        patch.setattr(sys, "stdin", None if stdin is None else io.StringIO(stdin))
        patch.setattr(sys, "stdout", out)
        patch.setattr(sys, "stderr", err)
        patch.setattr(tempfile, "tempdir", None)  # TMPDIR is read again
        try:
            code: object = entry()
        except SystemExit as exit:
            code = exit.code
        finally:
            for handler in root.handlers[:]:
                if handler not in kept[0]:
                    handler.close()
            root.handlers[:] = kept[0]
            root.filters[:] = kept[1]
            root.setLevel(kept[2])
    status, said = _status(code)
    return Ran(status, out.getvalue(), err.getvalue() + said)


def python_m_bot(cwd: Path, *, stdin: str | None = "", **env: str) -> Ran:
    """``python -m bot`` in ``cwd`` with only these settings and no terminal."""
    from bot import __main__ as main

    return run_in_process(main.main, [main.__file__], cwd=cwd, env=env, stdin=stdin)
