"""A game in a server channel: the lobby, four players on DM hands, the table."""

from __future__ import annotations

from bot import presenters
from bot.codec import Verb
from bot.models import GameStatus
from testing.fakes.discord import FakeDiscord
from tests.adapters.discord.harness import ALICE, BOB, CAROL, CHANNEL, DAVE, Harness, ref


async def test_four_users_play_a_whole_deal_through_dm_buttons(
    harness: Harness, dc: FakeDiscord
) -> None:
    h, tr = harness, harness.tr
    _, table = await h.open_table()
    lobby = dc.message(table)
    assert Verb.JOIN in h.verbs(lobby) and Verb.START not in h.verbs(lobby)
    for user, team in ((ALICE, "A"), (BOB, "B"), (CAROL, "A"), (DAVE, "B")):
        rec = await h.seat(table, user, team)
        assert rec.callback_type == 6 and rec.followups == []  # DMs open: nothing to tell
    for user in (ALICE, BOB, CAROL, DAVE):  # each got a hello on sitting down
        assert [m["content"] for m in dc.dm_messages(user)] == [h.t("notice-dm-hello")]
    game = await h.game()
    assert game.status is GameStatus.LOBBY and game.is_full
    assert dc.message(table)["content"] == presenters.lobby(game, tr, "ru").text
    await h.click(ALICE, table, h.t("lobby-start"))
    await h.settled()

    game = await h.service.game(game.id)
    assert game.status is GameStatus.PLAYING
    players = {game.seat_of(ref(user)) or 0: user for user in (ALICE, BOB, CAROL, DAVE)}
    assert sorted(players) == [0, 1, 2, 3]
    hands = {user: h.hand_id(game, user) for user in players.values()}
    moves = await h.finish_deal(game.id, players)
    await h.settled()

    game = await h.service.game(game.id)
    first = game.play.series.deals[0]
    assert first.result is not None and game.play.series.results[0] == first.result
    assert moves == len(first.actions)  # every move went through a button
    # One table message, edited in place; the deal's result as a message of its own.
    messages = dc.messages(CHANNEL)
    assert int(messages[0]["id"]) == table == h.table_id(game)
    result = presenters.deal_result(game, 0, first.result, tr, "ru")
    assert [m["content"] for m in messages[1:]] == [result.text]
    now = h.clock.now()
    assert dc.message(table)["content"] == presenters.table(game, tr, "ru", now).text
    assert h.verbs(dc.message(table)) == [Verb.SHOW_HAND]
    edits = [c for c in dc.calls if c.method == "PATCH" and c.path.endswith(f"/{table}")]
    assert len(edits) >= 10
    # One hand message per player, edited in place, showing the next deal now.
    for seat, user in players.items():
        assert h.hand_id(game, user) == hands[user]
        assert [int(m["id"]) for m in dc.dm_messages(user)][1:] == [hands[user]]
        hand = presenters.hand(game, seat, 0, tr, "ru")
        assert dc.message(hands[user])["content"] == hand.text
        assert h.hand_is_current(game, dc.message(hands[user]))


async def test_stop_asks_the_creator_to_confirm(harness: Harness, dc: FakeDiscord) -> None:
    h = harness
    game, table = await h.open_table()
    await h.seat(table, BOB, "B")
    rec = await h.slash(BOB, "stop")  # neither the creator nor an admin
    assert rec.ephemeral and rec.content == h.t("err-not-allowed")
    rec = await h.slash(ALICE, "stop")
    assert rec.ephemeral and rec.content == h.t("lobby-cancel-confirm")
    assert h.verbs(rec.original) == [Verb.CANCEL, Verb.REFRESH]  # type: ignore[arg-type]
    dialog = int(rec.original["id"])  # type: ignore[index]
    no = await h.click(ALICE, dialog, h.t("lobby-cancel-no"))
    assert no.callback_type == 6 and dialog not in {int(m["id"]) for m in dc.messages(CHANNEL)}
    assert (await h.service.game(game.id)).status is GameStatus.LOBBY

    rec = await h.click(ALICE, table, h.t("lobby-cancel"))  # the lobby's own button
    assert rec.ephemeral and rec.content == h.t("lobby-cancel-confirm")
    await h.click(ALICE, int(rec.original["id"]), h.t("lobby-cancel-yes"))  # type: ignore[index]
    await h.settled()
    assert (await h.service.game(game.id)).status is GameStatus.CANCELLED
    assert dc.messages(CHANNEL)[-1]["content"] == h.t("notice-cancelled")
    assert h.t("table-cancelled") in dc.message(table)["content"]
    assert dc.buttons(dc.message(table)) == []


async def test_an_admin_may_stop_anybodys_game(harness: Harness, dc: FakeDiscord) -> None:
    h = harness
    game, table = await h.open_table(creator=BOB)
    rec = await h.slash(CAROL, "stop")
    assert rec.content == h.t("err-not-allowed")
    rec = await h.slash(ALICE, "stop")  # alice owns the server
    await h.click(ALICE, int(rec.original["id"]), h.t("lobby-cancel-yes"))  # type: ignore[index]
    await h.settled()
    assert (await h.service.game(game.id)).status is GameStatus.CANCELLED
    assert dc.buttons(dc.message(table)) == []
