"""What a press shows comes out of bot/ as outputs (issue 22, point 2): the verb ->
handler table covers every verb, and each kind of press says where its answer goes,
so that the adapters carry it out without knowing the verbs."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot import presenters
from bot.codec import Command, Verb, encode
from bot.interactions import Interactions
from bot.models import ChatRef, Game, GameStatus, Platform, User, UserRef
from bot.outputs import Output, Target
from bot.presenters.yard import action_arg
from bot.presses import HAND_BUTTONS, HAND_VERBS, PRESSES, Pressed, opens_message
from core.yard.ai import safe_move
from tests.bot.conftest import ALICE, BOB, CHAT, PLAYERS

ROOT = Path(__file__).resolve().parents[2]
HERE = Pressed(CHAT)


def mine(user: User, screen: presenters.Screen | None = None) -> Pressed:
    """A press in the user's private chat, on a message showing ``screen``."""
    tokens = tuple(b.token for b in screen.buttons) if screen is not None else ()
    return Pressed(ChatRef(Platform.CONSOLE, f"dm-{user.ref.id}"), user.ref, tokens)


def token(game: Game, verb: Verb, arg: str = "") -> str:
    return encode(Command(verb, game.id, game.version, arg))


def targets(outputs: tuple[Output, ...]) -> list[Target]:
    return [output.target for output in outputs]


async def running(ui: Interactions) -> Game:
    game = (await ui.kozel(CHAT, ALICE)).game
    assert game is not None
    for index, user in enumerate(PLAYERS):
        joined = await ui.press(user, token(game, Verb.JOIN, "AB"[index % 2]), where=HERE)
        assert [(o.target, o.seat, o.user) for o in joined.outputs] == [
            (Target.SEATED, index, user.ref)
        ]
        assert joined.game is not None
        game = joined.game
    started = await ui.press(ALICE, token(game, Verb.START), where=HERE)
    assert started.outputs == () and started.game is not None
    assert started.game.status is GameStatus.PLAYING
    return started.game


def test_every_verb_has_one_handler_and_each_verb_set_one_definition() -> None:
    assert set(PRESSES) == set(Verb)
    assert HAND_BUTTONS < HAND_VERBS
    # Neither adapter's press code reads a button's data: no codec, no verb.
    for path in ("adapters/telegram/handlers/buttons.py", "adapters/discord/presses.py"):
        tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
        nodes = list(ast.walk(tree))
        imported = {node.module for node in nodes if isinstance(node, ast.ImportFrom)}
        imported |= {a.name for node in nodes if isinstance(node, ast.Import) for a in node.names}
        assert "bot.codec" not in imported, path
        names = {node.id for node in nodes if isinstance(node, ast.Name)}
        assert "Verb" not in names and "decode" not in names, path


async def test_a_hand_press_redraws_the_pressed_hand_only_when_it_is_the_pressers_own(
    quick_ui: Interactions,
) -> None:
    ui = quick_ui
    game = await running(ui)
    hand = presenters.hand(game, 1, 0, ui.tr, "ru")
    select = token(game, Verb.SELECT, "1")
    on_hand = await ui.press(BOB, select, where=mine(BOB, hand))
    [pressed] = on_hand.outputs
    assert (pressed.target, pressed.seat, pressed.user) == (Target.PRESSED, 1, BOB.ref)
    assert presenters.SELECTED_MARK in str([b.label for b in pressed.screen.buttons])
    # On the table, or on a message of his chat that is no hand: the hand goes to him.
    for where in (HERE, mine(BOB), mine(BOB, presenters.cancel_confirm(game, ui.tr, "ru"))):
        elsewhere = await ui.press(BOB, select, where=where)
        assert targets(elsewhere.outputs) == [Target.HAND], where
    shown = await ui.press(BOB, token(game, Verb.SHOW_HAND), where=HERE)
    assert targets(shown.outputs) == [Target.HAND]


async def test_a_move_from_the_pressers_own_hand_keeps_that_hand_following_the_game(
    quick_ui: Interactions,
) -> None:
    ui = quick_ui
    game = await running(ui)
    deal = game.play.series.current
    assert deal is not None and deal.turn is not None
    seat, user = deal.turn, PLAYERS[deal.turn]
    hand = presenters.hand(game, seat, 0, ui.tr, "ru")
    move = token(game, Verb.PLAY, action_arg(safe_move(deal.view(seat))))
    played = await ui.press(user, move, where=mine(user, hand))
    assert [(o.target, o.seat, o.user) for o in played.outputs] == [(Target.FOLLOW, seat, user.ref)]
    # The same button again: stale; the hand pressed shows the hand as it is now.
    again = await ui.press(user, move, where=mine(user, hand))
    assert targets(again.outputs) == [Target.ALERT, Target.PRESSED]
    assert again.alert == ui.tr.t("ru", "err-stale")


async def test_a_question_is_an_answer_and_is_closed_once_answered(
    quick_ui: Interactions,
) -> None:
    ui = quick_ui
    game = await running(ui)
    asked = await ui.press(ALICE, token(game, Verb.CANCEL_ASK), where=HERE)
    assert targets(asked.outputs) == [Target.ANSWER] and asked.screen is not None
    question = Pressed(CHAT, None, tuple(b.token for b in asked.screen.buttons))
    no = next(b.token for b in asked.screen.buttons if b.token and b.token.startswith("k:f:"))
    yes = next(b.token for b in asked.screen.buttons if b.token and b.token.startswith("k:c:"))
    # "No" by a seated player closes the question; no hand comes instead.
    assert targets((await ui.press(ALICE, no or "", where=question)).outputs) == [Target.CLOSE]
    # A refused "Yes" leaves the question as it is (and shows no hand).
    refused = await ui.press(BOB, yes or "", where=question)
    assert targets(refused.outputs) == [Target.ALERT]
    done = await ui.press(ALICE, yes or "", where=question)
    assert targets(done.outputs) == [Target.CLOSE]
    assert done.game is not None and done.game.status is GameStatus.CANCELLED


def test_only_a_question_and_my_hand_are_answered_with_a_new_message() -> None:
    game = Game(1, CHAT, ALICE.ref)
    opening = {verb for verb in Verb if opens_message(token(game, verb))}
    assert opening == {Verb.CANCEL_ASK, Verb.SHOW_HAND}
    assert not opens_message("forged")


@pytest.mark.parametrize("verb", sorted(HAND_VERBS))
async def test_hand_verbs_work_in_the_seated_players_own_private_chat_only(
    quick_ui: Interactions, verb: Verb
) -> None:
    ui = quick_ui
    game = await running(ui)
    arg = "1" if verb is Verb.SELECT else ""
    reply = await ui.press(BOB, token(game, verb, arg), where=mine(BOB))
    assert reply.alert != ui.tr.t("ru", "err-not-here")
    stranger = User(UserRef(Platform.CONSOLE, "9"), "Mallory")
    refused = await ui.press(stranger, token(game, verb, arg), where=mine(stranger))
    assert refused.alert == ui.tr.t("ru", "err-not-here") and targets(refused.outputs) == [
        Target.ALERT
    ]
