"""A throwaway PostgreSQL server in a temporary folder, for the tests and benchmarks.

It runs the server binaries of Debian's ``postgresql`` package (``initdb``,
``pg_ctl``); the server listens on a Unix socket in its own folder only, so several
can run at once and none touches a port. ``initdb`` refuses to run as root, so as
root the server runs as the ``postgres`` user (``runuser``), which the package
creates, and the folder is handed to it.

>>> LocalServer.binaries() is None or LocalServer.binaries().name == "bin"
True
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path
from types import TracebackType
from urllib.parse import quote

_USER = "postgres"
_PORT = 5432


class ServerUnavailable(RuntimeError):
    """No PostgreSQL server binaries on this machine (``apt-get install postgresql``)."""


class LocalServer:
    """``with LocalServer() as server:`` a running server; ``server.url(name)`` is a
    database's URL (``postgres`` is there from the start), ``create_database`` makes
    another."""

    def __init__(self, *, durable: bool = False) -> None:
        """``durable``: keep PostgreSQL's default ``fsync`` (a benchmark's figures
        should include it); off by default, which tests do not need."""
        self.durable = durable
        self._folder: Path | None = None
        self._bin = self.binaries()
        if self._bin is None:
            raise ServerUnavailable(
                "no PostgreSQL server binaries (initdb, pg_ctl): install Debian's"
                " postgresql package"
            )
        self._as_other = os.geteuid() == 0

    @staticmethod
    def binaries() -> Path | None:
        """The folder of the newest ``initdb`` found, if any."""
        on_path = shutil.which("initdb")
        if on_path is not None:
            return Path(on_path).resolve().parent  # Debian links some into /usr/local/bin
        found = sorted(
            Path("/usr/lib/postgresql").glob("*/bin/initdb"),
            key=lambda path: (
                int(path.parent.parent.name) if path.parent.parent.name.isdigit() else 0
            ),
        )
        return found[-1].parent if found else None

    @property
    def folder(self) -> Path:
        if self._folder is None:
            raise RuntimeError("the server is not running")
        return self._folder

    def url(self, database: str = "postgres") -> str:
        """A ``postgresql://`` URL of a database on this server (over its socket)."""
        host = quote(str(self.folder), safe="")
        return f"postgresql:///{database}?host={host}&port={_PORT}&user={_USER}"

    def create_database(self, name: str) -> str:
        """Make an empty database; return its URL."""
        self._run("createdb", "--host", str(self.folder), "--port", str(_PORT), "-U", _USER, name)
        return self.url(name)

    def _run(self, *command: str) -> str:
        argv = [str(self._bin / command[0]), *command[1:]] if self._bin else list(command)
        if self._as_other:
            argv = ["runuser", "-u", _USER, "--", *argv]
        done = subprocess.run(argv, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{command[0]} failed ({done.returncode}): {done.stderr.strip()}")
        return done.stdout

    def start(self) -> None:
        folder = Path(tempfile.mkdtemp(prefix="kozel-pg-"))
        self._folder = folder
        try:
            if self._as_other:
                entry = pwd.getpwnam(_USER)
                os.chown(folder, entry.pw_uid, entry.pw_gid)
            data = folder / "data"
            self._run(
                "initdb",
                "--pgdata",
                str(data),
                "--username",
                _USER,
                "--auth",
                "trust",
                "--encoding",
                "UTF8",
                "--locale",
                "C",
                "--no-sync",
            )
            options = [
                f"-k {folder}",
                "-c listen_addresses=''",
                f"-p {_PORT}",
                "-c max_connections=200",
            ]
            if not self.durable:
                options += ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]
            self._run(
                "pg_ctl",
                "start",
                "--pgdata",
                str(data),
                "--wait",
                "--log",
                str(folder / "server.log"),
                "-o",
                " ".join(options),
            )
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        """Stop the server (if it runs) and remove its folder."""
        folder, self._folder = self._folder, None
        if folder is None:
            return
        if (folder / "data" / "postmaster.pid").exists():
            with contextlib.suppress(RuntimeError):
                self._run("pg_ctl", "stop", "--pgdata", str(folder / "data"), "--mode", "fast")
        shutil.rmtree(folder, ignore_errors=True)

    def __enter__(self) -> LocalServer:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()
