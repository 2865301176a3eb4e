"""A classic game (партия): deals until a team has 6 or more pairs
(docs/rules/reference.md §2.3, §2.13).

The game keeps every dealing (a redeal starts a new dealing of the same deal), the
running pairs, the egg pairs put aside, and the roulette's fixed suits. Randomness
comes in from outside: :meth:`ClassicGame.deal` takes an ``rng``.

>>> import random
>>> game = ClassicGame(ClassicOptions(), first_dealer=3)
>>> _ = game.deal(random.Random(1))
>>> game.current.number, game.current.attempt, game.pairs
(0, 0, (0, 0))
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from core.cards import Card, Suit
from core.classic.actions import ClassicAction
from core.classic.cards import index_of
from core.classic.dealing import Dealing, Phase, RawAction
from core.classic.errors import ClassicReason
from core.classic.events import (
    CardsDealt,
    ClassicDealResult,
    ClassicEvent,
    ClassicGameResult,
    DealEnd,
    DealingStarted,
    DealScored,
    GameFinished,
)
from core.classic.options import ClassicOptions, Lucy
from core.classic.scoring import PAIR_LIMIT, is_tails, settle, title_for
from core.errors import KozelError, Reason
from core.seats import Team


class ClassicGame:
    """The dealings of one game, the pairs and the end."""

    __slots__ = ("_dealings", "_pairs", "_result", "first_dealer", "options")

    def __init__(self, options: ClassicOptions | None = None, first_dealer: int = 0) -> None:
        if not isinstance(first_dealer, int) or not 0 <= first_dealer < 4:
            raise KozelError(Reason.BAD_SEAT)
        self.options = ClassicOptions() if options is None else options
        if not isinstance(self.options, ClassicOptions):
            raise KozelError(Reason.BAD_OPTIONS, "options must be ClassicOptions")
        self.first_dealer = first_dealer
        self._dealings: list[Dealing] = []
        self._pairs = [0, 0]
        self._result: ClassicGameResult | None = None

    # --- State -------------------------------------------------------------------

    @property
    def dealings(self) -> tuple[Dealing, ...]:
        return tuple(self._dealings)

    @property
    def current(self) -> Dealing | None:
        """The dealing being played or the last one; None before the first."""
        return self._dealings[-1] if self._dealings else None

    @property
    def pairs(self) -> tuple[int, int]:
        """Each team's pairs after the last finished dealing (after a Люся reset)."""
        return (self._pairs[0], self._pairs[1])

    @property
    def egg_pairs(self) -> int:
        """Egg pairs put aside and not yet won."""
        last = self._last_result()
        return 0 if last is None else last.egg_pairs

    @property
    def fixed_suits(self) -> tuple[Suit, ...] | None:
        """The roulette's suits by seat once set (§2.5)."""
        for dealing in reversed(self._dealings):
            return dealing.fixed_suits
        return None

    @property
    def is_over(self) -> bool:
        return self._result is not None

    @property
    def result(self) -> ClassicGameResult | None:
        return self._result

    @property
    def eggs(self) -> int:
        """How many deals of the game ended in eggs."""
        return sum(1 for d in self._dealings if d.result is not None and d.result.eggs)

    def _last_result(self) -> ClassicDealResult | None:
        for dealing in reversed(self._dealings):
            if dealing.result is not None:
                return dealing.result
        return None

    @property
    def next_dealer(self) -> int:
        """The dealer of the next dealing (§2.3)."""
        if not self._dealings:
            return self.first_dealer
        result = self._dealings[-1].result
        if result is None:
            raise KozelError(Reason.DEAL_NOT_OVER)
        return result.next_dealer

    def _next_numbers(self) -> tuple[int, int]:
        """(deal number, attempt) of the next dealing."""
        if not self._dealings:
            return (0, 0)
        last = self._dealings[-1]
        if last.end is DealEnd.REDEAL:
            return (last.number, last.attempt + 1)
        return (last.number + 1, 0)

    # --- Dealing -------------------------------------------------------------------

    def _check_can_deal(self) -> None:
        if self._result is not None:
            raise KozelError(ClassicReason.GAME_OVER)
        if self._dealings and not self._dealings[-1].is_over:
            raise KozelError(Reason.DEAL_NOT_OVER)

    def deal(self, rng: random.Random) -> list[ClassicEvent]:
        """Shuffle with ``rng`` and start the next dealing."""
        self._check_can_deal()
        number, attempt = self._next_numbers()
        fixed = self._dealings[-1].fixed_suit_codes if self._dealings else None
        dealing = Dealing.shuffled(
            self.options,
            self.next_dealer,
            rng,
            number=number,
            attempt=attempt,
            fixed_suits=fixed,
            egg_pairs=self.egg_pairs,
        )
        return self._start(dealing)

    def deal_indexes(self, deck: Sequence[int], dealer: int | None = None) -> list[ClassicEvent]:
        """Start the next dealing from card indexes (checked)."""
        self._check_can_deal()
        expected = self.next_dealer
        if dealer is not None and dealer != expected and self._dealings:
            raise KozelError(Reason.BAD_DEALER, f"the dealer of this dealing is seat {expected}")
        chosen = expected if dealer is None else dealer
        if not self._dealings:
            self.first_dealer = chosen
        number, attempt = self._next_numbers()
        fixed = self._dealings[-1].fixed_suit_codes if self._dealings else None
        dealing = Dealing(
            self.options,
            chosen,
            deck,
            number=number,
            attempt=attempt,
            fixed_suits=fixed,
            egg_pairs=self.egg_pairs,
        )
        return self._start(dealing)

    def deal_from(self, deck: Sequence[Card], dealer: int | None = None) -> list[ClassicEvent]:
        """Start the next dealing from a given deck order (top first). ``dealer``, when
        given, must be the one the rules call for (any seat for the first)."""
        return self.deal_indexes([index_of(card) for card in deck], dealer)

    def _start(self, dealing: Dealing) -> list[ClassicEvent]:
        self._dealings.append(dealing)
        chooser = dealing.turn if dealing.phase is Phase.PRAISE else None
        events: list[ClassicEvent] = [
            DealingStarted(dealing.number, dealing.attempt, dealing.dealer, chooser)
        ]
        # A dealing without a praise decision is dealt at once: replay its deal event.
        if chooser is None:
            table = dealing.table_view()
            events.append(
                CardsDealt(
                    hand_sizes=table.hand_sizes,
                    shown=(),
                    trump=table.trump,
                    trump_set=table.trump_set,
                    fixed_suits=table.fixed_suits,
                    leader=table.leader,
                )
            )
        return events

    # --- Play ------------------------------------------------------------------------

    def _playing(self) -> Dealing:
        dealing = self.current
        if dealing is None:
            raise KozelError(Reason.DEAL_NOT_OVER, "no dealing has been dealt yet")
        if dealing.is_over:
            raise KozelError(ClassicReason.GAME_OVER if self.is_over else Reason.DEAL_OVER)
        return dealing

    def verify(self, action: ClassicAction) -> None:
        self._playing().verify(action)

    def can(self, action: ClassicAction) -> bool:
        try:
            self.verify(action)
        except KozelError:
            return False
        return True

    def apply(self, action: ClassicAction) -> list[ClassicEvent]:
        """Apply a legal action to the current dealing; a dealing that ends adds
        :class:`DealScored`, and one that ends the game :class:`GameFinished`."""
        dealing = self._playing()
        events = dealing.apply(action)
        if dealing.is_over:
            self._settle(dealing, events)
        return events

    def step_raw(self, seat: int, kind: int, arg: int, events: list[ClassicEvent] | None) -> None:
        """Apply a raw action known to be legal (the engine's fast path)."""
        dealing = self._dealings[-1]
        dealing.step_raw(seat, kind, arg, events)
        if dealing.is_over:
            self._settle(dealing, events)

    def playout_dealing(self, rand: Callable[[], float]) -> ClassicDealResult:
        """Play the current dealing to its end at random (see :meth:`Dealing.playout`)
        and settle it."""
        dealing = self._playing()
        result = dealing.playout(rand)
        self._settle(dealing, None)
        return result

    def apply_raw(self, seat: int, kind: int, arg: int) -> None:
        dealing = self._playing()
        reason = dealing.reason_raw(seat, kind, arg)
        if reason is not None:
            raise KozelError(reason)
        self.step_raw(seat, kind, arg, None)

    def _settle(self, dealing: Dealing, events: list[ClassicEvent] | None) -> None:
        result = dealing.result
        assert result is not None
        winner = result.winner
        before = -1 if winner is None else self._pairs[winner]
        # §2.16 lucy = win: a Люся against a team with no pairs ends the game.
        lucy_win = (
            winner is not None
            and result.lucy
            and self.options.lucy is Lucy.WIN
            and self._pairs[winner.other] == 0
        )
        self._pairs = list(settle(self.pairs, result))
        if events is not None:
            events.append(DealScored(dealing.number, dealing.attempt, result))
        if winner is not None and (self._pairs[winner] >= PAIR_LIMIT or lucy_win):
            eggs = self.eggs
            tails = not lucy_win and is_tails(before, result)
            self._result = ClassicGameResult(
                winner=winner,
                loser=winner.other,
                title=title_for(eggs=eggs > 0, tails=tails),
                pairs=self.pairs,
                deals=dealing.number + 1,
                eggs=eggs,
            )
            if events is not None:
                events.append(GameFinished(self._result))

    def legal_actions(self, seat: int | None = None) -> list[ClassicAction]:
        dealing = self.current
        return [] if dealing is None else dealing.legal_actions(seat)

    def legal_raw(self, seat: int | None = None) -> list[RawAction]:
        dealing = self.current
        return [] if dealing is None else dealing.legal_raw(seat)

    def state_key(self) -> tuple[object, ...]:
        return (
            self.options,
            self.first_dealer,
            tuple(self._pairs),
            self._result,
            tuple(d.state_key() for d in self._dealings),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ClassicGame):
            return NotImplemented
        return self.state_key() == other.state_key()

    __hash__ = None  # type: ignore[assignment]


__all__ = ["PAIR_LIMIT", "ClassicGame", "Team"]
