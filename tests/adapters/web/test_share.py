"""Sharing a finished game's result from the web table (issue 32, part 3): a player's
``share`` gets the platform's prepared message (Telegram's ``savePreparedInlineMessage``
id) and the game to ask for; a spectator, or a game not over, gets nothing prepared;
the result picture is served as a JPEG for a finished game's spectators' token only."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from bot.codec import base36
from bot.models import Game, GameStatus, Platform, User
from bot.pictures import SIZE
from core.yard.ai import safe_move
from tests.adapters.web.harness import PLAYERS, Web


class Sharer:
    """Telegram's side, as the web table sees it: each call, and the prepared id."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, User]] = []

    async def __call__(self, game: Game, user: User) -> str | None:
        self.calls.append((game.id, user))
        return f"prepared-{len(self.calls)}"


@pytest.fixture
def sharer(web: Web) -> Sharer:
    sharer = Sharer()
    web.interactions.sharers[Platform.TELEGRAM] = sharer
    return sharer


async def finished(web: Web) -> Game:
    """A game of four players, each making the safe move in turn, to its end."""
    game = await web.game()
    for _ in range(5000):
        await web.settle()
        game = await web.service.game(game.id)
        if game.status is GameStatus.FINISHED:
            return game
        deal = game.play.series.current
        assert deal is not None and deal.turn is not None
        move = safe_move(deal.view(deal.turn))
        await web.service.play(game.id, game.version, PLAYERS[deal.turn].ref, move)
    raise AssertionError("the game did not end")


async def shared(web: Web, hello: dict[str, Any], share_id: int = 7) -> dict[str, Any]:
    page = await web.page(hello)
    await page.wait(lambda r: page.states)
    await page.send({"type": "share", "id": share_id})
    found = await page.wait(lambda r: [m for m in r if m.get("type") == "shared"])
    assert found, page.received[-3:]
    reply: dict[str, Any] = found[-1]
    assert reply["id"] == share_id
    return reply


async def test_a_player_of_a_finished_game_gets_the_platforms_prepared_message(
    web: Web, sharer: Sharer
) -> None:
    game = await finished(web)
    reply = await shared(web, {"link": web.link(game, 0)})
    assert reply == {
        "type": "shared",
        "id": 7,
        "ok": True,
        "query": base36(game.id),
        "prepared": "prepared-1",
    }
    assert sharer.calls == [(game.id, User(PLAYERS[0].ref, PLAYERS[0].name))]


async def test_a_spectator_or_a_game_not_over_gets_nothing_prepared(
    web: Web, sharer: Sharer
) -> None:
    running = await web.game()
    assert await shared(web, {"link": web.link(running, 0)}) == {
        "type": "shared",
        "id": 7,
        "ok": False,
    }
    game = await finished(web)
    assert (await shared(web, {"link": web.link(game, None)}))["ok"] is False
    assert sharer.calls == []


async def test_a_bad_share_message_is_refused_and_changes_nothing(web: Web, sharer: Sharer) -> None:
    game = await finished(web)
    page = await web.page({"link": web.link(game, 0)})
    await page.wait(lambda r: page.states)
    await page.send({"type": "share", "id": "seven"})
    errors = await page.wait(lambda r: page.of("error"))
    assert errors[-1]["code"] == "bad-message"
    assert sharer.calls == [] and page.of("shared") == []


async def test_the_result_picture_is_a_jpeg_of_a_finished_game_by_its_spectators_token(
    web: Web,
) -> None:
    client = web.client
    assert client is not None
    running = await web.game()
    response = await client.get(f"/picture/{web.link(running, None)}.jpg")
    assert response.status == 404  # not over
    game = await finished(web)
    token = web.link(game, None)
    response = await client.get(f"/picture/{token}.jpg")
    assert response.status == 200 and response.content_type == "image/jpeg"
    image = Image.open(io.BytesIO(await response.read()))
    assert image.format == "JPEG" and image.size == SIZE
    forged = token[:-3] + ("AAA" if not token.endswith("AAA") else "BBB")
    for bad in (web.link(game, 0), forged, "nothing"):
        response = await client.get(f"/picture/{bad}.jpg")
        assert response.status == 404, bad
