"""Command spam never delays a game on Discord either (issue 23, point 3): answers to
slash commands are interaction responses, never in the channel's message route the
table is edited through, and a user who floods gets one ephemeral "slow down" and no
answer after it for a while."""

from __future__ import annotations

from bot import presenters
from bot.models import Platform
from testing.fakes.discord import FakeDiscord
from tests.adapters.discord.harness import ALICE, BOB, CAROL, CHANNEL, DAVE, GUILD, Harness

MESSAGES = f"/channels/{CHANNEL}/messages"


def channel_writes(dc: FakeDiscord, since: int = 0) -> list[tuple[str, str]]:
    """The writes into the channel's message route (method, path), from call ``since``."""
    return [
        (call.method, call.path)
        for call in dc.calls[since:]
        if call.path.startswith(MESSAGES) and call.method in ("POST", "PATCH")
    ]


async def test_200_help_and_200_top_do_not_delay_the_tables_next_edit(
    harness: Harness, dc: FakeDiscord
) -> None:
    """200 ``/help`` and 200 ``/top`` come (from 40 users, 10 each) and a move is made
    meanwhile: no answer is written into the channel's message route, so the table's
    edit after the move is the channel's very next write; every command is answered."""
    # 400 interactions at once: on a loaded 2-core machine (the suite's other worker
    # running a browser) some wait past Discord's 3 s for their first callback before
    # the bot's loop reaches them. The window and the deferral that keeps it are
    # test_refusals' (test_slow_work_is_deferred_then_answered); this test is about
    # the channel's route, so it gives each interaction a minute, as the 50 entrants do.
    dc.interaction_deadline = 60.0
    game, table = await harness.start_four()
    people = [900 + n for n in range(40)]
    for person in people:
        dc.add_user(person, f"user{person}", guild_ids=[GUILD])
    before = len(dc.calls)
    flood = []
    for n in range(200):
        flood.append(await dc.slash(people[n % 40], CHANNEL, "help"))
        flood.append(await dc.slash(people[(n + 7) % 40], CHANNEL, "top"))
    deal = game.play.series.current
    assert deal is not None and deal.turn is not None
    players = {0: ALICE, 1: BOB, 2: CAROL, 3: DAVE}
    version = game.version
    await harness.play(game.id, players[deal.turn])
    await harness.settled()
    game = await harness.service.game(game.id)
    assert game.version > version
    writes = channel_writes(dc, before)
    assert writes and writes[0] == ("PATCH", f"{MESSAGES}/{table}"), writes[:3]
    help_text = presenters.help(harness.tr, "ru", platform=Platform.DISCORD).text
    for iid in flood:
        answered = dc.responses(iid)
        assert answered.callback_type is not None and answered.content
    assert sum(dc.responses(iid).content == help_text for iid in flood) == 200


async def test_a_command_flooder_gets_one_slow_down_and_is_ignored(
    harness: Harness, dc: FakeDiscord
) -> None:
    """A user sending commands faster than bot.flood.COMMANDS allows gets ONE
    ephemeral "slow down"; his later commands are not answered (nor run); another
    user's are."""
    help_text = presenters.help(harness.tr, "ru", platform=Platform.DISCORD).text
    assert (await harness.slash(BOB, "help")).content == help_text  # the bot is ready
    flood = [await dc.slash(ALICE, CHANNEL, "help") for _ in range(40)]
    # Bob's command comes after the flood (the gateway keeps the order).
    assert (await harness.slash(BOB, "help")).content == help_text
    await dc.wait_for(
        lambda: sum(dc.responses(iid).callback_type is not None for iid in flood) >= 16
    )
    await harness.settled()
    answers = [dc.responses(iid) for iid in flood]
    slow_down = harness.t("err-too-many-commands")
    assert sum(a.callback_type is not None for a in answers) == 16  # the burst, and one
    warned = [a for a in answers if a.content == slow_down]
    assert len(warned) == 1 and warned[0].ephemeral
    assert answers[15] is warned[0]
    assert all(a.callback_type is None for a in answers[16:])
    late = await dc.slash(ALICE, CHANNEL, "help")
    assert (await harness.slash(BOB, "help")).content == help_text  # after Alice's
    await harness.settled()
    assert dc.responses(late).callback_type is None
