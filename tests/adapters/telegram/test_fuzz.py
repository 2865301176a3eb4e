"""A fuzz of button presses (issue 9, point 3): 10,000 callback queries as a user client
can send them — random data, mutated and replayed tokens, tokens of other games, in
other groups, in private chats, on deleted messages, by members and strangers — fed
to the real Dispatcher and handlers (webhook mode: the answer is the update's
result), with the fake Bot API behind them for every request the bot makes.

After every press: it was answered (exactly that query), no handler failed, and no
game changed unless the press could legitimately change it: pressed in the game's
chat by a member of it (or on a hand in the seated player's own private chat) with
the standing the verb needs. At the end: no hand keyboard is in a group, and a
private chat holds only hands of games its user sits at.
"""

from __future__ import annotations

import os
import random
import string
import time
from typing import Any

from aiogram.methods import AnswerCallbackQuery
from aiogram.types import ErrorEvent

from adapters.telegram import build_dispatcher
from bot.codec import CodecError, Command, Verb, decode, encode
from bot.models import ChatRef, Game, GameStatus, Platform, UserRef
from bot.presses import HAND_VERBS
from testing.fakes.telegram import FakeMessage, FakeUser, Json
from tests.adapters.telegram.harness import GROUP, Harness

PRESSES = int(os.environ.get("KOZEL_FUZZ_PRESSES", "10000"))
OTHER, THIRD = -1002, -1003
ALICE, BOB, CAROL, DAVE, EVE, MALLORY = 1, 2, 3, 4, 5, 6
MEMBERS = {GROUP: {ALICE, BOB, CAROL, DAVE}, OTHER: {EVE, BOB}, THIRD: {DAVE}}
ADMINS = {GROUP: {ALICE}, OTHER: {EVE}, THIRD: {DAVE}}
ALPHABET = string.ascii_letters + string.digits + ":_-. k"


def chat_ref(chat: int) -> ChatRef:
    return ChatRef(Platform.TELEGRAM, str(chat))


def uref(uid: int) -> UserRef:
    return UserRef(Platform.TELEGRAM, str(uid))


def state(game: Game) -> tuple[object, ...]:
    return (game.status, game.version, tuple(game.seats), game.settings)


class World:
    """The games the fuzz presses on, and what may change them."""

    def __init__(self, h: Harness) -> None:
        self.h = h
        self.games: dict[int, Game] = {}

    async def track(self) -> None:
        """Follow every chat's open game (a rematch opens a new one)."""
        for chat in (GROUP, OTHER, THIRD, CAROL):
            game = await self.h.service.open_game(chat_ref(chat))
            if game is not None:
                self.games.setdefault(game.id, game)

    async def snapshot(self) -> dict[int, tuple[object, ...]]:
        out = {}
        for game_id, held in list(self.games.items()):
            if held.status.is_open:  # the service's own object (closed: kept as it ended)
                held = self.games[game_id] = await self.h.service.game(game_id)
            out[game_id] = state(held)
        return out

    def may_change(self, uid: int, chat: int, data: str) -> int | None:
        """The one game this press may change, if it may change any."""
        try:
            command = decode(data)
        except CodecError:
            return None
        game = self.games.get(command.game_id)
        if game is None or (not game.status.is_open and command.verb is not Verb.REMATCH):
            return None
        user = uref(uid)
        seated = game.seat_of(user) is not None
        if chat == uid:  # his own private chat: his solo game, or a hand of his
            if str(chat) != game.chat.id and not (command.verb in HAND_VERBS and seated):
                return None
        elif str(chat) != game.chat.id or uid not in MEMBERS.get(chat, set()):
            return None
        creator = user == game.creator
        admin = uid in ADMINS.get(int(game.chat.id), set()) or int(game.chat.id) == uid
        verb = command.verb
        allowed = {
            Verb.JOIN: True,
            Verb.LEAVE: seated,
            Verb.ADD_COMPUTER: creator or seated,
            Verb.REMOVE_COMPUTER: creator or seated,
            Verb.SETTING: creator,
            Verb.START: creator,
            Verb.CANCEL: creator or admin,
            Verb.REMATCH: creator or seated,
        }.get(verb, seated)  # a hand: only a seated player (a move, or coming back)
        return game.id if allowed else None


def mutate(rng: random.Random, token: str, ids: list[int]) -> str:
    """A token changed the way a hand-made client would change it."""
    try:
        command = decode(token)
    except CodecError:
        command = None
    choice = rng.randrange(7)
    if command is not None and choice == 0:
        return encode(
            Command(rng.choice(list(Verb)), command.game_id, command.version, command.arg)
        )
    if command is not None and choice == 1:
        game_id = rng.choice([*ids, command.game_id + 1, max(command.game_id - 1, 0), 10**9])
        return encode(Command(command.verb, game_id, command.version, command.arg))
    if command is not None and choice == 2:
        version = rng.choice([0, command.version + 1, max(command.version - 1, 0), 36**12 - 1])
        return encode(Command(command.verb, command.game_id, version, command.arg))
    if command is not None and choice == 3:
        args = ["", "A", "B", "C", "0", "3", "9", "t30", "t7", "lru", "lde", "ff", "1", "lAS"]
        arg = rng.choice([*args, "b" + "".join(rng.sample("6789TJQKA", 2)) + "S", "m", "dXX"])
        return encode(Command(command.verb, command.game_id, command.version, arg))
    if choice == 4 and token:  # one character changed
        at = rng.randrange(len(token))
        return token[:at] + rng.choice(ALPHABET) + token[at + 1 :]
    if choice == 5:  # cut, or grown past what fits
        return token[: rng.randrange(len(token) + 1)] if rng.random() < 0.5 else token + "x" * 60
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(70)))


async def test_ten_thousand_forged_presses_change_nothing_but_what_they_may(
    h: Harness,
) -> None:
    tg, rng = h.tg, random.Random(20261201)
    users = {uid: h.user(uid, name) for uid, name in zip(
        (ALICE, BOB, CAROL, DAVE, EVE, MALLORY),
        ("Alice", "Bob", "Carol", "Dave", "Eve", "Mallory"), strict=True,
    )}  # fmt: skip
    tg.chats[GROUP].members = MEMBERS[GROUP]
    tg.add_group(OTHER, "Eve's", admins=[EVE]).members = MEMBERS[OTHER]
    tg.add_group(THIRD, "Dave's", admins=[DAVE]).members = MEMBERS[THIRD]
    world = World(h)

    # A running game in the club (Alice, Bob and two computers), a lobby in Eve's
    # group, Carol's solo game, and a lobby in Dave's group cancelled ("yes" deletes
    # the question). Every private chat has the bot's hello.
    await club_game(h, users)
    eves = await h.command(users[EVE], OTHER, "/kozel")
    await h.press_lobby(users[EVE], eves, Verb.JOIN, "A")
    await h.press_lobby(users[EVE], eves, Verb.ADD_COMPUTER, "B")
    await h.command(users[CAROL], CAROL, "/kozel")
    await h.command(users[DAVE], THIRD, "/kozel")
    question = await h.command(users[DAVE], THIRD, "/stop")
    await h.press(users[DAVE], question, tg.buttons(THIRD, question.message_id)[0][1] or "")
    for uid in users:
        await h.command(users[uid], uid, "/start")
    await h.settle()
    await world.track()
    cancelled = await h.service.storage.load_game(1 + max(world.games))  # Dave's lobby
    assert cancelled is None or cancelled.status is GameStatus.CANCELLED
    closed_ids = [gid for gid in range(1, 1 + max(world.games) + 1) if gid not in world.games]
    closed_before = {
        gid: state(g) for gid in closed_ids if (g := await h.service.storage.load_game(gid))
    }
    assert closed_before, "a cancelled game to press on"

    dp = build_dispatcher(
        service=h.service, interactions=h.interactions, tr=h.tr, outbox=h.adapter.outbox,
        into_webhook=True,
    )  # fmt: skip
    failures: list[BaseException] = []

    @dp.errors()
    async def collect(event: ErrorEvent) -> bool:
        failures.append(event.exception)
        return True

    chats = [GROUP, OTHER, THIRD, *users]
    seen: set[str] = set()  # every token the bot ever showed: replayed later
    counts = {"genuine": 0, "changed": 0, "refused": 0}
    started = time.perf_counter()
    messages: list[FakeMessage] = []
    pool: list[str] = []
    for number in range(PRESSES):
        if number % 20 == 0:  # what the chats show now (hands are edited in place)
            await h.adapter.outbox.drain()  # the edits the last presses made went out
            messages = [m for chat in chats for m in tg.messages(chat) if m.from_id == tg.bot_id]
            for message in messages:
                seen.update(d for _, d in tg.buttons(message.chat_id, message.message_id) if d)
            pool = sorted(seen)
        uid, message, data, genuine = pick(rng, tg, world, users, messages, pool)
        counts["genuine"] += genuine
        before = await world.snapshot()
        allowed = world.may_change(uid, message.chat_id, data)
        raw = update(tg, number, users[uid], message, data)
        result = await dp.feed_raw_update(h.adapter.bot, raw)
        assert isinstance(result, AnswerCallbackQuery), (data, result)
        assert result.callback_query_id == raw["callback_query"]["id"]
        await h.service.settle()  # the computers' answers to a legitimate move
        if allowed is not None and decode(data).verb is Verb.REMATCH:
            await world.track()
        after = await world.snapshot()
        changed = {gid for gid in after if after[gid] != before.get(gid)}
        assert changed <= ({allowed} if allowed is not None else set()) | _new(before, after), (
            number, uid, message.chat_id, data, changed, allowed,
        )  # fmt: skip
        counts["changed" if changed else "refused"] += 1
        if changed and not any(
            g.status.is_open and g.chat.id == str(GROUP) for g in world.games.values()
        ):  # a legitimate press ended the club's game: the club plays again
            await club_game(h, users)
            await world.track()
        if result.text:
            assert result.show_alert is True
    print(f"{PRESSES} presses in {time.perf_counter() - started:.1f} s: {counts}")
    await h.settle()
    assert failures == []
    for gid, was in closed_before.items():
        now = await h.service.storage.load_game(gid)
        assert now is not None and state(now) == was
    check_no_hand_leaks(tg, world, chats)
    assert counts["changed"] > PRESSES // 200 and counts["refused"] > PRESSES // 2, counts


async def club_game(h: Harness, users: dict[int, FakeUser]) -> None:
    """A game in the club's group: Alice, Bob and two computers, started."""
    await h.command(users[ALICE], GROUP, "/kozel")
    await h.settle()
    game = await h.service.open_game(chat_ref(GROUP))
    assert game is not None
    lobby = h.table_message(game)
    assert lobby is not None
    await h.press_lobby(users[ALICE], lobby, Verb.JOIN, "A")
    await h.press_lobby(users[BOB], lobby, Verb.JOIN, "B")
    await h.press_lobby(users[ALICE], lobby, Verb.ADD_COMPUTER, "A")
    await h.press_lobby(users[ALICE], lobby, Verb.ADD_COMPUTER, "B")
    await h.press_lobby(users[ALICE], lobby, Verb.START)
    await h.settle()


def _new(before: dict[int, Any], after: dict[int, Any]) -> set[int]:
    """Games that did not exist before the press (a rematch)."""
    return set(after) - set(before)


def pick(
    rng: random.Random,
    tg: Any,
    world: World,
    users: dict[int, FakeUser],
    messages: list[FakeMessage],
    seen: list[str],
) -> tuple[int, FakeMessage, str, bool]:
    """Who presses what, on which message; whether it is the player to move pressing
    his own hand."""
    roll = rng.random()
    if roll < 0.15:  # a genuine press: the human to move, on his own hand
        for game in world.games.values():
            turn = game.play.turn  # any rule set's: the lobby may switch a table's rules
            if game.status is GameStatus.PLAYING and turn is not None:
                player = game.seats[turn]
                if player is not None and player.user is not None and not player.plays_itself:
                    uid = int(player.user.id)
                    mine = [m for m in messages if m.chat_id == uid and m.reply_markup]
                    if mine:
                        message = mine[-1]
                        buttons = [d for _, d in tg.buttons(uid, message.message_id) if d]
                        moves = [d for d in buttons if d.startswith("k:p:")]
                        if moves and rng.random() < 0.5:  # a move he may make: made
                            return uid, message, rng.choice(moves), True
                        return uid, message, rng.choice(buttons), True
    uid = rng.choice(list(users))
    message = rng.choice(messages)
    if roll < 0.35:  # a real button of that message, by anybody
        buttons = [d for _, d in tg.buttons(message.chat_id, message.message_id) if d]
        if buttons:
            return uid, message, rng.choice(buttons), False
    if roll < 0.55 and seen:  # replayed from anywhere
        return uid, message, rng.choice(seen), False
    if roll < 0.9 and seen:
        return uid, message, mutate(rng, rng.choice(seen), sorted(world.games)), False
    return uid, message, mutate(rng, "", []), False


def update(tg: Any, number: int, user: FakeUser, message: FakeMessage, data: str) -> Json:
    """A callback query as Telegram sends it; a deleted message is inaccessible."""
    if message.deleted:
        shown: Json = {
            "chat": tg.chats[message.chat_id].to_dict(), "message_id": message.message_id,
            "date": 0,
        }  # fmt: skip
    else:
        shown = tg.message_dict(message)
    query: Json = {
        "id": f"fuzz{number}", "from": user.to_dict(), "chat_instance": str(message.chat_id),
        "message": shown,
    }  # fmt: skip
    if data or number % 2:  # Telegram sends no data for a game button; keep some empty
        query["data"] = data
    return {"update_id": 10_000_000 + number, "callback_query": query}


def check_no_hand_leaks(tg: Any, world: World, chats: list[int]) -> None:
    hands = (Verb.SELECT, Verb.PLAY)
    for chat in chats:
        for message in tg.messages(chat):
            for _, data in tg.buttons(chat, message.message_id):
                try:
                    command = decode(data or "")
                except CodecError:
                    continue
                if command.verb not in hands:
                    continue
                assert chat > 0, f"a hand in the group {chat}"
                game = world.games.get(command.game_id)
                assert game is not None and game.seat_of(uref(chat)) is not None, (chat, data)
