"""What the bot counts, for Prometheus (``/metrics``, see ``adapters.health``).

One :class:`Metrics` per process, built in ``__main__`` and passed to those that
count (nothing at import time); its own ``CollectorRegistry``, so tests and several
bots in one process never share counters. Every series is named ``kozel_*``:

- ``kozel_presses_total`` and ``kozel_press_seconds`` (a histogram): button presses
  handled, from the update to the reply, by platform;
- ``kozel_refusals_total{reason}``: presses refused, by reason code (``stale``, a
  rule's code, ...);
- ``kozel_saves_total{outcome}`` (``ok``, ``stale``, ``error``) and
  ``kozel_save_seconds``: game saves;
- ``kozel_games_open``: the open games this process holds;
- ``kozel_platform_requests_total{platform,method,status}``: requests to a platform's
  API by method and HTTP status (``error``: no answer), and
  ``kozel_rate_limited_total{platform}``: the 429s among them;
- ``kozel_outbox_queued{platform}``: messages waiting in a platform's outbox;
- ``kozel_shard_connected{platform,shard}`` (1 or 0) and
  ``kozel_shard_latency_seconds{platform,shard}`` (heartbeat to its answer; none until
  the first heartbeat is answered): each gateway shard the process runs (Discord).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

#: Seconds: presses are answered in milliseconds; a slow one shows in the top buckets.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


@dataclass(frozen=True)
class ShardState:
    """One gateway shard: connected or not, and its last heartbeat's round trip in
    seconds (not finite: none answered yet)."""

    shard: int
    connected: bool
    latency: float


class _Shards(Collector):
    """The shard gauges, read from each platform's shards at every scrape (a shard
    count is known only once the bot has asked Discord for it)."""

    def __init__(self) -> None:
        self.sources: dict[str, Callable[[], Iterable[ShardState]]] = {}

    def describe(self) -> Iterable[Metric]:
        return self._families()

    def collect(self) -> Iterable[Metric]:
        return self._families(self.sources.items())

    def _families(
        self, sources: Iterable[tuple[str, Callable[[], Iterable[ShardState]]]] = ()
    ) -> Iterator[Metric]:
        labels = ["platform", "shard"]
        connected = GaugeMetricFamily(
            "kozel_shard_connected", "Whether a gateway shard is connected", labels=labels
        )
        latency = GaugeMetricFamily(
            "kozel_shard_latency_seconds", "A gateway shard's heartbeat round trip", labels=labels
        )
        for platform, shards in sources:
            for state in shards():
                named = [platform, str(state.shard)]
                connected.add_metric(named, 1.0 if state.connected else 0.0)
                if math.isfinite(state.latency):
                    latency.add_metric(named, state.latency)
        yield connected
        yield latency


class Metrics:
    """The process's counters, gauges and histograms."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.presses = Counter("kozel_presses", "Button presses handled", ["platform"], registry=r)
        self.press_seconds = Histogram(
            "kozel_press_seconds",
            "Seconds from a press to its reply",
            ["platform"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.refusals = Counter(
            "kozel_refusals", "Presses refused, by reason", ["reason"], registry=r
        )
        self.saves = Counter("kozel_saves", "Game saves, by outcome", ["outcome"], registry=r)
        self.save_seconds = Histogram(
            "kozel_save_seconds", "Seconds a game save takes", buckets=LATENCY_BUCKETS, registry=r
        )
        self.games_open = Gauge("kozel_games_open", "Open games this process holds", registry=r)
        self.requests = Counter(
            "kozel_platform_requests",
            "Requests to a platform's API, by method and HTTP status",
            ["platform", "method", "status"],
            registry=r,
        )
        self.rate_limited = Counter(
            "kozel_rate_limited", "429 answers of a platform's API", ["platform"], registry=r
        )
        self.queued = Gauge(
            "kozel_outbox_queued",
            "Messages waiting in a platform's outbox",
            ["platform"],
            registry=r,
        )

        self._shards = _Shards()
        r.register(self._shards)

    def pressed(self, platform: str, seconds: float) -> None:
        self.presses.labels(platform).inc()
        self.press_seconds.labels(platform).observe(seconds)

    def refused(self, reason: str) -> None:
        self.refusals.labels(reason).inc()

    def saved(self, outcome: str, seconds: float) -> None:
        self.saves.labels(outcome).inc()
        self.save_seconds.observe(seconds)

    def requested(self, platform: str, method: str, status: int | None) -> None:
        """A platform API request answered with ``status`` (None: no answer)."""
        self.requests.labels(platform, method, "error" if status is None else str(status)).inc()
        if status == 429:
            self.rate_limited.labels(platform).inc()

    def watch_games(self, count: Callable[[], int]) -> None:
        self.games_open.set_function(count)

    def watch_queue(self, platform: str, length: Callable[[], int]) -> None:
        self.queued.labels(platform).set_function(length)

    def watch_shards(self, platform: str, shards: Callable[[], Iterable[ShardState]]) -> None:
        """Report ``shards()`` (the platform's bot's shards; a new bot replaces the
        last one's)."""
        self._shards.sources[platform] = shards

    def exposition(self) -> bytes:
        """The text format Prometheus scrapes."""
        return generate_latest(self.registry)
