""" "✖ Clear" on a hand: it clears the selection of a DM hand, and keeps (clears) the
ephemeral hand of a player whose DMs are closed instead of deleting it."""

from __future__ import annotations

from bot import presenters
from bot.codec import Verb, decode
from bot.models import GameStatus
from testing.fakes.discord import FakeDiscord
from tests.adapters.discord.harness import ALICE, EVE, Harness, ref


def select_a_card(label: str, custom_id: str) -> bool:
    return decode(custom_id).verb is Verb.SELECT


async def test_clear_clears_the_selection_of_a_dm_hand(harness: Harness, dc: FakeDiscord) -> None:
    h = harness
    game, _ = await h.start_four()
    hand = h.hand_id(game, ALICE)
    unselected = dc.message(hand)["content"], dc.buttons(dc.message(hand))
    rec = await h.click(ALICE, hand, select_a_card)
    assert rec.callback_type == 7
    assert any(
        label and label.startswith(presenters.SELECTED_MARK)
        for label, _, _ in dc.buttons(dc.message(hand))
    )
    rec = await h.click(ALICE, hand, h.t("hand-clear"))
    assert rec.callback_type == 7  # the hand is shown again, in place
    await h.settled()
    assert (dc.message(hand)["content"], dc.buttons(dc.message(hand))) == unselected


async def test_clear_keeps_the_ephemeral_hand_of_a_closed_dm_player(
    harness: Harness, dc: FakeDiscord
) -> None:
    h = harness
    game, table = await h.open_table()
    await h.seat(table, ALICE, "A")
    await h.seat(table, EVE, "B")  # eve takes no DMs
    await h.click(ALICE, table, h.t("lobby-add-computer-a"))
    await h.click(ALICE, table, h.t("lobby-add-computer-b"))
    await h.click(ALICE, table, h.t("lobby-start"))
    await h.settled()
    game = await h.service.game(game.id)
    assert game.status is GameStatus.PLAYING
    seat = game.seat_of(ref(EVE))
    assert seat is not None
    rec = await h.click(EVE, table, h.t("table-hand-button"))
    ephemeral = int(rec.original["id"])  # type: ignore[index]
    note = h.t("discord-hand-here")
    expected = f"{presenters.hand(game, seat, 0, h.tr, 'ru').text}\n\n{note}"
    assert dc.message(ephemeral)["content"] == expected
    await h.click(EVE, ephemeral, select_a_card)
    assert dc.message(ephemeral)["content"] != expected  # a card is selected
    rec = await h.click(EVE, ephemeral, h.t("hand-clear"))
    assert rec.callback_type == 7
    await h.settled()
    game = await h.service.game(game.id)
    assert dc.message(ephemeral)["content"] == (
        f"{presenters.hand(game, seat, 0, h.tr, 'ru').text}\n\n{note}"
    )
