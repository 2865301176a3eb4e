"""The game record's envelope (RULES.md §3), shared by every rule set, and the replay
that picks the rule set by the record's ``variant``.

A record is a JSON object ``{"variant", "options", "seed", "deals"}``; what a deal
entry holds is the rule set's own (yard: :mod:`core.yard.record`, classic:
:mod:`core.classic.record`). A record without ``variant`` is a yard record, as records
were before there was a second rule set.

>>> replay('{"variant": "hearts", "deals": []}')["error"]["reason"]
"unknown variant 'hearts' (this replay knows 'yard', 'classic')"
>>> replay("[1, 2]")
{'error': {'reason': 'a record must be a JSON object'}}
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeGuard

from core.ruleset import get_rule_set, rule_set_ids

#: The variant of a record that names none.
DEFAULT_VARIANT = "yard"


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
        data = json.loads(source)
    except (ValueError, UnicodeDecodeError) as error:
        raise RecordError(f"invalid JSON: {error}") from None
    except RecursionError:
        raise RecordError("invalid JSON: nested too deeply") from None
    if not isinstance(data, Mapping):
        raise RecordError("a record must be a JSON object")
    return data


def variant_of(data: Mapping[str, Any]) -> str:
    """The record's rule set id; raise :class:`RecordError` if no rule set has it."""
    variant = data.get("variant", DEFAULT_VARIANT)
    known = rule_set_ids()
    if not isinstance(variant, str) or variant not in known:
        names = ", ".join(repr(name) for name in known)
        raise RecordError(f"unknown variant {variant!r} (this replay knows {names})")
    return variant


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
