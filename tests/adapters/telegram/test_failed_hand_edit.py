"""A hand whose edit failed for good is drawn again by the next change.

Regression: a Telegram hand edit that failed outright (a 5xx after the outbox's
retries) was still counted as shown (``Interactions.changed_hands`` had remembered
its content), so the next changes, which left that hand's content as it was, did not
show it: the player's message kept the card he had played until his hand changed
again. The outbox now tells the publisher of a slot's failed screen, and the hand is
counted unshown (``Interactions.hand_unshown``), as a hand never shown.
"""

from __future__ import annotations

import logging

import pytest

from adapters.telegram import outbox as outbox_module
from bot.models import Game
from tests.adapters.telegram.harness import ErrorLog, Harness
from tests.bot.truth import reading_locales


def caused_failures(h: Harness) -> int:
    """The outbox's failures so far, taken off what fails the test (this test caused
    them): its ERROR lines and its kept failures."""
    for handler in logging.getLogger().handlers:
        if isinstance(handler, ErrorLog):
            handler.records = [r for r in handler.records if r.name != outbox_module.__name__]
    h.adapter.outbox.stats.failures.clear()
    return sum(h.adapter.outbox.stats.failed.values())


def hand_as_it_is(h: Harness, game: Game, seat: int, locale: str) -> bool:
    message = h.hand_message(game, seat)
    assert message is not None
    return message.text == h.interactions.hand_view(game, seat, 0, locale).text


async def test_a_hand_whose_edit_failed_for_good_is_redrawn_by_the_next_change(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(outbox_module, "_NETWORK_RETRIES", 1)  # one retry, then given up
    people = [h.user(uid, name) for uid, name in ((1, "Lev"), (2, "Mia"), (3, "Ned"), (4, "Ola"))]
    game = await h.four_seated(people)
    locales = await reading_locales(h.interactions, game)
    leader = game.play.turn
    assert leader is not None
    seated = game.seats[leader]
    assert seated is not None and seated.user is not None
    assert hand_as_it_is(h, game, leader, locales[leader])

    # The leader plays; the edit of his hand fails (the Bot API answers 500, twice).
    h.tg.failing.add(("editMessageText", int(seated.user.id)))
    await h.service.play(game.id, game.version, seated.user, game.play.safe_action(leader))
    await h.settle()
    assert caused_failures(h) == 1
    assert not hand_as_it_is(h, game, leader, locales[leader])  # still shows his card
    h.tg.failing.clear()

    # The next player answers: the leader's hand is as it was, and is shown now.
    follower = game.play.turn
    assert follower is not None and follower != leader
    next_seated = game.seats[follower]
    assert next_seated is not None and next_seated.user is not None
    before = game.version
    await h.service.play(game.id, game.version, next_seated.user, game.play.safe_action(follower))
    await h.settle()
    assert game.version == before + 1
    assert hand_as_it_is(h, game, leader, locales[leader])
    assert hand_as_it_is(h, game, follower, locales[follower])
