"""A Swiss evening's commands through the fake Bot API, in a forum topic: /event open
by an admin, the registration through its message's buttons, a non-admin's start
refused, /event start, kick and stop; everything the bot writes stays in the topic,
and no group message shows a card of a hand."""

from __future__ import annotations

from bot.codec import decode
from bot.event import EventState, TableResult
from bot.models import ChatRef, GameStatus, Platform
from bot.presenters import event as screens
from testing.fakes.telegram import FakeMessage
from tests.adapters.classic_play import cards_in
from tests.adapters.telegram.harness import Harness

FORUM, TOPIC = -100778, 7


def event_button(h: Harness, message: FakeMessage, arg: str) -> str:
    found = [
        data
        for _, data in h.tg.buttons(message.chat_id, message.message_id)
        if data is not None and decode(data).arg == arg  # type: ignore[union-attr]
    ]
    assert found, (arg, h.tg.buttons(message.chat_id, message.message_id))
    return found[0]


async def test_an_evening_in_a_forum_topic_from_open_to_stop(h: Harness) -> None:
    tg, tr = h.tg, h.tr
    people = [h.user(n, f"Player{n}") for n in range(1, 9)]
    admin, stranger = people[0], people[1]
    tg.add_group(FORUM, "Kozel forum", admins=[admin.id], forum=True)

    # Only an admin opens, in the group; one line each, nothing made.
    refused = await h.command(stranger, FORUM, "/event open deals 1", thread=TOPIC)
    assert refused.text == tr.t("ru", "err-event-not-admin")
    private = await h.command(admin, admin.id, "/event open")
    assert private.text == tr.t("ru", "err-event-in-private")
    registration = await h.command(admin, FORUM, "/event open deals 1", thread=TOPIC)
    assert registration.thread_id == TOPIC
    event = await h.service.events.chat_event(ChatRef(Platform.TELEGRAM, str(FORUM), "7"))
    assert event is not None and event.deals == 1

    # Four pairs through the registration message: each press shows in it.
    for number, (first, second) in enumerate(zip(people[::2], people[1::2], strict=True), 1):
        await h.press(first, registration, event_button(h, registration, "n"))
        await h.settle()
        await h.press(second, registration, event_button(h, registration, f"j{number}"))
        await h.settle()
        assert f"{first.first_name}" in (registration.text or "")
        assert f"{second.first_name}" in (registration.text or "")
    query = await h.press(stranger, registration, event_button(h, registration, "s"))
    assert tg.callback_answers[query]["text"] == tr.t("en", "err-event-not-admin")  # his language
    event = await h.service.events.event(event.id)
    assert event.state is EventState.OPEN and len(event.teams) == 4

    await h.command(admin, FORUM, "/event start", thread=TOPIC)
    await h.settle()
    event = await h.service.events.event(event.id)
    assert event.state is EventState.RUNNING and len(event.round_tables()) == 2
    for table in event.round_tables():
        game = await h.game(table.game_id)
        assert game.status is GameStatus.PLAYING and game.chat.thread == "7"
        assert h.table_message(game) is not None
    texts = [m.text or "" for m in tg.messages(FORUM) if m.from_id == tg.bot_id]
    head = tr.t("ru", "event-round", round=1, rounds=event.rounds).split("\n")[0]
    assert sum(t.startswith(head) for t in texts) == 1
    assert sum(t.startswith("📊") for t in texts) == 1

    # The registration message behind /event start: a press is refused with one line
    # and the message shows the event as it is (no buttons any more).
    assert tg.buttons(FORUM, registration.message_id)
    query = await h.press(people[2], registration, event_button(h, registration, "n"))
    assert tg.callback_answers[query]["text"] == tr.t("en", "err-event-not-open")
    await h.settle()
    assert not tg.buttons(FORUM, registration.message_id)
    assert registration.text == screens.registration(event, tr, "ru").text
    # A forged event button on a table message changes nothing there.
    table_message = h.table_message(await h.game(event.round_tables()[1].game_id))
    assert table_message is not None
    before = (table_message.text, tg.buttons(FORUM, table_message.message_id))
    forged = screens.token(event, "n")
    query = await h.press(people[2], table_message, forged)
    assert tg.callback_answers[query]["text"] == tr.t("en", "err-event-not-open")
    await h.settle()
    assert (table_message.text, tg.buttons(FORUM, table_message.message_id)) == before

    # Kick a pair: its table is lost by it, its game stopped.
    first = event.round_tables()[0]
    await tg.send_text(admin, FORUM, f"/event kick {first.team_b}", thread_id=TOPIC)
    await h.settle()
    kicked = tr.t("ru", "event-kicked", team=str(first.team_b))
    assert [m.text for m in tg.messages(FORUM)].count(kicked) == 1
    event = await h.service.events.event(event.id)
    assert event.round_tables()[0].result is TableResult.A
    assert (await h.game(first.game_id)).status is GameStatus.CANCELLED

    # Stop: the running table stops, the standings so far are the last word.
    await tg.send_text(admin, FORUM, "/event stop", thread_id=TOPIC)
    stopped = tr.t("ru", "event-stopped", round=1).split("\n")[0]
    await tg.wait_for(
        lambda t: any((m.text or "").startswith(stopped) for m in t.messages(FORUM)) or None
    )
    await h.settle()
    assert [m.text for m in tg.messages(FORUM)].count(tr.t("ru", "event-stopped-line")) == 1
    event = await h.service.events.event(event.id)
    assert event.state is EventState.STOPPED and event.end_shown
    second = event.round_tables()[1]
    assert (await h.game(second.game_id)).status is GameStatus.CANCELLED
    bot_messages = [m for m in tg.messages(FORUM) if m.from_id == tg.bot_id]
    assert {m.thread_id for m in bot_messages} == {TOPIC}
    # The group saw no card of any hand (the trump card lies face up).
    for table in event.round_tables():
        game = await h.game(table.game_id)
        deal = game.play.series.current  # type: ignore[attr-defined]
        hidden = {card for seat in range(4) for card in deal.hand(seat)} - {deal.trump_card}
        assert hidden
        for m in bot_messages:
            assert not cards_in(m.text or "") & hidden, m.text
