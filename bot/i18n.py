"""Translations: the one wrapper around Fluent, so that nothing else imports it.

Texts live in ``locales/<lang>/*.ftl``: the repository's top-level ``locales/``
folder, shipped in the wheel as the ``bot.locales`` package data (see
:func:`default_locales_dir`). A :class:`Translator` holds one
``FluentBundle`` per language and never raises: a missing message falls back to
the other languages, then to its id; formatting errors are logged.

Formatting is pure (the same locale, id and arguments give the same text), and the
screens of a game repeat most of their lines from press to press, so a translator
keeps recent texts in a bounded cache (see :meth:`Translator.t`).

>>> tr = Translator.from_sources({"en": "hi = Hello, { $name }!", "ru": "hi = Привет!"})
>>> tr.t("en", "hi", name="Vasya"), tr.t("ru-RU", "hi"), tr.t("de", "hi", name="Bob")
('Hello, Vasya!', 'Привет!', 'Hello, Bob!')
>>> tr.t("ru", "missing-id")
'missing-id'
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from decimal import Decimal
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from fluent.runtime import FluentBundle, FluentResource
from fluent.syntax import ast as fluent_ast

log = logging.getLogger(__name__)

#: The languages the bot speaks; the first is the default.
LOCALES = ("ru", "en")
DEFAULT_LOCALE = "ru"

Arg = str | int | float | Decimal

#: Texts a translator keeps by default (each a few hundred bytes).
CACHE_SIZE = 8192
#: Argument types a cached text may depend on: for these, equal values format alike
#: (unlike ``1.0 == 1``, ``-0.0 == 0.0``, ``Decimal("1.50") == Decimal("1.5")``, or a
#: ``str`` subclass with its own ``__str__``). Other arguments bypass the cache.
_CACHEABLE = frozenset({str, int, type(None)})
#: A cached text's key: the locale asked for, the id, then ``(name, value)`` pairs
#: sorted by name.
_Key = tuple[object, ...]


def normalize_locale(code: str | None, default: str = "en") -> str:
    """The bot's language for a platform's language code.

    >>> normalize_locale("ru-RU"), normalize_locale("en-GB"), normalize_locale("uk")
    ('ru', 'en', 'en')
    >>> normalize_locale(None), normalize_locale("", default="ru")
    ('en', 'ru')
    """
    if not code:
        return default
    return "ru" if code.strip().lower().startswith("ru") else "en"


def default_locales_dir() -> Traversable:
    """The bot's locales, found through the ``bot`` package, never the current folder.

    An installed wheel holds them as package data, ``bot/locales/<lang>/*.ftl``
    (:mod:`importlib.resources`); a source checkout (and an editable install, which
    runs it) keeps them in the top-level ``locales/`` folder beside ``bot/``.
    """
    packaged = resources.files("bot").joinpath("locales")
    if packaged.is_dir():
        return packaged
    beside = Path(__file__).resolve().parent.parent / "locales"
    if beside.is_dir():
        return beside
    raise FileNotFoundError(f"no locales in {packaged} nor in {beside}")


def _bundle(locale: str, sources: Iterable[tuple[str, str]]) -> FluentBundle:
    bundle = FluentBundle([locale], use_isolating=False)
    for name, text in sources:
        resource = FluentResource(text)
        for entry in resource.body:
            if isinstance(entry, fluent_ast.Junk):
                snippet = (entry.content or "")[:80]
                log.error("%s: %s: unparsable Fluent: %r", locale, name, snippet)
        bundle.add_resource(resource)
    return bundle


class Translator:
    """Messages of every language the bot speaks.

    ``t(locale, msg_id, **args)`` formats a message. Build one with
    :meth:`from_dir` in the composition root and pass it down.

    Texts are kept in a least-recently-used cache of ``cache_size`` entries (0: no
    cache), keyed by the locale asked for, the id and the arguments (``str``, ``int``
    and ``None`` only). A text whose formatting reported errors, or a missing
    message, is never cached: it is formatted, and logged, every time. Like the
    bot's services, a translator is used from one thread (the event loop's).
    """

    def __init__(
        self,
        bundles: Mapping[str, FluentBundle],
        default: str = DEFAULT_LOCALE,
        *,
        cache_size: int = CACHE_SIZE,
    ) -> None:
        if not bundles:
            raise ValueError("no locales")
        self._bundles = dict(bundles)
        self.default = default if default in self._bundles else next(iter(self._bundles))
        self.cache_size = max(cache_size, 0)
        self._cache: OrderedDict[_Key, str] = OrderedDict()
        self._hits = 0

    @classmethod
    def from_dir(
        cls,
        path: Traversable | str | None = None,
        default: str = DEFAULT_LOCALE,
        *,
        cache_size: int = CACHE_SIZE,
    ) -> Translator:
        """Load every ``<path>/<lang>/*.ftl`` (``path``, a folder or a package's
        resource folder, defaults to :func:`default_locales_dir`)."""
        if path is None:
            root = default_locales_dir()
        else:
            root = Path(path) if isinstance(path, str) else path
        bundles: dict[str, FluentBundle] = {}
        for folder in sorted((p for p in root.iterdir() if p.is_dir()), key=lambda p: p.name):
            files = sorted(
                (f for f in folder.iterdir() if f.is_file() and f.name.endswith(".ftl")),
                key=lambda f: f.name,
            )
            if files:
                sources = [(f"{folder.name}/{f.name}", f.read_text("utf-8")) for f in files]
                bundles[folder.name] = _bundle(folder.name, sources)
        if not bundles:
            raise FileNotFoundError(f"no locales in {root}")
        return cls(bundles, default, cache_size=cache_size)

    @classmethod
    def from_sources(
        cls,
        sources: Mapping[str, str],
        default: str = DEFAULT_LOCALE,
        *,
        cache_size: int = CACHE_SIZE,
    ) -> Translator:
        """Build from Fluent text per language (for tests and doctests)."""
        return cls(
            {locale: _bundle(locale, [("<text>", text)]) for locale, text in sources.items()},
            default,
            cache_size=cache_size,
        )

    @property
    def locales(self) -> tuple[str, ...]:
        return tuple(self._bundles)

    def bundle(self, locale: str) -> FluentBundle:
        """The Fluent bundle of one language (for the locale tests)."""
        return self._bundles[locale]

    def has(self, msg_id: str, locale: str | None = None) -> bool:
        """Whether a message exists (in ``locale``, or in any language)."""
        if locale is not None:
            bundle = self._bundles.get(locale)
            return bundle is not None and bundle.has_message(msg_id)
        return any(bundle.has_message(msg_id) for bundle in self._bundles.values())

    def message_ids(self, locale: str, prefix: str = "") -> list[str]:
        """The ids of every message of ``locale`` that start with ``prefix``, sorted.

        >>> Translator.from_sources({"en": "a-1 = A\\nb-1 = B\\na-2 = C"}).message_ids("en", "a-")
        ['a-1', 'a-2']
        """
        bundle = self._bundles.get(locale)
        messages: dict[str, object] = getattr(bundle, "_messages", {})
        return sorted(msg_id for msg_id in messages if msg_id.startswith(prefix))

    def resolve(self, locale: str | None) -> str:
        """The language used for ``locale``: itself if loaded, else its normal form,
        else the default."""
        if locale in self._bundles:
            return locale
        normal = normalize_locale(locale, self.default)
        return normal if normal in self._bundles else self.default

    def _order(self, locale: str | None) -> list[str]:
        first = self.resolve(locale)
        rest = [self.default] + [name for name in self._bundles if name != self.default]
        return [first] + [name for name in rest if name != first]

    def t(self, locale: str | None, msg_id: str, /, **args: Arg | None) -> str:
        """The text of ``msg_id`` in ``locale``; falls back to the other languages,
        then to ``msg_id`` itself. Never raises.

        >>> tr = Translator.from_sources({"en": "hi = Hi, { $name }!"})
        >>> tr.t("en", "hi", name="Bob"), tr.t("en", "hi", name="Ann"), tr.t("en", "hi", name="Bob")
        ('Hi, Bob!', 'Hi, Ann!', 'Hi, Bob!')
        >>> tr.cache_info()  # (hits, texts kept)
        (1, 2)
        """
        if not self.cache_size:
            return self._format(locale, msg_id, args)[0]
        if args:
            for value in args.values():
                if type(value) not in _CACHEABLE:
                    return self._format(locale, msg_id, args)[0]
            key: _Key = (locale, msg_id, *sorted(args.items()))
        else:
            key = (locale, msg_id)
        cache = self._cache
        text = cache.get(key)
        if text is not None:
            cache.move_to_end(key)
            self._hits += 1
            return text
        text, pure = self._format(locale, msg_id, args)
        if pure:
            cache[key] = text
            if len(cache) > self.cache_size:
                cache.popitem(last=False)
        return text

    def cache_info(self) -> tuple[int, int]:
        """``(hits, texts kept)`` of the cache."""
        return self._hits, len(self._cache)

    def clear_cache(self) -> None:
        self._cache.clear()
        self._hits = 0

    def _format(
        self, locale: str | None, msg_id: str, args: Mapping[str, Arg | None]
    ) -> tuple[str, bool]:
        """The text, and whether it may be cached (found, formatted without errors)."""
        values = {name: "" if value is None else value for name, value in args.items()}
        pure = True
        for name in self._order(locale):
            bundle = self._bundles[name]
            if not bundle.has_message(msg_id):
                continue
            try:
                message = bundle.get_message(msg_id)
                if message.value is None:
                    continue
                text, errors = bundle.format_pattern(message.value, values)
            except Exception:  # a broken message must not break a game
                log.exception("%s: cannot format %s", name, msg_id)
                pure = False
                continue
            for error in errors:
                log.warning("%s: %s: %s", name, msg_id, error)
            return str(text), pure and not errors
        log.warning("no message %s", msg_id)
        return msg_id, False
