"""The preset 001's game (docs/rules/reference.md §2.16) on Telegram: ``/kozel classic 001``
opens its lobby with the preset's options, four users play a whole game through their
DM buttons, and the record replays to the same game (see
:mod:`tests.adapters.classic_play`)."""

from __future__ import annotations

import itertools

from bot.codec import Verb
from bot.models import ChatRef, Platform
from core.cards import Card
from core.classic.events import DealEnd
from core.classic.options import PRESETS
from tests.adapters.classic_play import DeckRandom, check_results, classic, play_classic
from tests.adapters.telegram.harness import GROUP, Harness
from tests.adapters.telegram.test_classic import TelegramTable

CHAT = ChatRef(Platform.TELEGRAM, str(GROUP))


async def test_kozel_classic_001_opens_the_preset_and_four_users_play_it_out(h: Harness) -> None:
    users = [h.user(1, "Alice"), h.user(2, "Bob"), h.user(3, "Carol"), h.user(4, "Dave")]
    h.rng = h.service.rng = DeckRandom(26)
    lobby = await h.command(users[0], GROUP, "/kozel classic 001")
    game = await h.service.open_game(CHAT)
    assert game is not None and game.settings.rule_set == "classic"
    assert classic(game).options == PRESETS["001"]
    assert h.tr.t("ru", "classic-preset-001") in (lobby.text or "")
    await h.press_lobby(users[0], lobby, Verb.SETTING, "po")
    chosen = h.tr.t("ru", "classic-preset-button-001")
    assert h.tr.t("ru", "lobby-preset-chosen", label=chosen) in str(
        h.tg.buttons(lobby.chat_id, lobby.message_id)
    )
    await h.press_lobby(users[0], lobby, Verb.SETTING, "p")
    for user, team in zip(users, "ABAB", strict=False):
        await h.press_lobby(user, lobby, Verb.JOIN, team)
    await h.press_verb(users[0], lobby, Verb.START)
    played = await play_classic(TelegramTable(h), game.id, seed=26)

    game = played.game
    assert classic(game).is_over and played.presses > 0 and played.checked > 0
    group = [m.text or "" for m in h.tg.messages(GROUP) if m.from_id == h.tg.bot_id]
    record = check_results(game, group, h.tr, game.settings.locale)
    assert record["options"] == PRESETS["001"].to_json()
    first = classic(game).dealings[0]
    assert first.first_leader == (first.dealer + 1 + first.deck.index(Card.parse("AD"))) % 4
    for before, after in itertools.pairwise(classic(game).dealings):
        assert before.result is not None
        assert after.dealer == before.result.next_dealer
        stays = before.end is DealEnd.REDEAL or before.result.eggs
        assert after.dealer == (before.dealer if stays else (before.dealer + 1) % 4)
