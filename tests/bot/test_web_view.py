"""The web table's view (bot/presenters/web.py) and the web's way into the chat
screens: a spectator's view holds no hand and no face-down card; a seat's view holds
its own hand and only its own legal actions, each a token of the game's version; a
hand message with a link button (the web table's) is still a hand."""

from __future__ import annotations

import pytest

from bot.codec import Command, Verb, decode, encode
from bot.i18n import Translator
from bot.models import ChatRef, Platform, UserRef
from bot.presenters.web import web_view
from bot.presses import Pressed
from core.yard.actions import ActionKind
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
