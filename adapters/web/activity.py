"""A Discord Activity's page: who opens it, as Discord says (the Embedded App SDK's
OAuth2, https://discord.com/developers/docs/activities/how-activities-work).

Inside Discord's frame the page asks the client to ``authorize`` (scope
``identify``) and gets a one-time code; it posts the code to the bot's server
(``POST /discord/token``), which exchanges it with Discord (``POST /oauth2/token``,
the ``authorization_code`` grant, with the app's client secret: the page never sees
the secret) for the user's access token. The page says ``hello`` with that token and
the Activity's instance id; the server asks Discord whose token it is (``GET
/users/@me``) and who takes part in the instance, and where it runs (``GET
/applications/{app}/activity-instances/{instance}``, with the bot's token). Only a
participant of the instance is let in: to his seat of the game of the instance's
channel, else as a spectator (:meth:`adapters.web.hub.WebHub.hello`).
"""

from __future__ import annotations

import logging
import re
from typing import Any

import aiohttp

from adapters.web.hub import Refused
from bot.models import Platform, User, UserRef

log = logging.getLogger(__name__)

#: Discord's REST API (``DISCORD_API_URL`` sets another, e.g. a proxy's).
DISCORD_API = "https://discord.com/api/v10"
#: The longest code or access token taken from a page (Discord's are ~30 characters).
MAX_SECRET = 200
#: An Activity instance id as Discord's client gives it (``i-<digits>-gc-<ids>``).
_INSTANCE = re.compile(r"[A-Za-z0-9_-]{1,100}")
_SECRET = re.compile(r"[\x21-\x7e]+")
#: Seconds one request to Discord may take.
TIMEOUT = 10.0


def _text(value: object) -> str:
    """``value`` if it is a code or token's form (printable ASCII, not too long)."""
    if not isinstance(value, str) or len(value) > MAX_SECRET or not _SECRET.fullmatch(value):
        raise Refused("auth")
    return value


class DiscordActivity:
    """The two checks an Activity's page needs from Discord: :meth:`exchange` (a code
    for an access token) and :meth:`participant` (who a token is, in which instance).
    Both raise :class:`~adapters.web.hub.Refused`: ``auth`` (a code or token Discord
    does not take), ``not-participant``, or ``unavailable`` (Discord does not answer:
    the page tries again)."""

    def __init__(
        self,
        *,
        client_id: str,
        client_secret: str,
        bot_token: str,
        api: str | None = None,
    ) -> None:
        self.client_id = client_id
        self._client_secret = client_secret
        self._bot_token = bot_token
        self.api = (api or DISCORD_API).rstrip("/")
        self._session: aiohttp.ClientSession | None = None

    def _client(self) -> aiohttp.ClientSession:
        if self._session is None:
            timeout = aiohttp.ClientTimeout(total=TIMEOUT)
            self._session = aiohttp.ClientSession(timeout=timeout)
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def _call(
        self, method: str, path: str, *, headers: dict[str, str], data: Any = None
    ) -> tuple[int, Any]:
        try:
            async with self._client().request(
                method, self.api + path, headers=headers, data=data
            ) as response:
                body = await response.json(content_type=None) if response.status < 500 else None
                return response.status, body
        except (aiohttp.ClientError, TimeoutError, ValueError) as error:
            log.warning("Discord did not answer the Activity's check: %s", type(error).__name__)
            raise Refused("unavailable") from None

    async def exchange(self, code: object) -> str:
        """The access token Discord gives for an ``authorize`` code (good once)."""
        form = {
            "client_id": self.client_id,
            "client_secret": self._client_secret,
            "grant_type": "authorization_code",
            "code": _text(code),
        }
        status, body = await self._call("POST", "/oauth2/token", headers={}, data=form)
        if status >= 500 or status == 429:
            raise Refused("unavailable")
        if status == 401:
            log.error("Discord refuses DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET (401)")
            raise Refused("unavailable")
        token = body.get("access_token") if isinstance(body, dict) else None
        if status != 200 or not isinstance(token, str):
            raise Refused("auth")
        return token

    async def participant(self, token: object, instance: object) -> tuple[User, str | None, str]:
        """The user whose access token ``token`` is, his client's language, and the
        channel the Activity instance runs in, if he takes part in it."""
        if not isinstance(instance, str) or not _INSTANCE.fullmatch(instance):
            raise Refused("not-participant")
        bearer = {"Authorization": f"Bearer {_text(token)}"}
        status, me = await self._call("GET", "/users/@me", headers=bearer)
        if status in (401, 403):
            raise Refused("auth")  # forged, revoked or out of date
        if status != 200 or not isinstance(me, dict) or not isinstance(me.get("id"), str):
            raise Refused("unavailable")
        path = f"/applications/{self.client_id}/activity-instances/{instance}"
        bot = {"Authorization": f"Bot {self._bot_token}"}
        status, found = await self._call("GET", path, headers=bot)
        if status == 404:
            raise Refused("not-participant")  # no such instance (or it ended)
        if status != 200 or not isinstance(found, dict):
            raise Refused("unavailable")
        location = found.get("location")
        channel = location.get("channel_id") if isinstance(location, dict) else None
        users = found.get("users")
        if not isinstance(users, list) or me["id"] not in users or not isinstance(channel, str):
            raise Refused("not-participant")
        name = me.get("global_name") or me.get("username") or me["id"]
        language = me.get("locale") if isinstance(me.get("locale"), str) else None
        return User(UserRef(Platform.DISCORD, me["id"]), str(name)), language, channel
