"""The yard game's screens (docs/rules/reference.md §1): its table, a hand, a deal's and a series'
result, the play log, and its PLAY buttons' argument.

The public table is built from the spectators' :class:`~core.yard.views.TableView`
only, so it never shows a hidden card; a hand screen is built from that seat's own
:class:`~core.yard.views.SeatView`. Deal numbers from the core
(``TableView.number``, ``DealScored.number``) count from 0; screens show them
counting from 1.

A PLAY argument is the action's kind letter and its cards' codes; old buttons keep
working, so it never changes:

>>> from core.cards import Card
>>> action = Action(2, ActionKind.BEAT, (Card.parse("AS"), Card.parse("6S")))
>>> action_arg(action), parse_action_arg(2, "bAS6S") == action
('bAS6S', True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.achievements import MOLODKA_POINTS, Moment
from bot.codec import CodecError, Verb
from bot.i18n import Translator
from bot.models import Game, GameStatus
from bot.presenters.common import (
    CARDS_PER_ROW,
    SELECTED_MARK,
    WINNING_MARK,
    Button,
    Screen,
    about,
    backs_label,
    button_rows,
    card_label,
    cards_label,
    game_over,
    game_token,
    goats_lines,
    hand_button,
    player_name,
    rules_name,
    seat_name,
    seat_names,
    sorted_hand,
    squeeze,
    suit_name,
    team_label,
    text_screen,
    turn_line,
)
from bot.presenters.web import WebAction, WebTable, team_score
from core.cards import Card, Suit, mask_of
from core.errors import KozelError
from core.ruleset import GameOutcome
from core.seats import Team
from core.yard.actions import Action, ActionKind
from core.yard.events import (
    CardsBeaten,
    CardsDiscarded,
    CardsLed,
    DealResult,
    DealScored,
    DealStarted,
    Event,
    MolodkaDeclared,
    SeriesFinished,
    SeriesResult,
    Title,
    TrickTaken,
)
from core.yard.series import LOSS_LIMIT
from core.yard.views import PlayedSet, SeatView, SeriesView, TableView

# --- The public table ------------------------------------------------------------------


def _played(play: PlayedSet, locale: str) -> str:
    return backs_label(play.count) if play.face_down else cards_label(play.cards, locale)


_PLAY_IDS = {
    ActionKind.LEAD: "table-play-lead",
    ActionKind.MOLODKA: "table-play-lead",
    ActionKind.BEAT: "table-play-beat",
    ActionKind.DISCARD: "table-play-discard",
}


def _trump_line(
    view: TableView, names: Sequence[str], tr: Translator, locale: str, viewer: int | None
) -> str:
    suit = suit_name(view.trump, tr, locale)
    card = card_label(view.trump_card, locale)
    holder = view.trump_card_holder
    if holder is None:
        return tr.t(locale, "table-trump", suit=suit, card=card)
    name = names[holder]
    return about(tr, locale, "table-trump-drawn", holder, viewer, suit=suit, card=card, name=name)


def _stock_line(view: TableView, tr: Translator, locale: str) -> str:
    if view.stock_size == 0:
        return tr.t(locale, "table-stock-empty")
    return tr.t(locale, "table-stock", count=view.stock_size)


def _loss_line(series: SeriesView, msg_id: str, tr: Translator, locale: str) -> str:
    a, b = series.loss_points
    return tr.t(locale, msg_id, a=a, b=b, limit=LOSS_LIMIT)


def _goats_lines(game: Game, result: SeriesResult, tr: Translator, locale: str) -> list[str]:
    title = "result-goats-eggs" if result.title is Title.GOATS_WITH_EGGS else "result-goats"
    return goats_lines(game, result.loser, title, tr, locale)


def table(
    game: Game,
    tr: Translator,
    locale: str,
    now: float,
    *,
    with_hand_button: bool = False,
    viewer: int | None = None,
) -> Screen:
    """The one public table message: rule set, deal, trump, stock, the trick (discards
    face down), tricks, loss points, whose turn and the time left, away players; the
    end of the deal or series. Shows no hidden card. ``with_hand_button`` adds a
    "My hand" button while a deal is being played. ``viewer``: the seat of the one
    player it is shown to (the console's), whose own moves read as his ("Your turn")."""
    rules = rules_name(game.settings.rule_set, tr, locale)
    series = _series_view(game)
    if not series.deals:
        lines = [tr.t(locale, "lobby-title", rules=rules), tr.t(locale, "table-no-deal")]
        if game.status is GameStatus.CANCELLED:
            lines[1] = tr.t(locale, "table-cancelled")
        return text_screen(lines)
    view: TableView = game.play.spectator_view()
    names = seat_names(game, tr, locale)
    lines = [
        tr.t(locale, "table-title", rules=rules, number=view.number + 1),
        _trump_line(view, names, tr, locale, viewer),
        _stock_line(view, tr, locale),
        "",
    ]
    a, b = view.tricks
    playing = view.result is None and game.status is GameStatus.PLAYING
    if view.result is None:
        lines.append(tr.t(locale, "table-trick", number=view.trick_number + 1))
        if not view.plays:
            leader = view.leader
            lines.append(about(tr, locale, "table-trick-empty", leader, viewer, name=names[leader]))
        for play in view.plays:
            name, cards = names[play.seat], _played(play, locale)
            line = about(
                tr, locale, _PLAY_IDS[play.kind], play.seat, viewer, name=name, cards=cards
            )
            if play.seat == view.winning_seat and not play.face_down:
                line = f"{line} {WINNING_MARK}"
            lines.append(line)
        if view.plays and view.winning_seat is not None:
            winner = view.winning_seat
            lines.append(about(tr, locale, "table-winning", winner, viewer, name=names[winner]))
        lines.append("")
        lines.append(tr.t(locale, "table-tricks", a=a, b=b))
        lines.append(_loss_line(series, "table-loss", tr, locale))
        if view.turn is not None and game.status is GameStatus.PLAYING:
            lines.append(turn_line(game, view.turn, names, tr, locale, now, viewer))
        away = [
            player_name(player, tr, locale)
            for player in game.seats
            if player is not None and player.away
        ]
        if away:
            lines.append(tr.t(locale, "table-away", names=", ".join(away)))
    else:
        result = view.result
        number = view.number + 1
        if result.eggs:
            lines.append(tr.t(locale, "table-deal-eggs", number=number))
        else:
            points_a, points_b = result.points
            lines.append(tr.t(locale, "table-deal-over", number=number, a=points_a, b=points_b))
        lines.append(tr.t(locale, "table-tricks", a=a, b=b))
        lines.append(_loss_line(series, "table-loss", tr, locale))
        if series.result is not None:
            lines.append(tr.t(locale, "table-series-over"))
            lines.extend(_goats_lines(game, series.result, tr, locale))
        elif game.status is GameStatus.PLAYING:
            lines.append(tr.t(locale, "table-next-deal"))
    if game.status is GameStatus.CANCELLED:
        lines.append(tr.t(locale, "table-cancelled"))
    rows = button_rows([hand_button(game, tr, locale)]) if with_hand_button and playing else ()
    return Screen("\n".join(squeeze(lines)), rows)


# --- A player's hand --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandContent:
    """Everything a seat's hand screen shows but the game version its buttons carry:
    the hand is re-drawn when this changes, and only then. A waiting seat's hand
    shows what is his (the trump, his cards, what he may do now); the seat to act
    also sees the trick he answers, the stock and the tricks (the table in the
    chat shows the rest to everyone)."""

    deal: int | None  # the deal's number; None before the first deal
    cards: tuple[Card, ...] = ()
    legal: tuple[Action, ...] = ()
    molodka: bool = False
    trump: Suit | None = None
    over: bool = False  # the deal is over
    my_turn: bool = False
    #: What the seat to act sees of the table (None for a waiting seat).
    table: TableView | None = None


def hand_content(game: Game, seat: int) -> HandContent:
    """What :func:`hand` shows for ``seat`` (with no cards selected), as a value."""
    if not _series_view(game).deals:
        return HandContent(None)
    view: SeatView = game.play.seat_view(seat)
    table_view = view.table
    over = table_view.result is not None
    my_turn = not over and table_view.turn == seat
    return HandContent(
        table_view.number,
        sorted_hand(view.hand),
        view.legal,
        view.molodka,
        table_view.trump,
        over,
        my_turn,
        table_view if my_turn or over else None,
    )


def hand(game: Game, seat: int, selection: int, tr: Translator, locale: str) -> Screen:
    """One seat's private screen (see :class:`HandContent`): the trump, for the seat
    to act the stock, the tricks and the trick to answer, whose turn, the cards as
    buttons (SELECT toggles one), and the legal actions for the cards selected:
    lead / beat / discard, molodka whenever the seat may declare it, and "clear";
    with nothing selected, the seat to act gets its one-card moves as buttons."""
    content = hand_content(game, seat)
    if content.deal is None:
        return text_screen([tr.t(locale, "hand-no-deal")])
    cards, legal = content.cards, content.legal
    # The selection as a bitmask over ``cards`` (0 if it names positions beyond them).
    current = selection if selection > 0 and not selection >> len(cards) else 0
    selected = tuple(card for i, card in enumerate(cards) if current >> i & 1)
    table_view = content.table
    if table_view is None:
        assert content.trump is not None
        lines = [tr.t(locale, "hand-trump", suit=suit_name(content.trump, tr, locale))]
    else:
        names = seat_names(game, tr, locale)
        lines = [
            _summary(table_view, tr, locale),
            _table_plays(table_view, names, tr, locale, seat),
        ]
    if content.over:
        lines.append(tr.t(locale, "hand-deal-over"))
        return text_screen(lines)
    my_turn = content.my_turn
    if table_view is not None and table_view.lead_size == 0:
        lines.append(tr.t(locale, "hand-your-turn-lead"))
    elif table_view is not None:
        lines.append(tr.t(locale, "hand-your-turn-answer", count=table_view.lead_size))
    else:
        lines.append(tr.t(locale, "hand-wait"))
    if content.molodka:
        lines.append(tr.t(locale, "hand-molodka-hint"))
    if cards:
        lines.append(tr.t(locale, "hand-cards", cards=cards_label(cards, locale)))
    else:
        lines.append(tr.t(locale, "hand-empty"))
    if selected:
        lines.append(tr.t(locale, "hand-selected", cards=cards_label(selected, locale)))

    card_buttons = []
    for i, card in enumerate(cards):
        label = card_label(card, locale)
        if current >> i & 1:
            label = f"{SELECTED_MARK} {label}"
        token = game_token(game, Verb.SELECT, format(current ^ (1 << i), "x"))
        card_buttons.append(Button(label, token))
    actions: list[Button] = []
    if selected:
        chosen = mask_of(selected)
        for action in legal:
            if (
                action.kind is ActionKind.MOLODKA
                or len(action.cards) != len(selected)
                or mask_of(action.cards) != chosen
            ):
                continue
            label = tr.t(
                locale, f"hand-{action.kind.value}", cards=cards_label(action.cards, locale)
            )
            actions.append(Button(label, game_token(game, Verb.PLAY, action_arg(action))))
    elif my_turn:
        # One-card moves need no selection: one press plays them (a press less, and
        # an edit of the hand less, for most moves). Sets are selected card by card.
        for action in legal:
            if action.kind is not ActionKind.MOLODKA and len(action.cards) == 1:
                label = tr.t(
                    locale, f"hand-{action.kind.value}", cards=cards_label(action.cards, locale)
                )
                actions.append(Button(label, game_token(game, Verb.PLAY, action_arg(action))))
    if my_turn:
        if not selected:
            lines.append(tr.t(locale, "hand-select"))
        elif not actions:
            lines.append(tr.t(locale, "hand-no-action"))
    if any(action.kind is ActionKind.MOLODKA for action in legal):
        molodka = Action.molodka(seat)
        actions.append(
            Button(tr.t(locale, "hand-molodka"), game_token(game, Verb.PLAY, action_arg(molodka)))
        )
    if selected:
        # REFRESH, not SELECT "0": with one card selected, that card's own button
        # already carries SELECT "0", and a platform may refuse two equal ids.
        actions.append(Button(tr.t(locale, "hand-clear"), game_token(game, Verb.REFRESH)))
    card_rows = [
        card_buttons[start : start + CARDS_PER_ROW]
        for start in range(0, len(card_buttons), CARDS_PER_ROW)
    ]
    return text_screen(lines, button_rows(*card_rows, actions))


def _summary(view: TableView, tr: Translator, locale: str) -> str:
    a, b = view.tricks
    suit = suit_name(view.trump, tr, locale)
    return tr.t(locale, "hand-summary", suit=suit, stock=view.stock_size, a=a, b=b)


def _table_plays(
    view: TableView, names: Sequence[str], tr: Translator, locale: str, viewer: int
) -> str:
    if not view.plays or view.result is not None:
        return tr.t(locale, "hand-table-empty")
    parts = []
    for play in view.plays:
        who = tr.t(locale, "hand-table-you") if play.seat == viewer else names[play.seat]
        part = f"{who} {_played(play, locale)}"
        if play.seat == view.winning_seat and not play.face_down:
            part = f"{part} {WINNING_MARK}"
        parts.append(part)
    return tr.t(locale, "hand-table", plays=" · ".join(parts))


# --- Results ------------------------------------------------------------------------------


def deal_result(game: Game, number: int, result: DealResult, tr: Translator, locale: str) -> Screen:
    """A deal's end: points and tricks per team, who got loss points or eggs, and the
    series' loss points. ``number`` is the core's deal number (from 0)."""
    lines = [tr.t(locale, "result-deal-title", number=number + 1)]
    for team in Team:
        lines.append(
            tr.t(
                locale,
                "result-deal-team",
                team=team_label(team, tr, locale),
                points=result.points[team],
                tricks=result.tricks[team],
            )
        )
    if result.eggs:
        lines.append(tr.t(locale, "result-deal-eggs"))
    for team in Team:
        loss = result.loss_points[team]
        if loss:
            label = team_label(team, tr, locale)
            lines.append(tr.t(locale, "result-deal-loss", team=label, loss=loss))
    lines.append(_loss_line(_series_view(game), "result-loss", tr, locale))
    return text_screen(lines)


def series_result(game: Game, result: SeriesResult, tr: Translator, locale: str) -> Screen:
    """A series' end: the goats (with eggs, if any), the winners, the loss points; a
    rematch button."""
    a, b = result.loss_points
    lines = [
        tr.t(locale, "result-series-title", deals=result.deals),
        *_goats_lines(game, result, tr, locale),
        tr.t(locale, "result-loss", a=a, b=b, limit=LOSS_LIMIT),
    ]
    return game_over(game, lines, tr, locale)


# --- The web table ------------------------------------------------------------------------


def _web_deal_result(
    game: Game, number: int, result: DealResult, tr: Translator, locale: str
) -> tuple[str, tuple[str, ...]]:
    """A deal's result on the page: the chat's result message as a title and lines."""
    title, *lines = deal_result(game, number, result, tr, locale).text.split("\n")
    return title, tuple(lines)


def web_table(game: Game, viewer: int | None, tr: Translator, locale: str, now: float) -> WebTable:
    """The yard game's part of the web view (:func:`bot.presenters.web.web_view`):
    the hands as counts, the trick (discards face down), the trump card, the stock,
    the loss points and tricks, whose turn; the viewer's own hand and legal actions
    (from his seat's view only); a deal's or the series' end."""
    series = _series_view(game)
    if not series.deals:
        cancelled = game.status is GameStatus.CANCELLED
        return WebTable(status=tr.t(locale, "table-cancelled" if cancelled else "table-no-deal"))
    view: TableView = game.play.spectator_view()
    names = seat_names(game, tr, locale)
    playing = view.result is None and game.status is GameStatus.PLAYING
    trick = tuple(
        (play.seat, (None,) * play.count if play.face_down else tuple(c.code for c in play.cards))
        for play in (view.plays if view.result is None else ())
    )
    marks = tuple(("dealer",) if seat == view.dealer else () for seat in range(4))
    score = tuple(
        team_score(
            team,
            tr.t(
                locale,
                "webview-score-yard",
                loss=series.loss_points[team],
                limit=LOSS_LIMIT,
                tricks=view.tricks[team],
            ),
            tr,
            locale,
        )
        for team in Team
    )
    hand: tuple[str, ...] | None = None
    actions: tuple[WebAction, ...] = ()
    if viewer is not None:
        own: SeatView = game.play.seat_view(viewer)
        hand = tuple(card.code for card in sorted_hand(own.hand))
        if playing:
            actions = tuple(_web_action(game, action, tr, locale) for action in own.legal)
    result = None
    status = ""
    if playing and view.turn is not None:
        status = turn_line(game, view.turn, names, tr, locale, now, viewer)
    if view.result is not None:
        result = _web_deal_result(game, view.number, view.result, tr, locale)
        lines = result[1]
        status = tr.t(locale, "table-next-deal") if game.status is GameStatus.PLAYING else ""
        if series.result is not None:
            goats = _goats_lines(game, series.result, tr, locale)
            result = (goats[0], (*goats[1:], *lines))
            status = tr.t(locale, "table-series-over")
    elif playing and not view.plays and not sum(view.tricks) and series.deals >= 2:
        # A deal just dealt: the last one's result, until its first card is played
        # (the service deals on at once, so a page would never see it otherwise).
        previous = series.deal_result(series.deals - 2)
        if previous is not None:
            result = _web_deal_result(game, series.deals - 2, previous, tr, locale)
    if game.status is GameStatus.CANCELLED:
        status = tr.t(locale, "table-cancelled")
    return WebTable(
        status=status,
        cards=view.hand_sizes,
        marks=marks,
        turn=view.turn if playing else None,
        trump={"card": view.trump_card.code, "suit": view.trump.letter},
        trump_text=_trump_line(view, names, tr, locale, viewer),
        stock=view.stock_size,
        trick=trick,
        score=score,
        hand=hand,
        actions=actions,
        result=result,
    )


def _web_action(game: Game, action: Action, tr: Translator, locale: str) -> WebAction:
    token = game_token(game, Verb.PLAY, action_arg(action))
    if action.kind is ActionKind.MOLODKA:
        return WebAction(token, tr.t(locale, "hand-molodka"))
    label = tr.t(locale, f"hand-{action.kind.value}", cards=cards_label(action.cards, locale))
    return WebAction(token, label, tuple(card.code for card in action.cards))


# --- The play log: one line per public event ---------------------------------------------


def event_line(
    game: Game, event: Event, tr: Translator, locale: str, *, viewer: int | None = None
) -> str | None:
    """A one-line account of a public event (faces of discards are never shown), or
    None for events that need no line of their own. ``viewer``: the seat of the one
    player it is shown to, whose own moves read as his ("You discard...")."""
    if isinstance(event, CardsLed | CardsBeaten | MolodkaDeclared):
        name = seat_name(game, event.seat, tr, locale)
        cards = cards_label(event.cards, locale)
        if isinstance(event, CardsLed):
            msg_id = "log-lead"
        elif isinstance(event, CardsBeaten):
            msg_id = "log-beat"
        else:  # a molodka on an empty trick opens it; on a played one, restarts it
            msg_id = "log-molodka-restarts" if any(event.returned) else "log-molodka-opens"
        return about(tr, locale, msg_id, event.seat, viewer, name=name, cards=cards)
    if isinstance(event, CardsDiscarded):
        name = seat_name(game, event.seat, tr, locale)
        return about(tr, locale, "log-discard", event.seat, viewer, name=name, count=event.count)
    if isinstance(event, TrickTaken):
        name = seat_name(game, event.seat, tr, locale)
        count = event.card_count
        return about(tr, locale, "log-trick", event.seat, viewer, name=name, count=count)
    if isinstance(event, DealStarted):
        msg_id = "log-deal"
        if viewer is not None and viewer in (event.dealer, event.leader):
            msg_id = "log-deal-you-deal" if viewer == event.dealer else "log-deal-you-lead"
        return tr.t(
            locale,
            msg_id,
            number=event.number + 1,
            name=seat_name(game, event.dealer, tr, locale),
            leader=seat_name(game, event.leader, tr, locale),
            card=card_label(event.trump_card, locale),
        )
    return None


def _series_view(game: Game) -> SeriesView:
    """What everyone sees of the yard series a table plays."""
    view = game.play.game_view()
    assert isinstance(view, SeriesView), f"not a yard game: {game.play.rule_set_id}"
    return view


# --- PLAY arguments: an action's kind letter and card codes ("bAS6S", "m") ----------

_KIND_LETTERS = {
    ActionKind.LEAD: "l",
    ActionKind.BEAT: "b",
    ActionKind.DISCARD: "d",
    ActionKind.MOLODKA: "m",
}
_LETTER_KINDS = {letter: kind for kind, letter in _KIND_LETTERS.items()}


def action_arg(action: Action) -> str:
    """The PLAY argument of an action (its seat is implied by who presses)."""
    return _KIND_LETTERS[action.kind] + "".join(card.code for card in action.cards)


def parse_action_arg(seat: int, arg: str) -> Action:
    """The action a PLAY argument names for ``seat``; raises :class:`CodecError`."""
    if not arg or arg[0] not in _LETTER_KINDS or len(arg) % 2 != 1 or len(arg) > 9:
        raise CodecError("not an action")
    kind = _LETTER_KINDS[arg[0]]
    try:
        cards = tuple(Card.parse(arg[i : i + 2]) for i in range(1, len(arg), 2))
    except KozelError:
        raise CodecError("unknown card") from None
    return Action(seat, kind, cards)


# --- The terminal (kozel play): the hand as numbered cards, moves typed ------------


def parse_move(line: str, hand: Sequence[Card], leading: bool) -> tuple[str, tuple[Card, ...]]:
    """Read a typed move: ``1 3``, ``b 1 3``, ``d 1 3`` or ``m``.

    Returns the kind (``play``, ``lead``, ``beat``, ``discard``, ``molodka``) and the
    cards; raises ValueError with the locale id of the complaint and its argument.
    """
    words = line.replace(",", " ").split()
    kind = "play"
    if words and words[0].lower() in ("b", "d", "m", "l"):
        kind = {"b": "beat", "d": "discard", "m": "molodka", "l": "lead"}[words.pop(0).lower()]
    if kind == "molodka":
        if words:
            raise ValueError("console-not-understood", line)
        return kind, ()
    if not words or not all(word.isdigit() for word in words):
        raise ValueError("console-not-understood", line)
    cards = []
    for word in words:
        number = int(word)
        if not 1 <= number <= len(hand):
            raise ValueError("console-no-such-card", word)
        cards.append(hand[number - 1])
    if kind == "play" and leading:
        kind = "lead"
    return kind, tuple(cards)


def choose_action(kind: str, cards: tuple[Card, ...], seat: int, legal: Sequence[Action]) -> Action:
    """The action a typed move names: a plain ``play`` beats when the cards beat and
    discards otherwise."""
    if kind == "molodka":
        return Action.molodka(seat)
    if kind == "play":
        beat = Action(seat, ActionKind.BEAT, cards)
        if any(_same(beat, action) for action in legal):
            return beat
        return Action(seat, ActionKind.DISCARD, cards)
    return Action(seat, ActionKind(kind), cards)


def _same(a: Action, b: Action) -> bool:
    return a.kind is b.kind and a.seat == b.seat and set(a.cards) == set(b.cards)


def console_hand(game: Game, seat: int, tr: Translator, locale: str) -> list[str]:
    """The lines under the terminal's table: how many cards to follow with, the hand
    as numbered cards, the kinds of moves the seat may make."""
    seat_view: SeatView = game.play.seat_view(seat)
    lines = []
    if seat_view.table.turn == seat and seat_view.table.lead_size:
        lines.append(tr.t(locale, "console-follow", count=seat_view.table.lead_size))
    hand = sorted_hand(seat_view.hand)
    numbered = "  ".join(
        f"{number}) {card_label(card, locale)}" for number, card in enumerate(hand, 1)
    )
    lines.append(tr.t(locale, "console-hand", cards=numbered))
    kinds = [
        tr.t(locale, f"console-move-{kind.value}")
        for kind in ActionKind
        if any(action.kind is kind for action in seat_view.legal)
    ]
    lines.append(tr.t(locale, "console-legal", moves=", ".join(kinds)))
    return lines


def console_action(game: Game, seat: int, line: str) -> Action:
    """The action a typed line names for ``seat`` (:func:`parse_move`,
    :func:`choose_action`); raises ValueError with a locale id and its argument."""
    view: SeatView = game.play.seat_view(seat)
    hand = sorted_hand(view.hand)
    kind, cards = parse_move(line, hand, leading=view.table.lead_size == 0)
    return choose_action(kind, cards, seat, view.legal)


def console_summary(game: Game, tr: Translator, locale: str) -> str:
    """The terminal's last line of a series: its deals and loss points."""
    series = _series_view(game)
    a, b = series.loss_points
    return tr.t(locale, "console-summary", deals=series.deals, a=a, b=b)


# --- Achievements: the yard game's moments -----------------------------------------


def moments(events: Sequence[Event]) -> list[Moment]:
    """A molodka that took a trick worth 30 or more (its declarer), told by the deal's
    result; a dry series, 12:0 (the winners, without a loss point).

    >>> from core.yard.events import DealResult, SeriesResult, Title
    >>> deal = DealResult((80, 40), (5, 1), (0, 2), False, Team.A, 0, ((2, 34), (1, 12)))
    >>> moments([DealScored(0, deal)])
    [Moment(achievement='molodka-30', seats=(2,))]
    >>> moments([SeriesFinished(SeriesResult(Team.B, Title.GOATS, (0, 12), 3, 0))])
    [Moment(achievement='dry-series', seats=(0, 2))]
    """
    found: list[Moment] = []
    for event in events:
        if isinstance(event, DealScored):
            found.extend(
                Moment("molodka-30", (seat,))
                for seat, points in event.result.molodka_tricks
                if points >= MOLODKA_POINTS
            )
        elif isinstance(event, SeriesFinished):
            result = event.result
            if result.loss_points[result.loser.other] == 0:
                found.append(Moment("dry-series", result.loser.other.seats))
    return found


# --- The presenter ------------------------------------------------------------------


class YardPresenter:
    """The yard game's :class:`~bot.presenters.rule.RulePresenter`."""

    rule_set = "yard"
    console_help = "console-help"

    def table(
        self,
        game: Game,
        tr: Translator,
        locale: str,
        now: float,
        *,
        with_hand_button: bool = False,
        viewer: int | None = None,
    ) -> Screen:
        return table(game, tr, locale, now, with_hand_button=with_hand_button, viewer=viewer)

    def hand(self, game: Game, seat: int, selection: int, tr: Translator, locale: str) -> Screen:
        return hand(game, seat, selection, tr, locale)

    def hand_content(self, game: Game, seat: int) -> HandContent:
        return hand_content(game, seat)

    def deal_result(self, game: Game, number: int, tr: Translator, locale: str) -> Screen | None:
        result = _series_view(game).deal_result(number)
        return None if result is None else deal_result(game, number, result, tr, locale)

    def game_result(self, game: Game, tr: Translator, locale: str) -> Screen | None:
        result = _series_view(game).result
        return None if result is None else series_result(game, result, tr, locale)

    def event_line(
        self, game: Game, event: Event, tr: Translator, locale: str, *, viewer: int | None = None
    ) -> str | None:
        return event_line(game, event, tr, locale, viewer=viewer)

    def moments(self, game: Game, events: Sequence[Event]) -> list[Moment]:
        return moments(events)

    def game_outcome(self, game: Game) -> GameOutcome | None:
        result = _series_view(game).result
        if result is None:
            return None
        score, title = result.loss_points, result.title.value
        return GameOutcome(result.loser, title, score, result.deals, result.eggs, result)

    def option_lines(self, game: Game, tr: Translator, locale: str) -> list[str]:
        """The yard game has no options."""
        return []

    def rules_args(self, options: Mapping[str, Any], tr: Translator, locale: str) -> dict[str, str]:
        """The yard game's rules text takes no options."""
        return {}

    def option_word(self, name: str, value: object, tr: Translator, locale: str) -> str:
        """The yard game has no options: never asked."""
        return f"{name}: {value}"

    def action_arg(self, action: Action) -> str:
        return action_arg(action)

    def web_table(
        self, game: Game, viewer: int | None, tr: Translator, locale: str, now: float
    ) -> WebTable:
        return web_table(game, viewer, tr, locale, now)

    def console_hand(self, game: Game, seat: int, tr: Translator, locale: str) -> list[str]:
        return console_hand(game, seat, tr, locale)

    def console_action(self, game: Game, seat: int, line: str) -> Action:
        return console_action(game, seat, line)

    def console_summary(self, game: Game, tr: Translator, locale: str) -> str:
        return console_summary(game, tr, locale)

    def parse_action_arg(self, seat: int, arg: str) -> Action:
        return parse_action_arg(seat, arg)


#: The yard game's presenter, as :func:`bot.presenters.rule.rule_presenter` finds it.
PRESENTER = YardPresenter()

if TYPE_CHECKING:  # mypy checks here that it keeps the protocol
    from bot.presenters.rule import RulePresenter

    _presenter: RulePresenter = PRESENTER
