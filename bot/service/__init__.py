"""The game service: the only way into the core for every adapter.

It keeps tables (lobbies), runs series, lets computer players move, keeps turn
timers, and saves every accepted change before any adapter renders it.

An action comes from a user: the service checks that the user sits at that seat,
takes the game's lock, checks the version the button carried (a stale or repeated
press is refused, never applied twice), applies the action through the core,
saves, and then asks the platform's publisher to show the change.

The work is split into jobs, one a module, wired together by :class:`GameService`:

- :mod:`~bot.service.tables`: the unit of work (the games kept, their locks, the
  version-checked save) and the hooks the jobs hear each other through;
- :mod:`~bot.service.publishing`: the publishers, and the saved games shown again;
- :mod:`~bot.service.steps`: the play step (apply, deal on, save, publish);
- :mod:`~bot.service.lobby`, :mod:`~bot.service.moves`,
  :mod:`~bot.service.computers`, :mod:`~bot.service.timers`,
  :mod:`~bot.service.people`, :mod:`~bot.service.queries`.
"""

from bot.service.facade import GameService
from bot.service.lobby import COMPUTER_NAMES
from bot.service.people import LINK_SECRET, LOCALES
from bot.service.steps import Outcome
from bot.service.tables import SystemClock

__all__ = ["COMPUTER_NAMES", "LINK_SECRET", "LOCALES", "GameService", "Outcome", "SystemClock"]
