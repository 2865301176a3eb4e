"""The Discord adapter running against the fake Discord (REST + gateway), and users.

A :class:`Harness` owns a game service (a fixed clock, seeded cards, no computer delay)
over a given storage, and a :class:`DiscordAdapter` whose bot runs for real
(``adapter.run()`` -> ``bot.start()``) against :class:`~testing.fakes.discord.FakeDiscord`.
Everything waits on the fake's recorded calls or on the service: no sleeps.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from adapters.discord import DiscordAdapter
from adapters.discord.client import KozelBot
from adapters.web import WebApp
from bot.codec import CodecError, Verb, decode
from bot.flood import FloodGuard
from bot.i18n import Translator
from bot.interactions import Interactions
from bot.models import ChatRef, Game, Platform, UserRef
from bot.ports import Storage
from bot.presenters import SELECTED_MARK, card_label
from bot.presenters.yard import action_arg
from bot.service import GameService
from bot.settings import Settings
from core.ruleset import Computer
from core.yard.actions import Action, ActionKind
from core.yard.ai import safe_move
from testing.fakes.discord import JSON, TOKEN, FakeDiscord, FakeInteraction

GUILD, CHANNEL = 100, 200
ALICE, BOB, CAROL, DAVE, EVE = 10, 11, 12, 13, 14
NAMES = {ALICE: "alice", BOB: "bob", CAROL: "carol", DAVE: "dave", EVE: "eve"}
CHAT = ChatRef(Platform.DISCORD, str(CHANNEL))


class FixedClock:
    """The service's clock: it stands still, so the turn time left is always known."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.value = now

    def now(self) -> float:
        return self.value


def ref(user_id: int) -> UserRef:
    return UserRef(Platform.DISCORD, str(user_id))


def world(dc: FakeDiscord) -> None:
    """A server with one channel; alice owns it; eve takes no DMs."""
    dc.add_guild(GUILD, "Club", owner_id=ALICE)
    dc.add_channel(GUILD, CHANNEL, "kozel")
    dc.add_user(ALICE, "alice", guild_ids=[GUILD])
    for user in (BOB, CAROL, DAVE):
        dc.add_user(user, NAMES[user], guild_ids=[GUILD])
    dc.add_user(EVE, "eve", locale="en-US", dms_open=False, guild_ids=[GUILD])


@dataclass
class Harness:
    dc: FakeDiscord
    storage: Storage
    tr: Translator
    seed: int = 7
    defer_after: float = 1.5
    #: The service's random source; None: seeded with ``seed``.
    rng: random.Random | None = None
    clock: FixedClock = field(default_factory=FixedClock)
    #: The computer players the service makes by level (None: the rule set's own);
    #: a test of challenges (whose seats are strong) makes them quick with it.
    players: Callable[[str], Computer] | None = None
    service: GameService = field(init=False)
    interactions: Interactions = field(init=False)
    adapter: DiscordAdapter = field(init=False)
    task: asyncio.Task[None] | None = field(init=False, default=None)
    #: Whether the web table runs beside the bot (as with ``WEB_PORT``).
    web: bool = False
    #: Whether the web table is also the app's Discord Activity (implies ``web``).
    activity: bool = False
    web_app: WebApp | None = field(init=False, default=None)

    # --- Lifecycle -------------------------------------------------------------------

    async def start(self) -> None:
        self.service = GameService(
            self.storage,
            clock=self.clock,
            rng=self.rng or random.Random(self.seed),
            computer_delay=0,
            computer_level="normal",  # quick; the strong level has its own tests
            players=self.players,
        )
        # The real command limits; the simulated players press at machine speed (a
        # person's presses are limited by bot.flood.PRESSES: tests/bot/test_flood.py).
        flood = FloodGuard(presses=None)
        self.interactions = Interactions(self.service, self.tr, flood=flood)
        activity: dict[str, Any] = {}
        if self.activity:
            activity = {
                "discord_client_id": str(self.dc.app_id),
                "discord_client_secret": self.dc.client_secret,
                "discord_api_url": self.dc.api_base,
                "web_public_url": "https://kozel.example.org/",
            }
        on = {"web_port": 0, **activity} if activity else {}
        settings = Settings(discord_bot_token=TOKEN, _env_file=None, **on)
        if self.web or self.activity:  # it starts before the platforms, as in python -m bot
            web = Settings(discord_bot_token=TOKEN, web_port=0, _env_file=None, **activity)
            self.web_app = WebApp(web, self.interactions, self.tr)
            await self.web_app.start()

        def client(adapter: DiscordAdapter) -> KozelBot:
            return KozelBot(adapter, guild_ready_timeout=0.01, identify_interval=0)

        self.adapter = DiscordAdapter(
            settings,
            self.service,
            self.interactions,
            self.tr,
            client_factory=client,
            defer_after=self.defer_after,
        )
        await self.service.restore()
        self.task = asyncio.create_task(self.adapter.run())
        ready = asyncio.create_task(self.adapter.started.wait())
        await asyncio.wait({self.task, ready}, timeout=5.0, return_when=asyncio.FIRST_COMPLETED)
        if not self.adapter.started.is_set():
            ready.cancel()
            if self.task.done():
                self.task.result()
            raise TimeoutError("the bot did not become ready")

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[Harness]:
        """``async with Harness(...).running() as h``: started, stopped at the end."""
        await self.start()
        try:
            yield self
        finally:
            await self.stop()

    async def stop(self) -> None:
        if self.task is None:
            return
        await self.settled()
        await self.adapter.close()
        await self.task
        if self.web_app is not None:
            await self.web_app.stop()
        await self.service.close()
        self.task = None

    async def settled(self) -> None:
        """Until no computer is about to move and every message is out."""
        while True:
            await self.adapter.idle()
            await self.service.settle()
            if not self.adapter.running.busy and not self.adapter.publisher.busy:
                return

    # --- Users -----------------------------------------------------------------------

    async def slash(
        self, user: int, name: str, options: dict[str, Any] | None = None, channel: int = CHANNEL
    ) -> FakeInteraction:
        """Run a slash command; returns once it is answered (not "thinking" any more)."""
        iid = await self.dc.slash(user, channel, name, options)
        rec = await self.answered(iid, loaded=True)
        await self.adapter.running.idle()
        return rec

    async def answered(self, iid: int, *, loaded: bool = False) -> FakeInteraction:
        def done() -> FakeInteraction | None:
            rec = self.dc.responses(iid)
            if rec.callback_type is None or (loaded and rec.loading):
                return None
            return rec

        result: FakeInteraction = await self.dc.wait_for(done)
        return result

    async def click(
        self, user: int, message_id: int, which: str | Callable[[str, str], bool]
    ) -> FakeInteraction:
        """Press the button labelled ``which`` (or the first one ``which(label, id)``
        accepts); returns once the press is answered and its handler done."""
        custom_id = self.button(message_id, which)
        iid = await self.dc.click(user, message_id, custom_id)
        rec = await self.answered(iid, loaded=True)
        await self.adapter.running.idle()
        return rec

    def button(self, message_id: int, which: str | Callable[[str, str], bool]) -> str:
        buttons = self.dc.buttons(self.dc.message(message_id))
        for label, custom_id, disabled in buttons:
            if label is None or custom_id is None or disabled:
                continue
            if which(label, custom_id) if callable(which) else label == which:
                return custom_id
        raise LookupError(f"no button {which!r} on {message_id}: {buttons}")

    def t(self, msg_id: str, locale: str = "ru", **args: Any) -> str:
        return self.tr.t(locale, msg_id, **args)

    # --- The game --------------------------------------------------------------------

    async def game(self, chat: ChatRef = CHAT) -> Game:
        game = await self.service.open_game(chat)
        assert game is not None
        return game

    def table_id(self, game: Game) -> int:
        return int(game.messages["table"])

    def hand_id(self, game: Game, user: int) -> int:
        seat = game.seat_of(ref(user))
        assert seat is not None
        return int(game.messages[f"hand:{seat}"])

    async def open_table(self, creator: int = ALICE) -> tuple[Game, int]:
        """``/kozel`` in the channel: the answer becomes the lobby."""
        rec = await self.slash(creator, "kozel")
        assert rec.original is not None and not rec.ephemeral
        await self.settled()
        game = await self.game()
        assert self.table_id(game) == int(rec.original["id"])
        return game, int(rec.original["id"])

    async def seat(self, table: int, user: int, team: str) -> FakeInteraction:
        rec = await self.click(user, table, self.t(f"lobby-join-{team.lower()}"))
        await self.settled()
        return rec

    async def start_four(self) -> tuple[Game, int]:
        """alice opens the table; alice and carol sit in team A, bob and dave in B."""
        _, table = await self.open_table()
        for user, team in ((ALICE, "A"), (BOB, "B"), (CAROL, "A"), (DAVE, "B")):
            await self.seat(table, user, team)
        await self.click(ALICE, table, self.t("lobby-start"))
        await self.settled()
        return await self.service.game((await self.game()).id), table

    async def start_two_with_computers(self) -> tuple[Game, int]:
        """alice opens the table; alice sits in team A, bob in B, a computer in each
        team; alice starts."""
        _, table = await self.open_table()
        await self.seat(table, ALICE, "A")
        await self.seat(table, BOB, "B")
        await self.click(ALICE, table, self.t("lobby-add-computer-a"))
        await self.click(ALICE, table, self.t("lobby-add-computer-b"))
        await self.click(ALICE, table, self.t("lobby-start"))
        await self.settled()
        return await self.game(), table

    def hand_is_current(self, game: Game, message: JSON) -> bool:
        """Whether a hand message carries the game's current version."""
        versions = set()
        for _, custom_id, _ in self.dc.buttons(message):
            try:
                versions.add(decode(custom_id or "").version)
            except CodecError:
                continue
        return versions == {game.version}

    async def play(
        self, game_id: int, user: int, message_id: int | None = None, action: Action | None = None
    ) -> Action:
        """The user makes a safe move with his hand's buttons (his DM hand, or the
        message ``message_id``): he selects its cards one by one, then plays them."""
        game = await self.service.game(game_id)
        seat = game.seat_of(ref(user))
        deal = game.play.series.current
        assert seat is not None and deal is not None and deal.turn == seat
        if action is None:
            action = safe_move(deal.view(seat))
        target = message_id if message_id is not None else self.hand_id(game, user)
        await self.dc.wait_for(lambda: self.hand_is_current(game, self.dc.message(target)))
        locale = await self.service.user_locale(ref(user), game.settings.locale)  # the hand's
        for card in action.cards if action.kind is not ActionKind.MOLODKA else ():
            label = card_label(card, locale)
            rec = await self.click(user, target, label)
            assert rec.callback_type == 7 and rec.original is not None, rec.callback_data
            assert any(b[0] == f"{SELECTED_MARK} {label}" for b in self.dc.buttons(rec.original))
        arg = action_arg(action)
        rec = await self.click(user, target, lambda _, cid: cid.endswith(f":{arg}"))
        assert rec.callback_type == 6, rec.callback_data
        return action

    async def finish_deal(self, game_id: int, players: dict[int, int]) -> int:
        """Humans (``players``: seat -> user) play safe moves until the deal is over;
        returns the number of moves they made."""
        moves = 0
        number = (await self.service.game(game_id)).play.series.current.number  # type: ignore[union-attr]
        while True:
            await self.settled()
            game = await self.service.game(game_id)
            deal = game.play.series.current
            if deal is None or deal.number != number or deal.result is not None:
                return moves
            if not game.status.is_open:
                return moves
            assert deal.turn is not None
            await self.play(game_id, players[deal.turn])
            moves += 1

    def verbs(self, message: JSON) -> list[Verb]:
        return [decode(custom_id or "").verb for _, custom_id, _ in self.dc.buttons(message)]
