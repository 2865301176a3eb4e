"""Seats and teams, shared by every rule set: four seats 0..3 clockwise, partners opposite.

>>> team_of(3), Team.A.seats, Team.B.other
(<Team.B: 1>, (0, 2), <Team.A: 0>)
"""

from __future__ import annotations

from enum import IntEnum

#: Players at a table; seats are numbered 0..3 clockwise.
SEATS = 4


class Team(IntEnum):
    """Team A holds seats 0 and 2, team B seats 1 and 3."""

    A = 0
    B = 1

    @property
    def seats(self) -> tuple[int, int]:
        return (int(self), int(self) + 2)

    @property
    def other(self) -> Team:
        return Team(1 - self)


def team_of(seat: int) -> Team:
    return Team(seat % 2)
