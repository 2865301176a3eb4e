"""Reliability through the fake Discord (docs/tournaments.md, Reliability): the
creator's /stop of a started rated game counts against him unless he is an admin of
the server, and ``/stats`` (his own or another player's) shows the line, or none
for a player without rated games."""

from __future__ import annotations

from bot.models import GameStatus
from bot.presenters.reliability import stats_lines
from bot.reliability import Reliability
from tests.adapters.discord.harness import ALICE, BOB, CAROL, DAVE, EVE, Harness


async def stopped_by_its_creator(h: Harness, creator: int) -> None:
    """``creator`` opens a table, the four sit and he starts it, then stops it."""
    _, table = await h.open_table(creator)
    for user, team in ((ALICE, "A"), (BOB, "B"), (CAROL, "A"), (DAVE, "B")):
        await h.seat(table, user, team)
    await h.click(creator, table, h.t("lobby-start"))
    await h.settled()
    game = await h.game()
    assert game.status is GameStatus.PLAYING
    rec = await h.slash(creator, "stop")
    assert rec.content == h.t("lobby-cancel-confirm") and rec.original is not None
    await h.click(creator, int(rec.original["id"]), h.t("lobby-cancel-yes"))
    await h.settled()
    assert (await h.service.game(game.id)).status is GameStatus.CANCELLED


async def test_stats_shows_who_stopped_a_started_game_not_being_an_admin(
    harness: Harness,
) -> None:
    h = harness
    await stopped_by_its_creator(h, BOB)  # Bob: counted
    await stopped_by_its_creator(h, ALICE)  # Alice owns the server: not
    bob = (await h.slash(BOB, "stats")).content.splitlines()
    assert "🤝 Надёжность: 50% (доиграно 1 из последних 2 игр)" in bob
    alice = (await h.slash(BOB, "stats", {"player": str(ALICE)})).content.splitlines()
    assert stats_lines(Reliability(2, 0), h.tr, "ru")[0] in alice
    eve = (await h.slash(EVE, "stats")).content
    assert "Надёжность" not in eve and "Reliability" not in eve  # no rated game
