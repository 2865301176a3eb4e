"""Users, their languages, chats and join links."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import replace

from bot.errors import ErrorCode, ServiceError
from bot.i18n import normalize_locale
from bot.models import ChatRef, User, UserRef
from bot.ports import ChatInfo
from bot.service.tables import Tables

LOCALES = ("ru", "en")
#: The name of the join links' key among the storage's secrets.
LINK_SECRET = "join-links"


class People:
    """Users and chats as the storage keeps them, with each user's language cached."""

    def __init__(self, tables: Tables, *, default_locale: str, user_cache: int) -> None:
        self.tables = tables
        self.storage = tables.storage
        self.default_locale = default_locale
        #: Each user's chosen language (None: none), read from storage once: every
        #: press and every hand drawn asks for it. Users change only through here.
        #: The most recently used ``user_cache`` users are kept.
        self.user_locales: OrderedDict[UserRef, str | None] = OrderedDict()
        self.user_cache = user_cache
        #: The key that signs join links, read from storage once.
        self._link_key: bytes | None = None

    async def touch_user(self, user: User) -> User:
        """Remember a user's name (and platform language unless he chose one)."""
        stored = await self.storage.get_user(user.ref)
        if stored is None:
            await self.storage.save_user(user)
            self._cache_locale(user.ref, user.locale)
            return user
        if stored.name != user.name:
            stored = replace(stored, name=user.name)
            await self.storage.save_user(stored)
        self._cache_locale(user.ref, stored.locale)
        return stored

    async def set_user_locale(self, user: User, locale: str) -> None:
        if locale not in LOCALES:
            raise ServiceError(ErrorCode.BAD_SETTING)
        stored = await self.touch_user(user)
        await self.storage.save_user(replace(stored, locale=locale))
        self._cache_locale(user.ref, locale)

    async def set_chat_locale(self, chat: ChatRef, locale: str) -> None:
        if locale not in LOCALES:
            raise ServiceError(ErrorCode.BAD_SETTING)
        info = await self.storage.get_chat(chat) or ChatInfo(chat)
        await self.storage.save_chat(replace(info, locale=locale))

    async def set_chat_pictures(self, chat: ChatRef, on: bool) -> None:
        """Whether the chat gets a game's result as a picture too (its admins say)."""
        info = await self.storage.get_chat(chat) or ChatInfo(chat)
        await self.storage.save_chat(replace(info, pictures=on))

    async def chat_pictures(self, chat: ChatRef) -> bool:
        """Whether the chat gets a game's result as a picture too (by default, yes)."""
        info = await self.storage.get_chat(chat)
        return info is None or info.pictures is None or info.pictures

    async def chat_locale(self, chat: ChatRef) -> str:
        """The language chosen for the chat, else the platform's (``chat.language``),
        else the bot's default."""
        info = await self.storage.get_chat(chat)
        return info.locale if info and info.locale else self.default_chat_locale(chat)

    def _cache_locale(self, user: UserRef, locale: str | None) -> None:
        self.user_locales[user] = locale
        self.user_locales.move_to_end(user)
        while len(self.user_locales) > self.user_cache:
            self.user_locales.popitem(last=False)

    def default_chat_locale(self, chat: ChatRef) -> str:
        """The platform's language of the chat (``chat.language``), else the bot's."""
        if chat.language:
            return normalize_locale(chat.language, self.default_locale)
        return self.default_locale

    async def user_locale(self, user: UserRef, fallback: str | None = None) -> str:
        if user in self.user_locales:
            chosen = self.user_locales[user]
            self.user_locales.move_to_end(user)
        else:
            stored = await self.storage.get_user(user)
            # A language chosen while this read waited is newer: it stays.
            if user in self.user_locales:
                chosen = self.user_locales[user]
            else:
                chosen = stored.locale if stored else None
                self._cache_locale(user, chosen)
        if chosen in LOCALES:
            return chosen
        if fallback is not None and fallback in LOCALES:
            return fallback
        return self.default_locale

    async def migrate_chat(self, old: ChatRef, new: ChatRef) -> None:
        """A chat changed its id (a Telegram group became a supergroup): its games,
        settings and scores move with it."""
        await self.storage.migrate_chat(old, new)
        self.tables.results_changed(None, boards=True)
        for game in self.tables.games.values():
            if game.chat.platform == old.platform and game.chat.id == old.id:
                game.chat = ChatRef(new.platform, new.id, game.chat.thread)

    async def link_key(self) -> bytes:
        """The secret key of join links (kept in the database, so links outlive a
        restart and cannot be made by anyone who does not hold it)."""
        if self._link_key is None:
            self._link_key = await self.storage.secret(LINK_SECRET)
        return self._link_key
