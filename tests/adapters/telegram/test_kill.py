"""kill -9 of ``python -m bot`` (a real child process, the real composition and
pacing) at a lobby press, a move, the press that ends a deal and the press that ends
the series, with every message into the group and the DMs held back (their
rate-limit buckets exhausted in the fake). After each restart, without anyone
pressing, every screen (the lobby or the table, each DM hand) equals the saved state,
the lobby's buttons work, and the results owed are posted once, in order (issue 23,
point 9: the restored games were shown before the platform's publisher existed)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from bot import presenters
from bot.codec import Command, Verb, decode, encode
from bot.i18n import Translator
from bot.models import Game, GameStatus, Platform, UserRef
from bot.ports import OwedKind
from bot.presenters import Screen
from bot.presenters.achievements import announced
from bot.presenters.yard import action_arg
from core.yard.actions import Action
from core.yard.ai import safe_move
from core.yard.events import DealScored, SeriesFinished
from testing.fakes.bot_process import (
    BotProcess,
    achievements_earned,
    game_endings,
    last_game_id,
    owed_messages,
    rated_games,
    rating_changes,
    saved_game,
    telegram_env,
)
from testing.fakes.telegram import FakeMessage, FakeTelegram

GROUP = -1001
#: The four players, by seat: alice and carol (team A), bob and dave (team B).
SEATS = {0: 1, 1: 2, 2: 3, 3: 4}
NAMES = {1: "Alice", 2: "Bob", 3: "Carol", 4: "Dave"}
LOCALE = "ru"
WAIT = 60.0
#: A process's start (importing aiogram alone takes seconds on a busy machine).
START = 300.0
#: A restored screen: the group's rate-limit budget (20 writes a minute, kept over
#: restarts) may hold it back for up to a minute.
RESTORED = 120.0

Stop = Callable[[Game, Action], bool]


@pytest.fixture(scope="module")
def tr() -> Translator:
    return Translator.from_dir()


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(group_limit=1_000_000) as fake:
        for user_id, name in NAMES.items():
            fake.user_starts(fake.add_user(user_id, name))
        fake.add_group(GROUP, "Club")
        yield fake


class Table:
    """Four people play in the group through the fake; the bot runs in a child
    process on ``database``."""

    def __init__(self, tg: FakeTelegram, tr: Translator, tmp_path: Path) -> None:
        self.tg, self.tr = tg, tr
        self.database = tmp_path / "kozel.sqlite3"
        self.bot = BotProcess(tmp_path / "bot.log", telegram_env(tg.base_url, self.database))
        self.game_id = 0

    async def start(self) -> None:
        before = len(self.tg.calls_of("deleteWebhook"))  # then it polls
        await self.bot.start()
        await self.wait(lambda: len(self.tg.calls_of("deleteWebhook")) > before, START)

    async def wait(self, predicate: Callable[[], object], timeout: float = WAIT) -> None:  # noqa: ASYNC109
        """Until ``predicate`` holds. It reads the fake and the bot's database, which
        the bot process writes after its last request too: so it is checked on each
        request the fake records, and at least every 50 ms."""
        try:
            await wait_until(self.tg, predicate, timeout)
        except TimeoutError:
            # All of it: a rare failure is understood from the log or not at all.
            stale = "\n".join(self.stale_screens())
            raise AssertionError(
                f"stale screens:\n{stale}\nthe bot's log:\n{self.bot.output()}"
            ) from None

    def game(self) -> Game:
        return saved_game(self.database, self.game_id)

    async def press(self, user: int, chat: int, message: int, token: str) -> None:
        """Press a button and wait for its answer (the press is saved by then)."""
        query = await self.tg.press(user, chat, message, token)
        await self.wait(lambda: query in self.tg.callback_answers)

    async def open(self, seated: int = 4) -> FakeMessage:
        """alice opens the table; the first ``seated`` players sit down."""
        await self.tg.send_text(1, GROUP, "/kozel")
        await self.wait(lambda: self.tg.last_message(GROUP) is not None)
        game_id = last_game_id(self.database)
        assert game_id is not None
        self.game_id = game_id
        lobby = self.tg.last_message(GROUP)
        assert lobby is not None
        for seat in list(SEATS)[:seated]:
            await self.sit(lobby, seat)
        return lobby

    async def sit(self, lobby: FakeMessage, seat: int) -> None:
        game = self.game()
        token = encode(Command(Verb.JOIN, game.id, game.version, "AB"[seat % 2]))
        await self.press(SEATS[seat], GROUP, lobby.message_id, token)
        assert self.game().seat_of(UserRef(Platform.TELEGRAM, str(SEATS[seat]))) == seat

    def lobby_current(self, lobby: FakeMessage) -> bool:
        """The lobby message equals the saved lobby (its buttons carry its version)."""
        screen = presenters.lobby(self.game(), self.tr, LOCALE)
        return self.shows(GROUP, str(lobby.message_id), screen)

    async def play(self, game: Game, action: Action) -> None:
        seat = action.seat
        message = int(game.messages[f"hand:{seat}"])
        token = encode(Command(Verb.PLAY, game.id, game.version, action_arg(action)))
        await self.press(SEATS[seat], SEATS[seat], message, token)

    async def play_until(self, stop: Stop) -> tuple[Game, Action]:
        """Everybody makes safe moves until the move ``stop`` picks is next."""
        while True:
            await self.wait(lambda: all(f"hand:{s}" in self.game().messages for s in SEATS))
            game = self.game()
            deal = game.play.series.current
            assert game.status is GameStatus.PLAYING and deal is not None
            assert deal.turn is not None
            action = safe_move(deal.view(deal.turn))
            if stop(self.game(), action):  # tried on a copy of its own
                return game, action
            await self.play(game, action)
            version = game.version
            await self.wait(lambda: self.game().version > version)  # noqa: B023

    # --- What the screens should show -------------------------------------------------

    def stale(self, chat: int, message_id: str | None, screen: Screen) -> str | None:
        """How the message ``message_id`` of ``chat`` differs from ``screen``; None
        where it shows it."""
        if message_id is None:
            return "no message"
        message = next((m for m in self.tg.messages(chat) if m.message_id == int(message_id)), None)
        if message is None:
            return f"message {message_id} is not in the chat"
        buttons = [(b.label, b.token) for row in screen.rows for b in row if b.token]
        shown = self.tg.buttons(chat, message.message_id)
        if message.text != screen.text or shown != buttons:
            shows = f"{message.text!r} {shown}"
            return f"message {message_id} shows {shows}, not {screen.text!r} {buttons}"
        return None

    def shows(self, chat: int, message_id: str | None, screen: Screen) -> bool:
        return self.stale(chat, message_id, screen) is None

    def stale_screens(self) -> list[str]:
        """Which of the table and the hands differ from what the saved game shows."""
        game, tr = self.game(), self.tr
        screens = {GROUP: (game.messages.get("table"), presenters.table(game, tr, LOCALE, 0.0))}
        for seat, user in SEATS.items():
            hand = presenters.hand(game, seat, 0, tr, LOCALE)
            screens[user] = (game.messages.get(f"hand:{seat}"), hand)
        return [
            f"chat {chat} (game version {game.version}): {why}"
            for chat, (message_id, screen) in screens.items()
            if (why := self.stale(chat, message_id, screen)) is not None
        ]

    def screens_current(self) -> bool:
        """The table and every hand equal what the saved game shows."""
        return not self.stale_screens()

    def group_texts(self) -> list[str]:
        return [m.text or "" for m in self.tg.messages(GROUP) if m.from_id == self.tg.bot_id]


async def wait_until(tg: FakeTelegram, predicate: Callable[[], object], timeout: float) -> None:  # noqa: ASYNC109
    async with asyncio.timeout(timeout):
        while not predicate():
            with contextlib.suppress(TimeoutError):
                await tg.wait_for(lambda _: predicate() or None, timeout=0.05)


def refused(line: str) -> bool:
    """Whether an error line of the bot's log tells of its token refused."""
    return line.startswith("Traceback") or any(
        part in line
        for part in (
            "ERROR adapters.telegram.outbox: a show to chat",
            "ERROR adapters.telegram.outbox: a send to chat",
            "ERROR kozel: the Telegram bot cannot run: the Bot API server refuses the token",
        )
    )


def ends(kind: type) -> Stop:
    def stop(game: Game, action: Action) -> bool:
        return any(isinstance(event, kind) for event in game.play.series.apply(action))

    return stop


async def test_kills_of_python_m_bot_lose_no_screen_and_no_result(
    tg: FakeTelegram, tr: Translator, tmp_path: Path
) -> None:
    table = Table(tg, tr, tmp_path)
    await table.start()
    try:
        # --- A lobby press: the fourth player sits down ------------------------------
        lobby = await table.open(seated=3)
        await table.wait(lambda: table.lobby_current(lobby))
        tg.hold(GROUP)  # the lobby's (the press waits for dave's private chat to answer)
        await table.sit(lobby, 3)
        await table.bot.kill()
        assert table.game().is_full
        assert not table.lobby_current(lobby)  # the kill kept the lobby from showing it

        tg.release()
        await table.start()
        await table.wait(lambda: table.lobby_current(lobby), RESTORED)
        # Its buttons work: the creator starts with the start button it shows now.
        start = next(
            data
            for _, data in tg.buttons(GROUP, lobby.message_id)
            if data is not None and decode(data).verb is Verb.START
        )
        query = await tg.press(1, GROUP, lobby.message_id, start)
        await table.wait(lambda: query in tg.callback_answers)
        assert "text" not in tg.callback_answers[query]  # no refusal
        await table.wait(lambda: table.game().status is GameStatus.PLAYING)

        # --- A move ------------------------------------------------------------------
        await table.wait(table.screens_current, RESTORED)
        before = table.game()
        deal = before.play.series.current
        assert deal is not None and deal.turn is not None
        tg.hold(GROUP, *SEATS.values())
        await table.play(before, safe_move(deal.view(deal.turn)))
        await table.bot.kill()
        assert table.game().version == before.version + 1
        assert not table.screens_current()

        tg.release()
        await table.start()
        await table.wait(table.screens_current, RESTORED)
        assert table.game().version == before.version + 1  # nobody moved: humans only

        # --- The press that ends a deal ---------------------------------------------
        before, action = await table.play_until(ends(DealScored))
        number = before.play.series.current.number  # type: ignore[union-attr]
        await table.wait(table.screens_current, RESTORED)
        tg.hold(GROUP, *SEATS.values())  # nothing more gets out
        await table.play(table.game(), action)
        await table.bot.kill()

        game = table.game()
        assert game.version == before.version + 1
        assert len(game.play.series.deals) == number + 2  # the next deal is dealt and saved
        owed, *earned = owed_messages(table.database)
        # Eggs in it are an achievement (issue 25), announced after the result.
        assert [o.kind for o in earned] in ([], [OwedKind.ACHIEVEMENTS])
        assert (owed.kind, owed.number, owed.version) == (
            OwedKind.DEAL_RESULT,
            number,
            game.version,
        )
        result = game.play.series.deals[number].result
        assert result is not None
        text = presenters.deal_result(game, number, result, tr, LOCALE).text
        assert text not in table.group_texts()
        assert not table.screens_current()  # the kill kept the new deal from the screens

        # The bot starts late: the server refuses it at first, and the supervisor
        # starts the platform's bot again (a new publisher, after the restore).
        tg.release()
        tg.token = "654321:not-this-bot"
        calls = len(tg.calls)
        starting = asyncio.create_task(table.start())
        await table.wait(lambda: any(call.status == 401 for call in tg.calls[calls:]), START)
        tg.token = None
        await starting
        await table.wait(lambda: text in table.group_texts() and table.screens_current(), RESTORED)
        await table.wait(lambda: not owed_messages(table.database))
        assert table.group_texts().count(text) == 1
        assert table.game().version == game.version
        # Only the refused bot failed (its outbox could send nothing, and marked
        # nothing sent): each failure an Unauthorized.
        refusal = table.bot.errors()
        assert refusal and all(refused(line) for line in refusal), refusal
        tracebacks = sum(line.startswith("Traceback") for line in refusal)
        assert table.bot.output().count("TelegramUnauthorizedError: ") == tracebacks

        # --- The press that ends the series -------------------------------------------
        before, action = await table.play_until(ends(SeriesFinished))
        number = before.play.series.current.number  # type: ignore[union-attr]
        await table.wait(table.screens_current, RESTORED)
        tg.hold(GROUP, *SEATS.values())
        await table.play(table.game(), action)
        await table.bot.kill()

        game = table.game()
        assert game.status is GameStatus.FINISHED
        owed = owed_messages(table.database)
        # Four humans finished: a rated game, their first (issue 25's achievements).
        assert [(o.kind, o.number) for o in owed] == [
            (OwedKind.DEAL_RESULT, number),
            (OwedKind.SERIES_RESULT, 0),
            (OwedKind.RESULT_PICTURE, 0),
            (OwedKind.ACHIEVEMENTS, 0),
        ]
        deal_result = game.play.series.deals[number].result
        series_result = game.play.series.result
        assert deal_result is not None and series_result is not None
        earned = achievements_earned(table.database, game.id, game.version)
        assert {e.achievement for e in earned} >= {"first-rated-game"}
        announcement = announced(game, earned, tr, LOCALE)
        assert announcement is not None
        # The ratings were kept with the result, once (four people: a rated game).
        changes = rating_changes(table.database, game.id)
        assert [change.user_id for change in changes] == [str(SEATS[s]) for s in range(4)]
        rated = rated_games(table.database)
        assert set(rated.values()) == {1} and len(rated) == 8  # yard and every rule set
        # So was each player's reliability row: all four completed it.
        completed = [(str(user), None) for user in sorted(SEATS.values())]
        assert game_endings(table.database, game.id) == completed
        result_screen = presenters.game_result(game, tr, LOCALE, changes)
        assert result_screen is not None
        texts = [
            presenters.deal_result(game, number, deal_result, tr, LOCALE).text,
            result_screen.text,
            announcement.text,
        ]
        assert presenters.series_result(game, series_result, tr, LOCALE).text in texts[1]
        assert not set(texts) & set(table.group_texts())
        assert not table.screens_current()

        tg.release()
        await table.start()
        await table.wait(
            lambda: texts[-1] in table.group_texts() and table.screens_current(), RESTORED
        )
        await table.wait(lambda: not owed_messages(table.database))
        posted = table.group_texts()
        assert [posted.count(text) for text in texts] == [1, 1, 1]  # each once
        assert posted.index(texts[0]) < posted.index(texts[1]) < posted.index(texts[2])
        # The result's picture went once, between the result and the achievements.
        photos = [c for c in tg.calls_of("sendPhoto") if c.status == 200]
        assert len(photos) == 1
        mine = [m for m in tg.messages(GROUP) if m.from_id == tg.bot_id]
        shown = [m.text if m.text is not None else "<photo>" for m in mine]
        assert shown.index(texts[1]) < shown.index("<photo>") < shown.index(texts[2])
        assert table.bot.errors() == refusal  # nothing failed since
        # The restart rated nothing again.
        assert rating_changes(table.database, game.id) == changes
        assert rated_games(table.database) == rated
        assert game_endings(table.database, game.id) == completed
    finally:
        await table.bot.kill()
