"""Reliability: whether a player sees the rated games he starts through to their end
(docs/tournaments.md, Reliability).

Every started rated game that ends (four different humans at its seats, the
rating's definition: :func:`bot.ratings.four_players`) leaves one row per player,
an :class:`Ending`: he completed it, or he *walked out* (:class:`WalkOut`):

- ``away``: the clock made him away (he missed his turns, a computer played for
  him) and he was still away when the game ended, finished or stopped: he never
  came back. One who came back in time (a move, a touch of his hand) is not counted;
- ``stopped``: he ended the started game with /stop (a table's creator may) while
  not an admin of the chat. An admin's /stop counts against nobody; those away when
  it ends the game are counted as above.

A lobby cancelled before the start, and a game with a computer (or an empty seat,
or one user at two seats), leave no row. The rows are saved in the transaction that
ends the game (the finishing move's save, the stop's), once per player and game.

A player's :class:`Reliability` is read over his last :data:`WINDOW` rows.

>>> Reliability(games=20, walked_out=1).percent, Reliability().percent
(95, 100)
>>> Reliability(games=3, walked_out=1).meets(70), Reliability().meets(100)
(False, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypedDict

from bot.models import Game, GameStatus, UserRef
from bot.ratings import four_players

#: How many of a player's latest ended rated games his reliability counts.
WINDOW = 20


class WalkOut(StrEnum):
    """How a player walked out of a started rated game."""

    AWAY = "away"  # away by the clock when the game ended: he never came back
    STOPPED = "stopped"  # he ended it with /stop, not an admin of the chat


@dataclass(frozen=True, slots=True)
class Ending:
    """One player's row of a started rated game that ended: ``walked_out`` None when
    he completed it. The storage keeps it with the game's id and the moment of the
    save that ended it."""

    user: UserRef
    walked_out: WalkOut | None = None


@dataclass(frozen=True, slots=True)
class Reliability:
    """Of a player's last ``games`` ended rated games (at most :data:`WINDOW`), how
    many he walked out of. Empty (false) for a player without rated games."""

    games: int = 0
    walked_out: int = 0

    def __bool__(self) -> bool:
        return self.games > 0

    @property
    def completed(self) -> int:
        return self.games - self.walked_out

    @property
    def percent(self) -> int:
        """The share completed, in whole percent rounded down (100 with no games:
        nobody walked out), so a minimum is never passed by rounding up."""
        return 100 if not self.games else 100 * self.completed // self.games

    def meets(self, minimum: int) -> bool:
        """Whether an event requiring ``minimum`` percent admits him (one without
        rated games passes any minimum)."""
        return self.percent >= minimum


def endings(game: Game, *, stopped_by: UserRef | None = None) -> tuple[Ending, ...]:
    """The rows of a started ``game`` ending now (its status already finished or
    cancelled; a lobby's cancel is the caller's to leave out): one per player of a
    rated game, none for any other. ``stopped_by``: who stopped it with /stop, if
    not an admin of the chat (the admin's stop counts against nobody)."""
    if game.status not in (GameStatus.FINISHED, GameStatus.CANCELLED):
        return ()
    if four_players(game) is None:
        return ()
    rows = []
    for seat in game.seats:
        if seat is None or seat.user is None:  # pragma: no cover - four_players checked it
            continue
        walked_out = None
        if seat.user == stopped_by:
            walked_out = WalkOut.STOPPED
        elif seat.away:
            walked_out = WalkOut.AWAY
        rows.append(Ending(seat.user, walked_out))
    return tuple(rows)


# --- Rows (the storages') --------------------------------------------------------------


class EndingRow(TypedDict):
    """An :class:`Ending` as the storages keep it (table ``reliability``)."""

    platform: str
    user_id: str
    game_id: int
    walked_out: str | None
    at: float


def ending_rows(game: Game, ended: Sequence[Ending]) -> list[EndingRow]:
    """The rows of ``game``'s endings, at the moment of its save (``updated_at``)."""
    return [
        {
            "platform": ending.user.platform.value,
            "user_id": ending.user.id,
            "game_id": game.id,
            "walked_out": None if ending.walked_out is None else ending.walked_out.value,
            "at": float(game.updated_at),
        }
        for ending in ended
    ]


def reliability_from_row(row: Mapping[str, Any]) -> Reliability:
    """The reliability of the count read (``games``, ``walked_out``; NULLs: none)."""
    return Reliability(int(row["games"] or 0), int(row["walked_out"] or 0))
