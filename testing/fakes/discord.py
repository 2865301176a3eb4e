"""A fake Discord (REST under /api/v10 plus a JSON gateway) on 127.0.0.1.

The real discord.py client runs against it: ``async with FakeDiscord() as dc`` starts the
server and points discord.py at it (``Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY``),
restoring both on exit. Build the world (guilds, channels, users) before ``bot.start()``,
then drive it with ``slash``/``click`` and inspect ``calls``, ``messages`` and ``responses``.
Payloads are real Discord JSON shapes; every REST call and gateway op is recorded.

Sharding: ``GET /gateway/bot`` recommends ``shards`` shards; each IDENTIFY with
``shard: [id, count]`` is a connection of its own, which gets the guilds of that shard
(``(guild_id >> 22) % count``) and their interactions; DMs go to shard 0.
``drop_gateway(shard=...)`` closes one, ``hold_shard`` keeps it down until
``release_shard``.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import fnmatch
import itertools
import json
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import discord.http
import yarl
from aiohttp import WSMsgType, web
from discord.gateway import DiscordWebSocket

JSON = dict[str, Any]
#: A token of the shape Discord gives (the settings refuse any other): the fake bot's id
#: (``FakeDiscord``'s default ``bot_id``) in base64, then two made-up parts.
TOKEN = "OTAwMDAwMDAwMDAwMDAwMDAx.GfAkEs.the-fake-discord-servers-bot-token"
EPHEMERAL, LOADING, COMPONENTS_V2 = 1 << 6, 1 << 7, 1 << 15
PERMS_MEMBER = (1 << 6) | (1 << 10) | (1 << 11) | (1 << 14) | (1 << 16) | (1 << 31)
PERMS_ADMIN = PERMS_MEMBER | (1 << 3) | (1 << 5)
VIEW_CHANNEL = 1 << 10
PERMS_BOT = PERMS_MEMBER | (1 << 13) | (1 << 15)


class ApiError(Exception):
    """An error answer: status, JSON body and extra headers."""

    def __init__(self, status: int, body: JSON, headers: dict[str, str] | None = None) -> None:
        super().__init__(f"{status} {body}")
        self.status, self.body, self.headers = status, body, headers or {}


def _error(status: int, code: int, message: str, errors: JSON | None = None) -> ApiError:
    body: JSON = {"code": code, "message": message}
    if errors:
        body["errors"] = errors
    return ApiError(status, body)


def _invalid(path: list[str | int], code: str, message: str) -> ApiError:
    tree: JSON = {"_errors": [{"code": code, "message": message}]}
    for key in reversed(path):
        tree = {str(key): tree}
    return _error(400, 50035, "Invalid Form Body", tree)


def _now() -> str:
    return datetime.now(UTC).isoformat()


@dataclass
class Call:
    method: str  # HTTP method, or "GATEWAY" for an op the bot sent on the websocket
    path: str  # relative to /api/v10, or the gateway op name (IDENTIFY, RESUME, ...)
    query: dict[str, str]
    json: Any
    status: int
    at: float  # time.monotonic()


@dataclass
class Request:
    method: str
    path: str
    match: Mapping[str, str]
    body: Any
    query: Mapping[str, str]
    headers: Mapping[str, str] = field(default_factory=dict)


Handler = Callable[[Request], Any]


@dataclass
class FakeUser:
    id: int
    name: str
    locale: str = "ru"
    dms_open: bool = True
    guild_ids: list[int] = field(default_factory=list)
    admin: bool = False
    bot: bool = False

    def payload(self) -> JSON:
        return {"id": str(self.id), "username": self.name, "global_name": self.name,
                "discriminator": "0", "avatar": None, "bot": self.bot}  # fmt: skip


@dataclass
class FakeGuild:
    id: int
    name: str
    owner_id: int
    locale: str
    admin_role_id: int


@dataclass
class FakeInteraction:
    """One interaction and what the bot answered; ``original`` is the live message dict."""

    id: int
    token: str
    type: int  # 2 application command, 3 message component
    user_id: int
    channel_id: int
    created: float
    message_id: int | None = None  # the clicked message
    callback_type: int | None = None
    callback_data: JSON | None = None
    original: JSON | None = None
    followups: list[JSON] = field(default_factory=list)
    shard: int = 0  # the gateway shard it was sent on

    @property
    def content(self) -> str | None:
        return None if self.original is None else self.original["content"]

    @property
    def components(self) -> list[JSON]:
        return [] if self.original is None else self.original["components"]

    @property
    def ephemeral(self) -> bool:
        return self.original is not None and bool(self.original["flags"] & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return self.original is not None and bool(self.original["flags"] & LOADING)


@contextlib.contextmanager
def patched_discord(api_base: str, gateway: str) -> Iterator[None]:
    """Point discord.py's REST routes and gateway at the given URLs, restoring them after."""
    old = discord.http.Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = api_base, yarl.URL(gateway)
    try:
        yield
    finally:
        discord.http.Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = old


def _validate(body: JSON) -> None:
    """Discord's limits: content 2000, 5 rows of 5 buttons, custom_id 100, label 80."""
    content = body.get("content")
    if content is not None and len(content) > 2000:
        raise _invalid(["content"], "BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length.")
    rows = body.get("components") or []
    if len(rows) > 5 and not (body.get("flags") or 0) & COMPONENTS_V2:
        raise _invalid(["components"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
    seen: set[str] = set()
    for r, row in enumerate(rows):
        children = row.get("components", [])
        if row.get("type") == 1 and not 1 <= len(children) <= 5:
            bad = "Must be between 1 and 5 in length."
            raise _invalid(["components", r, "components"], "BASE_TYPE_BAD_LENGTH", bad)
        for c, comp in enumerate(children):
            where: list[str | int] = ["components", r, "components", c]
            for key, limit in (("custom_id", 100), ("label", 80)):
                if len(comp.get(key) or "") > limit:
                    bad = f"Must be {limit} or fewer in length."
                    raise _invalid([*where, key], "BASE_TYPE_MAX_LENGTH", bad)
            if "custom_id" in comp:
                if comp["custom_id"] in seen:
                    bad = "Component custom id cannot be duplicated"
                    raise _invalid([*where, "custom_id"], "COMPONENT_CUSTOM_ID_DUPLICATED", bad)
                seen.add(comp["custom_id"])


def _apply_edit(msg: JSON, body: JSON) -> JSON:
    for key in ("content", "embeds", "components", "attachments"):
        if key in body:
            msg[key] = body[key] if body[key] is not None else ("" if key == "content" else [])
    if body.get("flags") is not None:
        msg["flags"] = (msg["flags"] & EPHEMERAL) | (body["flags"] & ~EPHEMERAL)
    msg["flags"] &= ~LOADING
    msg["edited_timestamp"] = _now()
    return msg


@dataclass
class AccessToken:
    """An OAuth2 access token Discord gave for a user (``identify``), until ``expires``
    (``time.monotonic()``)."""

    user_id: int
    expires: float


class FakeDiscord:
    """Fake Discord server; see the module docstring.

    It also plays Discord's side of an Activity (the Embedded App SDK's OAuth2): the
    client gives a page a code (:meth:`oauth_code`), ``POST /oauth2/token`` exchanges
    it once, with the app's ``client_secret``, for an access token; ``GET /users/@me``
    with ``Authorization: Bearer <token>`` names its user; ``GET
    /applications/{app}/activity-instances/{instance}`` (the bot's token) names the
    instance's channel and its participants (:meth:`add_activity_instance`)."""

    def __init__(self, *, interaction_deadline: float = 3.0, token_ttl: float = 900.0,
                 bot_id: int = 900_000_000_000_000_001, bot_name: str = "Kozel",
                 patch: bool = True, token: str | None = None, shards: int = 1,
                 heartbeat_interval: float = 45.0) -> None:  # fmt: skip
        #: Seconds between the bot's heartbeats (HELLO's ``heartbeat_interval``).
        self.heartbeat_interval = heartbeat_interval
        #: The bot's token; when set, a REST call with another one is refused (401).
        self.token = token
        self.interaction_deadline = interaction_deadline  # seconds for the first callback
        self.token_ttl = token_ttl  # seconds the token serves follow-ups and @original
        self.patch = patch
        #: Every file uploaded with a request, as (file name, bytes), in order.
        self.uploads: list[tuple[str, bytes]] = []
        self.bot_user = FakeUser(bot_id, bot_name, locale="en-US", bot=True)
        self.app_id = bot_id
        self.calls: list[Call] = []
        self.commands: dict[int | None, list[JSON]] = {}  # guild id (None: global) -> commands
        self.guilds: dict[int, FakeGuild] = {}
        self.users: dict[int, FakeUser] = {}
        self.interactions: dict[int, FakeInteraction] = {}
        self._channels: dict[int, JSON] = {}
        self._messages: dict[int, JSON] = {}
        self._hidden: set[tuple[int, int]] = set()  # (channel, user): he does not see it
        self._tokens: dict[str, FakeInteraction] = {}
        self._rate_limits: list[list[Any]] = []  # [pattern, times left, retry_after]
        self._failing: list[list[Any]] = []  # [pattern, times left]
        self._ids = itertools.count(1 << 60)
        self._changed = asyncio.Condition()
        self._sockets: set[web.WebSocketResponse] = set()
        #: The shard count ``GET /gateway/bot`` recommends.
        self.shards = shards
        self._gateways: dict[int, _Gateway] = {}  # shard id -> its connection
        self._held: dict[int, asyncio.Event] = {}  # shard id -> set when it may connect
        #: The held shards whose IDENTIFY or RESUME is waiting (see :meth:`hold_shard`).
        self.waiting: set[int] = set()
        #: While true, a new gateway connection is refused (503, recorded as a GATEWAY
        #: call REFUSED): the network between the bot and the gateway is down.
        self.refuse_gateway = False
        self._runner: web.AppRunner | None = None
        self._patch: contextlib.ExitStack | None = None
        self.url = ""
        #: The app's OAuth2 client secret (``POST /oauth2/token`` takes no other).
        self.client_secret = "fake-client-secret"
        self._codes: dict[str, int] = {}  # an unused OAuth2 code -> its user
        self.access_tokens: dict[str, AccessToken] = {}
        self.activity_instances: dict[str, JSON] = {}
        #: Whether the app has Activities on (else a launch-activity callback is refused).
        self.activities = True

    # ----- lifecycle
    async def __aenter__(self) -> FakeDiscord:
        self._runner = web.AppRunner(self._app(), access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", 0).start()
        host, port = self._runner.addresses[0][:2]
        self.url = f"http://{host}:{port}"
        self._patch = contextlib.ExitStack()
        if self.patch:
            self._patch.enter_context(patched_discord(self.api_base, self.gateway_url))
        return self

    async def __aexit__(self, *exc: object) -> None:
        for ws in list(self._sockets):
            await ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
        if self._patch is not None:
            self._patch.close()

    @property
    def api_base(self) -> str:
        return f"{self.url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return self.url.replace("http://", "ws://") + "/gateway"

    # ----- the world
    def add_guild(self, id: int, name: str, owner_id: int, locale: str = "ru") -> FakeGuild:
        self.guilds[id] = FakeGuild(id, name, owner_id, locale, next(self._ids))
        return self.guilds[id]

    def add_channel(self, guild_id: int, id: int, name: str) -> JSON:
        self._channels[id] = {"id": str(id), "type": 0, "guild_id": str(guild_id), "name": name,
                              "position": len(self._channels), "permission_overwrites": [],
                              "nsfw": False, "parent_id": None, "topic": None,
                              "rate_limit_per_user": 0, "last_message_id": None}  # fmt: skip
        return self._channels[id]

    def add_thread(self, guild_id: int, id: int, parent_id: int, name: str) -> JSON:
        """A public thread of the channel ``parent_id`` (Discord's channel type 11):
        the server's GUILD_CREATE lists it with its threads, as Discord does."""
        self._channels[id] = {"id": str(id), "type": 11, "guild_id": str(guild_id), "name": name,
                              "parent_id": str(parent_id), "owner_id": str(self.bot_user.id),
                              "last_message_id": None, "rate_limit_per_user": 0,
                              "message_count": 0, "member_count": 1, "flags": 0,
                              "thread_metadata": {"archived": False, "locked": False,
                                                  "auto_archive_duration": 1440,
                                                  "archive_timestamp": _now()}}  # fmt: skip
        return self._channels[id]

    def add_user(self, id: int, name: str, locale: str = "ru", dms_open: bool = True,
                 guild_ids: list[int] | None = None, admin: bool = False) -> FakeUser:  # fmt: skip
        self.users[id] = FakeUser(id, name, locale, dms_open, list(guild_ids or []), admin)
        return self.users[id]

    def oauth_code(self, user: int | FakeUser) -> str:
        """The code Discord's client gives an Activity's page that asks ``authorize``
        for ``user`` (good for one exchange)."""
        code = f"code{next(self._ids)}"
        self._codes[code] = self._user(user).id
        return code

    def expire_access_tokens(self) -> None:
        """Every access token given so far is out of date (Discord answers 401)."""
        for token in self.access_tokens.values():
            token.expires = 0.0

    def add_activity_instance(self, instance_id: str, channel_id: int,
                              users: list[int]) -> JSON:  # fmt: skip
        """An Activity running in a channel with these participants (Discord's
        activity instance object)."""
        ch = self._channels[channel_id]
        location = {"id": f"gc-{ch.get('guild_id', '')}-{channel_id}", "kind": "gc",
                    "channel_id": str(channel_id)}  # fmt: skip
        if "guild_id" in ch:
            location["guild_id"] = ch["guild_id"]
        else:
            location["kind"] = "pc"
        self.activity_instances[instance_id] = {
            "application_id": str(self.app_id), "instance_id": instance_id,
            "launch_id": str(next(self._ids)), "location": location,
            "users": [str(user) for user in users]}  # fmt: skip
        return self.activity_instances[instance_id]

    def rate_limit(self, route: str, times: int = 1, retry_after: float = 0.01) -> None:
        """Answer the next `times` calls matching e.g. "POST /channels/*/messages" with a 429."""
        self._rate_limits.append([route, times, retry_after])

    def clear_rate_limits(self) -> None:
        """Answer every call normally again."""
        self._rate_limits.clear()

    def fail(self, route: str, times: int = 1) -> None:
        """Answer the next ``times`` calls matching e.g. "PATCH /channels/*/messages/1"
        with a 503: Discord failing them (discord.py gives a 503 up at once)."""
        self._failing.append([route, times])

    def age_interaction(self, interaction_id: int, seconds: float) -> None:
        """Pretend the interaction was created `seconds` earlier (deadline and token expiry)."""
        self.interactions[interaction_id].created -= seconds

    async def drop_gateway(self, code: int = 4000, shard: int = 0) -> None:
        """Close the bot's websocket of ``shard``; discord.py reconnects and RESUMEs."""
        gateway = self._gateways.get(shard)
        if gateway is not None and gateway.ws is not None:
            await gateway.ws.close(code=code)

    def hold_shard(self, shard: int) -> None:
        """Keep ``shard`` down: its next IDENTIFY or RESUME is answered only once
        :meth:`release_shard` is called (the connection itself is accepted)."""
        self._held[shard] = asyncio.Event()

    def release_shard(self, shard: int) -> None:
        """Answer the held shard's IDENTIFY or RESUME (see :meth:`hold_shard`)."""
        held = self._held.pop(shard, None)
        if held is not None:
            held.set()

    def connected(self, shard: int = 0) -> bool:
        """Whether the bot's websocket of ``shard`` is identified or resumed."""
        gateway = self._gateways.get(shard)
        return gateway is not None and gateway.ws is not None

    @staticmethod
    def shard_of(guild_id: int | None, count: int) -> int:
        """The shard a guild's events go to (Discord's ``(guild_id >> 22) % count``);
        a DM's (no guild) go to shard 0."""
        return 0 if guild_id is None else (guild_id >> 22) % count

    # ----- inspection
    def command(self, name: str, guild_id: int | None = None) -> JSON:
        """A registered command: the guild's one if any, else the global one."""
        for scope in (guild_id, None):
            for cmd in self.commands.get(scope, []):
                if cmd["name"] == name:
                    return cmd
        raise LookupError(f"command {name!r} is not registered: {self.commands}")

    def responses(self, interaction_id: int) -> FakeInteraction:
        return self.interactions[interaction_id]

    def messages(self, channel_id: int) -> list[JSON]:
        return [m for m in self._messages.values() if m["channel_id"] == str(channel_id)]

    def message(self, message_id: int) -> JSON:
        return self._messages[message_id]

    def dm_channel(self, user: int | FakeUser) -> int | None:
        uid = str(self._user(user).id)
        for cid, ch in self._channels.items():
            if ch["type"] == 1 and ch["recipients"][0]["id"] == uid:
                return cid
        return None

    def dm_messages(self, user: int | FakeUser) -> list[JSON]:
        cid = self.dm_channel(user)
        return [] if cid is None else self.messages(cid)

    @staticmethod
    def buttons(message: JSON) -> list[tuple[str | None, str | None, bool]]:
        """(label, custom_id, disabled) of every button, row by row."""
        return [(c.get("label"), c.get("custom_id"), bool(c.get("disabled")))
                for row in message.get("components", []) for c in row.get("components", [])
                if c.get("type") == 2]  # fmt: skip

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 5.0) -> Any:  # noqa: ASYNC109
        """Wait until predicate() is truthy, re-checked whenever a call is recorded."""
        async with self._changed:
            try:
                async with asyncio.timeout(timeout):
                    await self._changed.wait_for(predicate)
            except TimeoutError:
                last = "\n".join(f"  {c.method} {c.path} -> {c.status}" for c in self.calls[-15:])
                raise TimeoutError(f"not true within {timeout}s; last calls:\n{last}") from None
        return predicate()

    # ----- simulating users
    async def slash(self, user: int | FakeUser, channel_id: int, name: str,
                    options: Mapping[str, Any] | list[JSON] | None = None,
                    locale: str | None = None) -> int:  # fmt: skip
        """A user runs a registered slash command in a channel: returns the interaction id."""
        ch = self._channels[channel_id]
        cmd = self.command(name, int(ch["guild_id"]) if "guild_id" in ch else None)
        if isinstance(options, Mapping):
            types = {o["name"]: o["type"] for o in cmd.get("options") or []}
            options = [{"name": k, "type": types.get(k, 3), "value": v} for k, v in options.items()]
        data = {"id": cmd["id"], "name": name, "type": cmd.get("type", 1), "options": options or []}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        return await self._interact(2, self._user(user), ch, data, locale)

    async def click(self, user: int | FakeUser, message_id: int, custom_id: str) -> int:
        """A user clicks an enabled button of a stored message: returns the interaction id."""
        msg = self._messages[message_id]
        found = [b for b in self.buttons(msg) if b[1] == custom_id and not b[2]]
        if not found:
            raise LookupError(f"no enabled button {custom_id!r}: {self.buttons(msg)}")
        ch = self._channels[int(msg["channel_id"])]
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._interact(3, self._user(user), ch, data, None, message=msg)

    async def forge(self, user: int | FakeUser, message: int | JSON, custom_id: str,
                    channel_id: int | None = None) -> int:  # fmt: skip
        """A user client sends a button press of its own making: any ``custom_id`` on a
        stored message (also one without that button) or on a message as it was (a
        deleted one), from the message's channel or ``channel_id``; returns the
        interaction id."""
        msg = self._messages[message] if isinstance(message, int) else message
        ch = self._channels[channel_id if channel_id is not None else int(msg["channel_id"])]
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._interact(3, self._user(user), ch, data, None, message=msg)

    async def _interact(self, kind: int, user: FakeUser, ch: JSON, data: JSON,
                        locale: str | None, message: JSON | None = None) -> int:  # fmt: skip
        iid = next(self._ids)
        rec = FakeInteraction(iid, f"tok{iid}", kind, user.id, int(ch["id"]), time.monotonic())
        payload: JSON = {"id": str(iid), "application_id": str(self.app_id), "type": kind,
                         "data": data, "token": rec.token, "version": 1,
                         "locale": locale or user.locale, "app_permissions": str(PERMS_BOT),
                         "attachment_size_limit": 10 << 20, "entitlements": [],
                         "channel_id": ch["id"], "channel": ch}  # fmt: skip
        if "guild_id" in ch:
            guild = self.guilds[int(ch["guild_id"])]
            payload |= {"guild_id": ch["guild_id"], "guild_locale": guild.locale, "context": 0,
                        "guild": {"id": ch["guild_id"], "locale": guild.locale, "features": []},
                        "member": self._member(user, guild, permissions=True,
                                               hidden=(int(ch["id"]), user.id) in self._hidden),
                        "authorizing_integration_owners": {"0": ch["guild_id"]}}  # fmt: skip
        else:
            payload |= {"user": user.payload(), "context": 1}
        if message is not None:
            rec.message_id = int(message["id"])
            payload["message"] = copy.deepcopy(message)
        self.interactions[iid] = self._tokens[rec.token] = rec
        rec.shard = self._shard_of_channel(ch)
        await self._dispatch("INTERACTION_CREATE", payload, rec.shard)
        return iid

    # ----- payload helpers
    def _user(self, user: int | FakeUser) -> FakeUser:
        return user if isinstance(user, FakeUser) else self.users[user]

    def _member(self, user: FakeUser, guild: FakeGuild, permissions: bool = False,
                hidden: bool = False) -> JSON:  # fmt: skip
        admin = user.admin or user.id == guild.owner_id
        member = {"user": user.payload(), "roles": [str(guild.admin_role_id)] if admin else [],
                  "joined_at": _now(), "deaf": False, "mute": False, "flags": 0,
                  "pending": False, "nick": None}  # fmt: skip
        if permissions:
            granted = PERMS_ADMIN if admin else PERMS_MEMBER
            member["permissions"] = str(granted & ~VIEW_CHANNEL if hidden else granted)
        return member

    def hide_channel(self, channel_id: int, user: int) -> None:
        """The user no longer sees the channel: his presses there carry permissions
        without VIEW_CHANNEL (as for a member whose role lost the channel)."""
        self._hidden.add((channel_id, user))

    def _guild_payload(self, g: FakeGuild) -> JSON:
        users = [u for u in self.users.values() if g.id in u.guild_ids] + [self.bot_user]
        members = [self._member(u, g) for u in users]
        role = {"color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0}
        roles = [{**role, "id": str(g.id), "name": "@everyone", "permissions": str(PERMS_MEMBER),
                  "position": 0},
                 {**role, "id": str(g.admin_role_id), "name": "Admin",
                  "permissions": str(PERMS_ADMIN), "position": 1}]  # fmt: skip
        listed = [c for c in self._channels.values() if c.get("guild_id") == str(g.id)]
        channels = [c for c in listed if c["type"] != 11]
        threads = [c for c in listed if c["type"] == 11]
        return {"id": str(g.id), "name": g.name, "owner_id": str(g.owner_id), "icon": None,
                "unavailable": False, "preferred_locale": g.locale, "large": False,
                "member_count": len(members), "members": members, "roles": roles,
                "channels": channels, "threads": threads, "voice_states": [], "presences": [],
                "emojis": [], "stickers": [], "features": [], "joined_at": _now()}  # fmt: skip

    def _new_message(self, channel_id: int, body: JSON, type: int = 0) -> JSON:
        mid = next(self._ids)
        attachments = [{"id": str(next(self._ids)), "filename": a.get("filename", "file"),
                        "size": 0, "url": f"{self.url}/a/{mid}", "proxy_url": f"{self.url}/a/{mid}"}
                       for a in body.get("attachments") or []]  # fmt: skip
        msg = {"id": str(mid), "channel_id": str(channel_id), "type": type,
               "content": body.get("content") or "", "author": self.bot_user.payload(),
               "timestamp": _now(), "edited_timestamp": None, "tts": False,
               "mention_everyone": False, "mentions": [], "mention_roles": [],
               "attachments": attachments, "embeds": body.get("embeds") or [],
               "components": body.get("components") or [], "flags": body.get("flags") or 0,
               "pinned": False}  # fmt: skip
        if "guild_id" in self._channels[channel_id]:
            msg["guild_id"] = self._channels[channel_id]["guild_id"]
        if type == 20:
            msg["webhook_id"] = msg["application_id"] = str(self.app_id)
        self._messages[mid] = msg
        return msg

    # ----- REST
    def _app(self) -> web.Application:
        app = web.Application()
        message = "/channels/{channel}/messages/{message}"
        webhook_message = "/webhooks/{app}/{token}/messages/{message}"
        routes: list[tuple[str, str, Handler]] = [
            ("GET", "/users/@me", self._me),
            ("POST", "/oauth2/token", self._oauth_token),
            ("GET", "/applications/{app}/activity-instances/{instance}", self._activity_instance),
            ("GET", "/users/{user}", self._get_user),
            ("GET", "/gateway", self._gateway_info),
            ("GET", "/gateway/bot", self._gateway_info),
            ("GET", "/oauth2/applications/@me", self._app_info),
            ("GET", "/applications/@me", self._app_info),
            ("*", "/applications/{app}/commands", self._commands),
            ("*", "/applications/{app}/guilds/{guild}/commands", self._commands),
            ("POST", "/users/@me/channels", self._open_dm),
            ("POST", "/channels/{channel}/messages", self._post_message),
            ("*", message, self._channel_message),
            ("POST", "/interactions/{interaction}/{token}/callback", self._callback),
            ("POST", "/webhooks/{app}/{token}", self._followup),
            ("*", webhook_message, self._webhook_message),
        ]
        for method, path, handler in routes:
            app.router.add_route(method, "/api/v10" + path, self._endpoint(handler))
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/{tail:.*}", self._endpoint(self._unknown))
        return app

    def _endpoint(self, handler: Handler) -> Callable[[web.Request], Awaitable[web.Response]]:
        async def serve(request: web.Request) -> web.Response:
            body: Any = None
            if request.content_type.startswith("multipart/"):  # files: the JSON is a form field
                form = await request.post()
                body = json.loads(str(form.get("payload_json", "{}")))
                for value in form.values():
                    if isinstance(value, web.FileField):  # an uploaded file, kept
                        self.uploads.append((value.filename, value.file.read()))
            elif request.content_type == "application/x-www-form-urlencoded":
                body = dict(await request.post())
            elif request.can_read_body:
                body = await request.json()
            path = request.path.removeprefix("/api/v10")
            req = Request(
                request.method, path, request.match_info, body, request.query, request.headers
            )
            status, headers, out = 200, {}, None
            try:
                self._check_auth(request)
                self._check_rate_limit(f"{request.method} {path}")
                self._check_failing(f"{request.method} {path}")
                out = handler(req)
                status = 200 if out is not None else 204
            except ApiError as e:
                status, headers, out = e.status, e.headers, e.body
            await self._record(
                Call(req.method, path, dict(req.query), body, status, time.monotonic())
            )
            if out is None:
                return web.Response(status=status)
            headers["Content-Type"] = "application/json"  # exactly: discord.py compares it
            return web.Response(status=status, body=json.dumps(out).encode(), headers=headers)

        return serve

    async def _record(self, call: Call) -> None:
        self.calls.append(call)
        async with self._changed:
            self._changed.notify_all()

    def _check_auth(self, request: web.Request) -> None:
        if self.token is None or "/interactions/" in request.path or "/webhooks/" in request.path:
            return  # interaction callbacks and webhooks carry their own token
        if request.path.endswith("/oauth2/token"):
            return  # the app's client id and secret are its credentials
        if request.headers.get("Authorization", "").startswith("Bearer "):
            return  # a user's OAuth2 token: the route checks it
        if request.headers.get("Authorization") != f"Bot {self.token}":
            raise _error(401, 0, "401: Unauthorized")

    def _check_failing(self, route: str) -> None:
        for rule in self._failing:
            if rule[1] > 0 and fnmatch.fnmatchcase(route, rule[0]):
                rule[1] -= 1
                raise _error(503, 0, "503: Service Unavailable")

    def _check_rate_limit(self, route: str) -> None:
        for rule in self._rate_limits:
            if rule[1] > 0 and fnmatch.fnmatchcase(route, rule[0]):
                rule[1] -= 1
                body = {"message": "You are being rate limited.", "retry_after": rule[2]}
                headers = {"Via": "1.1 google", "Retry-After": str(rule[2])}  # Via: not a ban
                raise ApiError(429, {**body, "global": False}, headers)

    def _unknown(self, r: Request) -> Any:
        raise _error(404, 0, "404: Not Found")

    def _me(self, r: Request) -> JSON:
        """The bot's own user, or with a Bearer token the user it was given for (with
        his client's language, as the ``identify`` scope gives it)."""
        auth = r.headers.get("Authorization", "")
        if not auth.startswith("Bearer "):
            return self.bot_user.payload()
        token = self.access_tokens.get(auth.removeprefix("Bearer "))
        if token is None or token.expires <= time.monotonic():
            raise _error(401, 0, "401: Unauthorized")
        user = self.users[token.user_id]
        return {**user.payload(), "locale": user.locale, "mfa_enabled": False, "flags": 0}

    def _oauth_token(self, r: Request) -> JSON:
        """``POST /oauth2/token`` (form-encoded), the ``authorization_code`` grant: a
        code is good once, for this app's client id and secret."""
        form = r.body if isinstance(r.body, dict) else {}
        if (
            form.get("client_id") != str(self.app_id)
            or form.get("client_secret") != self.client_secret
        ):
            raise ApiError(401, {"error": "invalid_client"})
        if form.get("grant_type") != "authorization_code":
            raise ApiError(400, {"error": "unsupported_grant_type"})
        user_id = self._codes.pop(str(form.get("code")), None)
        if user_id is None:
            body = {"error": "invalid_grant", "error_description": 'Invalid "code" in request.'}
            raise ApiError(400, body)
        access = f"access{next(self._ids)}"
        self.access_tokens[access] = AccessToken(user_id, time.monotonic() + 604_800)
        return {"access_token": access, "token_type": "Bearer", "expires_in": 604_800,
                "refresh_token": f"refresh{next(self._ids)}", "scope": "identify"}  # fmt: skip

    def _activity_instance(self, r: Request) -> JSON:
        instance = self.activity_instances.get(r.match["instance"])
        if r.match["app"] != str(self.app_id) or instance is None:
            raise _error(404, 0, "404: Not Found")
        return instance

    def _get_user(self, r: Request) -> JSON:
        if not r.match["user"].isdigit() or int(r.match["user"]) not in self.users:
            raise _error(404, 10013, "Unknown User")
        return self.users[int(r.match["user"])].payload()

    def _gateway_info(self, r: Request) -> JSON:
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return {"url": self.gateway_url, "shards": self.shards, "session_start_limit": limit}

    def _app_info(self, r: Request) -> JSON:
        owner = FakeUser(1, "owner").payload()
        return {"id": str(self.app_id), "name": self.bot_user.name, "description": "",
                "icon": None, "bot_public": True, "bot_require_code_grant": False,
                "owner": owner, "verify_key": "0" * 64, "flags": 0, "team": None}  # fmt: skip

    def _commands(self, r: Request) -> Any:
        """GET or bulk PUT (what tree.sync() does); ids are kept per name, like Discord."""
        guild_id = int(r.match["guild"]) if "guild" in r.match else None
        if r.method != "PUT":
            return self.commands.get(guild_id, [])
        old = {(c["name"], c["type"]): c["id"] for c in self.commands.get(guild_id, [])}
        stored = []
        for i, cmd in enumerate(r.body):
            if not 1 <= len(cmd["name"]) <= 32 or len(cmd.get("description", "")) > 100:
                raise _invalid([i, "name"], "APPLICATION_COMMAND_INVALID", "Invalid command")
            kind = cmd.get("type", 1)
            extra = {
                "id": old.get((cmd["name"], kind)) or str(next(self._ids)),
                "type": kind,
                "application_id": str(self.app_id),
                "version": str(next(self._ids)),
            }
            scope = {"guild_id": str(guild_id)} if guild_id else {}  # fmt: skip
            blank = {"name_localizations": None, "description_localizations": None}
            stored.append({**blank, "default_member_permissions": None, **cmd, **extra, **scope})
        self.commands[guild_id] = stored
        return stored

    def _open_dm(self, r: Request) -> JSON:
        user = self.users.get(int(r.body["recipient_id"]))
        if user is None:
            raise _error(404, 10013, "Unknown User")
        cid = self.dm_channel(user)
        if cid is None:
            cid = next(self._ids)
            self._channels[cid] = {"id": str(cid), "type": 1, "last_message_id": None,
                                   "recipients": [user.payload()]}  # fmt: skip
        return self._channels[cid]

    def _channel(self, r: Request) -> JSON:
        ch = self._channels.get(int(r.match["channel"]))
        if ch is None:
            raise _error(404, 10003, "Unknown Channel")
        return ch

    def _post_message(self, r: Request) -> JSON:
        ch = self._channel(r)
        if ch["type"] == 1 and not self.users[int(ch["recipients"][0]["id"])].dms_open:
            raise _error(403, 50007, "Cannot send messages to this user")
        _validate(r.body)
        if not any(r.body.get(k) for k in ("content", "embeds", "components", "attachments")):
            raise _error(400, 50006, "Cannot send an empty message")
        return self._new_message(int(ch["id"]), r.body)

    def _channel_message(self, r: Request) -> JSON | None:
        """GET, PATCH or DELETE a message in a channel (ephemeral ones are not reachable)."""
        msg = self._messages.get(int(r.match["message"]))
        if msg is None or msg["channel_id"] != self._channel(r)["id"] or msg["flags"] & EPHEMERAL:
            raise _error(404, 10008, "Unknown Message")
        return self._message_verb(r, msg)

    def _message_verb(self, r: Request, msg: JSON) -> JSON | None:
        if r.method == "DELETE":
            del self._messages[int(msg["id"])]
            return None
        if r.method == "PATCH":
            if msg["author"]["id"] != str(self.bot_user.id):
                raise _error(403, 50005, "Cannot edit a message authored by another user")
            _validate(r.body)
            _apply_edit(msg, r.body)
        return msg

    # ----- interactions
    def _callback(self, r: Request) -> JSON:
        rec = self.interactions.get(int(r.match["interaction"]))
        if rec is None or rec.token != r.match["token"]:
            raise _error(404, 10062, "Unknown interaction")
        if rec.callback_type is not None:
            raise _error(400, 40060, "Interaction has already been acknowledged.")
        if time.monotonic() - rec.created > self.interaction_deadline:
            raise _error(404, 10062, "Unknown interaction")
        kind, data = r.body["type"], r.body.get("data") or {}
        if kind == 12 and not self.activities:
            raise _error(400, 0, "400: Bad Request")  # the app has no Activity
        if kind in (4, 7):
            _validate(data)
        if kind == 4:
            rec.original = self._new_message(rec.channel_id, data, type=20)
        elif kind == 5:  # "Bot is thinking...": a loading message, filled in later
            rec.original = self._new_message(rec.channel_id, {"flags": data.get("flags")}, 20)
            rec.original["flags"] |= LOADING
        elif kind in (6, 7) and rec.message_id is not None:
            original = self._messages.get(rec.message_id)
            if original is None and kind == 7:  # the pressed message was deleted
                raise _error(404, 10008, "Unknown Message")
            rec.original = original
            if kind == 7 and original is not None:
                _apply_edit(original, data)
        rec.callback_type, rec.callback_data = kind, data
        answer: JSON = {"interaction": {"id": str(rec.id), "type": rec.type}}  # InteractionCallback
        if kind == 12:  # LAUNCH_ACTIVITY: the app's Activity starts in the channel, with him
            where = self._channels[rec.channel_id].get("guild_id", "")
            instance_id = f"i-{rec.id}-gc-{where}-{rec.channel_id}"
            self.add_activity_instance(instance_id, rec.channel_id, [rec.user_id])
            answer["interaction"]["activity_instance_id"] = instance_id
            answer["resource"] = {"type": 12, "activity_instance": {"id": instance_id}}
        if rec.original is not None:
            answer["interaction"] |= {"response_message_id": rec.original["id"],
                                      "response_message_loading": rec.loading,
                                      "response_message_ephemeral": rec.ephemeral}  # fmt: skip
            answer["resource"] = {"type": kind, "message": rec.original}
        return answer

    def _webhook(self, r: Request) -> FakeInteraction:
        rec = self._tokens.get(r.match["token"])
        if rec is None or r.match["app"] != str(self.app_id) or rec.callback_type is None:
            raise _error(404, 10015, "Unknown Webhook")
        if time.monotonic() - rec.created > self.token_ttl:
            raise _error(401, 50027, "Invalid Webhook Token")
        return rec

    def _followup(self, r: Request) -> JSON | None:
        rec = self._webhook(r)
        _validate(r.body)
        if rec.original is not None and rec.loading:  # the first follow-up fills "thinking..."
            msg = _apply_edit(rec.original, {**r.body, "flags": None})
        else:
            msg = self._new_message(rec.channel_id, r.body, type=20)
            rec.followups.append(msg)
        return msg if r.query.get("wait") in ("1", "true", "True") else None

    def _webhook_message(self, r: Request) -> JSON | None:
        """GET, PATCH or DELETE @original or a follow-up."""
        rec, mid = self._webhook(r), r.match["message"]
        for msg in [rec.original, *rec.followups]:
            if msg and mid in ("@original", msg["id"]) and int(msg["id"]) in self._messages:
                return self._message_verb(r, msg)
            if mid == "@original":
                break
        raise _error(404, 10008, "Unknown Message")

    # ----- gateway
    def _shard_of_channel(self, channel: JSON) -> int:
        count = max((g.count for g in self._gateways.values()), default=1)
        guild = channel.get("guild_id")
        return self.shard_of(None if guild is None else int(guild), count)

    async def _dispatch(self, event: str, data: JSON, shard: int = 0) -> None:
        gateway = self._gateways.get(shard)
        if gateway is None or gateway.ws is None:
            raise RuntimeError(f"the bot is not connected to the fake gateway's shard {shard}")
        gateway.seq += 1
        frame = {"op": 0, "t": event, "s": gateway.seq, "d": data}
        await gateway.ws.send_str(json.dumps(frame))

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        if self.refuse_gateway:
            await self._record(Call("GATEWAY", "REFUSED", {}, None, 503, time.monotonic()))
            return web.Response(status=503)
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._sockets.add(ws)
        try:
            hello = {"heartbeat_interval": round(self.heartbeat_interval * 1000)}
            await ws.send_str(json.dumps({"op": 10, "d": hello}))
            async for frame in ws:
                if frame.type is WSMsgType.TEXT:
                    await self._on_op(ws, json.loads(frame.data))
        finally:
            self._sockets.discard(ws)
            for gateway in self._gateways.values():
                if gateway.ws is ws:
                    gateway.ws = None
        return ws

    async def _on_op(self, ws: web.WebSocketResponse, msg: JSON) -> None:
        op, data = msg["op"], msg.get("d") or {}
        if op == 1:
            await ws.send_str(json.dumps({"op": 11}))
            async with self._changed:
                self._changed.notify_all()  # a shard's latency is measured
            return
        if op == 2:
            shard, count = data.get("shard") or (0, 1)
            await self._wait_held(shard)
            gateway = self._gateways[shard] = _Gateway(ws, count, f"session{next(self._ids)}")
            ready: JSON = {
                "v": 10, "user": self.bot_user.payload(), "session_id": gateway.session,
                "resume_gateway_url": self.gateway_url, "private_channels": [],
                "guilds": [{"id": str(g), "unavailable": True} for g in self.guilds
                           if self.shard_of(g, count) == shard],
                "application": {"id": str(self.app_id), "flags": 0}}  # fmt: skip
            if "shard" in data:
                ready["shard"] = [shard, count]
            await self._dispatch("READY", ready, shard)
            for guild in self.guilds.values():
                if self.shard_of(guild.id, count) == shard:
                    await self._dispatch("GUILD_CREATE", self._guild_payload(guild), shard)
        elif op == 6:
            found = [s for s, g in self._gateways.items() if g.session == data["session_id"]]
            if found:
                await self._wait_held(found[0])
                self._gateways[found[0]].ws = ws
                await self._dispatch("RESUMED", {}, found[0])
            else:  # an unknown session: refuse, the client identifies afresh
                await ws.send_str(json.dumps({"op": 9, "d": False}))
        names = {2: "IDENTIFY", 3: "PRESENCE_UPDATE", 6: "RESUME", 8: "REQUEST_GUILD_MEMBERS"}
        await self._record(Call("GATEWAY", names.get(op, str(op)), {}, data, 0, time.monotonic()))

    async def _wait_held(self, shard: int) -> None:
        """Wait while ``shard`` is held (:meth:`hold_shard`); :attr:`waiting` has it
        meanwhile."""
        held = self._held.get(shard)
        if held is None:
            return
        self.waiting.add(shard)
        async with self._changed:
            self._changed.notify_all()
        try:
            await held.wait()
        finally:
            self.waiting.discard(shard)


@dataclass
class _Gateway:
    """The bot's connection of one shard: its socket (None while it is down), the
    shard count it identified with, its session and its last sequence number."""

    ws: web.WebSocketResponse | None
    count: int
    session: str
    seq: int = 0
