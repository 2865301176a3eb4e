"""Button tokens: what encodes decodes back, and what would not fit is refused."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.codec import MAX_TOKEN_BYTES, CodecError, Command, Verb, base36, decode, encode

ARGS = st.text(
    alphabet="0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", max_size=40
)
NUMBERS = st.integers(min_value=0, max_value=36**12 - 1)


@given(st.sampled_from(list(Verb)), NUMBERS, NUMBERS, ARGS)
def test_every_command_that_fits_round_trips(verb: Verb, game: int, version: int, arg: str) -> None:
    command = Command(verb, game, version, arg)
    try:
        token = encode(command)
    except CodecError:  # only the byte limit may refuse it
        assert len(f"k:{verb.value}:{base36(game)}:{base36(version)}:{arg}") > MAX_TOKEN_BYTES
        return
    assert len(token.encode()) <= MAX_TOKEN_BYTES
    assert decode(token) == command


@pytest.mark.parametrize(
    "command",
    [
        Command(Verb.PLAY, -1, 0),
        Command(Verb.PLAY, 0, -5),
        Command(Verb.PLAY, 36**12, 0),  # 13 base-36 digits
        Command(Verb.PLAY, 1, 1, "a" * 41),
        Command(Verb.PLAY, 1, 1, "lAS:6S"),
        Command(Verb.PLAY, 1, 1, "l AS"),
        Command(Verb.PLAY, 1, 1, "lÄS"),
        Command(Verb.PLAY, 1, 1, "lＡS"),  # a full-width letter is alphanumeric, not ASCII
        Command(Verb.PLAY, 36**12 - 1, 36**12 - 1, "a" * 40),  # over 64 bytes
    ],
)
def test_a_token_that_would_not_fit_is_refused(command: Command) -> None:
    with pytest.raises(CodecError):
        encode(command)
