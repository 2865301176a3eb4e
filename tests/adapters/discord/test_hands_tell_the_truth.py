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
from core.yard.actions import ActionKind
from core.yard.ai import safe_move
from testing.fakes.discord import FakeDiscord
from tests.adapters.classic_play import (
    HOUSE_RULES,
    DeckRandom,
    Plan,
    Played,
    Script,
    classic,
    kinds_in,
    play_classic,
)
from tests.adapters.discord.harness import ALICE, BOB, CAROL, DAVE, Harness
from tests.adapters.discord.test_classic import DiscordTable, open_classic
from tests.bot.truth import hand_lies, table_lies


class SlowSaves(MemoryStorage):
    """A storage whose every save lets the event loop run first (the bot's deliveries
    go on while a change is being saved)."""

    async def save_game(self, *args: Any, **kwargs: Any) -> None:
        for _ in range(20):
            await asyncio.sleep(0)
        await super().save_game(*args, **kwargs)


async def locales(h: Harness, game: Game) -> dict[int, str]:
    """The language each person's hand reads in."""
    out = {}
    for seat, player in game.humans:
        assert player.user is not None
        out[seat] = await h.interactions.user_locale(player.user, game.settings.locale)
    return out


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


def discards(game: Game) -> int:
    people = {seat for seat, _ in game.humans}
    return sum(
        1
        for deal in game.play.series.deals
        for action in deal.actions
        if action.kind is ActionKind.DISCARD and action.seat in people
    )


async def play_yard(h: Harness, game: Game, deals: int) -> int:
    """The people make safe moves through their DMs until deal ``deals`` begins; after
    every move (the computers' answers made, every message out) the screens must tell
    the truth. The moves made."""
    users = {seat: int(player.user.id) for seat, player in game.humans if player.user}
    languages = await locales(h, game)
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
    assert moves >= 30 and discards(game) >= 1


async def test_two_people_and_two_computers_while_saves_are_slow(
    dc: FakeDiscord, tr: Translator
) -> None:
    h = Harness(dc, SlowSaves(), tr, seed=4)
    await h.start()
    try:
        _, table = await h.open_table()
        await h.seat(table, ALICE, "A")
        await h.seat(table, BOB, "B")
        await h.click(ALICE, table, h.t("lobby-add-computer-a"))
        await h.click(ALICE, table, h.t("lobby-add-computer-b"))
        await h.click(ALICE, table, h.t("lobby-start"))
        game = await h.game()
        moves = await play_yard(h, game, deals=2)
        game = await h.service.game(game.id)
        assert moves >= 10 and discards(game) >= 1
    finally:
        await h.stop()


async def test_classic_dms_and_table_name_the_engines_trump_after_every_press(
    dc: FakeDiscord, tr: Translator
) -> None:
    rng = DeckRandom(9)
    h = Harness(dc, MemoryStorage(), tr, rng=rng)
    await h.start()
    try:
        game, table = await open_classic(h, [ALICE, BOB, CAROL, DAVE], HOUSE_RULES)
        plan = Plan(rng.next_dealer())
        rng.decks.extend(plan.decks())
        await h.click(ALICE, table, h.t("lobby-start"))
        played = await classic_truth(h, game.id, plan.script, deals=4)
        kinds = set(kinds_in(played.game.play.record()))
        assert {"redeal", "accept_trump", "praise:pants", "praise:mirror", "praise:simple"} <= kinds
    finally:
        await h.stop()


async def classic_truth(h: Harness, game_id: int, script: Script | None, deals: int) -> Played:
    """The people play (``script``, else the computer player's choice) until deal
    ``deals`` begins; after every press the screens must tell the truth."""
    await h.settled()
    game = await h.service.game(game_id)
    languages = await locales(h, game)
    checked = 0

    def truthful_until_done(game: Game) -> bool:
        nonlocal checked
        assert not lies(h, game, languages), lies(h, game, languages)
        checked += 1
        dealing = classic(game).current
        return dealing is not None and dealing.number >= deals

    played = await play_classic(DiscordTable(h), game_id, script=script, until=truthful_until_done)
    assert checked >= played.presses > 0
    return played


async def test_a_selection_answered_after_the_players_turn_came_does_not_hide_it(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A waiting player selects a card in his DM; before his press is answered, the
    player before him leads, and his turn comes (that DM edit goes out first). The
    answer, drawn before, must not stay over it: his DM shows his turn."""
    h = harness
    game, _ = await h.start_four()
    languages = await locales(h, game)
    deal = game.play.series.current
    assert deal is not None and deal.turn is not None
    leader, waiting = deal.turn, (deal.turn + 1) % 4
    press = h.interactions.press

    async def press_then_lead(user: Any, token: str, **kwargs: Any) -> Any:
        reply = await press(user, token, **kwargs)
        if user.ref == game.seats[waiting].user:  # type: ignore[union-attr]
            lead = safe_move(deal.view(leader))
            await h.service.play(game.id, game.version, game.seats[leader].user, lead)  # type: ignore[union-attr]
            await h.service.settle()
            await h.adapter.publisher.idle()  # his turn is shown
        return reply

    monkeypatch.setattr(h.interactions, "press", press_then_lead)
    user = int(game.seats[waiting].user.id)  # type: ignore[union-attr]
    rec = await h.click(user, h.hand_id(game, user), select_a_card)
    assert rec.callback_type == 7  # answered in the DM, with the older screen
    await h.settled()
    assert game.play.series.current.turn == waiting  # type: ignore[union-attr]
    assert not lies(h, game, languages), lies(h, game, languages)
    assert h.hand_is_current(game, h.dc.message(h.hand_id(game, user)))


def select_a_card(label: str, custom_id: str) -> bool:
    return decode(custom_id).verb is Verb.SELECT
