"""The slash commands: ``/kozel``, ``/top``, ``/stats``, ``/rules``, ``/lang``, ``/help``,
``/stop``, ``/pictures``. Each handler unpacks the interaction, asks :class:`Interactions`, answers.

The commands are built when the cog is made, so that their names, descriptions,
options and choices come from the Fluent files (through
:class:`~adapters.discord.translator.FluentCommandTranslator` for every language).
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from adapters.discord.answer import Answer
from adapters.discord.refs import chat_of, in_dm, is_admin, jump_url, user_of, user_ref
from adapters.discord.translator import text
from bot.interactions import Reply
from bot.options import presets_of
from bot.presenters import Button, Screen
from core.ruleset import rule_set_ids

if TYPE_CHECKING:
    from adapters.discord.adapter import DiscordAdapter

log = logging.getLogger(__name__)

AnyCommand = app_commands.Command[Any, Any, Any]


#: ``/kozel web``: the choice that asks for a link to the web table.
WEB_CHOICE = "web"
#: ``/kozel web new``: the choice that revokes the player's older links and asks for
#: a new one.
WEB_NEW_CHOICE = "web new"
#: ``/kozel activity``: the choice that opens the channel's table as the app's Discord
#: Activity (``DISCORD_CLIENT_ID``).
ACTIVITY_CHOICE = "activity"
#: ``/top``'s month option (``2026-11``, ``last``, ``прошлый``...): a longer word is
#: none of them, and Discord refuses it in the client.
MONTH_LENGTH = 16
#: The challenge option of ``/kozel`` and ``/top`` (an id, ``daily``, a rule set and a
#: preset): a longer word is no challenge.
CHALLENGE_LENGTH = 40
#: ``/event``'s words (``open classic rounds 3 min-reliability 80 deals 2``...).
EVENT_WORDS_LENGTH = 80


class KozelCommands(commands.Cog):
    """The bot's slash commands (see the module docstring)."""

    def __init__(self, adapter: DiscordAdapter) -> None:
        self.adapter = adapter
        self.interactions = adapter.interactions
        self.publisher = adapter.publisher
        self.tr = adapter.tr
        self.slash_commands = self._build()

    async def cog_load(self) -> None:
        for command in self.slash_commands:
            self.adapter.bot.tree.add_command(command, override=True)

    async def cog_unload(self) -> None:
        for command in self.slash_commands:
            self.adapter.bot.tree.remove_command(command.name)

    def _build(self) -> list[AnyCommand]:
        tr = self.tr

        rule_set_choices = [
            app_commands.Choice(name=text(tr, f"rules-name-{name}"), value=name)
            for name in rule_set_ids()
        ]
        # /kozel also offers each rule set's presets but the default ("classic 001"),
        # and with the web table on, ``/kozel web`` (the user's link to it) and
        # ``/kozel web new`` (his older links revoked, a new one).
        kozel_choices = rule_set_choices + [
            app_commands.Choice(
                name=text(tr, f"{name}-preset-choice-{preset}"), value=f"{name} {preset}"
            )
            for name in rule_set_ids()
            for preset, _ in presets_of(name)[1:]
        ]
        if self.interactions.web is not None:
            kozel_choices += [
                app_commands.Choice(name=text(tr, "web-choice"), value=WEB_CHOICE),
                app_commands.Choice(name=text(tr, "web-new-choice"), value=WEB_NEW_CHOICE),
            ]
        if self.interactions.web is not None and self.adapter.settings.discord_activity:
            kozel_choices.append(
                app_commands.Choice(name=text(tr, "web-activity-choice"), value=ACTIVITY_CHOICE)
            )

        @app_commands.rename(
            rule_set=text(tr, "cmd-option-rules"), challenge=text(tr, "cmd-option-challenge")
        )
        @app_commands.describe(
            rule_set=text(tr, "cmd-option-rules-about"),
            challenge=text(tr, "cmd-option-challenge-about"),
        )
        @app_commands.choices(rule_set=kozel_choices)
        async def kozel(
            interaction: discord.Interaction[Any],
            rule_set: str | None = None,
            challenge: app_commands.Range[str, 1, CHALLENGE_LENGTH] | None = None,
        ) -> None:
            if challenge is not None:  # /kozel challenge:<ID|daily|yard|classic [preset]>
                await self.kozel(interaction, f"challenge {challenge}")
                return
            if rule_set == ACTIVITY_CHOICE and self.adapter.settings.discord_activity:
                await self.launch_activity(interaction)
                return
            if rule_set in (WEB_CHOICE, WEB_NEW_CHOICE):
                renew = rule_set == WEB_NEW_CHOICE
                work = self.interactions.web_table(
                    chat_of(interaction), user_ref(interaction.user), renew=renew
                )
                reply = await self._answer(interaction, work, ephemeral=True)
                if renew and reply is not None and reply.screen is not None:
                    assert reply.game is not None and reply.seat is not None
                    # His DM hand's link is one of the revoked: it shows the new one.
                    with self.adapter.running.track():
                        await self.publisher.redraw_hand(reply.game.id, reply.seat)
                return
            await self.kozel(interaction, rule_set)

        @app_commands.rename(
            everywhere=text(tr, "cmd-option-all"),
            rule_set=text(tr, "cmd-option-rules"),
            season=text(tr, "cmd-option-season"),
            month=text(tr, "cmd-option-month"),
            challenge=text(tr, "cmd-option-challenge"),
        )
        @app_commands.describe(
            everywhere=text(tr, "cmd-option-all-about"),
            rule_set=text(tr, "cmd-option-rules-about"),
            season=text(tr, "cmd-option-season-about"),
            month=text(tr, "cmd-option-month-about"),
            challenge=text(tr, "cmd-option-challenge-top-about"),
        )
        @app_commands.choices(rule_set=rule_set_choices)
        async def top(
            interaction: discord.Interaction[Any],
            everywhere: bool = False,
            rule_set: str | None = None,
            season: bool = False,
            month: app_commands.Range[str, 1, MONTH_LENGTH] | None = None,
            challenge: app_commands.Range[str, 1, CHALLENGE_LENGTH] | None = None,
        ) -> None:
            if challenge is not None:  # /top challenge:<ID|daily|yard|classic>
                asker, chat = user_ref(interaction.user), chat_of(interaction)
                work = self.interactions.challenge_top(chat, asker, challenge)
                await self._answer(interaction, work)
                return
            work = self.interactions.top(
                chat_of(interaction),
                everywhere=everywhere,
                rule_set=rule_set,
                season=season,
                month=month,
            )
            await self._answer(interaction, work)

        @app_commands.rename(player=text(tr, "cmd-option-user"))
        @app_commands.describe(player=text(tr, "cmd-option-user-about"))
        async def stats(
            interaction: discord.Interaction[Any], player: discord.User | None = None
        ) -> None:
            whose = user_ref(player or interaction.user)
            await self._answer(interaction, self.interactions.stats(chat_of(interaction), whose))

        @app_commands.rename(rule_set=text(tr, "cmd-option-rules"))
        @app_commands.describe(rule_set=text(tr, "cmd-option-rules-about"))
        @app_commands.choices(rule_set=rule_set_choices)
        async def rules(interaction: discord.Interaction[Any], rule_set: str | None = None) -> None:
            await self._answer(interaction, self.interactions.rules(chat_of(interaction), rule_set))

        @app_commands.rename(language=text(tr, "cmd-option-language"))
        @app_commands.describe(language=text(tr, "cmd-option-language-about"))
        @app_commands.choices(
            language=[
                app_commands.Choice(name=text(tr, f"lang-name-{code}"), value=code)
                for code in ("ru", "en")
            ]
        )
        async def lang(interaction: discord.Interaction[Any], language: str | None = None) -> None:
            work = self.interactions.lang(
                chat_of(interaction),
                user_of(interaction),
                language,
                private=in_dm(interaction),
                is_admin=is_admin(interaction),
            )
            await self._answer(interaction, work)

        @app_commands.rename(mode=text(tr, "cmd-option-pictures"))
        @app_commands.describe(mode=text(tr, "cmd-option-pictures-about"))
        @app_commands.choices(
            mode=[
                app_commands.Choice(name=text(tr, f"pictures-choice-{word}"), value=word)
                for word in ("on", "off")
            ]
        )
        async def pictures(interaction: discord.Interaction[Any], mode: str | None = None) -> None:
            work = self.interactions.pictures(
                chat_of(interaction),
                mode,
                private=in_dm(interaction),
                is_admin=is_admin(interaction),
            )
            await self._answer(interaction, work)

        async def help_(interaction: discord.Interaction[Any]) -> None:
            await self._answer(interaction, self.interactions.help(chat_of(interaction)))

        async def stop(interaction: discord.Interaction[Any]) -> None:
            work = self.interactions.stop(
                chat_of(interaction), user_ref(interaction.user), is_admin=is_admin(interaction)
            )
            await self._answer(interaction, work, ephemeral=True)

        @app_commands.rename(words=text(tr, "cmd-option-event"))
        @app_commands.describe(words=text(tr, "cmd-option-event-about"))
        async def event(
            interaction: discord.Interaction[Any],
            words: app_commands.Range[str, 1, EVENT_WORDS_LENGTH] | None = None,
        ) -> None:
            work = self.interactions.event_ui.command(
                chat_of(interaction),
                user_of(interaction),
                words,
                is_admin=is_admin(interaction),
                private=in_dm(interaction),
            )
            await self._answer(interaction, work)

        callbacks: dict[str, Callable[..., Coroutine[Any, Any, None]]] = {
            "kozel": kozel,
            "top": top,
            "stats": stats,
            "rules": rules,
            "lang": lang,
            "help": help_,
            "stop": stop,
            "pictures": pictures,
            "event": event,
        }
        return [
            app_commands.Command(
                name=text(tr, f"cmd-name-{name}"),
                description=text(tr, f"cmd-{name}"),
                callback=callback,
            )
            for name, callback in callbacks.items()
        ]

    async def kozel(self, interaction: discord.Interaction[Any], rules: str | None = None) -> None:
        """Open a lobby here (of ``rules``, else of the default ones; in a DM: a solo
        game against three computers). The command's answer becomes the game's table
        message."""
        with self.adapter.running.track():
            if await self._flooded(interaction):
                return
            await self._kozel(interaction, rules)

    async def launch_activity(self, interaction: discord.Interaction[Any]) -> None:
        """Open the channel's table as the app's Discord Activity (Discord starts it in
        the channel and opens it for the user; the page says who he is). Without a
        game here, or when Discord refuses (Activities off in the Developer Portal):
        one line, seen by him alone."""
        with self.adapter.running.track():
            if await self._flooded(interaction):
                return
            chat = chat_of(interaction)
            reply = await self.interactions.activity(chat)
            alert = reply.alert
            if alert is None:
                try:
                    await interaction.response.launch_activity()
                    return
                except discord.HTTPException as error:
                    log.warning("Discord did not launch the Activity: %s", error.status)
                    locale = await self.interactions.chat_locale(chat)
                    alert = self.tr.t(locale, "web-activity-refused")
            answer = Answer(interaction, defer_after=self.adapter.defer_after)
            await answer.send(Screen(alert), ephemeral=True)

    async def _flooded(self, interaction: discord.Interaction[Any]) -> bool:
        """Whether the user sends commands faster than :mod:`bot.flood` allows: then
        the command is not run; the first such gets one ephemeral "slow down", the
        later ones no answer at all (Discord tells the user the bot did not respond;
        an unanswered interaction costs the bot nothing)."""
        user = user_ref(interaction.user)
        reply = await self.interactions.command_flood(chat_of(interaction), user)
        if reply is None:
            return False
        if reply.alert is not None:
            answer = Answer(interaction, defer_after=self.adapter.defer_after)
            await answer.send(Screen(reply.alert), ephemeral=True)
        return True

    async def _kozel(self, interaction: discord.Interaction[Any], rules: str | None) -> None:
        chat, user = chat_of(interaction), user_of(interaction)
        answer = Answer(interaction, defer_after=self.adapter.defer_after)
        await answer.defer(new_message=True, ephemeral=False)
        self.publisher.expect_table(chat, interaction)
        try:
            reply = await self.interactions.kozel(
                chat, user, private=in_dm(interaction), rules=rules
            )
        except BaseException:
            self.publisher.forget_table(chat)
            raise
        if reply.screen is not None:  # no such rules: nothing opened
            self.publisher.forget_table(chat)
            await answer.send(reply.screen, ephemeral=False)
            return
        if reply.alert is None:
            return
        # A game runs here already: say so, with a link to its table.
        self.publisher.forget_table(chat)
        rows: tuple[tuple[Button, ...], ...] = ()
        table_id = self.publisher.table_id(reply.game) if reply.game is not None else None
        if table_id:
            locale = await self.interactions.chat_locale(chat)
            url = jump_url(chat, table_id, interaction.guild_id)
            rows = ((Button(self.tr.t(locale, "discord-to-table"), url=url),),)
        await answer.send(Screen(reply.alert, rows), ephemeral=False)

    async def _answer(
        self,
        interaction: discord.Interaction[Any],
        work: Awaitable[Reply],
        *,
        ephemeral: bool = False,
    ) -> Reply | None:
        """Answer a command with its work's reply (None: not run, the user floods)."""
        with self.adapter.running.track():
            if await self._flooded(interaction):
                if inspect.iscoroutine(work):
                    work.close()  # never run
                return None
            answer = Answer(interaction, defer_after=self.adapter.defer_after)
            reply = await answer.within(work, new_message=True, ephemeral=ephemeral)
            await self._show(answer, reply, ephemeral)
            return reply

    async def _show(self, answer: Answer, reply: Reply, ephemeral: bool) -> None:
        if reply.screen is not None and reply.screen.rows:
            await answer.send(reply.screen, ephemeral=ephemeral)
        elif reply.screen is not None:
            await answer.send_text(reply.screen.text, ephemeral=ephemeral)
        elif reply.alert is not None:
            await answer.send(Screen(reply.alert), ephemeral=True)
