"""What Discord's servers cost the bot's process:
``python -m bench.discord_shards [--guilds 2000] [--shards 2] [--channels 5]``.

The fake Discord runs here with ``--guilds`` servers of ``--channels`` text channels
each (and two roles; no members but the bot, as Discord sends them to a bot without
the members intent), spread over ``--shards`` shards by their ids. The bot's side is
a child process: the Discord adapter as ``python -m bot`` builds it (a game service on
the memory storage, ``DISCORD_API_URL`` pointing at the fake), with no wait between
the shards' IDENTIFYs (Discord's 5 seconds a shard are a fixed cost, not measured).

Reported for each ``--guilds`` count, from the child's ``/proc``: its resident memory
once every shard is ready, less before the bot started; the CPU time (user + system)
the start took; and the start's wall time (which includes discord.py's wait of
``--guild-wait`` seconds after each shard's last server). With two counts or more,
what each 1,000 servers more cost (the slope from the fewest to the most), which
leaves out the fixed cost of a connection.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import multiprocessing
import statistics
import time
from multiprocessing.connection import Connection

from bench.common import cpu_seconds, rss_kb
from testing.fakes.discord import TOKEN, FakeDiscord

# --- The bot's side (the child process) -----------------------------------------------


def bot_main(conn: Connection, api_url: str, guild_wait: float) -> None:
    from bot import loop

    loop.run(_bot(conn, api_url, guild_wait))  # uvloop where installed, as python -m bot


async def _bot(conn: Connection, api_url: str, guild_wait: float) -> None:
    from adapters.discord import DiscordAdapter
    from adapters.discord.client import KozelBot
    from bot.i18n import Translator
    from bot.interactions import Interactions
    from bot.memory import MemoryStorage
    from bot.service import GameService
    from bot.settings import Settings

    settings = Settings(_env_file=None, discord_bot_token=TOKEN, discord_api_url=api_url)  # type: ignore[call-arg]
    tr = Translator.from_dir()
    service = GameService(MemoryStorage(), computer_delay=0)
    interactions = Interactions(service, tr)

    def client(adapter: DiscordAdapter) -> KozelBot:
        return KozelBot(adapter, identify_interval=0, guild_ready_timeout=guild_wait)

    adapter = DiscordAdapter(settings, service, interactions, tr, client_factory=client)
    gc.collect()
    before, cpu, started = rss_kb(), cpu_seconds(), time.perf_counter()
    run = asyncio.create_task(adapter.run())
    await adapter.started.wait()
    gc.collect()
    conn.send(
        {
            "rss": rss_kb() - before,
            "cpu": cpu_seconds() - cpu,
            "wall": time.perf_counter() - started,
            "guilds": len(adapter.bot.guilds),
            "shards": len(adapter.bot.shards),
        }
    )
    await asyncio.get_running_loop().run_in_executor(None, conn.recv)  # "stop"
    await adapter.close()
    await run
    await service.close()


# --- The fake Discord (this process) -----------------------------------------------------


async def measure(guilds: int, shards: int, channels: int, guild_wait: float) -> dict[str, float]:
    async with FakeDiscord(shards=shards, patch=False) as dc:
        for number in range(guilds):
            guild = (number << 22) | 1  # on shard number % shards
            dc.add_guild(guild, f"server {number}", owner_id=1, locale="en-US")
            for channel in range(channels):
                dc.add_channel(guild, guild + 1 + channel, f"channel-{channel}")
        parent, child = multiprocessing.Pipe()
        context = multiprocessing.get_context("spawn")
        process = context.Process(target=bot_main, args=(child, dc.api_base, guild_wait))
        process.start()
        try:
            loop = asyncio.get_running_loop()
            figures: dict[str, float] = await loop.run_in_executor(None, parent.recv)
            assert figures["guilds"] == guilds and figures["shards"] == shards, figures
            parent.send("stop")
            await loop.run_in_executor(None, process.join, 60)
        finally:
            if process.is_alive():
                process.kill()
        return figures


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.discord_shards", description=__doc__)
    parser.add_argument(
        "--guilds", type=int, nargs="+", default=[500, 2000], help="servers (default 500 2000)"
    )
    parser.add_argument("--shards", type=int, default=2, help="shards (default 2)")
    parser.add_argument("--channels", type=int, default=5, help="channels a server (default 5)")
    parser.add_argument(
        "--guild-wait", type=float, default=0.5, help="discord.py's guild_ready_timeout (0.5)"
    )
    parser.add_argument("--runs", type=int, default=3, help="runs (default 3): medians")
    args = parser.parse_args()
    medians: dict[int, tuple[float, float]] = {}
    for guilds in sorted(set(args.guilds)):
        runs = [
            asyncio.run(measure(guilds, args.shards, args.channels, args.guild_wait))
            for _ in range(args.runs)
        ]
        memory = statistics.median(run["rss"] for run in runs) / 1024
        cpu = statistics.median(run["cpu"] for run in runs)
        wall = statistics.median(run["wall"] for run in runs)
        medians[guilds] = memory, cpu
        print(
            f"{guilds} servers ({args.channels} channels each) on {args.shards} shards:"
            f" {memory:.1f} MB, {cpu:.2f} s of CPU at start, ready in {wall:.1f} s"
            f" (medians of {args.runs})"
        )
    if len(medians) > 1:
        fewest, most = min(medians), max(medians)
        thousands = (most - fewest) / 1000
        memory = (medians[most][0] - medians[fewest][0]) / thousands
        cpu = (medians[most][1] - medians[fewest][1]) / thousands
        print(f"each 1,000 servers more: {memory:.1f} MB, {cpu:.2f} s of CPU at start")


if __name__ == "__main__":
    main()
