"""kill -9 of ``python -m bot`` (a real child process) in the middle of a challenge
deal: after the restart the entrant's ``/kozel challenge`` resumes the same deal, its
game as saved, with the same cards, never a new deal; his hand there works."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.codec import Command, Verb, encode
from bot.i18n import Translator
from bot.models import GameStatus
from bot.presenters.yard import action_arg
from core.yard.ai import safe_move
from testing.fakes.bot_process import saved_game
from testing.fakes.telegram import FakeTelegram
from tests.adapters.telegram.test_kill import Table, tg, tr

ALICE = 1


def plays(database: Path) -> list[tuple[int, int, int | None]]:
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        query = "SELECT deal, game_id, loss FROM challenge_plays ORDER BY deal"
        return db.execute(query).fetchall()


def deck(table: Table) -> list[str]:
    deals: list[dict[str, list[str]]] = table.game().play.record()["deals"]
    return deals[0]["deck"]


async def test_a_challenge_deal_killed_mid_deal_resumes_with_the_same_cards(
    tg: FakeTelegram, tr: Translator, tmp_path: Path
) -> None:
    table = Table(tg, tr, tmp_path)
    await table.start()
    try:
        await tg.send_text(ALICE, ALICE, "/kozel challenge")
        await table.wait(lambda: bool(plays(table.database)))
        [(deal, game_id, loss)] = plays(table.database)
        assert (deal, loss) == (0, None)
        table.game_id = game_id
        await table.wait(lambda: "hand:0" in table.game().messages)
        # Alice moves twice (the strong computer answers in between).
        for _ in range(2):
            await table.wait(lambda: table.game().play.turn == 0)
            game = table.game()
            view = game.play.series.current.view(0)  # type: ignore[union-attr]
            message = int(game.messages["hand:0"])
            token = encode(Command(Verb.PLAY, game.id, game.version, action_arg(safe_move(view))))
            await table.press(ALICE, ALICE, message, token)
            await table.wait(lambda v=game.version: table.game().version > v)  # type: ignore[misc]
        dealt, before = deck(table), table.game()
        await table.bot.kill()
        after_kill = saved_game(table.database, game_id)
        assert after_kill.version >= before.version and deck(table) == dealt

        await table.start()
        sent = len(tg.messages(ALICE))
        await tg.send_text(ALICE, ALICE, "/kozel challenge")
        resumed = tr.t("ru", "challenge-resumed", id=table.game().settings.challenge, deal=1)
        await table.wait(lambda: any(m.text == resumed for m in tg.messages(ALICE)[sent:]))
        assert plays(table.database) == [(0, game_id, None)]  # the same deal, not dealt anew
        assert deck(table) == dealt
        # His hand goes on: a move of his is taken.
        await table.wait(lambda: table.game().play.turn == 0)
        game = table.game()
        assert game.status is GameStatus.PLAYING
        view = game.play.series.current.view(0)  # type: ignore[union-attr]
        token = encode(Command(Verb.PLAY, game.id, game.version, action_arg(safe_move(view))))
        await table.press(ALICE, ALICE, int(game.messages["hand:0"]), token)
        await table.wait(lambda v=game.version: table.game().version > v)  # type: ignore[misc]
        assert not table.bot.errors()
    finally:
        await table.bot.kill()


__all__ = ["tg", "tr"]
