"""How fast one user may send commands and press buttons, on every platform.

Each user has two token buckets: one for commands, one for presses (a press is no
command: a flood of ``/help`` never blocks a player's cards, nor the other way
round). A bucket holds ``burst`` tokens and gains ``rate`` a second; each command
or press takes one. A user whose bucket is empty gets ONE answer saying so
(:attr:`Admission.WARNED`), then everything he sends of that kind is ignored
(:attr:`Admission.IGNORED`, no work, no answer) for ``quiet`` seconds, after which
his bucket is full again. Normal use never empties a bucket: the bursts allow more
than anyone types or taps.

The buckets are kept in memory, per process; a user whose bucket is full and who is
not silenced is as good as unknown, so such entries are pruned when the map grows
(the cost is spread thin, as in the outbox's pacing maps).

>>> guard = FloodGuard(lambda: 0.0, commands=Limit(burst=2, rate=0.1, quiet=60.0))
>>> user = UserRef(Platform.TELEGRAM, "1")
>>> [guard.command(user).name for _ in range(4)]
['ALLOWED', 'ALLOWED', 'WARNED', 'IGNORED']
>>> guard.press(user).name  # presses have their own bucket
'ALLOWED'
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from bot.models import Platform, UserRef  # noqa: F401 (Platform: the doctest's)


class Admission(Enum):
    ALLOWED = "allowed"  # do it
    WARNED = "warned"  # the first refusal: tell the user to slow down, do nothing else
    IGNORED = "ignored"  # silenced: do nothing, answer nothing


@dataclass(frozen=True, slots=True)
class Limit:
    """A bucket of ``burst`` tokens gaining ``rate`` a second; an empty one silences its
    user for ``quiet`` seconds."""

    burst: float
    rate: float
    quiet: float


#: Commands: 15 at once (trying every command out), then one every 2 seconds (30 a
#: minute, more than a group may be answered); a flooder is ignored for a minute.
COMMANDS = Limit(burst=15.0, rate=0.5, quiet=60.0)
#: Presses: 30 at once (a player selects and plays several cards in a few seconds),
#: then 5 a second; a flooder is ignored for 10 seconds.
PRESSES = Limit(burst=30.0, rate=5.0, quiet=10.0)
#: The map of users is pruned of the full, unsilenced buckets past this size (or
#: twice the size after the last pruning).
PRUNE_AT = 4096


@dataclass(slots=True)
class _Bucket:
    tokens: float
    at: float  # when ``tokens`` was counted
    silent_until: float = 0.0


class _Buckets:
    """The buckets of one kind (commands or presses), by user."""

    def __init__(self, limit: Limit, clock: Callable[[], float]) -> None:
        self.limit, self.clock = limit, clock
        self._users: dict[UserRef, _Bucket] = {}
        self._prune_at = PRUNE_AT

    def admit(self, user: UserRef) -> Admission:
        limit, now = self.limit, self.clock()
        bucket = self._users.get(user)
        if bucket is None:
            if len(self._users) >= self._prune_at:
                self._prune(now)
            bucket = self._users[user] = _Bucket(limit.burst, now)
        if now < bucket.silent_until:
            return Admission.IGNORED
        bucket.tokens = min(limit.burst, bucket.tokens + (now - bucket.at) * limit.rate)
        bucket.at = now
        if bucket.tokens >= 1.0:
            bucket.tokens -= 1.0
            return Admission.ALLOWED
        # Silenced for a while; afterwards the bucket is full again.
        bucket.silent_until = now + limit.quiet
        bucket.tokens, bucket.at = limit.burst, bucket.silent_until
        return Admission.WARNED

    def _prune(self, now: float) -> None:
        limit = self.limit
        self._users = {
            user: bucket
            for user, bucket in self._users.items()
            if now < bucket.silent_until
            or bucket.tokens + (now - bucket.at) * limit.rate < limit.burst
        }
        self._prune_at = max(PRUNE_AT, 2 * len(self._users))

    def __len__(self) -> int:
        return len(self._users)


class FloodGuard:
    """The command and press buckets of every user (see the module's docs). A kind
    whose limit is None is not limited (simulated users pressing at machine speed)."""

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        *,
        commands: Limit | None = COMMANDS,
        presses: Limit | None = PRESSES,
    ) -> None:
        self._commands = _Buckets(commands, clock) if commands is not None else None
        self._presses = _Buckets(presses, clock) if presses is not None else None

    def command(self, user: UserRef) -> Admission:
        """Whether the user's command is handled (one more taken from his bucket)."""
        return Admission.ALLOWED if self._commands is None else self._commands.admit(user)

    def press(self, user: UserRef) -> Admission:
        """Whether the user's button press is handled."""
        return Admission.ALLOWED if self._presses is None else self._presses.admit(user)

    @property
    def users(self) -> int:
        """Users with a bucket kept (of either kind)."""
        return sum(len(kind) for kind in (self._commands, self._presses) if kind is not None)
