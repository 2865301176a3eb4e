"""A fuzz of button presses on Discord (issue 9, point 3): 10,000 component
interactions as a user client can send them — random, mutated, replayed and foreign
custom ids, on the messages of two servers, of DMs (also another user's, as only a
fake allows), the presser's ephemeral ones and deleted ones — through the fake
gateway into the real bot.

Presses that may change nothing go in batches; each batch, and each press that may
change a game, is checked: every interaction answered, no error logged (the log
guard), and no game changed unless the press could legitimately change it (in the
game's channel, or on a hand in the seated player's own DM, with the standing the verb
needs). At the end no hand is in a public message, and every DM or ephemeral hand is
its receiver's.
"""

from __future__ import annotations

import copy
import os
import random
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.codec import CodecError, Verb, decode
from bot.models import Game, GameStatus
from bot.presses import HAND_VERBS
from testing.fakes.discord import JSON, FakeDiscord
from tests.adapters.discord.harness import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    EVE,
    GUILD,
    Harness,
    ref,
    world,
)
from tests.adapters.telegram.test_fuzz import mutate

PRESSES = int(os.environ.get("KOZEL_FUZZ_PRESSES", "10000"))
BATCH = 20
OTHER_GUILD, OTHER_CHANNEL = 101, 300
GUILDS = {GUILD: {ALICE, BOB, CAROL, DAVE, EVE}, OTHER_GUILD: {EVE, BOB}}
OWNERS = {GUILD: ALICE, OTHER_GUILD: EVE}
USERS = (ALICE, BOB, CAROL, DAVE, EVE)
EPHEMERAL = 64


@pytest.fixture
async def dc() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as fake:
        world(fake)
        fake.add_guild(OTHER_GUILD, "Eve's", owner_id=EVE)
        fake.add_channel(OTHER_GUILD, OTHER_CHANNEL, "eve")
        fake.users[EVE].guild_ids.append(OTHER_GUILD)
        fake.users[BOB].guild_ids.append(OTHER_GUILD)
        yield fake


def state(game: Game) -> tuple[object, ...]:
    return (game.status, game.version, tuple(game.seats), game.settings)


class Place:
    """What the fake knows of a message: its channel, guild and who alone sees it."""

    def __init__(self, dc: FakeDiscord) -> None:
        self.dc = dc
        self.owner: dict[int, int] = {}  # ephemeral message id -> its receiver
        self._done = 0

    def refresh(self) -> None:
        """Learn the receivers of the ephemeral messages of the presses answered so
        far (each press is looked at once)."""
        records = list(self.dc.interactions.values())
        for rec in records[self._done :]:
            for message in (rec.original, *rec.followups):
                if message is not None and message["flags"] & EPHEMERAL:
                    self.owner[int(message["id"])] = rec.user_id
        self._done = len(records)

    def guild(self, message: JSON) -> int | None:
        guild = message.get("guild_id")
        return int(guild) if guild else None

    def dm_user(self, message: JSON) -> int | None:
        channel = self.dc._channels.get(int(message["channel_id"]), {})
        return int(channel["recipients"][0]["id"]) if channel.get("type") == 1 else None

    def sees(self, user: int, message: JSON) -> bool:
        """Whether Discord would let ``user`` press on the message at all (another
        user's DM is kept in on purpose: only a fake delivers that)."""
        owner = self.owner.get(int(message["id"]))
        if owner is not None:
            return owner == user
        guild = self.guild(message)
        return guild is None or user in GUILDS[guild]


class Games:
    def __init__(self, h: Harness, place: Place) -> None:
        self.h, self.place = h, place
        self.games: dict[int, Game] = {}

    async def track(self) -> None:
        for channel in (CHANNEL, OTHER_CHANNEL):
            game = await self.h.service.open_game(_chat(channel))
            if game is not None:
                self.games.setdefault(game.id, game)

    async def snapshot(self) -> dict[int, tuple[object, ...]]:
        out = {}
        for game_id, held in list(self.games.items()):
            if held.status.is_open:
                held = self.games[game_id] = await self.h.service.game(game_id)
            out[game_id] = state(held)
        return out

    def may_change(self, user: int, message: JSON, custom_id: str) -> int | None:
        try:
            command = decode(custom_id)
        except CodecError:
            return None
        game = self.games.get(command.game_id)
        if game is None or (not game.status.is_open and command.verb is not Verb.REMATCH):
            return None
        seated = game.seat_of(ref(user)) is not None
        owner = self.place.owner.get(int(message["id"]))
        dm = self.place.dm_user(message)
        if (owner is not None and owner != user) or (dm is not None and dm != user):
            return None
        channel = message["channel_id"]
        if channel != game.chat.id and not (dm == user and command.verb in HAND_VERBS and seated):
            return None
        creator = ref(user) == game.creator
        guild = self.place.guild(message)
        admin = guild is not None and OWNERS[guild] == user
        allowed = {
            Verb.JOIN: True,
            Verb.LEAVE: seated,
            Verb.ADD_COMPUTER: creator or seated,
            Verb.REMOVE_COMPUTER: creator or seated,
            Verb.SETTING: creator,
            Verb.START: creator,
            Verb.CANCEL: creator or admin,
            Verb.REMATCH: creator or seated,
        }.get(command.verb, seated)
        return game.id if allowed else None


def _chat(channel: int) -> Any:
    from bot.models import ChatRef, Platform

    return ChatRef(Platform.DISCORD, str(channel))


async def test_ten_thousand_forged_presses_change_nothing_but_what_they_may(
    harness: Harness, dc: FakeDiscord
) -> None:
    h, rng = harness, random.Random(20261202)
    place = Place(dc)
    games = Games(h, place)
    # A lobby cancelled, then a running game in the club's channel (alice, bob and
    # carol, one computer); eve's lobby in her own server.
    _, table = await h.open_table()
    rec = await h.click(ALICE, table, h.t("lobby-cancel"))
    await h.click(ALICE, int(rec.original["id"]), lambda _, cid: cid.startswith("k:c:"))  # type: ignore[index]
    await h.settled()
    table = await club_game(h)
    rec = await h.slash(EVE, "kozel", channel=OTHER_CHANNEL)
    eves = int(rec.original["id"])  # type: ignore[index]
    await h.settled()
    await h.click(EVE, eves, h.t("lobby-join-a"))
    await h.click(BOB, table, h.t("table-hand-button"))  # an ephemeral hand of Bob's
    helped = await h.slash(EVE, "help", channel=OTHER_CHANNEL)  # a message without buttons
    help_id = int(helped.original["id"])  # type: ignore[index]
    await h.settled()
    await games.track()
    closed = {1: state(await h.service.game(1))}
    assert closed[1][0] is GameStatus.CANCELLED and 1 not in games.games

    seen: set[str] = set()
    first_seen: dict[int, JSON] = {}
    messages: list[JSON] = []
    pool: list[str] = []
    batch: list[int] = []
    before = await games.snapshot()
    counts = {"genuine": 0, "changed": 0, "batches": 0}
    started = time.perf_counter()

    async def flush() -> None:
        nonlocal before
        if not batch:
            return
        await dc.wait_for(lambda: all(dc.responses(i).callback_type is not None for i in batch))
        await h.settled()
        after = await games.snapshot()
        assert after == before, [dc.responses(i) for i in batch]
        batch.clear()
        counts["batches"] += 1

    for number in range(PRESSES):
        if number % BATCH == 0:
            # Between batches (never while presses wait for their answer, which
            # Discord takes for 3 seconds only): what the channels show now.
            await flush()
            place.refresh()
            # Live messages as they are; of those with buttons a copy as first seen,
            # pressed once they are deleted (refusals add many plain ones: skipped).
            current = {int(m["id"]): m for m in dc._messages.values()}
            for mid, message in current.items():
                if message["components"] and mid not in first_seen:
                    first_seen[mid] = copy.deepcopy(message)
            gone = [m for mid, m in first_seen.items() if mid not in current]
            messages = [m for m in current.values() if m["components"]] + gone
            seen.update(cid for m in messages for _, cid, _ in dc.buttons(m) if cid)
            messages.append(dc.message(help_id))
            pool = sorted(seen)
        user, message, custom_id, genuine = pick(rng, h, games, place, messages, pool)
        counts["genuine"] += genuine
        live = dc._messages.get(int(message["id"]))
        target: int | JSON = int(message["id"]) if live is not None else message
        allowed = games.may_change(user, message, custom_id)
        if allowed is None:
            batch.append(await dc.forge(user, target, custom_id))
            if len(batch) >= BATCH:
                await flush()
            continue
        await flush()
        # The batch's wait may have seen the message deleted (a deal ended meanwhile,
        # say): pressed as it was, then.
        live = dc._messages.get(int(message["id"]))
        target = int(message["id"]) if live is not None else message
        iid = await dc.forge(user, target, custom_id)
        await dc.wait_for(lambda i=iid: dc.responses(i).callback_type is not None)  # type: ignore[misc]
        await h.settled()
        if decode(custom_id).verb is Verb.REMATCH:
            await games.track()
        after = await games.snapshot()
        changed = {gid for gid in after if after[gid] != before.get(gid)}
        new = set(after) - set(before)
        assert changed <= {allowed} | new, (user, message["id"], custom_id, changed)
        counts["changed"] += bool(changed)
        if not any(g.status.is_open and g.chat.id == str(CHANNEL) for g in games.games.values()):
            # A legitimate press ended the club's game: the club plays again.
            await club_game(h)
            await games.track()
            after = await games.snapshot()
        before = after
    await flush()
    print(f"{PRESSES} Discord presses in {time.perf_counter() - started:.1f} s: {counts}")
    unanswered = [i for i, rec in dc.interactions.items() if rec.callback_type is None]
    assert unanswered == []
    assert state(await h.service.game(1)) == closed[1]
    place.refresh()
    check_no_hand_leaks(dc, games, place)
    assert counts["changed"] > PRESSES // 200, counts


async def club_game(h: Harness) -> int:
    """A game in the club's channel: alice, bob, carol and a computer; its table."""
    _, table = await h.open_table()
    for user, team in ((ALICE, "A"), (BOB, "B"), (CAROL, "A")):
        await h.seat(table, user, team)
    await h.click(ALICE, table, h.t("lobby-add-computer-b"))
    await h.click(ALICE, table, h.t("lobby-start"))
    await h.settled()
    return table


def pick(
    rng: random.Random,
    h: Harness,
    games: Games,
    place: Place,
    messages: list[JSON],
    pool: list[str],
) -> tuple[int, JSON, str, bool]:
    dc = h.dc
    roll = rng.random()
    if roll < 0.15:  # the human to move presses a button of his DM hand
        for game in games.games.values():
            turn = game.play.turn  # any rule set's: the lobby may switch a table's rules
            if game.status is GameStatus.PLAYING and turn is not None:
                player = game.seats[turn]
                key = f"hand:{turn}"
                if player and player.user and not player.plays_itself and key in game.messages:
                    hand = dc._messages.get(int(game.messages[key]))
                    buttons = [cid for _, cid, off in dc.buttons(hand or {}) if cid and not off]
                    moves = [cid for cid in buttons if cid.startswith("k:p:")]
                    if hand is not None and moves and rng.random() < 0.5:
                        return int(player.user.id), hand, rng.choice(moves), True
                    if hand is not None and buttons:
                        return int(player.user.id), hand, rng.choice(buttons), True
    while True:
        user, message = rng.choice(USERS), rng.choice(messages)
        if place.sees(user, message):
            break
    if roll < 0.35:
        buttons = [cid for _, cid, _ in dc.buttons(message) if cid]
        if buttons:
            return user, message, rng.choice(buttons), False
    if roll < 0.55 and pool:
        return user, message, rng.choice(pool), False
    if roll < 0.9 and pool:
        return user, message, mutate(rng, rng.choice(pool), sorted(games.games)), False
    return user, message, mutate(rng, "", []), False


def check_no_hand_leaks(dc: FakeDiscord, games: Games, place: Place) -> None:
    for message in dc._messages.values():
        for _, custom_id, _ in dc.buttons(message):
            try:
                command = decode(custom_id or "")
            except CodecError:
                continue
            if command.verb not in (Verb.SELECT, Verb.PLAY):
                continue
            owner = place.owner.get(int(message["id"])) or place.dm_user(message)
            assert owner is not None, f"a hand in a public message: {message['content']!r}"
            game = games.games.get(command.game_id)
            assert game is not None and game.seat_of(ref(owner)) is not None, custom_id
