"""Every message the bot sends or edits goes through the outbox, paced.

Telegram's Bots FAQ ("My bot is hitting limits, how do I avoid this?") documents
three limits, and the outbox keeps each to what it is said to apply to:

* inside a particular chat, no more than about one message a second (any chat: a
  private one or a group; the outbox counts edits too);
* into one group, no more than 20 messages a minute (edits count, as measured by
  bot authors);
* bulk notifications to many users: no more than about 30 messages a second. That
  is new messages into users' private chats, so the bot's overall pace
  (``Pacing.global_limit``) counts only those; edits and group messages are not
  notifications to users and are held by the two limits above.

Past a limit Telegram answers 429 with ``retry_after``. The outbox keeps a queue per
chat, worked by one task at a time, so a chat's messages keep their order:

* **Slots** are messages edited in place: a game's table and each player's hand.
  A slot holds at most one queued job: a newer screen replaces the queued one (the
  job moves to the end of the queue if something was queued after it), so a
  burst of moves costs one edit, never one per card. A screen may be a *render*
  function, called only when the job is about to go out: replaced states are
  never rendered. A job may *linger* (``Pacing.linger``, 50 ms) when a newer state
  is known to follow at once (computer players without a move delay), so that a
  move and the computers' answers make one edit. A screen nobody waits for (not
  *urgent*: a table refresh) waits until ``Pacing.refresh`` seconds after its slot's
  last write, so that the moves made meanwhile cost one edit; a message queued
  behind it in its chat, or an urgent screen of the slot, ends the wait. A hand is
  never held so: it is shown again only when what it shows changed, and then at
  once. A screen of an older game version
  than one already queued is dropped; a screen equal to what the message shows is
  not sent again. The first screen of a slot is sent as a new message and its id
  remembered (``remember``), so that edits survive a restart.
* **Sends** (results, notices) are new messages, in order.
* **Answers** (to commands and to presses that answer with a message of their own)
  are new messages too, but the game goes first: a chat's answers wait in a lane of
  their own, taken only when nothing of the game is ready in the chat (a screen or a
  send), and an answer whose turn came while it waited for the chat's pace (or a
  429) steps back if something of the game came meanwhile. Answers leave
  ``Pacing.answer_reserve`` places of a group's window to the game. Answers with the
  same *key* (the same command, with the same words) coalesce: only the newest
  pending is sent, in the place of the first. At most ``ANSWERS_PER_CHAT`` keys wait
  in a chat; a further answer is dropped, and the chat is told once (the ``busy``
  notice) that some were. A flood of ``/help`` costs a message or two, and the
  table's next edit is the chat's next write whatever waits.

Before each request the outbox waits for the chat's pace, and a new private message
for the bot's overall pace (unless pacing is off, for benchmarks). When the overall
pace is what holds messages back, *urgent* screens go first (``show(urgent=True)``
and pressed screens: the presser's own hand, the hand of the seat to act), then the
rest in order: nothing a player waits for stands behind a queue of notices. A
group's budget outlives the process: the times of the requests into each group are
kept (``budget``, in the database) before they go out, and a restarted outbox goes
on from them instead of bursting. A 429 is waited out and the same request retried,
so nothing is lost or reordered. "Message is not modified" is ignored; "message to
edit not found" sends a new message and remembers it; a chat that became a
supergroup is migrated (``on_migrate``) and the request retried there. A private
chat that refuses us (403) drops its message quietly when asked to. What the game does
without (a result's picture, a question's deletion) on a Bot API server that lacks its
method (404) is one warning line. A job that fails
otherwise (a 5xx after its retries) is counted by the error's type and the last
``FAILURES_KEPT`` are kept with a short reason (``stats``), never the exception itself:
a long outage costs a few counters, not every traceback. A slot's screen that fails so
is told to its caller (``show(failed=...)``): its message still shows the screen before.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Literal, Protocol, TypeVar

from aiogram import Bot
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNetworkError,
    TelegramNotFound,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.methods import EditMessageText
from aiogram.types import BufferedInputFile, Message, ReplyParameters
from pydantic import BaseModel

from adapters.telegram.render import caption_of, keyboard, keyboard_json, text_of
from adapters.telegram.session import LeanSession
from bot.presenters import Screen

log = logging.getLogger(__name__)

T = TypeVar("T")
#: A message edited in place: (game id, key), the key being "table" or "hand:<seat>".
Slot = tuple[int, str]
#: A screen rendered when its message is about to be sent (None: nothing to send now).
Render = Callable[[], Awaitable[Screen | None]]
Remember = Callable[[int, str, str | None], Awaitable[None]]
OnMigrate = Callable[[int, int], Awaitable[None]]

#: A group request's kept time is taken before it goes out, a little earlier than
#: Telegram counts it: a restored budget counts each one this much later.
RESTORED_MARGIN = 1.0

_NOT_MODIFIED = "message is not modified"
_GONE = ("message to edit not found", "message can't be edited", "message_id_invalid")
_NETWORK_RETRIES = 5


class _Edited(BaseModel):
    """What the outbox reads of an edited message: nothing but its id."""

    message_id: int


class _EditText(EditMessageText):
    """``editMessageText`` whose answer is checked (errors raise as usual) but not
    built into a Message, nested keyboard and all (a few tenths of a millisecond of
    CPU an edit): the outbox never reads an edited message."""

    __returning__ = _Edited | bool


class _Moved(Exception):
    """The chat became a supergroup: a message of the old chat cannot be reached."""


class Budget(Protocol):
    """Where the times of the requests into each group are kept (epoch seconds)."""

    async def load(self) -> dict[int, list[float]]: ...
    async def save(self, chat_id: int, times: list[float]) -> None: ...


@dataclass(frozen=True, slots=True)
class Pacing:
    """How fast the bot may write. ``enabled=False`` (benchmarks) never waits; the
    order of a chat's messages and the coalescing of edits stay."""

    enabled: bool = True
    group_limit: int = 20  # sends + edits into one group ...
    group_window: float = 60.0  # ... per this many seconds
    chat_interval: float = 1.0  # seconds between two requests into one chat (any chat)
    #: New messages into users' private chats together (Telegram's bulk notifications) ...
    global_limit: int = 30
    global_window: float = 1.0  # ... per this many seconds
    #: How long a table or hand may wait for a change known to follow at once (a
    #: computer player's move without delay), so that a move and the answers to it
    #: make one edit. Not a rate limit: it stays when pacing is off.
    linger: float = 0.05
    #: Seconds a slot's screen that nobody waits for (not urgent) waits after the
    #: slot's last write, coalescing the changes meanwhile: a table is refreshed at
    #: most 7.5 times a minute (the group's 20 leave room for results and notices).
    refresh: float = 8.0

    #: Places of a group's window (``group_limit``) answers to commands leave to the
    #: game: answers wait while fewer are free.
    answer_reserve: int = 5

    @classmethod
    def off(cls) -> Pacing:
        return cls(enabled=False, refresh=0.0)


@dataclass(eq=False, slots=True)
class _Job:
    kind: Literal["send", "show", "edit", "delete"]
    screen: Screen | Render | None = None
    thread: int | None = None
    reply_to: int | None = None
    slot: Slot | None = None
    message_id: int | None = None
    quiet: bool = False  # a refusing private chat (403) drops the job silently
    result: asyncio.Future[Message | None] | None = None
    #: Called once the job is done for good: sent, or refused by the chat.
    done: Callable[[], Awaitable[None]] | None = None
    #: Called if the job failed for good (a 5xx after its retries): a slot's screen.
    failed: Callable[[], None] | None = None
    dropped: bool = False  # replaced by a newer job of the same slot
    not_before: float = 0.0  # the loop's time before which it waits for newer screens
    urgent: bool = False  # goes before the others at the bot's overall pace
    answer: str | None = None  # an answer's key (answers with the same key coalesce)
    photo: bytes | None = None  # a picture (PNG) sent with the screen's text as caption

    @property
    def optional(self) -> bool:
        """Whether the game does without it: a picture, a message's deletion."""
        return self.kind == "delete" or self.photo is not None

    @property
    def what(self) -> str:
        return "picture" if self.photo is not None else self.kind


@dataclass(eq=False, slots=True)
class _SlotState:
    chat_id: int
    message_id: int | None
    version: int = -1
    #: The game version of the last screen a player's press asked for (a selection).
    pressed: int = -1
    shown: Screen | None = None
    pending: _Job | None = None
    busy: bool = False
    written: float | None = None  # the loop's time of the slot's last write


#: The most characters of a picture's caption (Telegram's limit: 1024).
CAPTION_CHARS = 1024
#: Failed sends kept with their reasons (the newest); the rest are only counted.
FAILURES_KEPT = 10
#: How much of a failure's reason is kept.
REASON_CHARS = 200


@dataclass(frozen=True, slots=True)
class Failure:
    """A job that failed for good: what it was, where, and why (short, no traceback)."""

    kind: str  # the job's kind: send, show, edit, delete
    chat_id: int
    error: str  # the exception's type name
    reason: str


@dataclass(slots=True)
class _Stats:
    requests: int = 0
    retried_429: int = 0
    coalesced: int = 0
    skipped: int = 0
    dropped: int = 0  # answers dropped: too many waited in their chat
    #: Failed jobs by the exception's type name, ever.
    failed: Counter[str] = field(default_factory=Counter)
    #: The latest ``FAILURES_KEPT`` failures.
    failures: deque[Failure] = field(default_factory=lambda: deque(maxlen=FAILURES_KEPT))

    def failure(self, kind: str, chat_id: int, error: BaseException) -> bool:
        """Count a failed job and keep its reason; whether it is the first of its type."""
        name = type(error).__name__
        self.failed[name] += 1
        self.failures.append(Failure(kind, chat_id, name, str(error)[:REASON_CHARS]))
        return self.failed[name] == 1


#: Answers (distinct keys) waiting in one chat, at most; more are dropped.
ANSWERS_PER_CHAT = 10
#: The key of the notice that answers were dropped.
BUSY = "busy"


class _Yielded(Exception):
    """An answer stepped back: something of the game is ready in its chat."""


#: Users kept as known to take private messages.
REACHABLE_KEPT = 50_000
#: The pacing maps are pruned when they hold more chats than this (or twice as many
#: as after the last pruning).
PRUNE_AT = 1024


class Outbox:
    """Queues, coalesces and paces the bot's messages; see the module's docs."""

    def __init__(
        self,
        bot: Bot,
        pacing: Pacing | None = None,
        *,
        remember: Remember | None = None,
        on_migrate: OnMigrate | None = None,
        budget: Budget | None = None,
    ) -> None:
        self.bot = bot
        self.pacing = pacing or Pacing()
        self._remember = remember
        self._on_migrate = on_migrate
        self._budget = budget
        self._budget_loaded: asyncio.Task[None] | None = None
        #: The kept times (epoch seconds) of the latest requests into each group.
        self._group_kept: dict[int, deque[float]] = {}
        self.stats = _Stats()
        self._queues: dict[int, deque[_Job]] = {}
        #: Answers waiting in each chat, by key, in the order the keys came.
        self._answers: dict[int, OrderedDict[str, _Job]] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._slots: dict[Slot, _SlotState] = {}
        self._retired: set[int] = set()
        self._moved: dict[int, int] = {}
        #: Users known to take private messages, the latest ``REACHABLE_KEPT`` (one
        #: forgotten costs a probe message, not a lost one).
        self._reachable: OrderedDict[int, None] = OrderedDict()
        #: Pacing by chat; entries whose window passed are pruned (see ``_prune``).
        self._group_sent: dict[int, deque[float]] = {}
        self._chat_last: dict[int, float] = {}
        self._prune_at = PRUNE_AT
        self._global = _GlobalPace(self.pacing.global_limit, self.pacing.global_window)
        self._wakeups: dict[int, asyncio.Future[None]] = {}

    # --- What callers queue ------------------------------------------------------------

    def send(
        self,
        chat_id: int,
        screen: Screen,
        *,
        thread: int | None = None,
        reply_to: int | None = None,
        quiet: bool = False,
        result: bool = False,
        done: Callable[[], Awaitable[None]] | None = None,
        photo: bytes | None = None,
    ) -> asyncio.Future[Message | None] | None:
        """Queue a new message (``photo``: a picture with the screen's text as its
        caption, at the chat's pace like any message). With ``result`` a future tells
        the sent message (None if a quiet chat refused it) or the error. ``done`` is
        awaited once the message is sent or refused for good (not when the outbox
        stops before)."""
        future = asyncio.get_running_loop().create_future() if result else None
        job = _Job("send", screen, thread, reply_to, quiet=quiet, result=future, done=done)
        job.photo = photo
        self._put(chat_id, job)
        return future

    def answer(
        self,
        chat_id: int,
        screen: Screen,
        key: str,
        *,
        thread: int | None = None,
        reply_to: int | None = None,
        quiet: bool = False,
        busy: Render | None = None,
    ) -> None:
        """Queue an answer to a command (or to a press): a new message that goes after
        whatever of the game is ready in the chat. A pending answer of the same ``key``
        is replaced by this one; when ``ANSWERS_PER_CHAT`` keys wait already, this
        one is dropped and ``busy`` (rendered once, if nothing says it yet) tells the
        chat that some answers were."""
        job = _Job("send", screen, thread, reply_to, quiet=quiet, answer=key)
        waiting = self._answers.setdefault(chat_id, OrderedDict())
        if key in waiting:
            self.stats.coalesced += 1
            waiting[key] = job  # the newest, in the place of the first
        elif len(waiting) < ANSWERS_PER_CHAT:
            waiting[key] = job
        else:
            self.stats.dropped += 1
            log.info("chat %s: too many answers waiting, one to %s dropped", chat_id, key)
            if busy is None or BUSY in waiting:
                return
            waiting[BUSY] = _Job("send", busy, thread, quiet=quiet, answer=BUSY)
        self._wake(chat_id)  # a lingering screen waits on: the answer goes meanwhile
        self._start(chat_id)

    def show(
        self,
        chat_id: int,
        slot: Slot,
        screen: Screen | Render,
        *,
        version: int,
        known: str | int | None = None,
        thread: int | None = None,
        quiet: bool = False,
        linger: bool = False,
        pressed: bool = False,
        urgent: bool = False,
        fresh: bool = False,
        failed: Callable[[], None] | None = None,
    ) -> None:
        """Show ``screen`` in a slot's message: edit it in place, or send it the first
        time. ``screen`` may be a :data:`Render`, called only when the message is
        about to go out (so coalesced states are never rendered). ``known`` is the
        message id the game remembered, if any. With ``linger`` the message waits
        (at most ``pacing.linger``) for a newer screen known to follow at once.

        ``pressed``: the screen answers the player's press (his selected cards). A
        screen of the game that is not newer than it does not replace it: the game
        has not changed since, and the player's selection stays. Its ``version`` is the
        one it was drawn at: drawn before a state already queued or shown, it is
        dropped like any older screen.

        ``urgent`` (and ``pressed``): a screen someone waits for (a player's hand):
        when the bot's overall pace is the limit, it goes before the others (table
        refreshes).

        ``fresh``: the screen goes out as a new message, which the slot shows from
        then on (a player asked for his hand: it comes at the bottom of the chat),
        unless it is older than the slot's state (then the slot's message stays).

        ``failed`` is called if the screen fails for good (a 5xx after the retries; not
        a chat's refusal): the message still shows what it showed before.

        Not urgent, the screen waits until ``pacing.refresh`` seconds after the slot's
        last write, unless something is queued behind it or an urgent screen of the
        slot comes."""
        state = self._slots.get(slot)
        if state is None:
            state = self._slots[slot] = _SlotState(chat_id, _message_id(known))
        if version < state.version or (not pressed and version <= state.pressed):
            self.stats.skipped += 1
            return  # an older state than one already queued or shown
        if fresh:
            state.message_id, state.shown = None, None
        state.version = version
        if pressed:
            state.pressed = version
        if state.chat_id != chat_id:  # the chat moved (a group became a supergroup)
            state.chat_id, state.message_id, state.shown = chat_id, None, None
        pending = state.pending
        not_before = self._now() + self.pacing.linger if linger else 0.0
        if not (urgent or pressed) and state.written is not None:
            not_before = max(not_before, state.written + self.pacing.refresh)
        if pending is not None:
            self.stats.coalesced += 1
            queue = self._queues.get(chat_id)
            if queue and queue[-1] is pending:
                pending.screen, pending.thread, pending.failed = screen, thread, failed
                pending.urgent = pending.urgent or urgent or pressed
                if not_before < pending.not_before:
                    pending.not_before = not_before
                    self._wake(chat_id)
                return
            pending.dropped = True
            not_before = min(pending.not_before, not_before)
            self._wake(chat_id)  # the worker may be lingering on the dropped job
        elif not state.busy and screen == state.shown:
            self.stats.skipped += 1
            return
        job = _Job("show", screen, thread, slot=slot, quiet=quiet, not_before=not_before)
        job.failed = failed
        job.urgent = urgent or pressed or (pending is not None and pending.urgent)
        state.pending = job
        self._put(chat_id, job)

    def edit(self, chat_id: int, message_id: int, screen: Screen) -> None:
        """Edit a message that is no slot (e.g. an older hand message pressed)."""
        self._put(chat_id, _Job("edit", screen, message_id=message_id))

    def delete(self, chat_id: int, message_id: int) -> None:
        self._put(chat_id, _Job("delete", message_id=message_id))

    def message_id(self, slot: Slot, known: str | int | None = None) -> int | None:
        """The message a slot shows, if it was sent."""
        state = self._slots.get(slot)
        if state is not None and state.message_id is not None:
            return state.message_id
        return _message_id(known)

    def retire(self, game_id: int) -> None:
        """The game is over: forget its slots once their last screens are shown."""
        self._retired.add(game_id)
        self._cleanup(game_id)

    # --- Reachability of private chats ----------------------------------------------------

    def reachable(self, user_id: int) -> None:
        """The user wrote to the bot privately: a private message will go through."""
        self._reachable[user_id] = None
        self._reachable.move_to_end(user_id)
        while len(self._reachable) > REACHABLE_KEPT:
            self._reachable.popitem(last=False)

    async def can_message(self, user_id: int, screen: Screen) -> bool:
        """Whether the bot can write to a user privately: yes if it did before (or the
        user wrote to it), else it sends ``screen`` there (in order) to find out."""
        if user_id in self._reachable:
            return True
        future = self.send(user_id, screen, result=True)
        assert future is not None
        try:
            return await future is not None
        except TelegramForbiddenError:
            return False

    # --- Chats changing ids -------------------------------------------------------------

    def resolve(self, chat_id: int) -> int:
        while chat_id in self._moved:
            chat_id = self._moved[chat_id]
        return chat_id

    @property
    def queued(self) -> int:
        """Requests waiting in the chats' queues (answers too)."""
        answers = sum(len(waiting) for waiting in self._answers.values())
        return sum(len(queue) for queue in self._queues.values()) + answers

    async def migrate(self, old: int, new: int) -> None:
        """A group became a supergroup: its queue and slots go to the new id (once)."""
        if old == new or self.resolve(old) == new:
            return
        self._moved[old] = new
        for (game_id, key), state in list(self._slots.items()):
            if state.chat_id == old:
                state.chat_id, state.message_id, state.shown = new, None, None
                await self._store(game_id, key, None)
        if self._on_migrate is not None:
            await self._on_migrate(old, new)

    # --- Lifecycle -------------------------------------------------------------------------

    @property
    def idle(self) -> bool:
        return not self._workers

    async def drain(self) -> None:
        """Wait until every queued message went out."""
        while self._workers:
            await asyncio.gather(*self._workers.values(), return_exceptions=True)

    async def close(self, timeout: float = 5.0) -> None:  # noqa: ASYNC109
        """Send what is queued (for at most ``timeout`` seconds), then stop."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.drain(), timeout)
        for task in list(self._workers.values()):
            task.cancel()
        await asyncio.gather(*self._workers.values(), return_exceptions=True)

    # --- The workers -----------------------------------------------------------------------

    @staticmethod
    def _now() -> float:
        return asyncio.get_running_loop().time()

    async def _linger(self, chat_id: int, seconds: float) -> None:
        """Sleep, unless :meth:`_wake` ends it earlier."""
        loop = asyncio.get_running_loop()
        wakeup = self._wakeups[chat_id] = loop.create_future()
        timer = loop.call_later(seconds, self._wake, chat_id)
        try:
            await wakeup
        finally:
            timer.cancel()
            self._wakeups.pop(chat_id, None)

    def _wake(self, chat_id: int) -> None:
        wakeup = self._wakeups.get(chat_id)
        if wakeup is not None and not wakeup.done():
            wakeup.set_result(None)

    def _put(self, chat_id: int, job: _Job) -> None:
        queue = self._queues.setdefault(chat_id, deque())
        queue.append(job)
        self._wake(chat_id)  # a lingering job goes now: something waits behind it
        self._start(chat_id)

    def _start(self, chat_id: int) -> None:
        if chat_id not in self._workers:
            task = asyncio.get_running_loop().create_task(self._work(chat_id))
            self._workers[chat_id] = task

    def _game_ready(self, chat_id: int) -> bool:
        """Whether something of the game may go into the chat now (before answers)."""
        queue = self._queues.get(chat_id)
        if not queue:
            return False
        job = queue[0]
        return len(queue) > 1 or job.dropped or job.not_before <= self._now()

    def _next(self, chat_id: int) -> _Job | float | None:
        """The chat's next job: the game's first, an answer while the game's only job
        lingers (or nothing of the game waits); else how long the game's job lingers
        (None: nothing waits)."""
        queue = self._queues.get(chat_id)
        if queue and self._game_ready(chat_id):
            return queue.popleft()
        waiting = self._answers.get(chat_id)
        if waiting:
            return waiting.popitem(last=False)[1]
        if queue:
            return queue[0].not_before - self._now()
        return None

    def _step_back(self, chat_id: int, job: _Job) -> None:
        """An answer whose turn came goes back to the front of its chat's answers
        (unless a newer one of its key came meanwhile)."""
        assert job.answer is not None
        waiting = self._answers.setdefault(chat_id, OrderedDict())
        if job.answer not in waiting:
            waiting[job.answer] = job
            waiting.move_to_end(job.answer, last=False)

    async def _work(self, chat_id: int) -> None:
        try:
            while (job := self._next(chat_id)) is not None:
                if isinstance(job, float):
                    await self._linger(chat_id, job)  # newer screens may replace it
                    continue
                if job.dropped:
                    continue
                try:
                    await self._run(chat_id, job)
                    if job.done is not None:
                        await job.done()
                except _Yielded:
                    self._step_back(chat_id, job)
                except asyncio.CancelledError:
                    if job.result is not None and not job.result.done():
                        job.result.cancel()
                    raise
                except Exception as error:
                    if job.result is not None:
                        if not job.result.done():
                            job.result.set_exception(error)
                    elif isinstance(error, TelegramForbiddenError | TelegramBadRequest) or (
                        job.optional and isinstance(error, TelegramNotFound)
                    ):
                        # The bot was removed from the chat, the chat is gone, ...; or
                        # what the game does without is a method the server lacks (a
                        # network or server failure leaves it owed, as any job).
                        log.warning("a %s to chat %s was refused: %s", job.what, chat_id, error)
                        if job.done is not None:
                            await job.done()
                    else:
                        self._failed(chat_id, job, error)
        finally:
            self._workers.pop(chat_id, None)
            if not self._queues.get(chat_id, True):
                del self._queues[chat_id]
            if not self._answers.get(chat_id, True):
                del self._answers[chat_id]

    def _failed(self, chat_id: int, job: _Job, error: Exception) -> None:
        """A job failed for good: counted, logged (the traceback with the first of its
        type), and told to whoever queued it (``failed``)."""
        if self.stats.failure(job.kind, chat_id, error):
            log.exception("a %s to chat %s failed", job.kind, chat_id)
        else:
            failure = self.stats.failures[-1]
            log.error(
                "a %s to chat %s failed: %s: %s", job.kind, chat_id, failure.error, failure.reason
            )
        if job.failed is not None:
            job.failed()

    async def _run(self, chat_id: int, job: _Job) -> None:
        if job.kind == "show":
            await self._show(chat_id, job)
        elif job.kind == "send":
            screen = job.screen
            if screen is not None and not isinstance(screen, Screen):
                screen = await screen()  # an answer rendered when it goes (the busy notice)
            if screen is None:
                return
            yields = (lambda: self._game_ready(chat_id)) if job.answer is not None else None
            sent: Message | None
            if job.photo is not None:
                sent = await self._send_photo(chat_id, screen, job.photo, job.thread)
            else:
                sent = await self._send(
                    chat_id, screen, job.thread, job.reply_to, job.quiet, yields=yields
                )
            if job.result is not None and not job.result.done():
                job.result.set_result(sent)
        elif job.kind == "edit":
            assert isinstance(job.screen, Screen) and job.message_id is not None
            if not await self._edit(chat_id, job.message_id, job.screen):
                log.info("message %s in chat %s is gone; not edited", job.message_id, chat_id)
        else:
            message_id = job.message_id
            assert message_id is not None
            with contextlib.suppress(TelegramBadRequest, _Moved):  # already gone
                await self._call(
                    chat_id,
                    False,
                    lambda cid: self.bot.delete_message(cid, message_id),
                    follows=False,
                )

    async def _show(self, chat_id: int, job: _Job) -> None:
        assert job.slot is not None and job.screen is not None
        state = self._slots.get(job.slot)
        if state is None:
            return
        if state.pending is job:
            state.pending = None
        state.busy = True
        try:
            screen = job.screen if isinstance(job.screen, Screen) else await job.screen()
            if screen is None or (screen == state.shown and state.message_id is not None):
                self.stats.skipped += 1
                return
            mid = state.message_id
            if mid is not None and await self._edit(state.chat_id, mid, screen, job.urgent):
                state.shown, state.written = screen, self._now()
                return
            sent = await self._send(
                state.chat_id, screen, job.thread, None, job.quiet, urgent=job.urgent
            )
            if sent is not None:
                state.message_id, state.shown = sent.message_id, screen
                state.written = self._now()
                await self._store(*job.slot, str(sent.message_id))
        finally:
            state.busy = False
            if job.slot[0] in self._retired:
                self._cleanup(job.slot[0])

    async def _store(self, game_id: int, key: str, message_id: str | None) -> None:
        if self._remember is None:
            return
        try:
            await self._remember(game_id, key, message_id)
        except Exception:
            log.exception("could not remember message %s of game %s", key, game_id)

    def _cleanup(self, game_id: int) -> None:
        slots = [(slot, s) for slot, s in self._slots.items() if slot[0] == game_id]
        if all(s.pending is None and not s.busy for _, s in slots):
            for slot, _ in slots:
                del self._slots[slot]
            self._retired.discard(game_id)

    # --- Requests ------------------------------------------------------------------------

    async def _send(
        self,
        chat_id: int,
        screen: Screen,
        thread: int | None,
        reply_to: int | None,
        quiet: bool,
        *,
        urgent: bool = False,
        yields: Callable[[], bool] | None = None,
    ) -> Message | None:
        text, markup = text_of(screen), keyboard(screen)
        reply = (
            ReplyParameters(message_id=reply_to, allow_sending_without_reply=True)
            if reply_to is not None
            else None
        )
        try:
            sent = await self._call(
                chat_id,
                True,
                lambda cid: self.bot.send_message(
                    cid,
                    text,
                    message_thread_id=thread,
                    reply_markup=markup,
                    reply_parameters=reply,
                ),
                urgent=urgent,
                new=True,
                yields=yields,
            )
        except TelegramForbiddenError:
            self._reachable.pop(chat_id, None)
            if quiet:
                log.debug("chat %s refuses private messages", chat_id)
                return None
            raise
        if chat_id > 0:
            self.reachable(chat_id)
        return sent

    async def _send_photo(
        self, chat_id: int, screen: Screen, photo: bytes, thread: int | None
    ) -> Message:
        """A picture with the screen's text as its caption, counted in the chat's
        budget like a message (a group's 20 a minute)."""
        caption = caption_of(screen, CAPTION_CHARS)
        upload = BufferedInputFile(photo, filename="result.png")
        return await self._call(
            chat_id,
            True,
            lambda cid: self.bot.send_photo(cid, upload, caption=caption, message_thread_id=thread),
            new=True,
        )

    async def _edit(
        self, chat_id: int, message_id: int, screen: Screen, urgent: bool = False
    ) -> bool:
        """Edit a message; False when it is gone (deleted, too old, another chat)."""
        text = text_of(screen)
        try:
            edit = self._edit_request(message_id, text, screen)
            await self._call(chat_id, True, edit, follows=False, urgent=urgent)
        except _Moved:
            return False
        except TelegramBadRequest as error:
            description = error.message.lower()
            if _NOT_MODIFIED in description:
                return True
            if any(gone in description for gone in _GONE):
                return False
            raise
        except TelegramForbiddenError:
            log.info("chat %s refuses the edit of message %s", chat_id, message_id)
        return True

    def _edit_request(
        self, message_id: int, text: str, screen: Screen
    ) -> Callable[[int], Awaitable[object]]:
        """The edit of a message into a chat (given its id): through the lean session's
        :meth:`~adapters.telegram.session.LeanSession.post` when the bot has one (no
        models are built unless the answer is an error), else through aiogram."""

        def method(chat: int) -> _EditText:
            markup = keyboard(screen)
            return _EditText(text=text, chat_id=chat, message_id=message_id, reply_markup=markup)

        session = self.bot.session
        if not isinstance(session, LeanSession):
            return lambda chat: self.bot(method(chat))

        async def post(chat: int) -> None:
            fields: dict[str, object] = {"chat_id": chat, "message_id": message_id, "text": text}
            markup = keyboard_json(screen)
            if markup is not None:
                fields["reply_markup"] = markup
            await session.post(self.bot, "editMessageText", fields, lambda: method(chat))

        return post

    async def _call(
        self,
        chat_id: int,
        counts: bool,
        request: Callable[[int], Awaitable[T]],
        *,
        follows: bool = True,
        urgent: bool = False,
        new: bool = False,
        yields: Callable[[], bool] | None = None,
    ) -> T:
        """Make a request into a chat at its pace (``counts``; a ``new`` message into a
        private chat at the bot's overall pace too); wait out 429s, retry network
        errors a few times. When the chat became a supergroup, the request is made
        again there if it ``follows`` (a new message), else :class:`_Moved` is raised
        (the old chat's message ids mean nothing in the new one). A request that
        ``yields`` (an answer) raises :class:`_Yielded` instead of going out when
        ``yields()`` says something else goes first, before and after each wait."""
        failures = 0
        while True:
            target = self.resolve(chat_id)
            overall = counts and new and target > 0  # a notification to a user
            if counts:
                await self._pace(target, overall, urgent, yields)
            elif yields is not None and yields():
                raise _Yielded
            self.stats.requests += 1
            try:
                return await request(target)
            except TelegramRetryAfter as error:
                self.stats.retried_429 += 1
                log.warning("chat %s: 429, retrying after %ss", target, error.retry_after)
                await asyncio.sleep(error.retry_after)
            except TelegramMigrateToChat as error:
                await self.migrate(target, error.migrate_to_chat_id)
                if not follows:
                    raise _Moved from None
            except (TelegramNetworkError, TelegramServerError) as error:
                failures += 1
                if failures > _NETWORK_RETRIES:
                    raise
                log.warning("chat %s: %s; retrying", target, type(error).__name__)
                await asyncio.sleep(min(0.1 * 2**failures, 5.0))
            finally:
                if counts:
                    self._done(target, overall)

    async def _load_budget(self) -> None:
        """The budget kept by the process before this one, counted in this loop's time."""
        if self._budget is None:
            return
        try:
            kept = await self._budget.load()
        except Exception:
            log.exception("could not read the groups' rate-limit budgets")
            return
        loop_now, wall_now = asyncio.get_running_loop().time(), time.time()
        window = self.pacing.group_window
        for chat_id, times in kept.items():
            recent = sorted(t for t in times if t > wall_now - window - RESTORED_MARGIN)
            if not recent:
                continue
            self._group_kept[chat_id] = deque(recent[-self.pacing.group_limit :])
            sent = self._group_sent.setdefault(chat_id, deque())
            restored = [loop_now - (wall_now - t) + RESTORED_MARGIN for t in recent]
            sent.extendleft(reversed(restored))
            while len(sent) > self.pacing.group_limit:
                sent.popleft()

    async def _keep(self, chat_id: int) -> None:
        """Keep the time of a request into a group before it goes out."""
        if self._budget is None:
            return
        kept = self._group_kept.setdefault(chat_id, deque())
        kept.append(time.time())
        while len(kept) > self.pacing.group_limit:
            kept.popleft()
        try:
            await self._budget.save(chat_id, list(kept))
        except Exception:
            log.exception("could not keep the rate-limit budget of chat %s", chat_id)

    async def _pace(
        self,
        chat_id: int,
        overall: bool,
        urgent: bool = False,
        yields: Callable[[], bool] | None = None,
    ) -> None:
        """Wait for the chat's pace (a group's 20 a minute, any chat's one a second),
        then, for a message that counts ``overall``, for the bot's overall pace. An
        answer (it ``yields``) leaves ``answer_reserve`` places of a group's window to
        the game, and raises :class:`_Yielded` when the game comes first."""
        if yields is not None and yields():
            raise _Yielded
        pacing = self.pacing
        if not pacing.enabled:
            return
        if self._budget_loaded is None:
            self._budget_loaded = asyncio.ensure_future(self._load_budget())
        await asyncio.shield(self._budget_loaded)
        loop = asyncio.get_running_loop()
        wait = 0.0
        now = loop.time()
        last = self._chat_last.get(chat_id)
        if last is not None:
            wait = last + pacing.chat_interval - now
        if chat_id < 0:
            sent = self._group_sent.get(chat_id)
            if sent is not None:
                while sent and sent[0] <= now - pacing.group_window:
                    sent.popleft()
                limit = pacing.group_limit
                if yields is not None:
                    limit = max(1, limit - pacing.answer_reserve)
                if len(sent) >= limit:
                    wait = max(wait, sent[-limit] + pacing.group_window - now)
        if wait > 0:
            await asyncio.sleep(wait)
            if yields is not None and yields():
                raise _Yielded
        if overall:
            await self._global.acquire(urgent)
        if chat_id < 0:
            await self._keep(chat_id)

    def _done(self, chat_id: int, overall: bool) -> None:
        """Count a request when its answer came: later than the server counted it, so
        our window never ends before the server's."""
        if not self.pacing.enabled:
            return
        if overall:
            self._global.done()
        now = asyncio.get_running_loop().time()
        self._chat_last[chat_id] = now
        if chat_id < 0:
            sent = self._group_sent.setdefault(chat_id, deque())
            sent.append(now)
            while len(sent) > self.pacing.group_limit:
                sent.popleft()
        if len(self._group_sent) + len(self._chat_last) > self._prune_at:
            self._prune(now)

    def _prune(self, now: float) -> None:
        """Forget the chats whose pacing window has passed: they delay nothing. Runs
        when the maps doubled since the last time, so its cost is spread thin."""
        pacing = self.pacing
        self._group_sent = {
            chat: sent
            for chat, sent in self._group_sent.items()
            if sent and sent[-1] > now - pacing.group_window
        }
        self._chat_last = {
            chat: last
            for chat, last in self._chat_last.items()
            if last > now - pacing.chat_interval
        }
        wall = time.time()  # the kept times are epoch seconds
        self._group_kept = {
            chat: kept
            for chat, kept in self._group_kept.items()
            if kept and kept[-1] > wall - pacing.group_window
        }
        self._prune_at = max(PRUNE_AT, 2 * (len(self._group_sent) + len(self._chat_last)))


class _GlobalPace:
    """The bot's overall pace: at most ``limit`` requests in any ``window`` seconds.

    A request counts from when it is let go until ``window`` after its answer came:
    Telegram counted it at some moment in between, so our count is never below its.
    While the window is full, requests wait; as places free up, urgent ones go first,
    each kind in the order it came."""

    def __init__(self, limit: int, window: float) -> None:
        self.limit, self.window = limit, window
        self._flying = 0  # let go, not answered yet
        self._answered: deque[float] = deque()  # when the latest answers came
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []  # a heap
        self._order = itertools.count()
        self._timer: asyncio.Handle | None = None

    async def acquire(self, urgent: bool = False) -> None:
        loop = asyncio.get_running_loop()
        if not self._waiting and self._free(loop.time()):
            self._flying += 1
            return
        future: asyncio.Future[None] = loop.create_future()
        heapq.heappush(self._waiting, (0 if urgent else 1, next(self._order), future))
        self._schedule()
        try:
            await future  # a cancelled waiter is skipped when its turn comes
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self.done()  # let go just as it was cancelled: give the place back
            raise

    def done(self) -> None:
        """A request let go was answered (or failed)."""
        self._flying -= 1
        self._answered.append(asyncio.get_running_loop().time())
        self._schedule()

    def _free(self, now: float) -> bool:
        answered = self._answered
        while answered and answered[0] <= now - self.window:
            answered.popleft()
        return self._flying + len(answered) < self.limit

    def _schedule(self) -> None:
        if self._timer is not None or not self._waiting:
            return
        loop = asyncio.get_running_loop()
        if self._free(loop.time()):
            self._timer = loop.call_soon(self._release)
        elif self._answered:  # else an answer in flight frees a place (done)
            self._timer = loop.call_at(self._answered[0] + self.window, self._release)

    def _release(self) -> None:
        self._timer = None
        now = asyncio.get_running_loop().time()
        while self._waiting and self._free(now):
            *_, future = heapq.heappop(self._waiting)
            if not future.done():
                self._flying += 1
                future.set_result(None)
        self._schedule()


def _message_id(known: str | int | None) -> int | None:
    if isinstance(known, int):
        return known
    if known and known.lstrip("-").isdigit():
        return int(known)
    return None
