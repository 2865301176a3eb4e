"""The discord.py client: a ``commands.Bot`` whose ``setup_hook`` loads the commands'
cog, registers the action buttons and syncs the slash commands with their
translations."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from adapters.discord.answer import Answer, is_expired
from adapters.discord.buttons import ActionButton, PressHandler
from adapters.discord.commands import KozelCommands
from adapters.discord.presses import sorry
from adapters.discord.translator import FluentCommandTranslator

if TYPE_CHECKING:
    from adapters.discord.adapter import DiscordAdapter

log = logging.getLogger(__name__)


class KozelTree(app_commands.CommandTree["KozelBot"]):
    """The command tree: a failed command is logged (discord.py would only log it
    under its own name) and the user is told."""

    async def on_error(
        self, interaction: discord.Interaction[KozelBot], error: app_commands.AppCommandError
    ) -> None:
        original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        name = interaction.command.qualified_name if interaction.command else "?"
        if isinstance(original, discord.HTTPException) and is_expired(original):
            log.warning("/%s: the interaction expired before the answer (%s)", name, original.code)
            return
        log.error("/%s failed", name, exc_info=original)
        adapter = interaction.client.adapter
        answer = Answer(interaction, defer_after=adapter.defer_after)
        await sorry(answer, adapter.interactions, adapter.tr)


class KozelBot(commands.Bot):
    """The bot of one :class:`~adapters.discord.adapter.DiscordAdapter`."""

    def __init__(self, adapter: DiscordAdapter, **options: Any) -> None:
        options.setdefault("intents", discord.Intents.default())
        options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            tree_cls=KozelTree,
            **options,
        )
        self.adapter = adapter

    @property
    def presses(self) -> PressHandler:
        """Where :class:`ActionButton` sends a press."""
        return self.adapter.presses

    async def setup_hook(self) -> None:
        self.adapter.publisher.ready()
        await self.add_cog(KozelCommands(self.adapter))
        self.add_dynamic_items(ActionButton)
        await self.tree.set_translator(FluentCommandTranslator(self.adapter.tr))
        await self.tree.sync()

    async def on_ready(self) -> None:
        log.info("Discord: logged in as %s", self.user)
        self.adapter.started.set()
