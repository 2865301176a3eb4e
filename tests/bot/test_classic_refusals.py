"""Classic decisions through :class:`Interactions`, as the adapters press them: every
decision not allowed now is refused with its own clear message (``err-<reason>`` in
both languages) and changes nothing (the version, the action log); a decision that
times out gets the rule set's safe action; an away player's decisions are played by
the computer."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from bot import presenters
from bot.codec import Command, Verb, encode
from bot.i18n import Translator
from bot.interactions import Interactions
from bot.memory import MemoryStorage
from bot.models import Game, GameStatus, User
from bot.outputs import PressReply
from bot.ports import ChangeKind
from bot.presses import Pressed
from bot.service import GameService
from core.classic.actions import ClassicAction, ClassicActionKind
from core.classic.errors import ClassicReason
from core.errors import KozelError, Reason
from core.yard.errors import YardReason
from tests.bot.conftest import CHAT, EVE, PLAYERS, FakeClock, RecordingPublisher

HERE = Pressed(CHAT)


@pytest.fixture(scope="module")
def tr() -> Translator:
    return Translator.from_dir()


@dataclass
class Table:
    ui: Interactions
    service: GameService
    publisher: RecordingPublisher
    clock: FakeClock
    game_id: int

    async def game(self) -> Game:
        return await self.service.game(self.game_id)


async def classic_table(
    tr: Translator,
    seed: int,
    options: dict[str, object] | None = None,
    *,
    max_missed: int = 1000,
) -> Table:
    """Four humans at a started classic table (its first deal: no praise)."""
    clock, publisher = FakeClock(), RecordingPublisher()
    service = GameService(
        MemoryStorage(),
        clock=clock,
        rng=random.Random(seed),
        computer_delay=0,
        computer_level="easy",
        turn_timeout=60,
        max_missed=max_missed,
    )
    service.add_publisher(CHAT.platform, publisher)
    ui = Interactions(service, tr)
    game = await service.open_table(CHAT, PLAYERS[0], rule_set="classic", options=options)
    for index, user in enumerate(PLAYERS):
        game = await service.join(game.id, None, user, None)
        assert game.seat_of(user.ref) == index
    game = (await service.start(game.id, None, PLAYERS[0].ref)).game
    assert game.status is GameStatus.PLAYING
    return Table(ui, service, publisher, clock, game.id)


async def press(table: Table, user: User, arg: str, version: int | None = None) -> PressReply:
    game = await table.game()
    at = game.version if version is None else version
    token = encode(Command(Verb.PLAY, game.id, at, arg))
    return await table.ui.press(user, token, where=HERE)


def reason_of(game: Game, action: ClassicAction) -> str | None:
    try:
        game.play.verify(action)
    except KozelError as error:
        return error.reason.value
    return None


async def assert_refused(table: Table, user: User, arg: str, reason: str, tr: Translator) -> None:
    """The press is refused with ``err-<reason>`` and nothing changes."""
    before = await table.game()
    version, log = before.version, len(await table.service.storage.game_actions(before.id))
    snapshot = before.play.snapshot()
    reply = await press(table, user, arg)
    assert tr.has(f"err-{reason}", "ru") and tr.has(f"err-{reason}", "en"), reason
    assert reply.alert == tr.t("ru", f"err-{reason}"), (arg, reason, reply.alert)
    after = await table.game()
    assert after.version == version and after.play.snapshot() == snapshot
    assert len(await table.service.storage.game_actions(after.id)) == log


async def find_table(tr: Translator, wanted: set[str]) -> tuple[Table, dict[str, int]]:
    """A table whose first deal has, for each reason wanted, a seat refused an offer
    or a redeal with it (seeds are tried in order)."""
    for seed in range(200):
        table = await classic_table(tr, seed)
        game = await table.game()
        seats: dict[str, int] = {}
        for seat in range(4):
            for action in (ClassicAction.offer_trump(seat), ClassicAction.redeal(seat)):
                reason = reason_of(game, action)
                if reason in wanted:
                    seats.setdefault(reason, seat)
        if set(seats) == wanted:
            return table, seats
        await table.service.close()
    raise AssertionError(f"no seed gives {wanted}")


async def test_every_classic_decision_refused_when_not_allowed(tr: Translator) -> None:
    table, seats = await find_table(
        tr, {ClassicReason.NOT_ONE_TRUMP.value, ClassicReason.REDEAL_NOT_ALLOWED.value}
    )
    try:
        game = await table.game()
        turn = game.play.turn
        assert turn is not None
        # Offering the last trump with two (or no) trumps; a redeal at 13+ points.
        two = seats[ClassicReason.NOT_ONE_TRUMP.value]
        await assert_refused(table, PLAYERS[two], "o", ClassicReason.NOT_ONE_TRUMP.value, tr)
        rich = seats[ClassicReason.REDEAL_NOT_ALLOWED.value]
        await assert_refused(table, PLAYERS[rich], "r", ClassicReason.REDEAL_NOT_ALLOWED.value, tr)
        # Decisions of another moment: praise, deal, naming, cutting, laying, answering.
        for arg in ("h", "s", "nD", "n0", "c5", "x"):
            action = presenters.presenter_of(game).parse_action_arg(turn, arg)
            reason = reason_of(game, action)
            assert reason is not None, arg
            await assert_refused(table, PLAYERS[turn], arg, reason, tr)
        # Not your turn: another seat plays a card of its own.
        other = (turn + 1) % 4
        card = game.play.game.current.hand(other)[0]
        await assert_refused(table, PLAYERS[other], f"p{card.code}", Reason.NOT_YOUR_TURN.value, tr)
        # A card one does not hold (the turn's own seat).
        foreign = game.play.game.current.hand(other)[0]
        reason = reason_of(game, ClassicAction.play(turn, foreign))
        assert reason is not None
        await assert_refused(table, PLAYERS[turn], f"p{foreign.code}", reason, tr)
        # Not seated at all; a forged argument.
        legal = game.play.legal_actions(turn)
        arg = presenters.presenter_of(game).action_arg(legal[0])
        stranger = await press(table, EVE, arg)
        assert stranger.alert == tr.t("ru", "err-not-seated")
        for forged in ("zz", "p", "pXX", "c0x", "hq", "nQ"):
            refused = await press(table, PLAYERS[turn], forged)
            assert refused.alert == tr.t("ru", "err-malformed"), forged
        # A stale button (drawn at a version the hand was never shown at).
        version = (await table.game()).version
        stale = await press(table, PLAYERS[turn], arg, version=version - 1)
        assert stale.alert == tr.t("ru", "err-stale")
        assert (await table.game()).version == version
        # The legal press goes through; the same press again is stale.
        done = await press(table, PLAYERS[turn], arg)
        assert done.alert is None and (await table.game()).version == version + 1
        again = await press(table, PLAYERS[turn], arg, version=version)
        assert again.alert == tr.t("ru", "err-stale")
        # Once the first card is down nobody offers or asks for a redeal any more.
        game = await table.game()
        if not game.play.game.current.is_over:
            for seat in range(4):
                for arg, action in (
                    ("o", ClassicAction.offer_trump(seat)),
                    ("r", ClassicAction.redeal(seat)),
                ):
                    reason = reason_of(game, action)
                    assert reason is not None
                    await assert_refused(table, PLAYERS[seat], arg, reason, tr)
    finally:
        await table.service.close()


async def test_a_redeal_is_refused_when_the_table_allows_none(tr: Translator) -> None:
    table = await classic_table(tr, 1, {"redeal": False, "last_trump": False})
    try:
        for seat in range(4):
            await assert_refused(table, PLAYERS[seat], "r", ClassicReason.OPTION_OFF.value, tr)
            await assert_refused(table, PLAYERS[seat], "o", ClassicReason.OPTION_OFF.value, tr)
    finally:
        await table.service.close()


async def test_an_offer_waits_for_the_partner_only(tr: Translator) -> None:
    for seed in range(200):
        table = await classic_table(tr, seed)
        game = await table.game()
        offers = [
            seat
            for seat in range(4)
            if ClassicAction.offer_trump(seat) in game.play.legal_actions(seat)
        ]
        if offers:
            break
        await table.service.close()
    else:
        raise AssertionError("no seed has an offer")
    try:
        offerer = offers[0]
        assert (await press(table, PLAYERS[offerer], "o")).alert is None
        game = await table.game()
        partner = (offerer + 2) % 4
        assert game.play.turn == partner  # the partner's decision now
        for seat in ((offerer + 1) % 4, (offerer + 3) % 4, offerer):
            reason = reason_of(game, ClassicAction.decline_trump(seat))
            assert reason is not None
            await assert_refused(table, PLAYERS[seat], "x", reason, tr)
        await assert_refused(
            table,
            PLAYERS[offerer],
            "o",
            reason_of(game, ClassicAction.offer_trump(offerer)) or "",
            tr,
        )
        assert (await press(table, PLAYERS[partner], "x")).alert is None
    finally:
        await table.service.close()


def test_every_classic_reason_has_a_message_in_both_languages(tr: Translator) -> None:
    for reason in ClassicReason:
        for locale in ("ru", "en"):
            assert tr.has(f"err-{reason.value}", locale), (reason, locale)
    for reason in [*Reason, *YardReason]:
        for locale in ("ru", "en"):
            assert tr.has(f"err-{reason.value}", locale), (reason, locale)


# --- Timers and away players ----------------------------------------------------------------


async def time_out(table: Table) -> None:
    game = await table.game()
    assert game.turn_deadline is not None
    table.clock.value = game.turn_deadline + 1
    await table.service.tick()
    await table.service.settle()


async def test_a_classic_decision_that_times_out_gets_the_safe_action(tr: Translator) -> None:
    """Every human sleeps: each decision times out and is taken for him, until the
    next deal asks the player after the dealer to deal or praise: that one times out
    into "deal" (the safe action), never a praise."""
    table = await classic_table(tr, 3)
    try:
        kinds: set[ClassicActionKind] = set()
        for _ in range(400):
            game = await table.game()
            if game.status is not GameStatus.PLAYING:
                break
            turn = game.play.turn
            assert turn is not None
            expected = game.play.safe_action(turn)
            version = game.version
            logged = len(await table.service.storage.game_actions(game.id))
            await time_out(table)
            after = await table.game()
            actions = await table.service.storage.game_actions(game.id)
            assert after.version > version and len(actions) == logged + 1
            assert actions[-1].auto
            assert actions[-1].action == game.play.action_to_json(expected)
            kinds.add(expected.kind)
            if ClassicActionKind.DEAL in kinds:
                break
        assert ClassicActionKind.DEAL in kinds and ClassicActionKind.PLAY in kinds
        assert ClassicActionKind.PRAISE not in kinds
        assert all(seat is not None and not seat.away for seat in (await table.game()).seats)
    finally:
        await table.service.close()


async def test_an_away_players_classic_decisions_are_played_by_the_computer(
    tr: Translator,
) -> None:
    table = await classic_table(tr, 4, max_missed=1)
    try:
        game = await table.game()
        sleeper = game.play.turn
        assert sleeper is not None
        await time_out(table)  # one missed decision: away
        game = await table.game()
        player = game.seats[sleeper]
        assert player is not None and player.away
        away = [c for _, _, c in table.publisher.changes if c.kind is ChangeKind.AWAY]
        assert [c.seat for c in away] == [sleeper]
        # The others play by hand; the away seat's decisions are the computer's.
        auto_before = sum(a.auto for a in await table.service.storage.game_actions(game.id))
        for _ in range(300):
            await table.service.settle()
            game = await table.game()
            if game.status is not GameStatus.PLAYING or len(game.play.game.dealings) > 1:
                break
            turn = game.play.turn
            assert turn != sleeper, "the computer answers for the away seat at once"
            if turn is None:
                continue
            action = game.play.safe_action(turn)
            arg = presenters.presenter_of(game).action_arg(action)
            assert (await press(table, PLAYERS[turn], arg)).alert is None
        actions = await table.service.storage.game_actions(game.id)
        assert sum(a.auto for a in actions) > auto_before
        assert all(a.seat == sleeper for a in actions if a.auto)
        # Pressing his hand brings him back.
        back = await table.ui.press(
            PLAYERS[sleeper], encode(Command(Verb.SHOW_HAND, game.id, game.version)), where=HERE
        )
        assert back.hand is not None
        seat = (await table.game()).seats[sleeper]
        assert seat is not None and not seat.away
    finally:
        await table.service.close()
