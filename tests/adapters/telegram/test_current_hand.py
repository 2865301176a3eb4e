"""A player can always get his current hand back: ``/start`` and ``/hand`` in his
private chat send it for every running game he sits in, and a press on any of his
old hand messages redraws the current hand there; a press on a message that is no
hand never turns it into one; "✖ Clear" clears the selection."""

from __future__ import annotations

from bot import presenters
from bot.codec import Verb
from bot.models import ChatRef, Game, Platform
from testing.fakes.telegram import FakeMessage, FakeUser
from tests.adapters.telegram.harness import GROUP, Harness, button, token


async def group_game(h: Harness, alice: FakeUser) -> Game:
    """alice and three computers in the group, the first deal dealt."""
    lobby = await h.command(alice, GROUP, "/kozel")
    await h.press_lobby(alice, lobby, Verb.JOIN, "A")
    for team in ("B", "A", "B"):
        await h.press_lobby(alice, lobby, Verb.ADD_COMPUTER, team)
    await h.press_lobby(alice, lobby, Verb.START)
    await h.settle()
    game = await h.service.open_game(ChatRef(Platform.TELEGRAM, str(GROUP)))
    assert game is not None
    return game


async def solo_game(h: Harness, alice: FakeUser) -> Game:
    await h.command(alice, alice.id, "/kozel")
    await h.settle()
    game = await h.service.open_game(ChatRef(Platform.TELEGRAM, str(alice.id)))
    assert game is not None
    return game


def hands_of(h: Harness, user: FakeUser, game: Game) -> list[FakeMessage]:
    """The user's messages that show the game's current hand of seat 0."""
    text = h.hand_text(game, 0)
    return [m for m in h.tg.messages(user.id) if m.text == text and m.from_id == h.tg.bot_id]


async def test_hand_and_start_send_the_current_hand_of_every_game_he_sits_in(h: Harness) -> None:
    alice = h.user(1, "Alice")
    group, solo = await group_game(h, alice), await solo_game(h, alice)
    old_group_hand = h.hand_message(group, 0)
    assert old_group_hand is not None
    before = len(h.tg.messages(alice.id))

    await h.tg.send_text(alice, alice.id, "/hand")
    await h.tg.wait_for(lambda t: len(t.messages(alice.id)) >= before + 3)  # the command, 2 hands
    await h.settle()
    new = h.tg.messages(alice.id)[before + 1 :]  # after the command itself
    assert [m.text for m in new] == [h.hand_text(group, 0), h.hand_text(solo, 0)]
    # From now on each game edits its new hand message.
    assert group.messages["hand:0"] == str(new[0].message_id)
    assert solo.messages["hand:0"] == str(new[1].message_id)

    before = len(h.tg.messages(alice.id))
    await h.tg.send_text(alice, alice.id, "/start")
    await h.tg.wait_for(lambda t: len(t.messages(alice.id)) >= before + 4)
    await h.settle()
    texts = [m.text for m in h.tg.messages(alice.id)[before + 1 :]]
    hello = presenters.dm_hello(h.tr, "en").text
    assert texts == [hello, h.hand_text(group, 0), h.hand_text(solo, 0)]

    # The first hand message of the group game is old now; pressed, it shows the
    # current hand again (here: alice's partner played meanwhile, or nothing did).
    await h.press(alice, old_group_hand, button(h.tg, old_group_hand, Verb.SELECT))
    await h.settle()
    assert presenters.SELECTED_MARK in str(h.tg.buttons(alice.id, old_group_hand.message_id))
    assert {m.message_id for m in hands_of(h, alice, group)} >= {int(group.messages["hand:0"])}


async def test_hand_without_a_running_game_says_so(h: Harness) -> None:
    bob = h.user(2, "Bob")
    before = len(h.tg.messages(bob.id))
    await h.tg.send_text(bob, bob.id, "/hand")
    await h.tg.wait_for(lambda t: len(t.messages(bob.id)) >= before + 2)  # the command, the answer
    await h.settle()
    [answer] = h.tg.messages(bob.id)[before + 1 :]
    assert answer.text == h.tr.t("en", "notice-no-hand")


async def test_a_press_on_a_message_that_is_no_hand_never_turns_it_into_one(h: Harness) -> None:
    alice = h.user(1, "Alice")
    group, solo = await group_game(h, alice), await solo_game(h, alice)
    table = h.table_message(solo)  # the solo game's table, in alice's private chat
    assert table is not None and table.chat_id == alice.id
    shown = (table.text, h.tg.buttons(alice.id, table.message_id))
    hand = h.hand_message(group, 0)
    assert hand is not None
    # A card of the group game's hand (stale, then current) forged onto the table.
    for forged in (
        token(Verb.SELECT, group, "1", group.version - 1),
        token(Verb.SELECT, group, "1"),
    ):
        await h.press(alice, table, forged)
        await h.settle()
        assert (table.text, h.tg.buttons(alice.id, table.message_id)) == shown
    # The hand itself shows the selection instead.
    assert presenters.SELECTED_MARK in str(h.tg.buttons(alice.id, hand.message_id))


async def test_clear_clears_the_selection_on_a_private_hand(h: Harness) -> None:
    alice = h.user(1, "Alice")
    game = await group_game(h, alice)
    hand = h.hand_message(game, 0)
    assert hand is not None
    unselected = (hand.text, h.tg.buttons(alice.id, hand.message_id))
    await h.press(alice, hand, button(h.tg, hand, Verb.SELECT))
    await h.tg.wait_for(
        lambda t: presenters.SELECTED_MARK in str(t.buttons(alice.id, hand.message_id))
    )
    clear = button(h.tg, hand, Verb.REFRESH)
    assert {data: label for label, data in h.tg.buttons(alice.id, hand.message_id)}[clear] == (
        h.tr.t("ru", "hand-clear")
    )
    await h.press(alice, hand, clear)
    await h.tg.wait_for(lambda t: (hand.text, t.buttons(alice.id, hand.message_id)) == unselected)
