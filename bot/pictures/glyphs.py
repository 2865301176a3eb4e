"""Which characters a font draws, and a text cut into runs of the font that draws
each one: the picture's names may hold emoji (``Аня 🐐``) or a script DejaVu lacks
(``王``), which DejaVu alone would draw as boxes.

A font's characters are read from its ``cmap`` table (formats 4 and 12, what
TrueType and OpenType fonts carry), so no character is guessed from a drawing.
The fallbacks are Debian's packages where the machine has them (the Dockerfile and
``.ci/run`` install them): Noto Color Emoji, drawn at its one bitmap size and
scaled, and Droid Sans Fallback for Chinese, Japanese and Korean. A character no
font has is left out, never drawn as a box.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from enum import Enum
from functools import cache
from pathlib import Path

#: Noto Color Emoji (Debian's fonts-noto-color-emoji, OFL).
EMOJI_FONT = Path("/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf")
#: Droid Sans Fallback (Debian's fonts-droid-fallback, Apache 2.0): CJK.
CJK_FONT = Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf")
#: The one size a colour bitmap emoji font is drawn at (then scaled).
EMOJI_SIZE = 109

#: What only joins or modifies the emoji before it: the zero-width joiner, the
#: variation selectors, the keycap, skin tones and the tags of subdivision flags.
_JOINERS = frozenset(
    [0x200D, 0xFE0E, 0xFE0F, 0x20E3, *range(0x1F3FB, 0x1F400), *range(0xE0020, 0xE0080)]
)


class Face(Enum):
    """The font a run of text is drawn with."""

    MAIN = "main"
    EMOJI = "emoji"
    CJK = "cjk"


@dataclass(frozen=True, slots=True)
class Run:
    text: str
    face: Face


def codepoints(data: bytes) -> frozenset[int]:
    """The characters a TrueType/OpenType font maps to a glyph (its ``cmap``: a
    format 12 subtable if it has one, else format 4)."""
    tables = struct.unpack_from(">H", data, 4)[0]
    cmap = next(
        struct.unpack_from(">I", data, 12 + 16 * n + 8)[0]
        for n in range(tables)
        if data[12 + 16 * n : 16 + 16 * n] == b"cmap"
    )
    count = struct.unpack_from(">H", data, cmap + 2)[0]
    found: dict[int, int] = {}
    for n in range(count):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * n)
        if (platform, encoding) in ((3, 10), (3, 1), (0, 3), (0, 4), (0, 6)):
            start = cmap + offset
            found.setdefault(struct.unpack_from(">H", data, start)[0], start)
    if 12 in found:
        return _format12(data, found[12])
    if 4 in found:
        return _format4(data, found[4])
    return frozenset()


def _format12(data: bytes, start: int) -> frozenset[int]:
    groups = struct.unpack_from(">I", data, start + 12)[0]
    chars: set[int] = set()
    for n in range(groups):
        first, last, glyph = struct.unpack_from(">III", data, start + 16 + 12 * n)
        chars.update(range(first + (glyph == 0), last + 1))
    return frozenset(chars)


def _format4(data: bytes, start: int) -> frozenset[int]:
    segments = struct.unpack_from(">H", data, start + 6)[0] // 2
    ends = start + 14
    starts = ends + 2 * segments + 2
    deltas = starts + 2 * segments
    offsets = deltas + 2 * segments
    chars: set[int] = set()
    for n in range(segments):
        end, first = (
            struct.unpack_from(">H", data, ends + 2 * n)[0],
            struct.unpack_from(">H", data, starts + 2 * n)[0],
        )
        delta = struct.unpack_from(">h", data, deltas + 2 * n)[0]
        offset_at = offsets + 2 * n
        offset = struct.unpack_from(">H", data, offset_at)[0]
        for char in range(first, end + 1):
            if char == 0xFFFF:
                continue
            if offset == 0:
                glyph = (char + delta) & 0xFFFF
            else:
                glyph = struct.unpack_from(">H", data, offset_at + offset + 2 * (char - first))[0]
                glyph = (glyph + delta) & 0xFFFF if glyph else 0
            if glyph:
                chars.add(char)
    return frozenset(chars)


@cache
def font_chars(path: Path) -> frozenset[int]:
    """The characters of a font file (none when the file is missing)."""
    try:
        return codepoints(path.read_bytes())
    except OSError:
        return frozenset()


def runs(text: str, main: frozenset[int], emoji: frozenset[int], cjk: frozenset[int]) -> list[Run]:
    """``text`` cut into runs of the face that draws each character: the main font
    where it has the character (unless an emoji's variation selector asks for the
    emoji), the emoji font, the CJK font; a character none has is left out. What
    joins an emoji (a joiner, a skin tone) stays in its run, so a sequence such as
    👨‍👩‍👧 is shaped as one emoji; a space is a run of its own.

    >>> main, emoji = frozenset(map(ord, "Ая ")), frozenset([0x1F410, 0x200D, 0xFE0F])
    >>> [(r.text, r.face.value) for r in runs("Ая 🐐王", main, emoji, frozenset())]
    [('Ая', 'main'), (' ', 'main'), ('🐐', 'emoji')]
    """
    out: list[Run] = []
    chars = [ord(char) for char in text]
    for index, char in enumerate(chars):
        last = out[-1].face if out else None
        following = chars[index + 1] if index + 1 < len(chars) else None
        if char in _JOINERS and last is Face.EMOJI:
            face: Face | None = Face.EMOJI
        elif char in main and not (following == 0xFE0F and char in emoji):
            face = Face.MAIN
        elif char in emoji and char not in _JOINERS:
            face = Face.EMOJI
        elif char in cjk:
            face = Face.CJK
        else:
            face = None  # no font has it: left out
        if face is None:
            continue
        # A space is a run of its own: a right-to-left run (Arabic) is shaped apart
        # from the runs around it, and its spaces stay where they were typed.
        apart = chr(char).isspace() or (out and out[-1].text[-1].isspace())
        if last is face and not apart:
            out[-1] = Run(out[-1].text + chr(char), face)
        else:
            out.append(Run(chr(char), face))
    return out
