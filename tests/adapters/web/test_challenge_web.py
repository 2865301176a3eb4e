"""A challenge deal on the web table: its entrant plays it from his page and sees
only his own cards and the public ones; nobody else opens it, by a spectators' link,
by the Mini App's launch or with the entrant's own link (others play the same cards:
a deal watched is a deal known before its time)."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import AsyncIterator
from urllib.parse import urlencode

import pytest

from adapters.web import links
from adapters.web.telegram import init_data_check
from bot import challenge as challenges
from bot.models import ChatRef, GameStatus, Platform, User, UserRef
from core.ruleset import get_rule_set
from tests.adapters.web.harness import Clock, Web
from tests.adapters.web.secrets import WebSecrets

TOKEN = "123456:TEST-token"
ENTRANT = User(UserRef(Platform.TELEGRAM, "301"), "Аня")
OTHER = User(UserRef(Platform.TELEGRAM, "302"), "Боря")


def init_data(user: User, start: str, auth_date: float) -> str:
    """Launch data as Telegram signs it (as tests/adapters/web/test_auth.py does)."""
    fields = {
        "auth_date": str(int(auth_date)),
        "start_param": start,
        "user": json.dumps({"id": int(user.ref.id), "first_name": user.name}),
    }
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    secret = hmac.new(b"WebAppData", TOKEN.encode(), hashlib.sha256).digest()
    fields["hash"] = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return urlencode(fields)


@pytest.fixture
async def web() -> AsyncIterator[Web]:
    """The web table whose computers answer at once (the normal yard player stands in
    for the challenge's strong one: a deal takes moments)."""
    clock = Clock()
    yard = get_rule_set("yard")
    harness = Web(
        init_data=init_data_check(TOKEN, 3600, clock.now),
        clock=clock,
        players=lambda level: yard.computer("normal"),
    )
    await harness.start()
    try:
        yield harness
    finally:
        await harness.stop()


async def test_a_challenge_deal_is_played_on_its_entrants_page_and_watched_by_nobody(
    web: Web,
) -> None:
    found = await web.service.challenges.find("yard")
    dm = ChatRef(Platform.TELEGRAM, ENTRANT.ref.id)
    game = await web.service.challenges.play(found, dm, ENTRANT)
    assert game.settings.challenge == found.id and game.settings.challenge_deal == 0
    seat = challenges.SEAT

    # Nobody but the entrant: the spectators' link, the Mini App launched by another
    # user or by the entrant's spectators' start, the entrant's link in another's hands.
    spectators = links.sign(b"w" * 32, game.id, None, 0)
    refused = [
        await web.page({"link": spectators}),
        await web.page({"init_data": init_data(OTHER, spectators, web.clock.now())}),
    ]
    for page in refused:
        error = await page.wait(lambda got: [m for m in got if m["type"] == "error"])
        assert error[0]["code"] == "challenge", error
        assert "challenge" in error[0]["text"] or "вызов" in error[0]["text"]
        assert not page.states, "a refused page was shown the deal"
    forged = links.sign(b"w" * 32, game.id, seat, 0, "telegram:302")
    stolen = await web.page({"link": forged})
    error = await stolen.wait(lambda got: [m for m in got if m["type"] == "error"])
    assert error[0]["code"] == "auth" and not stolen.states

    # The entrant plays the whole deal from his page (the Mini App, as he opens it).
    page = await web.page({"init_data": init_data(ENTRANT, spectators, web.clock.now())})
    await web.settle()
    game = await web.service.game(game.id)
    assert (await page.state_at(game.version))["view"]["you"] == seat
    secrets = WebSecrets()
    presses = 0
    while game.status is GameStatus.PLAYING and presses < 100:
        secrets.look(game)
        if game.play.turn == seat:
            view = (await page.state_at(game.version))["view"]
            assert view["actions"], view
            presses += 1
            await page.send({"type": "press", "id": presses, "token": view["actions"][0]["token"]})
            assert (await page.answer(presses))["ok"]
        await web.settle()
        game = await web.service.game(game.id)
        await page.state_at(game.version)
        secrets.check(game, [(seat, page)])
    assert game.status is GameStatus.FINISHED, "the deal's game ends with its one deal"
    assert presses >= 4 and secrets.checked >= presses
    plays = await web.service.challenges.plays(found, ENTRANT.ref)
    assert [(p.deal, p.loss is not None) for p in plays] == [(0, True)]
    # Still nobody else once it is over: the deal is the next entrant's to come.
    late = await web.page({"link": spectators})
    error = await late.wait(lambda got: [m for m in got if m["type"] == "error"])
    assert error[0]["code"] == "challenge" and not late.states
