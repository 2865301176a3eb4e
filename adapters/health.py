"""The health and metrics endpoint (``METRICS_PORT``): a small aiohttp server.

- ``GET /healthz``: 200 while the process runs (its event loop answers);
- ``GET /readyz``: 200 when the storage answers and every platform the process runs
  is connected (on Discord: every shard of the process), else 503, with one
  ``name: ok|down`` line each (``discord shard 0: ok``, one a shard);
- ``GET /metrics``: :class:`bot.metrics.Metrics` in Prometheus' text format
  (prometheus-client's exposition).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST

from bot.metrics import Metrics
from bot.ports import Storage

log = logging.getLogger(__name__)

#: A platform's readiness: up or not, or its parts' by name (Discord's shards).
Readiness = Callable[[], bool | Mapping[str, bool]]

#: Seconds the storage has to answer ``/readyz``.
STORAGE_TIMEOUT = 2.0


class HealthServer:
    """``await server.start()`` listens on ``host:port`` (port 0: any free one, see
    :attr:`port`); ``await server.stop()``."""

    def __init__(
        self,
        metrics: Metrics,
        storage: Storage,
        platforms: Mapping[str, Readiness],
        *,
        host: str = "127.0.0.1",
        port: int = 9090,
    ) -> None:
        self.metrics = metrics
        self.storage = storage
        #: Read at each request: a platform's check is put in when its bot starts.
        self.platforms = platforms
        self.host = host
        self.port = port
        self._runner: web.AppRunner | None = None

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/readyz", self._readyz)
        app.router.add_get("/metrics", self._metrics)
        return app

    async def start(self) -> None:
        self._runner = web.AppRunner(self.app(), access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        log.info("health and metrics on http://%s:%s", self.host, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _healthz(self, request: web.Request) -> web.Response:
        return web.Response(text="ok\n")

    async def _storage_answers(self) -> bool:
        """Whether the storage answers on the path the moves take: a game read by key
        (no such game) through the writer's connection and lock (SQLite) or the
        writer's pool (PostgreSQL). Statistics and leaderboards read apart, so a
        burst of ``/top`` never makes the storage look down."""
        try:
            async with asyncio.timeout(STORAGE_TIMEOUT):
                await self.storage.load_game(0)
        except Exception:
            log.warning("readiness: the storage does not answer", exc_info=True)
            return False
        return True

    async def _readyz(self, request: web.Request) -> web.Response:
        checks = {"storage": await self._storage_answers()}
        for name, ready in self.platforms.items():
            state = ready()
            checks.update(state if isinstance(state, Mapping) else {name: state})
        text = "".join(f"{name}: {'ok' if up else 'down'}\n" for name, up in checks.items())
        return web.Response(text=text, status=200 if all(checks.values()) else 503)

    async def _metrics(self, request: web.Request) -> web.Response:
        response = web.Response(body=self.metrics.exposition())
        response.headers["Content-Type"] = CONTENT_TYPE_LATEST
        return response
