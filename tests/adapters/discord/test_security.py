"""Nobody acts where he does not belong (issue 9, points 2 and 13) on Discord: a user
client may send any custom id on any message it sees; the game must be the pressed
channel's (or the press a hand's in its player's DM), admin rights are those of the
game's channel, and a hand never replaces a message that is not its player's own."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot import presenters
from bot.codec import Command, Verb, encode
from bot.models import Game
from testing.fakes.discord import JSON, FakeDiscord, FakeInteraction
from tests.adapters.discord.harness import ALICE, BOB, CHANNEL, EVE, Harness, ref, world

OTHER_GUILD, OTHER_CHANNEL = 101, 300


@pytest.fixture
async def dc() -> AsyncIterator[FakeDiscord]:
    """The usual server, and eve's own one, where she is the owner (an admin)."""
    async with FakeDiscord() as fake:
        world(fake)
        fake.add_guild(OTHER_GUILD, "Eve's", owner_id=EVE)
        fake.add_channel(OTHER_GUILD, OTHER_CHANNEL, "eve")
        fake.users[EVE].guild_ids.append(OTHER_GUILD)
        yield fake


def state(game: Game) -> tuple[object, ...]:
    return (game.status, game.version, list(game.seats), game.settings)


async def forged(h: Harness, user: int, message_id: int, custom_id: str) -> FakeInteraction:
    rec = await h.answered(await h.dc.forge(user, message_id, custom_id), loaded=True)
    await h.adapter.running.idle()
    await h.settled()
    return rec


def shown(message: JSON) -> tuple[object, ...]:
    return (message["content"], message["components"])


async def test_forged_cancel_pressed_where_the_presser_is_admin_cannot_cancel_another_channels_game(
    harness: Harness, dc: FakeDiscord
) -> None:
    h = harness
    game, _ = await h.start_four()
    before = state(game)
    help_ = await h.slash(EVE, "help", channel=OTHER_CHANNEL)  # a message of eve's server
    assert help_.original is not None and not help_.ephemeral
    hers = int(help_.original["id"])
    bobs_hand = h.hand_id(game, BOB)
    for custom_id in (f"k:c:{game.id}:0:", f"k:q:{game.id}:0:"):
        rec = await forged(h, EVE, hers, custom_id)
        assert rec.ephemeral and rec.content == h.t("err-not-here", "en")
        rec = await forged(h, BOB, bobs_hand, custom_id)  # his own DM
        assert rec.ephemeral and rec.content == h.t("err-not-here")
    assert state(await h.service.game(game.id)) == before


async def test_no_button_of_a_game_works_from_another_server(
    harness: Harness, dc: FakeDiscord
) -> None:
    h = harness
    game, table = await h.open_table()
    await h.seat(table, ALICE, "A")
    game = await h.service.game(game.id)
    before = state(game)
    help_ = await h.slash(EVE, "help", channel=OTHER_CHANNEL)
    assert help_.original is not None
    args = {Verb.JOIN: "B", Verb.ADD_COMPUTER: "A", Verb.REMOVE_COMPUTER: "1", Verb.SETTING: "t30"}
    for verb in Verb:
        custom_id = encode(Command(verb, game.id, game.version, args.get(verb, "")))
        rec = await forged(h, EVE, int(help_.original["id"]), custom_id)
        # An event's button names an event: this server has none of that id.
        refusal = h.t("err-event-none" if verb is Verb.EVENT else "err-not-here", "en")
        assert rec.ephemeral and rec.content == refusal, verb
    assert state(await h.service.game(game.id)) == before
    assert not dc.message(int(help_.original["id"]))["components"]


async def test_a_hand_button_forged_on_the_table_does_not_replace_the_table(
    harness: Harness, dc: FakeDiscord
) -> None:
    h = harness
    game, table = await h.start_four()
    before = shown(dc.message(table))
    select = encode(Command(Verb.SELECT, game.id, game.version, "1"))
    rec = await forged(h, BOB, table, select)
    # Bob gets his hand for his eyes only; the table stays the table.
    assert rec.ephemeral and rec.callback_type == 4, (rec.callback_type, rec.followups)
    assert shown(dc.message(table)) == before
    labels = [label or "" for label, _, _ in dc.buttons(rec.original or {})]
    assert sum(label.startswith(presenters.SELECTED_MARK) for label in labels) == 1
    await forged(h, BOB, table, encode(Command(Verb.REFRESH, game.id, game.version)))
    assert shown(dc.message(table)) == before


async def test_a_press_forged_on_another_seats_dm_hand_never_overwrites_it(
    harness: Harness, dc: FakeDiscord
) -> None:
    h = harness
    game, _ = await h.start_four()
    alices = h.hand_id(game, ALICE)
    before = shown(dc.message(alices))
    for verb, arg in ((Verb.SELECT, "1"), (Verb.REFRESH, ""), (Verb.SHOW_HAND, "")):
        # As only a fake lets him: Bob presses in Alice's DM.
        rec = await forged(h, BOB, alices, encode(Command(verb, game.id, game.version, arg)))
        assert rec.ephemeral and rec.content == h.t("err-not-yours"), verb
        assert shown(dc.message(alices)) == before
    bob = game.seat_of(ref(BOB))
    assert bob is not None
    assert presenters.hand(game, bob, 0, h.tr, "ru").text not in str(dc.dm_messages(ALICE))
    assert state(await h.service.game(game.id)) == state(game)


async def test_a_join_button_does_not_seat_who_does_not_see_the_channel(
    harness: Harness, dc: FakeDiscord
) -> None:
    """Discord's equivalent of the Telegram membership check: a press on a lobby's join
    button by a user without VIEW_CHANNEL there (his client sent it anyway) seats
    nobody; a member who sees the channel is seated by the same button."""
    h = harness
    game, table = await h.open_table()
    before = state(await h.service.game(game.id))
    dc.hide_channel(CHANNEL, BOB)
    rec = await h.seat(table, BOB, "B")
    assert rec.ephemeral and rec.content == h.t("err-not-member")
    assert state(await h.service.game(game.id)) == before
    await h.seat(table, EVE, "B")
    game = await h.service.game(game.id)
    assert game.seat_of(ref(BOB)) is None and game.seat_of(ref(EVE)) is not None
