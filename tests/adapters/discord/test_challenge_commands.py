"""The challenge option of /kozel and /top through the fake Discord: asked in a
server's channel, the answer points to the DM and nothing is made; a forged id gets
one line; in the DM, /kozel challenge:daily starts the day's first deal there."""

from __future__ import annotations

import discord

from bot.models import ChatRef, Platform
from tests.adapters.discord.harness import ALICE, CHAT, Harness, ref


async def test_a_challenge_in_a_channel_points_to_the_dm(harness: Harness) -> None:
    h = harness
    rec = await h.slash(ALICE, "kozel", {"challenge": "daily"})
    assert rec.content == h.t("err-challenge-in-group")
    assert await h.service.open_game(CHAT) is None
    rec = await h.slash(ALICE, "top", {"challenge": "zzzzzz"})
    assert rec.content == h.t("err-challenge-unknown")


async def test_a_challenge_in_the_dm_starts_its_first_deal_and_its_table_answers(
    harness: Harness,
) -> None:
    h = harness
    await h.adapter.bot.create_dm(discord.Object(ALICE))
    dm = h.dc.dm_channel(ALICE)
    assert dm is not None
    await h.slash(ALICE, "kozel", {"challenge": "daily"}, channel=dm)
    await h.settled()
    game = await h.service.open_game(ChatRef(Platform.DISCORD, str(dm)))
    assert game is not None and game.settings.challenge_deal == 0
    assert game.seat_of(ref(ALICE)) == 0
    header = h.t("challenge-table-header", id=game.settings.challenge, deal=1, deals=8)
    assert any((m["content"] or "").startswith(header) for m in h.dc.messages(dm))
    rec = await h.slash(ALICE, "top", {"challenge": "daily"}, channel=dm)
    # Nobody finished a deal yet.
    assert rec.content == h.t("challenge-top-empty", id=game.settings.challenge)
