"""Buttons: every one is an :class:`ActionButton`, a ``DynamicItem`` whose custom id is
a token of the shared action codec (:mod:`bot.codec`, game id + version).

The bot registers the class once (``add_dynamic_items``), so a press on any message,
however old and also after a restart, reaches :meth:`ActionButton.callback`; no view
is kept per message (see :func:`adapters.discord.render.view`).
"""

from __future__ import annotations

import re
from typing import Any, Protocol

import discord

from bot.codec import PREFIX

#: The codec's tokens (``k:<verb>:<game>:<version>:<arg>``, see :func:`bot.codec.encode`).
TEMPLATE = (
    rf"{PREFIX}:(?P<verb>[a-z]):(?P<game>[0-9a-z]{{1,12}}):(?P<version>[0-9a-z]{{1,12}})"
    r":(?P<arg>[0-9A-Za-z]{0,40})"
)


class PressHandler(Protocol):
    async def handle_press(self, interaction: discord.Interaction[Any], token: str) -> None: ...


class HasPresses(Protocol):
    presses: PressHandler


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """A button carrying an action token; a press goes to the bot's press handler."""

    def __init__(
        self,
        token: str,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(label=label, custom_id=token, style=style, row=row), row=row
        )
        self.token = token

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ActionButton:
        return cls(match.group(0))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        client: HasPresses = interaction.client
        await client.presses.handle_press(interaction, self.token)
