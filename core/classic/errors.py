"""The reason codes only classic Kozel uses; the shared ones (whose turn, which seat,
which card, records, options) come from :class:`core.errors.Reason`.

Adapters map a code to a locale id (``err-`` + the code); :attr:`ClassicReason.words`
gives plain English words for ``kozel replay``.

>>> from core.errors import KozelError
>>> str(KozelError(ClassicReason.ACE_BANNED))
'the ace of a suit that has not been led yet may not be discarded'
"""

from __future__ import annotations

from core.errors import ReasonCode


class ClassicReason(ReasonCode):
    """Why the classic engine refused an action."""

    GAME_OVER = "game-finished"
    WRONG_STEP = "wrong-step"
    MISSING_ARGUMENT = "missing-argument"
    PRAISE_KIND_REQUIRED = "praise-kind-required"
    PRAISE_KIND_MISMATCH = "praise-kind-mismatch"
    NOT_IN_PAIR = "not-in-pair"
    CUT_OUT_OF_RANGE = "cut-out-of-range"
    MUST_FOLLOW_SUIT = "must-follow-suit"
    MUST_PLAY_TRUMP = "must-play-trump"
    MUST_PLAY_TRUMP_SUIT = "must-play-trump-suit"
    MUST_PLAY_PERMANENT_TRUMP = "must-play-permanent-trump"
    ACE_BANNED = "ace-banned"
    TRUMP_LEAD_FORBIDDEN = "trump-lead-forbidden"
    NOT_ONE_TRUMP = "not-one-trump"
    ALREADY_OFFERED = "already-offered"
    OFFER_PENDING = "offer-pending"
    NO_OFFER = "no-offer"
    MUST_GIVE_PLAIN = "must-give-plain"
    PLAY_STARTED = "play-started"
    WITH_DECLARER = "with-declarer"
    OPTION_OFF = "option-off"
    REDEAL_NOT_ALLOWED = "redeal-not-allowed"
    TEAM_HAS_QUEEN = "team-has-queen"

    @property
    def words(self) -> str:
        return _WORDS[self]

    @property
    def public(self) -> bool:
        # §2.16: a refused queen redeal is asked across the table; everyone learns
        # that it was refused (and nothing else).
        return self is ClassicReason.TEAM_HAS_QUEEN


_WORDS: dict[ClassicReason, str] = {
    ClassicReason.GAME_OVER: "the game is over",
    ClassicReason.WRONG_STEP: "this move is not the one the dealing waits for now",
    ClassicReason.MISSING_ARGUMENT: "the move lacks its card, cut or suit",
    ClassicReason.PRAISE_KIND_REQUIRED: "with praise = choose the declarer names the praise kind",
    ClassicReason.PRAISE_KIND_MISMATCH: "the praise kind is the table's option",
    ClassicReason.NOT_IN_PAIR: "the laid card must be one of the two cards of the last pair",
    ClassicReason.CUT_OUT_OF_RANGE: "a cut lifts at least one card and leaves at least one",
    ClassicReason.MUST_FOLLOW_SUIT: "the player must follow the led suit",
    ClassicReason.MUST_PLAY_TRUMP: "the player must play a trump",
    ClassicReason.MUST_PLAY_TRUMP_SUIT: "the player must play a card of the trump suit",
    ClassicReason.MUST_PLAY_PERMANENT_TRUMP: "the player must play a permanent trump",
    ClassicReason.ACE_BANNED: "the ace of a suit that has not been led yet may not be discarded",
    ClassicReason.TRUMP_LEAD_FORBIDDEN: (
        "only the declarer's side may lead trumps while holding a plain card"
    ),
    ClassicReason.NOT_ONE_TRUMP: "only a player with exactly one trump may give it",
    ClassicReason.ALREADY_OFFERED: "the player has already offered his last trump in this dealing",
    ClassicReason.OFFER_PENDING: "an offer waits for the partner's answer",
    ClassicReason.NO_OFFER: "no offer waits for an answer",
    ClassicReason.MUST_GIVE_PLAIN: (
        "the card given back must be a plain card when the partner holds one"
    ),
    ClassicReason.PLAY_STARTED: "not once the first card of the deal has been played",
    ClassicReason.WITH_DECLARER: "not in a deal with a declarer",
    ClassicReason.OPTION_OFF: "the table's options do not allow this",
    ClassicReason.REDEAL_NOT_ALLOWED: (
        "a redeal needs a hand worth 12 points or less, or all four nines"
    ),
    ClassicReason.TEAM_HAS_QUEEN: "the team's hands hold a queen other than the queen of diamonds",
}
