"""kill -9 of ``python -m bot`` right after a started rated game ended with the
creator's /stop (not an admin of the group): its players' reliability rows were kept
with the stop, once; the restarted bot keeps them once and ``/stats`` shows them
(docs/tournaments.md, Reliability)."""

from __future__ import annotations

from pathlib import Path

from bot.codec import Command, Verb, encode
from bot.i18n import Translator
from bot.models import GameStatus
from testing.fakes.bot_process import game_endings
from testing.fakes.telegram import FakeMessage, FakeTelegram
from tests.adapters.telegram import test_kill
from tests.adapters.telegram.test_kill import GROUP, SEATS, START, WAIT, Table

#: The fake Bot API with four people and the group, and the texts, of test_kill.
tg, tr = test_kill.tg, test_kill.tr


async def answer(table: Table, command: str, first: str, timeout: float = WAIT) -> FakeMessage:  # noqa: ASYNC109
    """Alice sends ``command`` to the group: the bot's next message there whose first
    line is ``first``."""
    tg = table.tg
    before = len(tg.messages(GROUP))
    await tg.send_text(1, GROUP, command)

    def answered() -> FakeMessage | None:
        return next(
            (
                m
                for m in tg.messages(GROUP)[before:]
                if m.from_id == tg.bot_id and (m.text or "").split("\n")[0] == first
            ),
            None,
        )

    await table.wait(answered, timeout)
    found = answered()
    assert found is not None
    return found


async def test_a_kill_right_after_the_stop_keeps_each_players_row_once(
    tg: FakeTelegram, tr: Translator, tmp_path: Path
) -> None:
    table = Table(tg, tr, tmp_path)
    await table.start()
    try:
        lobby = await table.open()  # alice opened it: the group has no admin
        game = table.game()
        start = encode(Command(Verb.START, game.id, game.version))
        await table.press(1, GROUP, lobby.message_id, start)
        await table.wait(lambda: table.game().status is GameStatus.PLAYING)
        question = await answer(table, "/stop", tr.t("ru", "lobby-cancel-confirm"))
        game = table.game()
        stop = encode(Command(Verb.CANCEL, game.id, game.version))
        tg.hold(GROUP, *SEATS.values())  # nothing of the end gets out
        await table.press(1, GROUP, question.message_id, stop)
        await table.bot.kill()

        assert table.game().status is GameStatus.CANCELLED
        kept = [("1", "stopped"), ("2", None), ("3", None), ("4", None)]
        assert game_endings(table.database, game.id) == kept

        tg.release()
        await table.start()
        # The restarted bot answers: no statistics (no deal counted), the line.
        empty = tr.t("ru", "stats-empty", kozel="/kozel")
        stats = await answer(table, "/stats", empty, START)
        assert stats.text == f"{empty}\n🤝 Надёжность: 0% (доиграно 0 из 1 игры)"
        assert game_endings(table.database, game.id) == kept
        assert table.bot.errors() == []
    finally:
        await table.bot.kill()
