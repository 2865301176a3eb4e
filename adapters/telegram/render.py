"""Telegram shapes of the application's records: users, chats, screens, deep links.

Pure functions, no requests: a :class:`~bot.presenters.Screen` becomes a text and
an inline keyboard, an aiogram user or message becomes a :class:`~bot.models.UserRef`
or :class:`~bot.models.ChatRef`.

>>> from bot.presenters import Button, Screen
>>> keyboard(Screen("hi", ((Button("Go", token="k:s:1:2:"), Button("Web", url="https://t.me/x")),)))
InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(text='Go', ...
"""

from __future__ import annotations

from typing import Any

from aiogram import types
from aiogram.enums import ChatType
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from bot.models import ChatRef, Platform, User, UserRef
from bot.presenters import Button, Screen

#: Telegram's limit on a message's text.
MAX_TEXT = 4096


def text_of(screen: Screen) -> str:
    """The screen's text, cut to what Telegram takes."""
    text = screen.text or "…"
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"


def caption_of(screen: Screen, limit: int) -> str:
    """The screen's text as a picture's caption of at most ``limit`` characters: cut
    after its last whole line that fits (a long event's final standings), then "…"."""
    text = text_of(screen)
    if len(text) <= limit:
        return text
    head = text[: limit - 2]
    cut = head.rfind("\n")
    return (head[:cut] if cut > 0 else head) + "\n…"


# Validated once, copied with new values: a copy of these with a new text and
# callback data (or url), or new rows, is what validating the same values builds
# (the tests compare them), at half the cost; a hand has up to a dozen buttons.
_CALLBACK_BUTTON = InlineKeyboardButton(text="-", callback_data="-")
_URL_BUTTON = InlineKeyboardButton(text="-", url="https://t.me")
_APP_BUTTON = InlineKeyboardButton(text="-", web_app=WebAppInfo(url="https://t.me"))
_KEYBOARD = InlineKeyboardMarkup(inline_keyboard=[])


def keyboard(screen: Screen) -> InlineKeyboardMarkup | None:
    """The screen's rows as an inline keyboard (None when it has no buttons)."""
    rows = [[_button(b) for b in row if b.token or b.url] for row in screen.rows]
    rows = [row for row in rows if row]
    return _KEYBOARD.model_copy(update={"inline_keyboard": rows}) if rows else None


def keyboard_json(screen: Screen) -> dict[str, Any] | None:
    """:func:`keyboard` as the Bot API's JSON (what that model dumps to), for a
    request made without models (:meth:`~adapters.telegram.session.LeanSession.post`)."""
    rows = [[_button_json(b) for b in row if b.token or b.url] for row in screen.rows]
    rows = [row for row in rows if row]
    return {"inline_keyboard": rows} if rows else None


def _button_json(button: Button) -> dict[str, Any]:
    if button.url and button.app:
        return {"text": button.label, "web_app": {"url": button.url}}
    if button.url:
        return {"text": button.label, "url": button.url}
    return {"text": button.label, "callback_data": button.token}


def _button(button: Button) -> InlineKeyboardButton:
    if button.url and button.app:
        return _APP_BUTTON.model_copy(
            update={"text": button.label, "web_app": WebAppInfo(url=button.url)}
        )
    if button.url:
        return _URL_BUTTON.model_copy(update={"text": button.label, "url": button.url})
    return _CALLBACK_BUTTON.model_copy(update={"text": button.label, "callback_data": button.token})


def user_of(user: types.User) -> User:
    """The application's user (its language is the one chosen with /lang, kept by the
    application; the Telegram app's language only helps where no table's applies)."""
    return User(UserRef(Platform.TELEGRAM, str(user.id)), user.full_name or str(user.id))


def chat_of(message: types.Message) -> ChatRef:
    """The chat of a message; in a forum, its topic is the ``thread``."""
    thread = thread_of(message)
    return ChatRef(Platform.TELEGRAM, str(message.chat.id), None if thread is None else str(thread))


def thread_of(message: types.Message) -> int | None:
    """The forum topic a message was sent in, if any."""
    if message.is_topic_message and message.message_thread_id is not None:
        return message.message_thread_id
    return None


def is_private(chat: types.Chat) -> bool:
    return chat.type == ChatType.PRIVATE


def chat_id(ref: ChatRef | UserRef) -> int:
    """The Telegram chat id of a chat, or of a user's private chat."""
    return int(ref.id)


def thread_id(ref: ChatRef) -> int | None:
    return int(ref.thread) if ref.thread else None


def deep_link(username: str, payload: str) -> str:
    """A link that opens the private chat with the bot and sends ``/start <payload>``
    (a payload of :meth:`bot.interactions.Interactions.join_link`)."""
    return f"https://t.me/{username}?start={payload}"
