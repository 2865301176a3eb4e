"""The web table beside the Discord bot: a player's DM hand offers "Open the table in
the browser" (his own signed link), and ``/kozel web`` gives it to him alone; without
the web table neither is there."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest

from bot import presenters
from bot.i18n import Translator
from bot.memory import MemoryStorage
from bot.models import Game
from testing.fakes.discord import FakeDiscord, FakeInteraction
from tests.adapters.discord.harness import ALICE, BOB, CAROL, EVE, GUILD, Harness, ref
from tests.adapters.web.harness import Page


@pytest.fixture
async def web_harness(dc: FakeDiscord, tr: Translator) -> AsyncIterator[Harness]:
    async with Harness(dc, MemoryStorage(), tr, web=True).running() as h:
        yield h


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


# --- /kozel web new: a player revokes his links and gets a new one ---------------------


class Pages:
    """Pages of the web table (sockets to the bot's web server), closed at the end."""

    def __init__(self, h: Harness, session: aiohttp.ClientSession) -> None:
        self.h, self.session, self.opened = h, session, list[Page]()

    async def open(self, token: str) -> Page:
        """A page opened with ``token``."""
        web = self.h.web_app
        assert web is not None and web.port is not None
        page = Page(await self.session.ws_connect(f"http://127.0.0.1:{web.port}/ws"))
        page.task = asyncio.create_task(page._read())
        self.opened.append(page)
        await page.send({"type": "hello", "link": token})
        return page

    async def refused(self, token: str) -> list[str]:
        """The error codes a page opened with ``token`` gets before it is closed."""
        page = await self.open(token)
        await page.wait(lambda r: page.closed is not None)
        return [m["code"] for m in page.of("error")]


@pytest.fixture
async def pages(web_harness: Harness) -> AsyncIterator[Pages]:
    async with aiohttp.ClientSession() as session:
        opened = Pages(web_harness, session)
        try:
            yield opened
        finally:
            for page in opened.opened:
                await page.ws.close()
                if page.task is not None:
                    await page.task


def link_of(rec: FakeInteraction) -> str:
    assert rec.original is not None
    [url] = [
        c["url"]
        for row in rec.original.get("components", [])
        for c in row.get("components", [])
        if c.get("url")
    ]
    return parse_qs(urlsplit(url).query)["t"][0]


def hand_link(h: Harness, game: Game, user: int) -> str:
    [(_, url)] = links(h, h.hand_id(game, user))
    return parse_qs(urlsplit(url).query)["t"][0]


def tokens(h: Harness, game: Game) -> list[str | None]:
    assert h.web_app is not None and h.web_app.hub is not None
    return [h.web_app.hub.link(game, seat) for seat in (*range(4), None)]


async def test_kozel_web_and_web_new_are_offered_among_the_choices(web_harness: Harness) -> None:
    """The presets' choices once replaced the web table's: ``/kozel web`` was offered
    to nobody (a test that sends a value Discord's client would not could not see it)."""
    h = web_harness
    option, _challenge = h.dc.command("kozel")["options"]
    values = [choice["value"] for choice in option["choices"]]
    assert "web" in values and "web new" in values
    assert "classic 001" in values and len(values) <= 25


async def test_web_new_revokes_the_players_old_links_and_gives_a_new_one(
    web_harness: Harness, pages: Pages
) -> None:
    h = web_harness
    game, _ = await h.start_four()
    seat = game.seat_of(ref(BOB))
    assert seat is not None
    old = link_of(await h.slash(BOB, "kozel", {"set": "web"}))
    page = await pages.open(old)
    assert (await page.state_at(game.version))["view"]["you"] == seat
    others = tokens(h, game)

    rec = await h.slash(BOB, "kozel", {"set": "web new"})

    assert rec.ephemeral and rec.original is not None
    locale = "en" if h.t("web-renew-text", "en") in rec.original["content"] else "ru"
    assert rec.original["content"] == h.t("web-renew-text", locale)
    new = link_of(rec)
    assert new != old
    await page.wait(lambda r: page.closed is not None)
    assert page.of("error")[-1]["code"] == "revoked" and page.closed == 4403
    assert await pages.refused(old) == ["revoked"]
    fresh = await pages.open(new)
    game = await h.service.game(game.id)
    assert (await fresh.state_at(game.version))["view"]["you"] == seat
    # Only his seat's links changed: the others' and the spectators' stay as they were.
    now = tokens(h, game)
    assert [t for i, t in enumerate(now) if i != seat] == [
        t for i, t in enumerate(others) if i != seat
    ]
    # /kozel web gives the new link from now on, and his DM hand carries it at once.
    assert link_of(await h.slash(BOB, "kozel", {"set": "web"})) == new
    await h.dc.wait_for(lambda: hand_link(h, game, BOB) == new)


async def test_web_new_pressed_twice_leaves_only_the_newest_link(
    web_harness: Harness, pages: Pages
) -> None:
    h = web_harness
    game, _ = await h.start_four()
    seat = game.seat_of(ref(CAROL))
    assert seat is not None
    first = link_of(await h.slash(CAROL, "kozel", {"set": "web new"}))
    second = link_of(await h.slash(CAROL, "kozel", {"set": "web new"}))
    assert first != second
    assert await pages.refused(first) == ["revoked"]
    game = await h.service.game(game.id)
    page = await pages.open(second)
    assert (await page.state_at(game.version))["view"]["you"] == seat


async def test_web_new_of_a_spectator_or_outsider_is_refused_and_changes_nothing(
    web_harness: Harness, pages: Pages
) -> None:
    h = web_harness
    h.dc.add_user(99, "zed", guild_ids=[GUILD])  # in the guild, never at the table
    game, _ = await h.start_four()
    before = tokens(h, game)
    bob = await pages.open(before[game.seat_of(ref(BOB)) or 0] or "")
    await bob.state_at(game.version)
    for user in (EVE, 99):
        rec = await h.slash(user, "kozel", {"set": "web new"})
        assert rec.ephemeral and rec.original is not None
        assert rec.original["content"] in (
            h.t("web-renew-not-seated", "ru"),
            h.t("web-renew-not-seated", "en"),
        )
        assert not rec.original.get("components")
    after = await h.service.game(game.id)
    assert tokens(h, after) == before
    assert not any(key.startswith("web:") for key in after.messages)
    assert bob.closed is None and not bob.of("error")


async def test_web_new_without_a_game_says_so(web_harness: Harness) -> None:
    h = web_harness
    rec = await h.slash(BOB, "kozel", {"set": "web new"})
    assert rec.ephemeral and rec.original is not None
    assert rec.original["content"] in (h.t("web-link-none", "ru"), h.t("web-link-none", "en"))


# --- A seat watched on the web: its DM hand is not edited (issue 32, part 2) ----------


def dm_writes(h: Harness, message_id: int, since: int) -> int:
    """PATCHes of a DM hand message, and messages posted to its channel."""
    channel = h.dc.message(message_id)["channel_id"]
    return sum(
        1
        for c in h.dc.calls[since:]
        if (c.method == "PATCH" and c.path.endswith(f"/messages/{message_id}"))
        or (c.method == "POST" and c.path == f"/channels/{channel}/messages")
    )


async def alice_plays_from_the_page(
    h: Harness, page: Page, game: Game, done: Callable[[Game, int], bool]
) -> Game:
    """Alice plays from her page, Bob from his DM hand, the computers by themselves,
    until ``done(game, Alice's moves)``; the game then, every message out."""
    alice, moves = game.seat_of(ref(ALICE)), 0
    while True:
        await h.settled()
        game = await h.service.game(game.id)
        assert game.status.is_open
        if done(game, moves):
            return game
        if game.play.turn == alice:
            view = (await page.state_at(game.version))["view"]
            action = next(a for a in view["actions"] if a["cards"])
            await page.send({"type": "press", "id": moves, "token": action["token"]})
            assert (await page.answer(moves))["ok"]
            moves += 1
        elif game.play.turn == game.seat_of(ref(BOB)):
            await h.play(game.id, BOB)
        else:
            await h.dc.wait_for(lambda g=game, v=game.version: g.version > v)  # a computer


async def test_a_seat_with_its_page_open_gets_no_dm_edits_and_one_redraw_when_it_closes(
    web_harness: Harness, pages: Pages
) -> None:
    h = web_harness
    game, _ = await h.start_two_with_computers()
    alice = game.seat_of(ref(ALICE))
    hand = h.hand_id(game, ALICE)
    since = len(h.dc.calls)
    page = await pages.open(hand_link(h, game, ALICE))
    game = await alice_plays_from_the_page(h, page, game, lambda _, moves: moves == 6)
    assert alice is not None
    assert dm_writes(h, hand, since) == 0, "Alice's DM hand is left as it was"
    assert not h.hand_is_current(game, h.dc.message(hand))
    closed = len(h.dc.calls)
    await page.ws.close()
    await h.dc.wait_for(lambda: h.hand_is_current(game, h.dc.message(hand)))
    await h.settled()
    assert dm_writes(h, hand, closed) == 1, "redrawn once, with what she holds"


def hand_shows(h: Harness, game: Game, user: int, message: dict[str, object]) -> bool:
    """Whether a hand message shows the user's hand as it is now: its text, and
    buttons of the game's current version."""
    seat = game.seat_of(ref(user))
    assert seat is not None
    now = presenters.hand(game, seat, 0, h.tr, "ru").text
    return message["content"] == now and h.hand_is_current(game, message)


async def test_my_hand_in_the_channel_shows_the_current_hand_while_the_page_is_open(
    web_harness: Harness, pages: Pages
) -> None:
    """The quiet-hands rule keeps a seat's DM hand as it was while its page is open;
    "My hand" pressed in the channel is an answer the player asked for: it shows his
    hand as it is now, and so does it after he plays from it (not the hand last
    published before the page opened)."""
    h = web_harness
    game, table = await h.start_two_with_computers()
    alice = game.seat_of(ref(ALICE))
    hand = h.hand_id(game, ALICE)
    page = await pages.open(hand_link(h, game, ALICE))
    await page.state_at(game.version)  # the page is open: the hub told Interactions
    # She plays from the page until her DM hand is an old one and her turn came again.
    game = await alice_plays_from_the_page(
        h, page, game, lambda g, moves: moves > 0 and g.play.turn == alice
    )
    assert not hand_shows(h, game, ALICE, h.dc.message(hand))  # the quiet DM hand

    rec = await h.click(ALICE, table, h.t("table-hand-button"))
    assert rec.ephemeral and rec.original is not None
    mine = int(rec.original["id"])
    assert hand_shows(h, game, ALICE, h.dc.message(mine))

    await h.play(game.id, ALICE, message_id=mine)  # she plays from it
    await h.settled()
    game = await h.service.game(game.id)
    assert hand_shows(h, game, ALICE, h.dc.message(mine))
    assert not hand_shows(h, game, ALICE, h.dc.message(hand))  # the DM is left as it was
