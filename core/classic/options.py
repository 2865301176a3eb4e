"""The options of a classic game (RULES §2.1): a frozen, strictly validated model.

A table chooses them when the game is created; they stay fixed for the whole game.
They are a :class:`~core.ruleset.RuleOptions` model: every option with its default,
unknown keys refused, JSON values exactly as §2.1 writes them (``1`` is not
``true``).

>>> ClassicOptions().to_json()["praise"], ClassicOptions().kocherga
('simple', True)
>>> options = ClassicOptions.from_json({"praise": "pants", "trump_suit": "D"})
>>> options.praise, options.fixed_suit, options.to_json()["trump_suit"]
(<Praise.PANTS: 'pants'>, <Suit.DIAMONDS: 3>, 'D')
>>> ClassicOptions.from_json({"ace_ban": 1})
Traceback (most recent call last):
...
core.errors.KozelError: options: ace_ban: Input should be a valid boolean
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from core.cards import Suit
from core.ruleset import RuleOptions, parse_options


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


class TrumpSuit(StrEnum):
    """A suit as the ``trump_suit`` option writes it."""

    C = "C"
    S = "S"
    H = "H"
    D = "D"

    @property
    def suit(self) -> Suit:
        return Suit("CSHD".index(self.value))

    @staticmethod
    def of(suit: Suit) -> TrumpSuit:
        return TrumpSuit(suit.letter)


class ClassicOptions(RuleOptions):
    """Every option of §2.1 with its default."""

    praise: Praise = Praise.SIMPLE
    kocherga: bool = True
    trump_roulette: bool = True
    ace_ban: bool = True
    last_trump: bool = True
    redeal: bool = True
    trump_suit: TrumpSuit | None = None
    follow: Follow = Follow.SUIT_FIRST
    trump_lead: TrumpLead = TrumpLead.DECLARER

    @property
    def fixed_suit(self) -> Suit | None:
        """The ``trump_suit`` option as a :class:`~core.cards.Suit` (None: unset)."""
        return None if self.trump_suit is None else self.trump_suit.suit

    @property
    def fixed_suit_index(self) -> int:
        """The same as an int, -1 when unset (the engine's form)."""
        return -1 if self.trump_suit is None else int(self.trump_suit.suit)

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> ClassicOptions:
        """Options from a record's ``options`` object (or a lobby's choice); raise
        :class:`~core.errors.KozelError` (``bad-options``) naming the first problem."""
        return parse_options(cls, data)
