"""A player against three computers: a whole series in a private chat, then the
statistics; and a bot restarted in the middle of a trick, on the same SQLite file."""

from __future__ import annotations

from pathlib import Path

import pytest

from adapters.sqlite import SqliteStorage
from bot import presenters
from bot.codec import Verb
from bot.models import ChatRef, Game, GameStatus, Platform, UserRef
from tests.adapters.telegram.harness import GROUP, Harness, button


async def test_solo_game_a_whole_series_then_stats_and_top(h: Harness) -> None:
    tg, tr = h.tg, h.tr
    alice = h.user(1, "Alice")
    chat = ChatRef(Platform.TELEGRAM, str(alice.id))
    await h.command(alice, alice.id, "/kozel")
    game = await h.service.open_game(chat)
    assert game is not None
    await h.settle()
    assert game.status is GameStatus.PLAYING and game.seats[0] is not None
    assert all(seat is not None and seat.is_computer for seat in game.seats[1:])
    table, hand = h.table_message(game), h.hand_message(game, 0)
    assert table is not None and hand is not None and table is not hand
    assert table.chat_id == hand.chat_id == alice.id  # table and hand in the one chat

    game = await h.play_until(game.id, lambda g: False)
    await h.settle()
    assert game.status is GameStatus.FINISHED
    series = game.play.series.result
    assert series is not None
    # With the rating lines: a game with computers is unrated (issue 25).
    final = presenters.game_result(game, tr, game.settings.locale, ())
    assert final is not None
    [result] = [m for m in tg.messages(alice.id) if m.text == final.text]
    assert tg.buttons(alice.id, result.message_id)[0][0] == tr.t("ru", "result-rematch")
    assert table.text == h.expected_table(game)
    deal_results = [m for m in tg.messages(alice.id) if (m.text or "").startswith("🃏")]
    assert len(deal_results) == len(game.play.series.deals)

    # Another series: a new game, with its own table and hand messages.
    await h.press_verb(alice, result, Verb.REMATCH)
    await h.settle()
    rematch = await h.service.open_game(chat)
    assert rematch is not None and rematch.rematch_of == game.id
    assert rematch.status is GameStatus.PLAYING
    new_table, new_hand = h.table_message(rematch), h.hand_message(rematch, 0)
    assert new_table is not None and new_hand is not None
    assert {new_table.message_id, new_hand.message_id}.isdisjoint(
        {table.message_id, hand.message_id}
    )
    assert hand.text == h.hand_text(game, 0)  # the old hand stays as it ended

    me = UserRef(Platform.TELEGRAM, str(alice.id))
    stats = await h.command(alice, alice.id, "/stats")
    expected = presenters.stats_by_rules(await h.service.stats_by_rules(me), tr, "ru")
    assert stats.text == expected.text
    assert presenters.stats(None, tr, "ru").text != stats.text
    top = await h.command(alice, alice.id, "/top")
    # /top ranks by rating (issue 25): a game with computers is unrated.
    assert top.text == presenters.rating.board([], tr, "ru").text


@pytest.mark.parametrize("storage", ["sqlite"], indirect=True)
async def test_restart_in_the_middle_of_a_trick(h: Harness, tmp_path: Path) -> None:
    tg = h.tg
    alice = h.user(1, "Alice")
    lobby = await h.command(alice, GROUP, "/kozel")
    chat = ChatRef(Platform.TELEGRAM, str(GROUP))
    game = await h.service.open_game(chat)
    assert game is not None
    await h.press_lobby(alice, lobby, Verb.JOIN, "A")
    for team in ("B", "A", "B"):
        await h.press_lobby(alice, lobby, Verb.ADD_COMPUTER, team)
    await h.press_lobby(alice, lobby, Verb.START)

    def mid_trick(g: Game) -> bool:
        deal = g.play.series.current
        return (
            deal is not None
            and deal.turn == 0
            and bool(deal.table_view().plays)
            and len(deal.actions) > 8
        )

    game = await h.play_until(game.id, mid_trick)
    assert mid_trick(game)
    await h.settle()
    version, played = game.version, len(game.play.series.current.actions)  # type: ignore[union-attr]
    hand = h.hand_message(game, 0)
    assert hand is not None
    old_buttons = tg.buttons(alice.id, hand.message_id)

    async with await SqliteStorage.open(tmp_path / "kozel.sqlite3") as reopened:
        await h.restart(reopened)
        game = await h.game(game.id)
        assert game.version == version
        assert len(game.play.series.current.actions) == played  # type: ignore[union-attr]
        # The old hand message still works: its buttons act on the restored game.
        assert h.hand_message(game, 0) is hand
        select = button(tg, hand, Verb.SELECT)
        assert select in [data for _, data in old_buttons]
        await h.press(alice, hand, select)
        await tg.wait_for(
            lambda t: presenters.SELECTED_MARK in str(t.buttons(alice.id, hand.message_id))
        )

        game = await h.play_until(game.id, lambda g: False)
        await h.settle()
        assert game.status is GameStatus.FINISHED
        table = h.table_message(game)
        assert table is lobby and table.text == h.expected_table(game)
        logged = await reopened.game_actions(game.id)
        assert len(logged) == sum(len(deal.actions) for deal in game.play.series.deals)
        versions = [action.version for action in logged]
        assert versions == sorted(set(versions))
        await h.stop()
