"""The floor under ``bench.telegram``: ``python -m bench.telegram_floor [--games 200]``.

The same closed loop as :mod:`bench.telegram` (N chats, one simulated user each,
pressing again the moment the bot has answered the last press), against the same fake
Bot API server in a child process, with the same latency (from the press queued at
the fake to the bot's last request for it) — but the bot does no game at all: its one
handler answers the callback query and edits two messages (the "hand" in the user's
private chat and the "table" in a group) with a counter, the three requests a move
costs the real bot. No storage, no rules, no rendering.

So this measures what aiogram's Dispatcher, its HTTP session and the Bot API protocol
cost on this machine, the least any aiogram bot pays per press. With ``N`` presses
always waiting, the mean latency is about ``N`` divided by the throughput (Little's
law), so it also says how many updates a second a bot would need for a latency.
``--session aiogram`` uses aiogram's stock ``AiohttpSession``, ``--session lean``
(the default) the bot's :class:`~adapters.telegram.session.LeanSession`;
``--webhook`` has the fake POST the updates to the bot's
:class:`~adapters.telegram.webhook.WebhookServer`, the callback answer going back in
the webhook's response (two requests a press then, plus that answer).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import multiprocessing
import statistics
import sys
import time
from multiprocessing.connection import Connection
from typing import Any

from bench.common import free_port, peak_rss_mb
from bench.stats import percentile
from bench.telegram import fresh_runs, print_results

TOKEN = "123456:FLOOR-token"
GROUP_BASE = -2_000_000
USER_BASE = 5_000
DATA = "press"
REQUESTS_PER_PRESS = 3  # the answer, the hand, the table


# --- Telegram: the fake server and the users (the child process) ----------------------


def telegram_main(conn: Connection, games: int, presses: int, webhook: bool) -> None:
    asyncio.run(_telegram(conn, games, presses, webhook))


async def _telegram(conn: Connection, games: int, presses: int, webhook: bool) -> None:
    from testing.fakes.telegram import FakeTelegram

    latencies: list[float] = []
    pressed_at: dict[int, float] = {}  # user -> when the press waiting for answers was made
    seen: dict[int, int] = {}  # user -> requests for that press so far
    ready: dict[int, asyncio.Event] = {}
    group_user = {GROUP_BASE - i: USER_BASE + i for i in range(games)}

    class Fake(FakeTelegram):
        """Counts each press's requests; its third one ends it and wakes the user."""

        async def _notify(self) -> None:
            if self.calls:
                call = self.calls.pop()  # keep no log: only the times matter
                chat = call.params.get("chat_id")
                if call.method == "answerCallbackQuery":
                    chat = self._pressed.get(str(call.params.get("callback_query_id")))
                user = group_user.get(chat, chat) if isinstance(chat, int) else None
                if user in pressed_at:
                    seen[user] += 1
                    if seen[user] == REQUESTS_PER_PRESS:
                        latencies.append((call.time - pressed_at.pop(user)) * 1000)
                        ready[user].set()
            await super()._notify()

    async def play(tg: FakeTelegram, user: int, hand: int) -> None:
        for _ in range(presses):
            await ready[user].wait()
            ready[user].clear()
            seen[user] = 0
            pressed_at[user] = tg.clock()
            await tg.press(user, user, hand, DATA)

    async with Fake(group_limit=10**9) as tg:
        for i in range(games):
            tg.add_user(USER_BASE + i, f"User {i}", language_code="en")
            tg.user_starts(USER_BASE + i)
            tg.add_group(GROUP_BASE - i, f"Table {i}")
            ready[USER_BASE + i] = asyncio.Event()
        conn.send(tg.base_url)
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, conn.recv)  # the messages are there
        if webhook:
            await tg.wait_for(lambda t: t.webhook, timeout=30)
        hands = {}
        for i in range(games):
            message = tg.last_message(USER_BASE + i)
            assert message is not None
            hands[USER_BASE + i] = message.message_id
        for event in ready.values():
            event.set()
        started, cpu_started = tg.clock(), time.process_time()
        await asyncio.gather(*(play(tg, user, hand) for user, hand in hands.items()))
        await asyncio.gather(*(ready[user].wait() for user in hands))
        elapsed = tg.clock() - started
        conn.send(
            {
                "games": games,
                "presses": len(latencies),
                "updates_per_second": len(latencies) / elapsed,
                "p50_ms": percentile(latencies, 50),
                "p99_ms": percentile(latencies, 99),
                "mean_ms": statistics.fmean(latencies),
                "seconds": elapsed,
                "telegram_cpu_percent": 100 * (time.process_time() - cpu_started) / elapsed,
            }
        )
        await loop.run_in_executor(None, conn.recv)  # the bot stopped


# --- The bot (this process) -------------------------------------------------------------


async def run_bot(
    games: int, presses: int, session_kind: str, webhook: bool = False
) -> dict[str, Any]:
    from aiogram import Bot, Dispatcher, Router
    from aiogram.client.session.aiohttp import AiohttpSession
    from aiogram.client.telegram import TelegramAPIServer
    from aiogram.methods import AnswerCallbackQuery
    from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup

    from adapters.telegram.session import LeanSession
    from adapters.telegram.webhook import WebhookServer

    context = multiprocessing.get_context("spawn")
    conn, child_conn = context.Pipe()
    child = context.Process(target=telegram_main, args=(child_conn, games, presses, webhook))
    child.start()
    loop = asyncio.get_running_loop()
    base_url = await loop.run_in_executor(None, conn.recv)
    server = TelegramAPIServer.from_base(base_url)
    kind = LeanSession if session_kind == "lean" else AiohttpSession
    bot = Bot(TOKEN, session=kind(api=server, limit=1000))
    keyboard = InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text="Press", callback_data=DATA)]]
    )
    tables: dict[int, int] = {}  # user -> the table message in the user's group
    counts: dict[int, int] = {}

    async def pressed(query: CallbackQuery, bot: Bot) -> AnswerCallbackQuery | None:
        user, message = query.from_user.id, query.message
        assert message is not None
        count = counts[user] = counts.get(user, 0) + 1
        if not webhook:
            await query.answer()
        await bot.edit_message_text(
            text=f"Hand {count}", chat_id=user, message_id=message.message_id, reply_markup=keyboard
        )
        group = GROUP_BASE - (user - USER_BASE)
        await bot.edit_message_text(text=f"Table {count}", chat_id=group, message_id=tables[user])
        return query.answer() if webhook else None  # in the webhook's response

    router = Router()
    router.callback_query.register(pressed)
    dp = Dispatcher()
    dp.include_router(router)
    for i in range(games):
        user, group = USER_BASE + i, GROUP_BASE - i
        tables[user] = (await bot.send_message(group, "Table")).message_id
        await bot.send_message(user, "Hand", reply_markup=keyboard)
    if webhook:
        port = free_port()
        url = f"http://127.0.0.1:{port}/floor"
        server = WebhookServer(
            dp, bot, url=url, secret_token="floor", host="127.0.0.1", port=port, path="/floor"
        )
        receiving = asyncio.create_task(server.run())
    else:
        receiving = asyncio.create_task(
            dp.start_polling(bot, handle_signals=False, close_bot_session=False)
        )
    conn.send("set")
    cpu_started, started = time.process_time(), time.monotonic()
    result: dict[str, Any] = await loop.run_in_executor(None, conn.recv)
    cpu = 100 * (time.process_time() - cpu_started) / (time.monotonic() - started)
    if webhook:
        server.stop()
    else:
        await dp.stop_polling()
    await receiving
    await bot.session.close()
    conn.send("stop")
    child.join()
    result["bot_cpu_percent"] = cpu
    result["session"] = session_kind
    result["updates"] = "webhook" if webhook else "polling"
    result["peak_rss_mb"] = peak_rss_mb()
    result["updates_per_second_for_100ms"] = games / 0.1
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="concurrent chats")
    parser.add_argument("--presses", type=int, default=30, help="presses per user")
    parser.add_argument("--session", choices=("lean", "aiogram"), default="lean")
    parser.add_argument("--webhook", action="store_true", help="updates to a webhook, no polling")
    parser.add_argument("--runs", type=int, default=1, help="runs, each in new processes")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    if args.runs == 1:
        results = [asyncio.run(run_bot(args.games, args.presses, args.session, args.webhook))]
    else:
        command = [sys.executable, "-m", "bench.telegram_floor", "--json", "--runs", "1"]
        command += ["--games", str(args.games), "--presses", str(args.presses)]
        command += ["--session", args.session] + (["--webhook"] if args.webhook else [])
        results = fresh_runs(command, args.runs)
    if args.json:
        print(json.dumps(results[0]))
        return 0
    print_results(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
