"""What one move edits on Discord (issue 14): the presser's hand, the hand of the seat
to act next and the table; a waiting player's DM hand only when his cards change."""

from __future__ import annotations

from collections import Counter

from testing.fakes.discord import FakeDiscord
from tests.adapters.discord.harness import ALICE, BOB, CAROL, CHANNEL, DAVE, Harness, ref


def _edits(dc: FakeDiscord, since: int, channels: dict[int, str]) -> Counter[str]:
    """Message edits and sends since call ``since``, by whose channel (a user's DM or
    "table"); interaction answers count as "answer"."""
    out: Counter[str] = Counter()
    for call in dc.calls[since:]:
        if call.method == "POST" and call.path.startswith("/interactions/"):
            out["answer"] += 1
            continue
        if call.method not in ("PATCH", "POST") or not call.path.startswith("/channels/"):
            continue
        channel = int(call.path.split("/")[2])
        out[channels.get(channel, str(channel))] += 1
    return out


async def test_four_humans_a_move_edits_the_presser_the_next_hand_and_the_table(
    harness: Harness, dc: FakeDiscord
) -> None:
    h = harness
    game, _ = await h.start_four()
    users = (ALICE, BOB, CAROL, DAVE)
    players = {game.seat_of(ref(user)) or 0: user for user in users}
    channels: dict[int, str] = {CHANNEL: "table"}
    for user in users:
        cid = dc.dm_channel(user)
        assert cid is not None
        channels[cid] = str(user)
    moves, total = 0, 0
    while moves < 10:
        await h.settled()
        game = await h.service.game(game.id)
        deal = game.play.series.current
        assert deal is not None and deal.turn is not None and deal.result is None
        presser, tricks = players[deal.turn], deal.trick_number
        since = len(dc.calls)
        action = await h.play(game.id, presser)
        await h.settled()
        game = await h.service.game(game.id)
        after = game.play.series.current
        assert after is not None and after.turn is not None
        edits = _edits(dc, since, channels)
        selections = len(action.cards)  # each answered by editing the pressed message
        assert edits["answer"] == selections + 1
        assert edits["table"] == 1
        hands = {name for name in edits if name not in ("table", "answer")}
        if after.trick_number == tricks:  # no refill: nobody else's cards changed
            assert hands == {str(presser), str(players[after.turn])}, edits
            assert edits[str(players[after.turn])] == 1
        assert edits[str(presser)] == 1  # his DM hand after the move, once
        total += sum(n for name, n in edits.items() if name != "answer")
        moves += 1
    # The table, the presser's hand, the next hand and a refill now and then (every
    # hand on every move made five).
    assert total / moves <= 3.5
