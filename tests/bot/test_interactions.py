"""Presses and commands through the platform-neutral interaction layer."""

from __future__ import annotations

import pytest

from bot import presenters
from bot.codec import Command, Verb, action_arg, decode, encode
from bot.i18n import Translator
from bot.interactions import Interactions, Target
from bot.models import ChatRef, GameStatus, Platform
from bot.ports import Change, ChangeKind, Owed, OwedKind, Storage
from bot.service import GameService
from core.ai import safe_move
from tests.bot.conftest import ALICE, BOB, CAROL, CHAT, DAN, EVE, PLAYERS


@pytest.fixture(scope="module")
def tr() -> Translator:
    return Translator.from_dir()


@pytest.fixture
def ui(service: GameService, tr: Translator) -> Interactions:
    return Interactions(service, tr)


async def started(ui: Interactions) -> int:
    reply = await ui.kozel(CHAT, ALICE)
    assert reply.game is not None
    game = reply.game
    for index, user in enumerate(PLAYERS):
        token = encode(Command(Verb.JOIN, game.id, game.version, "AB"[index % 2]))
        joined = await ui.press(user, token)
        assert joined.alert is None and joined.game is not None
        game = joined.game
    reply = await ui.press(ALICE, encode(Command(Verb.START, game.id, game.version)))
    assert reply.game is not None and reply.game.status is GameStatus.PLAYING
    return game.id


async def test_malformed_and_forged_tokens_change_nothing(
    ui: Interactions, storage: Storage
) -> None:
    game_id = await started(ui)
    before = await storage.load_game(game_id)
    assert before is not None
    for token in ("", "hello", "k:z:1:1:", "k:p:1:1:" + "x" * 60, "k:p:zzzz:1:lAH"):
        reply = await ui.press(ALICE, token)
        assert reply.alert, token
    after = await storage.load_game(game_id)
    assert after is not None and after.version == before.version


async def test_a_press_for_someone_else_or_stale_is_refused(
    ui: Interactions, service: GameService, tr: Translator
) -> None:
    game_id = await started(ui)
    game = await service.game(game_id)
    deal = game.series.current
    assert deal is not None and deal.turn is not None
    move = safe_move(deal.view(deal.turn))
    version = game.version
    token = encode(Command(Verb.PLAY, game_id, version, action_arg(move)))
    stranger = await ui.press(EVE, token)
    assert stranger.alert == tr.t("ru", "err-not-seated")
    other = PLAYERS[(deal.turn + 1) % 4]
    wrong = await ui.press(other, token)
    assert wrong.alert == tr.t("ru", "err-not-your-turn")
    assert (await service.game(game_id)).version == version
    ok = await ui.press(PLAYERS[deal.turn], token)
    assert ok.alert is None
    again = await ui.press(PLAYERS[deal.turn], token)
    assert again.alert == tr.t("ru", "err-stale")
    assert again.hand is not None  # the player sees his hand as it is now
    assert (await service.game(game_id)).version == version + 1


async def test_selecting_cards_shows_the_hand_and_changes_nothing(
    ui: Interactions, service: GameService
) -> None:
    game_id = await started(ui)
    game = await service.game(game_id)
    version = game.version
    reply = await ui.press(BOB, encode(Command(Verb.SELECT, game_id, version, "1")))
    assert reply.hand is not None and reply.seat == 1 and reply.private
    first = presenters.sorted_hand(game.series.current.hand(1))[0]  # type: ignore[union-attr]
    assert presenters.card_label(first) in reply.hand.text
    assert (await service.game(game_id)).version == version
    shown = await ui.press(BOB, encode(Command(Verb.SHOW_HAND, game_id, 0)))
    assert shown.hand is not None and shown.alert is None


async def test_join_needs_a_private_chat_first(ui: Interactions, tr: Translator) -> None:
    reply = await ui.kozel(CHAT, ALICE)
    assert reply.game is not None

    async def closed() -> bool:
        return False

    token = encode(Command(Verb.JOIN, reply.game.id, reply.game.version, "A"))
    refused = await ui.press(BOB, token, can_message=closed)
    assert refused.dm_needed and refused.alert == tr.t("ru", "err-cannot-message")
    assert refused.game is not None and refused.game.seat_of(BOB.ref) is None


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
    usage = await ui.lang(CHAT, ALICE, "de")
    assert usage.screen is not None
    switched = await ui.lang(CHAT, ALICE, "en")
    assert switched.screen is not None
    assert await ui.chat_locale(CHAT) == "en"
    helped = await ui.help(CHAT)
    assert helped.screen is not None and helped.screen.text == presenters.help(tr, "en").text


async def test_outputs_send_each_hand_only_to_its_player(
    ui: Interactions, service: GameService
) -> None:
    game_id = await started(ui)
    game = await service.game(game_id)
    outputs = await ui.outputs(game, Change(ChangeKind.PLAYED))
    deal = game.series.current
    assert deal is not None
    assert [o.target for o in outputs].count(Target.TABLE) == 1
    hands = [o for o in outputs if o.target is Target.HAND]
    assert sorted(o.seat for o in hands if o.seat is not None) == [0, 1, 2, 3]
    for output in hands:
        assert output.seat is not None and output.user == PLAYERS[output.seat].ref
        others = {
            presenters.card_label(card)
            for seat in range(4)
            if seat != output.seat
            for card in deal.hand(seat)
        }
        mine = {presenters.card_label(card) for card in deal.hand(output.seat)}
        labels = {
            button.label.replace(presenters.SELECTED_MARK, "").strip()
            for button in output.screen.buttons
        }
        assert mine <= labels and not (others & labels)
    table = next(o for o in outputs if o.target is Target.TABLE)
    for seat in range(4):
        for card in deal.hand(seat):
            assert presenters.card_label(card) not in table.screen.text.replace(
                presenters.card_label(deal.trump_card), ""
            )


async def test_reminder_goes_privately_to_the_player_on_turn(
    ui: Interactions, service: GameService
) -> None:
    game_id = await started(ui)
    game = await service.game(game_id)
    turn = game.series.current.turn  # type: ignore[union-attr]
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
    deal = game.series.current
    assert deal is not None and deal.turn is not None
    await service.play(
        game_id, game.version, PLAYERS[deal.turn].ref, safe_move(deal.view(deal.turn))
    )
    moved = (await service.game(game_id)).version
    stale = await ui.press(ALICE, old_yes or "")
    assert stale.alert == tr.t("ru", "err-stale")
    game = await service.game(game_id)
    assert game.status is GameStatus.PLAYING and game.version == moved
    # Asked again, the answer is of the game as it is now.
    asked = await ui.stop(CHAT, ALICE.ref)
    assert asked.screen is not None
    yes = next(b.token for b in asked.screen.buttons if b.token and b.token.startswith("k:c:"))
    stranger = await ui.press(EVE, yes or "")
    assert stranger.alert == tr.t("ru", "err-not-allowed")
    done = await ui.press(ALICE, yes or "")
    assert done.alert is None and done.game is not None
    assert done.game.status is GameStatus.CANCELLED
    again = await ui.press(ALICE, yes or "")
    assert again.alert == tr.t("ru", "err-game-over")


async def test_a_restored_game_shows_what_it_owes_first_then_its_table_and_hands(
    ui: Interactions, service: GameService, storage: Storage, tr: Translator
) -> None:
    game_id = await started(ui)
    game = await service.game(game_id)
    while not game.series.deals[0].is_over:
        deal = game.series.current
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
    result = game.series.deals[0].result
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
