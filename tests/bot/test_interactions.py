"""Presses and commands through the platform-neutral interaction layer."""

from __future__ import annotations

from typing import Any

import pytest

from bot import presenters
from bot.codec import Command, Verb, decode, encode
from bot.i18n import Translator
from bot.interactions import Interactions
from bot.models import ChatRef, GameStatus, Platform, User, UserRef
from bot.outputs import PressReply, Target
from bot.ports import Change, ChangeKind, Owed, OwedKind, Storage
from bot.presenters.yard import action_arg
from bot.presses import Pressed
from bot.service import GameService
from core.yard.ai import safe_move
from tests.bot.conftest import ALICE, BOB, CAROL, CHAT, DAN, EVE, PLAYERS


@pytest.fixture(scope="module")
def tr() -> Translator:
    return Translator.from_dir()


#: A press on a message of the game's chat.
HERE = Pressed(CHAT)


async def press(ui: Interactions, user: User, token: str, **options: Any) -> PressReply:
    return await ui.press(user, token, where=HERE, **options)


@pytest.fixture
def ui(service: GameService, tr: Translator) -> Interactions:
    return Interactions(service, tr)


async def started(ui: Interactions) -> int:
    reply = await ui.kozel(CHAT, ALICE)
    assert reply.game is not None
    game = reply.game
    for index, user in enumerate(PLAYERS):
        token = encode(Command(Verb.JOIN, game.id, game.version, "AB"[index % 2]))
        joined = await press(ui, user, token)
        assert joined.alert is None and joined.game is not None
        game = joined.game
    reply = await press(ui, ALICE, encode(Command(Verb.START, game.id, game.version)))
    assert reply.game is not None and reply.game.status is GameStatus.PLAYING
    return game.id


async def test_malformed_and_forged_tokens_change_nothing(
    ui: Interactions, storage: Storage
) -> None:
    game_id = await started(ui)
    before = await storage.load_game(game_id)
    assert before is not None
    for token in ("", "hello", "k:z:1:1:", "k:p:1:1:" + "x" * 60, "k:p:zzzz:1:lAH"):
        reply = await press(ui, ALICE, token)
        assert reply.alert, token
    after = await storage.load_game(game_id)
    assert after is not None and after.version == before.version


async def test_a_press_for_someone_else_or_stale_is_refused(
    ui: Interactions, service: GameService, tr: Translator
) -> None:
    game_id = await started(ui)
    game = await service.game(game_id)
    deal = game.play.series.current
    assert deal is not None and deal.turn is not None
    move = safe_move(deal.view(deal.turn))
    version = game.version
    token = encode(Command(Verb.PLAY, game_id, version, action_arg(move)))
    stranger = await press(ui, EVE, token)
    assert stranger.alert == tr.t("ru", "err-not-seated")
    other = PLAYERS[(deal.turn + 1) % 4]
    wrong = await press(ui, other, token)
    assert wrong.alert == tr.t("ru", "err-not-your-turn")
    assert (await service.game(game_id)).version == version
    ok = await press(ui, PLAYERS[deal.turn], token)
    assert ok.alert is None
    again = await press(ui, PLAYERS[deal.turn], token)
    assert again.alert == tr.t("ru", "err-stale")
    assert again.hand is not None  # the player sees his hand as it is now
    assert (await service.game(game_id)).version == version + 1


async def test_selecting_cards_shows_the_hand_and_changes_nothing(
    ui: Interactions, service: GameService
) -> None:
    game_id = await started(ui)
    game = await service.game(game_id)
    version = game.version
    reply = await press(ui, BOB, encode(Command(Verb.SELECT, game_id, version, "1")))
    # Pressed on the table, the hand goes to him privately.
    [hand] = reply.outputs
    assert (hand.target, hand.seat, hand.user) == (Target.HAND, 1, BOB.ref)
    assert reply.hand is not None
    first = presenters.sorted_hand(game.play.series.current.hand(1))[0]  # type: ignore[union-attr]
    assert presenters.card_label(first, game.settings.locale) in reply.hand.text
    assert (await service.game(game_id)).version == version
    shown = await press(ui, BOB, encode(Command(Verb.SHOW_HAND, game_id, 0)))
    assert shown.hand is not None and shown.alert is None


async def test_join_needs_a_private_chat_first(ui: Interactions, tr: Translator) -> None:
    reply = await ui.kozel(CHAT, ALICE)
    assert reply.game is not None

    async def closed() -> bool:
        return False

    token = encode(Command(Verb.JOIN, reply.game.id, reply.game.version, "A"))
    refused = await press(ui, BOB, token, can_message=closed)
    [alert] = refused.outputs
    assert alert.target is Target.ALERT and alert.screen.text == tr.t("ru", "err-cannot-message")
    # The way to the private chat: a link whose Start seats him in the team he chose.
    assert alert.link == await ui.join_link(reply.game, "A")
    assert refused.game is not None and refused.game.seat_of(BOB.ref) is None
    joined = await press(ui, BOB, token)
    assert [(o.target, o.user) for o in joined.outputs] == [(Target.SEATED, BOB.ref)]


async def test_second_kozel_points_to_the_running_game(ui: Interactions) -> None:
    first = await ui.kozel(CHAT, ALICE)
    second = await ui.kozel(CHAT, BOB)
    assert second.alert and second.game is not None and first.game is not None
    assert second.game.id == first.game.id


async def test_kozel_in_private_starts_a_solo_game(ui: Interactions) -> None:
    private = ChatRef(Platform.CONSOLE, CAROL.ref.id)
    reply = await ui.kozel(private, CAROL, private=True)
    assert reply.game is not None and reply.game.status is GameStatus.PLAYING
    assert reply.game.seat_of(CAROL.ref) == 0
    assert sum(1 for s in reply.game.seats if s is not None and s.is_computer) == 3


async def test_stop_asks_the_creator_or_an_admin(ui: Interactions, tr: Translator) -> None:
    await ui.kozel(CHAT, ALICE)
    refused = await ui.stop(CHAT, BOB.ref)
    assert refused.alert == tr.t("ru", "err-not-allowed")
    asked = await ui.stop(CHAT, BOB.ref, is_admin=True)
    assert asked.screen is not None and asked.screen.buttons
    none = await ui.stop(ChatRef(Platform.CONSOLE, "empty"), BOB.ref)
    assert none.alert == tr.t("ru", "err-unknown-game")


async def test_language_switch(ui: Interactions, tr: Translator) -> None:
    usage = await ui.lang(CHAT, ALICE, "de", is_admin=True)
    assert usage.screen is not None
    switched = await ui.lang(CHAT, ALICE, "en", is_admin=True)
    assert switched.screen is not None
    assert await ui.chat_locale(CHAT) == "en"
    helped = await ui.help(CHAT)
    assert helped.screen is not None and helped.screen.text == presenters.help(tr, "en").text


async def test_group_lang_is_for_admins(ui: Interactions, tr: Translator) -> None:
    """Regression: any member's ``/lang`` changed the group's language. A member who is
    no admin changes his own; the group's stays."""
    own = await ui.lang(CHAT, BOB, "en")
    assert own.screen == presenters.own_language_switched(tr, "en", "ru")
    assert own.screen.text == tr.t("en", "notice-lang-own", group=tr.t("en", "lang-name-ru"))
    assert await ui.chat_locale(CHAT) == "ru"
    assert await ui.service.user_locale(BOB.ref) == "en"
    group = await ui.lang(CHAT, ALICE, "en", is_admin=True)
    assert group.screen == presenters.language_switched(tr, "en")
    assert await ui.chat_locale(CHAT) == "en"
    assert await ui.service.user_locale(ALICE.ref, "ru") == "ru"  # his own is not set


async def test_outputs_send_each_hand_only_to_its_player(
    ui: Interactions, service: GameService
) -> None:
    game_id = await started(ui)
    game = await service.game(game_id)
    outputs = await ui.outputs(game, Change(ChangeKind.PLAYED))
    deal = game.play.series.current
    assert deal is not None
    assert [o.target for o in outputs].count(Target.TABLE) == 1
    hands = [o for o in outputs if o.target is Target.HAND]
    assert sorted(o.seat for o in hands if o.seat is not None) == [0, 1, 2, 3]
    locale = game.settings.locale  # the table's, and every player's here
    for output in hands:
        assert output.seat is not None and output.user == PLAYERS[output.seat].ref
        others = {
            presenters.card_label(card, locale)
            for seat in range(4)
            if seat != output.seat
            for card in deal.hand(seat)
        }
        mine = {presenters.card_label(card, locale) for card in deal.hand(output.seat)}
        labels = {
            button.label.replace(presenters.SELECTED_MARK, "").strip()
            for button in output.screen.buttons
        }
        assert mine <= labels and not (others & labels)
    table = next(o for o in outputs if o.target is Target.TABLE)
    for seat in range(4):
        for card in deal.hand(seat):
            assert presenters.card_label(card, locale) not in table.screen.text.replace(
                presenters.card_label(deal.trump_card, locale), ""
            )


async def test_reminder_goes_privately_to_the_player_on_turn(
    ui: Interactions, service: GameService
) -> None:
    game_id = await started(ui)
    game = await service.game(game_id)
    turn = game.play.series.current.turn  # type: ignore[union-attr]
    outputs = await ui.outputs(game, Change(ChangeKind.REMINDER, seat=turn))
    assert [(o.target, o.user) for o in outputs] == [
        (Target.TABLE, None),
        (Target.PRIVATE, PLAYERS[turn].ref),
    ]
    lobby = await ui.outputs(game, Change(ChangeKind.LOBBY))
    assert [o.target for o in lobby] == [Target.TABLE]
    assert DAN.ref != ALICE.ref


async def test_an_old_cancel_confirmation_does_not_cancel_a_game_moved_on_since(
    ui: Interactions, service: GameService, tr: Translator
) -> None:
    game_id = await started(ui)
    asked = await ui.stop(CHAT, ALICE.ref)
    assert asked.screen is not None
    old_yes = next(b.token for b in asked.screen.buttons if b.token and b.token.startswith("k:c:"))
    game = await service.game(game_id)
    assert decode(old_yes or "").version == game.version  # like every button
    deal = game.play.series.current
    assert deal is not None and deal.turn is not None
    await service.play(
        game_id, game.version, PLAYERS[deal.turn].ref, safe_move(deal.view(deal.turn))
    )
    moved = (await service.game(game_id)).version
    stale = await press(ui, ALICE, old_yes or "")
    assert stale.alert == tr.t("ru", "err-stale")
    game = await service.game(game_id)
    assert game.status is GameStatus.PLAYING and game.version == moved
    # Asked again, the answer is of the game as it is now.
    asked = await ui.stop(CHAT, ALICE.ref)
    assert asked.screen is not None
    yes = next(b.token for b in asked.screen.buttons if b.token and b.token.startswith("k:c:"))
    stranger = await press(ui, EVE, yes or "")
    assert stranger.alert == tr.t("ru", "err-not-allowed")
    done = await press(ui, ALICE, yes or "")
    assert done.alert is None and done.game is not None
    assert done.game.status is GameStatus.CANCELLED
    again = await press(ui, ALICE, yes or "")
    assert again.alert == tr.t("ru", "err-game-over")


async def test_a_restored_game_shows_what_it_owes_first_then_its_table_and_hands(
    ui: Interactions, service: GameService, storage: Storage, tr: Translator
) -> None:
    game_id = await started(ui)
    game = await service.game(game_id)
    while not game.play.series.deals[0].is_over:
        deal = game.play.series.current
        assert deal is not None and deal.turn is not None
        action = safe_move(deal.view(deal.turn))
        await service.play(game_id, game.version, PLAYERS[deal.turn].ref, action)
        game = await service.game(game_id)
    [owed] = await storage.owed_messages()
    assert (owed.kind, owed.number) == (OwedKind.DEAL_RESULT, 0)
    never = Owed(game_id, owed.version, 1, OwedKind.DEAL_RESULT, 5)  # no such deal
    out = await ui.outputs(game, Change(ChangeKind.RESTORED, owed=(owed, never)))
    assert [(o.target, o.owed) for o in out] == [
        (Target.CHAT, owed),
        (Target.TABLE, None),
        *[(Target.HAND, None)] * 4,
    ]
    result = game.play.series.deals[0].result
    assert result is not None
    assert out[0].screen == presenters.deal_result(game, 0, result, tr, "ru")
    assert out[1].screen == ui.table_screen(game)
    assert [o.screen for o in out[2:]] == [await ui.hand_screen(game, seat) for seat in range(4)]
    # A message the game cannot draw is owed no more; the other one still is.
    assert await storage.owed_messages() == [owed]
    assert ui.lazy_outputs(game, Change(ChangeKind.RESTORED, owed=(owed,))) is None
    assert ui.lazy_outputs(game, Change(ChangeKind.RESTORED)) == [
        (Target.TABLE, None, None),
        *[(Target.HAND, seat, user.ref) for seat, user in enumerate(PLAYERS)],
    ]


# --- Where a press belongs (issue 9, points 2 and 13) -----------------------------------


def dm(user: User, *tokens: str | None) -> Pressed:
    """A press in the user's own private chat with the bot, on a message with buttons
    carrying ``tokens``."""
    return Pressed(ChatRef(Platform.CONSOLE, f"dm-{user.ref.id}"), user.ref, tokens)


class Admin:
    """An ``is_admin`` check that says yes for some chats and keeps every chat asked."""

    def __init__(self, *chats: ChatRef) -> None:
        self.chats = set(chats)
        self.asked: list[ChatRef] = []

    async def __call__(self, chat: ChatRef) -> bool:
        self.asked.append(chat)
        return chat in self.chats


async def test_forged_cancel_pressed_in_own_private_chat_cannot_cancel_another_chats_game(
    ui: Interactions, service: GameService, tr: Translator
) -> None:
    # Eve is "admin" of her own private chat, as a platform says for private chats.
    game_id = await started(ui)
    version = (await service.game(game_id)).version
    where = dm(EVE)
    admin = Admin(where.chat)
    for verb in (Verb.CANCEL, Verb.CANCEL_ASK):
        forged = encode(Command(verb, game_id, 0))
        reply = await ui.press(EVE, forged, where=where, is_admin=admin)
        assert reply.alert == tr.t("ru", "err-not-here") and reply.game is None
        assert reply.screen is None
    game = await service.game(game_id)
    assert game.status is GameStatus.PLAYING and game.version == version
    assert admin.asked == []  # refused before any right was looked at


async def test_admin_rights_are_those_of_the_games_chat(
    ui: Interactions, service: GameService
) -> None:
    game_id = await started(ui)
    yes = encode(Command(Verb.CANCEL, game_id, (await service.game(game_id)).version))
    # Eve presses in the game's chat; she is an admin somewhere else only.
    elsewhere = Admin(dm(EVE).chat)
    refused = await ui.press(EVE, yes, where=HERE, is_admin=elsewhere)
    assert refused.alert is not None and elsewhere.asked == [CHAT]
    assert (await service.game(game_id)).status is GameStatus.PLAYING
    admin = Admin(CHAT)
    done = await ui.press(EVE, yes, where=HERE, is_admin=admin)
    assert done.alert is None and admin.asked == [CHAT]
    assert (await service.game(game_id)).status is GameStatus.CANCELLED


# An event's buttons name an event, not a game: tests/bot/test_tournaments.py.
@pytest.mark.parametrize("verb", [verb for verb in Verb if verb is not Verb.EVENT])
async def test_no_button_of_a_game_works_from_another_chat(
    ui: Interactions, service: GameService, tr: Translator, verb: Verb
) -> None:
    # A lobby (with a free seat) and a running game; every verb, with a plausible
    # argument, pressed by a seated player and by the creator from other chats.
    lobby_reply = await ui.kozel(ChatRef(Platform.CONSOLE, "chat-2"), ALICE)
    assert lobby_reply.game is not None
    lobby = lobby_reply.game
    running = await service.game(await started(ui))
    args = {Verb.JOIN: "A", Verb.ADD_COMPUTER: "B", Verb.REMOVE_COMPUTER: "0"}
    other_group = Pressed(ChatRef(Platform.CONSOLE, "chat-3"))
    for game in (lobby, running):
        before = (game.status, game.version, list(game.seats), game.settings)
        token = encode(Command(verb, game.id, game.version, args.get(verb, "")))
        for user, where in ((ALICE, other_group), (ALICE, dm(EVE)), (EVE, dm(EVE))):
            seated = game.seat_of(user.ref) is not None
            hand = verb in (Verb.SELECT, Verb.PLAY, Verb.REFRESH, Verb.SHOW_HAND)
            if hand and seated and where.owner == user.ref:
                continue  # his hand in his own private chat: that is where it lives
            reply = await ui.press(user, token, where=where, is_admin=Admin(where.chat))
            expected = "err-not-yours" if where.owner not in (None, user.ref) else "err-not-here"
            assert reply.alert == tr.t("ru", expected), (verb, user, where)
            assert reply.game is None and reply.hand is None and reply.screen is None
        game = await service.game(game.id)
        assert (game.status, game.version, list(game.seats), game.settings) == before


async def test_a_seated_player_uses_his_hand_in_his_own_private_chat(
    ui: Interactions, service: GameService
) -> None:
    game_id = await started(ui)
    game = await service.game(game_id)
    token = encode(Command(Verb.SELECT, game_id, game.version, "1"))
    hand = [b.token for b in presenters.hand(game, 1, 0, ui.tr, "ru").buttons]
    own = await ui.press(BOB, token, where=dm(BOB, *hand))
    assert own.alert is None and [o.target for o in own.outputs] == [Target.PRESSED]
    # The same press on the table of the game's chat shows his hand, not in place;
    # so does one on a message of his private chat that is no hand of this game.
    public = await ui.press(BOB, token, where=HERE)
    assert [o.target for o in public.outputs] == [Target.HAND]
    for other in (dm(BOB), dm(BOB, *hand, encode(Command(Verb.SELECT, game_id + 1, 0, "1")))):
        elsewhere = await ui.press(BOB, token, where=other)
        assert [o.target for o in elsewhere.outputs] == [Target.HAND]


async def test_a_press_forged_on_another_seats_hand_message_never_shows_the_pressers_hand(
    ui: Interactions, service: GameService, tr: Translator
) -> None:
    game_id = await started(ui)
    game = await service.game(game_id)
    deal = game.play.series.current
    assert deal is not None and deal.turn is not None
    mover = PLAYERS[deal.turn]
    move = encode(
        Command(Verb.PLAY, game_id, game.version, action_arg(safe_move(deal.view(deal.turn))))
    )
    alices_hand = dm(ALICE)
    for user in (BOB, mover if mover != ALICE else BOB):
        for verb, arg in ((Verb.SELECT, "1"), (Verb.REFRESH, ""), (Verb.SHOW_HAND, "")):
            token = encode(Command(verb, game_id, game.version, arg))
            reply = await ui.press(user, token, where=alices_hand)
            assert reply.alert == tr.t("ru", "err-not-yours") and reply.hand is None
        reply = await ui.press(user, move, where=alices_hand)
        assert reply.alert == tr.t("ru", "err-not-yours")
    assert (await service.game(game_id)).version == game.version


async def test_a_user_of_another_platform_presses_nothing(
    ui: Interactions, service: GameService, tr: Translator
) -> None:
    game_id = await started(ui)
    stranger = User(UserRef(Platform.TELEGRAM, ALICE.ref.id), "Alice")
    token = encode(Command(Verb.CANCEL, game_id, 0))
    where = Pressed(ChatRef(Platform.TELEGRAM, CHAT.id))
    reply = await ui.press(stranger, token, where=where, is_admin=Admin(where.chat))
    assert reply.alert == tr.t("ru", "err-not-here")
    assert (await service.game(game_id)).status is GameStatus.PLAYING


# --- Join links (issue 9, point 1) -------------------------------------------------------


class Members:
    def __init__(self, *members: User) -> None:
        self.members = {user.ref for user in members}
        self.asked: list[ChatRef] = []

    def of(self, user: User) -> Any:
        async def check(chat: ChatRef) -> bool:
            self.asked.append(chat)
            return user.ref in self.members

        return check


async def test_a_join_link_seats_a_member_in_its_game_and_team_only(
    ui: Interactions, service: GameService, tr: Translator
) -> None:
    opened = await ui.kozel(CHAT, ALICE)
    assert opened.game is not None
    game = opened.game
    link = await ui.join_link(game, "B")
    assert len(link) <= 64 and link.replace("_", "").replace("-", "").isalnum()
    members = Members(ALICE, BOB)
    seated = await ui.join_by_link(BOB, link, is_member=members.of(BOB))
    assert seated.alert is None and members.asked == [CHAT]
    game = await service.game(game.id)
    assert game.seat_of(BOB.ref) in (1, 3)
    again = await ui.join_by_link(BOB, link, is_member=members.of(BOB))
    assert again.alert is None and (await service.game(game.id)).version == game.version


async def test_start_j_game_id_does_not_seat_anyone_in_any_lobby(
    ui: Interactions, service: GameService, tr: Translator
) -> None:
    # The old, guessable payload (and any change of a real one) seats nobody.
    opened = await ui.kozel(CHAT, ALICE)
    assert opened.game is not None
    game = opened.game
    real = await ui.join_link(game, "A")
    signature = real.split("_", 1)[1][1:]
    other = await ui.kozel(ChatRef(Platform.CONSOLE, "chat-2"), BOB)
    assert other.game is not None
    forged = [
        f"j{game.id}_A",
        f"j{game.id:x}_B",
        real[:-1] + ("A" if real[-1] != "A" else "B"),
        real.replace("_A", "_B"),  # the other team
        f"j{other.game.id}_A{signature}",  # another game
        real + "x",
        "",
        "j" + "z" * 70,
    ]
    members = Members(EVE)
    for payload in forged:
        reply = await ui.join_by_link(EVE, payload, is_member=members.of(EVE))
        assert reply.alert == tr.t("ru", "err-bad-link"), payload
    assert members.asked == []
    for found in (game, other.game):
        assert (await service.game(found.id)).seat_of(EVE.ref) is None
        assert (await service.game(found.id)).version == found.version


async def test_a_join_link_does_not_seat_who_is_not_a_member_of_the_games_chat(
    ui: Interactions, service: GameService, tr: Translator, storage: Storage
) -> None:
    opened = await ui.kozel(CHAT, ALICE)
    assert opened.game is not None
    link = await ui.join_link(opened.game, "A")
    members = Members(ALICE)
    reply = await ui.join_by_link(EVE, link, is_member=members.of(EVE))
    assert reply.alert == tr.t("ru", "err-not-member") and members.asked == [CHAT]
    game = await service.game(opened.game.id)
    assert game.seat_of(EVE.ref) is None and game.version == opened.game.version
    assert await storage.get_user(EVE.ref) is None  # not even his name is kept


async def test_join_links_outlive_a_restart_and_differ_between_databases(
    storage: Storage, clock: Any
) -> None:
    from bot.memory import MemoryStorage

    first = GameService(storage, clock=clock)
    second = GameService(storage, clock=clock)
    key = await first.link_key()
    assert key == await second.link_key() and len(key) == 32
    assert key != await GameService(MemoryStorage(), clock=clock).link_key()
