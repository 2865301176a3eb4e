"""Command spam never delays a game (issue 23, point 3), through the real handlers
against the fake Bot API: the game's screens go before answers to commands in the
same chat, answers to the same command coalesce, and a user who floods gets one
"slow down" and is ignored for a while."""

from __future__ import annotations

import random

from adapters.telegram.outbox import ANSWERS_PER_CHAT
from bot import presenters
from bot.codec import Verb
from bot.flood import PRESSES, FloodGuard
from bot.models import ChatRef, Platform
from testing.fakes.telegram import FakeTelegram
from tests.adapters.telegram.harness import GROUP, Harness
from tests.adapters.telegram.test_chats import with_computers

CHAT = ChatRef(Platform.TELEGRAM, str(GROUP))
WRITES = ("sendMessage", "editMessageText")


def group_writes(tg: FakeTelegram, since: int = 0) -> list[tuple[str, str]]:
    """The writes into the group that went through (method, text), from call ``since``."""
    return [
        (call.method, str(call.params.get("text")))
        for call in tg.calls[since:]
        if call.method in WRITES and call.params.get("chat_id") == GROUP and call.status == 200
    ]


async def test_200_help_and_200_top_do_not_delay_the_tables_next_edit(h: Harness) -> None:
    """Regression: 200 ``/help`` put the table's next edit at place 198 of the
    group's queue (about 10 minutes at Telegram's 20 a minute). The group's bucket is
    held empty (429) while 200 ``/help`` and 200 ``/top`` come and a move is made;
    once it refills, the table's edit is the group's very next write, and the 400
    commands cost a few answers, not 400."""
    tg, box = h.tg, h.adapter.outbox
    alice = h.user(1, "Alice")
    game, _ = await with_computers(h, alice, GROUP)
    await h.settle()  # the computers moved: Alice's turn
    people = [h.user(100 + n, f"User {n}") for n in range(40)]  # 10 commands each
    tg.hold(GROUP, retry_after=1)
    for n in range(200):
        await tg.send_text(people[n % 40], GROUP, "/help")
        await tg.send_text(people[(n + 7) % 40], GROUP, "/top")
    # Every command was handled: all but the first of each coalesced into one answer.
    await tg.wait_for(lambda t: box.stats.coalesced >= 396, timeout=30)
    assert box.queued <= 2
    version = game.version
    await h.play_turn(game.id, random.Random(3))
    assert game.version > version  # the move was made: its table edit waits in the queue
    released = len(tg.calls)
    tg.release()
    await h.settle()
    writes = group_writes(tg, released)
    assert writes[0] == ("editMessageText", h.expected_table(game)), writes[:3]
    answers = [text for method, text in group_writes(tg) if method == "sendMessage"]
    helps = [text for text in answers if text == help_text(h)]
    assert 1 <= len(helps) <= 2 and len(answers) <= 5, answers  # 2 or 3 answers in all


def help_text(h: Harness) -> str:
    return presenters.help(h.tr, "ru").text


async def test_a_command_flooder_gets_one_slow_down_and_is_ignored(h: Harness) -> None:
    """A user sending commands faster than bot.flood.COMMANDS allows gets ONE "slow
    down", then nothing; another user's commands are answered as ever."""
    tg = h.tg
    mallory, bob = h.user(6, "Mallory"), h.user(2, "Bob")
    for _ in range(60):
        await tg.send_text(mallory, GROUP, "/help")
    await h.settle()
    slow_down = h.tr.t("ru", "err-too-many-commands")
    texts = [text for _, text in group_writes(tg)]
    assert texts.count(slow_down) == 1
    assert 1 <= texts.count(help_text(h)) <= 2  # coalesced
    assert len(texts) == texts.count(help_text(h)) + 1
    assert (await h.command(bob, GROUP, "/help")).text == help_text(h)
    before = len(group_writes(tg))
    await tg.send_text(mallory, GROUP, "/help")  # still ignored
    await h.settle()
    assert len(group_writes(tg)) == before


async def test_answers_waiting_in_a_chat_are_bounded_and_the_chat_told(h: Harness) -> None:
    """40 users ask 40 different things at once: at most ``ANSWERS_PER_CHAT`` wait
    (and one going out); the others are dropped, and the chat is told once."""
    tg, box = h.tg, h.adapter.outbox
    people = [h.user(100 + n, f"User {n}") for n in range(40)]
    tg.hold(GROUP, retry_after=1)
    for number, person in enumerate(people):
        await tg.send_text(person, GROUP, f"/rules {number}")
    await tg.wait_for(lambda t: box.stats.dropped >= 40 - ANSWERS_PER_CHAT - 1, timeout=30)
    assert box.queued <= ANSWERS_PER_CHAT + 1
    tg.release()
    await h.settle()
    texts = [text for _, text in group_writes(tg)]
    dropped = h.tr.t("ru", "notice-answers-dropped")
    assert texts.count(dropped) == 1
    # The ten waiting (and the one going out, if it had gone when the others came).
    assert len(texts) - 1 in (ANSWERS_PER_CHAT, ANSWERS_PER_CHAT + 1)
    assert len(texts) - 1 + box.stats.dropped == len(people)


async def test_a_press_flooder_gets_one_alert_and_the_others_play_on(h: Harness) -> None:
    """Presses have their own bucket (bot.flood.PRESSES): a flood of presses gets
    every query answered (the spinner stops), one alert saying so, and nothing done;
    another user's press works at once."""
    tg = h.tg
    # The real limits, presses too, on a clock that stands still: the burst is not
    # topped up while the 60 presses go through (on a slow machine they take > 0.2 s).
    h.interactions.flood = FloodGuard(lambda: 0.0)
    alice, mallory = h.user(1, "Alice"), h.user(6, "Mallory")
    lobby = await h.command(alice, GROUP, "/kozel")
    forged = "k:j:999:1:A"  # a Join of a game that does not exist
    queries = [await tg.press(mallory, GROUP, lobby.message_id, forged) for _ in range(60)]
    await tg.wait_for(lambda t: all(q in t.callback_answers for q in queries), timeout=10)
    texts = [tg.callback_answers[q].get("text") for q in queries]
    assert texts.count(h.tr.t("en", "err-too-many-presses")) == 1
    assert texts.count(h.tr.t("en", "err-unknown-game")) == int(PRESSES.burst)
    assert texts.count(None) == 60 - int(PRESSES.burst) - 1
    await h.press_lobby(alice, lobby, Verb.JOIN, "A")  # Alice is not held up
