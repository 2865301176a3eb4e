"""A solo series in a DM, then /top and /stats; a restart in the middle of a trick."""

from __future__ import annotations

from pathlib import Path

import discord

from adapters.sqlite import SqliteStorage
from bot import presenters
from bot.codec import Verb, decode
from bot.i18n import Translator
from bot.models import ChatRef, GameStatus, Platform
from testing.fakes.discord import FakeDiscord
from tests.adapters.discord.harness import ALICE, BOB, CHANNEL, Harness, ref


async def test_one_user_and_three_computers_finish_a_series_then_top_shows_it(
    dc: FakeDiscord, tr: Translator, sqlite: SqliteStorage
) -> None:
    h = Harness(dc, sqlite, tr, seed=3)
    await h.start()
    try:
        await h.adapter.bot.create_dm(discord.Object(ALICE))  # alice opens a DM with the bot
        dm = dc.dm_channel(ALICE)
        assert dm is not None
        chat = ChatRef(Platform.DISCORD, str(dm))
        rec = await h.slash(ALICE, "kozel", channel=dm)
        await h.settled()
        game = await h.game(chat)
        assert game.status is GameStatus.PLAYING
        assert [s is not None and s.is_computer for s in game.seats] == [False, True, True, True]
        table = int(rec.original["id"])  # type: ignore[index]
        assert h.table_id(game) == table
        hand = h.hand_id(game, ALICE)
        assert [int(m["id"]) for m in dc.messages(dm)] == [table, hand]  # both in the DM
        deals = 0
        while (await h.service.game(game.id)).status is GameStatus.PLAYING:
            await h.finish_deal(game.id, {0: ALICE})
            deals += 1
        await h.settled()
        game = await h.service.game(game.id)
        result = game.play.series.result
        assert game.status is GameStatus.FINISHED and result is not None
        assert deals == len(game.play.series.deals) == result.deals
        # The table shows the end; results came as messages; the hand was edited only.
        texts = [m["content"] for m in dc.messages(dm)]
        assert texts[0] == dc.message(table)["content"]
        assert h.t("table-series-over") in texts[0] and dc.buttons(dc.message(table)) == []
        assert texts[1] == dc.message(hand)["content"]
        # With the rating lines: a game with computers is unrated (issue 25).
        series = presenters.game_result(game, tr, "ru", ())
        assert series is not None
        # After the result, its picture (issue 25): attached under its caption.
        assert texts[-2] == series.text and len(texts) == 2 + deals + 2
        assert texts[-1] == h.t("picture-caption")
        assert [a["filename"] for a in dc.messages(dm)[-1]["attachments"]] == ["result.png"]
        assert h.verbs(dc.messages(dm)[-2]) == [Verb.REMATCH]

        rec = await h.slash(ALICE, "top", channel=dm)
        expected = await h.interactions.top(chat)
        assert expected.screen is not None and rec.content == expected.screen.text
        assert "alice" not in rec.content  # unrated: by rating (issue 25)
        rec = await h.slash(ALICE, "stats", channel=dm)
        stats = await h.service.stats(ref(ALICE))
        assert stats is not None and stats.series_played == 1
        assert rec.content == presenters.stats_by_rules([("yard", stats)], tr, "ru").text

        # Another series: a new table message and a new hand message.
        rematch = next(int(m["id"]) for m in dc.messages(dm) if Verb.REMATCH in h.verbs(m))
        await h.click(ALICE, rematch, h.t("result-rematch"))
        await h.settled()
        again = await h.game(chat)
        assert again.id != game.id and again.rematch_of == game.id
        assert again.status is GameStatus.PLAYING
        new_table, new_hand = h.table_id(again), h.hand_id(again, ALICE)
        assert new_table not in (table, hand) and new_hand not in (table, hand)
        assert {int(m["id"]) for m in dc.messages(dm)[-2:]} == {new_table, new_hand}
    finally:
        await h.stop()


async def test_a_restart_mid_trick_resumes_and_old_buttons_work(
    dc: FakeDiscord, tr: Translator, db_path: Path
) -> None:
    storage = await SqliteStorage.open(db_path)
    first = Harness(dc, storage, tr, seed=11)
    await first.start()
    try:
        game, table = await first.start_two_with_computers()
        humans = {game.seat_of(ref(ALICE)): ALICE, game.seat_of(ref(BOB)): BOB}
        # Play until a human is to answer a trick already led.
        while True:
            await first.settled()
            game = await first.service.game(game.id)
            deal = game.play.series.current
            assert deal is not None and deal.turn is not None
            if deal.turn in humans and deal.table_view().plays:
                break
            await first.play(game.id, humans[deal.turn])
        player = humans[deal.turn]
        version, hand = game.version, first.hand_id(game, player)
        table_before = dc.message(table)["content"]
        messages_before = len(dc.messages(CHANNEL))
    finally:
        await first.stop()
        await storage.close()

    storage = await SqliteStorage.open(db_path)
    second = Harness(dc, storage, tr, seed=12)
    await second.start()  # a new client and a new service over the same database
    try:
        game = await second.service.game(game.id)
        assert game.version == version and game.status is GameStatus.PLAYING
        assert decode(dc.buttons(dc.message(hand))[0][1] or "").version == version
        # The old table's "My hand" button answers with an ephemeral hand.
        rec = await second.click(player, table, second.t("table-hand-button"))
        assert rec.ephemeral and rec.content == dc.message(hand)["content"]
        # The old DM hand's buttons play.
        action = await second.play(game.id, player)
        await second.settled()
        game = await second.service.game(game.id)
        assert game.version > version
        assert game.play.series.current is not None
        played = [a for d in game.play.series.deals for a in d.actions]
        assert action in [a for a in played if a.seat == action.seat]
        # The same table and hand messages are edited: no new table, no new hand.
        seat = game.seat_of(ref(player))
        assert seat is not None
        assert second.table_id(game) == table and second.hand_id(game, player) == hand
        now = second.clock.now()
        shown = presenters.table(game, tr, "ru", now, with_hand_button=True)
        assert dc.message(table)["content"] == shown.text != table_before
        assert dc.message(hand)["content"] == presenters.hand(game, seat, 0, tr, "ru").text
        assert len([m for m in dc.messages(CHANNEL) if m["id"] == str(table)]) == 1
        new = dc.messages(CHANNEL)[messages_before:]
        assert all(Verb.SHOW_HAND not in second.verbs(m) for m in new)
        hello = second.t("notice-dm-hello")
        assert [m["content"] for m in dc.dm_messages(player)][:-1] == [hello]
        assert dc.dm_messages(player)[-1]["id"] == str(hand)
    finally:
        await second.stop()
        await storage.close()
