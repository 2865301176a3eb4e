"""Refused presses, closed DMs and the ephemeral hand, late and slow interactions."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest

from adapters.discord.buttons import ActionButton
from bot import presenters
from bot.codec import Verb, decode
from bot.i18n import Translator
from bot.interactions import Interactions
from bot.memory import MemoryStorage
from bot.models import ChatRef, GameStatus, Platform
from bot.outputs import PressReply
from bot.presenters.yard import action_arg
from core.yard.ai import safe_move
from testing.fakes.discord import FakeDiscord
from tests.adapters.discord.conftest import LogGuard
from tests.adapters.discord.harness import ALICE, BOB, CAROL, CHANNEL, DAVE, EVE, Harness, ref


class Gate:
    """Holds every press in :meth:`Interactions.press` until opened."""

    def __init__(self, interactions: Interactions, monkeypatch: pytest.MonkeyPatch) -> None:
        self.open = asyncio.Event()
        self.waiting = 0
        self._arrived = asyncio.Condition()
        press = interactions.press

        async def gated(*args: Any, **kwargs: Any) -> PressReply:
            async with self._arrived:
                self.waiting += 1
                self._arrived.notify_all()
            await self.open.wait()
            return await press(*args, **kwargs)

        monkeypatch.setattr(interactions, "press", gated)

    async def held(self, count: int) -> None:
        """Until ``count`` presses wait at the gate."""
        async with self._arrived, asyncio.timeout(5.0):
            await self._arrived.wait_for(lambda: self.waiting >= count)


async def test_wrong_users_are_refused_with_an_ephemeral_note(
    harness: Harness, dc: FakeDiscord
) -> None:
    h = harness
    game, table = await h.open_table()
    await h.seat(table, ALICE, "A")
    await h.seat(table, BOB, "B")
    await h.click(ALICE, table, h.t("lobby-add-computer-a"))
    await h.click(ALICE, table, h.t("lobby-add-computer-b"))
    rec = await h.click(BOB, table, h.t("lobby-start"))  # only the creator starts
    assert rec.ephemeral and rec.content == h.t("err-not-creator")
    rec = await h.click(CAROL, table, h.t("lobby-cancel"))  # nor the creator nor an admin
    assert rec.ephemeral and rec.content == h.t("err-not-allowed")
    await h.click(ALICE, table, h.t("lobby-start"))
    await h.settled()
    version = (await h.service.game(game.id)).version
    rec = await h.click(CAROL, table, h.t("table-hand-button"))  # not at this table
    assert rec.ephemeral and rec.content == h.t("err-not-seated")
    # Refusals change nothing and say nothing in public.
    game = await h.service.game(game.id)
    assert game.status is GameStatus.PLAYING and game.version == version
    assert [int(m["id"]) for m in dc.messages(CHANNEL) if not m["flags"] & 64] == [table]


async def test_a_repeated_press_is_applied_once(harness: Harness, dc: FakeDiscord) -> None:
    h = harness
    game, _ = await h.start_four()
    deal = game.play.series.current
    assert deal is not None and deal.turn is not None
    user = next(u for u in (ALICE, BOB, CAROL, DAVE) if game.seat_of(ref(u)) == deal.turn)
    hand = h.hand_id(game, user)
    action = safe_move(deal.view(deal.turn))
    locale = await h.service.user_locale(ref(user), game.settings.locale)  # the hand's
    for card in action.cards:  # select the cards, as the player would
        await h.click(user, hand, presenters.card_label(card, locale))
    play = h.button(hand, lambda _, custom_id: custom_id.endswith(":" + action_arg(action)))
    version = game.version
    first = await dc.click(user, hand, play)
    second = await dc.click(user, hand, play)  # pressed again before the hand changed
    answers = [await h.answered(first), await h.answered(second)]
    await h.settled()
    after = await h.service.game(game.id)
    assert after.version == version + 1  # applied once
    assert after.play.series.current is not None and after.play.series.current.actions[-1] == action
    # The other press was refused as stale; its hand message shows the game as it is
    # (in the answer, or after the hand's edit it was sending: acknowledged then).
    stale = [a for a in answers if [m["content"] for m in a.followups] == [h.t("err-stale")]]
    assert len(stale) == 1 and stale[0].callback_type in (6, 7)
    assert h.hand_is_current(after, dc.message(hand))


async def test_a_press_on_a_finished_game_is_refused(harness: Harness, dc: FakeDiscord) -> None:
    h = harness
    game, table = await h.start_four()
    hand = h.hand_id(game, BOB)
    card = h.button(hand, lambda _, custom_id: decode(custom_id).verb is Verb.SELECT)
    dm = dc.dm_channel(BOB)
    dc.rate_limit(f"PATCH /channels/{dm}/messages/{hand}", times=1, retry_after=0.3)
    await h.service.cancel(game.id, None, game.creator)
    await dc.wait_for(lambda: any(c.status == 429 for c in dc.calls))
    rec = await h.answered(await dc.click(BOB, hand, card))  # the old hand still shows
    # The pressed hand shows how the game ended, and the press is refused: the hand's
    # edit being sent, the press is acknowledged and its answer shown after that edit.
    assert rec.callback_type == 6
    await h.settled()
    assert [m["content"] for m in rec.followups] == [h.t("err-game-over")]
    assert rec.followups[0]["flags"] & 64  # ephemeral
    assert dc.message(hand)["content"] == h.t("notice-cancelled")
    assert dc.buttons(dc.message(hand)) == [] and dc.buttons(dc.message(table)) == []


async def test_closed_dms_get_told_and_the_ephemeral_hand_plays(
    harness: Harness, dc: FakeDiscord
) -> None:
    h = harness
    game, table = await h.open_table()
    await h.seat(table, ALICE, "A")
    rec = await h.seat(table, EVE, "B")  # eve takes no DMs: she is told at once
    assert rec.callback_type == 6
    assert [m["content"] for m in rec.followups] == [h.t("discord-dm-closed", "en")]
    assert rec.followups[0]["flags"] & 64  # ephemeral
    await h.click(ALICE, table, h.t("lobby-add-computer-a"))
    await h.click(ALICE, table, h.t("lobby-add-computer-b"))
    await h.click(ALICE, table, h.t("lobby-start"))
    await h.settled()
    game = await h.service.game(game.id)
    seat = game.seat_of(ref(EVE))
    assert seat is not None and f"hand:{seat}" not in game.messages
    notice = h.t("discord-dm-closed-public", mention=f"<@{EVE}>")
    assert [m["content"] for m in dc.messages(CHANNEL)].count(notice) == 1
    assert dc.dm_messages(EVE) == []

    rec = await h.click(EVE, table, h.t("table-hand-button"))
    assert rec.ephemeral and rec.callback_type == 4
    note = h.t("discord-hand-here")  # in the table's language, as every hand
    game = await h.service.game(game.id)
    assert rec.content == f"{presenters.hand(game, seat, 0, h.tr, 'ru').text}\n\n{note}"
    ephemeral = int(rec.original["id"])  # type: ignore[index]
    moves = 0
    while moves < 3 and game.status is GameStatus.PLAYING:
        deal = game.play.series.current
        assert deal is not None
        if deal.turn == seat:
            await h.play(game.id, EVE, message_id=ephemeral)
            moves += 1
        elif deal.turn is not None:
            await h.play(game.id, ALICE)
        await h.settled()
        game = await h.service.game(game.id)
    assert moves == 3
    # The ephemeral hand follows the game (edited through the interaction's token).
    hand = presenters.hand(game, seat, 0, h.tr, "ru")
    assert dc.message(ephemeral)["content"] == f"{hand.text}\n\n{note}"


async def test_a_late_interaction_is_survived_and_applied_once(
    harness: Harness, dc: FakeDiscord, monkeypatch: pytest.MonkeyPatch, log_guard: LogGuard
) -> None:
    h = harness
    game, table = await h.open_table()
    gate = Gate(h.interactions, monkeypatch)
    join = h.button(table, h.t("lobby-join-b"))
    late = await dc.click(BOB, table, join)
    again = await dc.click(BOB, table, join)  # pressed twice before anything changed
    await gate.held(2)
    dc.age_interaction(late, 10.0)  # Discord gave up on the first one
    gate.open.set()
    rec = await h.answered(again)
    await h.settled()
    game = await h.service.game(game.id)
    assert [s.user for s in game.seats if s is not None] == [ref(BOB)]
    assert game.version == 1  # one change
    assert dc.responses(late).callback_type is None
    assert rec.ephemeral and rec.content == h.t("err-stale")
    assert any("too late" in w for w in log_guard.warnings())


async def test_slow_work_is_deferred_then_answered(
    dc: FakeDiscord, tr: Translator, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = Harness(dc, MemoryStorage(), tr, defer_after=0.05)
    await h.start()
    try:
        await h.adapter.bot.create_dm(discord.Object(ALICE))
        dm = dc.dm_channel(ALICE)
        assert dm is not None
        rec = await h.slash(ALICE, "kozel", channel=dm)
        await h.settled()
        game = await h.game(ChatRef(Platform.DISCORD, str(dm)))
        table, hand = int(rec.original["id"]), h.hand_id(game, ALICE)  # type: ignore[index]
        gate = Gate(h.interactions, monkeypatch)

        show = await dc.click(ALICE, table, h.button(table, h.t("table-hand-button")))
        rec = await dc.wait_for(lambda: dc.responses(show).callback_type and dc.responses(show))
        assert rec.callback_type == 5 and rec.loading and rec.ephemeral  # "thinking..."
        card = h.button(hand, lambda _, cid: decode(cid).verb is Verb.SELECT)
        select = await dc.click(ALICE, hand, card)
        rec = await dc.wait_for(lambda: dc.responses(select).callback_type and dc.responses(select))
        assert rec.callback_type == 6  # deferred update of the hand message
        gate.open.set()
        await h.settled()
        game = await h.service.game(game.id)
        shown = dc.responses(show)
        assert not shown.loading and shown.content == presenters.hand(game, 0, 0, tr, "ru").text
        labels = [b[0] or "" for b in dc.buttons(dc.message(hand))]
        assert any(label.startswith(presenters.SELECTED_MARK) for label in labels)
    finally:
        await h.stop()


async def test_sent_views_are_never_stored(harness: Harness, dc: FakeDiscord) -> None:
    """discord.py times out a stored ephemeral view after 15 minutes and then drops the
    dynamic item for every message: no view of ours is ever stored."""
    h = harness
    _, table = await h.start_four()
    await h.click(ALICE, table, h.t("table-hand-button"))  # an ephemeral with buttons
    store = h.adapter.bot._connection._view_store
    assert list(store._dynamic_items.values()) == [ActionButton]
    assert store._views == {} and store._synced_message_views == {}
