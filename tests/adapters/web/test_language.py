"""The page's language (issue 31, point 12): decided once per request, from the
``lang`` its link carries, else ``Accept-Language``, else the bot's default; the page,
a bad link's refusal and the views of a page opened by a link all speak it.

Regression: ``/`` was English (the browser's language) while ``/?t=garbage`` was
Russian (the bot's default, whatever the browser asked for)."""

from __future__ import annotations

import re

import pytest

from tests.adapters.web.harness import PLAYERS, Web

_LANG = re.compile(r'<html lang="([a-z]*)">')


async def page_language(web: Web, path: str, accept: str | None) -> str:
    assert web.client is not None
    headers = {} if accept is None else {"Accept-Language": accept}
    response = await web.client.get(path, headers=headers)
    assert response.status == 200
    assert response.headers["Vary"] == "Accept-Language"
    assert response.headers["Cache-Control"] == "no-cache"
    assert "Content-Security-Policy" in response.headers
    match = _LANG.search(await response.text())
    assert match is not None
    return match.group(1)


@pytest.mark.parametrize(
    ("accept", "locale"),
    [("en-US,en;q=0.9", "en"), ("ru-RU,ru;q=0.9,en;q=0.8", "ru"), ("de-DE, en;q=0.5", "en")],
)
async def test_the_page_and_a_bad_links_refusal_speak_the_requests_accept_language(
    web: Web, accept: str, locale: str
) -> None:
    assert await page_language(web, "/", accept) == locale
    assert await page_language(web, "/?t=garbage", accept) == locale
    # The page says its language in its hello: the refusal is in it.
    page = await web.page({"link": "garbage", "locale": locale})
    await page.wait(lambda received: received)
    assert page.of("error") == [
        {"type": "error", "code": "auth", "text": web.tr.t(locale, "web-error-auth")}
    ]


async def test_the_links_lang_comes_first_and_without_either_the_bots_default(web: Web) -> None:
    assert await page_language(web, "/?t=garbage&lang=en", "ru-RU") == "en"
    assert await page_language(web, "/?lang=ru", "en") == "ru"
    assert await page_language(web, "/?lang=xx", "en") == "en"  # not ours: the next rule
    assert web.service.default_locale == "ru"
    assert await page_language(web, "/", None) == "ru"
    assert await page_language(web, "/", "de, *;q=0.1") == "ru"


async def test_a_page_opened_by_a_link_shows_the_game_in_its_own_language(web: Web) -> None:
    """The views of a page opened by a signed link are in the page's language (its
    words are): a player who chose Russian in the chat, at an English page, reads the
    table in English. A socket that names no language gets his own, as before."""
    game = await web.game()
    await web.service.set_user_locale(PLAYERS[0], "ru")
    english = await web.page({"link": web.link(game, 0), "locale": "en"})
    own = await web.page({"link": web.link(game, 0)})
    spectator = await web.page({"link": web.link(game, None), "locale": "en"})
    for page in (english, own, spectator):
        await page.state_at(game.version)
    assert english.view["locale"] == "en" and english.view["you"] == 0
    assert own.view["locale"] == "ru"
    assert spectator.view["locale"] == "en" and spectator.view["you"] is None
    assert english.view["title"] == web.tr.t("en", "rules-name-yard")
