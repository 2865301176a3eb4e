"""Who and where an interaction is, in the application's terms.

A Discord channel is a chat (``ChatRef(DISCORD, <channel id>)``): a server channel holds
one open game, and a DM channel holds a player's solo game. Ids stay text, as Discord's
snowflakes exceed 2**53.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.models import ChatRef, Platform, User, UserRef


def user_ref(user: discord.abc.Snowflake) -> UserRef:
    return UserRef(Platform.DISCORD, str(user.id))


def user_of(interaction: discord.Interaction[Any]) -> User:
    """The user who sent a command or pressed a button, with his display name."""
    return User(user_ref(interaction.user), interaction.user.display_name)


def chat_of(interaction: discord.Interaction[Any]) -> ChatRef:
    if interaction.channel_id is None:
        raise ValueError("an interaction without a channel")
    locale = interaction.guild_locale  # the server's preferred language, if in a server
    language = str(locale.value) if locale is not None else None
    return ChatRef(Platform.DISCORD, str(interaction.channel_id), language=language)


def in_dm(interaction: discord.Interaction[Any]) -> bool:
    """Whether the interaction comes from a private channel (a DM), not a server."""
    return interaction.guild_id is None


def is_admin(interaction: discord.Interaction[Any]) -> bool:
    """A server administrator or manager may stop anybody's game in his server."""
    if interaction.guild_id is None:
        return False
    permissions = interaction.permissions
    return permissions.administrator or permissions.manage_guild


def is_member(interaction: discord.Interaction[Any]) -> bool:
    """Whether the presser belongs where he pressed: in a server, a member who sees the
    channel (Discord gives his permissions there); in a DM, its recipient."""
    if interaction.guild_id is None:
        return True
    return interaction.permissions.view_channel


def language(interaction: discord.Interaction[Any]) -> str:
    """The language of the user's Discord client (e.g. ``ru`` or ``en-US``)."""
    return interaction.locale.value


def jump_url(chat: ChatRef, message_id: int, guild_id: int | None) -> str:
    """A link to a message (``@me`` stands for a DM)."""
    where = str(guild_id) if guild_id is not None else "@me"
    return f"https://discord.com/channels/{where}/{chat.id}/{message_id}"
