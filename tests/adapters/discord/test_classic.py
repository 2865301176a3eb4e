"""Classic games on Discord, through the players' DM hands: four users play a whole
game (a redeal, a last-trump exchange, pants and mirror), one user plays three
computers, and a bot restarted mid-dealing on SQLite resumes exactly. Every press is
a button the presser's DM shows; no message shows a card its reader may not see (see
:mod:`tests.adapters.classic_play`)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord

from adapters.discord import render
from adapters.sqlite import SqliteStorage
from bot import presenters
from bot.codec import CodecError, Verb, decode
from bot.i18n import Translator
from bot.memory import MemoryStorage
from bot.models import ChatRef, Game, GameStatus, Platform
from bot.presenters.rating import grouped, signed
from bot.ratings import MIN_GAMES
from core.classic.options import Praise
from core.classic.ruleset import CLASSIC
from testing.fakes.discord import FakeDiscord
from tests.adapters.classic_play import (
    HOUSE_RULES,
    RESTART_RULES,
    DeckRandom,
    Plan,
    Reader,
    Secrets,
    check_results,
    check_whole_game,
    classic,
    house_rule_presses,
    play_classic,
    restarts_mid_dealing,
    settled,
)
from tests.adapters.discord.harness import ALICE, BOB, CAROL, CHANNEL, DAVE, Harness

EPHEMERAL = 64
_MESSAGE = re.compile(r"/channels/(\d+)/messages(?:/\d+)?")
_CALLBACK = re.compile(r"/interactions/(\d+)/[^/]+/callback")
_WEBHOOK = re.compile(r"/webhooks/\d+/([^/]+)(?:/messages/.+)?")


@dataclass
class DiscordTable:
    """The Discord harness as :class:`tests.adapters.classic_play.Table`; a restart
    stops it and starts another harness on the same SQLite file."""

    h: Harness
    path: Path | None = None
    cursor: int = 0

    @property
    def dc(self) -> FakeDiscord:
        return self.h.dc

    @property
    def service(self) -> Any:
        return self.h.service

    async def settle(self) -> None:
        await self.h.settled()

    def _user(self, game: Game, seat: int) -> int:
        player = game.seats[seat]
        assert player is not None and player.user is not None
        return int(player.user.id)

    def _buttons(self, game: Game, seat: int) -> list[tuple[int, str]]:
        out = []
        for message in self.dc.dm_messages(self._user(game, seat)):
            for _, custom_id, _ in self.dc.buttons(message):
                try:
                    command = decode(custom_id or "")
                except CodecError:
                    continue
                if command.game_id == game.id and command.verb is Verb.PLAY:
                    out.append((int(message["id"]), str(custom_id)))
        return out

    def decisions(self, game: Game, seat: int) -> list[str]:
        return [custom_id for _, custom_id in self._buttons(game, seat)]

    def holder(self, game: Game, seat: int, token: str) -> object:
        [message] = [m for m, custom_id in self._buttons(game, seat) if custom_id == token]
        return message

    async def press(self, game: Game, seat: int, token: str) -> None:
        message = self.holder(game, seat, token)
        assert isinstance(message, int)
        rec = await self.h.click(self._user(game, seat), message, lambda _, cid: cid == token)
        assert rec.callback_type == 6 and rec.followups == [], (rec.content, rec.followups)

    async def restart(self) -> None:
        assert self.path is not None, "a restart needs the SQLite file"
        old = self.h
        await old.stop()
        await old.storage.close()  # type: ignore[attr-defined]
        self.h = Harness(old.dc, await SqliteStorage.open(self.path), old.tr, rng=old.rng)
        await self.h.start()

    def sent(self, game: Game) -> list[tuple[Reader, str]]:
        dc = self.dc
        calls, self.cursor = dc.calls[self.cursor :], len(dc.calls)
        seats = {self._user(game, seat): seat for seat, _ in game.humans}
        channels: dict[int, Reader] = {CHANNEL: None}
        for user, seat in seats.items():
            dm = dc.dm_channel(user)
            if dm is not None:
                channels[dm] = seat
        out: list[tuple[Reader, str]] = []
        for call in calls:
            if call.method not in ("POST", "PATCH") or call.status >= 300:
                continue
            body = call.json or {}
            if found := _MESSAGE.fullmatch(call.path):
                reader = channels[int(found[1])]
                if reader is None:  # the channel: never a decision
                    assert Verb.PLAY not in _verbs(body), body
                out.append((reader, _text(body)))
            elif found := _CALLBACK.fullmatch(call.path):
                rec = dc.interactions[int(found[1])]
                data = body.get("data") or {}
                private = bool((data.get("flags") or 0) & EPHEMERAL)
                out.append(
                    (seats[rec.user_id] if private else channels[rec.channel_id], _text(data))
                )
            elif found := _WEBHOOK.fullmatch(call.path):
                [rec] = [r for r in dc.interactions.values() if r.token == found[1]]
                private = rec.ephemeral or bool((body.get("flags") or 0) & EPHEMERAL)
                out.append(
                    (seats[rec.user_id] if private else channels[rec.channel_id], _text(body))
                )
        return out


def _verbs(body: dict[str, Any]) -> list[Verb]:
    verbs = []
    for row in body.get("components") or []:
        for item in row.get("components") or []:
            try:
                verbs.append(decode(str(item.get("custom_id"))).verb)
            except CodecError:
                continue
    return verbs


def _text(body: dict[str, Any]) -> str:
    labels = [
        str(item.get("label") or "")
        for row in body.get("components") or []
        for item in row.get("components") or []
    ]
    return "\n".join([str(body.get("content") or ""), *labels])


async def open_classic(h: Harness, users: list[int], options: dict[str, Any]) -> tuple[Game, int]:
    """``/kozel`` with the classic rules in the channel, the house rules set with the
    lobby's buttons, the users seated A, B, A, B."""
    rec = await h.slash(users[0], "kozel", {"set": "classic"})
    assert rec.original is not None
    await h.settled()
    game = await h.game()
    table = h.table_id(game)
    assert game.settings.rule_set == "classic" and table == int(rec.original["id"])
    for arg in house_rule_presses(game, options):
        pressed = await h.click(users[0], table, lambda _, cid, arg=arg: _arg(cid) == arg)
        assert pressed.callback_type in (6, 7) and not pressed.ephemeral, pressed.content
        await h.settled()
    assert game.settings.rule_options() == classic(game).options == CLASSIC.options(options)
    for user, team in zip(users, "ABAB", strict=False):
        await h.seat(table, user, team)
    return game, table


async def start_planned(h: Harness, rng: DeckRandom) -> tuple[Game, Plan]:
    """The four users' classic game with the house rules, dealt from ``rng`` (the
    harness's) as :class:`Plan` says (a redeal, a last-trump exchange, then pants,
    mirror and simple praises), started."""
    game, table = await open_classic(h, [ALICE, BOB, CAROL, DAVE], HOUSE_RULES)
    plan = Plan(rng.next_dealer())
    rng.decks.extend(plan.decks())
    await h.click(ALICE, table, h.t("lobby-start"))
    return game, plan


def _arg(custom_id: str) -> str | None:
    try:
        command = decode(custom_id)
    except CodecError:
        return None
    return command.arg if command.verb is Verb.SETTING else None


def channel_texts(dc: FakeDiscord) -> list[str]:
    return [str(m["content"]) for m in dc.messages(CHANNEL)]


async def test_four_users_play_a_whole_classic_game_through_dm_buttons(
    dc: FakeDiscord, tr: Translator
) -> None:
    rng = DeckRandom(9)
    h = Harness(dc, MemoryStorage(), tr, rng=rng)
    await h.start()
    try:
        game, plan = await start_planned(h, rng)
        played = await play_classic(DiscordTable(h), game.id, script=plan.script)

        game = played.game
        record = check_results(game, channel_texts(dc), tr, game.settings.locale)
        check_whole_game(played, record)
        # Issue 25: the result shows each one's change once; /stats the rating.
        changes = await h.storage.game_ratings(game.id)
        assert len(changes) == 4
        result = presenters.game_result(game, tr, game.settings.locale, changes)
        assert result is not None
        assert channel_texts(dc).count(render.content(result.text)) == 1
        assert f"({signed(changes[0].delta)})" in result.text
        rec = await h.slash(ALICE, "stats")
        assert f"{grouped(changes[0].after, game.settings.locale)} ±" in (rec.content or "")
        rec = await h.slash(ALICE, "top", {"set": "classic"})
        assert h.t("top-rating-empty", games=MIN_GAMES) in (rec.content or "")
    finally:
        await h.stop()


async def test_one_user_and_three_computers_finish_a_classic_game_then_top_shows_him(
    harness: Harness, dc: FakeDiscord
) -> None:
    h = harness
    await h.adapter.bot.create_dm(discord.Object(ALICE))  # alice opens a DM with the bot
    dm = dc.dm_channel(ALICE)
    assert dm is not None
    chat = ChatRef(Platform.DISCORD, str(dm))
    await h.slash(ALICE, "kozel", {"set": "classic"}, channel=dm)  # a solo game there
    await h.settled()
    game = await h.game(chat)
    assert game.settings.rule_set == "classic" and game.status is GameStatus.PLAYING
    played = await play_classic(DiscordTable(h), game.id)

    game = played.game
    assert game.status is GameStatus.FINISHED and played.presses > 0
    assert [s is not None and s.is_computer for s in game.seats] == [False, True, True, True]
    texts = [str(m["content"]) for m in dc.messages(dm)]
    check_results(game, texts, h.tr, game.settings.locale)
    rows = await h.storage.leaderboard(Platform.DISCORD, chat, rule_set="classic")
    assert [row.name for row in rows] == ["alice"]
    rec = await h.slash(ALICE, "top", {"set": "classic"}, channel=dm)
    expected = await h.interactions.top(chat, rule_set="classic")
    assert expected.screen is not None and rec.content == expected.screen.text
    # /top ranks by rating (issue 25): a game with computers is unrated.
    assert "alice" not in (rec.content or "")
    # The result says so; its picture follows it (issue 25).
    assert h.t("rating-unrated") in texts[-2] and texts[-1] == h.t("picture-caption")
    yard = await h.interactions.top(chat, rule_set="yard")
    assert yard.screen is not None and "alice" not in yard.screen.text

    # A rematch plays classic again, with the same options.
    rematch = next(int(m["id"]) for m in dc.messages(dm) if Verb.REMATCH in h.verbs(m))
    await h.click(ALICE, rematch, h.t("result-rematch"))
    await h.settled()
    again = await h.game(chat)
    assert again.rematch_of == game.id and again.status is GameStatus.PLAYING
    assert again.settings.rule_set == "classic"
    assert classic(again).options == classic(game).options


async def test_a_restart_mid_dealing_resumes_exactly_and_old_buttons_work(
    dc: FakeDiscord, tr: Translator, db_path: Path
) -> None:
    rng = DeckRandom(8)
    h = Harness(dc, await SqliteStorage.open(db_path), tr, rng=rng)
    await h.start()
    table = DiscordTable(h, path=db_path)
    try:
        game, lobby = await open_classic(h, [ALICE, BOB, CAROL, DAVE], RESTART_RULES)
        plan = Plan(rng.next_dealer(), redeal=False, praises=(Praise.MIRROR,))
        rng.decks.extend(plan.decks())
        await h.click(ALICE, lobby, h.t("lobby-start"))
        played = await restarts_mid_dealing(table, game.id, plan)
        h = table.h
        assert h.table_id(played.game) == lobby  # the same table message throughout
        # The table's "My hand" answers each player with his hand, as his DM shows it.
        for user in (ALICE, BOB, CAROL, DAVE):
            rec = await h.click(user, lobby, h.t("table-hand-button"))
            assert (
                rec.ephemeral and rec.content == dc.message(h.hand_id(played.game, user))["content"]
            )
        game, _ = await settled(table, game.id, Secrets())
    finally:
        await table.h.stop()
        await table.h.storage.close()  # type: ignore[attr-defined]
