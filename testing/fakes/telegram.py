"""A fake Telegram Bot API server for driving the real aiogram ``Bot`` offline.

Usage::

    async with FakeTelegram() as tg:
        bot = Bot(TOKEN, session=AiohttpSession(api=TelegramAPIServer.from_base(tg.base_url)))
        alice = tg.add_user(1, "Alice")
        await tg.send_text(alice, alice.id, "/start")
        msg = await tg.wait_for(lambda t: t.last_message(alice.id))

It enforces the limits a game host must respect (see docs in PLATFORMS.md): callback_data
1..64 bytes, a callback answer's URL only ``t.me/<bot>?start=<payload>``, text 1..4096
characters, 403 for users who never started the bot, "message is
not modified", unknown messages and stale callback queries, and Telegram's flood limits as
its Bots FAQ states them, answered with 429 + retry_after: 20 messages a minute into one
group (sends and edits; always on), and if asked one message a second inside any chat
(``chat_interval``) and an overall limit on bulk notifications, i.e. new messages into
users' private chats (``global_limit``). A method named in ``missing`` is answered as the
Bot API answers one it does not have (404 "Not Found: method not found"); a (method, chat)
in ``failing`` is answered 500 "Internal Server Error" (the Bot API failing). Errors use real
HTTP statuses, because aiogram picks its exception type from the status. ``getUpdates``
calls are not recorded in ``calls`` (they would drown the interesting ones; ``polls``
counts them); everything else is. Requests may come as JSON, a form or a query string
(``Call.content_type`` tells which).

Like Telegram, once a bot called ``setWebhook`` the updates are POSTed to its URL (with the
``X-Telegram-Bot-Api-Secret-Token`` header, at most ``max_connections`` at a time) instead
of waiting for ``getUpdates`` (which then answers 409); a method in the webhook's answer is
executed and recorded like a request (``Call.via_webhook``). ``deliveries`` keeps each POST's
update id and HTTP status (0: no connection).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import math
import re
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar
from urllib.parse import parse_qsl

import aiohttp
from aiohttp import web

T = TypeVar("T")
Json = dict[str, Any]

# Form fields that must stay strings even when they look like JSON numbers.
_STRING_FIELDS = frozenset(
    {
        "text", "callback_query_id", "url", "caption", "title", "description", "parse_mode",
        "secret_token",
    }
)  # fmt: skip
# Methods that only get recorded in `calls` and answer True.
_RECORD_ONLY = frozenset({"logout", "close"})
_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")
_WEBHOOK_ACTIVE = (
    "Conflict: can't use getUpdates method while webhook is active; "
    "use deleteWebhook to delete the webhook first"
)
_ADMIN_RIGHTS = (  # noqa: SIM905 (all required by aiogram's ChatMemberAdministrator)
    "can_be_edited is_anonymous can_manage_chat can_delete_messages can_manage_video_chats "
    "can_restrict_members can_promote_members can_change_info can_invite_users "
    "can_post_stories can_edit_stories can_delete_stories can_send_welcome_messages"
).split()
_NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup "
    "are exactly the same as a current content and reply markup of the message"
)
_NO_SUCH_METHOD = "Not Found: method not found"
_QUERY_INVALID = "Bad Request: query is too old and response timeout expired or query ID is invalid"


class ApiError(Exception):
    """An error answered with a real HTTP status and the Bot API error envelope."""

    def __init__(self, status: int, description: str, parameters: Json | None = None) -> None:
        super().__init__(description)
        self.status, self.description, self.parameters = status, description, parameters


@dataclass
class FakeUser:
    id: int
    first_name: str
    language_code: str = "ru"
    username: str | None = None
    started: bool = False  # True once the user wrote to the bot (a bot cannot write first)

    def to_dict(self) -> Json:
        data = {"id": self.id, "is_bot": False, "first_name": self.first_name,
                "language_code": self.language_code, "username": self.username}  # fmt: skip
        return {k: v for k, v in data.items() if v is not None}


@dataclass
class FakeChat:
    id: int
    type: str  # "private", "group" or "supergroup"
    title: str
    admins: list[int] = field(default_factory=list)
    forum: bool = False
    migrated_to: int | None = None
    pinned: set[int] = field(default_factory=set)
    #: Who is in the group (admins always are); None: every known user is.
    members: set[int] | None = None

    def to_dict(self) -> Json:
        if self.type == "private":
            return {"id": self.id, "type": "private", "first_name": self.title}
        forum = {"is_forum": True} if self.forum else {}
        return {"id": self.id, "type": self.type, "title": self.title, **forum}


#: The user Telegram sends an anonymous admin's messages from (GroupAnonymousBot).
ANONYMOUS_ADMIN = 1087968824


@dataclass
class FakeMessage:
    chat_id: int
    message_id: int
    from_id: int
    text: str | None
    date: int
    reply_markup: Json | None = None
    thread_id: int | None = None
    reply_to: int | None = None
    entities: list[Json] | None = None
    extra: Json = field(default_factory=dict)  # service fields, e.g. migrate_to_chat_id
    edited: bool = False
    deleted: bool = False


@dataclass
class Call:
    method: str  # as sent by the client, e.g. "sendMessage"
    params: Json  # nested objects (reply_markup, ...) already JSON-decoded
    time: float  # the fake's (injectable) monotonic clock
    status: int  # HTTP status answered
    description: str | None = None  # error description when status != 200
    content_type: str = ""  # of the request: "application/json", "multipart/form-data", ...
    via_webhook: bool = False  # sent as the answer to a webhook's POST


@dataclass
class Webhook:
    """What ``setWebhook`` registered."""

    url: str
    secret_token: str | None = None
    max_connections: int = 40
    last_error: str | None = None
    slots: asyncio.Semaphore = field(init=False)

    def __post_init__(self) -> None:
        self.slots = asyncio.Semaphore(self.max_connections)


@dataclass
class Delivery:
    """One POST of an update to the webhook."""

    update_id: int
    status: int  # the webhook's HTTP status; 0 when it could not be reached


class FakeTelegram:
    """The fake server plus the simulation API tests use to play users."""

    def __init__(
        self,
        *,
        bot_id: int = 777000111,
        bot_username: str = "kozel_test_bot",
        bot_name: str = "Kozel",
        group_limit: int = 20,
        window: float = 60.0,
        retry_after: int | None = None,
        poll_cap: float = 0.5,
        privacy_mode: bool = True,
        clock: Callable[[], float] = time.monotonic,
        token: str | None = None,
        global_limit: int | None = None,
        global_window: float = 1.0,
        chat_interval: float | None = None,
    ) -> None:
        #: The bot's token; when set, a request with another one is refused (401).
        self.token = token
        self.bot_id, self.bot_username, self.bot_name = bot_id, bot_username, bot_name
        self.group_limit, self.window, self.retry_after = group_limit, window, retry_after
        self.poll_cap, self.privacy_mode, self.clock = poll_cap, privacy_mode, clock
        #: New messages into users' private chats together per ``global_window``: bulk
        #: notifications, the FAQ's "about 30 a second" (None: no limit).
        self.global_limit, self.global_window = global_limit, global_window
        self._all_sends: deque[float] = deque()
        #: Seconds between two writes (sends, edits) into one chat (None: no limit).
        self.chat_interval = chat_interval
        self._chat_last: dict[int, float] = {}
        self.users: dict[int, FakeUser] = {}
        self.chats: dict[int, FakeChat] = {}
        self.calls: list[Call] = []
        #: Every file uploaded with a request, as (file name, bytes), in order.
        self.uploads: list[tuple[str, bytes]] = []
        self.commands: dict[str, list[Json]] = {}  # scope JSON -> commands
        self.callback_answers: dict[str, Json] = {}  # answered query id -> params
        self.too_many_requests_count = 0
        #: Refuse every callback answer carrying a URL (400), as for a bot not allowed to.
        self.refuse_callback_urls = False
        #: Methods answered 404 "Not Found: method not found", as the Bot API answers
        #: one it does not have (an older server, a method Telegram dropped).
        self.missing: set[str] = set()
        #: (method, chat id) answered 500 "Internal Server Error": the Bot API failing a
        #: request into that chat (a client retries a 5xx, then gives it up).
        self.failing: set[tuple[str, int]] = set()
        self.too_many_requests_by_chat: Counter[int] = Counter()
        self._messages: dict[int, dict[int, FakeMessage]] = {}
        self._pressed: dict[str, int] = {}  # callback id -> user id
        self._sends: dict[int, deque[float]] = {}
        #: Chats whose rate-limit bucket is exhausted (``hold``): retry_after by chat.
        self.held: dict[int, int] = {}
        self._updates: list[Json] = []
        self._update_ids = itertools.count(1)
        self._query_ids = itertools.count(1)
        self._delivered = 0  # highest update_id handed out by getUpdates
        self._allowed: set[str] | None = None
        self._changed = asyncio.Condition()
        self._inflight = 0
        self._last_activity = 0.0
        self._closing = False
        self._runner: web.AppRunner | None = None
        self.base_url = ""
        self.polls = 0  # getUpdates requests
        self.webhook: Webhook | None = None
        self.deliveries: list[Delivery] = []
        self._posting: set[asyncio.Task[None]] = set()
        self._http: aiohttp.ClientSession | None = None
        #: Inline queries asked (query id -> user id) and their answers' results.
        self._inline: dict[str, int] = {}
        self.inline_answers: dict[str, list[Json]] = {}
        #: Messages prepared for Mini App users to share: id -> (user id, result).
        self.prepared: dict[str, tuple[int, Json]] = {}
        #: The photos downloaded from inline results' ``photo_url``, by URL.
        self.fetched: dict[str, bytes] = {}

    # ---- lifecycle -------------------------------------------------------------------------
    async def start(self) -> None:
        app = web.Application()
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        app.router.add_route("*", "/file/bot{token}/{path:.*}", self._handle)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self.base_url = f"http://127.0.0.1:{port}"
        self._last_activity = asyncio.get_running_loop().time()

    async def stop(self) -> None:
        self._closing = True  # pending long polls return at once
        async with self._changed:
            self._changed.notify_all()
        for task in list(self._posting):
            task.cancel()
        await asyncio.gather(*self._posting, return_exceptions=True)
        if self._http is not None:
            await self._http.close()
            self._http = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeTelegram:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # ---- HTTP ------------------------------------------------------------------------------
    async def _handle(self, request: web.Request) -> web.Response:
        name = request.match_info.get("method", "file")  # files are not served: 404
        if self.token is not None and request.match_info["token"] != self.token:
            self.calls.append(Call(name, {}, self.clock(), 401, "Unauthorized"))
            return web.json_response(
                {"ok": False, "error_code": 401, "description": "Unauthorized"}, status=401
            )
        params = await self._read_params(request)
        status, body = await self._call(name, params, request.content_type)
        return web.json_response(body, status=status)

    async def _call(
        self, name: str, params: Json, content_type: str, *, via_webhook: bool = False
    ) -> tuple[int, Json]:
        """Run a Bot API method; its HTTP status and answer."""
        polling = name.lower() == "getupdates"
        if polling:
            self.polls += 1
        else:
            self._touch(+1)
        body: Json
        try:
            if name.lower() in {method.lower() for method in self.missing}:
                raise ApiError(404, _NO_SUCH_METHOD)
            if (name, params.get("chat_id")) in self.failing:
                raise ApiError(500, "Internal Server Error")
            if name.lower() in _RECORD_ONLY:
                result: Any = True
            elif (handler := getattr(self, f"_m_{name.lower()}", None)) is not None:
                result = await handler(params)
            else:
                raise ApiError(404, "Not Found")
            status, body = 200, {"ok": True, "result": result}
        except ApiError as e:
            status, body = e.status, {"ok": False, "error_code": e.status}
            body["description"] = e.description
            if e.parameters:
                body["parameters"] = e.parameters
        if not polling:
            self._touch(-1)
            call = Call(name, params, self.clock(), status, body.get("description"))
            call.content_type, call.via_webhook = content_type, via_webhook
            self.calls.append(call)
            await self._notify()
        return status, body

    async def _read_params(self, request: web.Request) -> Json:
        """The request's parameters: from a JSON body as they are; from the query string
        or a form (where nested objects are JSON strings) decoded."""
        raw: dict[str, Any] = dict(request.query)
        if request.can_read_body and request.content_type != "application/json":
            for key, value in (await request.post()).items():
                if isinstance(value, str):
                    raw[key] = value
                elif isinstance(value, web.FileField):  # an uploaded file
                    data = value.file.read()
                    self.uploads.append((value.filename, data))
                    raw[key] = {"filename": value.filename, "size": len(data)}
        params = _decoded(raw)
        if request.content_type == "application/json":
            params.update(await request.json())
        return params

    def _touch(self, delta: int) -> None:
        self._inflight += delta
        self._last_activity = asyncio.get_running_loop().time()

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    # ---- validation helpers ----------------------------------------------------------------
    def _chat(self, chat_id: Any) -> FakeChat:
        chat = self.chats.get(chat_id) if isinstance(chat_id, int) else None
        if chat is None:
            raise ApiError(400, "Bad Request: chat not found")
        if chat.migrated_to is not None:
            raise ApiError(
                400,
                "Bad Request: group chat was upgraded to a supergroup chat",
                {"migrate_to_chat_id": chat.migrated_to},
            )
        return chat

    def _message(self, params: Json, action: str = "edit") -> FakeMessage:
        self._chat(params.get("chat_id"))
        msg = self._messages.get(params["chat_id"], {}).get(params.get("message_id", 0))
        if msg is None or msg.deleted:
            raise ApiError(400, f"Bad Request: message to {action} not found")
        return msg

    @staticmethod
    def _check_text(text: Any) -> str:
        if not isinstance(text, str) or not text:
            raise ApiError(400, "Bad Request: message text is empty")
        if len(text) > 4096:
            raise ApiError(400, "Bad Request: message is too long")
        return text

    def _is_private(self, chat_id: int) -> bool:
        chat = self.chats.get(chat_id)
        return chat is None or chat.type == "private"

    @staticmethod
    def _check_markup(markup: Any, *, private: bool = True) -> Json | None:
        if not isinstance(markup, dict):
            return None
        for row in markup.get("inline_keyboard", []):
            for button in row:
                data = button.get("callback_data")
                if data is not None and not 1 <= len(str(data).encode()) <= 64:
                    raise ApiError(400, "Bad Request: BUTTON_DATA_INVALID")
                app = button.get("web_app")
                if app is not None and not private:  # Mini App buttons: private chats only
                    raise ApiError(400, "Bad Request: BUTTON_TYPE_INVALID")
                if app is not None and not str(app.get("url", "")).startswith("https://"):
                    raise ApiError(400, "Bad Request: BUTTON_URL_INVALID")
        return markup

    def _check_global(self, chat: FakeChat) -> None:
        """The bot's overall limit on new messages to users, when set."""
        if self.global_limit is None or chat.type != "private":
            return
        now = self.clock()
        sent = self._all_sends
        while sent and sent[0] <= now - self.global_window:
            sent.popleft()
        if len(sent) >= self.global_limit:
            self.too_many_requests_count += 1
            raise ApiError(429, "Too Many Requests: retry after 1", {"retry_after": 1})
        sent.append(now)

    def _check_flood(self, chat_id: int) -> None:
        if chat_id in self.held:
            wait = self.held[chat_id]
            self.too_many_requests_count += 1
            self.too_many_requests_by_chat[chat_id] += 1
            raise ApiError(429, f"Too Many Requests: retry after {wait}", {"retry_after": wait})
        now = self.clock()
        if self.chat_interval is not None:
            last = self._chat_last.get(chat_id)
            if last is not None and now - last < self.chat_interval:
                self.too_many_requests_count += 1
                self.too_many_requests_by_chat[chat_id] += 1
                raise ApiError(429, "Too Many Requests: retry after 1", {"retry_after": 1})
        if chat_id >= 0:
            self._chat_last[chat_id] = now
            return
        sent = self._sends.setdefault(chat_id, deque())
        while sent and sent[0] <= now - self.window:
            sent.popleft()
        if len(sent) >= self.group_limit:
            wait = self.retry_after or max(1, math.ceil(sent[0] + self.window - now))
            self.too_many_requests_count += 1
            self.too_many_requests_by_chat[chat_id] += 1
            raise ApiError(429, f"Too Many Requests: retry after {wait}", {"retry_after": wait})
        sent.append(now)
        self._chat_last[chat_id] = now

    # ---- Bot API methods (`_m_<lowercase name>`) -------------------------------------------
    async def _m_getme(self, params: Json) -> Json:
        return {**self._bot_user(), "can_join_groups": True, "can_read_all_group_messages": False}

    async def _m_getupdates(self, params: Json) -> list[Json]:
        if self.webhook is not None:
            raise ApiError(409, _WEBHOOK_ACTIVE)
        offset = int(params.get("offset", 0))
        if offset:
            self._updates = [u for u in self._updates if u["update_id"] >= offset]
        if "allowed_updates" in params:
            self._allowed = set(params["allowed_updates"]) or None
        timeout = min(float(params.get("timeout", 0)), self.poll_cap)
        ready = self._ready_updates
        if not ready() and timeout > 0:
            async with self._changed:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(
                        self._changed.wait_for(lambda: self._closing or ready()), timeout
                    )
        batch = self._ready_updates()[: int(params.get("limit", 100))]
        if batch:
            self._delivered = max(self._delivered, batch[-1]["update_id"])
        return batch

    def _ready_updates(self) -> list[Json]:
        if self._closing:
            return []
        if self._allowed is not None:  # Telegram drops the types the bot did not ask for
            self._updates = [u for u in self._updates if _update_type(u) in self._allowed]
        return list(self._updates)

    async def _m_sendmessage(self, params: Json) -> Json:
        chat = self._chat(params.get("chat_id"))
        if chat.type == "private" and not self.users[chat.id].started:
            raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        text = self._check_text(params.get("text"))
        markup = self._check_markup(params.get("reply_markup"), private=chat.type == "private")
        self._check_global(chat)
        self._check_flood(chat.id)
        reply = params.get("reply_to_message_id") or params.get("reply_parameters", {}).get(
            "message_id"
        )
        thread = params.get("message_thread_id")
        msg = self._store(
            chat.id, self.bot_id, text, reply_markup=markup, thread_id=thread, reply_to=reply
        )
        return self.message_dict(msg)

    async def _m_editmessagetext(self, params: Json) -> Json:
        msg = self._message(params)
        text = self._check_text(params.get("text"))
        private = self._is_private(msg.chat_id)
        return self._edit(
            msg, text, self._check_markup(params.get("reply_markup"), private=private)
        )

    async def _m_editmessagereplymarkup(self, params: Json) -> Json:
        msg = self._message(params)
        private = self._is_private(msg.chat_id)
        return self._edit(
            msg, msg.text, self._check_markup(params.get("reply_markup"), private=private)
        )

    def _edit(self, msg: FakeMessage, text: str | None, markup: Json | None) -> Json:
        # Like Telegram, an edit without reply_markup removes the inline keyboard.
        if text == msg.text and markup == msg.reply_markup:
            raise ApiError(400, _NOT_MODIFIED)
        self._check_flood(msg.chat_id)
        msg.text, msg.reply_markup, msg.edited = text, markup, True
        return self.message_dict(msg)

    async def _m_deletemessage(self, params: Json) -> bool:
        self._message(params, "delete").deleted = True
        return True

    async def _m_answercallbackquery(self, params: Json) -> bool:
        query_id = str(params.get("callback_query_id"))
        if query_id not in self._pressed or query_id in self.callback_answers:
            raise ApiError(400, _QUERY_INVALID)
        url = params.get("url")
        if url is not None and (self.refuse_callback_urls or not self._bot_link(str(url))):
            # A plain button's answer may only open t.me/<this bot>?start=<payload>.
            raise ApiError(400, "Bad Request: URL_INVALID")
        self.callback_answers[query_id] = params
        return True

    def _bot_link(self, url: str) -> bool:
        """Whether ``url`` opens this bot with a start parameter (Bot API:
        answerCallbackQuery's ``url`` for a button that is no game's)."""
        bot = re.escape(self.bot_username)
        return (
            re.fullmatch(rf"(https?://)?t\.me/{bot}\?start=[A-Za-z0-9_-]{{1,64}}", url) is not None
        )

    async def _m_senddocument(self, params: Json) -> Json:
        chat = self._chat(params.get("chat_id"))
        document = params.get("document")
        if isinstance(document, str) and document.startswith("attach://"):
            document = params.get(document.removeprefix("attach://"))  # an uploaded file
        if not isinstance(document, dict):  # a file id or URL: not served here
            raise ApiError(400, "Bad Request: wrong file identifier/HTTP URL specified")
        msg = self._store(chat.id, self.bot_id, None, extra={"caption": params.get("caption")})
        msg.extra["document"] = {
            "file_id": f"doc{msg.message_id}",
            "file_unique_id": f"u{msg.message_id}",
            "file_name": document["filename"],
            "file_size": document["size"],
        }
        return self.message_dict(msg)

    async def _m_sendphoto(self, params: Json) -> Json:
        """A picture, uploaded (a file id or URL is not served here); counted in the
        chat's budget like any message."""
        chat = self._chat(params.get("chat_id"))
        if chat.type == "private" and not self.users[chat.id].started:
            raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        photo = params.get("photo")
        if isinstance(photo, str) and photo.startswith("attach://"):
            photo = params.get(photo.removeprefix("attach://"))
        if not isinstance(photo, dict):
            raise ApiError(400, "Bad Request: wrong file identifier/HTTP URL specified")
        caption = params.get("caption")
        if caption is not None and len(str(caption)) > 1024:
            raise ApiError(400, "Bad Request: message caption is too long")
        self._check_global(chat)
        self._check_flood(chat.id)
        thread = params.get("message_thread_id")
        msg = self._store(chat.id, self.bot_id, None, thread_id=thread, extra={"caption": caption})
        msg.extra["photo"] = [
            {
                "file_id": f"photo{msg.message_id}",
                "file_unique_id": f"p{msg.message_id}",
                "width": 960,
                "height": 540,
                "file_size": photo["size"],
            }
        ]
        return self.message_dict(msg)

    # ---- inline mode and Mini Apps' shared messages -----------------------------------------
    async def _m_answerinlinequery(self, params: Json) -> bool:
        query_id = str(params.get("inline_query_id"))
        if query_id not in self._inline or query_id in self.inline_answers:
            raise ApiError(400, _QUERY_INVALID)
        results = params.get("results")
        if not isinstance(results, list) or len(results) > 50:
            raise ApiError(400, "Bad Request: RESULTS_TOO_MUCH")
        for result in results:
            await self._check_result(result)
        self.inline_answers[query_id] = results
        return True

    async def _m_savepreparedinlinemessage(self, params: Json) -> Json:
        """A message a Mini App's user may send with ``shareMessage`` (Bot API 8.0)."""
        user_id = params.get("user_id")
        if not isinstance(user_id, int) or user_id not in self.users:
            raise ApiError(400, "Bad Request: USER_ID_INVALID")
        if not any(
            params.get(f"allow_{kind}_chats") for kind in ("user", "bot", "group", "channel")
        ):
            raise ApiError(400, "Bad Request: PEER_TYPES_EMPTY")
        result = params.get("result")
        await self._check_result(result)
        assert isinstance(result, dict)
        prepared_id = f"prepared{len(self.prepared) + 1}"
        self.prepared[prepared_id] = (user_id, result)
        return {"id": prepared_id, "expiration_date": int(time.time()) + 86400}

    async def _check_result(self, result: Any) -> None:
        """An inline result; a photo's ``photo_url`` is downloaded, as Telegram does,
        and must be a JPEG."""
        if not isinstance(result, dict) or not result.get("id") or not result.get("type"):
            raise ApiError(400, "Bad Request: RESULT_TYPE_INVALID")
        if result["type"] != "photo":
            return
        url = str(result.get("photo_url", ""))
        if not url.startswith(("http://", "https://")):
            raise ApiError(400, "Bad Request: PHOTO_URL_INVALID")
        if self._http is None:
            self._http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=100))
        try:
            async with self._http.get(url) as response:
                data = await response.read() if response.status == 200 else b""
        except aiohttp.ClientError:
            data = b""
        if not data:
            raise ApiError(400, "Bad Request: WEBPAGE_CURL_FAILED")
        if not data.startswith(b"\xff\xd8"):
            raise ApiError(400, "Bad Request: PHOTO_INVALID_DIMENSIONS")
        self.fetched[url] = data

    # ---- webhooks ----------------------------------------------------------------------------
    async def _m_setwebhook(self, params: Json) -> bool:
        url = params.get("url") or ""
        if not url:  # like Telegram: an empty URL removes the webhook
            return await self._m_deletewebhook(params)
        secret = params.get("secret_token")
        if secret is not None and not _SECRET.fullmatch(str(secret)):
            raise ApiError(400, "Bad Request: secret token contains unallowed characters")
        if "allowed_updates" in params:
            self._allowed = set(params["allowed_updates"]) or None
        if params.get("drop_pending_updates"):
            self._updates.clear()
        self.webhook = Webhook(url, secret, int(params.get("max_connections", 40)))
        pending, self._updates = self._ready_updates(), []
        for update in pending:
            self._post(update)
        return True

    async def _m_deletewebhook(self, params: Json) -> bool:
        self.webhook = None
        if params.get("drop_pending_updates"):
            self._updates.clear()
        return True

    async def _m_getwebhookinfo(self, params: Json) -> Json:
        hook = self.webhook
        info: Json = {
            "url": hook.url if hook else "",
            "has_custom_certificate": False,
            "pending_update_count": len(self._updates) + len(self._posting),
        }
        if hook is not None:
            info["max_connections"] = hook.max_connections
            if self._allowed is not None:
                info["allowed_updates"] = sorted(self._allowed)
            if hook.last_error is not None:
                info["last_error_date"] = int(time.time())
                info["last_error_message"] = hook.last_error
        return info

    def _post(self, update: Json) -> None:
        """Deliver an update to the webhook, in the background."""
        task = asyncio.get_running_loop().create_task(self._deliver(update))
        self._posting.add(task)
        task.add_done_callback(self._posting.discard)

    async def _deliver(self, update: Json) -> None:
        hook = self.webhook
        if hook is None:  # removed meanwhile: back to getUpdates
            self._updates.append(update)
            return
        if self._http is None:
            self._http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=100))
        headers = {"Content-Type": "application/json"}
        if hook.secret_token:
            headers["X-Telegram-Bot-Api-Secret-Token"] = hook.secret_token
        status, reply = 0, None
        try:
            async with hook.slots:
                self._touch(0)
                async with self._http.post(
                    hook.url, data=json.dumps(update), headers=headers
                ) as resp:
                    status = resp.status
                    if status == 200:
                        reply = await _webhook_reply(resp)
                    else:
                        hook.last_error = f"Wrong response from the webhook: {status} {resp.reason}"
        except aiohttp.ClientError as error:
            hook.last_error = f"Connection failed: {error}"
        finally:
            self.deliveries.append(Delivery(update["update_id"], status))
            self._touch(0)
        if reply and isinstance(reply.get("method"), str):
            name = reply.pop("method")
            await self._call(name, reply, "webhook reply", via_webhook=True)
        else:
            await self._notify()

    async def _m_setmycommands(self, params: Json) -> bool:
        self.commands[json.dumps(params.get("scope"), sort_keys=True)] = params["commands"]
        return True

    async def _m_deletemycommands(self, params: Json) -> bool:
        self.commands.pop(json.dumps(params.get("scope"), sort_keys=True), None)
        return True

    async def _m_getchatmember(self, params: Json) -> Json:
        chat = self._chat(params.get("chat_id"))
        user = self.users.get(params.get("user_id", 0))
        if user is None:
            raise ApiError(400, "Bad Request: user not found")
        return self._member(chat, user)

    async def _m_getchatadministrators(self, params: Json) -> list[Json]:
        chat = self._chat(params.get("chat_id"))
        return [self._member(chat, self.users[uid]) for uid in chat.admins]

    async def _m_getchat(self, params: Json) -> Json:
        gifts = (
            "unlimited_gifts limited_gifts unique_gifts premium_subscription gifts_from_channels"
        )
        return {
            **self._chat(params.get("chat_id")).to_dict(),
            "accent_color_id": 0,
            "max_reaction_count": 11,
            "accepted_gift_types": dict.fromkeys(gifts.split(), False),
        }

    async def _m_sendchataction(self, params: Json) -> bool:
        return bool(self._chat(params.get("chat_id")))

    async def _m_pinchatmessage(self, params: Json) -> bool:
        self._chat(params["chat_id"]).pinned.add(self._message(params, "pin").message_id)
        return True

    async def _m_unpinchatmessage(self, params: Json) -> bool:
        pinned = self._chat(params.get("chat_id")).pinned
        if "message_id" in params:
            pinned.discard(params["message_id"])
        else:
            pinned.clear()
        return True

    # ---- JSON shapes -----------------------------------------------------------------------
    def _bot_user(self) -> Json:
        return {
            "id": self.bot_id,
            "is_bot": True,
            "first_name": self.bot_name,
            "username": self.bot_username,
        }

    def _member(self, chat: FakeChat, user: FakeUser) -> Json:
        if chat.type == "private":
            status = "member" if user.id == chat.id else "left"
            return {"status": status, "user": user.to_dict()}
        if user.id not in chat.admins:
            inside = chat.members is None or user.id in chat.members
            return {"status": "member" if inside else "left", "user": user.to_dict()}
        rights = dict.fromkeys(_ADMIN_RIGHTS, False)
        return {"status": "administrator", "user": user.to_dict(), **rights}

    def message_dict(self, msg: FakeMessage, *, nested: bool = False) -> Json:
        """The message as Telegram sends it (``date``, ``chat``, ``from`` always present)."""
        if msg.from_id == self.bot_id:
            sender = self._bot_user()
        else:
            sender = self.users[msg.from_id].to_dict()
        data: Json = {
            "message_id": msg.message_id,
            "date": msg.date,
            "chat": self.chats[msg.chat_id].to_dict(),
            "from": sender,
            **msg.extra,
        }
        if msg.thread_id is not None:
            data["message_thread_id"] = msg.thread_id
            data["is_topic_message"] = self.chats[msg.chat_id].forum or None
        if msg.text is not None:
            data["text"] = msg.text
        if msg.entities:
            data["entities"] = msg.entities
        if msg.reply_markup:
            data["reply_markup"] = msg.reply_markup
        if msg.edited:
            data["edit_date"] = int(time.time())
        replied = self._messages[msg.chat_id].get(msg.reply_to or 0)
        if replied is not None and not nested:
            data["reply_to_message"] = self.message_dict(replied, nested=True)
        return {k: v for k, v in data.items() if v is not None}

    def _store(self, chat_id: int, from_id: int, text: str | None, **fields: Any) -> FakeMessage:
        chat_messages = self._messages.setdefault(chat_id, {})
        message_id = len(chat_messages) + 1
        msg = FakeMessage(chat_id, message_id, from_id, text, int(time.time()), **fields)
        chat_messages[message_id] = msg
        return msg

    async def _queue(self, kind: str, payload: Json) -> Json:
        update = {"update_id": next(self._update_ids), kind: payload}
        if self.webhook is None:
            self._updates.append(update)
        elif self._allowed is None or kind in self._allowed:
            self._post(update)
        self._last_activity = asyncio.get_running_loop().time()
        await self._notify()
        return update

    # ---- simulation API for tests ----------------------------------------------------------
    def add_user(
        self, id: int, first_name: str, language_code: str = "ru", username: str | None = None
    ) -> FakeUser:
        """Register a user; its private chat has ``chat_id == id``."""
        user = FakeUser(id, first_name, language_code, username)
        self.users[id] = user
        self.chats[id] = FakeChat(id, "private", first_name)
        return user

    def add_group(
        self,
        id: int,
        title: str,
        admins: list[int] | None = None,
        supergroup: bool = False,
        forum: bool = False,
    ) -> FakeChat:
        """Register a group (negative id); ``forum=True`` makes it a supergroup with topics."""
        assert id < 0, "group chat ids are negative"
        kind = "supergroup" if supergroup or forum else "group"
        self.chats[id] = FakeChat(id, kind, title, list(admins or []), forum)
        return self.chats[id]

    def hold(self, *chat_ids: int, retry_after: int = 60) -> None:
        """Exhaust the chats' rate-limit buckets: every send or edit into them is
        answered 429 with ``retry_after`` until :meth:`release`."""
        for chat_id in chat_ids:
            self.held[chat_id] = retry_after

    def release(self) -> None:
        self.held.clear()

    def user_starts(self, user: FakeUser | int) -> None:
        """Mark that the user opened the bot, so the bot may write to them."""
        self.users[_uid(user)].started = True

    async def send_text(
        self,
        user: FakeUser | int,
        chat_id: int,
        text: str,
        thread_id: int | None = None,
        reply_to: int | None = None,
        anonymous: bool = False,
    ) -> Json:
        """The user writes ``text``; returns the Update. In a group with privacy mode on, text
        that is not a command for this bot nor a reply to it is stored but not delivered.
        ``anonymous``: an admin of the group writes as the group, as Telegram sends it
        (from GroupAnonymousBot, with the group as ``sender_chat``)."""
        sender = self.users[_uid(user)]
        chat = self._chat(chat_id)
        extra: Json = {}
        if anonymous:
            assert sender.id in chat.admins, "only an admin writes as the group"
            sender = self.users.get(ANONYMOUS_ADMIN) or self.add_user(
                ANONYMOUS_ADMIN, "Group", username="GroupAnonymousBot"
            )
            extra["sender_chat"] = chat.to_dict()
        if chat.type == "private":
            if chat_id != sender.id:
                raise ValueError("a private chat's id is its user's id")
            sender.started = True
        entities = None
        command = text.split(maxsplit=1)[0] if text.startswith("/") else ""
        if command:
            length = len(command.encode("utf-16-le")) // 2
            entities = [{"type": "bot_command", "offset": 0, "length": length}]
        msg = self._store(
            chat_id,
            sender.id,
            text,
            thread_id=thread_id,
            reply_to=reply_to,
            entities=entities,
            extra=extra,
        )
        message = self.message_dict(msg)
        replied = self._messages[chat_id].get(reply_to or 0)
        for_me = (
            (command and ("@" not in command or command.endswith(f"@{self.bot_username}")))
            or f"@{self.bot_username}" in text
            or (replied is not None and replied.from_id == self.bot_id)
        )
        if chat.type == "private" or not self.privacy_mode or for_me:
            return await self._queue("message", message)
        return {"update_id": 0, "message": message}  # hidden from the bot by privacy mode

    async def press(
        self, user: FakeUser | int, chat_id: int, message_id: int, callback_data: str
    ) -> str:
        """The user presses a button carrying ``callback_data``; returns the query id."""
        msg = self._messages.get(chat_id, {}).get(message_id)
        if msg is None or msg.deleted:
            raise LookupError(f"no message {message_id} in chat {chat_id}")
        query_id = str(next(self._query_ids) * 1000003)
        self._pressed[query_id] = _uid(user)
        query = {
            "id": query_id,
            "from": self.users[_uid(user)].to_dict(),
            "message": self.message_dict(msg),
            "chat_instance": str(abs(chat_id)),
            "data": callback_data,
        }
        await self._queue("callback_query", query)
        return query_id

    async def inline_query(self, user: FakeUser | int, query: str) -> str:
        """The user types ``@<bot> <query>`` (in his private chat with someone); returns
        the query id (its answer: :attr:`inline_answers`)."""
        query_id = str(next(self._query_ids) * 1000033)
        self._inline[query_id] = _uid(user)
        payload = {
            "id": query_id,
            "from": self.users[_uid(user)].to_dict(),
            "query": query,
            "offset": "",
            "chat_type": "private",
        }
        await self._queue("inline_query", payload)
        return query_id

    async def press_button(
        self,
        user: FakeUser | int,
        chat_id: int,
        message_id: int,
        text_or_predicate: str | Callable[[Json], bool],
    ) -> str:
        """Press the first button whose text matches (or whose dict satisfies the predicate)."""
        msg = self._messages.get(chat_id, {}).get(message_id)
        rows = (msg.reply_markup or {}).get("inline_keyboard", []) if msg else []
        for button in itertools.chain.from_iterable(rows):
            if (
                button["text"] == text_or_predicate
                if isinstance(text_or_predicate, str)
                else text_or_predicate(button)
            ):
                if "callback_data" not in button:
                    raise LookupError(f"button {button} has no callback_data")
                return await self.press(user, chat_id, message_id, button["callback_data"])
        raise LookupError(
            f"no such button in {chat_id}/{message_id}: {self.buttons(chat_id, message_id)}"
        )

    async def migrate(
        self, old_group_id: int, new_supergroup_id: int, by: FakeUser | int | None = None
    ) -> tuple[Json, Json]:
        """Upgrade a group to a supergroup like Telegram: a ``migrate_to_chat_id`` message in
        the old chat, a ``migrate_from_chat_id`` one in the new chat; both are delivered."""
        old = self._chat(old_group_id)
        who = _uid(by) if by is not None else old.admins[0]
        self.chats[new_supergroup_id] = FakeChat(
            new_supergroup_id, "supergroup", old.title, list(old.admins)
        )
        msg = self._store(old.id, who, None, extra={"migrate_to_chat_id": new_supergroup_id})
        first = await self._queue("message", self.message_dict(msg))
        old.migrated_to = new_supergroup_id
        msg = self._store(new_supergroup_id, who, None, extra={"migrate_from_chat_id": old.id})
        return first, await self._queue("message", self.message_dict(msg))

    # ---- inspection ------------------------------------------------------------------------
    def messages(self, chat_id: int) -> list[FakeMessage]:
        """Every message in the chat, in order, including deleted ones (``deleted`` set)."""
        return list(self._messages.get(chat_id, {}).values())

    def last_message(self, chat_id: int, from_bot: bool = True) -> FakeMessage | None:
        """The newest not deleted message in the chat (by the bot, unless ``from_bot=False``)."""
        for msg in reversed(self.messages(chat_id)):
            if not msg.deleted and (msg.from_id == self.bot_id or not from_bot):
                return msg
        return None

    def buttons(self, chat_id: int, message_id: int) -> list[tuple[str, str | None]]:
        """Flat list of (text, callback_data or url) of the message's inline keyboard
        (a Mini App's ``web_app`` button: its url)."""
        msg = self._messages.get(chat_id, {}).get(message_id)
        rows = (msg.reply_markup or {}).get("inline_keyboard", []) if msg else []
        return [
            (b["text"], b.get("callback_data", b.get("url", (b.get("web_app") or {}).get("url"))))
            for b in itertools.chain.from_iterable(rows)
        ]

    def calls_of(self, *methods: str) -> list[Call]:
        """Recorded calls of these methods (case-insensitive)."""
        wanted = {m.lower() for m in methods}
        return [c for c in self.calls if c.method.lower() in wanted]

    def unanswered_callbacks(self) -> list[str]:
        """Callback query ids pressed but never answered."""
        return [q for q in self._pressed if q not in self.callback_answers]

    async def wait_for(
        self,
        predicate: Callable[[FakeTelegram], T | None],
        timeout: float = 5.0,  # noqa: ASYNC109
    ) -> T:
        """Wait until ``predicate(self)`` is truthy and return its value. It is re-checked each
        time a call is recorded or an update queued (no polling, no sleeps), so it should read
        the fake's state: a change elsewhere (a handler's local list) does not wake it."""
        async with self._changed:
            try:
                result = await asyncio.wait_for(
                    self._changed.wait_for(lambda: predicate(self)), timeout
                )
                assert result is not None  # the predicate was truthy
                return result
            except TimeoutError:
                last = "\n".join(f"  {c.method} {c.status} {c.params}" for c in self.calls[-6:])
                raise TimeoutError(
                    f"wait_for timed out after {timeout}s; last calls:\n{last or '  (none)'}"
                ) from None

    async def wait_idle(self, quiet: float = 0.2, timeout: float = 5.0) -> None:  # noqa: ASYNC109
        """Return once no API call (besides getUpdates) was in flight or arrived for ``quiet``
        seconds and every queued update was delivered. This is time-based by nature (nothing
        signals "the bot decided to do nothing more"); prefer ``wait_for`` when you know what
        to expect."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            now = loop.time()
            idle = now - self._last_activity
            busy = (
                self._inflight
                or self._posting
                or any(u["update_id"] > self._delivered for u in self._updates)
            )
            if not busy and idle >= quiet:
                return
            if now >= deadline:
                raise TimeoutError(f"bot still busy after {timeout}s")
            await asyncio.sleep(min(max(quiet - idle, 0.01), deadline - now))


async def _webhook_reply(resp: aiohttp.ClientResponse) -> Json | None:
    """The method a webhook answered with (JSON, a form or multipart form data), if any."""
    if resp.content_type == "multipart/form-data":
        fields: dict[str, Any] = {}
        reader = aiohttp.MultipartReader(resp.headers, resp.content)
        while (part := await reader.next()) is not None:
            assert isinstance(part, aiohttp.BodyPartReader) and part.name is not None
            fields[part.name] = await part.text()
        return _decoded(fields)
    body = await resp.read()
    if not body:
        return None
    if resp.content_type == "application/json":
        reply = json.loads(body)
        return reply if isinstance(reply, dict) else None
    if resp.content_type == "application/x-www-form-urlencoded":
        return _decoded(dict(parse_qsl(body.decode())))
    return None


def _decoded(raw: dict[str, Any]) -> Json:
    """Form fields with their JSON values (numbers, objects) decoded."""
    params: Json = {}
    for key, value in raw.items():
        if isinstance(value, str) and key not in _STRING_FIELDS:
            with contextlib.suppress(ValueError):  # else a plain string: "@channel"
                value = json.loads(value)
        params[key] = value
    return params


def _uid(user: FakeUser | int) -> int:
    return user.id if isinstance(user, FakeUser) else user


def _update_type(update: Json) -> str:
    return next(key for key in update if key != "update_id")
