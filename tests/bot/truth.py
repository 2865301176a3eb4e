"""What a screen says of a seat's own, checked against the engine (issue 31): a hand
lists exactly the cards its seat holds, and the hand and the table name the deal's
trump as the engine has it. Shared by the service's tests and the platforms' (the
fake Telegram's and the fake Discord's DMs).

The engine's side comes from the rule set's game itself (the yard deal, the classic
dealing), not from the views the presenters draw from.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

from bot.i18n import Translator
from bot.interactions import Interactions
from bot.models import Game
from bot.presenters import card_label, suit_name
from core.cards import Card, Suit
from core.classic.options import ClassicOptions
from core.classic.ruleset import ClassicGameAdapter
from core.yard.actions import ActionKind
from core.yard.ai import safe_move
from core.yard.ruleset import YardGame


def engine_cards(game: Game, seat: int) -> tuple[Card, ...]:
    """The cards the seat holds now, as the engine keeps them."""
    play = game.play
    if isinstance(play, ClassicGameAdapter):
        dealing = play.game.current
        return () if dealing is None else dealing.view(seat).hand
    assert isinstance(play, YardGame), type(play)
    deal = play.series.current
    return () if deal is None else deal.hand(seat)


def cards_listed(text: str, tr: Translator, locale: str) -> list[str] | None:
    """The card labels a hand's "Your cards" line lists ([] for "no cards"); None when
    the text has no such line."""
    prefix = tr.t(locale, "hand-cards", cards="")
    for line in text.split("\n"):
        if line.startswith(prefix):
            return line[len(prefix) :].split()
        if line == tr.t(locale, "hand-empty"):
            return []
    return None


def classic_trump_words(
    trump: tuple[bool, Suit | None], options: ClassicOptions, tr: Translator, locale: str
) -> str:
    """The line of a classic screen that names ``trump`` (set yet, suit or None for no
    trump suit) and the permanent trumps, from the locale's messages."""
    kocherga = "yes" if options.kocherga else "no"
    trump_set, suit = trump
    if not trump_set:
        return tr.t(locale, "classic-trump-unset", kocherga=kocherga)
    if suit is None:
        return tr.t(locale, "classic-trump-none", kocherga=kocherga)
    return tr.t(locale, "classic-trump", suit=suit_name(suit, tr, locale), kocherga=kocherga)


def trump_lines(game: Game, tr: Translator, locale: str) -> tuple[str, str]:
    """How a hand and the table name the deal's trump, from the engine's trump: a line
    of a classic screen; the start of a yard screen's line."""
    play = game.play
    if isinstance(play, ClassicGameAdapter):
        line = classic_trump_words(trump_of(game), play.game.options, tr, locale)
        return line, line
    assert isinstance(play, YardGame)
    deal = play.series.current
    assert deal is not None
    suit = suit_name(deal.trump, tr, locale)
    card = card_label(deal.trump_card, locale)
    table = tr.t(locale, "table-trump", suit=suit, card=card)
    return tr.t(locale, "hand-trump", suit=suit), table[: table.index(suit) + len(suit)]


def _names(line: str, lines: list[str]) -> bool:
    """Whether one of ``lines`` is ``line``, or begins with it and goes on past a
    separator (a yard hand's summary: "Trump ♣ clubs · stock 12 ...")."""
    return any(text == line or text.startswith((f"{line} ", f"{line}\u00a0")) for text in lines)


def hand_lies(game: Game, seat: int, text: str, tr: Translator, locale: str) -> list[str]:
    """What a seat's hand message says that the engine does not: cards he does not
    hold (or not all he holds), another trump. Empty when it tells the truth. A hand
    before the first deal (or a game not running) has nothing to check."""
    problems = []
    listed = cards_listed(text, tr, locale)
    held = sorted(card_label(card, locale) for card in engine_cards(game, seat))
    if listed is not None and sorted(listed) != held:
        problems.append(f"seat {seat} lists {listed}, holds {held}")
    if listed is not None and _has_deal(game):
        hand_line, _ = trump_lines(game, tr, locale)
        if not _names(hand_line, text.split("\n")):
            problems.append(f"seat {seat}: no {hand_line!r}")
    return problems


def table_lies(game: Game, text: str, tr: Translator, locale: str) -> list[str]:
    """What the table message says of the trump that the engine does not."""
    if not _has_deal(game):
        return []
    _, table_line = trump_lines(game, tr, locale)
    if _names(table_line, text.split("\n")):
        return []
    return [f"the table has no {table_line!r}"]


def web_lies(game: Game, seat: int, view: dict[str, Any], tr: Translator) -> list[str]:
    """What the web table's view of a seat (:func:`bot.presenters.web.web_view`) says
    of his cards and of the trump that the engine does not."""
    problems = []
    held = sorted(card.code for card in engine_cards(game, seat))
    if view["hand"] is not None and sorted(view["hand"]) != held:
        problems.append(f"seat {seat}'s page shows {view['hand']}, he holds {held}")
    if _has_deal(game):
        _, table_line = trump_lines(game, tr, view["locale"])
        if not _names(table_line, [view["trump_text"]]):
            problems.append(f"seat {seat}'s page: {view['trump_text']!r}, not {table_line!r}")
    return problems


def console_lies(game: Game, seat: int, lines: list[str], tr: Translator, locale: str) -> list[str]:
    """What the terminal's lines under the table (the seat's own) say of his cards
    that the engine does not."""
    if isinstance(game.play, YardGame):  # numbered cards: "Your cards: 1) 6♣  2) 9♣"
        prefix = tr.t(locale, "console-hand", cards="")
        found = [line[len(prefix) :] for line in lines if line.startswith(prefix)]
        listed = _NUMBERED.findall(found[0]) if found else None
    else:
        listed = cards_listed("\n".join(lines), tr, locale)
    held = sorted(card_label(card, locale) for card in engine_cards(game, seat))
    if listed is None or sorted(listed) == held:
        return []
    return [f"seat {seat}'s terminal lists {listed}, he holds {held}"]


_NUMBERED = re.compile(r"\d+\) (\S+)")


def _has_deal(game: Game) -> bool:
    play = game.play
    if isinstance(play, ClassicGameAdapter):
        return play.game.current is not None
    return isinstance(play, YardGame) and play.series.current is not None


def trump_of(game: Game) -> tuple[bool, Suit | None]:
    """The deal's trump as the engine has it: (set yet, suit or None for no trump)."""
    play = game.play
    if isinstance(play, ClassicGameAdapter):
        dealing = play.game.current
        assert dealing is not None
        return dealing.trump_set, dealing.trump
    assert isinstance(play, YardGame)
    deal = play.series.current
    assert deal is not None
    return True, deal.trump


async def reading_locales(interactions: Interactions, game: Game) -> dict[int, str]:
    """The language each person's hand reads in, by seat."""
    out = {}
    for seat, player in game.humans:
        assert player.user is not None
        out[seat] = await interactions.user_locale(player.user, game.settings.locale)
    return out


def people_discards(game: Game) -> int:
    """The face-down discards the people of a yard game made so far."""
    assert isinstance(game.play, YardGame)
    people = {seat for seat, _ in game.humans}
    return sum(
        1
        for deal in game.play.series.deals
        for action in deal.actions
        if action.kind is ActionKind.DISCARD and action.seat in people
    )


def press_then_lead(
    interactions: Interactions, game: Game, shown: Callable[[], Awaitable[None]]
) -> tuple[int, Callable[..., Awaitable[Any]]]:
    """For a yard game whose trick is not led yet: the seat after the leader (who
    waits), and :meth:`Interactions.press` as it is but for his press, which is
    answered only once the leader has led (a safe lead), the game settled and
    ``shown`` (the platform's messages out): his turn came, and went out, while his
    press was being answered."""
    assert isinstance(game.play, YardGame)
    deal = game.play.series.current
    assert deal is not None and deal.turn is not None and not deal.table_view().plays
    leader, waiting = deal.turn, (deal.turn + 1) % 4
    press = interactions.press

    async def pressed(user: Any, token: str, **kwargs: Any) -> Any:
        reply = await press(user, token, **kwargs)
        leading, waiter = game.seats[leader], game.seats[waiting]
        if waiter is not None and user.ref == waiter.user:
            assert leading is not None and leading.user is not None
            lead = safe_move(deal.view(leader))
            await interactions.service.play(game.id, game.version, leading.user, lead)
            await interactions.service.settle()
            await shown()
        return reply

    return waiting, pressed
