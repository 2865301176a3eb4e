"""Secrets never reach a log: a filter that blanks them out of every record.

The bot's tokens travel inside URLs (the Bot API puts the token in the path,
``/bot<token>/getMe``), and libraries log those URLs in their errors: aiohttp's
``InvalidURL`` and connection errors, aiogram's network errors, the tracebacks of
all of them. :class:`RedactSecrets` rewrites a record before any handler formats
it: its message (arguments merged in), its traceback and its stack are rendered
once, with every secret replaced by ``***``. The composition root installs it on
the handlers of the root logger (:func:`install`), so every library's records pass
through it.

>>> import logging
>>> record = logging.LogRecord("x", logging.INFO, __file__, 1, "GET %s", ("/bot1:SECRET/x",), None)
>>> RedactSecrets(["1:SECRET"]).filter(record), record.getMessage()
(True, 'GET /bot***/x')
"""

from __future__ import annotations

import logging
import traceback
from collections.abc import Iterable
from urllib.parse import quote

#: What stands in for a secret.
MASK = "***"


def forms(secret: str) -> set[str]:
    """The ways a secret may be written in a log: as it is, and percent-encoded as a
    URL's path or query carries it.

    >>> sorted(forms("1:a/b"))
    ['1%3Aa%2Fb', '1%3Aa/b', '1:a%2Fb', '1:a/b']
    """
    found = {secret, quote(secret, safe=""), quote(secret, safe=":@"), quote(secret)}
    return {form for form in found if form}


class RedactSecrets(logging.Filter):
    """Replaces the secrets in each record it sees; lets every record through."""

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        # The longest first, so that a secret that contains another is masked whole.
        self._forms = sorted(
            {form for secret in secrets if secret for form in forms(secret)},
            key=len,
            reverse=True,
        )

    def redact(self, text: str) -> str:
        for form in self._forms:
            text = text.replace(form, MASK)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        if not self._forms:
            return True
        try:
            message = record.getMessage()
        except Exception:  # a record whose arguments do not format: keep it visible
            message = f"{record.msg!r} % {record.args!r}"
        record.msg, record.args = self.redact(message), ()
        if record.exc_info and record.exc_info[1] is not None and not record.exc_text:
            # Formatters print exc_text when it is set and do not format exc_info again.
            record.exc_text = "".join(traceback.format_exception(*record.exc_info)).rstrip("\n")
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        return True


def install(secrets: Iterable[str], logger: logging.Logger | None = None) -> RedactSecrets:
    """Put a :class:`RedactSecrets` on every handler of ``logger`` (the root logger by
    default), which every library's records reach; returns the filter."""
    redaction = RedactSecrets(secrets)
    for handler in (logger or logging.getLogger()).handlers:
        handler.addFilter(redaction)
    return redaction
