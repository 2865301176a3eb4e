"""The web table's view (bot/presenters/web.py) and the web's way into the chat
screens: a spectator's view holds no hand and no face-down card; a seat's view holds
its own hand and only its own legal actions, each a token of the game's version; a
hand message with a link button (the web table's) is still a hand."""

from __future__ import annotations

import random

import pytest

from bot.codec import Command, Verb, decode, encode
from bot.i18n import Translator
from bot.models import ChatRef, Game, Platform, UserRef
from bot.presenters.web import web_view
from bot.presses import Pressed
from core.yard.actions import ActionKind
from tests.bot.test_classic_refusals import classic_table
from tests.bot.test_presenters import dealt_game


@pytest.fixture(scope="module")
def tr() -> Translator:
    return Translator.from_dir()


def test_a_discard_is_face_down_in_every_view_but_none_shows_its_faces(tr: Translator) -> None:
    game = dealt_game(seed=3)
    deal = game.play.series.current
    assert deal is not None
    leader = deal.turn
    assert leader is not None
    lead = next(a for a in deal.legal_actions(leader) if a.kind is ActionKind.LEAD)
    game.play.series.apply(lead)
    seat = deal.turn
    assert seat is not None
    discard = next(
        a
        for a in deal.legal_actions(seat)
        if a.kind is ActionKind.DISCARD and len(a.cards) == len(lead.cards)
    )
    game.play.series.apply(discard)
    codes = {card.code for card in discard.cards}
    for viewer in (None, 0, 1, 2, 3):
        view = web_view(game, viewer, tr, "en", 0.0)
        played = {p["seat"]: p["cards"] for p in view["trick"]}
        assert played[seat] == [None] * len(discard.cards)
        assert played[leader] == [card.code for card in lead.cards]
        if viewer is None:
            assert view["hand"] is None and view["actions"] == [] and view["you"] is None
        else:
            assert view["hand"] == [
                c.code for c in sorted(deal.hand(viewer), key=lambda c: c.index)
            ]
        mine = set(view["hand"] or [])
        assert not (codes - mine) & {c for play in view["trick"] for c in play["cards"] if c}
        for action in view["actions"]:
            command = decode(action["token"])
            assert command.verb is Verb.PLAY and command.version == game.version
            assert set(action["cards"]) <= mine
        if viewer is not None and viewer != deal.turn:
            assert all(not a["cards"] for a in view["actions"])  # a molodka at most


def test_a_hand_with_a_link_button_is_still_a_hand() -> None:
    token = encode(Command(Verb.PLAY, 5, 3, "lAS"))
    owner = UserRef(Platform.TELEGRAM, "7")
    chat = ChatRef(Platform.TELEGRAM, "7")
    assert Pressed(chat, owner, (token, None)).is_hand_of(5)  # None: the web table's link
    assert not Pressed(chat, owner, (token, encode(Command(Verb.PLAY, 6, 3, "lAS")))).is_hand_of(5)
    assert not Pressed(chat, owner, (None,)).is_hand_of(5)


def play_to_the_next_deal(game: Game) -> None:
    """Play the first legal action of whoever is to act until a deal ends, then deal the
    next one (as the service does at once)."""
    deals = game.play.game_view().deals
    rng = random.Random(5)
    while game.play.game_view().deals == deals or game.play.needs_deal:
        if game.play.needs_deal:
            game.play.deal(rng)
            continue
        turn = game.play.turn
        assert turn is not None
        game.play.apply(game.play.legal_actions(turn)[0])


def first_card(game: Game) -> None:
    """Act until a card lies on the table (a classic dealing may begin with choices)."""
    while True:
        turn = game.play.turn
        assert turn is not None
        game.play.apply(game.play.legal_actions(turn)[0])
        if any(play["cards"] for play in web_view(game, None, TR, "en", 0.0)["trick"]):
            return


TR = Translator.from_dir()


@pytest.mark.parametrize("rule_set", ["yard", "classic"])
async def test_a_deals_result_shows_on_the_page_until_the_next_deals_first_card(
    tr: Translator, rule_set: str
) -> None:
    """The service deals on at once after a deal ends, so the view of the new deal
    carries the last deal's result (the page shows it once), until its first card."""
    table = await classic_table(tr, 2) if rule_set == "classic" else None
    try:
        game = await table.game() if table is not None else dealt_game(seed=4)
        assert web_view(game, 0, tr, "en", 0.0)["result"] is None  # the first deal
        play_to_the_next_deal(game)
        views = [web_view(game, viewer, tr, "en", 0.0) for viewer in (None, 0, 1, 2, 3)]
        results = {str(view["result"]) for view in views}
        assert len(results) == 1  # the same public result for players and spectators
        result = views[0]["result"]
        assert isinstance(result, dict) and result["title"] and result["lines"]
        first_card(game)
        assert web_view(game, 0, tr, "en", 0.0)["result"] is None
    finally:
        if table is not None:
            await table.service.close()
