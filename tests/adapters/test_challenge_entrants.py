"""A day's challenge played by simulated entrants through both fakes at once (the
fake Telegram Bot API and the fake Discord, one SQLite database): each starts it with
the command in his private chat, plays every deal with his hand's buttons and goes on
with "Next deal". Then the hidden-deal check over everything each was sent, and
``/top challenge`` against the table computed by hand from the saved results."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest

from adapters.sqlite import SqliteStorage
from bot import challenge as challenges
from bot.codec import CodecError, Verb, decode
from bot.i18n import Translator
from bot.models import ChatRef, Game, GameStatus, Platform, TableSettings, UserRef
from bot.presenters import card_label
from bot.presenters import challenge as challenge_words
from core.cards import Card
from core.ruleset import get_rule_set
from testing.fakes.discord import FakeDiscord
from testing.fakes.telegram import FakeTelegram, FakeUser
from tests.adapters.discord import harness as discord_harness
from tests.adapters.telegram import harness as telegram_harness

#: How many entrants each platform has.
TELEGRAM_ENTRANTS = int(os.environ.get("CHALLENGE_TELEGRAM", 30))
DISCORD_ENTRANTS = int(os.environ.get("CHALLENGE_DISCORD", 20))
DEALS = int(os.environ.get("CHALLENGE_DEALS", challenges.DEALS["yard"]))
#: Every card's label in every language: what a message showing a card shows.
LABELS = {
    label: card
    for card in (Card.parse(f"{rank}{suit}") for rank in "789TJQKA" for suit in "SCHD")
    for label in (card_label(card, "en"), card_label(card, "ru"))
}
_LABEL = re.compile("|".join(sorted(map(re.escape, LABELS), key=len, reverse=True)))


def quick(level: str) -> Any:
    """The challenge's computers (strong), as quick ones: the test is about what
    people see, not how well the computer plays."""
    return get_rule_set("yard").computer("normal")


def cards_in(text: str) -> set[Card]:
    return {LABELS[found] for found in _LABEL.findall(text)}


def game_of(tokens: list[str | None]) -> int | None:
    for token in tokens:
        try:
            return decode(token or "").game_id
        except CodecError:
            continue
    return None


class Seen:
    """What one entrant was sent, in order: (index of the fake's call, text, buttons'
    labels, buttons' tokens)."""

    def __init__(self) -> None:
        self.items: list[tuple[int, str, list[str], list[str | None]]] = []
        #: The call index at which he asked for each deal (before it was dealt).
        self.asked: dict[int, int] = {}
        self.games: dict[int, int] = {}  # deal -> game id


def telegram_seen(tg: FakeTelegram, chat: int, seen: Seen) -> None:
    for index, call in enumerate(tg.calls):
        params = call.params
        if str(params.get("chat_id")) != str(chat) or call.status != 200:
            continue
        keyboard = (params.get("reply_markup") or {}).get("inline_keyboard", [])
        buttons = [b for row in keyboard for b in row]
        labels = [b["text"] for b in buttons]
        tokens = [b.get("callback_data") for b in buttons]
        seen.items.append((index, str(params.get("text") or ""), labels, tokens))


def discord_seen(dc: FakeDiscord, user: int, dm: int, seen: Seen) -> None:
    mine = {i.token for i in dc.interactions.values() if i.user_id == user}
    mine |= {str(i.id) for i in dc.interactions.values() if i.user_id == user}
    for index, call in enumerate(dc.calls):
        path = call.path
        # His DM's calls, and those of his interactions: a path segment is one of his
        # interactions' ids or tokens (the segments after the path's first "/").
        ours = f"/channels/{dm}/" in path or not mine.isdisjoint(path.split("/")[1:])
        if not ours or not isinstance(call.json, dict) or call.status >= 300:
            continue
        body = call.json.get("data", call.json)
        if not isinstance(body, dict):
            continue
        buttons = [c for row in body.get("components") or [] for c in row.get("components", [])]
        labels = [str(b.get("label") or "") for b in buttons]
        tokens = [b.get("custom_id") for b in buttons]
        seen.items.append((index, str(body.get("content") or ""), labels, tokens))


def dealt(secret: bytes, challenge_id: str, deal: int) -> dict[str, Any]:
    """Deal ``deal`` as the engine deals it from the secret: its record's deal entry."""
    dealer, seed = challenges.deal_seed(secret, challenge_id, deal)
    play = TableSettings(rule_set="yard").new_game(first_dealer=dealer)
    play.deal(random.Random(seed))
    entry: dict[str, Any] = play.record()["deals"][0]
    return entry


def own_cards(game: Game) -> set[Card]:
    """Every card seat 0 held in the game (in the yard game each is played)."""
    deal = game.play.record()["deals"][0]
    return {
        Card.parse(code)
        for action in deal["actions"]
        if action["seat"] == 0
        for code in action.get("cards", [])
    }


def check_hidden(seen: Seen, games: dict[int, Game], who: str) -> int:
    """Before he asked for deal k, nothing he was sent belongs to deal k's game or any
    later one (none existed), every message with cards belongs to one of his games
    begun, and a hand shows only his own cards (never a face-down one)."""
    by_id = {game.id: deal for deal, game in games.items()}
    owned = {deal: own_cards(game) for deal, game in games.items()}
    hands = 0
    for index, text, labels, tokens in seen.items:
        game_id = game_of(tokens)
        begun = [deal for deal, at in seen.asked.items() if at <= index]
        shown = cards_in(text) | cards_in(" ".join(labels))
        if game_id is not None and game_id in by_id:
            assert by_id[game_id] in begun, f"{who}: deal {by_id[game_id]} shown before asked"
            hand = {LABELS[label] for label in labels if label in LABELS}
            assert hand <= owned[by_id[game_id]], f"{who}: a face-down card shown"
            hands += bool(hand)
        elif shown:
            # A message with cards and no button (a table, a deal's result): of a deal
            # begun; its cards can be told from no later deal's.
            assert begun, f"{who}: cards shown before any deal was asked: {text!r}"
    return hands


def hand_table(plays: dict[UserRef, tuple[str, dict[int, int]]]) -> list[tuple[str, float, int]]:
    """The table by hand: each deal's average loss over those who finished it, each
    entrant's sum of (average - his loss), best first, then by name."""
    sums: dict[int, list[int]] = {}
    for _, losses in plays.values():
        for deal, lost in losses.items():
            sums.setdefault(deal, []).append(lost)
    average = {deal: sum(lost) / len(lost) for deal, lost in sums.items()}
    rows = [
        (name, sum(average[deal] - lost for deal, lost in losses.items()), len(losses), who.id)
        for who, (name, losses) in plays.items()
    ]
    rows.sort(key=lambda row: (-round(row[1] * 1_000_000), row[0], row[3]))
    return [(name, score, deals) for name, score, deals, _ in rows]


async def telegram_entrant(h: telegram_harness.Harness, user: FakeUser, seen: Seen) -> None:
    chat = ChatRef(Platform.TELEGRAM, str(user.id))
    seen.asked[0] = len(h.tg.calls)
    await h.command(user, user.id, "/kozel challenge")
    for deal in range(DEALS):
        game = await _open(h.service, chat)
        assert game.settings.challenge_deal == deal
        seen.games[deal] = game.id
        game = await h.play_until(game.id, lambda g: False, seed=user.id + deal)
        assert game.status is GameStatus.FINISHED
        if deal + 1 == DEALS:
            break
        nxt = await h.tg.wait_for(lambda t, g=game: _next_button(t, user.id, g.id))
        seen.asked[deal + 1] = len(h.tg.calls)
        await h.press(user, nxt[0], nxt[1])


def _next_button(tg: FakeTelegram, chat: int, game_id: int) -> tuple[Any, str] | None:
    for message in reversed(tg.messages(chat)):
        for _, data in tg.buttons(chat, message.message_id):
            try:
                command = decode(data or "")
            except CodecError:
                continue
            if command.verb is Verb.REMATCH and command.game_id == game_id:
                return message, str(data)
    return None


async def _open(service: Any, chat: ChatRef) -> Game:
    for _ in range(2000):
        game = await service.open_game(chat)
        if game is not None and game.status is GameStatus.PLAYING:
            return game  # type: ignore[no-any-return]
        await asyncio.sleep(0.01)
    raise TimeoutError(f"no game in {chat}")


async def discord_entrant(h: discord_harness.Harness, user: int, seen: Seen) -> None:
    await h.adapter.bot.create_dm(discord.Object(user))
    dm = h.dc.dm_channel(user)
    assert dm is not None
    chat = ChatRef(Platform.DISCORD, str(dm))
    seen.asked[0] = len(h.dc.calls)
    await h.slash(user, "kozel", {"challenge": "daily"}, channel=dm)
    for deal in range(DEALS):
        game = await _open(h.service, chat)
        assert game.settings.challenge_deal == deal
        seen.games[deal] = game.id
        await h.finish_deal(game.id, {0: user})
        if deal + 1 == DEALS:
            break
        await h.settled()
        message = next(
            m
            for m in reversed(h.dc.messages(dm))
            if any(
                (cid or "").startswith("k:") and decode(cid or "").verb is Verb.REMATCH
                for _, cid, _ in h.dc.buttons(m)
            )
        )
        seen.asked[deal + 1] = len(h.dc.calls)
        await h.click(user, int(message["id"]), lambda _, cid: decode(cid).verb is Verb.REMATCH)


def entrants_of(count: int, first: int) -> Iterator[int]:
    return iter(range(first, first + count))


async def test_a_challenge_played_by_fifty_entrants_shows_no_deal_before_its_time(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR)
    tr = Translator.from_dir()
    storage = await SqliteStorage.open(tmp_path / "kozel.sqlite3")
    # One event loop serves both bots and all fifty entrants at machine speed: the
    # fake Discord gives an interaction more than its 3 s to be answered (the
    # deadline is not what this test is about).
    async with FakeTelegram(group_limit=10_000) as tg, FakeDiscord(interaction_deadline=60) as dc:
        discord_harness.world(dc)
        people = list(entrants_of(DISCORD_ENTRANTS, 1000))
        for user in people:
            dc.add_user(user, f"dc{user}", locale="en-US", guild_ids=[discord_harness.GUILD])
        th = telegram_harness.Harness(tg, storage, tr, players=quick)
        dh = discord_harness.Harness(dc, storage, tr, players=quick)
        await th.start()
        await dh.start()
        try:
            tg_users = [th.user(uid, f"tg{uid}") for uid in entrants_of(TELEGRAM_ENTRANTS, 100)]
            seen_tg = {user.id: Seen() for user in tg_users}
            seen_dc = {user: Seen() for user in people}

            async def on_discord() -> None:  # one entrant after another there
                for user in people:
                    await discord_entrant(dh, user, seen_dc[user])

            await asyncio.gather(
                on_discord(), *(telegram_entrant(th, user, seen_tg[user.id]) for user in tg_users)
            )
            await th.settle()
            await dh.settled()

            daily = await th.service.challenges.find(None)
            secret = await storage.secret(challenges.SECRET_NAME)
            plays: dict[UserRef, tuple[str, dict[int, int]]] = {}
            everyone = [
                (UserRef(Platform.TELEGRAM, str(u.id)), f"tg{u.id}", seen_tg[u.id], th)
                for u in tg_users
            ] + [(discord_harness.ref(u), f"dc{u}", seen_dc[u], dh) for u in people]
            for who, name, seen, h in everyone:
                games = {deal: await h.service.game(gid) for deal, gid in seen.games.items()}
                assert sorted(games) == list(range(DEALS))
                for deal, game in games.items():
                    # Every entrant got the same deal k: the one the secret deals.
                    assert (
                        game.play.record()["deals"][0]["deck"]
                        == dealt(secret, daily.id, deal)["deck"]
                    )
                kept = await storage.challenge_plays(daily.id, who)
                assert [(p.deal, p.game_id) for p in kept] == sorted(
                    (deal, game.id) for deal, game in games.items()
                )
                plays[who] = (name, {p.deal: p.loss for p in kept if p.loss is not None})
                assert len(plays[who][1]) == DEALS
            for user in tg_users:
                telegram_seen(tg, user.id, seen_tg[user.id])
            for user in people:
                dm = dc.dm_channel(user)
                assert dm is not None
                discord_seen(dc, user, dm, seen_dc[user])
            for _, name, seen, h in everyone:
                games = {deal: await h.service.game(gid) for deal, gid in seen.games.items()}
                assert seen.items, name
                assert check_hidden(seen, games, name) >= DEALS  # his hands were looked at

            # /top challenge: the table computed by hand from the saved results.
            expected = hand_table(plays)
            asker = tg_users[0]
            top = await th.command(asker, asker.id, "/top challenge")
            lines = top.text.splitlines() if top.text else []
            assert str(len(plays)) in lines[0]
            shown = min(10, len(expected))
            rows = zip(expected[:shown], lines[1 : 1 + shown], strict=True)
            for (name, score, deals), line in rows:
                assert f" {name}: {challenge_words.points(score)} ({deals} " in line, line
            own = next(i for i, row in enumerate(expected) if row[0] == f"tg{asker.id}")
            if own >= 10:
                assert challenge_words.points(expected[own][1]) in lines[11]
        finally:
            await dh.stop()
            await th.stop()
            await storage.close()
    assert not th.errors
    errors = [r.getMessage() for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    assert not errors
