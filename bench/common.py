"""What the Telegram benchmarks (:mod:`bench.telegram`, :mod:`bench.telegram_floor`)
share besides statistics: this process's peak memory and a free local port."""

from __future__ import annotations

import resource
import socket


def peak_rss_mb() -> float:
    """This process's peak resident memory so far, in MB (``getrusage``)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port
