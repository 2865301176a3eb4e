"""Shows what happens in a game on Discord.

For every change the application says what to show (:meth:`Interactions.outputs`);
this publisher only delivers it:

- the table: ONE message in the game's channel, edited in place (the lobby, then the
  table). After ``/kozel`` it is the command's own answer;
- a hand: one DM per player per game, edited in place; and, while its token lives, the
  player's ephemeral hand (opened with the table's "My hand" button) is kept current too;
- results, notices and reminders: new messages;
- a Swiss evening's news (:mod:`adapters.discord.events`): in a lane of their own
  (:meth:`DiscordPublisher.deliver`).

``publish`` runs under the game's lock, so it only queues. Each message has a lane
that sends one request at a time and keeps only the latest screen of a message that is
edited in place, so a fast series of changes costs one edit, not one per card; results
and notices keep their order. Message ids are remembered in the game
(:meth:`GameService.set_message`), so a restarted bot edits the same messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

import discord

from adapters.discord import render
from adapters.discord.answer import is_expired
from bot.errors import ServiceError
from bot.i18n import Translator
from bot.interactions import Interactions
from bot.models import ChatRef, Game, GameStatus, UserRef
from bot.outputs import Target
from bot.ports import Change, Owed
from bot.presenters import Screen
from bot.service import GameService

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[object]]
#: A lane: (its owner, what it delivers). A game's lanes are owned by its id ("table",
#: "hand:<seat>", "chat"...); another owner is named by a string ("event 5").
LaneKey = tuple[int | str, str]

#: An interaction token serves edits for 15 minutes; stop a little earlier.
TOKEN_LIFETIME = 14 * 60.0
#: After a DM failed (closed DMs), try that user again only after this many seconds.
DM_RETRY_AFTER = 300.0
#: Users kept as taking DMs (and at most about as many as not taking them).
DM_OPEN_KEPT = 50_000


@dataclass(eq=False)
class _Lane:
    """Deliveries to one message (``coalesce``: only the latest counts) or one chat."""

    coalesce: bool
    jobs: deque[Job] = field(default_factory=deque)
    task: asyncio.Task[None] | None = None


@dataclass(frozen=True, slots=True)
class _Live:
    """An interaction whose original message is a player's ephemeral hand."""

    interaction: discord.Interaction[Any]
    since: float


@dataclass(frozen=True, slots=True)
class _Hand:
    """The latest hand shown to a player (to refresh a newly attached ephemeral hand)."""

    seat: int
    user: UserRef
    screen: Screen
    playing: bool
    chat: ChatRef
    locale: str
    #: The game's version it shows.
    version: int = 0
    #: Shown even where a press showed this version already (its link was renewed).
    forced: bool = False


def _owner(key: LaneKey) -> str:
    """Whose lane it is, for the log: ``game 5``, or the owner's own name."""
    return f"game {key[0]}" if isinstance(key[0], int) else key[0]


def with_note(screen: Screen, note: str) -> Screen:
    return Screen(f"{screen.text}\n\n{note}", screen.rows)


class DiscordPublisher:
    """The Discord side of :class:`bot.ports.Publisher`."""

    def __init__(
        self,
        bot: discord.Client,
        interactions: Interactions,
        service: GameService,
        tr: Translator,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.bot = bot
        self.interactions = interactions
        self.service = service
        self.tr = tr
        self._clock = clock
        self._ready = asyncio.Event()
        self._lanes: dict[LaneKey, _Lane] = {}
        self._chores: set[asyncio.Task[None]] = set()
        #: Message ids by (game id, key): "table", "hand:<seat>".
        self._ids: dict[tuple[int, str], int] = {}
        #: What each of those messages shows now (an identical edit is skipped).
        self._shown: dict[tuple[int, str], Screen] = {}
        self._hands: dict[tuple[int, int], _Hand] = {}
        #: The DM hands a press was answered in: the game's version that answer
        #: showed, and the message (see :meth:`pressed_hand`).
        self._pressed: dict[tuple[int, str], tuple[int, int]] = {}
        #: The game's version each DM hand shows.
        self._versions: dict[tuple[int, str], int] = {}
        self._live: dict[tuple[int, int], _Live] = {}
        #: ``/kozel`` interactions whose answer becomes the table, by chat id.
        self._openers: dict[str, _Live] = {}
        #: Users whose DMs were closed, by when; pruned past DM_RETRY_AFTER.
        self._dm_closed: dict[int, float] = {}
        #: Users known to take DMs, the latest DM_OPEN_KEPT (one forgotten costs a try).
        self._dm_open: OrderedDict[int, None] = OrderedDict()
        self._prune_closed_at = DM_OPEN_KEPT
        self._told: set[tuple[int, int]] = set()

    # --- Wiring ----------------------------------------------------------------------

    def ready(self) -> None:
        """The bot is logged in: requests may go out."""
        self._ready.set()

    @property
    def busy(self) -> bool:
        return bool(self._chores) or any(lane.task is not None for lane in self._lanes.values())

    async def idle(self) -> None:
        """Wait until everything queued so far is delivered (tests, shutdown)."""
        while True:
            tasks = [lane.task for lane in self._lanes.values() if lane.task is not None]
            tasks += list(self._chores)
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)

    async def close(self) -> None:
        tasks = [lane.task for lane in self._lanes.values() if lane.task is not None]
        tasks += list(self._chores)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._lanes.clear()

    # --- Publisher -------------------------------------------------------------------

    async def publish(self, game: Game, change: Change) -> None:
        for key, value in game.messages.items():
            if value.isdigit():
                self._ids.setdefault((game.id, key), int(value))
        locale = game.settings.locale
        playing = game.status is GameStatus.PLAYING
        outputs = await self.interactions.outputs(game, change, hand_button=True, pictures=True)
        for output in outputs:
            screen = output.screen
            if output.target is Target.TABLE:
                job = partial(self._show_table, game.id, game.chat, screen)
                self._queue((game.id, "table"), job, coalesce=True)
            elif output.target is Target.CHAT:
                post = partial(self._post_owed, game.chat, screen, output.owed, output.image)
                self._queue((game.id, "chat"), post, False)
            elif output.seat is not None and output.user is not None:
                user_id = int(output.user.id)
                if output.target is Target.HAND:
                    hand = _Hand(
                        output.seat, output.user, screen, playing, game.chat, locale, game.version
                    )
                    self._hands[(game.id, user_id)] = hand
                    self._queue_hand(game.id, hand)
                else:
                    job = partial(self._send_private, user_id, screen)
                    self._queue((game.id, f"dm:{output.seat}"), job, coalesce=False)
        if not game.status.is_open:
            self._chore(self._forget_when_done(game.id))

    # --- What presses and commands tell the publisher ------------------------------

    def expect_table(self, chat: ChatRef, interaction: discord.Interaction[Any]) -> None:
        """``/kozel`` was deferred: its answer becomes the table of the game it opens."""
        self._openers[chat.id] = _Live(interaction, self._clock())

    def forget_table(self, chat: ChatRef) -> None:
        self._openers.pop(chat.id, None)

    def attach_hand(
        self, game_id: int, user_id: int, interaction: discord.Interaction[Any], *, refresh: bool
    ) -> None:
        """The original message of ``interaction`` is the user's ephemeral hand: keep it
        current while the token lives (``refresh``: show his hand as it is now in it)."""
        self._live[(game_id, user_id)] = _Live(interaction, self._clock())
        hand = self._hands.get((game_id, user_id))
        if refresh and hand is not None:
            job = partial(self._refresh_live, game_id, user_id, hand)
            self._queue((game_id, f"live:{user_id}"), job, coalesce=True)

    def pressed_hand(
        self, game: Game, seat: int, user_id: int, message_id: int, screen: Screen, version: int
    ) -> bool:
        """A press in the message ``message_id`` is answered with ``screen``, the seat's
        hand at the game's ``version`` with the player's selection. If that is the
        seat's DM hand, a hand of that version not shown yet is not shown over it (it
        would wipe the selection: the game shown again after a restart as the player
        selects a card); and if the hand's lane is sending, ``screen`` goes out in it,
        after what it sends: then True (the press is only acknowledged). False: the
        press's answer shows it (then :meth:`shown_in_place`)."""
        key = (game.id, f"hand:{seat}")
        if self._message_id(game, key[1]) != message_id:
            return False
        self._pressed[key] = (version, message_id)
        lane = self._lanes.get(key)
        if lane is None:
            return False
        lane.jobs.append(
            partial(self._show_pressed, game.id, seat, user_id, message_id, screen, version)
        )
        if lane.task is None:
            lane.task = asyncio.get_running_loop().create_task(self._drain(key, lane))
        return True

    def shown_in_place(
        self, game: Game, seat: int, message_id: int, screen: Screen, version: int
    ) -> None:
        """A press was answered in the message ``message_id`` with ``screen``, the hand
        at the game's ``version``: if that is the seat's DM hand, it shows ``screen``
        now (a hand shown next is compared with it, not with what the publisher showed
        there before)."""
        key = (game.id, f"hand:{seat}")
        if self._message_id(game, key[1]) == message_id:
            self._shown[key] = screen
            self._versions[key] = version

    async def _show_pressed(
        self, game_id: int, seat: int, user_id: int, message_id: int, screen: Screen, version: int
    ) -> None:
        """A press's answer in its DM hand's lane (see :meth:`pressed_hand`), unless a
        newer hand went out meanwhile."""
        key = (game_id, f"hand:{seat}")
        if self._ids.get(key, message_id) != message_id or self._versions.get(key, 0) > version:
            return
        dm = await self.bot.create_dm(discord.Object(user_id))
        text, view = render.content(screen.text), render.view(screen)
        await dm.get_partial_message(message_id).edit(content=text, view=view)
        self._shown[key], self._versions[key] = screen, version

    async def redraw_hand(self, game_id: int, seat: int) -> None:
        """Show a seat's DM hand again as it is now (its link to the web table was
        renewed; a press's answer drawn before the game's last change went out after
        it), in order with the changes published."""
        async with self.service.showing(game_id) as game:
            player = game.seats[seat] if 0 <= seat < len(game.seats) else None
            screen = await self.interactions.hand_screen(game, seat)
            if screen is None or player is None or player.user is None:
                return
            if game.status is not GameStatus.PLAYING:
                return
            locale = game.settings.locale
            hand = _Hand(seat, player.user, screen, True, game.chat, locale, game.version, True)
            self._hands[(game.id, int(player.user.id))] = hand
            self._queue_hand(game.id, hand)

    def table_id(self, game: Game) -> int | None:
        """The id of a game's table message, if it has one."""
        return self._message_id(game, "table")

    def _message_id(self, game: Game, key: str) -> int | None:
        """The id of a game's message ``key`` (``"table"``, ``"hand:2"``): as this
        publisher knows it, else as the game keeps it."""
        known = self._ids.get((game.id, key))
        stored = game.messages.get(key, "")
        return known if known is not None else int(stored) if stored.isdigit() else None

    def dm_closed(self, user_id: int) -> bool:
        failed = self._dm_closed.get(user_id)
        return failed is not None and self._clock() - failed < DM_RETRY_AFTER

    async def can_dm(self, user_id: int, hello: str) -> bool:
        """Whether the user takes DMs from the bot; a user not written to yet gets
        ``hello``."""
        if user_id in self._dm_open:
            return True
        if self.dm_closed(user_id):
            return False
        return await self._send_dm(user_id, Screen(hello))

    # --- Lanes -----------------------------------------------------------------------

    def deliver(self, key: LaneKey, job: Job) -> None:
        """Run ``job`` (requests to Discord) in the lane ``key``, after what was queued
        there before it, once the bot is ready; its failure is logged as any lane's."""
        self._queue(key, job, coalesce=False)

    def later(self, work: Awaitable[None]) -> None:
        """Run ``work`` beside the lanes (awaited by :meth:`idle`, cancelled by
        :meth:`close`)."""
        self._chore(work)

    def _queue(self, key: LaneKey, job: Job, coalesce: bool) -> None:
        lane = self._lanes.get(key)
        if lane is None:
            lane = self._lanes[key] = _Lane(coalesce)
        if lane.coalesce:
            lane.jobs.clear()
        lane.jobs.append(job)
        if lane.task is None:
            lane.task = asyncio.get_running_loop().create_task(self._drain(key, lane))

    def _queue_hand(self, game_id: int, hand: _Hand) -> None:
        self._queue((game_id, f"hand:{hand.seat}"), partial(self._show_hand, game_id, hand), True)

    async def _drain(self, key: LaneKey, lane: _Lane) -> None:
        try:
            await self._ready.wait()
            while lane.jobs:
                job = lane.jobs.popleft()
                try:
                    await job()
                except asyncio.CancelledError:
                    raise
                except (discord.Forbidden, discord.NotFound) as error:
                    # The channel is gone or the bot may not write there: the game
                    # goes on; a moderator has to fix the permissions.
                    log.warning("%s: cannot show %s: %s", _owner(key), key[1], error)
                except Exception:
                    if self.bot.is_closed():
                        log.warning("%s: %s not shown, the bot is closed", _owner(key), key[1])
                    else:
                        log.exception("%s: showing %s failed", _owner(key), key[1])
        finally:
            lane.task = None
            if self._lanes.get(key) is lane and not lane.jobs:
                del self._lanes[key]

    def _chore(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)

    async def _forget_when_done(self, game_id: int) -> None:
        """A game is over: once its last messages are out, forget what was kept for it."""
        while True:
            tasks = [
                lane.task
                for key, lane in self._lanes.items()
                if key[0] == game_id and lane.task is not None
            ]
            if not tasks:
                break
            await asyncio.gather(*tasks, return_exceptions=True)
        for key in [k for k in self._ids if k[0] == game_id]:
            del self._ids[key]
        for key in [k for k in self._shown if k[0] == game_id]:
            del self._shown[key]
        for kept in (self._pressed, self._versions):
            for key in [k for k in kept if k[0] == game_id]:
                del kept[key]
        for user_key in [k for k in self._hands if k[0] == game_id]:
            del self._hands[user_key]
        for user_key in [k for k in self._live if k[0] == game_id]:
            del self._live[user_key]
        self._told = {told for told in self._told if told[0] != game_id}

    # --- Deliveries ------------------------------------------------------------------

    def _channel(self, chat: ChatRef) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(int(chat.id))

    async def _show_table(self, game_id: int, chat: ChatRef, screen: Screen) -> None:
        key = (game_id, "table")
        message_id = self._ids.get(key)
        if message_id is not None:
            if self._shown.get(key) == screen:
                return
            try:
                await self.edit(chat, message_id, screen)
            except discord.NotFound:
                log.info("game %s: the table message is gone, posting a new one", game_id)
            else:
                self._shown[key] = screen
                return
        message_id = await self._open_table(chat, screen)
        self._shown[key] = screen
        await self._remember(game_id, "table", message_id)

    async def _open_table(self, chat: ChatRef, screen: Screen) -> int:
        text, view = render.content(screen.text), render.view(screen)
        opener = self._openers.pop(chat.id, None)
        if opener is not None and self._clock() - opener.since < TOKEN_LIFETIME:
            try:
                message = await opener.interaction.edit_original_response(content=text, view=view)
            except discord.HTTPException as error:
                if not is_expired(error) and not isinstance(error, discord.NotFound):
                    raise
            else:
                return message.id
        return (await self._channel(chat).send(text, view=view)).id

    async def _show_hand(self, game_id: int, hand: _Hand) -> None:
        user_id = int(hand.user.id)
        live = self._live.get((game_id, user_id))
        if live is not None:
            await self._show_live_hand(game_id, user_id, live, hand)
        key = (game_id, f"hand:{hand.seat}")
        message_id = self._ids.get(key)
        if message_id is None and not hand.playing:
            return  # no new hand message for a game that is over
        if self.dm_closed(user_id):
            if hand.playing:
                await self._tell_closed(game_id, hand)
            return
        if message_id is not None and self._shown.get(key) == hand.screen:
            return
        if self._pressed.get(key) == (hand.version, message_id) and not hand.forced:
            return  # a press shows this version there, with the player's selection
        text, view = render.content(hand.screen.text), render.view(hand.screen)
        try:
            dm = await self.bot.create_dm(discord.Object(user_id))
            if message_id is not None:
                try:
                    await dm.get_partial_message(message_id).edit(content=text, view=view)
                except discord.NotFound:
                    log.info("game %s: hand message of seat %s is gone", game_id, hand.seat)
                else:
                    self._shown[key], self._versions[key] = hand.screen, hand.version
                    return
            message = await dm.send(text, view=view)
        except discord.Forbidden as error:
            self._closed(user_id, error)
            await self._tell_closed(game_id, hand)
            return
        except Exception:
            # Failed for good (a 5xx...): the DM still shows what it showed, so the
            # next change shows this hand, changed by it or not, as one never shown.
            self.interactions.hand_unshown(game_id, hand.seat)
            raise
        self._opened(user_id)
        self._shown[key], self._versions[key] = hand.screen, hand.version
        await self._remember(game_id, key[1], message.id)

    async def _refresh_live(self, game_id: int, user_id: int, hand: _Hand) -> None:
        """The user's ephemeral hand shows his hand as it is now, drawn from the game
        while it is played (the hand last published may be older: a seat whose web
        page is open gets none during play), else the last one published; his DM hand
        is left to the changes."""
        live = self._live.get((game_id, user_id))
        if live is None:
            return
        screen = None
        with contextlib.suppress(ServiceError):  # the game is gone
            async with self.service.showing(game_id) as game:
                if game.status is GameStatus.PLAYING:
                    screen = await self.interactions.hand_screen(game, hand.seat)
        latest = self._hands.get((game_id, user_id), hand)
        if screen is not None:
            latest = replace(latest, screen=screen)
        await self._show_live_hand(game_id, user_id, live, latest)

    async def _show_live_hand(self, game_id: int, user_id: int, live: _Live, hand: _Hand) -> None:
        if self._clock() - live.since >= TOKEN_LIFETIME:
            self._live.pop((game_id, user_id), None)
            return
        screen = await self.ephemeral_hand(hand.screen, user_id, hand.user, hand.locale)
        try:
            await live.interaction.edit_original_response(
                content=render.content(screen.text), view=render.view(screen)
            )
        except discord.HTTPException as error:
            if not (is_expired(error) or isinstance(error, discord.NotFound)):
                raise
            log.info("game %s: the ephemeral hand of %s is gone (%s)", game_id, user_id, error.code)
            if self._live.get((game_id, user_id)) is live:
                del self._live[(game_id, user_id)]

    async def ephemeral_hand(
        self, screen: Screen, user_id: int, user: UserRef, table_locale: str
    ) -> Screen:
        """A hand for an ephemeral message: with a note when the player's DMs are closed."""
        if not self.dm_closed(user_id):
            return screen
        locale = await self.interactions.user_locale(user, table_locale)
        return with_note(screen, self.tr.t(locale, "discord-hand-here"))

    async def _tell_closed(self, game_id: int, hand: _Hand) -> None:
        """Tell a player once per game, in the game's channel, that his DMs are closed."""
        user_id = int(hand.user.id)
        if (game_id, user_id) in self._told:
            return
        self._told.add((game_id, user_id))
        text = self.tr.t(hand.locale, "discord-dm-closed-public", mention=f"<@{user_id}>")
        mentions = discord.AllowedMentions(users=[discord.Object(user_id)])
        job = partial(self.post, hand.chat, Screen(text), mentions)
        self._queue((game_id, "chat"), job, coalesce=False)

    async def post(
        self,
        chat: ChatRef,
        screen: Screen,
        mentions: discord.AllowedMentions | None = None,
        image: bytes | None = None,
    ) -> int:
        """Post a new message in a channel (``image``: a PNG attached, the text above
        it); its id. Call it from a lane job (:meth:`deliver`): in order, paced."""
        text = render.content(screen.text)
        channel = self._channel(chat)
        if image is not None:  # a picture, attached, with the text above it
            picture = discord.File(io.BytesIO(image), filename="result.png")
            message = await channel.send(text, file=picture)
        elif mentions is None:
            message = await channel.send(text, view=render.view(screen))
        else:
            message = await channel.send(text, view=render.view(screen), allowed_mentions=mentions)
        return message.id

    async def edit(self, chat: ChatRef, message_id: int, screen: Screen) -> None:
        """Show ``screen`` in a channel's message (its buttons too: none clears them).
        Raises :class:`discord.NotFound` when the message is gone."""
        message = self._channel(chat).get_partial_message(message_id)
        await message.edit(content=render.content(screen.text), view=render.view(screen))

    async def _post_owed(
        self, chat: ChatRef, screen: Screen, owed: Owed | None, image: bytes | None = None
    ) -> None:
        """Post a message (``image``: with a picture attached); one the game owed is
        then owed no more (also when the channel refuses it for good)."""
        try:
            await self.post(chat, screen, image=image)
        except (discord.Forbidden, discord.NotFound):
            await self._sent(owed)
            raise
        await self._sent(owed)

    async def _sent(self, owed: Owed | None) -> None:
        if owed is None:
            return
        try:
            await self.service.message_sent(owed)
        except Exception:
            log.exception("could not mark message %s of game %s sent", owed, owed.game_id)

    async def _send_private(self, user_id: int, screen: Screen) -> None:
        await self._send_dm(user_id, screen)

    async def _send_dm(self, user_id: int, screen: Screen) -> bool:
        try:
            dm = await self.bot.create_dm(discord.Object(user_id))
            await dm.send(render.content(screen.text), view=render.view(screen))
        except discord.Forbidden as error:
            self._closed(user_id, error)
            return False
        self._opened(user_id)
        return True

    def _closed(self, user_id: int, error: discord.Forbidden) -> None:
        log.info("user %s takes no DMs (%s %s)", user_id, error.status, error.code)
        now = self._clock()
        self._dm_closed[user_id] = now
        self._dm_open.pop(user_id, None)
        if len(self._dm_closed) > self._prune_closed_at:  # forget who may be tried again
            self._dm_closed = {
                user: failed
                for user, failed in self._dm_closed.items()
                if now - failed < DM_RETRY_AFTER
            }
            self._prune_closed_at = max(DM_OPEN_KEPT, 2 * len(self._dm_closed))

    def _opened(self, user_id: int) -> None:
        self._dm_open[user_id] = None
        self._dm_open.move_to_end(user_id)
        while len(self._dm_open) > DM_OPEN_KEPT:
            self._dm_open.popitem(last=False)
        self._dm_closed.pop(user_id, None)

    async def _remember(self, game_id: int, key: str, message_id: int) -> None:
        self._ids[(game_id, key)] = message_id
        with contextlib.suppress(ServiceError):
            await self.service.set_message(game_id, key, str(message_id))
