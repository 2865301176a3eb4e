"""A DM hand whose edit failed for good is drawn again by the next change.

Regression (Discord's side of the Telegram one,
tests/adapters/telegram/test_failed_hand_edit.py): a DM hand edit that Discord failed
(a 5xx) was still counted as shown by ``Interactions.changed_hands``, so the next
changes, which left that hand's content as it was, did not show it: the player's DM
kept the card he had played until his hand changed again. The publisher now counts
such a hand unshown (``Interactions.hand_unshown``), as a hand never shown.
"""

from __future__ import annotations

from bot import presenters
from bot.models import Game
from tests.adapters.discord.conftest import LogGuard
from tests.adapters.discord.harness import Harness


def hand_as_it_is(h: Harness, game: Game, seat: int) -> bool:
    message = h.dc.message(int(game.messages[f"hand:{seat}"]))
    now = presenters.hand(game, seat, 0, h.tr, "ru").text
    return message["content"] == now and h.hand_is_current(game, message)


async def test_a_dm_hand_whose_edit_failed_is_redrawn_by_the_next_change(
    harness: Harness, log_guard: LogGuard
) -> None:
    h = harness
    game, _ = await h.start_four()
    leader = game.play.turn
    assert leader is not None
    seated = game.seats[leader]
    assert seated is not None and seated.user is not None
    assert hand_as_it_is(h, game, leader)

    # The leader plays; Discord fails the edit of his DM hand.
    log_guard.expect("503")
    h.dc.fail(f"PATCH /channels/*/messages/{game.messages[f'hand:{leader}']}")
    await h.service.play(game.id, game.version, seated.user, game.play.safe_action(leader))
    await h.settled()
    assert not hand_as_it_is(h, game, leader)  # still shows his card

    # The next player answers: the leader's hand is as it was, and is shown now.
    follower = game.play.turn
    assert follower is not None and follower != leader
    next_seated = game.seats[follower]
    assert next_seated is not None and next_seated.user is not None
    await h.service.play(game.id, game.version, next_seated.user, game.play.safe_action(follower))
    await h.settled()
    assert hand_as_it_is(h, game, leader)
    assert hand_as_it_is(h, game, follower)
