"""Scoring in pairs (docs/rules/reference.md §2.12) and the end of a game (§2.13), as pure
functions.

>>> r = score_dealing(DealEnd.PLAYED, (90, 30), (6, 2), None, egg_pairs=1, next_dealer=0)
>>> r.winner, r.pairs, r.egg_pairs, r.lucy
(<Team.A: 0>, (3, 0), 0, False)
>>> settle((5, 3), r), title_for(eggs=True, tails=is_tails(5, r))
((8, 3), <ClassicTitle.GOATS_WITH_EGGS_AND_TAILS: 'goats_with_eggs_and_tails'>)
"""

from __future__ import annotations

from core.classic.events import ClassicDealResult, ClassicTitle, DealEnd
from core.seats import Team

#: Pairs that end a game.
PAIR_LIMIT = 6
#: Card points from which a won deal gives 2 pairs (and can give tails).
TWO_PAIR_POINTS = 90
#: Pairs the winners had before the last deal for tails.
TAILS_BEFORE = 5
KOCHERGA_PAIRS = 4
REDEAL_PENALTY_PAIRS = 1


def score_dealing(
    end: DealEnd,
    points: tuple[int, int],
    tricks: tuple[int, int],
    winner: Team | None,
    egg_pairs: int,
    next_dealer: int,
    egg_pair: bool = True,
) -> ClassicDealResult:
    """What a finished dealing gives. ``winner`` is the catching team of a kocherga
    catch or the non-dealing team of a redeal penalty (None otherwise: a played deal's
    winner comes from its points); ``egg_pairs`` are those put aside before it;
    ``egg_pair`` False: eggs put no egg pair aside (§2.16 ``eggs`` = ``replay``)."""
    eggs = lucy = False
    pairs = [0, 0]
    if end is DealEnd.PLAYED:
        winner = None
        if points[0] == points[1]:
            eggs = True
            egg_pairs += 1 if egg_pair else 0
        else:
            winner = Team.A if points[0] > points[1] else Team.B
            lucy = tricks[winner.other] == 0
            pairs[winner] = 2 if points[winner] >= TWO_PAIR_POINTS else 1
    elif end is DealEnd.KOCHERGA:
        assert winner is not None
        pairs[winner] = KOCHERGA_PAIRS
    elif end is DealEnd.REDEAL_PENALTY:
        assert winner is not None
        pairs[winner] = REDEAL_PENALTY_PAIRS
    else:
        winner = None
    if winner is not None:
        pairs[winner] += egg_pairs
        egg_pairs = 0
    return ClassicDealResult(
        end=end,
        points=points,
        tricks=tricks,
        winner=winner,
        pairs=(pairs[0], pairs[1]),
        eggs=eggs,
        lucy=lucy,
        kocherga=end is DealEnd.KOCHERGA,
        next_dealer=next_dealer,
        egg_pairs=egg_pairs,
    )


def settle(pairs: tuple[int, int], result: ClassicDealResult) -> tuple[int, int]:
    """The game's pairs after a dealing: its pairs added, then a Люся reset."""
    totals = [pairs[0] + result.pairs[0], pairs[1] + result.pairs[1]]
    if result.lucy and result.winner is not None:
        totals[result.winner.other] = 0
    return (totals[0], totals[1])


def is_tails(winner_pairs_before: int, result: ClassicDealResult) -> bool:
    """Tails: the winners stood at exactly 5 and won the last deal by card points
    with 90 or more (never by a kocherga catch or a redeal penalty)."""
    return (
        winner_pairs_before == TAILS_BEFORE
        and result.end is DealEnd.PLAYED
        and result.winner is not None
        and result.points[result.winner] >= TWO_PAIR_POINTS
    )


def title_for(eggs: bool, tails: bool) -> ClassicTitle:
    """The losers' title from whether the game had eggs and whether it ended in tails."""
    if eggs and tails:
        return ClassicTitle.GOATS_WITH_EGGS_AND_TAILS
    if tails:
        return ClassicTitle.GOATS_WITH_TAILS
    if eggs:
        return ClassicTitle.GOATS_WITH_EGGS
    return ClassicTitle.GOATS
