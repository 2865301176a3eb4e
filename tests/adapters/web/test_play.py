"""Whole deals played on the web table only: four players' pages press the actions
their views offer, two spectators follow; after every press every page has the new
state, in version order, and no message any page received shows a card its reader
may not see (:mod:`tests.adapters.web.secrets`)."""

from __future__ import annotations

import random

import pytest

from bot.models import Game, GameStatus
from tests.adapters.web.harness import Page, Web
from tests.adapters.web.secrets import WebSecrets


def deals_of(game: Game) -> int:
    view = game.play.game_view()
    return int(getattr(view, "deals", 0))


async def play_a_deal(web: Web, rule_set: str, seed: int) -> tuple[Game, WebSecrets, int]:
    rng = random.Random(seed)
    game = await web.game(rule_set=rule_set)
    players = [await web.page({"link": web.link(game, seat)}) for seat in range(4)]
    spectators = [await web.page({"link": web.link(game, None)}) for _ in range(2)]
    readers: list[tuple[int | None, Page]] = [*enumerate(players), (None, spectators[0])]
    readers.append((None, spectators[1]))
    for _, page in readers:
        await page.state_at(game.version)
    secrets = WebSecrets()
    secrets.look(game)
    secrets.check(game, readers)
    first_deal, presses = deals_of(game), 0
    while game.status is GameStatus.PLAYING and deals_of(game) == first_deal and presses < 400:
        turn = game.play.turn
        assert turn is not None
        page = players[turn]
        view = (await page.state_at(game.version))["view"]
        assert view["version"] == game.version and view["you"] == turn
        assert view["actions"], view
        # Mostly the obligatory moves (a classic redeal or offer now and then).
        plain = [a for a in view["actions"] if not a["token"].endswith((":r", ":o"))]
        action = rng.choice(plain if plain and rng.random() < 0.9 else view["actions"])
        presses += 1
        await page.send({"type": "press", "id": presses, "token": action["token"]})
        answer = await page.answer(presses)
        assert answer["ok"], (answer, action)
        await web.settle()
        for _, reader in readers:
            await reader.state_at(game.version)
        for _, reader in readers:
            versions = [state["version"] for state in reader.states]
            assert versions == sorted(versions)
        secrets.check(game, readers)
    return game, secrets, presses


@pytest.mark.parametrize("seed", [1, 2])
async def test_four_pages_play_a_whole_yard_deal(web: Web, seed: int) -> None:
    game, secrets, presses = await play_a_deal(web, "yard", seed)
    assert deals_of(game) == 2 or game.status is not GameStatus.PLAYING
    assert presses >= 8 and secrets.checked >= 6 * presses


@pytest.mark.parametrize("seed", [1, 2])
async def test_four_pages_play_a_whole_classic_deal(web: Web, seed: int) -> None:
    game, secrets, presses = await play_a_deal(web, "classic", seed)
    assert deals_of(game) >= 2 or game.status is not GameStatus.PLAYING
    assert presses >= 8 and secrets.checked >= 6 * presses
