"""Every private hand tells the truth about what is its seat's own (issue 31, points 1
and 2): after every move, each player's hand message (as the fake Bot API holds it)
lists exactly the cards the engine says he holds and names the deal's trump as the
engine has it, and so does the group's table.

- A hand a change gave out is rendered when its message goes out, and only from a
  saved state: one whose turn came while the next change was being saved was never
  drawn. It was lost (the presser's face-down discard stayed in his hand for moves):
  now the change being saved shows it. The storage here lets every queued message go
  out during each save, as a busy machine does.
- A waiting player's refilled hand went out only with his turn, up to 30 s later:
  now nothing holds a hand whose content changed (the table's refresh is held here
  for two minutes, far beyond the test's wait).
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest

from adapters.telegram import Pacing
from bot.codec import Verb
from bot.memory import MemoryStorage
from bot.models import Game, GameStatus
from bot.ports import Storage
from tests.adapters.classic_play import kinds_in, play_telling_the_truth
from tests.adapters.telegram.harness import Harness
from tests.adapters.telegram.test_classic import TelegramTable, start_planned
from tests.bot.truth import (
    hand_lies,
    people_discards,
    press_then_lead,
    reading_locales,
    table_lies,
)

#: Every limit far away, but the table's refresh (what nobody waits for) is held for
#: two minutes.
HOLDING = Pacing(
    group_limit=10_000, group_window=1.0, chat_interval=0.0, global_limit=10_000, refresh=120.0
)
#: Far below any hold: a hand shown within this was not held.
WAIT = 10.0


class SendingWhileSaving(MemoryStorage):
    """A storage whose every save first lets whatever the bot queued go out
    (``during_save``, set once the game runs): the messages of one change are sent
    while the next one is being saved."""

    def __init__(self) -> None:
        super().__init__()
        self.during_save: Callable[[], Awaitable[None]] | None = None

    async def save_game(self, *args: Any, **kwargs: Any) -> None:
        if self.during_save is not None:
            await self.during_save()
        await super().save_game(*args, **kwargs)


@pytest.fixture
def storage() -> Iterator[Storage]:
    yield SendingWhileSaving()


def lies(h: Harness, game: Game, locales: dict[int, str]) -> list[str]:
    """What the people's hand messages and the table say that the engine does not, and
    where a hand message is not the hand as it is now."""
    found = []
    for seat, locale in locales.items():
        message = h.hand_message(game, seat)
        assert message is not None and message.text is not None
        found += hand_lies(game, seat, message.text, h.tr, locale)
        if message.text != h.interactions.hand_view(game, seat, 0, locale).text:
            found.append(f"seat {seat}'s hand is not as it is now: {message.text!r}")
    table = h.table_message(game)
    assert table is not None and table.text is not None
    return found + table_lies(game, table.text, h.tr, game.settings.locale)


def send_while_saving(h: Harness) -> None:
    assert isinstance(h.storage, SendingWhileSaving)
    h.storage.during_save = h.adapter.outbox.drain


async def test_each_hand_lists_what_its_seat_holds_after_every_move_while_saves_are_slow(
    h: Harness,
) -> None:
    people = [h.user(1, "Lev"), h.user(2, "Mia")]
    game = await h.four_seated(people)
    send_while_saving(h)
    languages = await reading_locales(h.interactions, game)
    rng, moves = random.Random(4), 0
    while len(game.play.series.deals) < 3 and game.status is GameStatus.PLAYING:
        await h.play_until(game.id, lambda g: g.seats[g.play.turn] in dict(g.humans).values())
        if game.status is not GameStatus.PLAYING:
            break
        before = game.version
        await h.play_turn(game.id, rng)
        await h.settle()
        moves += 1
        assert game.version > before
        assert not lies(h, game, languages), (moves, lies(h, game, languages))
    assert moves >= 20 and people_discards(game) >= 3


@pytest.mark.parametrize("pacing", [HOLDING], indirect=True)
async def test_a_waiting_players_refilled_hand_is_not_held_for_his_turn(h: Harness) -> None:
    people = [h.user(uid, name) for uid, name in ((1, "Lev"), (2, "Mia"), (3, "Ned"), (4, "Ola"))]
    game = await h.four_seated(people)
    languages = await reading_locales(h.interactions, game)
    rng, tricks = random.Random(6), 0
    while tricks < 6 and game.status is GameStatus.PLAYING:
        deal = game.play.series.current
        assert deal is not None
        trick = (deal.number, deal.trick_number)
        await h.play_turn(game.id, rng)
        deal = game.play.series.current
        if deal is not None and (deal.number, deal.trick_number) != trick:
            tricks += 1  # every seat drew (or a new deal was dealt)
        # Nobody moves meanwhile (four people): every hand comes to show what it is.
        await h.tg.wait_for(lambda _: not lies(h, game, languages), timeout=WAIT)
    assert tricks == 6 and people_discards(game) >= 1
    # Ended at once (not held like a move's table refresh): the bot stops without waiting.
    await h.service.cancel(game.id, None, game.creator)


async def test_classic_hands_and_table_name_the_engines_trump_after_every_press(
    h: Harness,
) -> None:
    """Four people: a redeal, a last-trump exchange, then pants, mirror and simple
    praises (every step that sets the trump or moves a card between hands)."""
    people = [h.user(uid, name) for uid, name in ((1, "Lev"), (2, "Mia"), (3, "Ned"), (4, "Ola"))]
    game, plan = await start_planned(h, people)
    await h.settle()
    languages = await reading_locales(h.interactions, game)
    played = await play_telling_the_truth(
        TelegramTable(h), game.id, lambda g: lies(h, g, languages), deals=4, script=plan.script
    )
    assert {"redeal", "accept_trump", "praise:pants", "praise:mirror", "praise:simple"} <= set(
        kinds_in(played.game.play.record())
    )


async def test_classic_two_people_and_two_computers_while_saves_are_slow(h: Harness) -> None:
    people = [h.user(1, "Lev"), h.user(2, "Mia")]
    game = await h.four_seated(people, rules="classic")
    send_while_saving(h)
    languages = await reading_locales(h.interactions, game)
    played = await play_telling_the_truth(
        TelegramTable(h), game.id, lambda g: lies(h, g, languages), deals=3
    )
    assert played.presses >= 10


async def test_a_selection_answered_after_the_players_turn_came_does_not_hide_it(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A waiting player selects a card; before his press is answered, the player
    before him leads, and his turn comes (that hand goes out first). The answer, drawn
    before, must not stay over it: his hand shows his turn."""
    people = [h.user(uid, name) for uid, name in ((1, "Lev"), (2, "Mia"), (3, "Ned"), (4, "Ola"))]
    game = await h.four_seated(people)
    languages = await reading_locales(h.interactions, game)
    waiting, pressed = press_then_lead(h.interactions, game, h.adapter.outbox.drain)
    monkeypatch.setattr(h.interactions, "press", pressed)
    hand = h.hand_message(game, waiting)
    assert hand is not None
    await h.press_verb(people[waiting], hand, Verb.SELECT)
    await h.settle()
    assert game.play.series.current.turn == waiting  # type: ignore[union-attr]
    assert not lies(h, game, languages), lies(h, game, languages)
