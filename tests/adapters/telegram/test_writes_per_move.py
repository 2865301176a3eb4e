"""What one move writes to Telegram (issue 14): the presser's hand, the hand of the seat
to act next and the table; a waiting player's hand only when his cards change."""

from __future__ import annotations

import random
from collections import Counter

from bot.models import ChatRef, Game, GameStatus, Platform
from tests.adapters.telegram.harness import GROUP, Harness

CHAT = ChatRef(Platform.TELEGRAM, str(GROUP))
WRITES = ("sendMessage", "editMessageText")


def _writes(h: Harness, since: int) -> Counter[int]:
    return Counter(int(c.params["chat_id"]) for c in h.tg.calls[since:] if c.method in WRITES)


async def _moves(h: Harness, game: Game, count: int) -> list[tuple[int, int, Counter[int], bool]]:
    """Human moves through the hand messages: (presser's chat, presses, writes by chat,
    whether the move ended a trick or a deal)."""
    rng = random.Random(5)
    out = []
    while len(out) < count:
        await h.service.settle()
        deal = game.play.series.current
        assert deal is not None and deal.turn is not None and game.status is GameStatus.PLAYING
        player = game.seats[deal.turn]
        assert player is not None and player.user is not None and not player.plays_itself
        calls, tricks = len(h.tg.calls), deal.trick_number
        deals = len(game.play.series.deals)
        answered = len(h.tg.callback_answers)
        await h.play_turn(game.id, rng)
        await h.settle()
        presses = len(h.tg.callback_answers) - answered
        current = game.play.series.current
        over = len(game.play.series.deals) != deals or (
            current is not None and current.trick_number != tricks
        )
        out.append((int(player.user.id), presses, _writes(h, calls), over))
    return out


async def test_four_humans_a_move_writes_the_presser_the_next_hand_and_the_table(
    h: Harness,
) -> None:
    humans = [h.user(i, f"P{i}") for i in range(1, 5)]
    game = await h.four_seated(humans)
    moves = await _moves(h, game, 12)
    total = 0
    for index, (presser, presses, writes, over) in enumerate(moves):
        total += sum(writes.values())
        assert writes[presser] == presses, "each press of his shows his hand, once"
        assert writes[GROUP] == 1, "one table edit a move"
        if not over:
            nxt = moves[index + 1][0] if index + 1 < len(moves) else None
            hands = {chat for chat in writes if chat != GROUP}
            assert hands <= {presser, nxt} or nxt is None, writes
            if nxt is not None:
                assert writes[nxt] == 1, "the next player's turn"
    presses = sum(p for _, p, _, _ in moves)
    # Without the selections (one edit each): the move itself.
    assert (total - presses) / len(moves) <= 2.5


async def test_one_human_and_three_computers(h: Harness) -> None:
    alice = h.user(1, "Alice")
    game = await h.four_seated([alice])
    moves = await _moves(h, game, 8)
    for presser, presses, writes, over in moves:
        assert presser == alice.id
        # His hand after the move and the computers' answers (linger: one edit,
        # unless his hand changes again), one or two table edits.
        assert writes[alice.id] <= presses + 1
        assert 1 <= writes[GROUP] <= 2
        assert set(writes) <= {alice.id, GROUP}
        if not over:
            assert sum(writes.values()) - presses <= 3
