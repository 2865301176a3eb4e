"""Nobody acts where he does not belong (issue 9, points 1, 2 and 13), through the real
handlers against the fake Bot API: deep links that seat only members in the lobby they
were made for, presses bound to the game's chat, hands shown only to their owners."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

from bot import presenters
from bot.codec import Command, Verb, encode
from bot.models import ChatRef, Game, GameStatus, Platform, UserRef
from testing.fakes.telegram import FakeMessage, FakeUser
from tests.adapters.telegram.harness import GROUP, Harness, button, token
from tests.adapters.telegram.test_refusals import alert, two_humans

CHAT = ChatRef(Platform.TELEGRAM, str(GROUP))
OTHER_GROUP = -1002


def state(game: Game) -> tuple[object, ...]:
    return (game.status, game.version, list(game.seats), game.settings)


async def lobby_of(h: Harness, creator: FakeUser) -> tuple[Game, FakeMessage]:
    lobby = await h.command(creator, GROUP, "/kozel")
    game = await h.service.open_game(CHAT)
    assert game is not None
    return game, lobby


async def private_message(h: Harness, user: FakeUser) -> FakeMessage:
    """A message of the bot in the user's private chat (the answer to /start)."""
    return await h.command(user, user.id, "/start")


async def join_link(h: Harness, lobby: FakeMessage, user: FakeUser, team: str) -> str:
    """The payload of the deep link a press of "join ``team``" is answered with when
    the bot cannot write to ``user`` (issue 23, point 22)."""
    query = await h.press_verb(user, lobby, Verb.JOIN, team)
    url = h.tg.callback_answers[query]["url"]
    return parse_qs(urlparse(url).query)["start"][0]


async def group_link(h: Harness, before: int) -> str:
    """The payload of the deep link in the group's message (after message ``before``)."""
    found = await h.tg.wait_for(
        lambda t: next((m for m in t.messages(GROUP)[before:] if m.reply_markup), None)
    )
    url = found.reply_markup["inline_keyboard"][0][0]["url"]
    return parse_qs(urlparse(url).query)["start"][0]


# --- Point 1: deep links ---------------------------------------------------------------


async def test_start_j_game_id_in_a_private_chat_does_not_seat_anyone_in_any_groups_lobby(
    h: Harness,
) -> None:
    alice, mallory = h.user(1, "Alice"), h.user(6, "Mallory")
    game, _ = await lobby_of(h, alice)
    before = state(game)
    for payload in (f"j{game.id}_A", f"j{game.id}_B", "j1_A", "j2_B", "jzz_A" + "x" * 22):
        answer = await h.command(mallory, mallory.id, f"/start {payload}")
        assert answer.text == h.tr.t("en", "err-bad-link"), payload
    await h.settle()
    assert state(await h.game(game.id)) == before


async def test_a_deep_link_seats_its_member_in_its_game_and_team(h: Harness) -> None:
    alice, bob = h.user(1, "Alice"), h.user(2, "Bob", started=False)
    game, lobby = await lobby_of(h, alice)
    payload = await join_link(h, lobby, bob, "B")
    assert len(payload) <= 64 and payload.replace("_", "").replace("-", "").isalnum()
    assert (await h.game(game.id)).seat_of(_ref(bob)) is None
    await h.command(bob, bob.id, f"/start {payload}")
    await h.settle()
    game = await h.game(game.id)
    assert game.seat_of(_ref(bob)) in (1, 3)
    # The link names its team: changed to the other one it seats nobody.
    carol = h.user(3, "Carol")
    answer = await h.command(carol, carol.id, "/start " + payload.replace("_B", "_A", 1))
    assert answer.text == h.tr.t("en", "err-bad-link")
    assert (await h.game(game.id)).seat_of(_ref(carol)) is None


async def test_a_join_the_bot_cannot_follow_is_answered_with_its_deep_link(h: Harness) -> None:
    """Regression: a Join by someone the bot cannot write to got an alert, and the
    group a message with the link. The press is answered with the link itself
    (``answerCallbackQuery(url=t.me/<bot>?start=<payload>)``): one tap opens the bot,
    whose Start seats him; the group gets nothing."""
    tg = h.tg
    alice, bob = h.user(1, "Alice"), h.user(2, "Bob", started=False)
    game, lobby = await lobby_of(h, alice)
    before = len(tg.messages(GROUP))
    query = await h.press_verb(bob, lobby, Verb.JOIN, "A")
    answer = tg.callback_answers[query]
    assert set(answer) == {"callback_query_id", "url"}
    link = urlparse(answer["url"])
    assert (link.scheme, link.netloc, link.path) == ("https", "t.me", f"/{tg.bot_username}")
    payload = parse_qs(link.query)["start"][0]
    await h.settle()
    assert len(tg.messages(GROUP)) == before  # nothing posted in the group
    await h.command(bob, bob.id, f"/start {payload}")  # the tap, then Start
    await h.settle()
    assert (await h.game(game.id)).seat_of(_ref(bob)) in (0, 2)


async def test_when_the_link_answer_is_refused_the_group_gets_the_link(h: Harness) -> None:
    """The fallback: Telegram refuses the answer with the link; the presser gets the
    alert, and the group the message with the link as a button."""
    tg = h.tg
    tg.refuse_callback_urls = True
    alice, bob = h.user(1, "Alice"), h.user(2, "Bob", started=False)
    game, lobby = await lobby_of(h, alice)
    before = len(tg.messages(GROUP))
    query = await h.press_verb(bob, lobby, Verb.JOIN, "B")
    answer = tg.callback_answers[query]
    assert answer["text"] == h.tr.t("ru", "err-cannot-message") and "url" not in answer
    payload = await group_link(h, before)
    await h.command(bob, bob.id, f"/start {payload}")
    await h.settle()
    assert (await h.game(game.id)).seat_of(_ref(bob)) in (1, 3)


async def test_a_deep_link_does_not_seat_who_is_not_a_member_of_the_games_group(
    h: Harness,
) -> None:
    alice, bob = h.user(1, "Alice"), h.user(2, "Bob", started=False)
    eve = h.user(5, "Eve")
    h.tg.chats[GROUP].members = {alice.id, bob.id}
    game, lobby = await lobby_of(h, alice)
    payload = await join_link(h, lobby, bob, "A")
    before = state(await h.game(game.id))
    answer = await h.command(eve, eve.id, f"/start {payload}")  # a link passed on
    assert answer.text == h.tr.t("ru", "err-not-member")
    await h.settle()
    assert state(await h.game(game.id)) == before
    # Bob left the group before he opened his link: not seated either.
    h.tg.chats[GROUP].members = {alice.id}
    answer = await h.command(bob, bob.id, f"/start {payload}")
    assert answer.text == h.tr.t("ru", "err-not-member")
    assert state(await h.game(game.id)) == before


async def test_a_join_button_does_not_seat_who_is_not_a_member(h: Harness) -> None:
    # A public group's messages (and buttons) are seen by people outside it.
    alice, eve = h.user(1, "Alice"), h.user(5, "Eve")
    h.tg.chats[GROUP].members = {alice.id}
    game, lobby = await lobby_of(h, alice)
    before = state(game)
    assert await alert(h, eve, lobby, button(h.tg, lobby, Verb.JOIN, "A")) == h.tr.t(
        "ru", "err-not-member"
    )
    await h.settle()
    assert state(await h.game(game.id)) == before


# --- Point 2: every press belongs to the game's chat --------------------------------------


async def test_forged_cancel_pressed_in_own_private_chat_cannot_cancel_another_groups_game(
    h: Harness,
) -> None:
    game, _, _, _ = await two_humans(h)
    eve = h.user(5, "Eve")  # no admin of the group; "admin" of her own private chat
    mine = await private_message(h, eve)
    before = state(await h.game(game.id))
    asked = len(h.tg.calls_of("getChatMember"))
    for data in (f"k:c:{game.id}:0:", f"k:q:{game.id}:0:"):
        assert await alert(h, eve, mine, data) == h.tr.t("en", "err-not-here")
    await h.settle()
    after = await h.game(game.id)
    assert after.status is GameStatus.PLAYING and state(after) == before
    assert len(h.tg.calls_of("getChatMember")) == asked  # refused before rights are asked


async def test_no_lobby_or_table_button_works_from_another_chat(h: Harness) -> None:
    # Eve is an admin of her own group; Alice's lobby is in the club's group.
    alice, eve = h.user(1, "Alice"), h.user(5, "Eve")
    h.tg.add_group(OTHER_GROUP, "Eve's group", admins=[eve.id])
    game, lobby = await lobby_of(h, alice)
    await h.press_lobby(alice, lobby, Verb.JOIN, "A")
    await h.press_lobby(alice, lobby, Verb.ADD_COMPUTER, "B")
    game = await h.game(game.id)
    elsewhere = await h.command(eve, OTHER_GROUP, "/help")
    dm = await private_message(h, eve)
    alice_dm = await private_message(h, alice)
    before = state(game)
    args = {Verb.JOIN: "B", Verb.ADD_COMPUTER: "A", Verb.REMOVE_COMPUTER: "1", Verb.SETTING: "t30"}
    for verb in Verb:
        data = token(verb, game, args.get(verb, ""))
        # An event's button names an event: this chat has none of that id.
        refusal = h.tr.t("en", "err-event-none" if verb is Verb.EVENT else "err-not-here")
        for user, message in ((eve, elsewhere), (eve, dm), (alice, elsewhere)):
            assert await alert(h, user, message, data) == refusal, verb
        if verb not in (Verb.SELECT, Verb.PLAY, Verb.REFRESH, Verb.SHOW_HAND):
            # Not even the creator, from her own private chat.
            assert await alert(h, alice, alice_dm, data) == refusal, verb
    await h.settle()
    assert state(await h.game(game.id)) == before
    assert elsewhere.text == h.tr.t("ru", "help-text") or elsewhere.reply_markup is None


# --- Point 13: a hand is shown only to its owner, never over another message --------------


async def test_a_hand_button_forged_on_the_groups_table_does_not_replace_the_table(
    h: Harness,
) -> None:
    game, lobby, _, bob = await two_humans(h)
    await h.settle()
    table = (lobby.text, h.tg.buttons(GROUP, lobby.message_id))
    game = await h.game(game.id)
    hand = h.hand_message(game, 1)
    assert hand is not None
    await h.press(bob, lobby, token(Verb.SELECT, game, "1"))
    await h.settle()
    assert (lobby.text, h.tg.buttons(GROUP, lobby.message_id)) == table
    # The hand went to Bob's own hand message, with the card selected.
    labels = [label for label, _ in h.tg.buttons(bob.id, hand.message_id)]
    assert sum(label.startswith(presenters.SELECTED_MARK) for label in labels) == 1
    await h.press(bob, lobby, token(Verb.REFRESH, game))
    await h.settle()
    assert (lobby.text, h.tg.buttons(GROUP, lobby.message_id)) == table


async def test_a_press_forged_on_a_hand_of_another_game_never_overwrites_it(
    h: Harness,
) -> None:
    game, _, _, bob = await two_humans(h)
    await h.settle()
    game = await h.game(game.id)
    hand = h.hand_message(game, 1)
    assert hand is not None
    shown = (hand.text, h.tg.buttons(bob.id, hand.message_id))
    await h.command(bob, bob.id, "/kozel")  # Bob's solo game, in his private chat
    await h.settle()
    solo = await h.service.open_game(ChatRef(Platform.TELEGRAM, str(bob.id)))
    assert solo is not None and solo.id != game.id
    await h.press(bob, hand, encode(Command(Verb.SELECT, solo.id, solo.version, "1")))
    await h.press(bob, hand, encode(Command(Verb.REFRESH, solo.id, solo.version)))
    await h.settle()
    assert (hand.text, h.tg.buttons(bob.id, hand.message_id)) == shown


def _ref(user: FakeUser) -> UserRef:
    return UserRef(Platform.TELEGRAM, str(user.id))
