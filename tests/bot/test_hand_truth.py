"""Every screen tells the truth about what is a seat's own (issue 31, points 1 and 2).

A platform shows again only the hands whose content changed
(:meth:`Interactions.changed_hands`); a hand left as it was must still be true. So
after every change the service publishes, over many seeded games of both rule sets
played by four people at random (face-down discards, molodkas, praises, lays, cuts,
namings, exchanges, redeals): the last hand each seat was shown lists exactly the
cards the engine says he holds and names the deal's trump as the engine has it; so
do the table, the web table's view of each seat and the terminal's lines.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest

from bot.i18n import Translator
from bot.interactions import Interactions
from bot.memory import MemoryStorage
from bot.models import Game, GameStatus
from bot.outputs import Target
from bot.ports import Change, ChangeKind
from bot.presenters import Screen, presenter_of
from bot.presenters.web import web_view
from bot.service import GameService
from core.seats import Team
from tests.bot.conftest import ALICE, CHAT, PLAYERS, FakeClock
from tests.bot.truth import console_lies, hand_lies, table_lies, web_lies

#: Seeded games a rule set, and the moves each game is watched for.
GAMES = 12
MOVES = 150


@dataclass
class Screens:
    """A platform: shows every change as :meth:`Interactions.outputs` says (keeps the
    last hand each seat was shown, and the table), and checks every screen against
    the engine after each one."""

    ui: Interactions
    tr: Translator
    hands: dict[int, Screen] = field(default_factory=dict)
    table: Screen | None = None
    checked: int = 0
    lies: list[str] = field(default_factory=list)
    #: The seats whose page is open: their hands are not shown meanwhile (issue 32).
    watched: set[int] = field(default_factory=set)

    async def publish(self, game: Game, change: Change) -> None:
        for output in await self.ui.outputs(game, change):
            if output.target is Target.HAND and output.seat is not None:
                self.hands[output.seat] = output.screen
            elif output.target is Target.TABLE:
                self.table = output.screen
        if game.status is GameStatus.PLAYING:
            self.check(game, change)

    def check(self, game: Game, change: Change) -> None:
        tr, locale = self.tr, game.settings.locale
        lies = []
        for seat, _ in game.humans:
            if seat in self.watched:
                continue
            lies += hand_lies(game, seat, self.hands[seat].text, tr, locale)
            lies += web_lies(game, seat, web_view(game, seat, tr, locale, 0.0), tr)
            lines = presenter_of(game).console_hand(game, seat, tr, locale)
            lies += console_lies(game, seat, lines, tr, locale)
        assert self.table is not None
        lies += table_lies(game, self.table.text, tr, locale)
        self.lies += [f"v{game.version} {change.kind.value}: {lie}" for lie in lies]
        self.checked += 1


@pytest.fixture(scope="module")
def tr() -> Translator:
    return Translator.from_dir()


@pytest.fixture
async def service() -> AsyncIterator[GameService]:
    service = GameService(
        MemoryStorage(), clock=FakeClock(), rng=random.Random(0), computer_delay=0, turn_timeout=0
    )
    try:
        yield service
    finally:
        await service.close()


async def _four_people(service: GameService, rule_set: str, seed: int) -> Game:
    game = await service.open_table(CHAT, ALICE, rule_set=rule_set, seed=seed)
    for index, user in enumerate(PLAYERS):
        game = await service.join(game.id, None, user, Team(index % 2))
    await service.start(game.id, None, ALICE.ref)
    return game


async def _play_at_random(
    service: GameService, game_id: int, rng: random.Random, moves: int = MOVES
) -> int:
    """The four people take random legal actions (the seat to act, now and then an
    optional one of another seat: a molodka, an offer, a redeal); the moves made."""
    for move in range(moves):
        game = await service.game(game_id)
        if game.status is not GameStatus.PLAYING:
            return move
        turn = game.play.turn
        actions = game.play.legal_actions(None)
        mine = [a for a in actions if a.seat == turn]
        action = rng.choice(mine if mine and rng.random() < 0.8 else actions)
        await service.play(game.id, game.version, PLAYERS[action.seat].ref, action)
    return moves


@pytest.mark.parametrize("rule_set", ["yard", "classic"])
async def test_after_every_change_each_seats_screens_list_what_he_holds_and_the_trump(
    service: GameService, tr: Translator, rule_set: str
) -> None:
    screens = Screens(Interactions(service, tr), tr)
    service.add_publisher(CHAT.platform, screens)
    moves = 0
    for seed in range(GAMES):
        rng = random.Random(seed)
        game = await _four_people(service, rule_set, seed)
        moves += await _play_at_random(service, game.id, rng)
        if (await service.game(game.id)).status.is_open:  # the chat's next game
            await service.cancel(game.id, None, ALICE.ref)
        screens.hands.clear()
    assert not screens.lies, screens.lies[:5]
    assert screens.checked > moves >= GAMES * 40


@pytest.mark.parametrize("rule_set", ["yard", "classic"])
async def test_a_hand_whose_last_page_closed_is_true_again_at_once(
    service: GameService, tr: Translator, rule_set: str
) -> None:
    # Issue 32, part 2: a seat's page opens (its hand is left as it was), or its last
    # page closes (its hand is shown again, as the web hub has it): at random.
    ui = Interactions(service, tr)
    screens = Screens(ui, tr)
    service.add_publisher(CHAT.platform, screens)
    closed = 0
    for seed in range(GAMES // 3):
        rng = random.Random(seed)
        game = await _four_people(service, rule_set, seed)
        while (await service.game(game.id)).status is GameStatus.PLAYING:
            seat = rng.randrange(4)
            if seat not in screens.watched:
                ui.page_opened(game.id, seat)
                screens.watched.add(seat)
            elif ui.page_closed(game.id, seat):
                screens.watched.discard(seat)
                await service.show_hands(game.id)
                screens.check(await service.game(game.id), Change(ChangeKind.HANDS))
                closed += 1
            if not await _play_at_random(service, game.id, rng, rng.randrange(1, 8)):
                break
        for seat in screens.watched:
            ui.page_closed(game.id, seat)
        screens.watched.clear()
        screens.hands.clear()
    assert not screens.lies, screens.lies[:5]
    assert closed >= GAMES
