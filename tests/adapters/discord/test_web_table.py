"""The web table beside the Discord bot: a player's DM hand offers "Open the table in
the browser" (his own signed link), and ``/kozel web`` gives it to him alone; without
the web table neither is there."""

from __future__ import annotations

from collections.abc import AsyncIterator
from urllib.parse import parse_qs, urlsplit

import pytest

from bot.i18n import Translator
from bot.memory import MemoryStorage
from testing.fakes.discord import FakeDiscord
from tests.adapters.discord.harness import ALICE, BOB, Harness, ref


@pytest.fixture
async def web_harness(dc: FakeDiscord, tr: Translator) -> AsyncIterator[Harness]:
    h = Harness(dc, MemoryStorage(), tr, web=True)
    await h.start()
    try:
        yield h
    finally:
        await h.stop()


def links(h: Harness, message_id: int) -> list[tuple[str, str]]:
    message = h.dc.message(message_id)
    return [
        (c["label"], c["url"])
        for row in message.get("components", [])
        for c in row.get("components", [])
        if c.get("url")
    ]


async def test_the_dm_hand_offers_the_players_own_link(web_harness: Harness) -> None:
    h = web_harness
    game, _ = await h.start_four()
    assert h.web_app is not None and h.web_app.hub is not None
    for user in (ALICE, BOB):
        seat = game.seat_of(ref(user))
        assert seat is not None
        [(label, url)] = links(h, h.hand_id(game, user))
        assert label in (h.t("web-link-button", "ru"), h.t("web-link-button", "en"))
        token = parse_qs(urlsplit(url).query)["t"][0]
        assert token == h.web_app.hub.link(await h.service.game(game.id), seat)


async def test_kozel_web_gives_the_link_to_the_user_alone(web_harness: Harness) -> None:
    h = web_harness
    game, _ = await h.start_four()
    rec = await h.slash(BOB, "kozel", {"set": "web"})
    assert rec.ephemeral and rec.original is not None
    [(_, url)] = [
        (c["label"], c["url"])
        for row in rec.original.get("components", [])
        for c in row.get("components", [])
        if c.get("url")
    ]
    assert h.web_app is not None and h.web_app.hub is not None
    seat = game.seat_of(ref(BOB))
    assert parse_qs(urlsplit(url).query)["t"][0] == h.web_app.hub.link(game, seat or 0)


async def test_without_the_web_table_the_hand_has_no_link(harness: Harness) -> None:
    game, _ = await harness.start_four()
    assert links(harness, harness.hand_id(game, ALICE)) == []
