"""kill -9 of ``python -m bot`` (a real child process, the real composition) at a
lobby press, a move, the press that ends a deal and the press that ends the series,
with every message into the channel and the DMs held back (429s from the fake).
After each restart, without anyone pressing, every screen (the lobby or the table,
each DM hand) equals the saved state, the lobby's buttons work, and the results owed
are posted once, in order (issue 23, point 9: the restored games were shown before
the platform's publisher existed)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from adapters.discord import render
from bot import presenters
from bot.codec import decode
from bot.i18n import Translator
from bot.models import Game, GameStatus
from bot.ports import OwedKind
from bot.presenters import SELECTED_MARK, Screen, card_label
from bot.presenters.achievements import announced
from bot.presenters.yard import action_arg
from core.yard.actions import Action, ActionKind
from core.yard.ai import safe_move
from core.yard.events import DealScored, SeriesFinished
from testing.fakes.bot_process import (
    BotProcess,
    achievements_earned,
    discord_env,
    last_game_id,
    owed_messages,
    rated_games,
    rating_changes,
    saved_game,
)
from testing.fakes.discord import FakeDiscord
from tests.adapters.discord.harness import ALICE, BOB, CAROL, CHANNEL, DAVE, world

#: By seat: alice and carol (team A), bob and dave (team B).
SEATS = {0: ALICE, 1: BOB, 2: CAROL, 3: DAVE}
LOCALE = "ru"
WAIT = 60.0
#: A process's start (importing discord.py and aiogram takes seconds on a busy machine).
START = 300.0
HELD = ("PATCH /channels/*/messages/*", "POST /channels/*/messages")

Stop = Callable[[Game, Action], bool]


@pytest.fixture(scope="module")
def tr() -> Translator:
    return Translator.from_dir()


@pytest.fixture
async def dc() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(patch=False) as fake:
        world(fake)
        yield fake


class Table:
    """Four people play in the channel through the fake; the bot runs in a child
    process on ``database``."""

    def __init__(self, dc: FakeDiscord, tr: Translator, tmp_path: Path) -> None:
        self.dc, self.tr = dc, tr
        self.database = tmp_path / "kozel.sqlite3"
        self.bot = BotProcess(tmp_path / "bot.log", discord_env(dc.api_base, self.database))
        self.game_id = 0

    async def start(self) -> None:
        def identified() -> int:
            return sum(1 for c in self.dc.calls if c.method == "GATEWAY" and c.path == "IDENTIFY")

        before = identified()
        await self.bot.start()
        await self.wait(lambda: identified() > before, START)

    async def wait(self, predicate: Callable[[], object], timeout: float = WAIT) -> None:  # noqa: ASYNC109
        """Until ``predicate`` holds. It reads the fake and the bot's database, which
        the bot process writes after its last request too: so it is checked on each
        request the fake records, and at least every 50 ms."""
        try:
            async with asyncio.timeout(timeout):
                while not predicate():
                    with contextlib.suppress(TimeoutError):
                        await self.dc.wait_for(predicate, timeout=0.05)
        except TimeoutError:
            calls = "\n".join(
                f"{c.at:.3f} {c.method} {c.path} {c.status} {json.dumps(c.json)[:160]}"
                for c in self.dc.calls[-40:]
            )
            raise AssertionError(
                f"the bot's log:\n{self.bot.output()}\nthe fake's last calls:\n{calls}"
            ) from None

    def game(self) -> Game:
        return saved_game(self.database, self.game_id)

    async def click(self, user: int, message: int, custom_id: str) -> None:
        """Click a button and wait for its answer (the press is saved by then)."""
        iid = await self.dc.click(user, message, custom_id)
        await self.wait(lambda: self.dc.responses(iid).callback_type is not None)

    def button(self, message: int, which: Callable[[str, str], bool]) -> str:
        for label, custom_id, disabled in self.dc.buttons(self.dc.message(message)):
            if (
                label is not None
                and custom_id is not None
                and not disabled
                and which(label, custom_id)
            ):
                return custom_id
        raise LookupError(f"no such button: {self.dc.buttons(self.dc.message(message))}")

    async def open(self, seated: int = 4) -> int:
        """alice opens the table; the first ``seated`` players sit down. Returns the
        table message's id."""
        await self.wait(lambda: bool(self.dc.commands))  # the slash commands are there
        await self.dc.slash(ALICE, CHANNEL, "kozel")
        await self.wait(
            lambda: (
                (i := last_game_id(self.database))
                and "table" in saved_game(self.database, i).messages
            )
        )
        game_id = last_game_id(self.database)
        assert game_id is not None
        self.game_id = game_id
        table = int(self.game().messages["table"])
        for seat in list(SEATS)[:seated]:
            await self.sit(table, seat)
        return table

    async def sit(self, table: int, seat: int) -> None:
        version = self.game().version
        label = self.tr.t(LOCALE, f"lobby-join-{'ab'[seat % 2]}")
        await self.wait(lambda: self.shows_version(table, version))
        await self.click(SEATS[seat], table, self.button(table, lambda text, _: text == label))
        assert self.game().version == version + 1

    async def start_series(self, table: int) -> None:
        """alice presses "start" on the lobby as it shows now."""
        start = self.tr.t(LOCALE, "lobby-start")
        await self.click(ALICE, table, self.button(table, lambda text, _: text == start))
        await self.wait(lambda: self.game().status is GameStatus.PLAYING)

    def lobby_current(self, table: int) -> bool:
        """The table message shows the saved lobby (its buttons carry its version)."""
        return self.shows(str(table), presenters.lobby(self.game(), self.tr, LOCALE))

    def shows_version(self, message: int, version: int) -> bool:
        versions = set()
        for _, custom_id, _ in self.dc.buttons(self.dc.message(message)):
            with contextlib.suppress(ValueError):
                versions.add(decode(custom_id or "").version)
        return versions == {version}

    async def play(self, game: Game, action: Action) -> None:
        """The player selects the move's cards in his DM hand, then plays them."""
        player = game.seats[action.seat]
        assert player is not None and player.user is not None
        user = int(player.user.id)
        hand = int(game.messages[f"hand:{action.seat}"])
        await self.wait(lambda: self.shows_version(hand, game.version))
        for card in action.cards if action.kind is not ActionKind.MOLODKA else ():
            label = card_label(card, game.settings.locale)
            await self.click(user, hand, self.button(hand, lambda text, _: text == label))  # noqa: B023
            # A press answered late (deferred on a busy machine) shows its selection
            # after its acknowledgement: the next button is read from the hand it shows.
            chosen = f"{SELECTED_MARK} {label}"
            await self.wait(lambda: self.has(hand, lambda text, _: text == chosen))  # noqa: B023
        arg = action_arg(action)
        await self.wait(lambda: self.has(hand, lambda _, cid: cid.endswith(f":{arg}")))
        await self.click(user, hand, self.button(hand, lambda _, cid: cid.endswith(f":{arg}")))

    def has(self, message: int, which: Callable[[str, str], bool]) -> bool:
        try:
            self.button(message, which)
        except LookupError:
            return False
        return True

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

    def shows(self, message_id: str | None, screen: Screen) -> bool:
        if message_id is None:
            return False
        message = self.dc.message(int(message_id))
        if message["content"] != render.content(screen.text):
            return False
        tokens = list(dict.fromkeys(b.token for row in screen.rows for b in row if b.token))
        return [cid for _, cid, _ in self.dc.buttons(message)] == tokens

    def screens_current(self) -> bool:
        """The table and every DM hand equal what the saved game shows."""
        game, tr = self.game(), self.tr
        table = presenters.table(game, tr, LOCALE, 0.0, with_hand_button=True)
        if not self.shows(game.messages.get("table"), table):
            return False
        return all(
            self.shows(
                game.messages.get(f"hand:{seat}"), presenters.hand(game, seat, 0, tr, LOCALE)
            )
            for seat in SEATS
        )

    def channel_texts(self) -> list[str]:
        bot = str(self.dc.bot_user.id)
        return [m["content"] for m in self.dc.messages(CHANNEL) if m["author"]["id"] == bot]

    def hold(self) -> None:
        for route in HELD:
            self.dc.rate_limit(route, times=1_000_000, retry_after=60.0)

    def release(self) -> None:
        self.dc.clear_rate_limits()


def ends(kind: type) -> Stop:
    def stop(game: Game, action: Action) -> bool:
        return any(isinstance(event, kind) for event in game.play.series.apply(action))

    return stop


async def test_kills_of_python_m_bot_lose_no_screen_and_no_result(
    dc: FakeDiscord, tr: Translator, tmp_path: Path
) -> None:
    table = Table(dc, tr, tmp_path)
    await table.start()
    try:
        # --- A lobby press: the fourth player sits down ------------------------------
        lobby = await table.open(seated=3)
        await table.wait(lambda: table.lobby_current(lobby))
        table.hold()
        await table.sit(lobby, 3)
        await table.bot.kill()
        assert table.game().is_full
        assert not table.lobby_current(lobby)  # the kill kept the lobby from showing it

        table.release()
        await table.start()
        await table.wait(lambda: table.lobby_current(lobby))
        await table.start_series(lobby)  # its buttons work

        # --- A move ------------------------------------------------------------------
        await table.wait(table.screens_current)
        before = table.game()
        deal = before.play.series.current
        assert deal is not None and deal.turn is not None
        action = safe_move(deal.view(deal.turn))
        table.hold()
        await table.play(before, action)
        await table.bot.kill()
        assert table.game().version == before.version + 1
        assert not table.screens_current()

        table.release()
        await table.start()
        await table.wait(table.screens_current)
        assert table.game().version == before.version + 1  # nobody moved: humans only

        # --- The press that ends a deal ---------------------------------------------
        before, action = await table.play_until(ends(DealScored))
        number = before.play.series.current.number  # type: ignore[union-attr]
        await table.wait(table.screens_current)
        table.hold()  # nothing more gets out
        await table.play(table.game(), action)
        await table.bot.kill()

        game = table.game()
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
        text = render.content(presenters.deal_result(game, number, result, tr, LOCALE).text)
        assert text not in table.channel_texts()
        assert not table.screens_current()

        # The bot starts late: Discord refuses it at first, and the supervisor starts
        # the platform's bot again (a new publisher, after the restore).
        table.release()
        dc.token = "not-this-bot"
        calls = len(dc.calls)
        starting = asyncio.create_task(table.start())
        await table.wait(lambda: any(call.status == 401 for call in dc.calls[calls:]), START)
        dc.token = None
        await starting
        await table.wait(lambda: text in table.channel_texts() and table.screens_current())
        await table.wait(lambda: not owed_messages(table.database))
        assert table.channel_texts().count(text) == 1
        assert table.game().version == game.version
        refusal = table.bot.errors()
        assert all("Discord refuses the token" in line for line in refusal), refusal

        # --- The press that ends the series -------------------------------------------
        before, action = await table.play_until(ends(SeriesFinished))
        number = before.play.series.current.number  # type: ignore[union-attr]
        await table.wait(table.screens_current)
        table.hold()
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
        deal_result, series_result = game.play.series.deals[number].result, game.play.series.result
        assert deal_result is not None and series_result is not None
        earned = achievements_earned(table.database, game.id, game.version)
        assert {e.achievement for e in earned} >= {"first-rated-game"}
        announcement = announced(game, earned, tr, LOCALE)
        assert announcement is not None
        # The ratings were kept with the result, once (four people: a rated game).
        changes = rating_changes(table.database, game.id)
        assert len(changes) == 4
        rated = rated_games(table.database)
        assert set(rated.values()) == {1} and len(rated) == 8  # yard and every rule set
        result_screen = presenters.game_result(game, tr, LOCALE, changes)
        assert result_screen is not None
        texts = [
            render.content(presenters.deal_result(game, number, deal_result, tr, LOCALE).text),
            render.content(result_screen.text),
            render.content(announcement.text),
        ]
        assert not set(texts) & set(table.channel_texts())
        assert not table.screens_current()

        table.release()
        await table.start()
        await table.wait(lambda: texts[-1] in table.channel_texts() and table.screens_current())
        await table.wait(lambda: not owed_messages(table.database))
        posted = table.channel_texts()
        caption = render.content(tr.t(LOCALE, "picture-caption"))
        texts.insert(2, caption)  # the result's picture, attached under its caption
        assert [posted.count(text) for text in texts] == [1, 1, 1, 1]  # each once
        assert [posted.index(text) for text in texts] == sorted(posted.index(t) for t in texts)
        assert [name for name, _ in dc.uploads] == ["result.png"]
        assert table.bot.errors() == refusal  # nothing failed since
        # The restart rated nothing again.
        assert rating_changes(table.database, game.id) == changes
        assert rated_games(table.database) == rated
    finally:
        await table.bot.kill()


async def test_a_card_selected_as_the_killed_bot_comes_back_stays_selected(
    dc: FakeDiscord, tr: Translator, tmp_path: Path
) -> None:
    """The player to move selects a card the moment ``python -m bot`` is back from a
    kill -9 (it has identified, it is not ready yet): the game shown again once it is
    ready (its table and hands redrawn) keeps the player's selection in his hand, and
    the move it offers is played."""
    table = Table(dc, tr, tmp_path)
    await table.start()
    try:
        lobby = await table.open()
        await table.start_series(lobby)
        await table.wait(table.screens_current)
        await table.bot.kill()

        calls = len(dc.calls)
        await table.start()  # it identified: its presses are answered, its lanes wait
        game = table.game()
        deal = game.play.series.current
        assert deal is not None and deal.turn is not None
        seat = deal.turn
        card = deal.view(seat).hand[0]
        label = card_label(card, LOCALE)
        hand = int(game.messages[f"hand:{seat}"])
        await table.click(SEATS[seat], hand, table.button(hand, lambda text, _: text == label))

        # Ready: the other hands are drawn again (nothing remembers what they show).
        others = {int(game.messages[f"hand:{s}"]) for s in SEATS if s != seat}

        def redrawn() -> set[int]:
            return {
                int(c.path.rsplit("/", 1)[1])
                for c in dc.calls[calls:]
                if c.method == "PATCH" and c.path.rsplit("/", 1)[1].isdigit()
            }

        await table.wait(lambda: others <= redrawn())
        await asyncio.sleep(0.3)  # time for a redraw of the pressed hand to go out too
        chosen = f"{SELECTED_MARK} {label}"
        assert table.has(hand, lambda text, _: text == chosen), dc.buttons(dc.message(hand))
        assert table.game().version == game.version  # a selection is no move
    finally:
        await table.bot.kill()
