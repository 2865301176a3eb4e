"""The discord.py client: a ``commands.AutoShardedBot`` whose ``setup_hook`` loads the
commands' cog, registers the action buttons and syncs the slash commands with their
translations.

It runs every shard Discord asks for (the count ``GET /gateway/bot`` recommends; one
gateway connection a shard, required from 2,500 servers) in this process: a guild's
events and interactions arrive on its shard ``(guild_id >> 22) % count``, DMs on shard
0. Each shard is up from its READY (its guilds loaded) or RESUMED until it drops.

Discord keeps the commands between runs, so a start first reads what is registered
(one request) and overwrites it only when something differs: restarting the bot
does not re-register them every time."""

from __future__ import annotations

import asyncio
import logging
import re
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
import yarl
from discord import app_commands
from discord.ext import commands
from discord.http import Route

from adapters.discord.answer import Answer, is_expired
from adapters.discord.buttons import TEMPLATE, ActionButton, PressHandler
from adapters.discord.commands import KozelCommands
from adapters.discord.presses import sorry
from adapters.discord.translator import FluentCommandTranslator
from bot.metrics import Metrics

if TYPE_CHECKING:
    from adapters.discord.adapter import DiscordAdapter

log = logging.getLogger(__name__)


class KozelTree(app_commands.CommandTree["KozelBot"]):
    """The command tree: a failed command is logged (discord.py would only log it
    under its own name) and the user is told."""

    async def on_error(
        self, interaction: discord.Interaction[KozelBot], error: app_commands.AppCommandError
    ) -> None:
        original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        name = interaction.command.qualified_name if interaction.command else "?"
        if isinstance(original, discord.HTTPException) and is_expired(original):
            log.warning("/%s: the interaction expired before the answer (%s)", name, original.code)
            return
        log.error("/%s failed", name, exc_info=original)
        adapter = interaction.client.adapter
        answer = Answer(interaction, defer_after=adapter.defer_after)
        await sorry(answer, adapter.interactions, adapter.tr)


def route_of(method: str, url: yarl.URL) -> str:
    """A request's route for the metrics: ids and tokens out of the path, so each
    route is one series.

    >>> token = "aW50ZXJhY3Rpb246MTI6c2VjcmV0LXNlY3JldC1zZWNyZXQ"
    >>> route_of("POST", yarl.URL(f"https://discord.com/api/v10/interactions/12/{token}/callback"))
    'POST /interactions/:id/:token/callback'
    """
    parts = []
    for part in url.path.split("/"):
        if part.isdigit():
            parts.append(":id")
        elif len(part) > 32:
            parts.append(":token")
        else:
            parts.append(part)
    path = "/".join(parts)
    for prefix in ("/api/v10", "/api/v9"):
        path = path.removeprefix(prefix)
    return f"{method} {path or '/'}"


def request_trace(metrics: Metrics) -> aiohttp.TraceConfig:
    """Count discord.py's HTTP requests (by route and status) in ``metrics``."""
    trace = aiohttp.TraceConfig()

    async def ended(
        session: aiohttp.ClientSession, context: Any, params: aiohttp.TraceRequestEndParams
    ) -> None:
        metrics.requested("discord", route_of(params.method, params.url), params.response.status)

    async def failed(
        session: aiohttp.ClientSession,
        context: Any,
        params: aiohttp.TraceRequestExceptionParams,
    ) -> None:
        metrics.requested("discord", route_of(params.method, params.url), None)

    trace.on_request_end.append(ended)
    trace.on_request_exception.append(failed)
    return trace


#: Seconds between two shards' IDENTIFYs: Discord allows one a 5 seconds (a bot of
#: 150,000 servers or more may start more at once, ``max_concurrency``).
IDENTIFY_INTERVAL = 5.0


class KozelBot(commands.AutoShardedBot):
    """The bot of one :class:`~adapters.discord.adapter.DiscordAdapter`.

    ``identify_interval`` is the wait before each IDENTIFY but the first (tests, whose
    fake gateway has no such limit, pass 0)."""

    def __init__(
        self,
        adapter: DiscordAdapter,
        *,
        identify_interval: float = IDENTIFY_INTERVAL,
        **options: Any,
    ) -> None:
        metrics = adapter.service.metrics
        if metrics is not None and "http_trace" not in options:
            options["http_trace"] = request_trace(metrics)
        options.setdefault("intents", discord.Intents.default())
        options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            tree_cls=KozelTree,
            **options,
        )
        self.adapter = adapter
        self.identify_interval = identify_interval
        #: The shards that are up: READY (with their guilds) or RESUMED, not dropped since.
        self.shards_up: set[int] = set()

    @property
    def presses(self) -> PressHandler:
        """Where :class:`ActionButton` sends a press."""
        return self.adapter.presses

    async def setup_hook(self) -> None:
        self.adapter.publisher.ready()
        await self.add_cog(KozelCommands(self.adapter))
        self.add_dynamic_items(ActionButton)
        await self.tree.set_translator(FluentCommandTranslator(self.adapter.tr))
        await self.sync_commands()

    async def sync_commands(self) -> bool:
        """Register the slash commands unless Discord has them exactly so already;
        whether they were registered."""
        tree, translator = self.tree, self.tree.translator
        wanted = [
            await command.get_translated_payload(tree, translator)
            if translator is not None
            else command.to_dict(tree)
            for command in tree.get_commands()
        ]
        route = Route(
            "GET", "/applications/{application_id}/commands", application_id=self.application_id
        )
        try:
            registered = await self.http.request(route, params={"with_localizations": "true"})
        except discord.HTTPException as error:
            log.warning("Discord: could not read the registered commands (%s)", error.status)
            registered = None
        if registered is not None and same_commands(wanted, registered):
            log.info("Discord: the slash commands are registered already")
            return False
        await tree.sync()
        log.info("Discord: the slash commands were registered")
        return True

    async def on_ready(self) -> None:
        log.info("Discord: logged in as %s (%s)", self.user, _shards(self.shard_count))
        self.adapter.started.set()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        if not initial:
            await asyncio.sleep(self.identify_interval)

    async def on_shard_ready(self, shard_id: int) -> None:
        self.shards_up.add(shard_id)

    async def on_shard_resumed(self, shard_id: int) -> None:
        log.info("Discord: shard %s resumed", shard_id)
        self.shards_up.add(shard_id)

    async def on_shard_disconnect(self, shard_id: int) -> None:
        if shard_id in self.shards_up:
            log.warning("Discord: shard %s lost its gateway connection", shard_id)
        self.shards_up.discard(shard_id)

    def own_shards(self) -> list[int]:
        """The shards this process runs (none before the count is known)."""
        if self.shard_ids is not None:
            return sorted(self.shard_ids)
        return list(range(self.shard_count or 0))

    def shard_up(self, shard_id: int) -> bool:
        """Whether the shard is connected: up, and its websocket open."""
        shard = self.get_shard(shard_id)
        return shard_id in self.shards_up and shard is not None and not shard.is_closed()

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """A press that no :class:`ActionButton` takes is answered too: discord.py
        drops a custom id that is not one of ours or not a button of the pressed
        message (what a user client may send); it gets the same checks and refusals."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: Any = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        if not reaches_button(interaction, custom_id):
            await self.presses.handle_press(interaction, custom_id)


def _shards(count: int | None) -> str:
    return "1 shard" if count == 1 else f"{count} shards"


_TOKEN = re.compile(TEMPLATE)


def reaches_button(interaction: discord.Interaction[Any], custom_id: str) -> bool:
    """Whether discord.py hands this press to an :class:`ActionButton`: a token of
    ours that is a button of the pressed message."""
    message = interaction.message
    if message is None or _TOKEN.fullmatch(custom_id) is None:
        return False
    view = discord.ui.View.from_message(message, timeout=None)
    return any(getattr(item, "custom_id", None) == custom_id for item in view.walk_children())


def same_commands(wanted: list[dict[str, Any]], registered: Any) -> bool:
    """Whether the commands Discord has (``registered``, as its API returns them) are
    ``wanted``: the same commands, each field of ``wanted`` equal (Discord adds ids and
    versions, and leaves out fields at their defaults).

    >>> same_commands([{"name": "help", "options": []}], [{"id": "1", "name": "help"}])
    True
    >>> same_commands([{"name": "help", "description": "Help"}], [{"name": "help"}])
    False
    """
    if not isinstance(registered, list) or len(registered) != len(wanted):
        return False
    try:
        have = sorted(registered, key=_command_key)
        pairs = zip(sorted(wanted, key=_command_key), have, strict=True)
        return all(_covers(w, h) for w, h in pairs)
    except (AttributeError, KeyError, TypeError):  # not the shape Discord answers with
        return False


def _command_key(command: dict[str, Any]) -> tuple[int, str]:
    return command.get("type", 1), command["name"]


def _covers(want: Any, have: Any) -> bool:
    if isinstance(want, dict):
        return isinstance(have, dict) and all(
            _covers(value, have[name]) if name in have else _is_default(value)
            for name, value in want.items()
        )
    if isinstance(want, list):
        return (
            isinstance(have, list)
            and len(want) == len(have)
            and all(_covers(w, h) for w, h in zip(want, have, strict=True))
        )
    return bool(want == have or (_is_default(want) and _is_default(have)))


def _is_default(value: Any) -> bool:
    return value is None or value is False or value == [] or value == {}
