"""Computer players of classic Kozel.

A player sees only its seat's :class:`~core.classic.views.ClassicSeatView` (its hand,
its legal actions, the public table: every card of the taken tricks, the current
trick, face-up laid cards, the simple declarer's shown cards) and the table's
options, and answers with one of its legal actions, or None when nothing obliges it
to act and it lets the moment pass (an offer or a redeal it does not want).

- :class:`RandomPlayer`: a uniformly random legal action.
- :class:`ClassicComputer`: counts the cards gone and the trumps still out; draws
  trumps with the top trump, cashes aces, leads low otherwise; follows its partner
  (loads points onto a trick the partner surely takes, never overtakes him), beats
  cheaply and safely, dumps its cheapest card; keeps the kocherga for Q♣ and catches
  it, never risks its own Q♣ while 7♣ is out; lays, names the trump, offers, answers
  and asks for redeals by the strength of its hand.

>>> import random
>>> from core.classic.dealing import Dealing, redeal_qualifies
>>> from core.classic.options import ClassicOptions
>>> dealing = Dealing.shuffled(ClassicOptions(), 3, random.Random(2))
>>> seat = dealing.turn
>>> action = ClassicComputer().choose(dealing.view(seat), dealing.options)
>>> action is not None and dealing.can(action)
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from core.cards import Card, Suit
from core.classic.actions import ClassicAction, ClassicActionKind
from core.classic.cards import (
    CARDS,
    FULL_MASK,
    KOCHERGA,
    NINES,
    POINTS,
    QUEEN_OF_CLUBS,
    Trumps,
    bits,
    index_of,
    mask_of,
    points_in,
    table_for,
    trick_winner,
)
from core.classic.dealing import Dealing, redeal_qualifies
from core.classic.events import ClassicDealResult
from core.classic.game import ClassicGame
from core.classic.options import ClassicOptions, Follow, Praise
from core.classic.views import ClassicSeatView, PlayedCard
from core.ruleset import LEVEL_NAMES

K = ClassicActionKind
_OPTIONAL = frozenset({K.OFFER_TRUMP, K.REDEAL})


class ClassicPlayer(Protocol):
    def choose(self, view: ClassicSeatView, options: ClassicOptions) -> ClassicAction | None:
        """One of ``view.legal``; None to let an optional moment pass."""
        ...


def must_act(view: ClassicSeatView) -> bool:
    """Whether the seat has an obligatory choice (anything but an offer or a redeal)."""
    return any(action.kind not in _OPTIONAL for action in view.legal)


class RandomPlayer:
    """A uniformly random legal action; an optional offer or redeal half of the time."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()

    def choose(self, view: ClassicSeatView, options: ClassicOptions) -> ClassicAction | None:
        # A request for the team's queens (docs/rules/reference.md §2.16) may be refused: never
        # made.
        sure = redeal_qualifies(mask_of(view.hand))
        legal = [a for a in view.legal if a.kind is not K.REDEAL or sure]
        if not legal:
            return None
        if not must_act(view) and self.rng.random() < 0.5:
            return None
        return self.rng.choice(legal)


def _value(table: Trumps, card: int) -> tuple[int, int, int]:
    """How much a card is worth keeping: trumps first, then points, then strength."""
    return (table.trumps >> card & 1, POINTS[card], table.rank[card])


class ClassicComputer:
    """The classic computer player (see the module's text)."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()
        self._holds = [FULL_MASK] * 4

    # --- The decision ---------------------------------------------------------------

    def choose(self, view: ClassicSeatView, options: ClassicOptions) -> ClassicAction | None:
        legal = view.legal
        if not legal:
            return None
        kinds = {action.kind for action in legal}
        if K.DEAL in kinds:
            return self._praise_or_deal(view, options)
        if K.LAY in kinds:
            return self._lay(view, options)
        if K.CUT in kinds:
            return self.rng.choice(legal)
        if K.NAME_TRUMP in kinds:
            return self._name(view, options)
        if K.DECLINE_TRUMP in kinds:
            return self._answer(view, options)
        if K.REDEAL in kinds and self._wants_redeal(view, options):
            return ClassicAction.redeal(view.seat)
        if K.OFFER_TRUMP in kinds and self._trumps_in_hand(view, options) == 1:
            return ClassicAction.offer_trump(view.seat)
        plays = [action for action in legal if action.kind is K.PLAY]
        if not plays:
            return None
        return ClassicAction.play(view.seat, self._play(view, options, plays))

    # --- Before the tricks --------------------------------------------------------------

    def _praise_or_deal(self, view: ClassicSeatView, options: ClassicOptions) -> ClassicAction:
        """Praising gives the declarer the lead and, in simple, the good cards, in pants
        and mirror the naming; the cards are not seen yet, and measured against
        "deal" praising wins more (docs/ai.md), so it always praises."""
        kind = Praise.PANTS if options.praise is Praise.CHOOSE else options.praise
        return ClassicAction.praise_with(view.seat, kind)

    def _known_trumps(self, view: ClassicSeatView, options: ClassicOptions) -> Trumps:
        trump = view.table.trump
        return table_for(-1 if trump is None else int(trump), options.kocherga)

    def _lay(self, view: ClassicSeatView, options: ClassicOptions) -> ClassicAction:
        table = self._known_trumps(view, options)
        cards = [a.card for a in view.legal if a.card is not None]
        worst = min(cards, key=lambda card: _value(table, index_of(card)))
        return ClassicAction.lay(view.seat, worst)

    def _name(self, view: ClassicSeatView, options: ClassicOptions) -> ClassicAction:
        """The suit that makes the strongest hand, a bonus if it wins the laid trick for
        the team; no trump suit when no suit is long."""
        hand = mask_of(view.hand)
        laid = [lc.card for lc in view.table.laid]
        if view.laid is not None and laid and laid[0] is None:
            laid[0] = view.laid
        best: tuple[float, Suit | None] = (-1.0, None)
        for suit in (None, *Suit):
            table = table_for(-1 if suit is None else int(suit), options.kocherga)
            mine = hand & table.suit_cards
            score = 3.0 * mine.bit_count() + points_in(mine) / 5
            if suit is None:
                score = 4.0 + 2.0 * (hand & table.permanent).bit_count()
            if len(laid) == 4 and all(card is not None for card in laid):
                order = [index_of(card) for card in laid if card is not None]
                declarer = view.table.declarer or 0
                winner = (declarer + trick_winner(table, order)) % 4
                if winner % 2 == view.seat % 2:
                    score += sum(POINTS[c] for c in order) / 4
            if score > best[0]:
                best = (score, suit)
        return ClassicAction.name_trump(view.seat, best[1])

    def _trumps_in_hand(self, view: ClassicSeatView, options: ClassicOptions) -> int:
        table = self._known_trumps(view, options)
        return (mask_of(view.hand) & table.trumps).bit_count()

    def _answer(self, view: ClassicSeatView, options: ClassicOptions) -> ClassicAction:
        """Take the partner's last trump when holding three trumps or more, giving the
        cheapest card."""
        if self._trumps_in_hand(view, options) < 3:
            return ClassicAction.decline_trump(view.seat)
        table = self._known_trumps(view, options)
        cards = [a.card for a in view.legal if a.card is not None]
        cheapest = min(cards, key=lambda card: _value(table, index_of(card)))
        return ClassicAction.accept_trump(view.seat, cheapest)

    def _wants_redeal(self, view: ClassicSeatView, options: ClassicOptions) -> bool:
        """A weak hand asks for a redeal, but never the third one against its own team."""
        table = view.table
        hand = mask_of(view.hand)
        if not redeal_qualifies(hand):
            return False  # a request for the team's queens might be refused (§2.16)
        dealer_ours = table.dealer % 2 == view.seat % 2
        if table.attempt >= 2:
            return not dealer_ours
        if hand & NINES == NINES:
            return True
        return self._trumps_in_hand(view, options) <= 2

    # --- The tricks ---------------------------------------------------------------------

    def _play(
        self, view: ClassicSeatView, options: ClassicOptions, plays: Sequence[ClassicAction]
    ) -> Card:
        table = self._known_trumps(view, options)
        legal = mask_of(a.card for a in plays if a.card is not None)
        hand = mask_of(view.hand)
        t = view.table
        seen = hand | mask_of(t.taken) | mask_of(p.card for p in t.trick) | mask_of(t.shown)
        if view.exchange is not None:
            seen |= 1 << index_of(view.exchange.got) | 1 << index_of(view.exchange.given)
        unseen = FULL_MASK & ~seen
        trick = [(p.seat, index_of(p.card)) for p in t.trick]
        self._holds = possible_holdings(table, options, t.played, unseen)
        if trick:
            card = self._follow(view.seat, table, options, legal, unseen, trick)
        else:
            card = self._lead(view, table, options, legal, unseen)
        return CARDS[card]

    def _guarded(
        self, options: ClassicOptions, legal: int, unseen: int, queen_safe: bool = False
    ) -> int:
        """The legal cards without the kocherga while Q♣ may still come and, unless no
        opponent plays after it in the trick, without Q♣ while 7♣ is out (unless
        nothing else is left)."""
        keep = legal
        if options.kocherga:
            if unseen >> QUEEN_OF_CLUBS & 1:
                keep &= ~(1 << KOCHERGA)
            if unseen >> KOCHERGA & 1 and not queen_safe:
                keep &= ~(1 << QUEEN_OF_CLUBS)
        return keep or legal

    def _lead(
        self,
        view: ClassicSeatView,
        table: Trumps,
        options: ClassicOptions,
        legal: int,
        unseen: int,
    ) -> int:
        candidates = self._guarded(options, legal, unseen)
        my_trumps = candidates & table.trumps
        out_trumps = unseen & table.trumps
        if my_trumps and out_trumps:
            top = max(bits(my_trumps), key=lambda c: table.rank[c])
            if not table.beaten_by[top] & unseen and (
                (legal & table.trumps).bit_count() >= 2 or view.table.declarer == view.seat
            ):
                return top
        plain = candidates & ~table.trumps
        # A plain card no unseen card of its suit beats (an ace, or a ten after the ace).
        for suit in range(4):
            mine = plain & table.plain[suit]
            if not mine:
                continue
            top = max(bits(mine), key=lambda c: table.rank[c])
            others = unseen & table.plain[suit]
            if others.bit_count() >= 2 and not table.beaten_by[top] & others:
                return top
        pool = plain or candidates
        return min(bits(pool), key=lambda c: _value(table, c))

    def _follow(
        self,
        seat: int,
        table: Trumps,
        options: ClassicOptions,
        legal: int,
        unseen: int,
        trick: list[tuple[int, int]],
    ) -> int:
        partner = (seat + 2) & 3
        if (
            options.kocherga
            and legal >> KOCHERGA & 1
            and any(c == QUEEN_OF_CLUBS and (s ^ seat) & 1 for s, c in trick)
        ):
            return KOCHERGA  # the catch: the deal, and 4 pairs
        position = trick_winner(table, [c for _, c in trick])
        win_seat, win_card = trick[position]
        later = 3 - len(trick)  # the next seat, if any, is an opponent
        # The unseen cards the players after this seat may still hold (their voids).
        after = 0
        for k in range(1, later + 1):
            after |= self._holds[(seat + k) & 3]
        threats = unseen & after
        points = sum(POINTS[c] for _, c in trick)
        candidates = self._guarded(options, legal, unseen, queen_safe=True)
        if options.kocherga and threats >> KOCHERGA & 1:
            candidates = candidates & ~(1 << QUEEN_OF_CLUBS) or candidates
        if win_seat == partner:
            if not table.beaten_by[win_card] & threats:
                smear = candidates & ~table.trumps or candidates
                return max(bits(smear), key=lambda c: (POINTS[c], -table.rank[c]))
            return min(bits(candidates), key=lambda c: _value(table, c))
        winners = candidates & table.beaten_by[win_card]
        if winners:
            cheapest = min(bits(winners), key=lambda c: table.rank[c])
            safe = [c for c in bits(winners) if not table.beaten_by[c] & threats]
            if safe:
                return min(safe, key=lambda c: table.rank[c])
            if points >= 10 or POINTS[cheapest] == 0:
                return cheapest
        return min(bits(candidates), key=lambda c: _value(table, c))


def play_dealing(
    target: ClassicGame | Dealing, players: Sequence[ClassicPlayer]
) -> ClassicDealResult:
    """Play a dealing (or a game's current one, settled by the game) to its end with
    one player per seat. Before the first card, the seats whose turn it is not may
    offer or ask for a redeal first."""
    dealing = target.current if isinstance(target, ClassicGame) else target
    assert dealing is not None
    options = dealing.options
    while not dealing.is_over:
        turn = dealing.turn
        assert turn is not None
        acted = False
        for seat in range(4):
            if seat != turn and dealing.legal_raw(seat):
                action = players[seat].choose(dealing.view(seat), options)
                if action is not None:
                    target.apply(action)
                    acted = True
                    break
        if acted:
            continue
        action = players[turn].choose(dealing.view(turn), options)
        if action is None:
            raise ValueError(f"the player of seat {turn} must act")
        target.apply(action)
    assert dealing.result is not None
    return dealing.result


def play_game(
    players: Sequence[ClassicPlayer],
    rng: random.Random,
    options: ClassicOptions | None = None,
    first_dealer: int = 0,
) -> ClassicGame:
    """A whole game to 6 pairs, shuffled with ``rng``."""
    game = ClassicGame(options, first_dealer=first_dealer)
    while not game.is_over:
        game.deal(rng)
        play_dealing(game, players)
    return game


def possible_holdings(
    table: Trumps, options: ClassicOptions, played: Sequence[PlayedCard], unseen: int
) -> list[int]:
    """For each seat, the unseen cards it may still hold: a player who did not follow a
    plain suit has none of it; one who played no trump to a trump lead has no trump;
    one who played no trump-suit card to a trump-suit lead (``suit_first``) has none."""
    holds = [unseen, unseen, unseen, unseen]
    suit_first = options.follow is Follow.SUIT_FIRST
    for start in range(0, len(played) - len(played) % 4 + 4, 4):
        trick = played[start : start + 4]
        if not trick:
            break
        lead = index_of(trick[0].card)
        for one in trick[1:]:
            card = index_of(one.card)
            if table.trumps >> lead & 1:
                if not table.trumps >> card & 1:
                    holds[one.seat] &= ~table.trumps
                elif (
                    suit_first and table.suit_cards >> lead & 1 and not table.suit_cards >> card & 1
                ):
                    holds[one.seat] &= ~table.suit_cards
            elif not table.plain[lead // 8] >> card & 1:
                holds[one.seat] &= ~table.plain[lead // 8]
    return holds


class EasyClassic:
    """The ``easy`` level: the baseline, playing a random legal card in ``careless`` of
    its turns in the tricks (its other decisions are the baseline's)."""

    def __init__(self, rng: random.Random | None = None, careless: float = 0.4) -> None:
        self.rng = rng or random.Random()
        self.careless = careless
        self.baseline = ClassicComputer(self.rng)

    def choose(self, view: ClassicSeatView, options: ClassicOptions) -> ClassicAction | None:
        action = self.baseline.choose(view, options)
        if action is not None and action.kind is K.PLAY and self.rng.random() < self.careless:
            plays = [a for a in view.legal if a.kind is K.PLAY]
            return plays[int(self.rng.random() * len(plays))]
        return action


#: Every name :func:`new_player` knows (the table's :data:`~core.ruleset.LEVEL_NAMES`):
#: ``computer`` is ``normal`` (older name),
#: ``random`` is for benchmarks and tests.
LEVELS: tuple[str, ...] = (*LEVEL_NAMES, "computer", "random")


def new_player(level: str, rng: random.Random | None = None) -> ClassicPlayer:
    """A player by level: ``easy`` (a careless baseline), ``normal`` (the baseline,
    also ``computer``), ``strong`` (the search player of
    :mod:`core.classic.search`), or ``random``."""
    if level == "random":
        return RandomPlayer(rng)
    if level == "easy":
        return EasyClassic(rng)
    if level in ("normal", "computer"):
        return ClassicComputer(rng)
    if level == "strong":
        # Imported here: the search player builds on this module's baseline.
        from core.classic.search import ClassicSearchPlayer

        return ClassicSearchPlayer(rng)
    raise ValueError(f"unknown level {level!r}; known: {', '.join(LEVELS)}")


__all__ = [
    "LEVELS",
    "ClassicComputer",
    "ClassicPlayer",
    "EasyClassic",
    "RandomPlayer",
    "must_act",
    "new_player",
    "play_dealing",
    "play_game",
    "possible_holdings",
]
