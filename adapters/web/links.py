"""Signed links to the web table: a token naming one game and one seat (a player's)
or no seat (a spectator's), signed with a secret kept in the database.

A token is ``w<game id in base 36>_<seat 0-3 or s><generation in base 36><signature>``:
the signature, 22 characters of base64url, is an HMAC-SHA256 (cut to 128 bits) of
the game, the seat, the generation and, for a seat, the user who sat there when it
was made. So a token cannot be guessed or changed to another game or seat, and a
seat's token stops working when another player takes the seat. Revoking a link
moves its generation on (kept with the game, see :func:`generation_key`): every
token of an older generation is refused as revoked. At most 45 characters of
``A-Za-z0-9_-`` (a Telegram ``startapp`` takes 64).

>>> key = b"k" * 32
>>> token = sign(key, 1295, 2, 0, "telegram:7")
>>> token[:6], len(token), parse(token)
('wzz_20', 28, Claim(game_id=1295, seat=2, generation=0, signature='...'))
>>> verify(key, parse(token), "telegram:7"), verify(key, parse(token), "telegram:8")
(True, False)
>>> other_seat = parse(token.replace("wzz_2", "wzz_3"))
>>> other_seat is not None and verify(key, other_seat, "telegram:7")
False
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from dataclasses import dataclass, field

from bot.codec import CodecError, base36

#: The name of the secret key of web links (:meth:`bot.ports.Storage.secret`).
SECRET_NAME = "web-links"
_TOKEN = re.compile(r"w([0-9a-z]{1,12})_([0-3s])([0-9a-z]{1,6})([A-Za-z0-9_-]{22})")
_SIGNATURE_BYTES = 16
#: The longest token: what a Telegram ``startapp`` value and the page take.
MAX_TOKEN = 64


@dataclass(frozen=True, slots=True)
class Claim:
    """What a token says (not yet verified): its game, seat (None: a spectator),
    generation and signature."""

    game_id: int
    seat: int | None
    generation: int
    signature: str = field(repr=False)

    def __repr__(self) -> str:  # the signature is the secret part: never shown
        return (
            f"Claim(game_id={self.game_id}, seat={self.seat}, "
            f"generation={self.generation}, signature='...')"
        )


def page_url(base: str, token: str, locale: str) -> str:
    """The page at ``base`` opened with a signed token, in ``locale`` (the page's
    language: see :func:`adapters.web.server.page_locale`).

    >>> page_url("https://kozel.example.org/", "w1_0abc", "ru")
    'https://kozel.example.org/?t=w1_0abc&lang=ru'
    """
    return f"{base}?t={token}&lang={locale}"


def generation_key(seat: int | None) -> str:
    """Where a game keeps the generation of its links of ``seat`` (None: the
    spectators'), among its kept messages (:attr:`bot.models.Game.messages`)."""
    return f"web:{'s' if seat is None else seat}"


def _signature(key: bytes, game_id: int, seat: int | None, generation: int, user: str) -> str:
    who = "s" if seat is None else str(seat)
    data = f"web:{game_id}:{who}:{generation}:{user}".encode()
    digest = hmac.new(key, data, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:_SIGNATURE_BYTES]).decode().rstrip("=")


def sign(key: bytes, game_id: int, seat: int | None, generation: int, user: str = "") -> str:
    """The token of a game's seat (``user``: who sits there, as ``platform:id``), or
    of its spectators (``seat`` None, ``user`` empty)."""
    if seat is not None and seat not in range(4):
        raise CodecError(f"no seat {seat}")
    who = "s" if seat is None else str(seat)
    signature = _signature(key, game_id, seat, generation, user if seat is not None else "")
    return f"w{base36(game_id)}_{who}{base36(generation)}{signature}"


def parse(token: object) -> Claim | None:
    """What a token claims, or None for anything that is not a token's form."""
    if not isinstance(token, str) or len(token) > MAX_TOKEN:
        return None
    match = _TOKEN.fullmatch(token)
    if match is None:
        return None
    game, who, generation, signature = match.groups()
    return Claim(int(game, 36), None if who == "s" else int(who), int(generation, 36), signature)


def verify(key: bytes, claim: Claim, user: str = "") -> bool:
    """Whether ``claim`` was signed with ``key`` for ``user`` (the seat's player now;
    empty for a spectator's)."""
    expected = _signature(
        key, claim.game_id, claim.seat, claim.generation, user if claim.seat is not None else ""
    )
    return hmac.compare_digest(claim.signature, expected)
