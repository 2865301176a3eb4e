"""Slash command names and descriptions in every language, from the Fluent files.

Every text of a command is a ``locale_str`` whose ``id`` extra names a Fluent message
(``cmd-kozel``, ``cmd-name-kozel``, ``cmd-option-all``...); its own text is the
message in :data:`BASE_LOCALE`, what Discord shows in languages the bot does not speak.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.i18n import Translator

#: The language of the commands' own (not localized) names and descriptions.
BASE_LOCALE = "en"

#: Discord's languages the bot speaks, and the bot's name for each.
LANGUAGES = {
    discord.Locale.russian: "ru",
    discord.Locale.american_english: "en",
    discord.Locale.british_english: "en",
}


def text(tr: Translator, msg_id: str) -> app_commands.locale_str:
    """A command text: the Fluent message ``msg_id``, translated when synced."""
    return app_commands.locale_str(tr.t(BASE_LOCALE, msg_id), id=msg_id)


class FluentCommandTranslator(app_commands.Translator):
    """``app_commands.Translator`` over the bot's Fluent messages."""

    def __init__(self, tr: Translator) -> None:
        super().__init__()
        self.tr = tr

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        msg_id: Any = string.extras.get("id")
        language = LANGUAGES.get(locale)
        if not isinstance(msg_id, str) or language is None or not self.tr.has(msg_id, language):
            return None
        return self.tr.t(language, msg_id)
