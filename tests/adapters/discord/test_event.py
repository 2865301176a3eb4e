"""A Swiss evening on Discord (issue 33, point 2) through the fake Discord: the admin
opens it with ``/event``, eight players register four pairs with the registration
message's buttons (each press edits that message in place; a forged press is one
ephemeral line and changes nothing), the admin starts it from the same message, the
tables of each round are played through the players' DM hands, and the channel gets
each round's tables, ONE standings message edited as tables end, and the final
standings with their picture; no message of the channel shows a card of a hand."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest

from adapters.discord import render
from bot.codec import CodecError, Verb, decode
from bot.event import Event, EventError, EventState, OpenWords
from bot.i18n import Translator
from bot.memory import MemoryStorage
from bot.models import ChatRef, Platform, User
from bot.ports import Announcer
from bot.presenters import card_label
from bot.presenters import event as screens
from bot.reliability import Reliability
from bot.service import GameService
from bot.service.events import Events
from testing.fakes.discord import EPHEMERAL, JSON, FakeDiscord
from tests.adapters.discord.harness import ALICE, CHANNEL, GUILD, FixedClock, Harness, ref

CHAT = ChatRef(Platform.DISCORD, str(CHANNEL))
#: Another channel of the server, where a forged press comes from.
ELSEWHERE = 201
#: A thread of the channel, where another evening is run.
THREAD = 301
#: Eight players (alice, the server's owner, runs the event and does not play).
PLAYERS = list(range(21, 29))
LOCALE = "ru"
SUITS = "♠♣♥♦"
#: The hand's buttons: a card or a move.
HAND_VERBS = {Verb.SELECT, Verb.PLAY}


@pytest.fixture
async def dc() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as fake:
        fake.add_guild(GUILD, "Club", owner_id=ALICE)
        fake.add_channel(GUILD, CHANNEL, "kozel")
        fake.add_channel(GUILD, ELSEWHERE, "general")
        fake.add_thread(GUILD, THREAD, parent_id=CHANNEL, name="Friday evening")
        fake.add_user(ALICE, "alice", guild_ids=[GUILD])
        for n, user in enumerate(PLAYERS, start=1):
            fake.add_user(user, f"player{n}", guild_ids=[GUILD])
        yield fake  # conftest's harness runs the bot in it


def public(dc: FakeDiscord, channel: int = CHANNEL) -> list[JSON]:
    """The channel's messages everybody sees, oldest first."""
    return [m for m in dc.messages(channel) if not m["flags"] & EPHEMERAL]


def labels(message: JSON) -> list[str]:
    return [label or "" for label, _, _ in FakeDiscord.buttons(message)]


def hand_buttons(message: JSON) -> list[str]:
    found = []
    for label, custom_id, _ in FakeDiscord.buttons(message):
        try:
            if decode(custom_id or "").verb in HAND_VERBS:
                found.append(label or "")
        except CodecError:
            continue
    return found


async def current(h: Harness, event_id: int | None = None) -> Event:
    """The channel's event (``event_id``: that one, also over)."""
    if event_id is not None:
        return await h.service.events.event(event_id)
    event = await h.service.events.chat_event(CHAT)
    assert event is not None
    return event


async def hidden_cards_shown(h: Harness, event: Event, channel: int = CHANNEL) -> list[str]:
    """What the channel shows of a hand: a card still in a hand of a running table in
    that table's message (but the trump card, dealt face up), a hand's button
    anywhere, a suit in an event's message."""
    shown: list[str] = []
    tables: dict[int, list[str]] = {}
    for table in event.tables:
        game = await h.service.game(table.game_id)
        deal = game.play.series.current
        held: list[str] = []
        if deal is not None and deal.result is None:
            # The trump card is dealt face up (the rules show it, and who took it).
            face_up = deal.trump_card
            for seat in range(4):
                hand = deal.hand(seat)
                held += [card_label(card, LOCALE) for card in hand if card != face_up]
        if "table" in game.messages:
            tables[int(game.messages["table"])] = held
    for message in public(h.dc, channel):
        text = " ".join([message["content"], *labels(message)])
        shown += hand_buttons(message)
        in_hands = tables.get(int(message["id"]))
        if in_hands is None:  # the event's own messages: names and points only
            if message["content"].startswith(("🏆", "📊")):
                shown += [suit for suit in SUITS if suit in text]
        else:
            shown += [card for card in in_hands if card in text]
    return shown


async def play_round(h: Harness, event: Event, channel: int = CHANNEL) -> int:
    """The players of the round's tables make safe moves with their DM hands until
    every table is over; after each move, nothing of a hand shows in the channel.
    Returns the moves made."""
    moves = 0
    while True:
        await h.settled()
        open_games = []
        for table in event.round_tables(event.round):
            game = await h.service.game(table.game_id)
            if game.status.is_open:
                open_games.append(game)
        if not open_games:
            return moves
        for game in open_games:
            deal = game.play.series.current
            if deal is None or deal.result is not None or deal.turn is None:
                continue
            player = game.seats[deal.turn]
            assert player is not None and player.user is not None
            await h.play(game.id, int(player.user.id))
            moves += 1
        await h.settled()
        assert await hidden_cards_shown(h, event, channel) == []


async def test_a_swiss_evening_is_registered_started_and_played_in_a_channel(
    harness: Harness, tr: Translator
) -> None:
    h = harness  # the bot over in-memory storage, in this module's server

    def t(msg_id: str, **args: int) -> str:
        return tr.t(LOCALE, msg_id, **args)

    rec = await h.slash(ALICE, "event", {"words": "open rounds 2 deals 1"})
    assert rec.original is not None and not rec.ephemeral
    registration = int(rec.original["id"])
    event = await current(h)
    assert event.state is EventState.OPEN and (event.rounds, event.deals) == (2, 1)

    # --- Four pairs register through the registration message's buttons -------------
    names = {user: f"player{n}" for n, user in enumerate(PLAYERS, start=1)}
    for pair in range(4):
        first, second = PLAYERS[2 * pair], PLAYERS[2 * pair + 1]
        rec = await h.click(first, registration, t("event-new-pair"))
        assert rec.callback_type == 6  # acknowledged; the message is edited in its lane
        await h.settled()
        shown = h.dc.message(registration)["content"]
        assert f"{pair + 1}. {names[first]} & {t('event-open-seat')}" in shown
        rec = await h.click(second, registration, t("event-join", team=pair + 1))
        assert rec.callback_type == 6
        await h.settled()
        shown = h.dc.message(registration)["content"]
        assert f"{pair + 1}. {names[first]} & {names[second]}" in shown
    event = await current(h)
    assert [len(team.players) for team in event.teams] == [2, 2, 2, 2]
    assert h.dc.message(registration)["content"] == render.content(
        screens.registration(event, tr, LOCALE).text
    )

    # Two presses answered at once: the newer screen stays, whatever the order their
    # answers come in (an older one given after it is dropped).
    older = event.with_(version=event.version - 1, teams=event.teams[:3])
    presses = h.adapter.presses
    newer_screen = screens.registration(event, tr, LOCALE)
    presses._edit_in_place(CHAT, registration, newer_screen, event.version)
    older_screen = screens.registration(older, tr, LOCALE)
    presses._edit_in_place(CHAT, registration, older_screen, older.version)
    await h.settled()
    assert h.dc.message(registration)["content"] == render.content(
        screens.registration(event, tr, LOCALE).text
    )

    # --- Forged presses: one ephemeral line each, nothing changes -------------------
    before = (h.dc.message(registration)["content"], labels(h.dc.message(registration)))
    forged = [
        (screens.token(event, "j9"), None, EventError.NO_PAIR),  # no such pair
        (screens.token(event, "n"), ELSEWHERE, EventError.NONE),  # from another channel
    ]
    for custom_id, channel, code in forged:
        iid = await h.dc.forge(ALICE, registration, custom_id, channel_id=channel)
        answer = await h.answered(iid, loaded=True)
        await h.adapter.running.idle()
        assert answer.callback_type == 4 and answer.ephemeral
        assert answer.content == t(f"err-{code}")
    assert (h.dc.message(registration)["content"], labels(h.dc.message(registration))) == before
    assert await current(h) == event

    # --- The admin starts it: round 1's tables, its announcement, the standings -----
    rec = await h.click(ALICE, registration, t("event-start"))
    assert rec.callback_type == 6
    await h.settled()
    event = await current(h)
    assert event.state is EventState.RUNNING and event.round == 1
    assert t("event-start") not in labels(h.dc.message(registration))  # closed
    texts = [m["content"] for m in public(h.dc)]
    round_text = render.content(screens.round_tables(event, tr, LOCALE).text)
    assert texts.count(round_text) == 1
    tables = [await h.service.game(table.game_id) for table in event.round_tables()]
    assert len(tables) == 2
    channel_ids = {int(m["id"]) for m in public(h.dc)}
    assert {int(game.messages["table"]) for game in tables} <= channel_ids
    standings = [m for m in public(h.dc) if m["content"].startswith("📊")]
    assert len(standings) == 1
    standings_id = int(standings[0]["id"])
    assert event.standings_message == str(standings_id)  # kept by the service
    assert standings[0]["content"] == render.content(
        screens.standings_screen(event, tr, LOCALE).text
    )
    assert await hidden_cards_shown(h, event) == []

    # --- Both rounds are played to the end -----------------------------------------
    moves = await play_round(h, event)
    event = await current(h)
    assert event.round == 2 and event.state is EventState.RUNNING
    round_text = render.content(screens.round_tables(event, tr, LOCALE).text)
    assert [m["content"] for m in public(h.dc)].count(round_text) == 1
    moves += await play_round(h, event)
    await h.settled()
    event = await current(h, event.id)
    assert event.state is EventState.FINISHED and moves > 0
    assert all(table.result is not None for table in event.tables) and len(event.tables) == 4

    # --- One standings message, edited; the final standings with their picture ------
    final_text = render.content(screens.standings_screen(event, tr, LOCALE).text)
    assert event.standings_message == str(standings_id)
    kept = h.dc.message(standings_id)
    assert kept["content"] == final_text and kept["edited_timestamp"] is not None
    assert not [m for m in public(h.dc) if m["content"].startswith("📊")]
    with_final = [m for m in public(h.dc) if m["content"] == final_text]
    assert [int(m["id"]) for m in with_final if not m["attachments"]] == [standings_id]
    [final] = [m for m in with_final if m["attachments"]]
    assert [a["filename"] for a in final["attachments"]] == ["result.png"]
    png = [data for name, data in h.dc.uploads if name == "result.png"]
    assert len(png) >= 1 and png[-1].startswith(b"\x89PNG")
    assert int(final["id"]) > standings_id
    assert event.end_shown
    assert await hidden_cards_shown(h, event) == []
    # The players' hands came by DM: every player got one.
    assert all(h.dc.dm_messages(user) for user in PLAYERS)
    assert ref(PLAYERS[0]) in {p.user for team in event.teams for p in team.players}


async def test_an_evening_opened_in_a_thread_is_shown_in_that_thread_only(
    harness: Harness, tr: Translator
) -> None:
    """A thread (or a forum's post) is a channel of its own: an evening opened there
    registers, announces its tables, keeps its standings and posts the final ones in
    the thread; the channel the thread belongs to gets nothing."""
    h = harness

    def t(msg_id: str, **args: int) -> str:
        return tr.t(LOCALE, msg_id, **args)

    rec = await h.slash(ALICE, "event", {"words": "open rounds 1 deals 1"}, channel=THREAD)
    assert rec.original is not None and rec.original["channel_id"] == str(THREAD)
    registration = int(rec.original["id"])
    for pair in range(4):
        first, second = PLAYERS[2 * pair], PLAYERS[2 * pair + 1]
        await h.click(first, registration, t("event-new-pair"))
        await h.settled()
        await h.click(second, registration, t("event-join", team=pair + 1))
        await h.settled()
    assert await h.service.events.chat_event(CHAT) is None  # not the channel's
    event = await h.service.events.chat_event(ChatRef(Platform.DISCORD, str(THREAD)))
    assert event is not None and [len(team.players) for team in event.teams] == [2, 2, 2, 2]
    await h.click(ALICE, registration, t("event-start"))
    await h.settled()
    event = await current(h, event.id)
    shown = {int(m["id"]): m["content"] for m in public(h.dc, THREAD)}
    tables = [await h.service.game(table.game_id) for table in event.round_tables()]
    assert len(tables) == 2 and {int(g.messages["table"]) for g in tables} <= set(shown)
    assert render.content(screens.round_tables(event, tr, LOCALE).text) in shown.values()
    assert event.standings_message is not None and int(event.standings_message) in shown
    assert await play_round(h, event, THREAD) > 0
    await h.settled()
    event = await current(h, event.id)
    assert event.state is EventState.FINISHED and event.end_shown
    final = render.content(screens.standings_screen(event, tr, LOCALE).text)
    with_final = [m for m in public(h.dc, THREAD) if m["content"] == final]
    assert [bool(m["attachments"]) for m in with_final] == [False, True]  # edited, pictured
    assert await hidden_cards_shown(h, event, THREAD) == []
    assert h.dc.messages(CHANNEL) == []  # the thread's channel got nothing


async def test_with_two_shards_a_running_evening_is_shown_once_when_the_bot_starts(
    tr: Translator, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An evening started while the bot was away (its round not shown yet), in a server
    on shard 1 of 2: the process's one announcer is added once, not once a shard (each
    addition resumes the events), and the start shows the round's tables once and posts
    ONE standings message."""
    added: list[Platform] = []
    add = Events.add_announcer

    def counted(self: Events, platform: Platform, announcer: Announcer) -> None:
        added.append(platform)
        add(self, platform, announcer)

    monkeypatch.setattr(Events, "add_announcer", counted)
    on_shard_1 = (1 << 22) | GUILD
    async with FakeDiscord(shards=2) as dc:
        dc.add_guild(on_shard_1, "Club", owner_id=ALICE)
        dc.add_channel(on_shard_1, CHANNEL, "kozel")
        dc.add_guild(GUILD, "Elsewhere", owner_id=ALICE)
        dc.add_channel(GUILD, ELSEWHERE, "general")
        dc.add_user(ALICE, "alice", guild_ids=[on_shard_1, GUILD])
        for n, user in enumerate(PLAYERS, start=1):
            dc.add_user(user, f"player{n}", guild_ids=[on_shard_1])
        storage = MemoryStorage()
        away = GameService(storage, clock=FixedClock(), rng=random.Random(5), computer_delay=0)
        events = away.events
        admin = User(ref(ALICE), "alice")
        event = await events.open(CHAT, admin, OpenWords(rounds=2, deals=1), is_admin=True)
        for pair in range(4):
            first, second = (User(ref(u), f"player{u - 20}") for u in PLAYERS[2 * pair :][:2])
            event = await events.register(event.id, CHAT, first, None, Reliability())
            event = await events.register(event.id, CHAT, second, pair + 1, Reliability())
        event = await events.start(event.id, CHAT, is_admin=True)
        await away.close()
        assert (event.round, event.round_shown, event.standings_message) == (1, 0, None)

        h = Harness(dc, storage, tr)
        await h.start()
        try:
            assert h.adapter.bot.shard_count == 2
            await h.settled()
            assert added == [Platform.DISCORD]
            assert h.service.events.announcers == {Platform.DISCORD: h.adapter.announcer}
            event = await h.service.events.event(event.id)
            assert event.round_shown == 1 and event.standings_message is not None
            texts = [m["content"] for m in public(dc)]
            round_text = render.content(screens.round_tables(event, tr, LOCALE).text)
            assert texts.count(round_text) == 1
            standings = [m for m in public(dc) if m["content"].startswith("📊")]
            assert [m["id"] for m in standings] == [event.standings_message]
        finally:
            await h.stop()
        assert Platform.DISCORD not in h.service.events.announcers  # removed at the stop


async def test_kick_and_stop_with_the_event_command(harness: Harness, tr: Translator) -> None:
    """``/event words:kick N`` and ``stop`` by the server's owner: a player's own is
    refused; the kicked pair loses its table (its game stopped); the stop stops the
    other table and posts the stopped standings once, kept as shown."""
    h = harness
    events = h.service.events
    admin = User(ref(ALICE), "alice")
    event = await events.open(CHAT, admin, OpenWords(rounds=2, deals=1), is_admin=True)
    for pair in range(4):
        first, second = (User(ref(u), f"player{u - 20}") for u in PLAYERS[2 * pair :][:2])
        event = await events.register(event.id, CHAT, first, None, Reliability())
        event = await events.register(event.id, CHAT, second, pair + 1, Reliability())
    event = await events.start(event.id, CHAT, is_admin=True)
    await h.settled()

    def t(key: str, **values: str | int) -> str:
        return render.content(tr.t(LOCALE, key, **values))

    refused = await h.slash(PLAYERS[0], "event", {"words": "stop"})
    assert refused.ephemeral and refused.content == t("err-event-not-admin")
    table = event.round_tables()[0]
    kicked = await h.slash(ALICE, "event", {"words": f"kick {table.team_b}"})
    assert kicked.content == t("event-kicked", team=str(table.team_b))
    await h.settled()
    event = await current(h, event.id)
    assert event.round_tables()[0].result is not None
    assert (await h.service.game(table.game_id)).status.value == "cancelled"

    answered = await h.slash(ALICE, "event", {"words": "stop"})
    assert answered.content == t("event-stopped-line")  # a command is answered
    await h.settled()
    event = await current(h, event.id)
    assert event.state is EventState.STOPPED and event.end_shown
    other = event.round_tables()[1]
    assert (await h.service.game(other.game_id)).status.value == "cancelled"
    stopped = render.content(screens.standings_screen(event, tr, LOCALE).text)
    assert [m["content"] for m in public(h.dc)].count(stopped) == 1
    assert await events.chat_event(CHAT) is None
