"""The web table's socket: hello with a signed link, the state of the seat, a press
that moves the game and reaches every page of it, in version order."""

from __future__ import annotations

from tests.adapters.web.harness import Web


async def test_a_press_on_the_web_reaches_every_page_of_the_game(web: Web) -> None:
    game = await web.game()
    pages = [await web.page({"link": web.link(game, seat)}) for seat in range(4)]
    spectator = await web.page({"link": web.link(game, None)})
    for seat, page in enumerate(pages):
        state = await page.state_at(game.version)
        assert state["view"]["you"] == seat and state["view"]["hand"]
    await spectator.state_at(game.version)
    assert spectator.view["you"] is None and spectator.view["hand"] is None
    game = await web.service.game(game.id)
    turn, version = game.play.turn, game.version
    page = pages[turn]
    action = next(a for a in page.view["actions"] if a["cards"])
    await page.send({"type": "press", "id": 1, "token": action["token"]})
    answer = await page.answer(1)
    assert answer["ok"] is True, answer
    for other in [*pages, spectator]:
        state = await other.state_at(version + 1)
        versions = [s["version"] for s in other.states]
        assert versions == sorted(versions)
        assert state["view"]["trick"], state["view"]
