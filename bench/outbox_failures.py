"""Memory the outbox keeps for failed sends: ``python -m bench.outbox_failures --sends 3000``.

Every send fails with a 5xx at once (a bot whose ``sendMessage`` raises
``TelegramServerError``; the outbox's retries are skipped, as after an outage's
last retry). Prints ``name: value`` lines:

- ``sends``: failed sends;
- ``kept_kib``: memory still allocated once they all failed (tracemalloc, after a
  garbage collection), in KiB;
- ``failures_kept``: failures kept with their reasons; ``failures_counted``: counted.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import tracemalloc
from typing import cast

from aiogram import Bot
from aiogram.exceptions import TelegramServerError
from aiogram.methods import SendMessage

from adapters.telegram import outbox as outbox_module
from adapters.telegram.outbox import Outbox, Pacing
from bot.presenters import Screen


class _Failing:
    async def send_message(self, chat_id: int, text: str, **_: object) -> None:
        raise TelegramServerError(SendMessage(chat_id=chat_id, text=text), "Internal Server Error")


async def measure(sends: int) -> dict[str, float]:
    retries, outbox_module._NETWORK_RETRIES = outbox_module._NETWORK_RETRIES, 0
    outbox = Outbox(cast(Bot, _Failing()), Pacing.off())
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        for number in range(sends):
            outbox.send(-1 - number % 7, Screen(f"notice {number}"))
        await outbox.drain()
        gc.collect()
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
        outbox_module._NETWORK_RETRIES = retries
    kept = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    return {
        "sends": sends,
        "kept_kib": round(kept / 1024, 1),
        "failures_kept": len(outbox.stats.failures),
        "failures_counted": sum(outbox.stats.failed.values()),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sends", type=int, default=3000)
    args = parser.parse_args()
    logging.disable(logging.CRITICAL)  # 3,000 failure lines are not the point
    for name, value in asyncio.run(measure(args.sends)).items():
        print(f"{name}: {value}")


if __name__ == "__main__":
    main()
