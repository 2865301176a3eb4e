"""Screens as Discord messages: content within 2000 characters, buttons as views.

Views are only renderings here: a :class:`Rendering` says it is finished, so
discord.py never stores it, and the :class:`~adapters.discord.buttons.ActionButton`
class registered at start answers every button. (A stored view that times out, as
discord.py makes every ephemeral one do after 15 minutes, would unregister the
dynamic item for every message.)
"""

from __future__ import annotations

import discord

from adapters.discord.buttons import ActionButton
from bot.codec import CodecError, Verb, decode
from bot.presenters import SELECTED_MARK, Button, Screen

#: Discord's limits: message content and button labels.
MAX_CONTENT = 2000
MAX_LABEL = 80
#: Content of a message that has nothing to say (Discord refuses an empty message).
BLANK = "\u200b"

_STYLES = {
    Verb.PLAY: discord.ButtonStyle.success,
    Verb.START: discord.ButtonStyle.success,
    Verb.JOIN: discord.ButtonStyle.primary,
    Verb.SHOW_HAND: discord.ButtonStyle.primary,
    Verb.REMATCH: discord.ButtonStyle.primary,
    Verb.CANCEL: discord.ButtonStyle.danger,
}


def style(button: Button) -> discord.ButtonStyle:
    """How a button looks: a colour by what it does (a selected card is blue)."""
    if button.url is not None:
        return discord.ButtonStyle.link
    try:
        verb = decode(button.token or "").verb
    except CodecError:
        return discord.ButtonStyle.secondary
    if verb is Verb.SELECT and button.label.startswith(SELECTED_MARK):
        return discord.ButtonStyle.primary
    return _STYLES.get(verb, discord.ButtonStyle.secondary)


class Rendering(discord.ui.View):
    """Buttons to send with a message; never listened to (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_finished(self) -> bool:
        return True


def view(screen: Screen) -> discord.ui.View:
    """The buttons of a screen, row by row (empty: no buttons, which an edit clears).

    Discord refuses two buttons with one custom id in a message, so a button that does
    exactly what an earlier one does is left out (e.g. "clear" when the one card
    selected would be unselected by its own button)."""
    rendered = Rendering()
    tokens: set[str] = set()
    row = 0
    for buttons in screen.rows:
        added = False
        for button in buttons:
            label = _cut(button.label, MAX_LABEL)
            if button.url is not None:
                rendered.add_item(discord.ui.Button(label=label, url=button.url, row=row))
            elif button.token is not None and button.token not in tokens:
                tokens.add(button.token)
                item = ActionButton(button.token, label=label, style=style(button), row=row)
                rendered.add_item(item)
            else:
                continue
            added = True
        row += added
    return rendered


def content(text: str) -> str:
    """A message's content: never empty, at most :data:`MAX_CONTENT` characters."""
    return _cut(text, MAX_CONTENT) if text.strip() else BLANK


def chunks(text: str, limit: int = MAX_CONTENT) -> list[str]:
    """A long text as several messages, cut between lines where possible."""
    if not text.strip():
        return [BLANK]
    out: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:
            if current:
                out.append(current)
                current = ""
            out.append(line[:limit])
            line = line[limit:]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            out.append(current)
            current = line
        else:
            current = candidate
    if current.strip():
        out.append(current)
    return out or [BLANK]


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
