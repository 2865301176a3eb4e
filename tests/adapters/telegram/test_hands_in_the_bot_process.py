"""``python -m bot`` (a real child process, the real composition and Telegram pacing)
keeps every player's hand true (issue 31, point 1): four people play through the fake
Bot API, and after every move each one's hand message comes to show his hand as the
saved game has it, listing exactly the cards he holds, well before the 30 s a waiting
player's refilled hand used to wait for his turn."""

from __future__ import annotations

from pathlib import Path

from bot import presenters
from bot.codec import Command, Verb, encode
from bot.i18n import Translator
from bot.models import GameStatus
from core.yard.ai import safe_move
from testing.fakes.telegram import FakeTelegram
from tests.adapters.telegram.test_kill import GROUP, LOCALE, SEATS, Table, tg, tr
from tests.bot.truth import hand_lies

#: Far below the 30 s a refilled hand was held, far above the pacing's one write a
#: second into each private chat.
SHOWN = 20.0
#: Tricks to play: each ends with every seat drawing.
TRICKS = 3


async def test_after_every_move_each_hand_shows_what_its_player_holds(
    tg: FakeTelegram, tr: Translator, tmp_path: Path
) -> None:
    table = Table(tg, tr, tmp_path)
    await table.start()
    try:
        lobby = await table.open()
        game = table.game()
        start = encode(Command(Verb.START, game.id, game.version))
        await table.press(SEATS[0], GROUP, lobby.message_id, start)
        await table.wait(lambda: table.game().status is GameStatus.PLAYING)
        refills = 0
        while refills < TRICKS:
            await table.wait(lambda: all(f"hand:{s}" in table.game().messages for s in SEATS))
            game = table.game()
            deal = game.play.series.current
            assert game.status is GameStatus.PLAYING and deal is not None and deal.turn is not None
            trick = (deal.number, deal.trick_number)
            await table.play(game, safe_move(deal.view(deal.turn)))
            await table.wait(lambda v=game.version: table.game().version > v)  # type: ignore[misc]
            game = table.game()
            deal = game.play.series.current
            assert deal is not None
            refills += (deal.number, deal.trick_number) != trick
            await table.wait(hands_true(table), SHOWN)
    finally:
        await table.bot.kill()


def hands_true(table: Table) -> object:
    """Whether every hand message shows the saved game's hand (its text: the buttons
    of a waiting hand may carry an older version) and lists the cards he holds."""

    def check() -> bool:
        game = table.game()
        for seat, user in SEATS.items():
            message_id = game.messages.get(f"hand:{seat}")
            messages = [m for m in table.tg.messages(user) if str(m.message_id) == message_id]
            text = messages[0].text if messages else None
            if text != presenters.hand(game, seat, 0, table.tr, LOCALE).text:
                return False
            if hand_lies(game, seat, text or "", table.tr, LOCALE):
                return False
        return True

    return check


__all__ = ["tg", "tr"]
