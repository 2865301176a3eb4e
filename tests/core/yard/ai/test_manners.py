"""What a human partner expects of the baseline, checked over many random deals."""

from __future__ import annotations

import random
from collections import Counter

from core.cards import Card, Suit
from core.yard.actions import Action, ActionKind
from core.yard.ai import BaselinePlayer, CardCounter, RandomPlayer, play_deal
from core.yard.ai.players import Player
from core.yard.deal import Deal
from core.yard.events import Event
from core.yard.views import SeatView


def _big(cards: tuple[Card, ...]) -> int:
    return sum(card.points >= 10 for card in cards)


def _trumps(cards: tuple[Card, ...], trump: Suit) -> int:
    return sum(card.suit == trump for card in cards)


class Watcher:
    """Wraps a baseline and counts the moves a partner would frown at."""

    def __init__(self, seen: Counter[str]) -> None:
        self.player = BaselinePlayer(CardCounter())
        self.seen = seen

    def observe(self, event: Event) -> None:
        self.player.observe(event)

    def choose(self, view: SeatView, rng: random.Random) -> Action | None:
        action = self.player.choose(view, rng)
        table = view.table
        if action is None or table.turn != view.seat or not table.plays:
            return action
        team = view.seat % 2
        first = table.plays[0].seat
        after = [(first + k) % 4 for k in range(len(table.plays) + 1, 4)]
        opponents_after = any(seat % 2 != team for seat in after)
        partner_after = any(seat % 2 == team for seat in after)
        winner = table.winning_seat
        assert winner is not None
        if winner % 2 == team and not opponents_after:
            self.seen["partner's sure trick"] += 1
            if action.kind is ActionKind.BEAT:
                self.seen["beat a partner's sure trick"] += 1
        if winner % 2 != team and not partner_after and action.kind is ActionKind.DISCARD:
            self.seen["discard onto a lost trick"] += 1
            trumps = _trumps(action.cards, table.trump)
            if any(
                other.kind is ActionKind.DISCARD
                and _big(other.cards) < _big(action.cards)
                and _trumps(other.cards, table.trump) <= trumps
                for other in view.legal
            ):
                self.seen["ace or ten thrown away needlessly"] += 1
        return action


def test_the_baseline_keeps_its_manners_over_many_deals() -> None:
    seen: Counter[str] = Counter()
    rng = random.Random(11)
    for i in range(200):
        players: list[Player] = [Watcher(seen) for _ in range(4)]
        if i % 2:
            players[1] = players[3] = RandomPlayer()
        play_deal(Deal.shuffled(i % 4, rng), players, rng)
    assert seen["partner's sure trick"] > 30
    assert seen["discard onto a lost trick"] > 30
    assert seen["beat a partner's sure trick"] == 0
    assert seen["ace or ten thrown away needlessly"] == 0
