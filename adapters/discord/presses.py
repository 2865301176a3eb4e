"""Button presses: the application decides (:meth:`Interactions.press`), this module
answers in Discord's idiom.

- a refusal (stale press, wrong user, finished game...) is an ephemeral note;
- "My hand" answers with the hand as a fresh ephemeral message;
- a card or "clear" edits the hand message it was pressed on (the player's DM or
  ephemeral hand); pressed anywhere else (a forged press on the table) the hand comes
  as a fresh ephemeral message and the pressed message stays as it is;
- a move, a seat, a setting is acknowledged: the publisher shows the change;
- a dialog (the confirmation to cancel) is ephemeral, closed once answered;
- a player who sits down but takes no DMs is told how to open them or to use "My hand".
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from adapters.discord.answer import Answer, Running
from adapters.discord.publisher import DiscordPublisher, with_note
from adapters.discord.refs import in_dm, is_admin, is_member, language, user_of, user_ref
from bot import presenters
from bot.codec import CodecError, Command, Verb, decode
from bot.i18n import Translator
from bot.interactions import Interactions, Pressed, Reply
from bot.models import ChatRef, Platform, User, UserRef
from bot.presenters import Screen

log = logging.getLogger(__name__)

#: Presses answered with a new (ephemeral) message rather than by editing one.
NEW_MESSAGE_VERBS = frozenset({Verb.SHOW_HAND, Verb.CANCEL_ASK})
#: Presses on a hand message that show the hand again in that very message.
HAND_VERBS = frozenset({Verb.SELECT, Verb.PLAY})
#: Presses on a dialog that close it when they succeed.
DIALOG_VERBS = frozenset({Verb.CANCEL, Verb.REFRESH})


class Presses:
    """Answers every button press (see the module docstring)."""

    def __init__(
        self,
        interactions: Interactions,
        publisher: DiscordPublisher,
        tr: Translator,
        *,
        defer_after: float,
        running: Running,
    ) -> None:
        self.interactions = interactions
        self.publisher = publisher
        self.tr = tr
        self.defer_after = defer_after
        self.running = running

    async def handle_press(self, interaction: discord.Interaction[Any], token: str) -> None:
        answer = Answer(interaction, defer_after=self.defer_after)
        with self.running.track():
            try:
                await self._press(answer, interaction, token)
            except Exception:
                # discord.py would only log it; log it ourselves, and tell the user.
                log.exception("press %r by %s failed", token, interaction.user.id)
                await sorry(answer, self.interactions, self.tr)

    async def _press(
        self, answer: Answer, interaction: discord.Interaction[Any], token: str
    ) -> None:
        user = user_of(interaction)
        try:
            command: Command | None = decode(token)
        except CodecError:
            command = None
        verb = command.verb if command is not None else None
        message = interaction.message
        on_ephemeral = message is not None and message.flags.ephemeral
        reply = await answer.within(
            self._ask(user, token, command, interaction), new_message=verb in NEW_MESSAGE_VERBS
        )
        if reply.ignored:  # a flooding presser: acknowledged, nothing more
            await answer.ack()
            return
        user_id = interaction.user.id
        game_id = reply.game.id if reply.game is not None else None
        if verb is Verb.SHOW_HAND and reply.hand is not None and reply.game is not None:
            table_locale = reply.game.settings.locale
            hand = await self.publisher.ephemeral_hand(reply.hand, user_id, user.ref, table_locale)
            await answer.send(hand, ephemeral=True)
            if not answer.expired:
                self.publisher.attach_hand(reply.game.id, user_id, interaction, refresh=False)
            return
        # Only a hand message of this game that is the presser's own (his DM, his
        # ephemeral) shows the hand in place; any other message stays what it is.
        on_hand = (
            reply.in_place
            and message is not None
            and reply.game is not None
            and presenters.is_hand(_tokens(message), reply.game.id)
        )
        if reply.hand is not None and verb in HAND_VERBS and not on_hand:
            # Not the presser's own hand message: the hand comes as his alone.
            assert reply.game is not None
            table_locale = reply.game.settings.locale
            hand = await self.publisher.ephemeral_hand(reply.hand, user_id, user.ref, table_locale)
            if reply.alert is not None:
                hand = with_note(hand, reply.alert)
            await answer.send(hand, ephemeral=True)
            return
        if reply.hand is not None and (verb in HAND_VERBS or verb is Verb.REFRESH) and on_hand:
            # A card, a move, or "clear" on the hand (DM or ephemeral): shown in place.
            hand = reply.hand
            if on_ephemeral and reply.game is not None:
                table_locale = reply.game.settings.locale
                hand = await self.publisher.ephemeral_hand(hand, user_id, user.ref, table_locale)
            await answer.edit(hand)
            if on_ephemeral and game_id is not None and not answer.expired:
                self.publisher.attach_hand(game_id, user_id, interaction, refresh=False)
            if reply.alert is not None:
                await answer.send(Screen(reply.alert), ephemeral=True)
            return
        if reply.dm_needed:
            await answer.send(Screen(await self._dm_closed_text(user, interaction)))
            return
        if reply.screen is not None:
            await answer.send(reply.screen, ephemeral=True)
            return
        if reply.alert is not None:
            await answer.send(Screen(reply.alert), ephemeral=True)
            return
        if verb in DIALOG_VERBS and on_ephemeral:
            await answer.delete()
            return
        await answer.ack()
        if verb is Verb.PLAY and on_ephemeral and game_id is not None and not answer.expired:
            self.publisher.attach_hand(game_id, user_id, interaction, refresh=True)
        if verb is Verb.JOIN and not in_dm(interaction):
            await self._check_dm(answer, user, interaction)

    async def _ask(
        self,
        user: User,
        token: str,
        command: Command | None,
        interaction: discord.Interaction[Any],
    ) -> Reply:
        # A player's hand reads in the same language wherever it is shown: the one he
        # chose, else the table's (Interactions.press sees to it), not his Discord
        # client's; a refusal about another chat's game in his client's.
        fallback = language(interaction)
        channel = interaction.channel_id

        async def admin(chat: ChatRef) -> bool:
            # Discord gives the presser's permissions in the pressed channel only.
            return chat.id == str(channel) and is_admin(interaction)

        async def member(chat: ChatRef) -> bool:
            return chat.id == str(channel) and is_member(interaction)

        return await self.interactions.press(
            user,
            token,
            where=self.pressed_at(interaction),
            platform_language=fallback,
            is_admin=admin,
            is_member=member,
        )

    def pressed_at(self, interaction: discord.Interaction[Any]) -> Pressed:
        """Where a press happened, as Discord says: the channel; for an ephemeral
        message its receiver (only he can press it); in a DM its recipient (as the
        interaction or the bot's cache of DM channels knows him; Discord sends a DM's
        presses only from its recipient)."""
        chat = ChatRef(Platform.DISCORD, str(interaction.channel_id))
        message = interaction.message
        if message is not None and message.flags.ephemeral:
            return Pressed(chat, user_ref(interaction.user))
        if not in_dm(interaction):
            return Pressed(chat)
        return Pressed(chat, self._recipient(interaction))

    def _recipient(self, interaction: discord.Interaction[Any]) -> UserRef:
        for channel in (
            interaction.channel,
            self.publisher.bot.get_channel(interaction.channel_id or 0),
        ):
            recipient = getattr(channel, "recipient", None)
            if isinstance(channel, discord.DMChannel) and recipient is not None:
                return user_ref(recipient)
        return user_ref(interaction.user)

    async def _check_dm(
        self, answer: Answer, user: User, interaction: discord.Interaction[Any]
    ) -> None:
        """A player who sat down learns at once whether his cards can come by DM."""
        locale = await self.interactions.user_locale(user, language(interaction))
        hello = self.tr.t(locale, "notice-dm-hello")
        if not await self.publisher.can_dm(interaction.user.id, hello):
            await answer.send(Screen(self.tr.t(locale, "discord-dm-closed")), ephemeral=True)

    async def _dm_closed_text(self, user: User, interaction: discord.Interaction[Any]) -> str:
        locale = await self.interactions.user_locale(user, language(interaction))
        return self.tr.t(locale, "discord-dm-closed")


def _tokens(message: discord.Message) -> list[str | None]:
    """The custom ids of a message's buttons."""
    return [
        getattr(child, "custom_id", None)
        for row in message.components
        for child in getattr(row, "children", ())
    ]


async def sorry(answer: Answer, interactions: Interactions, tr: Translator) -> None:
    """Tell the user that something went wrong, if Discord still takes an answer."""
    interaction = answer.interaction
    try:
        locale = await interactions.user_locale(user_of(interaction), language(interaction))
        await answer.send(Screen(tr.t(locale, "err-generic")), ephemeral=True)
    except Exception as error:  # the error itself is logged already
        log.warning("could not tell %s about an error: %r", interaction.user.id, error)
