"""The composition root: ``python -m bot`` (what ``make run`` runs).

With a Telegram and/or Discord token in the environment or ``.env`` it runs the
bots of those platforms in one process (a failure of one is logged and does not
stop the other); with no token it plays a game in the terminal.
"""

from __future__ import annotations

import asyncio
import logging
import sys

from bot.settings import Settings


def main() -> int:
    settings = Settings()
    logging.basicConfig(
        level=settings.log_level.upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if not settings.has_platform:
        from adapters.console import play_main

        return play_main([], settings=settings)
    from bot.runner import run_platforms

    try:
        asyncio.run(run_platforms(settings))
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
