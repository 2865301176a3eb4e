"""Issue 32, part 1: ``/kozel`` offers the channel's table as the app's Discord
Activity (with ``DISCORD_CLIENT_ID`` and ``DISCORD_CLIENT_SECRET``): discord.py's
launch-activity response, Discord starts it in the channel, and the page opened in it
is bound to the user's seat once Discord says who he is. Without a game in the
channel, or when Discord refuses to launch it: one line to him alone. Without the
Activity's settings the choice is not offered. The DM hand keeps its signed link."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import aiohttp
import pytest

from bot.i18n import Translator
from bot.memory import MemoryStorage
from testing.fakes.discord import FakeDiscord
from tests.adapters.discord.harness import ALICE, BOB, CHANNEL, Harness, ref
from tests.adapters.web.harness import Page

LAUNCH_ACTIVITY = 12  # the interaction callback type


@pytest.fixture
async def activity_harness(dc: FakeDiscord, tr: Translator) -> AsyncIterator[Harness]:
    async with Harness(dc, MemoryStorage(), tr, activity=True).running() as h:
        yield h


def choices(dc: FakeDiscord) -> list[str]:
    option, _challenge = dc.command("kozel")["options"]
    return [choice["value"] for choice in option["choices"]]


async def test_kozel_offers_the_activity_only_with_its_settings(
    activity_harness: Harness, dc: FakeDiscord
) -> None:
    values = choices(dc)
    assert "activity" in values and "web" in values and len(values) <= 25


async def test_without_the_activity_kozel_does_not_offer_it(
    dc: FakeDiscord, tr: Translator
) -> None:
    async with Harness(dc, MemoryStorage(), tr, web=True).running() as h:
        assert "activity" not in choices(dc) and "web" in choices(dc)
        # A client that sends the value anyway gets no Activity: it is no rule set.
        rec = await h.slash(ALICE, "kozel", {"set": "activity"})
        assert rec.callback_type != LAUNCH_ACTIVITY


async def test_kozel_activity_launches_the_table_and_the_page_seats_the_player(
    activity_harness: Harness, dc: FakeDiscord
) -> None:
    h = activity_harness
    game, _ = await h.start_four()
    iid = await dc.slash(BOB, CHANNEL, "kozel", {"set": "activity"})
    rec = await h.answered(iid)
    assert rec.callback_type == LAUNCH_ACTIVITY and rec.original is None
    [instance] = [i for i, found in dc.activity_instances.items() if found["users"] == [str(BOB)]]
    # The page Discord opens in it: the code exchanged, the hello bound to Bob's seat.
    web = h.web_app
    assert web is not None and web.port is not None
    base = f"http://127.0.0.1:{web.port}"
    async with aiohttp.ClientSession() as session:
        token = await session.post(f"{base}/discord/token", json={"code": dc.oauth_code(BOB)})
        access = (await token.json())["access_token"]
        page = Page(await session.ws_connect(f"{base}/ws"))
        page.task = asyncio.create_task(page._read())
        discord = {"access_token": access, "instance": instance}
        await page.send({"type": "hello", "discord": discord})
        view = (await page.state_at(0))["view"]
        assert view["you"] == game.seat_of(ref(BOB)) and view["hand"]
        await page.ws.close()
        await page.task
    # His DM hand keeps its signed link to the table in the browser.
    assert any(
        c.get("url", "").startswith("http")
        for row in h.dc.message(h.hand_id(game, BOB)).get("components", [])
        for c in row.get("components", [])
    )


async def test_kozel_activity_without_a_game_here_says_so_to_him_alone(
    activity_harness: Harness, dc: FakeDiscord
) -> None:
    rec = await activity_harness.slash(ALICE, "kozel", {"set": "activity"})
    assert rec.callback_type != LAUNCH_ACTIVITY and rec.ephemeral
    assert rec.content == activity_harness.t("web-error-no-game", "ru")
    assert dc.activity_instances == {}


async def test_kozel_activity_refused_by_discord_says_so_to_him_alone(
    activity_harness: Harness, dc: FakeDiscord
) -> None:
    h = activity_harness
    await h.start_four()
    dc.activities = False  # Activities off in the Developer Portal
    rec = await h.slash(ALICE, "kozel", {"set": "activity"})
    assert rec.ephemeral and rec.content == h.t("web-activity-refused", "ru")
