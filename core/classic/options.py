"""The options of a classic game (docs/rules/reference.md §2.1): a frozen, strictly validated model.

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
>>> ClassicOptions.from_json({"praise": "one_by_one"})
Traceback (most recent call last):
...
core.errors.KozelError: options: praise one_by_one needs a trump_suit

The compendium's four-player game (§2.16) is a bundle of them, the preset ``001``;
:func:`preset_of` names the preset a set of options equals:

>>> preset_of(PRESETS["001"]), preset_of(ClassicOptions())
('001', '003')
>>> preset_of(ClassicOptions(kocherga=False)) is None
True
>>> differences(ClassicOptions(kocherga=False), PRESETS["003"])
{'kocherga': False}
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import IntEnum, StrEnum
from typing import Any, Self

from pydantic import model_validator

from core.cards import Suit
from core.ruleset import RuleOptions, parse_options


class Praise(StrEnum):
    """The praise kind option; ``choose`` lets the declarer pick each time."""

    SIMPLE = "simple"
    PANTS = "pants"
    MIRROR = "mirror"
    CHOOSE = "choose"
    ONE_BY_ONE = "one_by_one"  # §2.16: only with a fixed trump suit


#: The kinds a declarer can praise with (``one_by_one`` only with a fixed trump suit).
PRAISE_KINDS: tuple[Praise, ...] = (Praise.SIMPLE, Praise.PANTS, Praise.MIRROR, Praise.ONE_BY_ONE)


class Follow(StrEnum):
    """How a trump-suit lead is followed (§2.10)."""

    SUIT_FIRST = "suit_first"
    ANY_TRUMP = "any_trump"


class TrumpLead(StrEnum):
    """Who may lead trumps in a deal with a declarer (§2.10); ``non_dealers``: in every
    deal, only the team that did not deal (§2.16)."""

    DECLARER = "declarer"
    TEAM = "team"
    NON_DEALERS = "non_dealers"


class Dealers(StrEnum):
    """Who deals a later deal (§2.16): the J♣ holder of the previous deal's last
    dealing, or the seat after the previous dealer."""

    JC_HOLDER = "jc_holder"
    CLOCKWISE = "clockwise"


class FirstLeader(StrEnum):
    """Who leads the game's first deal (§2.16): its J♣ holder or its A♦ holder."""

    JC_HOLDER = "jc_holder"
    AD_HOLDER = "ad_holder"


class DealBy(IntEnum):
    """How many cards at a time a later deal without praise is dealt (§2.16)."""

    ONE = 1
    FOUR = 4


class Eggs(StrEnum):
    """What a 60-60 deal does (§2.16): an egg pair put aside, or the same dealer
    deals again."""

    CARRY = "carry"
    REPLAY = "replay"


class Lucy(StrEnum):
    """What a Люся does (§2.16): the losers drop to 0, or, when they had 0 already,
    the game is won."""

    RESET = "reset"
    WIN = "win"


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
    """Every option of §2.1 and §2.16 with its default (the defaults are the online
    game's, 003: the preset ``003``)."""

    praise: Praise = Praise.SIMPLE
    kocherga: bool = True
    trump_roulette: bool = True
    ace_ban: bool = True
    last_trump: bool = True
    redeal: bool = True
    trump_suit: TrumpSuit | None = None
    follow: Follow = Follow.SUIT_FIRST
    trump_lead: TrumpLead = TrumpLead.DECLARER
    dealers: Dealers = Dealers.JC_HOLDER
    first_leader: FirstLeader = FirstLeader.JC_HOLDER
    deal_by: DealBy = DealBy.ONE
    eggs: Eggs = Eggs.CARRY
    lucy: Lucy = Lucy.RESET
    redeal_queens: bool = False

    @model_validator(mode="after")
    def _one_by_one_needs_a_suit(self) -> Self:
        if self.praise is Praise.ONE_BY_ONE and self.trump_suit is None:
            raise ValueError("praise one_by_one needs a trump_suit")
        return self

    @property
    def praise_kinds(self) -> tuple[Praise, ...]:
        """The kinds a declarer may praise with at this table."""
        if self.praise is not Praise.CHOOSE:
            return (self.praise,)
        if self.trump_suit is None:
            return PRAISE_KINDS[:3]
        return PRAISE_KINDS

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


#: The named bundles a lobby offers (§2.16): ``003`` is the online game's (every
#: default), ``001`` the compendium's four-player game ("дамы, вальты и бубны").
PRESETS: dict[str, ClassicOptions] = {
    "003": ClassicOptions(),
    "001": ClassicOptions(
        kocherga=False,
        trump_suit=TrumpSuit.D,
        trump_lead=TrumpLead.NON_DEALERS,
        dealers=Dealers.CLOCKWISE,
        first_leader=FirstLeader.AD_HOLDER,
        deal_by=DealBy.FOUR,
        eggs=Eggs.REPLAY,
        lucy=Lucy.WIN,
        redeal_queens=True,
        praise=Praise.CHOOSE,
        ace_ban=False,
        follow=Follow.ANY_TRUMP,
    ),
}
#: The preset of a new table.
DEFAULT_PRESET = "003"


def preset_of(options: ClassicOptions) -> str | None:
    """The name of the preset ``options`` equal, or None."""
    for name, preset in PRESETS.items():
        if preset == options:
            return name
    return None


def closest_preset(options: ClassicOptions) -> tuple[str, dict[str, Any]]:
    """The preset ``options`` differ least from (the first of equals: ``003``) and the
    differences (JSON values); none when they equal it.

    >>> closest_preset(PRESETS["001"].model_copy(update={"lucy": Lucy.RESET}))
    ('001', {'lucy': 'reset'})
    """
    found = [(name, differences(options, preset)) for name, preset in PRESETS.items()]
    return min(found, key=lambda item: (len(item[1]), item[0] != DEFAULT_PRESET))


def differences(options: ClassicOptions, base: ClassicOptions) -> dict[str, Any]:
    """The options (JSON values) where ``options`` differ from ``base``, in the model's
    order."""
    mine, theirs = options.to_json(), base.to_json()
    return {name: value for name, value in mine.items() if value != theirs[name]}
