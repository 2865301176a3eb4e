"""A leaner aiogram HTTP session: JSON request bodies, responses parsed from bytes.

aiogram's :class:`~aiogram.client.session.aiohttp.AiohttpSession` sends every request
as a form (each nested object a JSON string of its own, the whole form URL-encoded by
aiohttp, or multipart with files) and parses each answer twice (``json.loads``, then
pydantic). The Bot API takes ``application/json`` bodies as well, so
:class:`LeanSession` sends a request without files as one JSON document (a request
with files still goes as the parent's form) and validates the answer's bytes with
pydantic's JSON parser through a response model kept per result type.

The two requests a press costs most often, a message's edit and a callback query's
answer, can skip the models altogether: :meth:`LeanSession.post` sends a JSON
payload as it is and reads only whether the answer is ``ok`` (the outbox never
reads an edited message, nor the ``True`` of an answer). Their models are built only
when an answer is an error, for aiogram's exceptions.

Nothing else changes: results are bound to the bot (``context={"bot": bot}``), and
an error answer (or one that does not parse) is handed to aiogram's own
``check_response``, so the same exceptions are raised (``TelegramRetryAfter`` with
``retry_after``, ``TelegramMigrateToChat``, ``TelegramBadRequest``,
``TelegramForbiddenError``, ``ClientDecodeError``, ...).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from http import HTTPStatus
from typing import TYPE_CHECKING, Any, Final, cast

from aiogram.client.default import Default
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.exceptions import TelegramNetworkError
from aiogram.methods import Response, TelegramMethod
from aiogram.methods.base import TelegramType
from aiohttp import ClientError, ClientTimeout
from pydantic import ValidationError

if TYPE_CHECKING:
    from aiogram import Bot

_JSON: Final = {"Content-Type": "application/json"}


class _Special(Exception):
    """A value JSON cannot carry as it is (a file, a default, a date, ...)."""


def _refuse(value: object) -> Any:
    raise _Special


class LeanSession(AiohttpSession):
    """:class:`AiohttpSession` with JSON bodies and fast response parsing; see the
    module's docs. Takes the same arguments."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        #: ``Response[T]`` per result type. pydantic keeps parametrized generics only
        #: weakly: rebuilt after each garbage collection, one costs ~15 ms.
        self._responses: dict[Any, type[Response[Any]]] = {}
        #: Told of every request: the Bot API method and the HTTP status (None: no
        #: answer). The metrics count requests through it.
        self.observe: Callable[[str, int | None], None] | None = None

    def build_json(
        self, bot: Bot, method: TelegramMethod[Any], *, into_webhook: bool = False
    ) -> bytes | None:
        """The request as a JSON body, or None when it carries files (a form then).
        ``into_webhook``: as the answer to a webhook's request (the method named in it)."""
        data = method.model_dump(warnings=False, exclude_none=True)
        for key, value in list(data.items()):
            if isinstance(value, Default):  # the bot's default for this field
                value = data[key] = self.prepare_value(value, bot=bot, files={}, _dumps_json=False)
            if value is None or value == "":  # the form leaves these out too
                del data[key]
        if into_webhook:
            data = {"method": method.__api_method__, **data}
        try:
            return json.dumps(data, ensure_ascii=False, default=_refuse).encode()
        except _Special:  # rare: aiogram's own preparation, nested all the way
            return self._build_json_slowly(bot, method, into_webhook)

    def _build_json_slowly(
        self, bot: Bot, method: TelegramMethod[Any], into_webhook: bool
    ) -> bytes | None:
        files: dict[str, Any] = {}
        data = {"method": method.__api_method__} if into_webhook else {}
        for key, value in method.model_dump(warnings=False).items():
            prepared = self.prepare_value(value, bot=bot, files=files, _dumps_json=False)
            if prepared is not None and prepared != "":
                data[key] = prepared
        if files:
            return None
        return json.dumps(data, ensure_ascii=False).encode()

    def response_model(self, returning: Any) -> type[Response[Any]]:
        model = self._responses.get(returning)
        if model is None:
            model = self._responses[returning] = Response[returning]
        return model

    def parse_response(
        self, bot: Bot, method: TelegramMethod[TelegramType], status_code: int, raw: bytes
    ) -> TelegramType:
        """The result of a successful answer; any other answer raises what aiogram's
        ``check_response`` raises for it."""
        model = self.response_model(method.__returning__)
        try:
            response = model.model_validate_json(raw, context={"bot": bot})
        except ValidationError:
            response = None
        if response is not None and response.ok and HTTPStatus.OK <= status_code <= 226:
            return cast(TelegramType, response.result)
        content = raw.decode("utf-8", errors="replace")
        checked = self.check_response(bot, method, status_code, content)
        return cast(TelegramType, checked.result)

    async def make_request(
        self,
        bot: Bot,
        method: TelegramMethod[TelegramType],
        timeout: int | None = None,  # noqa: ASYNC109 (aiogram's signature)
    ) -> TelegramType:
        body = self.build_json(bot, method)
        data: Any = body if body is not None else self.build_form_data(bot=bot, method=method)
        status, raw = await self._send(
            bot, method.__api_method__, data, body is not None, lambda: method, timeout
        )
        return self.parse_response(bot, method, status, raw)

    async def post(
        self,
        bot: Bot,
        api_method: str,
        fields: Mapping[str, Any],
        method: Callable[[], TelegramMethod[Any]],
        timeout: int | None = None,  # noqa: ASYNC109 (as make_request's)
    ) -> None:
        """Make the request ``method()`` stands for, the Bot API's ``api_method`` with
        ``fields`` (as the Bot API names them, JSON values) as its body, without
        building the method: the answer is read only for being ``ok``. A failure
        raises what :meth:`make_request` raises for ``method()`` (built then, and only
        then)."""
        body = json.dumps(fields, ensure_ascii=False).encode()
        status, raw = await self._send(bot, api_method, body, True, method, timeout)
        if status == HTTPStatus.OK and _is_ok(raw):
            return
        self.parse_response(bot, method(), status, raw)

    async def _send(
        self,
        bot: Bot,
        api_method: str,
        data: Any,
        is_json: bool,
        method: Callable[[], TelegramMethod[Any]],
        timeout: int | None,  # noqa: ASYNC109 (as make_request's)
    ) -> tuple[int, bytes]:
        """POST ``data`` to ``api_method``: the answer's status and bytes. A request
        that gets no answer raises aiogram's :class:`TelegramNetworkError` for
        ``method()``; every request is observed with its status."""
        session = await self.create_session()
        url = self.api.api_url(token=bot.token, method=api_method)
        try:
            async with session.post(
                url,
                data=data,
                headers=_JSON if is_json else None,
                timeout=ClientTimeout(total=self.timeout if timeout is None else timeout),
            ) as resp:
                raw = await resp.read()
        except TimeoutError as e:
            self._observed(api_method, None)
            raise TelegramNetworkError(method=method(), message="Request timeout error") from e
        except ClientError as e:
            self._observed(api_method, None)
            raise TelegramNetworkError(method=method(), message=f"{type(e).__name__}: {e}") from e
        self._observed(api_method, resp.status)
        return resp.status, raw

    def _observed(self, api_method: str, status: int | None) -> None:
        if self.observe is not None:
            self.observe(api_method, status)


def _is_ok(raw: bytes) -> bool:
    """Whether a Bot API answer says ``"ok": true``."""
    try:
        answer = json.loads(raw)
    except ValueError:
        return False
    return isinstance(answer, dict) and answer.get("ok") is True
