"""A classic game played through the application: the service applies what the hands'
buttons carry, the published screens are the classic presenter's, and the game ends
with its goats. (The table is made classic in the storage directly, until a command
opens one.)"""

from __future__ import annotations

import random

from bot import presenters
from bot.codec import Command, Verb, decode, encode
from bot.i18n import Translator
from bot.interactions import Interactions
from bot.models import Game, GameStatus, Seat, SeatKind, TableSettings
from bot.outputs import Output, Target
from bot.ports import Storage
from bot.presenters import classic as cp
from bot.presses import Pressed
from bot.service import GameService
from tests.bot.conftest import ALICE, CHAT, PLAYERS, RecordingPublisher


async def classic_table(storage: Storage, options: dict[str, object]) -> Game:
    settings = TableSettings(rule_set="classic", options=options, turn_timeout=0)
    game = Game(id=0, chat=CHAT, creator=ALICE.ref, settings=settings)
    game.seats = [Seat(SeatKind.HUMAN, user.name, user.ref) for user in PLAYERS]
    return await storage.create_game(game)


async def test_a_whole_classic_game_by_pressing_the_hands(
    service: GameService, storage: Storage, publisher: RecordingPublisher
) -> None:
    tr = Translator.from_dir()
    ui = Interactions(service, tr)
    game = await classic_table(storage, {"praise": "choose", "ace_ban": False})
    started = await ui.press(
        ALICE, encode(Command(Verb.START, game.id, game.version)), where=Pressed(CHAT)
    )
    assert started.alert is None
    rng = random.Random(5)
    kinds: set[str] = set()
    shown: list[Output] = []
    seen = 0
    for _ in range(3000):
        await service.settle()
        game = await service.game(game.id)
        for _, _, change in publisher.changes[seen:]:  # what the platforms would send
            shown += await ui.outputs(game, change)
        seen = len(publisher.changes)
        if game.status is not GameStatus.PLAYING:
            break
        assert presenters.presenter_of(game) is cp.PRESENTER
        pressable = [
            (seat, button.token)
            for seat in range(4)
            for button in presenters.hand(game, seat, 0, tr, "en").buttons
            if button.token and decode(button.token).verb is Verb.PLAY
        ]
        assert pressable  # somebody always has a decision
        seat, token = rng.choice(pressable)
        kinds.add(decode(token).arg[0])
        reply = await ui.press(PLAYERS[seat], token, where=Pressed(CHAT))
        assert reply.alert is None, reply.alert
    game = await service.game(game.id)
    assert game.status is GameStatus.FINISHED
    assert {"s", "h", "p"} <= kinds
    result = presenters.game_result(game, tr, "ru")
    assert result is not None and "🐐" in result.text
    texts = [out.screen.text for out in shown]
    assert any("Кон 1 окончен" in text for text in texts)  # a deal's result
    assert any("Партия окончена" in text for text in texts)  # the game's
    assert all(out.seat is None or out.target is not Target.TABLE for out in shown)
