"""Button presses: the application decides what a press shows
(:meth:`Interactions.press`, as :class:`~bot.outputs.PressReply` outputs); this
module carries it out in Discord's idiom.

- an alert (a refusal: stale press, wrong user, finished game...) is an ephemeral
  note; with a hand shown anew, the note comes in that hand's message;
- the presser's hand in the pressed message (his DM or ephemeral hand) edits it;
  elsewhere (the table's "My hand") it comes as a fresh ephemeral message;
- an ephemeral hand pressed is kept current while its token lives;
- a question (the confirmation to cancel) is ephemeral, closed once answered;
- a public message that answers in place (an event's registration) is edited in the
  message's own lane, with the newest screen its presses gave (two presses answered
  at once never leave the older one shown);
- anything else is acknowledged: the publisher shows the change;
- a player who sits down but takes no DMs is told how to open them or to use "My hand".
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from functools import partial
from typing import Any

import discord

from adapters.discord.answer import Answer, Running
from adapters.discord.publisher import DiscordPublisher, with_note
from adapters.discord.refs import (
    chat_of,
    in_dm,
    is_admin,
    is_member,
    language,
    user_of,
    user_ref,
)
from bot.i18n import Translator
from bot.interactions import Interactions
from bot.models import ChatRef, Platform, User, UserRef
from bot.outputs import PressReply, Target
from bot.presenters import Screen
from bot.presses import Pressed, opens_message

log = logging.getLogger(__name__)

#: Public messages edited in place whose last version is kept.
KEPT_IN_PLACE = 1000


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
        #: Each message edited in place: the version its newest screen carries, and
        #: that screen until its lane shows it (the oldest messages forgotten).
        self._in_place: OrderedDict[int, tuple[int, Screen | None]] = OrderedDict()

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
        reply = await answer.within(
            self._ask(user, token, interaction), new_message=opens_message(token)
        )
        await self._carry_out(answer, interaction, user, reply)

    async def _carry_out(
        self,
        answer: Answer,
        interaction: discord.Interaction[Any],
        user: User,
        reply: PressReply,
    ) -> None:
        """What a press shows. Its alert goes with a hand shown anew, after a hand shown
        in place (the pressed message is edited by the first answer), else alone."""
        message = interaction.message
        on_ephemeral = message is not None and message.flags.ephemeral
        user_id = interaction.user.id
        game = reply.game
        alert = reply.alert
        for output in reply.outputs:
            target = output.target
            if target is Target.HAND and game is not None:
                table_locale = game.settings.locale
                hand = await self.publisher.ephemeral_hand(
                    output.screen, user_id, user.ref, table_locale
                )
                if alert is not None:
                    hand, alert = with_note(hand, alert), None
                await answer.send(hand, ephemeral=True)
                if game.status.is_open and not answer.expired:
                    self.publisher.attach_hand(game.id, user_id, interaction, refresh=False)
            elif target is Target.PRESSED and game is not None:
                hand = output.screen
                # Changed since the hand was drawn (his turn came while the press was
                # answered): that change's hand may have gone out before this answer.
                version = reply.version if reply.version is not None else game.version
                moved = version != game.version
                if on_ephemeral:
                    table_locale = game.settings.locale
                    hand = await self.publisher.ephemeral_hand(
                        hand, user_id, user.ref, table_locale
                    )
                    await answer.edit(hand)
                    if not answer.expired:
                        self.publisher.attach_hand(game.id, user_id, interaction, refresh=moved)
                elif message is not None and output.seat is not None:
                    seat = output.seat
                    pressed = (game, seat, user_id, message.id, hand, version)
                    if self.publisher.pressed_hand(*pressed):
                        await answer.ack()  # its hand's lane shows it, after what it sends
                    else:
                        await answer.edit(hand)
                        self.publisher.shown_in_place(game, seat, message.id, hand, version)
                    if moved:
                        await self.publisher.redraw_hand(game.id, seat)
                else:
                    await answer.edit(hand)
            elif target is Target.EDIT and message is not None and not on_ephemeral:
                await answer.ack()
                version = reply.version or 0
                self._edit_in_place(chat_of(interaction), message.id, output.screen, version)
            elif target is Target.ANSWER:
                await answer.send(output.screen, ephemeral=True)
            elif target is Target.CLOSE and on_ephemeral:
                await answer.delete()
            elif target is Target.FOLLOW and on_ephemeral and game is not None:
                await answer.ack()
                if not answer.expired:
                    self.publisher.attach_hand(game.id, user_id, interaction, refresh=True)
            elif target is Target.SEATED and not in_dm(interaction):
                await answer.ack()
                await self._check_dm(answer, user, interaction)
        if alert is not None:
            await answer.send(Screen(alert), ephemeral=True)
        await answer.ack()

    def _edit_in_place(self, chat: ChatRef, message_id: int, screen: Screen, version: int) -> None:
        """Show ``screen`` (of ``version``) in the public message ``message_id`` unless
        a newer one was given for it: in the message's lane, in order, the newest
        screen when its turn comes."""
        known = self._in_place.get(message_id)
        if known is not None and known[0] > version:
            return
        self._in_place[message_id] = (version, screen)
        self._in_place.move_to_end(message_id)
        while len(self._in_place) > KEPT_IN_PLACE:
            self._in_place.popitem(last=False)
        job = partial(self._show_in_place, chat, message_id)
        self.publisher.deliver((f"message {message_id}", "in place"), job)

    async def _show_in_place(self, chat: ChatRef, message_id: int) -> None:
        known = self._in_place.get(message_id)
        if known is None or known[1] is None:
            return  # shown by an earlier job of the lane
        self._in_place[message_id] = (known[0], None)
        await self.publisher.edit(chat, message_id, known[1])

    async def _ask(
        self,
        user: User,
        token: str,
        interaction: discord.Interaction[Any],
    ) -> PressReply:
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
        tokens = _tokens(message) if message is not None else ()
        if message is not None and message.flags.ephemeral:
            return Pressed(chat, user_ref(interaction.user), tokens)
        if not in_dm(interaction):
            return Pressed(chat, None, tokens)
        return Pressed(chat, self._recipient(interaction), tokens)

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


def _tokens(message: discord.Message) -> tuple[str | None, ...]:
    """The custom ids of a message's buttons."""
    return tuple(
        getattr(child, "custom_id", None)
        for row in message.components
        for child in getattr(row, "children", ())
    )


async def sorry(answer: Answer, interactions: Interactions, tr: Translator) -> None:
    """Tell the user that something went wrong, if Discord still takes an answer."""
    interaction = answer.interaction
    try:
        locale = await interactions.user_locale(user_of(interaction), language(interaction))
        await answer.send(Screen(tr.t(locale, "err-generic")), ephemeral=True)
    except Exception as error:  # the error itself is logged already
        log.warning("could not tell %s about an error: %r", interaction.user.id, error)
