"""A Swiss evening of 16 players (8 pairs, 3 rounds of one-deal tables) in a group,
played through the fake Bot API against ``python -m bot`` (a real child process) that
is killed with SIGKILL three times: in the middle of round 1, after the move that ends
round 2 once round 3 is paired but before the group was shown it, and after the move
that ends the event before the final standings got out. Each start carries on from the
database: no round is paired twice, no pair meets another twice, every round's tables
are announced once, the standings stay one message (edited), the final standings with
their picture are posted once (issue 33, point 2)."""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.codec import Command, Verb, encode
from bot.i18n import Translator
from bot.models import Game, GameStatus
from bot.presenters.yard import action_arg
from core.yard.events import DealScored
from testing.fakes.bot_process import BotProcess, saved_game, telegram_env
from testing.fakes.telegram import FakeTelegram
from tests.adapters.telegram.test_kill import START, wait_until

GROUP = -1002
ADMIN = 1
PLAYERS = range(1, 17)  # 8 pairs: 1 and 2, 3 and 4, ...
ROUNDS = 3
WAIT = 60.0
#: What the group is shown waits for its budget (20 writes a minute): four tables'
#: results and screens a round.
SHOWN = 300.0


@pytest.fixture(scope="module")
def tr() -> Translator:
    return Translator.from_dir()


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(group_limit=1_000_000) as fake:
        for user_id in PLAYERS:
            fake.user_starts(fake.add_user(user_id, f"Player{user_id:02}"))
        fake.add_group(GROUP, "Club", admins=[ADMIN])
        yield fake


def rows(database: Path, sql: str) -> list[sqlite3.Row]:
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        db.row_factory = sqlite3.Row
        return db.execute(sql).fetchall()


class Evening:
    def __init__(self, tg: FakeTelegram, tr: Translator, tmp_path: Path) -> None:
        self.tg, self.tr = tg, tr
        self.database = tmp_path / "kozel.sqlite3"
        self.bot = BotProcess(tmp_path / "bot.log", telegram_env(tg.base_url, self.database))

    async def start(self) -> None:
        before = len(self.tg.calls_of("deleteWebhook"))
        await self.bot.start()
        await self.wait(lambda: len(self.tg.calls_of("deleteWebhook")) > before, START)

    async def wait(self, predicate: object, timeout: float = WAIT) -> None:  # noqa: ASYNC109
        try:
            await wait_until(self.tg, predicate, timeout)  # type: ignore[arg-type]
        except TimeoutError:
            raise AssertionError(f"the bot's log:\n{self.bot.output()[-20000:]}") from None

    def event(self) -> sqlite3.Row:
        [row] = rows(self.database, "SELECT * FROM events")
        return row

    def tables(self, round_: int | None = None) -> list[sqlite3.Row]:
        found = rows(self.database, "SELECT * FROM event_tables ORDER BY round, number")
        return [t for t in found if round_ is None or t["round"] == round_]

    async def press(self, user: int, chat: int, message: int, token: str) -> dict[str, object]:
        query = await self.tg.press(user, chat, message, token)
        await self.wait(lambda: query in self.tg.callback_answers)
        answer: dict[str, object] = self.tg.callback_answers[query]
        return answer

    def event_token(self, arg: str) -> str:
        event = self.event()
        return encode(Command(Verb.EVENT, event["id"], event["version"], arg))

    def next_move(self) -> tuple[Game, int] | None:
        """A game of the running round whose human to move has his hand: the game and
        the seat; None while there is none."""
        for table in self.tables(self.event()["round"]):
            game = saved_game(self.database, table["game_id"])
            seat = game.play.turn
            if game.status is GameStatus.PLAYING and f"hand:{seat}" in game.messages:
                assert seat is not None
                return game, seat
        return None

    async def move(self, game: Game, seat: int) -> None:
        occupant = game.seats[seat]
        assert occupant is not None and occupant.user is not None
        action = game.play.safe_action(seat)
        token = encode(Command(Verb.PLAY, game.id, game.version, action_arg(action)))
        user = int(occupant.user.id)
        answer = await self.press(user, user, int(game.messages[f"hand:{seat}"]), token)
        assert "text" not in answer, answer  # taken, not refused

    async def play(self, moves: int | None = None, *, held_last: bool = False) -> None:
        """Moves of the running round: ``moves`` of them, else until the round's last
        move; ``held_last``: that last move is pressed with the group held (nothing
        more gets into it) and the round's end left to the test."""
        round_, made = self.event()["round"], 0
        while moves is None or made < moves:
            await self.wait(lambda: self.next_move() is not None or self.round_over(round_))
            if self.round_over(round_):
                return
            found = self.next_move()
            assert found is not None
            game, seat = found
            playing = [
                t
                for t in self.tables(round_)
                if saved_game(self.database, t["game_id"]).status is GameStatus.PLAYING
            ]
            action = game.play.safe_action(seat)
            last = len(playing) == 1 and any(
                isinstance(e, DealScored)
                for e in game.play.series.apply(action)  # type: ignore[attr-defined]
            )
            if last and held_last:
                self.tg.hold(GROUP)
                await self.move(saved_game(self.database, game.id), seat)
                return
            await self.move(saved_game(self.database, game.id), seat)
            made += 1

    def round_over(self, round_: int) -> bool:
        event = self.event()
        if event["round"] > round_ or event["state"] != "running":
            return True
        return all(t["result"] is not None for t in self.tables(round_))

    def group(self) -> list[str]:
        """The bot's texts and captions in the group."""
        return [
            m.text or m.extra.get("caption") or ""
            for m in self.tg.messages(GROUP)
            if m.from_id == self.tg.bot_id and not m.deleted
        ]

    def heading(self, key: str, **values: int) -> str:
        return self.tr.t(self.event()["locale"], key, **values).split("\n")[0]

    def announced(self, round_: int) -> int:
        head = self.heading("event-round", round=round_, rounds=ROUNDS)
        return sum(text.startswith(head) for text in self.group())

    def finals(self) -> list[str]:
        head = self.heading("event-final", rounds=ROUNDS)
        return [
            m.extra["caption"]
            for m in self.tg.messages(GROUP)
            if m.extra.get("photo") and str(m.extra.get("caption")).startswith(head)
        ]


async def test_a_16_player_swiss_evening_survives_kills_at_any_step(
    tg: FakeTelegram, tr: Translator, tmp_path: Path
) -> None:
    evening = Evening(tg, tr, tmp_path)
    await evening.start()
    try:
        # --- Registration: 8 pairs through the registration message's buttons --------
        await tg.send_text(ADMIN, GROUP, f"/event open yard rounds {ROUNDS} deals 1")
        await evening.wait(lambda: rows(evening.database, "SELECT id FROM events"))
        await evening.wait(lambda: tg.last_message(GROUP) is not None)
        registration = tg.last_message(GROUP)
        assert registration is not None
        for first in range(1, 17, 2):
            await evening.press(first, GROUP, registration.message_id, evening.event_token("n"))
            pair = (first + 1) // 2
            token = evening.event_token(f"j{pair}")
            await evening.press(first + 1, GROUP, registration.message_id, token)
        teams = rows(evening.database, "SELECT * FROM event_teams ORDER BY number")
        assert [(t["first_id"], t["second_id"]) for t in teams] == [
            (str(n), str(n + 1)) for n in range(1, 17, 2)
        ]
        answer = await evening.press(
            ADMIN, GROUP, registration.message_id, evening.event_token("s")
        )
        assert "text" not in answer
        await evening.wait(lambda: len(evening.tables(1)) == 4)

        # --- Kill 1: in the middle of round 1 --------------------------------------------
        await evening.wait(lambda: evening.event()["round_shown"] == 1, SHOWN)
        await evening.play(moves=20)
        await evening.bot.kill()
        await evening.start()
        await evening.play()
        assert all(t["result"] is not None for t in evening.tables(1))

        # --- Kill 2: the move that ends round 2; round 3 paired, not shown ---------------
        await evening.wait(lambda: evening.event()["round"] == 2)
        await evening.wait(lambda: evening.announced(2) == 1, SHOWN)
        await evening.play(held_last=True)
        await evening.wait(lambda: evening.event()["round"] == 3)
        await evening.bot.kill()
        assert evening.event()["round_shown"] == 2  # round 3's tables never got out
        assert evening.announced(3) == 0
        tg.release()
        await evening.start()
        await evening.wait(lambda: evening.announced(3) == 1, SHOWN)
        await evening.wait(lambda: evening.event()["round_shown"] == 3)

        # --- Kill 3: the move that ends the event, before the final standings ----------
        await evening.play(held_last=True)
        await evening.wait(lambda: evening.event()["state"] == "finished")
        await evening.bot.kill()
        assert not evening.event()["end_shown"] and not evening.finals()
        tg.release()
        await evening.start()
        await evening.wait(lambda: evening.finals(), SHOWN)
        await evening.wait(lambda: evening.event()["end_shown"])

        # --- What the database and the group show ---------------------------------------
        event = evening.event()
        assert (event["state"], event["round"], event["round_shown"]) == ("finished", 3, 3)
        tables = evening.tables()
        assert Counter(t["round"] for t in tables) == {1: 4, 2: 4, 3: 4}
        assert all(t["result"] in ("a", "b", "none") for t in tables)
        meetings = [frozenset((t["team_a"], t["team_b"])) for t in tables]
        assert len(set(meetings)) == 12  # nobody met twice
        assert len({t["game_id"] for t in tables}) == 12
        for round_ in (1, 2, 3):
            assert evening.announced(round_) == 1, round_
            seated = [p for t in evening.tables(round_) for p in (t["team_a"], t["team_b"])]
            assert sorted(seated) == list(range(1, 9))  # every pair plays every round
        assert len(evening.finals()) == 1
        # The standings: one message, edited to the final ones.
        standings = event["standings_message"]
        assert standings is not None
        final_head = evening.heading("event-final", rounds=ROUNDS)
        texts = [
            m
            for m in tg.messages(GROUP)
            if m.text and (m.text.startswith("📊") or m.text.startswith(final_head))
        ]
        assert [m.message_id for m in texts] == [int(standings)]
        assert texts[0].text.startswith(final_head)  # type: ignore[union-attr]
        assert not evening.bot.errors()
    finally:
        await evening.bot.kill()
