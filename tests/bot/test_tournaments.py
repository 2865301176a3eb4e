"""Swiss evenings through the service (bot/event.py, bot/service/events.py) on every
storage: registration and its refusals, rounds paired without rematches and played,
the bye against the computers, walk-outs, kick, stop, the final standings, and a
second settle (a restart) that does nothing twice."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest

from bot.errors import ServiceError
from bot.event import MAX_TEAMS, Event, EventError, EventState, OpenWords, TableResult, parse_open
from bot.models import ChatRef, GameStatus, Platform, User, UserRef
from bot.ports import EventNews, Storage
from bot.reliability import Reliability
from bot.service import GameService
from core.swiss import standings
from tests.bot.conftest import FakeClock, RecordingPublisher

GROUP = ChatRef(Platform.CONSOLE, "group")
ADMIN = User(UserRef(Platform.CONSOLE, "admin"), "Admin")
NOBODY = Reliability()
PEOPLE = [User(UserRef(Platform.CONSOLE, str(n)), f"P{n:02}") for n in range(1, 71)]


@pytest.fixture
async def service(storage: Storage) -> AsyncIterator[GameService]:
    svc = GameService(
        storage,
        clock=FakeClock(),
        rng=random.Random(3),
        computer_delay=0,
        turn_timeout=60,
        max_missed=1,
        computer_level="normal",
    )
    svc.add_publisher(Platform.CONSOLE, RecordingPublisher())
    try:
        yield svc
    finally:
        await svc.close()


async def registered(service: GameService, teams: int, words: OpenWords) -> int:
    """An event opened by the admin with ``teams`` complete pairs; its id."""
    events = service.events
    event = await events.open(GROUP, ADMIN, words, is_admin=True)
    for n in range(teams):
        first, second = PEOPLE[2 * n], PEOPLE[2 * n + 1]
        event = await events.register(event.id, GROUP, first, None, NOBODY)
        number = event.team_of(first.ref)
        assert number is not None
        event = await events.register(event.id, GROUP, second, number.number, NOBODY)
    return event.id


async def play_round(service: GameService, event_id: int, *, walk_out: int | None = None) -> None:
    """Every human of the running round's tables plays safe moves until they end;
    ``walk_out``: the team whose first player lets the clock make him away."""
    events = service.events
    playing = (await events.event(event_id)).round
    while True:
        await service.settle()
        event = await events.event(event_id)
        tables = event.round_tables(playing)
        games = [await service.game(t.game_id) for t in tables if t.result is None]
        games = [g for g in games if g.status is GameStatus.PLAYING]
        if not games:
            return
        for game in games:
            seat = game.play.turn
            occupant = None if seat is None else game.seats[seat]
            if seat is None or occupant is None or occupant.plays_itself:
                continue
            team = event.team_of(occupant.user)  # type: ignore[arg-type]
            if (
                team is not None
                and team.number == walk_out
                and team.players[0].user == occupant.user
            ):
                clock = service.clock
                assert isinstance(clock, FakeClock)
                clock.advance(61)
                await service.tick()
                continue
            action = game.play.safe_action(seat)
            await service.play(game.id, game.version, occupant.user, action)  # type: ignore[arg-type]


async def refused(code: str, work: object) -> None:
    with pytest.raises(ServiceError) as caught:
        await work  # type: ignore[misc]
    assert caught.value.code == code


async def test_registration_and_its_refusals(service: GameService) -> None:
    events = service.events
    alice, bob, carol = PEOPLE[:3]
    await refused(EventError.NOT_ADMIN, events.open(GROUP, alice, OpenWords(), is_admin=False))
    event = await events.open(GROUP, ADMIN, OpenWords(min_reliability=80), is_admin=True)
    await refused(EventError.EXISTS, events.open(GROUP, ADMIN, OpenWords(), is_admin=True))
    event = await events.register(event.id, GROUP, alice, None, NOBODY)  # nothing to judge
    await refused(EventError.REGISTERED, events.register(event.id, GROUP, alice, None, NOBODY))
    await refused(EventError.REGISTERED, events.register(event.id, GROUP, alice, 1, NOBODY))
    shaky = Reliability(games=10, walked_out=3)
    with pytest.raises(ServiceError) as caught:
        await events.register(event.id, GROUP, bob, 1, shaky)
    assert caught.value.code == EventError.UNRELIABLE
    assert caught.value.values == {"percent": 70, "minimum": 80}  # type: ignore[attr-defined]
    event = await events.register(event.id, GROUP, bob, 1, Reliability(games=10, walked_out=2))
    await refused(EventError.PAIR_FULL, events.register(event.id, GROUP, carol, 1, NOBODY))
    # Forged presses: another chat's event, a pair that does not exist.
    other = ChatRef(Platform.CONSOLE, "other")
    await refused(EventError.NONE, events.register(event.id, other, carol, None, NOBODY))
    await refused(EventError.NO_PAIR, events.register(event.id, GROUP, carol, 9, NOBODY))
    await refused(EventError.NONE, events.register(event.id + 7, GROUP, carol, None, NOBODY))
    await refused(EventError.NOT_ADMIN, events.start(event.id, GROUP, is_admin=False))
    await refused(EventError.TOO_FEW, events.start(event.id, GROUP, is_admin=True))
    event = await events.leave(event.id, GROUP, bob)
    assert [len(t.players) for t in event.teams] == [1]
    await refused(EventError.NOT_REGISTERED, events.leave(event.id, GROUP, bob))
    stored = await events.event(event.id)
    assert stored == event  # the refusals kept nothing


async def test_registration_closes_at_32_teams(service: GameService) -> None:
    events = service.events
    event = await events.open(GROUP, ADMIN, OpenWords(), is_admin=True)
    for user in PEOPLE[:MAX_TEAMS]:
        event = await events.register(event.id, GROUP, user, None, NOBODY)
    full = events.register(event.id, GROUP, PEOPLE[MAX_TEAMS], None, NOBODY)
    await refused(EventError.FULL, full)
    # A pair's open seat still takes a player.
    event = await events.register(event.id, GROUP, PEOPLE[MAX_TEAMS], 1, NOBODY)
    assert event.teams[0].complete


@pytest.mark.parametrize("locale", ["en", "ru"])
def test_each_example_the_refusals_give_is_taken(locale: str) -> None:
    """The lines that say how to write ``/event open`` show words it takes, in the
    chat's language (the Russian words as well as the English ones)."""
    from bot.event_ui import WORDS
    from bot.i18n import Translator

    tr = Translator.from_dir()
    for code in (EventError.BAD_ROUNDS, EventError.BAD_RELIABILITY, EventError.BAD_DEALS):
        example = tr.t(locale, f"err-{code}").split("/event ")[1].split()
        assert WORDS[example[0]] == "open", example
        assert parse_open(example[1:], ["yard", "classic"]) != OpenWords(), example


def test_the_open_words_and_their_bounds() -> None:
    ids = ["yard", "classic"]
    assert parse_open(["раунды", "3", "раздачи", "1"], ids) == OpenWords(None, 3, 0, 1)
    assert parse_open(["rounds", "3", "deals", "1"], ids) == OpenWords(None, 3, 0, 1)
    for words, error in [
        ("rounds 0", EventError.BAD_ROUNDS),
        ("rounds ten", EventError.BAD_ROUNDS),
        ("min-reliability 101", EventError.BAD_RELIABILITY),
        ("deals 0", EventError.BAD_DEALS),
        ("tomorrow", EventError.BAD_WORDS),
    ]:
        with pytest.raises(ValueError, match=error):
            parse_open(words.split(), ids)


async def test_an_odd_evening_pairs_without_rematches_gives_byes_and_finishes(
    service: GameService,
) -> None:
    """Five teams, three rounds of one-deal tables: each round two tables and a bye
    against the computers, no two teams meet twice, no team has two byes; the event
    finishes with every table's result and the standings."""
    events = service.events
    event_id = await registered(service, 5, OpenWords(rounds=3, deals=1))
    event = await events.start(event_id, GROUP, is_admin=True)
    assert event.state is EventState.RUNNING and event.rounds == 3
    for round_number in (1, 2, 3):
        event = await events.event(event_id)
        assert event.round == round_number
        tables = event.round_tables()
        assert len(tables) == 3 and [t.team_b is None for t in tables] == [False, False, True]
        bye = await service.game(tables[-1].game_id)
        assert [s is not None and s.is_computer for s in bye.seats] == [False, True, False, True]
        game = await service.game(tables[0].game_id)
        team_a = event.team(tables[0].team_a)
        assert team_a is not None
        assert {game.seats[0].user, game.seats[2].user} == {p.user for p in team_a.players}  # type: ignore[union-attr]
        await play_round(service, event_id)
    event = await events.event(event_id)
    assert event.state is EventState.FINISHED and event.finished_at is not None
    assert all(t.result is not None for t in event.tables) and len(event.tables) == 9
    for table in event.tables:  # cut to one deal each
        game = await service.game(table.game_id)
        assert len(game.play.series.deals) == 1, table  # type: ignore[attr-defined]
    meetings = event.met()
    assert len(meetings) == len(set(meetings)) == 6
    assert len(set(event.byes())) == 3
    # Each human table gave one point (or none to both), each bye one or none.
    assert sum(event.score(t.number) for t in event.teams) <= 9
    lines = standings(event.entrants({}), [tuple(m) for m in meetings])
    assert [line.entrant.score for line in lines] == sorted(
        (event.score(t.number) for t in event.teams), reverse=True
    )
    # A second settle (as a restart's) changes nothing.
    await events.settle(event_id)
    assert await events.event(event_id) == event


async def test_a_walk_out_loses_the_table_and_a_kicked_team_loses_its_own(
    service: GameService,
) -> None:
    events = service.events
    event_id = await registered(service, 4, OpenWords(rounds=2, deals=1))
    event = await events.start(event_id, GROUP, is_admin=True)
    first = event.round_tables()[0]
    await play_round(service, event_id, walk_out=first.team_a)
    event = await events.event(event_id)
    walked = next(t for t in event.round_tables(1) if first.team_a in (t.team_a, t.team_b))
    assert walked.result is (TableResult.B if walked.team_a == first.team_a else TableResult.A)
    assert event.round == 2
    # Round 2: the admin kicks a team; its running table is lost by it, its game stopped.
    table = event.round_tables()[0]
    await refused(EventError.NOT_ADMIN, events.kick(GROUP, table.team_b, is_admin=False))  # type: ignore[arg-type]
    event = await events.kick(GROUP, table.team_b, is_admin=True)  # type: ignore[arg-type]
    kicked = event.team(table.team_b)  # type: ignore[arg-type]
    assert kicked is not None and kicked.withdrawn
    assert event.round_tables()[0].result is TableResult.A
    assert (await service.game(table.game_id)).status is GameStatus.CANCELLED
    await play_round(service, event_id)
    event = await events.event(event_id)
    assert event.state is EventState.FINISHED


@pytest.mark.parametrize("deals", [1, 2])
async def test_a_table_of_deals_n_is_n_deals_not_one_more(service: GameService, deals: int) -> None:
    """``deals 1`` cut each table after its first deal (deal numbers count from 0: the
    cut once let a table of N deals play N + 1)."""
    events = service.events
    event_id = await registered(service, 4, OpenWords(rounds=1, deals=deals))
    event = await events.start(event_id, GROUP, is_admin=True)
    await play_round(service, event_id)
    event = await events.event(event_id)
    assert event.state is EventState.FINISHED
    for table in event.tables:
        game = await service.game(table.game_id)
        scored = [deal for deal in game.play.series.deals if deal.result is not None]
        assert game.status is GameStatus.FINISHED and len(scored) == deals


async def test_the_admin_stops_a_table_both_lose_and_stops_the_event(
    service: GameService,
) -> None:
    events = service.events
    event_id = await registered(service, 4, OpenWords(rounds=3, deals=1))
    event = await events.start(event_id, GROUP, is_admin=True)
    table = event.round_tables()[0]
    await service.cancel(table.game_id, None, ADMIN.ref, is_admin=True)
    await service.settle()
    event = await events.event(event_id)
    assert event.round_tables()[0].result is TableResult.NONE
    # Kicked before the start, a team goes; the event stops with its tables.
    event = await events.stop(GROUP, is_admin=True)
    assert event.state is EventState.STOPPED
    for t in event.round_tables():
        assert (await service.game(t.game_id)).status is GameStatus.CANCELLED
    assert await events.chat_event(GROUP) is None
    # The chat may open a new one; a team kicked before the start is gone.
    again = await registered(service, 1, OpenWords())
    event = await events.kick(GROUP, 1, is_admin=True)
    assert event.id == again and event.teams == ()


async def test_event_tables_are_not_the_chats_one_open_game(service: GameService) -> None:
    events = service.events
    event_id = await registered(service, 4, OpenWords(deals=1))
    event = await events.start(event_id, GROUP, is_admin=True)
    assert await service.open_game(GROUP) is None
    table = event.round_tables()[1]
    game = await service.game(table.game_id)
    player = game.seats[1]
    assert player is not None and player.user is not None
    found = await events.chat_game(GROUP, player.user)
    assert found is not None and found.id == table.game_id
    lobby = await service.open_table(GROUP, ADMIN)  # an ordinary table beside them
    assert (await service.open_game(GROUP)).id == lobby.id  # type: ignore[union-attr]


async def test_forged_and_stale_registration_presses_are_one_line_and_change_nothing(
    service: GameService,
) -> None:
    from bot.codec import Command, Verb, encode
    from bot.i18n import Translator
    from bot.interactions import Interactions
    from bot.outputs import Target
    from bot.presses import Pressed

    tr = Translator.from_dir()
    ui = Interactions(service, tr)
    event_id = await registered(service, 4, OpenWords())
    event = await service.events.event(event_id)
    group, elsewhere = Pressed(GROUP), Pressed(ChatRef(Platform.CONSOLE, "elsewhere"))
    stranger = PEOPLE[40]

    async def press(arg: str, where: Pressed = group, event_id: int = event_id) -> str:
        token = encode(Command(Verb.EVENT, event_id, event.version, arg))
        reply = await ui.press(stranger, token, where=where)
        alert = reply.first(Target.ALERT)
        return "" if alert is None else alert.screen.text

    assert await press("j1") == tr.t("ru", "err-event-pair-full")
    assert await press("j9") == tr.t("ru", "err-event-no-pair")
    assert await press("n", elsewhere) == tr.t("ru", "err-event-none")
    assert await press("n", event_id=event_id + 5) == tr.t("ru", "err-event-none")
    assert await press("s") == tr.t("ru", "err-event-not-admin")
    assert await press("x") == tr.t("ru", "err-malformed")
    assert await service.events.event(event_id) == event
    # A real press: a new pair, shown in the pressed message, no card anywhere.
    token = encode(Command(Verb.EVENT, event_id, event.version, "n"))
    reply = await ui.press(stranger, token, where=group)
    edit = reply.first(Target.EDIT)
    assert edit is not None and "P41" in edit.screen.text
    assert not any(suit in edit.screen.text for suit in "♠♣♥♦")


class Announcements:
    """An announcer that records the news; what it sent is told to the service when
    the test delivers it (as a platform's send answers later), unless lost (a process
    killed before the send)."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.news: list[tuple[EventNews, int]] = []
        self.sent: list[tuple[int, EventNews, int]] = []

    async def announce(self, event: Event, news: EventNews) -> None:
        self.news.append((news, event.round))
        self.sent.append((event.id, news, event.round))

    async def deliver(self) -> None:
        sent, self.sent = self.sent, []
        for event_id, news, round_ in sent:
            await self.service.events.shown(event_id, news, round_, "77")

    def lose(self) -> None:
        self.sent = []


async def test_a_start_shows_again_the_news_a_killed_process_had_not_sent(
    service: GameService,
) -> None:
    """The round's tables and the final standings are kept as shown once sent; a start
    (resume) shows what was not sent, and only that: nothing twice."""
    events = service.events
    told = Announcements(service)
    events.announcers[Platform.CONSOLE] = told
    event_id = await registered(service, 4, OpenWords(rounds=2, deals=1))
    await events.start(event_id, GROUP, is_admin=True)
    assert told.news == [(EventNews.ROUND, 1), (EventNews.STANDINGS, 1)]
    told.lose()
    event = await events.event(event_id)
    assert (event.round_shown, event.standings_message) == (0, None)
    told.news = []
    await events.resume()  # the round's tables, then the standings
    assert told.news == [(EventNews.ROUND, 1), (EventNews.STANDINGS, 1)]
    await told.deliver()
    event = await events.event(event_id)
    assert (event.round_shown, event.standings_message) == (1, "77")
    told.news = []
    await events.resume()  # nothing owed: the standings are edited, the tables not sent
    assert told.news == [(EventNews.STANDINGS, 1)]
    await play_round(service, event_id)
    assert (EventNews.ROUND, 2) in told.news
    await told.deliver()
    await play_round(service, event_id)
    event = await events.event(event_id)
    assert event.state is EventState.FINISHED and not event.end_shown
    assert told.news[-1] == (EventNews.FINAL, 2)
    told.lose()
    assert [e.id for e in await service.storage.events_to_resume()] == [event_id]
    told.news = []
    await events.resume()
    assert told.news == [(EventNews.STANDINGS, 2), (EventNews.FINAL, 2)]
    await told.deliver()
    assert (await events.event(event_id)).end_shown
    assert await service.storage.events_to_resume() == []
    told.news = []
    await events.resume()
    assert told.news == []
