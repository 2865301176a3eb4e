"""kill -9 of ``python -m bot`` (a real child process, the real composition, SQLite)
during a 16-player Swiss evening on Discord (issue 33, point 2): eight pairs register
through the registration message, the evening of three rounds of one-deal tables
starts, and the bot is killed mid-round, right after the press that ends a round
(the next round paired and saved, its messages held back by the fake) and right
after the press that ends the evening (its final standings held back). After each
restart the evening goes on from where it was: every table is played once (no round
paired twice), no two pairs meet twice, each round's tables are announced once, the
standings stay ONE message, edited, and the final standings with their picture are
posted once; the bot logs no error."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from adapters.discord import render
from bot.event import Event, EventState
from bot.i18n import Translator
from bot.models import Game, GameStatus
from bot.presenters import event as screens
from core.yard.actions import Action
from core.yard.ai import safe_move
from core.yard.events import DealScored
from testing.fakes.bot_process import last_event_id, saved_event, saved_game
from testing.fakes.discord import FakeDiscord
from tests.adapters.discord.harness import ALICE, CHANNEL, GUILD
from tests.adapters.discord.test_kill import Table, ends

#: Sixteen players, eight pairs (alice, the server's owner, runs the evening).
PLAYERS = list(range(31, 47))
ROUNDS = 3
LOCALE = "ru"

#: Whether to stop before this move: (the evening, the moves made so far, the table,
#: its next move).
Stop = Callable[[Event, int, Game, Action], bool]


@pytest.fixture
async def dc() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(patch=False) as fake:
        fake.add_guild(GUILD, "Club", owner_id=ALICE)
        fake.add_channel(GUILD, CHANNEL, "kozel")
        fake.add_user(ALICE, "alice", guild_ids=[GUILD])
        for n, user in enumerate(PLAYERS, start=1):
            fake.add_user(user, f"p{n:02}", guild_ids=[GUILD])
        yield fake


class Evening(Table):
    """The evening in the channel, the bot in a child process on ``database``."""

    event_id = 0
    moves = 0

    def event(self) -> Event:
        return saved_event(self.database, self.event_id)

    def t(self, msg_id: str, **args: int) -> str:
        return self.tr.t(LOCALE, msg_id, **args)

    async def press(self, user: int, message: int, label: str) -> None:
        await self.click(user, message, self.button(message, lambda text, _: text == label))

    async def open_evening(self) -> int:
        """alice opens it; the registration message's id."""
        await self.wait(lambda: bool(self.dc.commands))
        words = f"open rounds {ROUNDS} deals 1"
        iid = await self.dc.slash(ALICE, CHANNEL, "event", {"words": words})

        def registration() -> dict[str, object] | None:
            answer = self.dc.responses(iid)
            return answer.original if answer.original and not answer.loading else None

        await self.wait(registration)
        event_id = last_event_id(self.database)
        assert event_id is not None
        self.event_id = event_id
        original = registration()
        assert original is not None
        return int(str(original["id"]))

    async def register(self, registration: int) -> None:
        """The sixteen register as eight pairs: each first opens a pair, his partner
        joins it; each press shows the pair in the registration message."""
        for pair in range(8):
            first, second = PLAYERS[2 * pair], PLAYERS[2 * pair + 1]
            await self.press(first, registration, self.t("event-new-pair"))
            join = self.t("event-join", team=pair + 1)
            await self.wait(lambda: self.has(registration, lambda text, _: text == join))  # noqa: B023
            await self.press(second, registration, join)
            pair_line = f"{pair + 1}. p{2 * pair + 1:02} & p{2 * pair + 2:02}"
            await self.wait(lambda: pair_line in self.dc.message(registration)["content"])  # noqa: B023
        assert [len(team.players) for team in self.event().teams] == [2] * 8

    def running_games(self) -> list[Game]:
        event = self.event()
        games = [saved_game(self.database, t.game_id) for t in event.round_tables()]
        return [game for game in games if game.status is GameStatus.PLAYING]

    def hands_sent(self, game_id: int) -> bool:
        game = saved_game(self.database, game_id)
        return all(f"hand:{seat}" in game.messages for seat in range(len(game.seats)))

    def round_over(self, event: Event) -> bool:
        """The round's tables are all over (the next round is not paired yet)."""
        return all(
            saved_game(self.database, t.game_id).status is not GameStatus.PLAYING
            for t in event.round_tables()
        )

    async def play_until(self, stop: Stop) -> tuple[Game, Action] | None:  # type: ignore[override]
        """The players make safe moves, a table after another, until ``stop`` picks the
        next move (returned, not made) or the evening is over (None)."""
        while True:
            event = self.event()
            if event.state is not EventState.RUNNING:
                return None
            if self.round_over(event):  # the next round is being paired
                number = event.round
                await self.wait(
                    lambda: (
                        (e := self.event()).round > number  # noqa: B023
                        or e.state is not EventState.RUNNING
                    )
                )
                continue
            game = self.running_games()[0]
            await self.wait(lambda: self.hands_sent(game.id))  # noqa: B023
            game = saved_game(self.database, game.id)
            deal = game.play.series.current
            assert deal is not None and deal.turn is not None
            action = safe_move(deal.view(deal.turn))
            if stop(event, self.moves, game, action):
                return game, action
            await self.play(game, action)
            self.moves += 1
            version = game.version
            await self.wait(lambda: saved_game(self.database, game.id).version > version)  # noqa: B023

    def standings_ids(self) -> list[int]:
        """The channel's standings messages (the running standings start with 📊)."""
        return [int(m["id"]) for m in self.dc.messages(CHANNEL) if m["content"].startswith("📊")]

    def round_text(self, event: Event, number: int) -> str:
        return render.content(screens.round_tables(event.with_(round=number), self.tr, LOCALE).text)


def ends_the_round(number: int) -> Stop:
    """The move that ends the last running table of round ``number``."""
    table_ends = ends(DealScored)  # a table is one deal

    def stop(event: Event, moves: int, game: Game, action: Action) -> bool:
        if event.round != number or not table_ends(game, action):
            return False
        open_tables = [t for t in event.round_tables() if t.result is None]
        return len(open_tables) == 1 and open_tables[0].game_id == game.id

    return stop


async def test_kills_during_a_16_player_swiss_evening_lose_and_repeat_nothing(
    dc: FakeDiscord, tr: Translator, tmp_path: Path
) -> None:
    evening = Evening(dc, tr, tmp_path)
    await evening.start()
    try:
        registration = await evening.open_evening()
        await evening.register(registration)
        await evening.press(ALICE, registration, evening.t("event-start"))
        await evening.wait(lambda: evening.event().round == 1)
        await evening.wait(lambda: evening.event().standings_message is not None)
        await evening.wait(lambda: evening.event().round_shown == 1)
        [standings] = evening.standings_ids()
        assert evening.event().standings_message == str(standings)
        assert evening.round_text(evening.event(), 1) in evening.channel_texts()

        # --- Killed mid-round, right after a move --------------------------------------
        made = await evening.play_until(lambda event, moves, game, action: moves == 12)
        assert made is not None
        game, action = made
        await evening.play(game, action)
        await evening.bot.kill()
        assert saved_game(evening.database, game.id).version == game.version + 1
        await evening.start()

        # --- Killed after the press that ends round 1 (round 2's news held back) --------
        made = await evening.play_until(ends_the_round(1))
        assert made is not None
        game, action = made
        evening.hold()
        await evening.play(game, action)
        await evening.wait(lambda: evening.event().round == 2)  # paired and saved
        await evening.bot.kill()
        event = evening.event()
        assert event.round_shown == 1
        assert evening.round_text(event, 2) not in evening.channel_texts()
        evening.release()
        await evening.start()
        await evening.wait(lambda: evening.round_text(event, 2) in evening.channel_texts())
        await evening.wait(lambda: evening.event().round_shown == 2)

        # --- Killed after the press that ends the evening (its end held back) -----------
        made = await evening.play_until(ends_the_round(ROUNDS))
        assert made is not None
        game, action = made
        evening.hold()
        await evening.play(game, action)
        await evening.wait(lambda: evening.event().state is EventState.FINISHED)
        await evening.bot.kill()
        event = evening.event()
        final_text = render.content(screens.standings_screen(event, tr, LOCALE).text)
        assert not event.end_shown and final_text not in evening.channel_texts()
        evening.release()
        await evening.start()
        await evening.wait(lambda: evening.event().end_shown)

        def finals() -> list[dict[str, object]]:
            return [m for m in dc.messages(CHANNEL) if m["content"] == final_text]

        # The standings message shows the final standings too (edited), once out.
        await evening.wait(lambda: len(finals()) == 2)
        await evening.wait(lambda: not evening.standings_ids())
        assert await evening.play_until(lambda *_: True) is None  # nothing left to play

        # --- What the database and the channel say -------------------------------------
        event = evening.event()
        assert event.state is EventState.FINISHED and event.round == ROUNDS
        tables = event.tables
        assert len(tables) == ROUNDS * 4 and all(t.result is not None for t in tables)
        assert len({(t.round, t.number) for t in tables}) == len(tables)
        assert len({t.game_id for t in tables}) == len(tables)
        for number in range(1, ROUNDS + 1):
            teams = [team for t in event.round_tables(number) for team in (t.team_a, t.team_b)]
            assert sorted(teams) == list(range(1, 9))  # type: ignore[type-var]
        meetings = event.met()
        assert len(meetings) == len(set(meetings)) == ROUNDS * 4  # nobody met twice
        texts = evening.channel_texts()
        assert [texts.count(evening.round_text(event, n)) for n in (1, 2, 3)] == [1, 1, 1]
        assert event.standings_message == str(standings)  # the one standings message
        kept = dc.message(standings)
        assert kept["content"] == final_text and kept["edited_timestamp"] is not None
        [final] = [m for m in finals() if m["attachments"]]
        assert int(str(final["id"])) != standings
        assert [a["filename"] for a in final["attachments"]] == ["result.png"]  # type: ignore[index]
        assert evening.bot.errors() == []
    finally:
        await evening.bot.kill()
