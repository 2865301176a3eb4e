"""The README's sample of a table and a hand, drawn by the real presenters.

``python -m tests.docs_sample`` prints the block the README shows under "What it looks
like"; ``tests/test_docs.py`` checks that the README shows exactly this.
"""

from __future__ import annotations

import random

from bot import presenters as p
from bot.i18n import Translator
from bot.models import ChatRef, Game, GameStatus, Platform, Seat, SeatKind, UserRef
from bot.presenters.yard import hand, table
from core.cards import CARDS
from core.yard.actions import ActionKind

NAMES = ("Anna", "Boris", "Vera", "Gleb")
NOW = 1_000_000.0
SEED = 12
#: The cards Vera has selected in her hand (a bit per card, in the hand's order).
SELECTION = 0b1100


def sample_game() -> Game:
    """A table of four people in English, the first deal's lead on the table and a
    beat after it (a fixed shuffle, so the sample never changes by itself)."""
    users = [UserRef(Platform.TELEGRAM, str(100 + seat)) for seat in range(4)]
    game = Game(id=1, chat=ChatRef(Platform.TELEGRAM, "-100"), creator=users[0])
    game.status = GameStatus.PLAYING
    game.settings = game.settings.__class__(locale="en")
    game.seats = [Seat(SeatKind.HUMAN, NAMES[s], users[s]) for s in range(4)]
    deck = list(CARDS)
    random.Random(SEED).shuffle(deck)
    series = game.play.series
    series.deal_from(deck, 10, dealer=3)
    for _ in range(2):  # the longest lead, then a beat of it
        deal = series.current
        assert deal is not None and deal.turn is not None
        legal = [a for a in deal.legal_actions(deal.turn) if a.kind is not ActionKind.MOLODKA]
        beats = [a for a in legal if a.kind is ActionKind.BEAT]
        series.apply(max(beats or legal, key=lambda action: len(action.cards)))
    game.turn_deadline = NOW + 97
    return game


def _screen(screen: p.Screen) -> str:
    lines = [screen.text]
    for row in screen.rows:
        lines.append("  ".join(f"[ {button.label} ]" for button in row))
    return "\n".join(lines)


def sample() -> str:
    """The table message in the group, then the hand of the seat to act (its DM)
    with two cards selected."""
    tr = Translator.from_dir()
    game = sample_game()
    deal = game.play.series.current
    assert deal is not None and deal.turn is not None
    turn = deal.turn
    return (
        "── the table (one message in the group) ──\n"
        + _screen(table(game, tr, "en", NOW, with_hand_button=True))
        + f"\n\n── {NAMES[turn]}'s hand (a private message) ──\n"
        + _screen(hand(game, turn, SELECTION, tr, "en"))
    )


if __name__ == "__main__":
    print(sample())
