"""Table edits are coalesced; buttons carry the shared codec; long texts are split."""

from __future__ import annotations

import re

from adapters.discord import render
from adapters.discord.buttons import TEMPLATE
from bot import presenters
from bot.codec import Command, Verb, encode
from bot.presenters import Button, Screen
from testing.fakes.discord import FakeDiscord
from tests.adapters.discord.harness import ALICE, CHANNEL, Harness, ref


async def test_a_fast_series_of_changes_costs_few_table_edits(
    harness: Harness, dc: FakeDiscord
) -> None:
    h = harness
    game, table = await h.open_table()
    dc.rate_limit(f"PATCH /channels/{CHANNEL}/messages/{table}", times=1, retry_after=0.2)
    timeouts = ("t30", "t60", "t120", "t300", "t0", "t30")
    await h.service.change_setting(game.id, None, ref(ALICE), timeouts[0])
    await dc.wait_for(lambda: any(c.status == 429 for c in dc.calls))
    for arg in timeouts[1:]:  # while the first edit waits out its 429
        await h.service.change_setting(game.id, None, ref(ALICE), arg)
    await h.settled()
    edits = [c.status for c in dc.calls if c.method == "PATCH" and c.path.endswith(f"/{table}")]
    assert edits == [429, 200, 200]  # the first (retried), then only the latest
    game = await h.service.game(game.id)
    assert dc.message(table)["content"] == presenters.lobby(game, h.tr, "ru").text
    assert game.settings.turn_timeout == 30


def test_every_token_matches_the_buttons_template() -> None:
    template = re.compile(TEMPLATE)
    for verb in Verb:
        for arg in ("", "A", "bAS6S7S8S9S", "ff", "l" + "TS" * 4):
            token = encode(Command(verb, 36**12 - 1, 36**12 - 1, arg))
            assert template.fullmatch(token), token
    assert not template.fullmatch("join:7") and not template.fullmatch("k:p:1:2:b-AS")


def test_views_render_screens_within_discord_limits() -> None:
    token = encode(Command(Verb.SELECT, 1, 2, "0"))
    screen = Screen(
        "x" * 2500, ((Button("a" * 90, token), Button("b", token)), (Button("c", token),))
    )
    view = render.view(screen)
    assert view.is_finished()  # never stored by discord.py
    (only,) = view.children  # the same action twice is shown once
    assert len(only.to_component_dict()["label"]) == 80
    assert len(render.content(screen.text)) == 2000 and render.content(" ") == render.BLANK
    parts = render.chunks("\n".join(["y" * 1500] * 3 + ["z" * 4100]))
    assert [len(p) for p in parts] == [1500, 1500, 1500, 2000, 2000, 100]
