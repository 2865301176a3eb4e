"""The preset 001's game (docs/rules/reference.md §2.16) on Discord: the ``/kozel`` choice
"classic 001" opens its lobby, the preset buttons set and reset the bundle in one tap,
and four users play a whole game through their DM buttons; the record replays to the
same game."""

from __future__ import annotations

import itertools

from bot.i18n import Translator
from bot.memory import MemoryStorage
from core.classic.events import DealEnd
from core.classic.options import PRESETS
from testing.fakes.discord import FakeDiscord
from tests.adapters.classic_play import DeckRandom, check_results, classic, play_classic
from tests.adapters.discord.harness import ALICE, BOB, CAROL, DAVE, Harness
from tests.adapters.discord.test_classic import DiscordTable, channel_texts


async def test_the_001_choice_opens_the_preset_and_four_users_play_it_out(
    dc: FakeDiscord, tr: Translator
) -> None:
    h = Harness(dc, MemoryStorage(), tr, rng=DeckRandom(26))
    await h.start()
    try:
        rec = await h.slash(ALICE, "kozel", {"set": "classic 001"})
        assert rec.original is not None
        await h.settled()
        game = await h.game()
        table = h.table_id(game)
        assert game.settings.rule_set == "classic"
        assert classic(game).options == PRESETS["001"]
        assert h.t("classic-preset-001") in dc.message(table)["content"]
        # The house rules' preset buttons: 003 in one tap, then 001 again.
        await h.click(ALICE, table, h.t("lobby-house-rules"))
        await h.settled()
        await h.click(ALICE, table, h.t("classic-preset-button-003"))
        await h.settled()
        assert (await h.game()).settings.options == {}
        assert h.t("classic-options-default") in dc.message(table)["content"]
        await h.click(ALICE, table, h.t("classic-preset-button-001"))
        await h.settled()
        game = await h.game()
        assert classic(game).options == PRESETS["001"]
        await h.click(ALICE, table, h.t("lobby-back"))
        await h.settled()
        for user, team in zip((ALICE, BOB, CAROL, DAVE), "ABAB", strict=False):
            await h.seat(table, user, team)
        await h.click(ALICE, table, h.t("lobby-start"))
        played = await play_classic(DiscordTable(h), game.id, seed=26)

        game = played.game
        assert classic(game).is_over and played.presses > 0 and played.checked > 0
        record = check_results(game, channel_texts(dc), tr, game.settings.locale)
        assert record["options"] == PRESETS["001"].to_json()
        dealings = classic(game).dealings
        for before, after in itertools.pairwise(dealings):
            assert before.result is not None
            stays = before.end is DealEnd.REDEAL or before.result.eggs
            assert after.dealer == (before.dealer if stays else (before.dealer + 1) % 4)
    finally:
        await h.stop()
