"""A Telegram Mini App's launch data (``initData``), checked as Telegram documents
(https://core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app):
an HMAC-SHA256 of its fields under a key derived from the bot's token (aiogram's
``safe_parse_webapp_init_data``), no older than ``max_age`` seconds, naming a user.
"""

from __future__ import annotations

from collections.abc import Callable

from aiogram.utils.web_app import safe_parse_webapp_init_data

from adapters.web.hub import InitDataCheck, Refused
from bot.models import Platform, User, UserRef

#: The longest launch data taken (Telegram's are well under 1 KB).
MAX_INIT_DATA = 3000
#: Seconds a launch data may be dated in the future (clocks differ a little).
CLOCK_SKEW = 60


def init_data_check(token: str, max_age: float, now: Callable[[], float]) -> InitDataCheck:
    """The check of a bot's Mini App launch data: it returns the Telegram user, his
    app's language and the start parameter (the ``startapp`` value), or raises
    :class:`~adapters.web.hub.Refused` (``auth``: forged or malformed; ``expired``:
    older than ``max_age``)."""

    def check(init_data: str) -> tuple[User, str | None, str]:
        if not init_data or len(init_data) > MAX_INIT_DATA:
            raise Refused("auth")
        try:
            data = safe_parse_webapp_init_data(token, init_data)
        except Exception:  # a wrong signature, or fields that are not Telegram's
            raise Refused("auth") from None
        if data.user is None:
            raise Refused("auth")
        age = now() - data.auth_date.timestamp()
        if age > max_age:
            raise Refused("expired")
        if age < -CLOCK_SKEW:
            raise Refused("auth")
        person = data.user
        name = " ".join(part for part in (person.first_name, person.last_name) if part)
        user = User(UserRef(Platform.TELEGRAM, str(person.id)), name or str(person.id))
        return user, person.language_code, data.start_param or ""

    return check
