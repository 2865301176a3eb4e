"""The one error type of the core, and the reason codes it carries.

Every rule set raises the one :class:`KozelError`, carrying a reason code: a member
of a :class:`ReasonCode` enum. :class:`Reason` holds the codes all rule sets share
(whose turn, which seat, which input, rule sets and options). Each rule set keeps the
codes only it uses in an enum of its own package, subclassing :class:`ReasonCode`
(:class:`core.yard.errors.YardReason`, :class:`core.classic.errors.ClassicReason`),
and raises the shared ones from :class:`Reason`, so "not your turn" has one code and
one text whatever the table plays. Codes are unique across all the enums.

Adapters map a code to a locale id (``err-`` + the code); the core writes no
user-facing text. ``describe`` gives plain English words for the machine-facing
tools (``kozel replay``).
"""

from __future__ import annotations

from enum import StrEnum


class ReasonCode(StrEnum):
    """The base of every rule set's reason codes: a kebab-case code and its words."""

    @property
    def words(self) -> str:
        """Plain English words for the code (a rule set's enum gives its own)."""
        return self.value.replace("-", " ")

    @property
    def public(self) -> bool:
        """Whether the whole table learns of this refusal, as of a question asked
        across the table (classic's queen redeal); else only the one refused does."""
        return False


class Reason(ReasonCode):
    """Why an action or an input was refused: the codes every rule set shares."""

    # Whose action it is.
    BAD_SEAT = "bad-seat"
    NOT_YOUR_TURN = "not-your-turn"
    DEAL_OVER = "deal-over"
    DEAL_NOT_OVER = "deal-not-over"
    # Which cards.
    NOT_IN_HAND = "not-in-hand"
    # Inputs: records, snapshots, card codes.
    UNKNOWN_CARD = "unknown-card"
    UNKNOWN_ACTION = "unknown-action"
    BAD_DECK = "bad-deck"
    BAD_RECORD = "bad-record"
    BAD_DEALER = "bad-dealer"
    # Rule sets and their options.
    UNKNOWN_RULE_SET = "unknown-rule-set"
    BAD_OPTIONS = "bad-options"

    @property
    def words(self) -> str:
        return _WORDS[self]


_WORDS: dict[Reason, str] = {
    Reason.BAD_SEAT: "there is no such seat (seats are 0 to 3)",
    Reason.NOT_YOUR_TURN: "it is not this seat's turn",
    Reason.DEAL_OVER: "the deal is over",
    Reason.DEAL_NOT_OVER: "the current deal is not over yet",
    Reason.NOT_IN_HAND: "a card is not in the player's hand",
    Reason.UNKNOWN_CARD: "unknown card code",
    Reason.UNKNOWN_ACTION: "unknown action type",
    Reason.BAD_DECK: "the deck must hold each of the 36 cards once",
    Reason.BAD_RECORD: "not a valid game record",
    Reason.BAD_DEALER: "the dealer must be the seat before the last trick's winner",
    Reason.UNKNOWN_RULE_SET: "there is no rule set by that name",
    Reason.BAD_OPTIONS: "the options are not valid for this rule set",
}


def describe(reason: ReasonCode) -> str:
    """Plain English words for a reason, for machine-facing tools."""
    return reason.words


class KozelError(ValueError):
    """An action or input the rules refuse. Nothing was changed.

    >>> error = KozelError(Reason.NOT_YOUR_TURN)
    >>> error.reason, str(error)
    (<Reason.NOT_YOUR_TURN: 'not-your-turn'>, "it is not this seat's turn")
    """

    def __init__(self, reason: ReasonCode, detail: str | None = None) -> None:
        super().__init__(detail or describe(reason))
        self.reason = reason
        self.detail = detail
