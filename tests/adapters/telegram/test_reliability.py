"""Reliability through the fake Bot API (docs/tournaments.md, Reliability): the
creator's /stop of a started rated game counts against him unless he is an admin of
the group (``getChatMember``), and ``/stats`` shows each player's line, or none to a
player without rated games."""

from __future__ import annotations

from bot.codec import Verb
from bot.models import ChatRef, GameStatus, Platform
from bot.presenters.reliability import stats_lines
from bot.reliability import Reliability
from testing.fakes.telegram import FakeUser
from tests.adapters.telegram.harness import GROUP, Harness

CHAT = ChatRef(Platform.TELEGRAM, str(GROUP))


async def stopped_by_its_creator(h: Harness, people: list[FakeUser]) -> None:
    """``people[0]`` opens a table, the four sit and he starts it, then stops it."""
    game = await h.four_seated(people)
    question = await h.command(people[0], GROUP, "/stop")
    assert question.text == h.tr.t("ru", "lobby-cancel-confirm")
    await h.press_verb(people[0], question, Verb.CANCEL)
    await h.settle()
    assert (await h.game(game.id)).status is GameStatus.CANCELLED


async def test_stats_shows_who_stopped_a_started_game_not_being_an_admin(h: Harness) -> None:
    alice, bob = h.user(1, "Alice"), h.user(2, "Bob")  # Alice is the group's admin
    carol, dave, eve = h.user(3, "Carol"), h.user(4, "Dave"), h.user(5, "Eve")
    await stopped_by_its_creator(h, [bob, alice, carol, dave])  # Bob: counted
    await stopped_by_its_creator(h, [alice, bob, carol, dave])  # Alice, an admin: not
    lines = {
        person.id: (await h.command(person, GROUP, "/stats")).text.splitlines()
        for person in (alice, bob, eve)
    }
    assert "🤝 Надёжность: 50% (доиграно 1 из последних 2 игр)" in lines[bob.id]
    assert stats_lines(Reliability(2, 0), h.tr, "ru")[0] in lines[alice.id]
    assert not any("Надёжность" in line for line in lines[eve.id])  # no rated game
    assert not h.errors
