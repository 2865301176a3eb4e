"""``/kozel`` with its rules option opens a lobby of those rules; the option is a
localized choice; the lobby's house rules work through Discord's buttons."""

from __future__ import annotations

from bot.models import Platform
from testing.fakes.discord import FakeDiscord
from tests.adapters.discord.harness import ALICE, Harness

DISCORD = Platform.DISCORD


async def test_kozel_has_a_localized_rules_choice(harness: Harness, dc: FakeDiscord) -> None:
    tr = harness.tr
    rule_set, challenge = dc.command("kozel")["options"]
    assert challenge["name"] == "challenge" and not challenge.get("required", False)
    assert rule_set["name"] == tr.t("en", "cmd-option-rules")
    assert rule_set["name_localizations"]["ru"] == tr.t("ru", "cmd-option-rules")
    assert not rule_set.get("required", False)
    choices = {c["value"]: c for c in rule_set["choices"]}
    assert set(choices) == {"yard", "classic", "classic 001"}  # and the 001 preset
    preset = choices["classic 001"]
    assert preset["name"] == tr.t("en", "classic-preset-choice-001")
    assert preset["name_localizations"]["ru"] == tr.t("ru", "classic-preset-choice-001")
    assert choices["classic"]["name"] == tr.t("en", "rules-name-classic")
    assert choices["classic"]["name_localizations"]["ru"] == tr.t("ru", "rules-name-classic")


async def test_kozel_classic_opens_a_classic_lobby(harness: Harness, dc: FakeDiscord) -> None:
    rec = await harness.slash(ALICE, "kozel", {"set": "classic"})
    assert rec.original is not None and not rec.ephemeral
    await harness.settled()
    game = await harness.game()
    assert game.settings.rule_set == "classic"
    table = harness.table_id(game)
    assert harness.t("rules-name-classic") in dc.message(table)["content"]
    await harness.click(ALICE, table, harness.t("lobby-house-rules"))
    await harness.settled()
    assert harness.t("lobby-house-rules-hint") in dc.message(table)["content"]
    await harness.click(ALICE, table, harness.t("classic-option-praise-simple"))
    await harness.settled()
    game = await harness.game()
    assert game.settings.options == {"praise": "pants"}
    pants = harness.t("classic-option-praise-pants")
    await dc.wait_for(lambda: pants in dc.message(table)["content"] or None)
    await harness.click(ALICE, table, harness.t("lobby-back"))
    await harness.settled()
    assert harness.t("lobby-house-rules-hint") not in dc.message(table)["content"]


async def test_kozel_yard_opens_a_yard_lobby(harness: Harness) -> None:
    await harness.slash(ALICE, "kozel", {"set": "yard"})
    await harness.settled()
    assert (await harness.game()).settings.rule_set == "yard"


async def test_top_takes_the_rules_choice(harness: Harness) -> None:
    rec = await harness.slash(ALICE, "top", {"set": "classic", "all": True})
    assert rec.content is not None
    assert rec.content.startswith(harness.t("top-title-global"))
    assert harness.t("top-rules", rules=harness.t("rules-name-classic")) in rec.content
    rec = await harness.slash(ALICE, "top")
    assert rec.content is not None and "📜" not in rec.content  # every rule set's
