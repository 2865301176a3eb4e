"""Why the application refused a request. Adapters show ``err-<code>`` from the locales.

Rule violations come from the core as :class:`core.errors.KozelError`; the service
turns them into a :class:`ServiceError` with the same code, so adapters handle one
error type.
"""

from __future__ import annotations

from enum import StrEnum

from core.errors import KozelError


class ErrorCode(StrEnum):
    UNKNOWN_GAME = "unknown-game"
    GAME_OVER = "game-over"
    GAME_RUNNING = "game-running"
    GAME_NOT_STARTED = "game-not-started"
    GAME_STARTED = "game-started"
    STALE = "stale"
    MALFORMED = "malformed"
    NOT_SEATED = "not-seated"
    ALREADY_SEATED = "already-seated"
    TEAM_FULL = "team-full"
    TABLE_NOT_FULL = "table-not-full"
    NOT_CREATOR = "not-creator"
    NOT_ALLOWED = "not-allowed"
    NO_SUCH_SEAT = "no-such-seat"
    BAD_SETTING = "bad-setting"
    CANNOT_MESSAGE = "cannot-message"
    NO_STATS = "no-stats"
    NOT_HERE = "not-here"  # a button of a game pressed outside its chat
    NOT_YOURS = "not-yours"  # a press on a message only another user sees
    NOT_MEMBER = "not-member"  # joining a game of a chat one is not a member of
    BAD_LINK = "bad-link"  # a join link not made by this bot (or not for this game)
    TOO_MANY_COMMANDS = "too-many-commands"  # a user flooding commands (bot.flood)
    TOO_MANY_PRESSES = "too-many-presses"  # a user flooding button presses


class ServiceError(Exception):
    """A refused request; nothing was changed. ``code`` is an :class:`ErrorCode` or a
    core reason (both are strings naming an ``err-`` locale id)."""

    def __init__(self, code: str, game_id: int | None = None) -> None:
        super().__init__(code)
        self.code = str(code)
        self.game_id = game_id

    @classmethod
    def from_rules(cls, error: KozelError, game_id: int | None = None) -> ServiceError:
        return cls(error.reason.value, game_id)

    @property
    def message_id(self) -> str:
        """The locale message id that explains this error."""
        return f"err-{self.code}"


class PlatformRefused(Exception):
    """A platform refuses the bot for good (its token is wrong or revoked): trying
    again will not help. Adapters raise it from ``run``; any other error of ``run`` is
    taken as passing (the network) and the platform is started again."""


class PlatformUnreachable(Exception):
    """A platform's bot could not reach its server at its start: no answer (no network,
    a wrong address, a firewall, a timeout) or a server error. Adapters raise it from
    ``run``, with the error in a few words; the platform is started again, each time
    with one log line and no traceback (:mod:`bot.supervise`)."""
