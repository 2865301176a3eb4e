"""Which hands a move shows again: only those whose content changed (issue 14).

A hand shows what is its seat's own; a card played elsewhere changes the table, not
a waiting player's hand. The presser's hand and the hand of the seat to act next are
shown at once; the others only when their content changes (cards refilled, the deal
over). Every platform takes the same decision from :class:`Interactions`.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest

from bot import presenters
from bot.codec import Command, Verb, decode, encode
from bot.i18n import Translator
from bot.interactions import Interactions
from bot.memory import MemoryStorage
from bot.models import ChatRef, Game, GameStatus, User
from bot.outputs import Output, PressReply, Target
from bot.ports import Change, ChangeKind
from bot.presenters.yard import action_arg
from bot.presses import Pressed
from bot.service import GameService
from core.seats import Team
from core.yard.ai import safe_move
from tests.bot.conftest import ALICE, CHAT, PLAYERS, FakeClock


@dataclass
class Shown:
    """One published change: what it was and what it showed."""

    change: Change
    version: int
    turn: int | None
    outputs: list[Output]

    @property
    def hands(self) -> set[int]:
        return {o.seat for o in self.outputs if o.target is Target.HAND and o.seat is not None}


@dataclass
class OutputsPublisher:
    """Shows every change through :meth:`Interactions.outputs`, as a platform does, and
    keeps the latest hand each seat was shown (its buttons are what the player presses)."""

    ui: Interactions | None = None
    shown: list[Shown] = field(default_factory=list)
    hands: dict[int, presenters.Screen] = field(default_factory=dict)

    async def publish(self, game: Game, change: Change) -> None:
        assert self.ui is not None
        outputs = await self.ui.outputs(game, change)
        deal = game.play.series.current
        turn = deal.turn if deal is not None else None
        self.shown.append(Shown(change, game.version, turn, outputs))
        for output in outputs:
            if output.target is Target.HAND and output.seat is not None:
                self.hands[output.seat] = output.screen


@pytest.fixture(scope="module")
def tr() -> Translator:
    return Translator.from_dir()


Setup = tuple[GameService, Interactions, OutputsPublisher]


@pytest.fixture
async def setup(tr: Translator) -> AsyncIterator[Setup]:
    # Computers that answer at once: without a delay their moves in a row are one
    # save and one change (a strong computer thinks without the game's lock, so each
    # of its moves is a save and a change of its own, as every move is with a delay).
    service = GameService(
        MemoryStorage(),
        clock=FakeClock(),
        rng=random.Random(3),
        computer_delay=0,
        turn_timeout=0,
        computer_level="normal",
    )
    ui = Interactions(service, tr)
    publisher = OutputsPublisher(ui)
    service.add_publisher(CHAT.platform, publisher)
    try:
        yield service, ui, publisher
    finally:
        await service.close()


async def _start(service: GameService, humans: int) -> int:
    game = await service.open_table(CHAT, ALICE)
    for index in range(4):
        team = Team.A if index % 2 == 0 else Team.B
        if index < humans:
            if index:
                game = await service.join(game.id, None, PLAYERS[index], team)
            else:
                game = await service.join(game.id, None, ALICE, team)
        else:
            game = await service.add_computer(game.id, None, ALICE.ref, team)
    await service.start(game.id, None, ALICE.ref)
    await service.settle()
    return game.id


async def _press(ui: Interactions, user: User, token: str) -> PressReply:
    """A press on the user's hand, in his private chat with the bot."""
    where = Pressed(ChatRef(CHAT.platform, user.ref.id), owner=user.ref)
    return await ui.press(user, token, where=where)


def _pressed_version(screen: presenters.Screen) -> int:
    """The game version the buttons of a shown hand carry."""
    return decode(next(b.token for b in screen.buttons if b.token)).version


async def _play_deal(
    service: GameService, ui: Interactions, publisher: OutputsPublisher, game_id: int
) -> list[tuple[int, list[Shown]]]:
    """Play one deal through the players' own hand messages (each press carries the
    version of the hand he sees); the changes each human move published."""
    moves: list[tuple[int, list[Shown]]] = []
    game = await service.game(game_id)
    number = game.play.series.current.number  # type: ignore[union-attr]
    while True:
        game = await service.game(game_id)
        deal = game.play.series.current
        if game.status is not GameStatus.PLAYING or deal is None or deal.number != number:
            return moves
        seat = deal.turn
        assert seat is not None and deal.result is None
        hand = publisher.hands[seat]
        assert "👉" in hand.text, "the seat to act was shown its turn"
        action = safe_move(deal.view(seat))
        token = encode(Command(Verb.PLAY, game_id, _pressed_version(hand), action_arg(action)))
        before = len(publisher.shown)
        reply = await _press(ui, PLAYERS[seat], token)
        assert reply.alert is None, reply.alert
        await service.settle()
        moves.append((seat, publisher.shown[before:]))


async def test_four_humans_a_move_shows_the_presser_and_the_next_hand(
    setup: Setup,
) -> None:
    service, ui, publisher = setup
    game_id = await _start(service, 4)
    assert publisher.shown[-1].hands == {0, 1, 2, 3}  # the deal: every hand
    moves = await _play_deal(service, ui, publisher, game_id)
    assert len(moves) >= 9
    hand_edits = 0
    for seat, shown in moves:
        played = shown[0]
        assert played.change.kind in (ChangeKind.PLAYED, ChangeKind.FINISHED)
        assert [o.target for o in played.outputs].count(Target.TABLE) == 1
        hands = played.hands
        hand_edits += len(hands)
        assert seat in hands, "the presser's hand at once"
        if played.turn is not None:
            assert played.turn in hands, "the hand of the seat to act"
        trick_over = any(type(e).__name__ == "TrickTaken" for e in played.change.events)
        if not trick_over:
            # A card played elsewhere leaves the waiting hands as they are.
            assert hands == {seat, played.turn}
    assert hand_edits / len(moves) <= 2.5


async def test_one_human_and_three_computers(
    setup: Setup,
) -> None:
    service, ui, publisher = setup
    game_id = await _start(service, 1)
    moves = await _play_deal(service, ui, publisher, game_id)
    assert moves and all(seat == 0 for seat, _ in moves)
    for _, shown in moves:
        # His move shows his hand; the computers' answers to it (one change) show it
        # again only if it changed (his turn again, cards refilled, the deal over).
        hands = [s.hands for s in shown]
        assert hands[0] == {0}
        for later in shown[1:]:
            assert later.hands <= {0}
    # His hand twice a move of his (after it; when his turn is back): under one hand
    # a move, the computers' moves counted.
    played = [s for _, shown in moves for s in shown]
    actions = sum(
        1
        for s in played
        for e in s.change.events
        if type(e).__name__ in ("CardsLed", "CardsBeaten", "CardsDiscarded", "MolodkaDeclared")
    )
    assert actions > len(moves)
    # And once the next deal's hand, after the deal's last move (the bound without it
    # held only for the seeds whose human happened to move twice in a row somewhere).
    hands = sum(len(s.hands) for s in played)
    assert hands <= 2 * len(moves) + 1 and hands < actions


async def test_a_waiting_players_older_hand_still_selects_and_plays(
    setup: Setup,
) -> None:
    """His hand was not re-drawn while others played: its buttons carry an older
    version, and they work while the hand shows what it shows now."""
    service, ui, publisher = setup
    game_id = await _start(service, 4)
    game = await service.game(game_id)
    deal = game.play.series.current
    assert deal is not None and deal.turn is not None
    waiting = (deal.turn + 3) % 4  # the last to play in this trick
    old = publisher.hands[waiting]
    for _ in range(2):  # two moves elsewhere
        game = await service.game(game_id)
        seat = game.play.series.current.turn  # type: ignore[union-attr]
        action = safe_move(game.play.series.current.view(seat))  # type: ignore[union-attr]
        token = encode(Command(Verb.PLAY, game_id, game.version, action_arg(action)))
        assert (await _press(ui, PLAYERS[seat], token)).alert is None
    assert publisher.hands[waiting] is old
    game = await service.game(game_id)
    assert _pressed_version(old) < game.version
    card = next(b for b in old.buttons if decode(b.token or "").verb is Verb.SELECT)
    reply = await _press(ui, PLAYERS[waiting], card.token or "")
    assert reply.alert is None and reply.hand is not None
    assert presenters.SELECTED_MARK in str([b.label for b in reply.hand.buttons])
    # Once his hand changed (his turn came), a press of the old message is stale.
    game = await service.game(game_id)
    seat = game.play.series.current.turn  # type: ignore[union-attr]
    action = safe_move(game.play.series.current.view(seat))  # type: ignore[union-attr]
    token = encode(Command(Verb.PLAY, game_id, game.version, action_arg(action)))
    assert (await _press(ui, PLAYERS[seat], token)).alert is None
    game = await service.game(game_id)
    assert game.play.series.current.turn == waiting  # type: ignore[union-attr]
    stale = await _press(ui, PLAYERS[waiting], card.token or "")
    assert stale.alert is not None and stale.hand is not None
