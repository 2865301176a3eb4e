"""The libraries' private parts the adapters still use, pinned down: an upgrade that
moves them fails here, loudly and by name, not in a game.

- aiosqlite's ``Connection._execute`` and ``Connection._conn``
  (:func:`adapters.sqlite.storage._on_connection_thread`): the group commit writes a
  batch of saves in one call on the connection's worker thread. aiosqlite has no
  public way to run a function there (see the module's docs for why a second, plain
  sqlite3 connection is worse).
- aiogram's ``BaseSession.prepare_value(..., _dumps_json=False)``
  (:class:`adapters.telegram.session.LeanSession`): a default or a nested object as a
  plain value for a JSON body, exactly as aiogram prepares it for its form.

The webhook no longer uses ``SimpleRequestHandler``'s private methods (it is built on
the Dispatcher's public API). A new release of either library: check these uses
against its code, then add its series below.
"""

from __future__ import annotations

import asyncio
import inspect
import sqlite3
import threading
from pathlib import Path

import aiogram
import aiosqlite
import pytest
from aiogram import Bot
from aiogram.client.default import Default, DefaultBotProperties
from aiogram.client.session.base import BaseSession
from aiogram.enums import ParseMode
from aiogram.methods import SendMessage
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from adapters.sqlite.storage import _on_connection_thread
from adapters.telegram.session import LeanSession

#: The release series whose private parts were checked against the adapters' use.
CHECKED_AIOSQLITE = ("0.20", "0.21", "0.22")
CHECKED_AIOGRAM = ("3.31",)


def _series(version: str) -> str:
    return ".".join(version.split(".")[:2])


def test_aiosqlite_is_a_release_whose_private_connection_thread_was_checked() -> None:
    version = aiosqlite.__version__
    assert _series(version) in CHECKED_AIOSQLITE, (
        f"aiosqlite {version}: check adapters.sqlite.storage._on_connection_thread "
        "against its Connection._execute and Connection._conn, then add the series here"
    )


async def test_a_function_runs_on_the_connections_thread_in_its_transaction(
    tmp_path: Path,
) -> None:
    async with aiosqlite.connect(tmp_path / "db.sqlite3") as db:
        await db.execute("CREATE TABLE t (x INTEGER)")
        await db.commit()
        await db.execute("BEGIN")
        await db.execute("INSERT INTO t VALUES (1)")
        loop_thread = threading.get_ident()

        def inside(conn: sqlite3.Connection) -> tuple[int, int, bool]:
            conn.execute("INSERT INTO t VALUES (2)")
            (count,) = conn.execute("SELECT count(*) FROM t").fetchone()
            return threading.get_ident(), count, conn.in_transaction

        thread, count, in_transaction = await _on_connection_thread(db, inside)
        assert thread != loop_thread
        assert (count, in_transaction) == (2, True)  # the same connection, one transaction
        await db.rollback()
        assert list(await db.execute_fetchall("SELECT count(*) FROM t")) == [(0,)]
        seen: list[int] = []
        await _on_connection_thread(db, lambda conn: seen.append(threading.get_ident()))
        assert seen == [thread]  # always the worker thread

        def fails(conn: sqlite3.Connection) -> None:
            raise sqlite3.IntegrityError("refused")

        with pytest.raises(sqlite3.IntegrityError, match="refused"):
            await _on_connection_thread(db, fails)
    with pytest.raises(ValueError):
        await _on_connection_thread(db, lambda conn: None)


async def test_calls_queued_from_many_tasks_share_the_one_worker_thread(tmp_path: Path) -> None:
    async with aiosqlite.connect(tmp_path / "db.sqlite3") as db:
        threads = await asyncio.gather(
            *(_on_connection_thread(db, lambda conn: threading.get_ident()) for _ in range(20))
        )
        assert len(set(threads)) == 1


def test_aiogram_is_a_release_whose_prepare_value_was_checked() -> None:
    version = aiogram.__version__
    assert _series(version) in CHECKED_AIOGRAM, (
        f"aiogram {version}: check LeanSession (prepare_value's _dumps_json) and the "
        "webhook against it, then add the series here"
    )
    assert "_dumps_json" in inspect.signature(BaseSession.prepare_value).parameters


async def test_prepare_value_gives_plain_values_for_a_json_body() -> None:
    session = LeanSession()
    bot = Bot("42:TEST", session=session, default=DefaultBotProperties(parse_mode=ParseMode.HTML))
    try:
        markup = InlineKeyboardMarkup(
            inline_keyboard=[[InlineKeyboardButton(text="a", callback_data="k:1")]]
        )
        dumped = SendMessage(chat_id=1, text="hi", reply_markup=markup).model_dump()
        files: dict[str, object] = {}
        plain = session.prepare_value(
            dumped["reply_markup"], bot=bot, files=files, _dumps_json=False
        )
        assert plain == {"inline_keyboard": [[{"text": "a", "callback_data": "k:1"}]]}
        mode = session.prepare_value(Default("parse_mode"), bot=bot, files=files, _dumps_json=False)
        assert mode == "HTML"
        assert files == {}
        body = session.build_json(bot, SendMessage(chat_id=1, text="hi", reply_markup=markup))
        assert body is not None
        assert b'"parse_mode": "HTML"' in body
        assert b'"inline_keyboard": [[{"text": "a", "callback_data": "k:1"}]]' in body
    finally:
        await session.close()
