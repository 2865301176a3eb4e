"""The Telegram adapter running against the fake Bot API server, and simulated users.

A :class:`Harness` owns a storage, a game service with a hand-moved clock and no
computer delay, and a :class:`TelegramAdapter` whose Dispatcher polls the fake in a
task (or, with ``webhook``, serves a webhook on 127.0.0.1 the fake posts to).
Handler exceptions (``dp.errors``), failed outbox jobs and ERROR logs fail the test
at teardown. Everything waits on the fake's state (``wait_for``; ``settle`` waits
until the bot is idle): no sleeps.
"""

from __future__ import annotations

import asyncio
import logging
import random
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiogram import Bot
from aiogram.client.telegram import TelegramAPIServer
from aiogram.types import ErrorEvent

from adapters.telegram import Pacing, TelegramAdapter
from adapters.telegram.publisher import TABLE, hand_key
from adapters.telegram.session import LeanSession
from adapters.web import WebApp
from bot import presenters
from bot.codec import CodecError, Command, Verb, decode, encode
from bot.flood import FloodGuard
from bot.i18n import Translator
from bot.interactions import Interactions
from bot.models import ChatRef, Game, GameStatus, Platform
from bot.ports import Storage
from bot.service import GameService
from bot.settings import Settings
from core.ruleset import Computer
from testing.fakes.bot_process import fast_pacing
from testing.fakes.telegram import FakeMessage, FakeTelegram, FakeUser

TOKEN = "123456:TEST-token"
GROUP = -1001
SUITS = frozenset("♣♠♥♦")
HAND = (Verb.SELECT, Verb.PLAY, Verb.REFRESH)
FAST = fast_pacing()


class FakeClock:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.value = now

    def now(self) -> float:
        return self.value


class ErrorLog(logging.Handler):
    """Collects ERROR records of every logger while the harness runs."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@dataclass
class Harness:
    tg: FakeTelegram
    storage: Storage
    tr: Translator
    pacing: Pacing = FAST
    webhook: bool = False
    clock: FakeClock = field(default_factory=FakeClock)
    seed: int = 7
    #: The service's random source (kept over restarts); None: seeded with ``seed``.
    rng: random.Random | None = None
    errors: list[BaseException] = field(default_factory=list)
    #: The computer players the service makes by level (None: the rule set's own);
    #: a test of challenges (whose seats are strong) makes them quick with it.
    players: Callable[[str], Computer] | None = None
    #: The web table's settings (``web_public_url``, ``web_app_name``...), or None:
    #: no web table (the bot as it runs without ``WEB_PORT``).
    web: dict[str, Any] | None = None
    web_app: WebApp | None = field(init=False, default=None)
    service: GameService = field(init=False)
    interactions: Interactions = field(init=False)
    adapter: TelegramAdapter = field(init=False)
    task: asyncio.Task[None] | None = field(init=False, default=None)

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
        if self.web is not None:  # it starts before the platforms, as in python -m bot
            web = Settings(telegram_bot_token=TOKEN, web_port=0, _env_file=None, **self.web)
            self.web_app = WebApp(web, self.interactions, self.tr)
            await self.web_app.start()
        settings = Settings(
            telegram_api_url=self.tg.base_url, telegram_webhook_url=None, _env_file=None
        )
        if self.webhook:
            port = free_port()
            settings = Settings(
                telegram_api_url=self.tg.base_url,
                telegram_webhook_url=f"http://127.0.0.1:{port}/telegram/hook",
                telegram_webhook_port=port,
                _env_file=None,
            )
        api = TelegramAPIServer.from_base(self.tg.base_url)
        bot = Bot(TOKEN, session=LeanSession(api=api))
        self.adapter = TelegramAdapter(
            settings, self.service, self.interactions, self.tr, bot=bot, pacing=self.pacing
        )

        @self.adapter.dp.errors()
        async def collect(event: ErrorEvent) -> bool:
            self.errors.append(event.exception)
            return True

        await self.service.restore()
        started = "setWebhook" if self.webhook else "getMe"  # serving, or polling
        before = len(self.tg.calls_of(started))
        self.task = asyncio.create_task(self.adapter.run())
        await self.tg.wait_for(lambda t: len(t.calls_of(started)) > before)

    async def stop(self) -> None:
        """Let the bot finish what it does, then stop polling and close the session."""
        if self.task is None:
            return
        await self.settle()
        await self.adapter.stop()
        await self.task
        self.task = None
        if self.web_app is not None:
            await self.web_app.stop()
            self.web_app = None
        await self.service.close()
        failed = self.adapter.outbox.stats.failures
        self.errors.extend(RuntimeError(f"outbox: {f}") for f in failed)

    async def restart(self, storage: Storage) -> None:
        """Stop the bot and start a new service, adapter and Bot on ``storage``."""
        await self.stop()
        self.storage = storage
        await self.start()

    async def settle(self) -> None:
        """Wait until updates are handled, computers moved and messages went out."""
        for _ in range(3):
            await self.tg.wait_idle(quiet=0.05, timeout=10)
            await self.service.settle()
            await self.adapter.outbox.drain()

    # --- Users -----------------------------------------------------------------------

    def user(self, uid: int, name: str, *, started: bool = True) -> FakeUser:
        user = self.tg.add_user(uid, name, language_code="en")
        if started:
            self.tg.user_starts(user)
        return user

    async def command(
        self,
        user: FakeUser,
        chat: int,
        text: str,
        *,
        thread: int | None = None,
        reply_to: int | None = None,
    ) -> FakeMessage:
        """Send a command and wait for the bot's next message in that chat."""
        before = len(self.tg.messages(chat))
        await self.tg.send_text(user, chat, text, thread_id=thread, reply_to=reply_to)
        return await self.tg.wait_for(lambda t: _bot_message_after(t, chat, before + 1))

    async def press(self, user: FakeUser, message: FakeMessage, data: str) -> str:
        """Press a button and wait until the bot answered it."""
        query = await self.tg.press(user, message.chat_id, message.message_id, data)
        await self.tg.wait_for(lambda t: query in t.callback_answers)
        return query

    async def press_verb(
        self, user: FakeUser, message: FakeMessage, verb: Verb, arg: str | None = None
    ) -> str:
        return await self.press(user, message, button(self.tg, message, verb, arg))

    async def press_lobby(
        self, user: FakeUser, lobby: FakeMessage, verb: Verb, arg: str | None = None
    ) -> None:
        """Press a lobby button that must work, and wait for the lobby to show it."""
        before = self.tg.buttons(lobby.chat_id, lobby.message_id)
        query = await self.press_verb(user, lobby, verb, arg)
        assert "text" not in self.tg.callback_answers[query], self.tg.callback_answers[query]
        await self.tg.wait_for(lambda t: t.buttons(lobby.chat_id, lobby.message_id) != before)

    # --- Games -----------------------------------------------------------------------

    async def four_seated(self, people: list[FakeUser], rules: str = "") -> Game:
        """``/kozel`` (with ``rules``, e.g. ``classic``) in the group: the people sit A,
        B, A, B, computers in the seats left, the first person starts; settled."""
        lobby = await self.command(people[0], GROUP, f"/kozel {rules}".strip())
        for index in range(4):
            team = "AB"[index % 2]
            if index < len(people):
                await self.press_lobby(people[index], lobby, Verb.JOIN, team)
            else:
                await self.press_lobby(people[0], lobby, Verb.ADD_COMPUTER, team)
        await self.press_verb(people[0], lobby, Verb.START)
        await self.settle()
        game = await self.service.open_game(ChatRef(Platform.TELEGRAM, str(GROUP)))
        assert game is not None and game.status is GameStatus.PLAYING
        return game

    async def game(self, game_id: int) -> Game:
        return await self.service.game(game_id)

    def table_message(self, game: Game) -> FakeMessage | None:
        mid = self.adapter.outbox.message_id((game.id, TABLE), game.messages.get(TABLE))
        return message(self.tg, int(game.chat.id), mid)

    def hand_message(self, game: Game, seat: int) -> FakeMessage | None:
        """The seat's hand message: the newest in the player's private chat with hand
        buttons of this game (read from the fake, which knows it first)."""
        player = game.seats[seat]
        assert player is not None and player.user is not None
        chat = int(player.user.id)
        for found in reversed(self.tg.messages(chat)):
            tokens = [_command(data) for _, data in self.tg.buttons(chat, found.message_id)]
            if any(c is not None and c.game_id == game.id and c.verb in HAND for c in tokens):
                return found
        key = hand_key(seat)  # a hand without buttons (the game is over)
        mid = self.adapter.outbox.message_id((game.id, key), game.messages.get(key))
        return message(self.tg, chat, mid)

    def expected_table(self, game: Game) -> str:
        return presenters.table(game, self.tr, game.settings.locale, self.clock.now()).text

    def hand_text(self, game: Game, seat: int, locale: str = "ru") -> str:
        return presenters.hand(game, seat, 0, self.tr, locale).text

    async def play_turn(self, game_id: int, rng: random.Random) -> None:
        """The human to move picks a legal move by reading the hand message: selects
        cards one by one until an action button appears, then presses it."""
        game = await self.game(game_id)
        deal = game.play.series.current
        assert deal is not None and deal.turn is not None
        seat, version = deal.turn, game.version
        player = game.seats[seat]
        assert player is not None and player.user is not None
        user = self.tg.users[int(player.user.id)]
        hand = await self.tg.wait_for(lambda t: self._current_hand(game, seat))
        selected = 0
        while True:
            actions = [
                (label, data)
                for label, data in self.tg.buttons(hand.chat_id, hand.message_id)
                if _verb(data) is Verb.PLAY and not str(data).endswith(":m")
            ]
            if actions:
                preferred = sorted(actions, key=lambda a: (":b" not in str(a[1]), rng.random()))
                await self.press(user, hand, str(preferred[0][1]))
                break
            cards = [
                (label, data)
                for label, data in self.tg.buttons(hand.chat_id, hand.message_id)
                if _verb(data) is Verb.SELECT
                and label[-1] in SUITS  # not "✖ Clear"
                and not label.startswith(presenters.SELECTED_MARK)
            ]
            assert cards, f"no card to select in {hand.text!r}"
            await self.press(user, hand, str(rng.choice(cards)[1]))
            selected += 1
            count = selected
            await self.tg.wait_for(lambda t, c=count: _marks(t, hand) == c)  # type: ignore[misc]
        await self.tg.wait_for(lambda t: game.version > version or not game.status.is_open)

    def _current_hand(self, game: Game, seat: int) -> FakeMessage | None:
        """The seat's hand message once it shows the game's current version."""
        hand = self.hand_message(game, seat)
        if hand is None:
            return None
        buttons = self.tg.buttons(hand.chat_id, hand.message_id)
        # A link button (the web table's) carries no version.
        versions = {_version(data) for _, data in buttons} - {None}
        return hand if versions == {game.version} else None

    async def play_until(self, game_id: int, done: Callable[[Game], bool], seed: int = 1) -> Game:
        """Humans play (through their hand messages) until ``done``; computers move
        by themselves."""
        rng = random.Random(seed)
        while True:
            await self.service.settle()
            game = await self.game(game_id)
            if done(game) or game.status is not GameStatus.PLAYING:
                return game
            deal = game.play.series.current
            assert deal is not None and deal.turn is not None
            player = game.seats[deal.turn]
            assert player is not None
            if player.plays_itself:
                continue  # a computer is about to move
            await self.play_turn(game_id, rng)


def free_port() -> int:
    """A TCP port free on 127.0.0.1 (for the bot's webhook server)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def message(tg: FakeTelegram, chat: int, message_id: int | None) -> FakeMessage | None:
    found = [m for m in tg.messages(chat) if m.message_id == message_id and not m.deleted]
    return found[0] if found else None


def button(tg: FakeTelegram, message: FakeMessage, verb: Verb, arg: str | None = None) -> str:
    """The callback data of the message's first button with this verb (and arg)."""
    for _, data in tg.buttons(message.chat_id, message.message_id):
        try:
            command = decode(str(data))
        except CodecError:
            continue
        if command.verb is verb and (arg is None or command.arg == arg):
            return str(data)
    raise LookupError(f"no {verb!r} button in {tg.buttons(message.chat_id, message.message_id)}")


def _command(data: str | None) -> Command | None:
    try:
        return decode(str(data))
    except CodecError:
        return None


def _verb(data: str | None) -> Verb | None:
    command = _command(data)
    return None if command is None else command.verb


def _version(data: str | None) -> int | None:
    command = _command(data)
    return None if command is None else command.version


def _marks(tg: FakeTelegram, hand: FakeMessage) -> int:
    labels = [label for label, _ in tg.buttons(hand.chat_id, hand.message_id)]
    return sum(label.startswith(presenters.SELECTED_MARK) for label in labels)


def _bot_message_after(tg: FakeTelegram, chat: int, index: int) -> FakeMessage | None:
    for message in tg.messages(chat)[index:]:
        if message.from_id == tg.bot_id:
            return message
    return None


def token(verb: Verb, game: Game, arg: str = "", version: int | None = None) -> str:
    """A button's callback data for the game (at its version unless told)."""
    return encode(Command(verb, game.id, game.version if version is None else version, arg))
