"""Yard game records (docs/rules/reference.md §3): export, replay and snapshots.

A record lists each deal's dealer, deck order and trump position, and the actions
played. Replaying checks every action against the rules and stops at the first
illegal one; it never guesses. A snapshot of a series is its record, so a series
restored from one is the same series, down to the middle of a trick.

>>> from core.yard.series import Series
>>> import random
>>> series = Series(first_dealer=3)
>>> _ = series.deal(random.Random(7))
>>> _ = series.apply(series.legal_actions(0)[0])
>>> restore(snapshot(series)) == series
True
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from core.cards import CARDS, DECK_SIZE, Card, cards_of
from core.errors import KozelError, Reason, describe
from core.record import RecordError, is_int, load_record, options_of, seed_of, variant_of
from core.ruleset import RuleOptions, parse_options
from core.yard.actions import KIND_BY_CODE, Action, ActionKind
from core.yard.deal import STOCK_SIZE, Deal, RawAction
from core.yard.series import Series

VARIANT = "yard"
SNAPSHOT_VERSION = 1


# --- Export ------------------------------------------------------------------------


def action_to_json(action: Action) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": action.seat, "type": action.kind.value}
    if action.kind is not ActionKind.MOLODKA:
        out["cards"] = [card.code for card in action.cards]
    return out


def deal_to_json(deal: Deal) -> dict[str, Any]:
    """One deal as a record entry."""
    return {
        "dealer": deal.dealer,
        "deck": [card.code for card in deal.deck],
        "trump_index": deal.trump_index,
        "actions": [action_to_json(action) for action in deal.actions],
    }


def series_to_record(series: Series, seed: int | None = None) -> dict[str, Any]:
    """A whole series as a game record."""
    return {
        "variant": VARIANT,
        "options": {},
        "seed": seed,
        "deals": [deal_to_json(deal) for deal in series.deals],
    }


def deal_to_record(deal: Deal, seed: int | None = None) -> dict[str, Any]:
    """A single deal as a game record."""
    return {"variant": VARIANT, "options": {}, "seed": seed, "deals": [deal_to_json(deal)]}


# --- Parsing -------------------------------------------------------------------------


def _fail(
    reason: str, deal: int | None = None, action: int | None = None, seat: int | None = None
) -> RecordError:
    return RecordError(reason, deal, action, seat)


def _parse_cards(raw: object, where: str, deal: int, action: int | None = None) -> list[Card]:
    if not isinstance(raw, list):
        raise _fail(f"{where} must be a list of card codes", deal, action)
    cards = []
    for code in raw:
        if not isinstance(code, str):
            raise _fail(f"{where}: {code!r} is not a card code", deal, action)
        try:
            cards.append(Card.parse(code))
        except KozelError:
            raise _fail(f"{where}: unknown card code {code!r}", deal, action) from None
    return cards


def _parse_deck(entry: Mapping[str, Any], number: int) -> tuple[int, list[Card], int]:
    dealer = entry.get("dealer")
    if not is_int(dealer) or not 0 <= dealer < 4:
        raise _fail(f"dealer must be a seat 0 to 3, not {dealer!r}", number)
    deck = _parse_cards(entry.get("deck"), "deck", number)
    if len(deck) != DECK_SIZE:
        raise _fail(f"the deck has {len(deck)} cards, not {DECK_SIZE}", number)
    seen: set[Card] = set()
    for card in deck:
        if card in seen:
            raise _fail(f"the deck holds {card.code} twice", number)
        seen.add(card)
    trump_index = entry.get("trump_index")
    if not is_int(trump_index) or not 0 <= trump_index < STOCK_SIZE:
        raise _fail(f"trump_index must be 0 to {STOCK_SIZE - 1}, not {trump_index!r}", number)
    return dealer, deck, trump_index


def _parse_action(raw: object, deal: int, index: int) -> Action:
    if not isinstance(raw, Mapping):
        raise _fail("an action must be an object", deal, index)
    seat = raw.get("seat")
    if not is_int(seat) or not 0 <= seat < 4:
        raise _fail(f"seat must be 0 to 3, not {seat!r}", deal, index)
    kind_name = raw.get("type")
    try:
        kind = ActionKind(str(kind_name))
    except ValueError:
        raise _fail(f"unknown action type {kind_name!r}", deal, index, seat) from None
    if kind is ActionKind.MOLODKA:
        cards = _parse_cards(raw.get("cards", []), "cards", deal, index)
    else:
        cards = _parse_cards(raw.get("cards"), "cards", deal, index)
    return Action(seat, kind, tuple(cards))


# --- Replay --------------------------------------------------------------------------


def _yard_options(raw: Mapping[str, Any] | None) -> RuleOptions:
    """The yard game has no options: ``{}`` (or none); any key is an unknown option."""
    return parse_options(RuleOptions, raw)


def series_from_record(source: str | bytes | Mapping[str, Any]) -> Series:
    """Rebuild a series from a record, checking every action; raise :class:`RecordError`
    at the first problem."""
    data = load_record(source)
    if "variant" in data and data["variant"] != VARIANT:
        raise _fail(f"unknown variant {data['variant']!r} (this replay knows {VARIANT!r})")
    variant_of(data)  # and it is there
    options_of(data, _yard_options, required=False)
    seed_of(data)
    deals = data.get("deals")
    if not isinstance(deals, list):
        raise _fail("a record needs a list of deals")
    series: Series | None = None
    for number, entry in enumerate(deals):
        if not isinstance(entry, Mapping):
            raise _fail("a deal must be an object", number)
        dealer, deck, trump_index = _parse_deck(entry, number)
        if series is None:
            series = Series(first_dealer=dealer)
        current = series.current
        if current is not None and not current.is_over:
            raise _fail("the deal before this one is not complete", number)
        if series.is_over:
            raise _fail("the series was already over before this deal", number)
        try:
            series.deal_from(deck, trump_index, dealer=dealer)
        except KozelError as error:
            raise _fail(describe(error.reason), number) from None
        actions = entry.get("actions", [])
        if not isinstance(actions, list):
            raise _fail("actions must be a list", number)
        for index, raw in enumerate(actions):
            action = _parse_action(raw, number, index)
            try:
                series.apply(action)
            except KozelError as error:
                raise _fail(str(error), number, index, action.seat) from None
    return series if series is not None else Series()


def report(series: Series) -> dict[str, Any]:
    """The replay's output JSON (docs/rules/reference.md §3), keys fixed."""
    deals = []
    for deal in series.deals:
        result = deal.result
        if result is None:
            deals.append(
                {
                    "complete": False,
                    "points": list(deal.pile_points()),
                    "tricks": list(deal.tricks),
                    "loss_points": None,
                    "eggs": None,
                    "next_leader": None,
                }
            )
        else:
            deals.append(
                {
                    "complete": True,
                    "points": list(result.points),
                    "tricks": list(result.tricks),
                    "loss_points": list(result.loss_points),
                    "eggs": result.eggs,
                    "next_leader": result.next_leader,
                }
            )
    outcome = series.result
    return {
        "deals": deals,
        "series": {
            "loss_points": list(series.loss_points),
            "finished": outcome is not None,
            "loser": outcome.loser.name if outcome else None,
            "title": outcome.title.value if outcome else None,
        },
    }


def replay(source: str | bytes | Mapping[str, Any]) -> dict[str, Any]:
    """Replay a record and return the report, or the ``{"error": ...}`` JSON."""
    try:
        return report(series_from_record(source))
    except RecordError as error:
        return error.to_json()


# --- Snapshots -----------------------------------------------------------------------
#
# A bot saves a game's snapshot after every move, so snapshots are written as text
# piece by piece, not built as a record and dumped whole: each action's text is
# written once (a pure function of the engine's action, memoized), and a
# :class:`SnapshotCache` keeps each deal's text, adding only the actions played
# since. The text is exactly what ``json.dumps`` writes for the record, which the
# tests check against the plain dump.


#: Card codes by card index (``Card.code`` is slow to compute 36 times a deal).
_CARD_CODES: tuple[str, ...] = tuple(card.code for card in CARDS)


#: ``json.dumps(value, separators=(",", ":"))`` builds an encoder per call; one will do.
_dumps = json.JSONEncoder(separators=(",", ":")).encode


@lru_cache(maxsize=1 << 14)
def _action_text(raw: RawAction) -> str:
    """An engine action ``(seat, kind, mask)`` as its record's JSON text."""
    seat, kind, mask = raw
    return _dumps(action_to_json(Action(seat, KIND_BY_CODE[kind], cards_of(mask))))


def _deal_head(deal: Deal) -> str:
    """A deal's record text up to its first action."""
    deck = _dumps([_CARD_CODES[card.index] for card in deal.deck])
    return (
        f'{{"dealer":{deal.dealer:d},"deck":{deck},"trump_index":{deal.trump_index:d},"actions":['
    )


def _series_text(series: Series, deal_text: Callable[[Deal], str]) -> str:
    deals = ",".join([deal_text(deal) for deal in series.deals])
    return (
        f'{{"variant":{_dumps(VARIANT)},"options":{{}},"seed":null,"deals":[{deals}],'
        f'"snapshot":{SNAPSHOT_VERSION:d},"first_dealer":{series.first_dealer:d}}}'
    )


def _deal_text(deal: Deal) -> str:
    return _deal_head(deal) + ",".join([_action_text(raw) for raw in deal.log_raw()]) + "]}"


def snapshot(series: Series) -> str:
    """The whole series as JSON: its record, with a format version. A
    :class:`SnapshotCache` writes the same text faster for a series saved often."""
    return _series_text(series, _deal_text)


@dataclass(slots=True)
class _DealText:
    deal: Deal  # held, so that no other deal takes its id while it is cached
    actions: int  # how many of the deal's actions ``text`` holds
    text: str  # the deal's record text without the closing "]}"


class SnapshotCache:
    """Writes :func:`snapshot` text for series that grow move by move.

    It keeps the text of the deals it wrote, by deal object: a later snapshot adds
    only the actions played since (a deal's log only grows) and copies finished
    deals as they are. It holds up to ``size`` deals (the oldest go first), so a
    process that saves its games through one cache pays for each action once.
    Not for use from several threads at once.

    >>> from core.yard.series import Series
    >>> import random
    >>> series, cache = Series(), SnapshotCache()
    >>> _ = series.deal(random.Random(7))
    >>> cache.snapshot(series) == snapshot(series)
    True
    >>> _ = series.apply(series.legal_actions(0)[0])
    >>> cache.snapshot(series) == snapshot(series)
    True
    """

    __slots__ = ("_deals", "_size")

    def __init__(self, size: int = 2048) -> None:
        self._size = size
        self._deals: dict[int, _DealText] = {}

    def __len__(self) -> int:
        return len(self._deals)

    def snapshot(self, series: Series) -> str:
        return _series_text(series, self._deal_text)

    def _deal_text(self, deal: Deal) -> str:
        log = deal.log_raw()
        entry = self._deals.get(id(deal))
        if entry is None or entry.deal is not deal or entry.actions > len(log):
            entry = _DealText(deal, 0, _deal_head(deal))
            if len(self._deals) >= self._size:
                del self._deals[next(iter(self._deals))]
            self._deals[id(deal)] = entry
        if entry.actions < len(log):
            new = ",".join([_action_text(raw) for raw in log[entry.actions :]])
            entry.text = f"{entry.text},{new}" if entry.actions else entry.text + new
            entry.actions = len(log)
        return entry.text + "]}"


def restore(text: str | bytes) -> Series:
    """The series of a :func:`snapshot`, exactly as it was."""
    data = load_record(text)
    version = data.get("snapshot")
    if version != SNAPSHOT_VERSION:
        raise _fail(f"unknown snapshot version {version!r}")
    series = series_from_record(data)
    first_dealer = data.get("first_dealer")
    if not series.deals and is_int(first_dealer) and 0 <= first_dealer < 4:
        series = Series(first_dealer=first_dealer)
    return series


def cards_json(cards: Sequence[Card]) -> list[str]:
    return [card.code for card in cards]


__all__ = [
    "Reason",
    "SnapshotCache",
    "deal_to_record",
    "replay",
    "report",
    "restore",
    "series_from_record",
    "series_to_record",
    "snapshot",
]
