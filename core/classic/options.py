"""The options of a classic game (RULES §2.1): a frozen, validated value.

A table chooses them when the game is created; they stay fixed for the whole game.

>>> ClassicOptions().to_json()["praise"], ClassicOptions().kocherga
('simple', True)
>>> ClassicOptions.from_json({"praise": "pants", "trump_suit": "D"}).to_json()["trump_suit"]
'D'
>>> ClassicOptions.from_json({"ace_ban": 1})
Traceback (most recent call last):
...
core.errors.KozelError: option ace_ban must be true or false, not 1
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any

from core.cards import Suit
from core.errors import KozelError, Reason


class Praise(StrEnum):
    """The praise kind option; ``choose`` lets the declarer pick each time."""

    SIMPLE = "simple"
    PANTS = "pants"
    MIRROR = "mirror"
    CHOOSE = "choose"


#: The kinds a declarer can praise with.
PRAISE_KINDS: tuple[Praise, ...] = (Praise.SIMPLE, Praise.PANTS, Praise.MIRROR)


class Follow(StrEnum):
    """How a trump-suit lead is followed (§2.10)."""

    SUIT_FIRST = "suit_first"
    ANY_TRUMP = "any_trump"


class TrumpLead(StrEnum):
    """Who may lead trumps in a deal with a declarer (§2.10)."""

    DECLARER = "declarer"
    TEAM = "team"


_SUITS = {suit.letter: suit for suit in Suit}


@dataclass(frozen=True, slots=True)
class ClassicOptions:
    """Every option of §2.1 with its default."""

    praise: Praise = Praise.SIMPLE
    kocherga: bool = True
    trump_roulette: bool = True
    ace_ban: bool = True
    last_trump: bool = True
    redeal: bool = True
    trump_suit: Suit | None = None
    follow: Follow = Follow.SUIT_FIRST
    trump_lead: TrumpLead = TrumpLead.DECLARER

    def __post_init__(self) -> None:
        for name in ("kocherga", "trump_roulette", "ace_ban", "last_trump", "redeal"):
            value = getattr(self, name)
            if not isinstance(value, bool):
                raise KozelError(
                    Reason.BAD_OPTION, f"option {name} must be true or false, not {value!r}"
                )
        for name, kind in (("praise", Praise), ("follow", Follow), ("trump_lead", TrumpLead)):
            if not isinstance(getattr(self, name), kind):
                raise KozelError(Reason.BAD_OPTION, f"option {name} must be a {kind.__name__}")
        if self.trump_suit is not None and not isinstance(self.trump_suit, Suit):
            raise KozelError(Reason.BAD_OPTION, "option trump_suit must be a Suit or None")

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ClassicOptions:
        """Options from a record's ``options`` object: known keys only, JSON values
        exactly as §2.1 writes them (``1`` is not ``true``)."""
        if not isinstance(data, Mapping):
            raise KozelError(Reason.BAD_OPTION, "options must be an object")
        known = {field.name for field in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in data.items():
            if key not in known:
                raise KozelError(Reason.BAD_OPTION, f"unknown option {key!r}")
            if key == "trump_suit":
                if value is not None and (not isinstance(value, str) or value not in _SUITS):
                    raise KozelError(
                        Reason.BAD_OPTION,
                        f"option trump_suit must be C, S, H, D or null, not {value!r}",
                    )
                values[key] = None if value is None else _SUITS[value]
            elif key in ("praise", "follow", "trump_lead"):
                kind = {"praise": Praise, "follow": Follow, "trump_lead": TrumpLead}[key]
                if not isinstance(value, str) or value not in {m.value for m in kind}:
                    allowed = ", ".join(m.value for m in kind)
                    raise KozelError(
                        Reason.BAD_OPTION, f"option {key} must be one of {allowed}, not {value!r}"
                    )
                values[key] = kind(value)
            else:
                values[key] = value
        return cls(**values)

    def to_json(self) -> dict[str, Any]:
        """Every option as a record writes it."""
        return {
            "praise": self.praise.value,
            "kocherga": self.kocherga,
            "trump_roulette": self.trump_roulette,
            "ace_ban": self.ace_ban,
            "last_trump": self.last_trump,
            "redeal": self.redeal,
            "trump_suit": None if self.trump_suit is None else self.trump_suit.letter,
            "follow": self.follow.value,
            "trump_lead": self.trump_lead.value,
        }
