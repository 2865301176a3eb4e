"""How fast one user may send commands and press buttons (issue 23, point 3):
bot.flood's buckets, and Interactions answering a flooder once, then ignoring him."""

from __future__ import annotations

from bot.flood import COMMANDS, PRESSES, PRUNE_AT, Admission, FloodGuard
from bot.interactions import Interactions
from bot.models import ChatRef, Platform, User, UserRef
from bot.presses import Pressed

ALLOWED, WARNED, IGNORED = Admission.ALLOWED, Admission.WARNED, Admission.IGNORED
ALICE = UserRef(Platform.TELEGRAM, "1")
CHAT = ChatRef(Platform.TELEGRAM, "-1001")


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_normal_use_never_trips_it() -> None:
    """Every command tried at once, then one every few seconds for an hour; a player
    selecting and playing cards as fast as he can tap, for a whole series."""
    clock = Clock()
    guard = FloodGuard(clock)
    assert [guard.command(ALICE) for _ in range(int(COMMANDS.burst))] == [ALLOWED] * 15
    for _ in range(1200):
        clock.now += 3.0
        assert guard.command(ALICE) is ALLOWED
    for _ in range(2000):  # four presses a second, bursts of 8
        clock.now += 0.25
        assert guard.press(ALICE) is ALLOWED


def test_a_flooder_is_warned_once_then_ignored_then_forgiven() -> None:
    clock = Clock()
    guard = FloodGuard(clock)
    got = [guard.command(ALICE) for _ in range(100)]
    assert got == [ALLOWED] * 15 + [WARNED] + [IGNORED] * 84
    clock.now += COMMANDS.quiet - 1
    assert guard.command(ALICE) is IGNORED  # still silenced
    clock.now += 1
    assert [guard.command(ALICE) for _ in range(15)] == [ALLOWED] * 15  # a full bucket
    # Commands and presses are separate: a command flood leaves his presses alone.
    assert guard.command(ALICE) is WARNED and guard.press(ALICE) is ALLOWED
    other = UserRef(Platform.TELEGRAM, "2")
    assert guard.command(other) is ALLOWED  # nobody else is touched


def test_press_flood_gets_one_alert_then_nothing() -> None:
    clock = Clock()
    guard = FloodGuard(clock)
    got = [guard.press(ALICE) for _ in range(100)]
    assert got == [ALLOWED] * int(PRESSES.burst) + [WARNED] + [IGNORED] * 69


def test_the_buckets_of_many_users_stay_bounded() -> None:
    """Regression guard: one entry per user ever seen would grow without end."""
    clock = Clock()
    guard = FloodGuard(clock)
    for number in range(100_000):
        clock.now += 0.01
        user = UserRef(Platform.TELEGRAM, str(number))
        assert guard.command(user) is ALLOWED
        assert guard.press(user) is ALLOWED
    # Entries refill within a minute of ticks: only the latest few thousand are kept.
    assert guard.users <= 4 * PRUNE_AT


async def test_interactions_answer_a_flooder_once_in_the_chats_language(
    quick_ui: Interactions,
) -> None:
    tr = quick_ui.tr
    flooding = Interactions(quick_ui.service, tr, flood=FloodGuard(Clock()))
    replies = [await flooding.command_flood(CHAT, ALICE) for _ in range(20)]
    assert replies[:15] == [None] * 15
    assert replies[15] is not None and replies[15].alert == tr.t("ru", "err-too-many-commands")
    assert all(reply is not None and reply.ignored and not reply.alert for reply in replies[16:])
    user = User(ALICE, "Alice")
    where = Pressed(CHAT)
    presses = [await flooding.press(user, "k:x:1:1", where=where) for _ in range(40)]
    flooded = [reply for reply in presses if reply.alert == tr.t("ru", "err-too-many-presses")]
    # Ignored: nothing shown, not even the alert the malformed token would get.
    assert len(flooded) == 1 and all(reply.outputs == () for reply in presses[31:])
    assert presses[0].alert == tr.t("ru", "err-malformed")
