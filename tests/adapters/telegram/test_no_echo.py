"""The bot does not post users' text back into a group (issue 23, point 7): a word of
``/top``, ``/rules`` or ``/kozel`` that is not understood is named only when it is one
plain word of a few characters; otherwise the answer lists the words understood."""

from __future__ import annotations

import pytest

from bot.models import ChatRef, Platform
from tests.adapters.telegram.harness import GROUP, Harness

CHAT = ChatRef(Platform.TELEGRAM, str(GROUP))
#: About a thousand characters of advertising, a link and a mention among them.
SPAM = "Join https://t.me/scam_channel now @everyone " + "free coins " * 90


@pytest.mark.parametrize("command", ["/top", "/rules", "/kozel"])
async def test_top_does_not_echo_the_users_text(h: Harness, command: str) -> None:
    """Regression: ``/top <text>``, ``/rules <text>`` and ``/kozel <text>`` echoed up to
    about 1,000 characters of it, links included, into the group."""
    alice = h.user(1, "Alice")
    answer = await h.command(alice, GROUP, f"{command} {SPAM}")
    text = answer.text or ""
    assert "t.me" not in text and "@everyone" not in text and "free coins" not in text
    args = {"yard": "yard", "classic": "classic"}
    if command == "/top":
        top_args = dict(top="/top", all="all", season="season", month="season", **args)
        assert text == h.tr.t("ru", "top-usage-unnamed", **top_args)
    else:
        assert text.startswith(h.tr.t("ru", "err-no-such-rules-unnamed", **args))
    assert await h.service.open_game(CHAT) is None  # /kozel opened nothing
    short = await h.command(alice, GROUP, f"{command} poker")
    assert "«poker»" in (short.text or "")  # a plain short word is named
    assert not h.errors
