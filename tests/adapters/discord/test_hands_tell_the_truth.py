"""Every DM hand tells the truth about what is its seat's own (issue 31, points 1 and
2): after every move, each player's DM hand (as the fake Discord holds it) lists
exactly the cards the engine says he holds and names the deal's trump as the engine
has it, and so does the channel's table: a yard game with face-down discards and
refills, a slow storage beside computers, and a classic game with a redeal, a
last-trump exchange and pants, mirror and simple praises."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from adapters.discord import render
from bot.codec import Verb, decode
from bot.i18n import Translator
from bot.memory import MemoryStorage
from bot.models import Game, GameStatus
from testing.fakes.discord import FakeDiscord
from tests.adapters.classic_play import DeckRandom, kinds_in, play_telling_the_truth
from tests.adapters.discord.harness import Harness
from tests.adapters.discord.test_classic import DiscordTable, start_planned
from tests.bot.truth import (
    hand_lies,
    people_discards,
    press_then_lead,
    reading_locales,
    table_lies,
)


class SlowSaves(MemoryStorage):
    """A storage whose every save lets the event loop run first (the bot's deliveries
    go on while a change is being saved)."""

    async def save_game(self, *args: Any, **kwargs: Any) -> None:
        for _ in range(20):
            await asyncio.sleep(0)
        await super().save_game(*args, **kwargs)


def lies(h: Harness, game: Game, locales: dict[int, str]) -> list[str]:
    """What the people's DM hands and the table say that the engine does not, and where
    a DM hand is not the hand as it is now."""
    found = []
    for seat, locale in locales.items():
        player = game.seats[seat]
        assert player is not None and player.user is not None
        text = str(h.dc.message(h.hand_id(game, int(player.user.id)))["content"])
        found += hand_lies(game, seat, text, h.tr, locale)
        if text != render.content(h.interactions.hand_view(game, seat, 0, locale).text):
            found.append(f"seat {seat}'s DM hand is not as it is now: {text!r}")
    table = str(h.dc.message(h.table_id(game))["content"])
    return found + table_lies(game, table, h.tr, game.settings.locale)


async def play_yard(h: Harness, game: Game, deals: int) -> int:
    """The people make safe moves through their DMs until deal ``deals`` begins; after
    every move (the computers' answers made, every message out) the screens must tell
    the truth. The moves made."""
    users = {seat: int(player.user.id) for seat, player in game.humans if player.user}
    languages = await reading_locales(h.interactions, game)
    moves = 0
    while True:
        await h.settled()
        game = await h.service.game(game.id)
        assert not lies(h, game, languages), (moves, lies(h, game, languages))
        deal = game.play.series.current
        if game.status is not GameStatus.PLAYING or deal is None or deal.number >= deals:
            return moves
        assert deal.turn in users, "the computers moved"
        await h.play(game.id, users[deal.turn])
        moves += 1


async def test_four_people_each_dm_lists_what_its_seat_holds_after_every_move(
    harness: Harness,
) -> None:
    h = harness
    game, _ = await h.start_four()
    moves = await play_yard(h, game, deals=2)
    game = await h.service.game(game.id)
    assert moves >= 30 and people_discards(game) >= 1


async def test_two_people_and_two_computers_while_saves_are_slow(
    dc: FakeDiscord, tr: Translator
) -> None:
    h = Harness(dc, SlowSaves(), tr, seed=4)
    await h.start()
    try:
        game, _ = await h.start_two_with_computers()
        moves = await play_yard(h, game, deals=2)
        game = await h.service.game(game.id)
        assert moves >= 10 and people_discards(game) >= 1
    finally:
        await h.stop()


async def test_classic_dms_and_table_name_the_engines_trump_after_every_press(
    dc: FakeDiscord, tr: Translator
) -> None:
    """Four people: a redeal, a last-trump exchange, then pants, mirror and simple
    praises (every step that sets the trump or moves a card between hands)."""
    rng = DeckRandom(9)
    h = Harness(dc, MemoryStorage(), tr, rng=rng)
    await h.start()
    try:
        game, plan = await start_planned(h, rng)
        await h.settled()
        languages = await reading_locales(h.interactions, game)
        played = await play_telling_the_truth(
            DiscordTable(h), game.id, lambda g: lies(h, g, languages), deals=4, script=plan.script
        )
        kinds = set(kinds_in(played.game.play.record()))
        assert {"redeal", "accept_trump", "praise:pants", "praise:mirror", "praise:simple"} <= kinds
    finally:
        await h.stop()


async def test_a_selection_answered_after_the_players_turn_came_does_not_hide_it(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A waiting player selects a card in his DM; before his press is answered, the
    player before him leads, and his turn comes (that DM edit goes out first). The
    answer, drawn before, must not stay over it: his DM shows his turn."""
    h = harness
    game, _ = await h.start_four()
    languages = await reading_locales(h.interactions, game)
    waiting, pressed = press_then_lead(h.interactions, game, h.adapter.publisher.idle)
    monkeypatch.setattr(h.interactions, "press", pressed)
    user = int(game.seats[waiting].user.id)  # type: ignore[union-attr]
    rec = await h.click(user, h.hand_id(game, user), select_a_card)
    assert rec.callback_type == 7  # answered in the DM, with the older screen
    await h.settled()
    assert game.play.series.current.turn == waiting  # type: ignore[union-attr]
    assert not lies(h, game, languages), lies(h, game, languages)
    assert h.hand_is_current(game, h.dc.message(h.hand_id(game, user)))


def select_a_card(label: str, custom_id: str) -> bool:
    return decode(custom_id).verb is Verb.SELECT
