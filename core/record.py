"""The game record's envelope (docs/rules/reference.md §3), shared by every rule set, and the replay
that picks the rule set by the record's ``variant``.

A record is a JSON object ``{"variant", "options", "seed", "deals"}``; what a deal
entry holds is the rule set's own (yard: :mod:`core.yard.record`, classic:
:mod:`core.classic.record`). What both rule sets check alike lives here: the JSON
itself (no ``NaN``, no number out of range), the ``variant`` (required), the
``options`` (an object of the rule set's options, no unknown key) and an integer
``seed``.

>>> replay('{"variant": "hearts", "deals": []}')["error"]["reason"]
"unknown variant 'hearts' (this replay knows 'yard', 'classic')"
>>> replay("[1, 2]")
{'error': {'reason': 'a record must be a JSON object'}}
>>> replay('{"deals": []}')["error"]["reason"]
"variant is missing (this replay knows 'yard', 'classic')"
>>> replay('{"variant": "yard", "seed": NaN, "deals": []}')["error"]["reason"]
'invalid JSON: NaN is not a number of JSON'
>>> replay('{"variant": "yard", "seed": 1%s, "deals": []}' % ("0" * 5000))["error"]["reason"]
'invalid JSON: a number out of range'
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeGuard, TypeVar

from core.errors import KozelError
from core.ruleset import RuleOptions, get_rule_set, rule_set_ids

OptionsT = TypeVar("OptionsT", bound=RuleOptions)

#: The largest number a record may hold (an integer up to 64 bits: a seed, say).
MAX_NUMBER = 2**64


@dataclass(frozen=True)
class RecordError(Exception):
    """A record that cannot be replayed: where, and why in words."""

    reason: str
    deal: int | None = None
    action: int | None = None
    seat: int | None = None

    def to_json(self) -> dict[str, Any]:
        error: dict[str, Any] = {}
        if self.deal is not None:
            error["deal"] = self.deal
        if self.action is not None:
            error["action"] = self.action
        if self.seat is not None:
            error["seat"] = self.seat
        error["reason"] = self.reason
        return {"error": error}

    def __str__(self) -> str:
        return self.reason


def is_int(value: object) -> TypeGuard[int]:
    """Whether a JSON value is an integer (``true`` is not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def load_record(source: str | bytes | Mapping[str, Any]) -> Mapping[str, Any]:
    """The record's JSON object; raise :class:`RecordError` if it is not one."""
    if isinstance(source, Mapping):
        return source
    try:
        data = json.loads(
            source, parse_constant=_not_a_number, parse_int=_integer, parse_float=_float
        )
    except _BadNumber as error:
        raise RecordError(f"invalid JSON: {error}") from None
    except (ValueError, UnicodeDecodeError) as error:
        raise RecordError(f"invalid JSON: {error}") from None
    except RecursionError:
        raise RecordError("invalid JSON: nested too deeply") from None
    if not isinstance(data, Mapping):
        raise RecordError("a record must be a JSON object")
    return data


class _BadNumber(ValueError):
    """A number JSON does not have (``NaN``, ``Infinity``) or one out of range."""


def _not_a_number(name: str) -> Any:
    raise _BadNumber(f"{name} is not a number of JSON")


def _integer(text: str) -> int:
    # Checked before int(): Python refuses over 4,300 digits with advice for programmers.
    if len(text) > 21 or abs(value := int(text)) > MAX_NUMBER:
        raise _BadNumber("a number out of range")
    return value


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _BadNumber("a number out of range")
    return value


def variant_of(data: Mapping[str, Any]) -> str:
    """The record's rule set id; raise :class:`RecordError` if it names none, or one
    that no rule set has."""
    known = rule_set_ids()
    names = ", ".join(repr(name) for name in known)
    if "variant" not in data:
        raise RecordError(f"variant is missing (this replay knows {names})")
    variant = data["variant"]
    if not isinstance(variant, str) or variant not in known:
        raise RecordError(f"unknown variant {variant!r} (this replay knows {names})")
    return variant


def options_of(
    data: Mapping[str, Any],
    parse: Callable[[Mapping[str, Any] | None], OptionsT],
    *,
    required: bool,
) -> OptionsT:
    """The record's ``options``, validated by the rule set's ``parse`` (no unknown key,
    each value of its type); a record may leave them out unless ``required``. Raise
    :class:`RecordError` naming the first problem."""
    raw = data.get("options")
    if raw is None and not required and "options" not in data:
        return parse(None)
    if not isinstance(raw, Mapping):
        raise RecordError("options must be an object")
    try:
        return parse(raw)
    except KozelError as error:
        raise RecordError(str(error)) from None


def seed_of(data: Mapping[str, Any]) -> int | None:
    """The record's ``seed``: an integer, or null (or left out); raise
    :class:`RecordError` for anything else. (A classic record's seed may be any value,
    docs/rules/reference.md §3.5: the classic replay does not ask.)"""
    seed = data.get("seed")
    if seed is not None and not is_int(seed):
        raise RecordError(f"seed must be an integer or null, not {seed!r}")
    return seed


def replay(source: str | bytes | Mapping[str, Any]) -> dict[str, Any]:
    """Replay a record of any rule set: its report JSON, or the ``{"error": ...}`` JSON.

    The rule set is the record's ``variant``; its own replay checks the rest.
    """
    try:
        data = load_record(source)
        rule_set = get_rule_set(variant_of(data))
    except RecordError as error:
        return error.to_json()
    return rule_set.replay(data)
