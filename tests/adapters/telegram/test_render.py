"""Screens as Telegram keyboards: what validating every button would build."""

from __future__ import annotations

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from adapters.telegram.render import caption_of, keyboard, keyboard_json
from bot.presenters import Button, Screen


def validated(screen: Screen) -> InlineKeyboardMarkup | None:
    """The keyboard built the plain way: every button validated by pydantic."""
    rows = [
        [
            InlineKeyboardButton(text=b.label, url=b.url)
            if b.url
            else InlineKeyboardButton(text=b.label, callback_data=b.token)
            for b in row
            if b.token or b.url
        ]
        for row in screen.rows
    ]
    rows = [row for row in rows if row]
    return InlineKeyboardMarkup(inline_keyboard=rows) if rows else None


SCREENS = [
    Screen("no buttons"),
    Screen("a label only", ((Button("nothing"),),)),
    Screen(
        "hand",
        (
            (Button("✅ 10♥", "k:h:1:2:0"), Button("A♠", "k:h:1:2:3")),
            (Button("Зайти: 10♥", "k:p:1:2:lTH"), Button("✖", "k:f:1:2:")),
        ),
    ),
    Screen(
        "mixed",
        (
            (Button("Go", "k:s:1:2:"), Button("Web", url="https://t.me/x?start=j1_A")),
            (Button("inert"),),
            (Button("Again", "k:n:zz:1:"),),
        ),
    ),
]


def test_keyboards_are_what_validation_builds() -> None:
    for screen in SCREENS:
        built, expected = keyboard(screen), validated(screen)
        assert built == expected
        if built is None or expected is None:
            continue
        assert built.model_dump() == expected.model_dump()
        assert built.model_dump(exclude_unset=True) == expected.model_dump(exclude_unset=True)
        assert built.model_dump_json() == expected.model_dump_json()
        for got, want in zip(built.inline_keyboard, expected.inline_keyboard, strict=True):
            for button, plain in zip(got, want, strict=True):
                assert button.model_fields_set == plain.model_fields_set
                assert button.model_dump_json(exclude_none=True) == plain.model_dump_json(
                    exclude_none=True
                )


def test_keyboards_share_nothing() -> None:
    """Each keyboard is its own: changing one changes neither another nor the next."""
    screen = SCREENS[2]
    first, second = keyboard(screen), keyboard(screen)
    assert first is not None and second is not None
    first.inline_keyboard[0][0].text = "changed"
    first.inline_keyboard.append([])
    assert second == validated(screen) and keyboard(screen) == validated(screen)
    assert keyboard(SCREENS[3]) == validated(SCREENS[3])


def test_keyboard_json_is_what_the_keyboard_dumps_to() -> None:
    for screen in SCREENS:
        built = keyboard(screen)
        dumped = None if built is None else built.model_dump(mode="json", exclude_none=True)
        assert keyboard_json(screen) == dumped


def test_a_long_caption_is_cut_after_its_last_whole_line() -> None:
    """The final standings of 32 pairs under their picture: whole lines, then "…"."""
    lines = ["🏆 Final standings after 5 rounds:"]
    lines += [f"{n}. Player{n:02}a + Player{n:02}b: 3 (Buchholz 12)" for n in range(1, 33)]
    screen = Screen("\n".join(lines))
    caption = caption_of(screen, 1024)
    assert len(screen.text) > 1024 >= len(caption)
    *kept, tail = caption.split("\n")
    assert tail == "…" and kept == lines[: len(kept)] and len(kept) > 20
    short = Screen("\n".join(lines[:3]))
    assert caption_of(short, 1024) == short.text
