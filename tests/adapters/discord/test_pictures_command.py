"""``/pictures on|off`` on Discord (issue 25): a channel's admins turn the result's
picture off and on (``/картинки`` in Russian); a member only hears who may."""

from __future__ import annotations

from tests.adapters.discord.harness import ALICE, BOB, CHAT, Harness


async def test_only_an_admin_turns_the_result_picture_off(harness: Harness) -> None:
    command = harness.dc.command("pictures")
    assert command["name_localizations"]["ru"] == harness.t("cmd-name-pictures")
    rec = await harness.slash(BOB, "pictures", {"mode": "off"})
    assert rec.content == harness.t("pictures-admins")
    assert await harness.service.chat_pictures(CHAT)
    rec = await harness.slash(ALICE, "pictures", {"mode": "off"})  # the server's owner
    assert rec.content == harness.t("pictures-off")
    assert not await harness.service.chat_pictures(CHAT)
    rec = await harness.slash(BOB, "pictures")
    assert "/картинки on" in (rec.content or "") and "выключен" in (rec.content or "")
    rec = await harness.slash(ALICE, "pictures", {"mode": "on"})
    assert rec.content == harness.t("pictures-on")
    assert await harness.service.chat_pictures(CHAT)
