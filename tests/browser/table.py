"""The browser tests' side of the web table: the bot's service with its web adapter
in-process (:func:`web_table`), people at pages who play by tapping (:class:`Player`)
and the hidden-card check over what each page shows (:class:`Secrets`).

A page's reader sees the cards of the seat it was opened for (its hand, whatever
the rules show that seat) and the public ones; a spectator's only the public ones.
Everything a page showed (its DOM text, its cards' ``data-card``, every frame its
socket received) is checked after each step against what the core says that
reader could see at any moment of the step.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import re
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from adapters.web import WebApp
from adapters.web.links import page_url
from bot.codec import CodecError, decode
from bot.flood import FloodGuard
from bot.i18n import Translator
from bot.interactions import Interactions
from bot.memory import MemoryStorage
from bot.models import ChatRef, Game, GameStatus, Platform, User, UserRef
from bot.ports import Change
from bot.presenters.yard import parse_action_arg
from bot.service import GameService
from bot.settings import Settings
from core.cards import Card
from core.seats import Team
from core.yard.actions import ActionKind
from core.yard.events import CardsBeaten, CardsLed, MolodkaDeclared
from core.yard.ruleset import YardGame
from testing.fakes.telegram import FakeTelegram
from tests.adapters.classic_play import cards_in
from tests.adapters.telegram.harness import GROUP, TOKEN, ErrorLog, Harness
from tests.adapters.web.secrets import dealt
from tests.adapters.web.secrets import sees as web_sees
from tests.browser.conftest import Tab

CHAT = ChatRef(Platform.TELEGRAM, "-1001")
NAMES = ("Аня", "Борис", "Вика", "Гена")
#: How long a page may take to show what the bot pushed (a loaded CI machine).
SHOW = 20_000
_CODE = re.compile(r"^[6-9TJQKA][CDHS]$")

#: Who reads a page: a seat, or None (a spectator).
Reader = int | None


class PlayedFaceUp:
    """A watcher of the service: the cards each yard deal showed face up (led, beaten,
    a molodka's), by game and deal number, from the core's public events. (The deal's
    actions say the same but for a molodka, whose action names no cards.)"""

    def __init__(self) -> None:
        self.cards: dict[tuple[int, int], set[Card]] = defaultdict(set)

    async def publish(self, game: Game, change: Change) -> None:
        if not isinstance(game.play, YardGame):
            return
        deal = len(game.play.series.deals) - 1
        for event in change.events:
            if isinstance(event, CardsLed | CardsBeaten | MolodkaDeclared):
                self.cards[game.id, deal] |= set(event.cards)


@dataclass
class WebTable:
    """The bot's service and its web adapter, listening on 127.0.0.1."""

    service: GameService
    interactions: Interactions
    web: WebApp
    tr: Translator
    played: PlayedFaceUp

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.web.port}/"

    def link(self, game: Game, seat: int | None) -> str:
        """The page of a seat's player (None: a spectator's), by signed link, in the
        table's language (as the bot's links carry the language of their message)."""
        assert self.web.hub is not None
        token = self.web.hub.link(game, seat)
        assert token is not None, (game.seats, seat)
        return page_url(self.url, token, game.settings.locale)


def settings(**values: Any) -> Settings:
    return Settings(_env_file=None, web_host="127.0.0.1", web_port=0, **values)


@contextlib.asynccontextmanager
async def web_table(
    tr: Translator,
    *,
    seed: int = 5,
    service: GameService | None = None,
    interactions: Interactions | None = None,
    **values: Any,
) -> AsyncIterator[WebTable]:
    """The web adapter on ``service`` (default: a service of its own, in memory,
    humans only, 5 minutes a turn); ``values``: settings."""
    own = service is None
    if service is None:
        service = GameService(
            MemoryStorage(),
            rng=random.Random(seed),
            computer_delay=0,
            computer_level="normal",
            turn_timeout=300,
        )
        await service.restore()
    if interactions is None:
        interactions = Interactions(service, tr, flood=FloodGuard(commands=None, presses=None))
    played = PlayedFaceUp()
    service.add_watcher(played)
    web = WebApp(settings(**values), interactions, tr)
    await web.start()
    try:
        yield WebTable(service, interactions, web, tr, played)
    finally:
        await web.stop()
        service.remove_watcher(played)
        if own:
            await service.close()


@contextlib.asynccontextmanager
async def telegram_bot(tr: Translator) -> AsyncIterator[Harness]:
    """The Telegram bot on the fake Bot API, its group :data:`GROUP` (user 1 its
    admin); at the end: no handler error, no failed message, no ERROR log line."""
    errors = ErrorLog()
    logging.getLogger().addHandler(errors)
    try:
        async with FakeTelegram(group_limit=10_000) as tg:
            h = Harness(tg, MemoryStorage(), tr)
            tg.add_group(GROUP, "Kozel club", admins=[1])
            await h.start()
            try:
                yield h
            finally:
                await h.stop()
    finally:
        logging.getLogger().removeHandler(errors)
    problems = [*h.errors, *(r.getMessage() for r in errors.records)]
    assert not problems, problems


def beside(h: Harness, tr: Translator) -> contextlib.AbstractAsyncContextManager[WebTable]:
    """The web table beside the Telegram bot ``h``: its service and interactions, and
    Mini Apps' launch data signed with its token."""
    return web_table(tr, service=h.service, interactions=h.interactions, telegram_bot_token=TOKEN)


def start_param(table: WebTable, game: Game) -> str:
    """The ``startapp`` of the game's Mini App (the spectators' token)."""
    assert table.web.hub is not None
    token = table.web.hub.link(game, None)
    assert token is not None
    return token


def to_move(game: Game) -> int:
    """The seat whose turn it is."""
    seat = game.play.turn
    assert seat is not None
    return int(seat)


async def four_humans(
    service: GameService,
    rule_set: str = "yard",
    options: dict[str, Any] | None = None,
    names: tuple[str, ...] = NAMES,
) -> Game:
    """A started game of four humans (Telegram users 1..4) in :data:`CHAT`."""
    users = [User(UserRef(Platform.TELEGRAM, str(i + 1)), name) for i, name in enumerate(names)]
    game = await service.open_table(CHAT, users[0], rule_set=rule_set, options=options)
    for index, user in enumerate(users):
        game = await service.join(game.id, game.version, user, Team(index % 2))
    outcome = await service.start(game.id, game.version, users[0].ref)
    return outcome.game


# --- What a page shows -----------------------------------------------------------------


@dataclass
class Shown:
    """The cards a page shows: as cards (its hand, the trick, the trump card: the
    deal as it is) and in its words (the log, the status: moves since as well)."""

    cards: set[Card] = field(default_factory=set)
    words: set[Card] = field(default_factory=set)

    def add(self, value: Any, key: str = "") -> None:
        """A frame's cards: the codes of its card fields, the labels in its texts."""
        if isinstance(value, dict):
            for name, item in value.items():
                self.add(item, name)
        elif isinstance(value, list):
            for item in value:
                self.add(item, key)
        elif isinstance(value, str):
            if key in ("hand", "cards", "card") and _CODE.match(value):
                self.cards.add(Card.parse(value))
            elif key != "token":  # an action's token names its cards: the hand's
                self.words |= cards_in(value)


_DOM = """() => [
    document.body.innerText,
    [...document.querySelectorAll("[data-card]")].map((node) => node.dataset.card),
]"""


async def shown(tab: Tab, since: int = 0) -> Shown:
    """What a page shows now (its DOM) and the frames it received since ``since``."""
    found = Shown()
    text, codes = await tab.page.evaluate(_DOM)
    found.words |= cards_in(text)
    found.cards |= {Card.parse(code) for code in codes}
    for frame in tab.frames[since:]:
        found.add(frame)
    return found


def _where(cards: set[Card], frames: list[dict[str, Any]]) -> list[str]:
    """The frames that show ``cards`` (for the failure's message)."""
    found = []
    for frame in frames:
        one = Shown()
        one.add(frame)
        if (one.cards | one.words) & cards:
            found.append(json.dumps(frame, ensure_ascii=False)[:2000])
    return found


def sees(game: Game, played: PlayedFaceUp, reader: Reader, first: int) -> set[Card]:
    """The cards ``reader`` may see in the deals from ``first`` on, as they are now
    (the socket tests' rule, :func:`tests.adapters.web.secrets.sees`), and the yard's
    molodkas shown meanwhile (their actions name no cards: the events do)."""
    cards = web_sees(game, reader, first)
    for number in range(first, dealt(game)):
        cards |= played.cards[game.id, number]
    return cards


@dataclass
class Secrets:
    """No page shows a card its reader may not see. Its cards: those its reader saw
    before a step or sees in any deal since (as :class:`classic_play.Secrets`); its
    words (the log of the last moves) may also name the cards its reader saw in the
    game's earlier deals."""

    played: PlayedFaceUp
    before: dict[Reader, set[Card]] = field(default_factory=dict)
    ever: dict[Reader, set[Card]] = field(default_factory=lambda: defaultdict(set))
    first: int = 0
    read: dict[int, int] = field(default_factory=dict)  # frames checked, by tab
    checked: int = 0

    def look(self, game: Game) -> None:
        self.first = max(dealt(game) - 1, 0)
        self.before = {
            reader: sees(game, self.played, reader, self.first) for reader in (None, 0, 1, 2, 3)
        }
        for reader, cards in self.before.items():
            self.ever[reader] |= cards

    async def check(self, game: Game, tabs: Iterable[tuple[Reader, Tab]]) -> None:
        for reader, tab in tabs:
            allowed = self.before.get(reader, set()) | sees(game, self.played, reader, self.first)
            since = self.read.get(id(tab), 0)
            found = await shown(tab, since)
            leaked = (found.cards - allowed) | (found.words - allowed - self.ever[reader])
            assert not leaked, (
                f"{tab.name} ({reader=}) shows {sorted(c.code for c in leaked)}: "
                f"{_where(leaked, tab.frames[since:])}"
            )
            self.read[id(tab)] = len(tab.frames)
            self.checked += 1
        self.look(game)


# --- People at pages -------------------------------------------------------------------


@dataclass
class Player:
    """A person at a page: reads its DOM and taps its cards and buttons."""

    tab: Tab
    seat: Reader

    @property
    def page(self) -> Any:
        return self.tab.page

    async def shows(self, version: int) -> None:
        """Until the page draws version ``version`` (or later)."""
        await self.page.wait_for_function(
            "(v) => Number(document.getElementById('app').dataset.version) >= v",
            arg=version,
            timeout=SHOW,
        )

    async def actions(self) -> list[dict[str, Any]]:
        """The actions the page offers now (its last state's)."""
        return list(self.tab.last_view().get("actions") or [])

    async def close_result(self) -> None:
        close = self.page.locator("#result:not(.hidden) #result-close")
        if await close.count():
            await close.click()

    async def act(self, action: dict[str, Any]) -> dict[str, Any]:
        """Tap the action's cards, then its button; wait for the answer."""
        await self.close_result()
        await self.choose(action["cards"])
        button = self.page.locator(f'#actions button[data-token="{action["token"]}"]')
        await button.wait_for(state="visible", timeout=SHOW)
        assert await button.is_enabled(), (self.tab.name, action)
        answers = len([f for f in self.tab.frames if f.get("type") == "answer"])
        await button.click()
        return await self.answer(answers)

    async def choose(self, cards: Iterable[str]) -> None:
        """Tap these cards of the hand (where a finger taps a fanned card: its left
        edge; the next card covers the rest)."""
        for code in cards:
            card = self.page.locator(f'.hand-card[data-card="{code}"]')
            await card.click(position={"x": 8, "y": 24})

    async def answer(self, before: int) -> dict[str, Any]:
        """The answer after the first ``before`` ones."""

        def found() -> dict[str, Any] | None:
            answers = [f for f in self.tab.frames if f.get("type") == "answer"]
            return answers[before] if len(answers) > before else None

        return await self.tab.until(found, SHOW / 1000)


def beats(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The yard's beats among the actions: the players beat when they can (a livelier
    deal than one of discards)."""
    found = []
    for action in actions:
        try:
            kind = parse_action_arg(0, decode(action["token"]).arg).kind
        except CodecError:
            continue  # not a yard action
        if kind is ActionKind.BEAT:
            found.append(action)
    return found


async def settled(table: WebTable, game_id: int, players: Iterable[Player]) -> Game:
    """The game once the service is idle and every page draws its version."""
    await table.service.settle()
    game = await table.service.game(game_id)
    await asyncio.gather(*(p.shows(game.version) for p in players))
    return game


async def play_by_taps(
    table: WebTable,
    game_id: int,
    players: list[Player],
    done: Callable[[Game], bool],
    *,
    seed: int = 1,
    secrets: Secrets | None = None,
    spectators: Iterable[Player] = (),
    others: Callable[[Game], Awaitable[bool]] | None = None,
    moment: Callable[[Game, list[Player]], Awaitable[None]] | None = None,
    limit: int = 2000,
) -> Game:
    """The pages' people play (a seeded choice among the actions each page offers)
    until ``done(game)``; ``others(game)`` moves a seat no page plays (returns True
    when it did). After every step every page's cards are checked, then
    ``moment(game, players)`` may look (screenshots)."""
    rng = random.Random(seed)
    secrets = secrets or Secrets(table.played)
    watchers = [*players, *spectators]
    game = await settled(table, game_id, watchers)
    secrets.look(game)
    for _ in range(limit):
        await secrets.check(game, [(p.seat, p.tab) for p in watchers])
        if done(game) or game.status is not GameStatus.PLAYING:
            return game
        if moment is not None:
            await moment(game, players)
        ready = [(p, await p.actions()) for p in players]
        ready = [(p, actions) for p, actions in ready if actions]
        if ready:
            player, actions = rng.choice(ready)
            answer = await player.act(rng.choice(beats(actions) or actions))
            assert answer["ok"], (player.tab.name, answer)
        else:
            assert others is not None and await others(game), "nobody can move"
        game = await settled(table, game_id, watchers)
    raise AssertionError(f"not done after {limit} moves")
