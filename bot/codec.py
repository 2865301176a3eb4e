"""The one action codec: what a button carries, in at most 64 bytes.

A token names a verb, the game, the game's version when the button was drawn, and
an argument: ``k:<verb>:<game id>:<version>:<arg>`` with numbers in base 36. Both
Telegram (callback data, 64 bytes) and Discord (custom id, 100 characters) carry it.

>>> token = encode(Command(Verb.PLAY, 1234, 56, "bAS6S"))
>>> token, decode(token) == Command(Verb.PLAY, 1234, 56, "bAS6S")
('k:p:ya:1k:bAS6S', True)
"""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
import re
from dataclasses import dataclass
from enum import StrEnum

MAX_TOKEN_BYTES = 64
PREFIX = "k"


class Verb(StrEnum):
    JOIN = "j"  # arg: team "A" or "B"
    LEAVE = "l"
    ADD_COMPUTER = "b"  # arg: team "A" or "B"
    REMOVE_COMPUTER = "r"  # arg: seat
    START = "s"
    CANCEL_ASK = "q"
    CANCEL = "c"
    SETTING = "o"  # arg: "t<seconds>", "l<locale>" or "c<computer level>"
    SELECT = "h"  # arg: the selection, a hex bitmask over the sorted hand
    PLAY = "p"  # arg: an action, as the rule set's presenter writes it
    REFRESH = "f"
    REMATCH = "n"
    SHOW_HAND = "v"
    #: A Swiss evening's registration button (:mod:`bot.event`): the "game" is the
    #: event's id; arg: "n" new pair, "j<team>" join, "l" leave, "s" start.
    EVENT = "e"


#: The verbs only a hand's buttons carry (a card, a move): a message with one of them
#: for a game is a hand of that game.
HAND_ONLY_VERBS = frozenset({Verb.SELECT, Verb.PLAY})


class CodecError(ValueError):
    """A token that is not one of ours (forged, truncated or from an old format)."""


@dataclass(frozen=True, slots=True)
class Command:
    """A pressed button: verb, game id, the version it was drawn at, argument."""

    verb: Verb
    game_id: int
    version: int
    arg: str = ""


_TOKEN = re.compile(r"k:([a-z]):([0-9a-z]{1,12}):([0-9a-z]{1,12}):([0-9A-Za-z]{0,40})")
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


@functools.lru_cache(maxsize=4096)
def base36(number: int) -> str:
    """A number in base 36 (lowercase), as tokens and deep links carry it.

    >>> base36(0), base36(35), base36(1295)
    ('0', 'z', 'zz')
    """
    if number < 0:
        raise CodecError("negative number")
    out = ""
    while True:
        number, digit = divmod(number, 36)
        out = _DIGITS[digit] + out
        if number == 0:
            return out


def encode(command: Command) -> str:
    """The token of a command; raises :class:`CodecError` if it would not fit.

    >>> encode(Command(Verb.PLAY, 1295, 36, "lAS"))
    'k:p:zz:10:lAS'
    """
    game, version, arg = base36(command.game_id), base36(command.version), command.arg
    token = f"{PREFIX}:{command.verb.value}:{game}:{version}:{arg}"
    # What _TOKEN demands, checked directly (a hand's keyboard encodes many tokens).
    fits = len(game) <= 12 and len(version) <= 12 and len(arg) <= 40
    if (
        not (fits and (not arg or (arg.isascii() and arg.isalnum())))
        or len(token) > MAX_TOKEN_BYTES
    ):
        raise CodecError(f"token does not fit: {token!r}")
    return token


def decode(token: str) -> Command:
    """The command of a token; raises :class:`CodecError` on anything malformed."""
    if not isinstance(token, str) or len(token.encode()) > MAX_TOKEN_BYTES:
        raise CodecError("not a token")
    match = _TOKEN.fullmatch(token)
    if match is None:
        raise CodecError("not a token")
    verb, game_id, version, arg = match.groups()
    try:
        return Command(Verb(verb), int(game_id, 36), int(version, 36), arg)
    except ValueError:
        raise CodecError("unknown verb") from None


# --- Play arguments ----------------------------------------------------------------
# A PLAY token's argument names an action of the game's rule set: each rule set's
# presenter encodes and reads it (``RulePresenter.action_arg`` and
# ``parse_action_arg`` in :mod:`bot.presenters.rule`), within the token's
# ``[0-9A-Za-z]{0,40}``.


# --- Join links: a /start payload that seats its sender in one team of one game -------

#: ``j<game id in base 36>_<team><signature>``: the signature, 22 characters of
#: base64url, is an HMAC-SHA256 (cut to 128 bits) of the game and team under a secret
#: key kept in the database, so a payload cannot be guessed or changed to another game
#: or team. At most 37 characters of ``A-Za-z0-9_-`` (Telegram takes 64).
_JOIN_PAYLOAD = re.compile(r"j([0-9a-z]{1,12})_([AB])([A-Za-z0-9_-]{22})")
_SIGNATURE_BYTES = 16


def _signature(key: bytes, game_id: int, team: str) -> str:
    digest = hmac.new(key, f"join:{game_id}:{team}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:_SIGNATURE_BYTES]).decode().rstrip("=")


def join_payload(game_id: int, team: str, key: bytes) -> str:
    """The payload of a link that seats its sender in ``team`` ("A" or "B") of a game.

    >>> payload = join_payload(1295, "B", b"k" * 32)
    >>> payload[:6], len(payload), parse_join_payload(payload, b"k" * 32)
    ('jzz_BS', 27, (1295, 'B'))
    """
    if team not in ("A", "B"):
        raise CodecError(f"no team {team!r}")
    return f"j{base36(game_id)}_{team}{_signature(key, game_id, team)}"


def parse_join_payload(payload: str | None, key: bytes) -> tuple[int, str] | None:
    """The game id and team of a payload made by :func:`join_payload` with ``key``;
    None for anything else (a guessed, changed or foreign payload).

    >>> key = b"k" * 32
    >>> parse_join_payload("jzz_B", key), parse_join_payload(join_payload(7, "A", b"x"), key)
    (None, None)
    >>> forged = join_payload(7, "A", key).replace("j7_A", "j8_A")
    >>> parse_join_payload(forged, key)
    """
    match = _JOIN_PAYLOAD.fullmatch(payload or "")
    if match is None:
        return None
    game, team, signature = match.groups()
    game_id = int(game, 36)
    if not hmac.compare_digest(signature, _signature(key, game_id, team)):
        return None
    return game_id, team
