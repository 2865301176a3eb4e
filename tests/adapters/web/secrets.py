"""The hidden-card checker of the web table: no message a page receives shows a card
its reader may not see (a seat: its own cards and the public ones; a spectator: the
public ones only), in any field: the hand, the trick, the trump, the actions, and
every card named in a text (status, log, notes, results, labels).

As :class:`tests.adapters.classic_play.Secrets` does for the chat: a message sent
during a step may show the state before it or after it, so a reader may see what he
saw before the step or sees in any deal since (as it is now: a card played is
public for good, a hand of the deal before holds nothing any more). Call
:meth:`WebSecrets.look` before a step and :meth:`WebSecrets.check` once the pages
received what it led to.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from bot.models import Game
from core.cards import Card
from core.classic.ruleset import ClassicGameAdapter
from core.yard.actions import ActionKind
from core.yard.deal import Deal
from core.yard.ruleset import YardGame
from tests.adapters.classic_play import Reader, cards_in, public_cards, seat_cards


def _deal_sees(deal: Deal, reader: Reader) -> set[Card]:
    cards = {deal.trump_card}
    for action in deal.actions:
        if action.kind is not ActionKind.DISCARD or action.seat == reader:
            cards.update(action.cards)
    if reader is not None:
        cards.update(deal.hand(reader))
    return cards


def dealt(game: Game) -> int:
    """How many deals (dealings) the game has dealt."""
    play = game.play
    if isinstance(play, ClassicGameAdapter):
        return len(play.game.dealings)
    assert isinstance(play, YardGame)
    return len(play.series.deals)


def sees(game: Game, reader: Reader, since: int) -> set[Card]:
    """The cards ``reader`` may see in the game's deals (dealings) from ``since`` on:
    each as it is now (a card played is seen for good)."""
    play = game.play
    cards: set[Card] = set()
    if isinstance(play, ClassicGameAdapter):
        for dealing in play.game.dealings[since:]:
            if reader is None:
                cards |= public_cards(dealing.table_view())
            else:
                cards |= seat_cards(dealing.view(reader))
        return cards
    assert isinstance(play, YardGame)
    for deal in play.series.deals[since:]:
        cards |= _deal_sees(deal, reader)
    return cards


def _texts(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item)


def shown(view: dict[str, Any]) -> set[Card]:
    """Every card a view shows: by code (hand, trick, trump, actions) or by label."""
    codes: list[str] = list(view.get("hand") or [])
    codes += [code for play in view["trick"] for code in play["cards"] if code is not None]
    codes += [code for action in view["actions"] for code in action["cards"]]
    trump = view.get("trump") or {}
    if trump.get("card"):
        codes.append(trump["card"])
    cards = {Card.parse(code) for code in codes}
    for text in _texts({k: v for k, v in view.items() if k not in ("hand", "trick", "actions")}):
        cards |= cards_in(text)
    for action in view["actions"]:
        cards |= cards_in(action["label"])
    return cards


@dataclass
class WebSecrets:
    """Checks every state the pages received since the last check."""

    before: dict[Reader, set[Card]] = field(default_factory=dict)
    first: int = 0  # the deal (dealing) being played at the last look
    checked: int = 0
    read: dict[int, int] = field(default_factory=dict)  # by page: messages checked

    def look(self, game: Game) -> None:
        self.first = max(dealt(game) - 1, 0)
        self.before = {reader: sees(game, reader, self.first) for reader in (None, 0, 1, 2, 3)}

    def check(self, game: Game, pages: Iterable[tuple[Reader, Any]]) -> None:
        """Check the new messages of each (reader, page) up to ``game``'s version, then
        look again (a state of a later version, a computer's move made since the game
        was read, is checked with the game that has it, next time)."""
        for reader, page in pages:
            start = read = self.read.get(id(page), 0)
            allowed = self.before.get(reader, set()) | sees(game, reader, self.first)
            for read, message in enumerate(page.received[start:], start):  # noqa: B007
                if message.get("type") == "state" and message["version"] > game.version:
                    break
                if message.get("type") != "state":
                    continue
                view = message["view"]
                assert view["you"] == reader, (reader, view["you"])
                if reader is None:
                    assert view["hand"] is None and view["actions"] == []
                leaked = shown(view) - allowed
                assert not leaked, f"{reader=} may not see {sorted(c.code for c in leaked)}"
                self.checked += 1
            else:
                read = len(page.received)
            self.read[id(page)] = read
        self.look(game)
