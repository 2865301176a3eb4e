"""The reason codes only the yard game uses; the shared ones (whose turn, which seat,
which card, records, options) come from :class:`core.errors.Reason`.

Adapters map a code to a locale id (``err-`` + the code); :attr:`YardReason.words`
gives plain English words for ``kozel replay``.

>>> from core.errors import KozelError
>>> str(KozelError(YardReason.DOES_NOT_BEAT))
'the cards do not beat the cards winning the trick'
"""

from __future__ import annotations

from core.errors import ReasonCode


class YardReason(ReasonCode):
    """Why the yard game refused an action."""

    SERIES_OVER = "series-over"
    # Which cards.
    NO_CARDS = "no-cards"
    DUPLICATE_CARDS = "duplicate-cards"
    TOO_MANY_CARDS = "too-many-cards"
    MIXED_SUITS = "mixed-suits"
    WRONG_COUNT = "wrong-count"
    DOES_NOT_BEAT = "does-not-beat"
    MUST_LEAD = "must-lead"
    ALREADY_LED = "already-led"
    # Molodka.
    MOLODKA_NOT_HELD = "molodka-not-held"
    MOLODKA_BY_LEADER = "molodka-by-leader"
    MOLODKA_NOT_NEAREST = "molodka-not-nearest"
    MOLODKA_ALREADY = "molodka-already"
    MOLODKA_CARDS = "molodka-cards"

    @property
    def words(self) -> str:
        return _WORDS[self]


_WORDS: dict[YardReason, str] = {
    YardReason.SERIES_OVER: "the series is over",
    YardReason.NO_CARDS: "no cards were given",
    YardReason.DUPLICATE_CARDS: "the same card was given twice",
    YardReason.TOO_MANY_CARDS: "a lead has 1 to 4 cards",
    YardReason.MIXED_SUITS: "a lead must be of one suit",
    YardReason.WRONG_COUNT: "a beat or a discard must have as many cards as the lead",
    YardReason.DOES_NOT_BEAT: "the cards do not beat the cards winning the trick",
    YardReason.MUST_LEAD: "the trick has no lead yet: the leader must lead",
    YardReason.ALREADY_LED: "the trick is already led: beat or discard",
    YardReason.MOLODKA_NOT_HELD: (
        "the player did not hold four cards of one suit when the trick began"
    ),
    YardReason.MOLODKA_BY_LEADER: "the trick's leader cannot restart it with a molodka",
    YardReason.MOLODKA_NOT_NEAREST: "a player nearer to the leader holds a molodka too",
    YardReason.MOLODKA_ALREADY: "a molodka already restarted this trick",
    YardReason.MOLODKA_CARDS: "a molodka is the declarer's four cards of one suit",
}
