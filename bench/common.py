"""What the benchmarks share besides statistics: this process's memory and CPU time,
and a free local port."""

from __future__ import annotations

import os
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


def rss_kb() -> int:
    """This process's resident memory now, in kB (``/proc/self/status``)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def cpu_seconds() -> float:
    """This process's CPU time so far: user + system."""
    times = os.times()
    return times.user + times.system
