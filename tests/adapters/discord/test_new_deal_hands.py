"""A new deal is news for every player (issue 23, point 10): right after the move that
ends a deal, every seat's DM hand shows the new deal's cards, not only the hands of
the presser and of the seat to act; and once the series is over every hand shows its
end."""

from __future__ import annotations

from adapters.discord import render
from bot.models import Game, GameStatus
from testing.fakes.discord import FakeDiscord
from tests.adapters.discord.harness import ALICE, BOB, CAROL, DAVE, Harness, ref


async def every_hand_shows(h: Harness, dc: FakeDiscord, game: Game) -> None:
    """Wait until each seat's DM hand shows what its hand is now."""
    expected = {}
    for seat in range(4):
        screen = await h.interactions.hand_screen(game, seat)
        assert screen is not None
        expected[int(game.messages[f"hand:{seat}"])] = render.content(screen.text)

    def shown() -> bool:
        return all(dc.message(mid)["content"] == text for mid, text in expected.items())

    await dc.wait_for(shown, timeout=30.0)


async def test_a_new_deals_hands_do_not_wait_for_the_turn(
    harness: Harness, dc: FakeDiscord
) -> None:
    h = harness
    game, _ = await h.start_four()
    players = {game.seat_of(ref(user)): user for user in (ALICE, BOB, CAROL, DAVE)}
    await every_hand_shows(h, dc, game)
    deals_checked = 0
    while game.status is GameStatus.PLAYING:
        deals = len(game.play.series.deals)
        deal = game.play.series.current
        assert deal is not None and deal.turn is not None
        await h.play(game.id, players[deal.turn])
        if len(game.play.series.deals) != deals or game.status is not GameStatus.PLAYING:
            # Nobody moved since (four humans): every hand shows the new deal, or the end.
            await every_hand_shows(h, dc, game)
            deals_checked += 1
    assert game.status is GameStatus.FINISHED
    assert deals_checked == len(game.play.series.deals) >= 2
