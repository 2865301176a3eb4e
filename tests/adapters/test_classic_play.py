"""The helpers of the classic games played on the platforms' fakes do what they claim:
a chosen deck is what the service's shuffle deals, and a message that shows a card
its reader may not see fails the check."""

from __future__ import annotations

import random

import pytest

from bot.models import ChatRef, Game, Platform, TableSettings, UserRef
from bot.presenters.common import card_label
from core.cards import Card
from core.classic.cards import CARDS
from tests.adapters.classic_play import LOW_HAND, DeckRandom, Plan, Secrets, cards_in, classic
from tests.core.classic.helpers import cards

LOW = cards(LOW_HAND)


def classic_table() -> Game:
    user = UserRef(Platform.TELEGRAM, "1")
    settings = TableSettings(rule_set="classic")
    return Game(1, ChatRef(Platform.TELEGRAM, "1"), user, settings=settings)


@pytest.mark.parametrize("seed", range(5))
def test_the_service_shuffle_deals_the_chosen_decks_then_shuffles(seed: int) -> None:
    deck = list(CARDS)
    random.Random(seed).shuffle(deck)
    plan = Plan(dealer=seed % 4)
    rng = DeckRandom(seed, [deck, *plan.decks()])
    game = classic_table()
    game.play.deal(rng)
    assert list(classic(game).current.deck) == deck  # type: ignore[union-attr]


def test_the_plan_deals_a_low_hand_to_the_player_after_the_dealer() -> None:
    plan = Plan(dealer=1)
    game = classic_table()
    classic(game).deal_from(plan.decks()[0], dealer=1)
    dealing = classic(game).current
    assert dealing is not None and set(dealing.view(2).hand) == set(LOW)


def test_a_card_its_reader_may_not_see_fails() -> None:
    game = classic_table()
    game.play.deal(random.Random(1))
    secrets = Secrets()
    secrets.look(game)
    dealing = classic(game).current
    assert dealing is not None
    own, other = dealing.view(0).hand[0], dealing.view(1).hand[0]
    for locale in ("en", "ru"):  # Latin letters, and Russian ones (В, Д, К, Т)
        mine, theirs = card_label(own, locale), card_label(other, locale)
        assert cards_in(f"a {mine}, {theirs}.") == {own, other}
        secrets.check(game, [(0, f"your card {mine}"), (None, "the table")])
        with pytest.raises(AssertionError, match="may not see"):
            secrets.check(game, [(None, f"the group sees {mine}")])
        with pytest.raises(AssertionError, match="may not see"):
            secrets.check(game, [(0, f"seat 0 sees {theirs}")])
    assert cards_in("Д♣ В♥ К♠ Т♦ 10♣ 7♠ Кон") == {
        Card.parse(code) for code in ("QC", "JH", "KS", "AD", "TC", "7S")
    }
