"""Classic game records (docs/rules/reference.md §3.5): export, the form check, replay and
snapshots.

A record lists one entry per dealing: its dealer, its deck (top first, before any
dealing or cut) and the actions of its choices; the replay carries out every step
that involves no choice by itself. The whole file is checked for form first; then
the entries are replayed in order and the first action the rules refuse stops the
replay with its place and the reason in words. A snapshot is the record, so a game
restored from one is the same game, down to the middle of a dealing or an exchange.

>>> import random
>>> from core.classic.game import ClassicGame
>>> game = ClassicGame(first_dealer=2)
>>> _ = game.deal(random.Random(5))
>>> _ = game.apply(game.legal_actions()[0])
>>> restore(snapshot(game)) == game
True
>>> replay('{"variant": "classic", "options": {"ace_ban": 1}, "deals": []}')["error"]["reason"]
'options: ace_ban: Input should be a valid boolean'
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from core.cards import Card, Suit
from core.classic.actions import ClassicAction, ClassicActionKind
from core.classic.cards import CODES, DECK_SIZE
from core.classic.dealing import Dealing
from core.classic.game import ClassicGame
from core.classic.options import PRAISE_KINDS, ClassicOptions, Praise
from core.errors import KozelError
from core.record import RecordError, is_int, load_record, options_of, variant_of

VARIANT = "classic"
SNAPSHOT_VERSION = 1
_SUITS = {suit.letter: suit for suit in Suit}
_CARDS = {code: index for index, code in enumerate(CODES)}


@dataclass(frozen=True)
class ClassicRecordError(Exception):
    """A record that cannot be replayed: where (indexes from 0), and why in words."""

    reason: str
    deal: int | None = None
    action: int | None = None
    seat: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "error": {
                "deal": self.deal,
                "action": self.action,
                "seat": self.seat,
                "reason": self.reason,
            }
        }

    def __str__(self) -> str:
        return self.reason


# --- Export ------------------------------------------------------------------------


def action_to_json(action: ClassicAction) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": action.seat, "type": action.kind.value}
    kind = action.kind
    if kind in (ClassicActionKind.LAY, ClassicActionKind.ACCEPT_TRUMP, ClassicActionKind.PLAY):
        assert action.card is not None
        out["card"] = action.card.code
    elif kind is ClassicActionKind.CUT:
        out["at"] = action.at
    elif kind is ClassicActionKind.NAME_TRUMP:
        out["suit"] = None if action.suit is None else action.suit.letter
    elif kind is ClassicActionKind.PRAISE and action.praise is not None:
        out["kind"] = action.praise.value
    return out


def dealing_to_json(dealing: Dealing) -> dict[str, Any]:
    return {
        "dealer": dealing.dealer,
        "deck": [card.code for card in dealing.deck],
        "actions": [action_to_json(action) for action in dealing.actions],
    }


def game_to_record(game: ClassicGame, seed: object = None) -> dict[str, Any]:
    """A whole game as a record."""
    return {
        "variant": VARIANT,
        "options": game.options.to_json(),
        "seed": seed,
        "deals": [dealing_to_json(dealing) for dealing in game.dealings],
    }


# --- The form check ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Entry:
    dealer: int
    deck: tuple[int, ...]
    actions: tuple[ClassicAction, ...]


def _load(source: str | bytes | Mapping[str, Any]) -> Mapping[str, Any]:
    try:
        return load_record(source)
    except RecordError as error:
        raise ClassicRecordError(error.reason) from None


def _card(raw: Mapping[str, Any], deal: int, index: int, seat: int) -> Card:
    if "card" not in raw:
        raise ClassicRecordError("the action needs a card", deal, index, seat)
    code = raw["card"]
    if not isinstance(code, str) or code not in _CARDS:
        raise ClassicRecordError(
            f"{code!r} is not a card code of the 32-card deck", deal, index, seat
        )
    return Card.parse(code)


def _parse_action(raw: object, deal: int, index: int, kinds: frozenset[str]) -> ClassicAction:
    if not isinstance(raw, Mapping):
        raise ClassicRecordError("an action must be an object", deal, index)
    seat = raw.get("seat")
    if not is_int(seat) or not 0 <= seat < 4:
        raise ClassicRecordError(f"seat must be 0 to 3, not {seat!r}", deal, index)
    name = raw.get("type")
    try:
        kind = ClassicActionKind(name) if isinstance(name, str) else None
    except ValueError:
        kind = None
    if kind is None:
        raise ClassicRecordError(f"unknown action type {name!r}", deal, index, seat)
    if kind in (ClassicActionKind.LAY, ClassicActionKind.ACCEPT_TRUMP, ClassicActionKind.PLAY):
        return ClassicAction(seat, kind, card=_card(raw, deal, index, seat))
    if kind is ClassicActionKind.CUT:
        at = raw.get("at")
        if not is_int(at):
            raise ClassicRecordError(f"cut needs an integer at, not {at!r}", deal, index, seat)
        return ClassicAction.cut(seat, at)
    if kind is ClassicActionKind.NAME_TRUMP:
        if "suit" not in raw:
            raise ClassicRecordError("name_trump needs a suit (or null)", deal, index, seat)
        suit = raw["suit"]
        if suit is not None and (not isinstance(suit, str) or suit not in _SUITS):
            raise ClassicRecordError(
                f"suit must be C, S, H, D or null, not {suit!r}", deal, index, seat
            )
        return ClassicAction.name_trump(seat, None if suit is None else _SUITS[suit])
    if kind is ClassicActionKind.PRAISE:
        if "kind" not in raw:
            return ClassicAction.praise_with(seat)
        praise = raw["kind"]
        if not isinstance(praise, str) or praise not in kinds:
            raise ClassicRecordError(
                f"kind must be {_or_words(kinds)}, not {praise!r}", deal, index, seat
            )
        return ClassicAction.praise_with(seat, Praise(praise))
    return ClassicAction(seat, kind)


def _or_words(kinds: frozenset[str]) -> str:
    """The praise kinds a record may name, in words: "simple, pants or mirror"."""
    words = [kind.value for kind in PRAISE_KINDS if kind.value in kinds]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _parse_entry(raw: object, number: int, kinds: frozenset[str]) -> _Entry:
    if not isinstance(raw, Mapping):
        raise ClassicRecordError("a deal entry must be an object", number)
    dealer = raw.get("dealer")
    if not is_int(dealer) or not 0 <= dealer < 4:
        raise ClassicRecordError(f"dealer must be a seat 0 to 3, not {dealer!r}", number)
    deck = raw.get("deck")
    if not isinstance(deck, list):
        raise ClassicRecordError("deck must be a list of card codes", number)
    indexes = []
    for code in deck:
        if not isinstance(code, str) or code not in _CARDS:
            raise ClassicRecordError(
                f"deck: {code!r} is not a card code of the 32-card deck", number
            )
        indexes.append(_CARDS[code])
    if len(indexes) != DECK_SIZE:
        raise ClassicRecordError(f"the deck has {len(indexes)} cards, not {DECK_SIZE}", number)
    if len(set(indexes)) != DECK_SIZE:
        twice = next(CODES[i] for i in indexes if indexes.count(i) > 1)
        raise ClassicRecordError(f"the deck holds {twice} twice", number)
    actions = raw.get("actions")
    if not isinstance(actions, list):
        raise ClassicRecordError("actions must be a list", number)
    parsed = tuple(_parse_action(action, number, i, kinds) for i, action in enumerate(actions))
    return _Entry(dealer, tuple(indexes), parsed)


def check_form(data: Mapping[str, Any]) -> tuple[ClassicOptions, list[_Entry]]:
    """The form check of §3.5: the whole record, before any rule is applied."""
    try:
        if "variant" in data and data["variant"] != VARIANT:
            raise RecordError(f"variant must be {VARIANT!r}, not {data['variant']!r}")
        variant_of(data)  # and it is there
        options = options_of(data, ClassicOptions.from_json, required=True)
    except RecordError as error:
        raise ClassicRecordError(error.reason) from None
    deals = data.get("deals")
    if not isinstance(deals, list):
        raise ClassicRecordError("deals must be a list")
    # A praise of the kind one_by_one is a form error without a fixed trump suit (§2.16).
    kinds = frozenset(
        kind.value
        for kind in PRAISE_KINDS
        if kind is not Praise.ONE_BY_ONE or options.trump_suit is not None
    )
    return options, [_parse_entry(entry, number, kinds) for number, entry in enumerate(deals)]


# --- Replay --------------------------------------------------------------------------


def game_from_record(source: str | bytes | Mapping[str, Any]) -> ClassicGame:
    """Rebuild a game from a record, checking its form and then every action; raise
    :class:`ClassicRecordError` at the first problem."""
    data = _load(source)
    options, entries = check_form(data)
    first_dealer = entries[0].dealer if entries else _first_dealer(data)
    game = ClassicGame(options, first_dealer=first_dealer)
    for number, entry in enumerate(entries):
        current = game.current
        if game.is_over:
            raise ClassicRecordError("the game was already over before this entry", number)
        if current is not None and not current.is_over:
            raise ClassicRecordError("the entry before this one is not complete", number)
        if number and entry.dealer != game.next_dealer:
            raise ClassicRecordError(
                f"the dealer of this entry must be seat {game.next_dealer}, not {entry.dealer}",
                number,
            )
        game.deal_indexes(entry.deck, dealer=entry.dealer)
        dealing = game.current
        assert dealing is not None
        for index, action in enumerate(entry.actions):
            if dealing.is_over:
                raise ClassicRecordError(
                    "the entry is already complete", number, index, action.seat
                )
            try:
                game.apply(action)
            except KozelError as error:
                raise ClassicRecordError(f"{action}: {error}", number, index, action.seat) from None
    return game


def _first_dealer(data: Mapping[str, Any]) -> int:
    value = data.get("first_dealer")
    return value if is_int(value) and 0 <= value < 4 else 0


def report(game: ClassicGame) -> dict[str, Any]:
    """The replay's output JSON (§3.5), keys fixed; lists are ``[team A, team B]``."""
    deals = []
    for dealing in game.dealings:
        result = dealing.result
        trump = dealing.trump
        deals.append(
            {
                "complete": result is not None,
                "praise": None if dealing.praise is None else dealing.praise.value,
                "declarer": dealing.declarer,
                "trump": None if trump is None else trump.letter,
                "leader": dealing.first_leader,
                "redeal": result is not None and result.redeal,
                "points": list(dealing.points),
                "tricks": list(dealing.tricks),
                "pairs": None if result is None else list(result.pairs),
                "eggs": None if result is None else result.eggs,
                "lucy": None if result is None else result.lucy,
                "kocherga": None if result is None else result.kocherga,
                "next_dealer": None if result is None else result.next_dealer,
            }
        )
    outcome = game.result
    fixed = game.fixed_suits
    return {
        "deals": deals,
        "game": {
            "pairs": list(game.pairs),
            "finished": outcome is not None,
            "winner": None if outcome is None else outcome.winner.name,
            "loser": None if outcome is None else outcome.loser.name,
            "title": None if outcome is None else outcome.title.value,
            "egg_pairs": game.egg_pairs,
            "fixed_suits": None if fixed is None else [suit.letter for suit in fixed],
        },
    }


def replay(source: str | bytes | Mapping[str, Any]) -> dict[str, Any]:
    """Replay a record: the report, or the ``{"error": ...}`` JSON. Never raises on
    bad input."""
    try:
        return report(game_from_record(source))
    except ClassicRecordError as error:
        return error.to_json()


# --- Snapshots -----------------------------------------------------------------------


def snapshot(game: ClassicGame) -> str:
    """The whole game as JSON text: its record, a format version and the first dealer."""
    record = game_to_record(game)
    record["snapshot"] = SNAPSHOT_VERSION
    record["first_dealer"] = game.first_dealer
    return json.dumps(record, separators=(",", ":"))


def restore(text: str | bytes) -> ClassicGame:
    """The game of a :func:`snapshot`, exactly as it was."""
    data = _load(text)
    version = data.get("snapshot")
    if version != SNAPSHOT_VERSION:
        raise ClassicRecordError(f"unknown snapshot version {version!r}")
    return game_from_record(data)


__all__ = [
    "ClassicRecordError",
    "check_form",
    "game_from_record",
    "game_to_record",
    "replay",
    "report",
    "restore",
    "snapshot",
]
