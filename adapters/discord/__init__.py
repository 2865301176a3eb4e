"""Kozel on Discord (discord.py 2): slash commands, the table in the channel, hands
by DM or as an ephemeral message, ``DynamicItem`` buttons on the shared action codec.

Everything the game does goes through :class:`bot.interactions.Interactions` and
:class:`bot.service.GameService`; this package only speaks Discord.
"""

from adapters.discord.adapter import DiscordAdapter

__all__ = ["DiscordAdapter"]
