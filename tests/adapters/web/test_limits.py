"""The web table's limits and refusals: a frame too big, messages too fast, too many
sockets of one user or one game, messages out of place; a stale press gets its answer
and the fresh state; a fuzz of socket frames (random text, mutated and replayed
tokens, other games' tokens, spectators pressing) changes no game unless a seated
player pressed a current action of his own game."""

from __future__ import annotations

import json
import os
import random
import string
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from adapters.web.connection import Limits
from bot.codec import decode
from bot.models import Game
from tests.adapters.web.harness import Page, Web

FRAMES = int(os.environ.get("KOZEL_WEB_FUZZ_FRAMES", "3000"))


@pytest.fixture
async def web(request: pytest.FixtureRequest) -> AsyncIterator[Web]:
    harness = Web(limits=getattr(request, "param", None))
    await harness.start()
    try:
        yield harness
    finally:
        await harness.stop()


async def opened(web: Web, game: Game, seat: int | None) -> Page:
    page = await web.page({"link": web.link(game, seat)})
    await page.state_at(game.version)
    return page


async def test_a_frame_too_big_is_refused_and_the_socket_stays(web: Web) -> None:
    game = await web.game()
    page = await opened(web, game, 0)
    await page.send(json.dumps({"type": "ping", "pad": "x" * 5000}))
    await page.send({"type": "ping"})
    await page.wait(lambda r: [m for m in r if m["type"] == "pong"])
    assert [m["code"] for m in page.of("error")] == ["too-big"] and page.closed is None


async def test_messages_out_of_place_are_bad_messages(web: Web) -> None:
    game = await web.game()
    fresh = await web.page()
    await fresh.send({"type": "press", "id": 1, "token": "k:p:1:1:lAS"})  # before hello
    await fresh.send("not json")
    await fresh.send({"no": "type"})
    await fresh.wait(lambda r: len(r) >= 3)
    assert [m["code"] for m in fresh.of("error")] == ["bad-message"] * 3
    page = await opened(web, game, 0)
    await page.send({"type": "hello", "link": web.link(game, 1)})  # a second hello
    await page.send({"type": "press", "id": "1", "token": "x"})  # the id must be a number
    await page.wait(lambda r: len(page.of("error")) >= 2)
    assert [m["code"] for m in page.of("error")] == ["bad-message"] * 2
    assert {s["view"]["you"] for s in page.states} == {0}


@pytest.mark.parametrize("web", [Limits(rate=1.0, burst=5)], indirect=True)
async def test_a_page_sending_too_fast_is_told_once_and_its_press_answered(web: Web) -> None:
    game = await web.game()
    page = await opened(web, game, 0)
    for _ in range(30):
        await page.send({"type": "ping"})
    await page.send({"type": "press", "id": 9, "token": "k:p:1:1:lAS"})
    answer = await page.answer(9)
    assert answer["ok"] is False and answer["text"] == web.tr.t("ru", "web-error-rate")
    assert len(page.of("pong")) == 4  # the hello took one of the burst
    assert [m["code"] for m in page.of("error")] == ["rate"]
    assert (await web.service.game(game.id)).version == game.version


@pytest.mark.parametrize("web", [Limits(per_user=2, per_game=5)], indirect=True)
async def test_too_many_sockets_of_a_user_or_a_game_are_refused(web: Web) -> None:
    game = await web.game()
    mine = [await opened(web, game, 0) for _ in range(2)]
    third = await web.page({"link": web.link(game, 0)})
    await third.wait(lambda r: third.closed is not None)
    assert [m["code"] for m in third.of("error")] == ["too-many"] and third.closed == 4429
    others = [await opened(web, game, seat) for seat in (1, 2, None)]
    sixth = await web.page({"link": web.link(game, None)})
    await sixth.wait(lambda r: sixth.closed is not None)
    assert [m["code"] for m in sixth.of("error")] == ["too-many"] and sixth.states == []
    await mine[0].ws.close()
    await mine[0].wait(lambda r: mine[0].closed is not None)
    await web.settle()
    again = await web.page({"link": web.link(game, 0)})
    await again.state_at(game.version)
    assert len(others) == 3


async def test_a_stale_press_gets_its_answer_and_the_fresh_state(web: Web) -> None:
    game = await web.game()
    turn = game.play.turn
    assert turn is not None
    page = await opened(web, game, turn)
    action = next(a for a in page.view["actions"] if a["cards"])
    await page.send({"type": "press", "id": 1, "token": action["token"]})
    assert (await page.answer(1))["ok"] is True
    await web.settle()
    game = await web.service.game(game.id)
    before = len(page.states)
    await page.send({"type": "press", "id": 2, "token": action["token"]})  # again
    answer = await page.answer(2)
    assert answer["ok"] is False and answer["text"]
    fresh = await page.wait(lambda r: page.states[before:])
    assert fresh[-1]["version"] == game.version
    assert (await web.service.game(game.id)).version == game.version


async def test_spectators_and_other_games_tokens_change_nothing(web: Web) -> None:
    game, other = await web.game(), await web.game()
    spectator = await opened(web, game, None)
    turn = game.play.turn
    assert turn is not None
    player = await opened(web, game, turn)
    token = player.view["actions"][0]["token"]
    await spectator.send({"type": "press", "id": 1, "token": token})
    assert (await spectator.answer(1))["ok"] is False
    stranger = await opened(web, other, other.play.turn)
    await stranger.send({"type": "press", "id": 2, "token": token})  # another game's
    assert (await stranger.answer(2))["ok"] is False
    assert (await web.service.game(game.id)).version == game.version


def mutate(rng: random.Random, token: str) -> str:
    chars = list(token)
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(chars))
        chars[i] = rng.choice(string.ascii_letters + string.digits + ":")
    return "".join(chars)


async def test_fuzzed_frames_change_no_game_but_by_a_current_own_action(web: Web) -> None:
    rng = random.Random(int(os.environ.get("KOZEL_WEB_FUZZ_SEED", "5")))
    games = [await web.game(), await web.game(humans=2)]
    pages: list[tuple[Game, int | None, Page]] = []
    for game in games:
        for seat in (0, 1, 2, 3, None):
            if seat is None or web.hub.link(game, seat) is not None:
                pages.append((game, seat, await opened(web, game, seat)))
    seen: list[str] = []
    actions: list[str] = []  # the actions' tokens pages were shown
    applied = 0
    for number in range(FRAMES):
        game, seat, page = rng.choice(pages)
        live = await web.service.game(game.id)
        version = live.version
        view = page.view
        kind = rng.random()
        legit = False
        message: Any
        if kind < 0.3 and view["actions"]:
            token = rng.choice(view["actions"])["token"]
            actions.append(token)
            legit = seat is not None and decode(token).version == version
            message = {"type": "press", "id": number, "token": token}
        elif kind < 0.5 and seen:
            message = {"type": "press", "id": number, "token": rng.choice(seen)}
        elif kind < 0.7 and seen:
            message = {"type": "press", "id": number, "token": mutate(rng, rng.choice(seen))}
        elif kind < 0.8:
            token = rng.choice(actions) if actions else "k:p:1:1:lAS"
            message = {"type": "press", "id": number, "token": token.replace(":p:", ":j:")}
        elif kind < 0.9:
            message = "".join(rng.choice(string.printable) for _ in range(rng.randint(0, 60)))
        else:
            message = {"type": rng.choice(["hello", "press", "pong", "state", ""]), "id": number}
        if isinstance(message, dict) and "token" in message:
            seen.append(message["token"])
        await page.send(message)
        if isinstance(message, dict) and message.get("type") == "press" and "token" in message:
            answer = await page.answer(number)
            await web.settle()
            moved = (await web.service.game(game.id)).version != version
            if answer["ok"]:
                applied += 1
            assert moved == answer["ok"], (message, answer)
            assert not moved or legit, (message, seat, version)
    assert applied > 0
    for _, _, page in pages:
        assert page.closed is None
        versions = [state["version"] for state in page.states]
        assert versions == sorted(versions)


@pytest.mark.parametrize("web", [Limits(total=2)], indirect=True)
async def test_sockets_past_the_total_are_refused_before_they_open(web: Web) -> None:
    game = await web.game()
    first, second = await web.page(), await opened(web, game, 0)
    assert web.client is not None
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await web.client.ws_connect("/ws")
    assert refused.value.status == 503
    await first.ws.close()  # one that never said hello counts too, until it closes
    await first.wait(lambda r: first.closed is not None)
    await web.settle()
    third = await opened(web, game, 1)
    assert third.view["you"] == 1 and second.closed is None
