"""The classic game's screens (хвалёный козёл, RULES §2): hand, table, results, options.

Each screen is built from one view of the core: a seat's hand from that seat's
:class:`~core.classic.views.ClassicSeatView`, the public table from
:class:`~core.classic.views.ClassicTableView`, so no screen shows a card its reader
may not see. Every button comes from the view's legal actions (``legal``) and carries
a PLAY token of :mod:`bot.classic_codec`; no rule is derived here. A card the seat
cannot play now is a button without a token: platforms leave it out (or show it
disabled), so it can never be pressed.

Besides the views a screen needs what the application knows of the table (the
:class:`~bot.models.Game`: its id and version for the tokens, the seats' names,
the turn's deadline) and the game's running pairs and egg pairs
(:class:`~core.classic.game.ClassicGame`, public numbers).
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Sequence

from bot.classic_codec import classic_arg
from bot.codec import Verb
from bot.i18n import Translator
from bot.models import Game, GameStatus
from bot.presenters import (
    Button,
    Row,
    Screen,
    _about,
    _rows,
    _screen,
    _seat_names,
    _squeeze,
    _team_label,
    _team_names,
    _token,
    _turn_line,
    card_label,
    cards_label,
    hand_button,
    rules_name,
    suit_name,
)
from core.cards import Card, Suit
from core.classic.actions import ClassicAction, ClassicActionKind
from core.classic.cards import trumps_for
from core.classic.dealing import Phase
from core.classic.events import ClassicDealResult, ClassicGameResult, ClassicTitle, DealEnd
from core.classic.game import ClassicGame
from core.classic.options import ClassicOptions
from core.classic.scoring import PAIR_LIMIT
from core.classic.views import ClassicSeatView, ClassicTableView, PlayedCard
from core.seats import Team

RULE_SET = "classic"
#: Marks the card now winning the trick, and a card that cannot be played now.
WINNING_MARK = "👑"
#: Cut positions offered besides "anywhere" (Discord shows 5 buttons a row).
CUT_CHOICES = 5
_CARDS_PER_ROW = 4

# --- Cards and small lines -----------------------------------------------------------


def hand_order(cards: Iterable[Card], options: ClassicOptions, trump: Suit | None) -> list[Card]:
    """A hand as its buttons show it: trumps strongest first, then each plain suit
    (♣ ♠ ♥ ♦) from the ace down.

    >>> from core.cards import Card
    >>> hand = [Card.parse(code) for code in ("7S", "AH", "QD", "JC", "TS", "7C")]
    >>> cards_label(hand_order(hand, ClassicOptions(), Suit.HEARTS))
    '7♣ Q♦ J♣ A♥ 10♠ 7♠'
    """
    table = trumps_for(trump, options.kocherga)

    def key(card: Card) -> tuple[int, int]:
        strength = table.strength(card)
        if table.is_trump(card):
            return (-1, -strength)
        return (int(card.suit), -strength)

    return sorted(cards, key=key)


def _trump(table: ClassicTableView) -> Suit | None:
    return table.trump if table.trump_set else None


def trump_line(
    table: ClassicTableView, options: ClassicOptions, tr: Translator, locale: str
) -> str:
    """The trump suit, no trump suit, or not named yet; with the permanent trumps."""
    kocherga = "yes" if options.kocherga else "no"
    if not table.trump_set:
        return tr.t(locale, "classic-trump-unset", kocherga=kocherga)
    if table.trump is None:
        return tr.t(locale, "classic-trump-none", kocherga=kocherga)
    suit = suit_name(table.trump, tr, locale)
    return tr.t(locale, "classic-trump", suit=suit, kocherga=kocherga)


def praise_name(kind: str, tr: Translator, locale: str) -> str:
    """A praise kind in words (``simple``, ``pants``, ``mirror``, ``choose``)."""
    return tr.t(locale, f"classic-praise-{kind}")


def _played(
    plays: Sequence[PlayedCard],
    names: Sequence[str],
    tr: Translator,
    locale: str,
    viewer: int | None,
) -> str:
    parts = []
    for play in plays:
        who = tr.t(locale, "hand-table-you") if play.seat == viewer else names[play.seat]
        parts.append(f"{who} {card_label(play.card)}")
    return " · ".join(parts)


def _pairs_line(play: ClassicGame, tr: Translator, locale: str) -> str:
    a, b = play.pairs
    return tr.t(locale, "classic-pairs", a=a, b=b, limit=PAIR_LIMIT)


def _public_lines(
    play: ClassicGame,
    table: ClassicTableView,
    names: Sequence[str],
    tr: Translator,
    locale: str,
    viewer: int | None,
) -> list[str]:
    """What everybody knows of the dealing: declarer, shown and laid cards, offers,
    exchanges, a redeal request, the trick; the same for the table and every hand."""
    lines = [trump_line(table, play.options, tr, locale)]
    declarer = table.declarer
    if declarer is not None and table.praise is not None:
        kind = praise_name(table.praise.value, tr, locale)
        lines.append(
            _about(
                tr, locale, "classic-declarer", declarer, viewer, name=names[declarer], kind=kind
            )
        )
        if table.shown:
            lines.append(tr.t(locale, "classic-shown", cards=cards_label(table.shown)))
    if table.laid:
        parts = []
        for laid in table.laid:
            who = tr.t(locale, "hand-table-you") if laid.seat == viewer else names[laid.seat]
            card = "🂠" if laid.card is None else card_label(laid.card)
            parts.append(f"{who} {card}")
        lines.append(tr.t(locale, "classic-laid", cards=" · ".join(parts)))
    for offerer in table.exchanges:
        partner = (offerer + 2) % 4
        lines.append(
            _about(
                tr,
                locale,
                "classic-exchanged",
                offerer,
                viewer,
                name=names[offerer],
                partner=names[partner],
            )
        )
    if table.offer_from is not None:
        offerer = table.offer_from
        lines.append(_about(tr, locale, "classic-offered", offerer, viewer, name=names[offerer]))
    if table.redeal_by is not None:
        asker = table.redeal_by
        cards = cards_label(table.redeal_hand)
        lines.append(
            _about(
                tr, locale, "classic-redeal-asked", asker, viewer, name=names[asker], cards=cards
            )
        )
    if table.phase is Phase.PLAY or table.trick:
        number = table.trick_number + 1
        if table.trick:
            plays = _played(table.trick, names, tr, locale, viewer)
            winning = table.winning_seat
            if winning is not None:
                plays = f"{plays} · {WINNING_MARK} " + (
                    tr.t(locale, "hand-table-you") if winning == viewer else names[winning]
                )
            lines.append(tr.t(locale, "classic-trick", number=number, plays=plays))
        else:
            lines.append(tr.t(locale, "classic-trick-empty", number=number))
    if table.last_trick and table.result is None:
        lines.append(
            tr.t(
                locale,
                "classic-last-trick",
                plays=_played(table.last_trick, names, tr, locale, viewer),
            )
        )
    a, b = table.points
    ta, tb = table.tricks
    lines.append(tr.t(locale, "classic-points", a=a, b=b, ta=ta, tb=tb))
    lines.append(_pairs_line(play, tr, locale))
    if play.egg_pairs:
        lines.append(tr.t(locale, "classic-egg-pairs", count=play.egg_pairs))
    return lines


_DECISION_IDS = {
    Phase.PRAISE: "classic-wait-praise",
    Phase.LAY: "classic-wait-lay",
    Phase.CUT: "classic-wait-cut",
    Phase.NAME: "classic-wait-name",
    Phase.ANSWER: "classic-wait-answer",
}


def _decision_line(
    game: Game,
    table: ClassicTableView,
    names: Sequence[str],
    tr: Translator,
    locale: str,
    now: float | None,
    viewer: int | None,
) -> str:
    """Whose turn (with the time left, given ``now``), or whose decision the dealing
    waits for."""
    seat = table.turn
    if seat is None:
        return ""
    if table.phase is Phase.PLAY:
        if now is None:
            return _about(tr, locale, "table-turn", seat, viewer, name=names[seat])
        return _turn_line(game, seat, names, tr, locale, now, viewer)
    return _about(tr, locale, _DECISION_IDS[table.phase], seat, viewer, name=names[seat])


# --- Options ---------------------------------------------------------------------------


def option_words(options: ClassicOptions, tr: Translator, locale: str) -> list[str]:
    """Every option that differs from the default, in words (empty: all defaults)."""
    default = ClassicOptions()
    words = []
    for name in ClassicOptions.model_fields:
        value = getattr(options, name)
        if value == getattr(default, name):
            continue
        if name == "trump_suit":
            words.append(
                tr.t(locale, "classic-option-trump-suit", suit=suit_name(value.suit, tr, locale))
            )
        elif isinstance(value, bool):
            words.append(
                tr.t(locale, f"classic-option-{name.replace('_', '-')}-{'on' if value else 'off'}")
            )
        else:
            words.append(
                tr.t(
                    locale,
                    f"classic-option-{name.replace('_', '-')}-{value.value.replace('_', '-')}",
                )
            )
    return words


def options_line(options: ClassicOptions, tr: Translator, locale: str) -> str:
    """One line for the lobby and the table: the options that differ from the
    default, or "the usual rules"."""
    words = option_words(options, tr, locale)
    if not words:
        return tr.t(locale, "classic-options-default")
    return tr.t(locale, "classic-options", options=", ".join(words))


# --- The public table ------------------------------------------------------------------


def table(
    game: Game,
    play: ClassicGame,
    tr: Translator,
    locale: str,
    now: float,
    *,
    with_hand_button: bool = False,
    viewer: int | None = None,
) -> Screen:
    """The public table message of a classic game: deal and dealer, options, trump,
    declarer and the cards the rules make public, the trick, points, pairs, egg
    pairs, whose turn or decision; the end of the deal or the game. Built from the
    spectators' view only. ``viewer``: the one player it is shown to (the console)."""
    rules = rules_name(RULE_SET, tr, locale)
    dealing = play.current
    if dealing is None:
        lines = [tr.t(locale, "lobby-title", rules=rules), tr.t(locale, "table-no-deal")]
        if game.status is GameStatus.CANCELLED:
            lines[1] = tr.t(locale, "table-cancelled")
        return _screen(lines)
    view = dealing.table_view()
    names = _seat_names(game, tr, locale)
    lines = [
        _title(view, rules, tr, locale),
        _about(tr, locale, "classic-dealer", view.dealer, viewer, name=names[view.dealer]),
        options_line(play.options, tr, locale),
        _fixed_suits_line(view, names, tr, locale),
        "",
        *_public_lines(play, view, names, tr, locale, viewer),
        "",
    ]
    playing = view.result is None and game.status is GameStatus.PLAYING
    if playing:
        lines.append(_decision_line(game, view, names, tr, locale, now, viewer))
    if view.result is not None:
        lines.extend(_result_lines(view.result, tr, locale, with_points=False))
        if play.result is not None:
            lines.append("")
            lines.extend(_goats_lines(game, play.result, tr, locale))
        elif game.status is GameStatus.PLAYING:
            lines.append(tr.t(locale, "table-next-deal"))
    if game.status is GameStatus.CANCELLED:
        lines.append(tr.t(locale, "table-cancelled"))
    rows = _rows([hand_button(game, tr, locale)]) if with_hand_button and playing else ()
    return Screen("\n".join(_squeeze(lines)), rows)


def _fixed_suits_line(
    view: ClassicTableView, names: Sequence[str], tr: Translator, locale: str
) -> str:
    """The roulette's suits by seat, once fixed (§2.5)."""
    if view.fixed_suits is None:
        return ""
    suits = " · ".join(f"{names[seat]} {suit.symbol}" for seat, suit in enumerate(view.fixed_suits))
    return tr.t(locale, "classic-fixed-suits", suits=suits)


def _title(view: ClassicTableView, rules: str, tr: Translator, locale: str) -> str:
    return tr.t(
        locale, "classic-title", rules=rules, number=view.number + 1, attempt=view.attempt + 1
    )


# --- A player's hand ---------------------------------------------------------------------


def hand(game: Game, play: ClassicGame, seat: int, tr: Translator, locale: str) -> Screen:
    """One seat's private screen: the public state, its cards, and its decisions as
    buttons (only this seat's legal actions): deal or praise, the lay, the cut, the
    naming, the offer and the answer, the redeal, and one tap per playable card."""
    dealing = play.current
    if dealing is None:
        return _screen([tr.t(locale, "hand-no-deal")])
    view = dealing.view(seat)
    table = view.table
    names = _seat_names(game, tr, locale)
    lines = [_title(table, rules_name(RULE_SET, tr, locale), tr, locale)]
    lines.extend(_public_lines(play, table, names, tr, locale, seat))
    lines.append("")
    lines.extend(_private_lines(view, play.options, tr, locale))
    if table.result is not None or game.status is not GameStatus.PLAYING:
        lines.append(tr.t(locale, "hand-deal-over"))
        return _screen(lines)
    decision = _decision_line(game, table, names, tr, locale, None, seat)
    rows, prompt = _buttons(game, view, play.options, tr, locale)
    if prompt:
        lines.append(tr.t(locale, prompt))
    elif decision:
        lines.append(decision)
    return _screen(lines, rows)


def _private_lines(
    view: ClassicSeatView, options: ClassicOptions, tr: Translator, locale: str
) -> list[str]:
    """What only this seat sees: its cards, its pants pair, its own laid card, the
    exchange it took part in."""
    lines = []
    cards = hand_order(view.hand, options, _trump(view.table))
    if cards:
        lines.append(tr.t(locale, "hand-cards", cards=cards_label(cards)))
    elif view.table.phase is Phase.PRAISE:
        lines.append(tr.t(locale, "classic-hand-not-dealt"))
    else:
        lines.append(tr.t(locale, "hand-empty"))
    if view.pair:
        lines.append(tr.t(locale, "classic-hand-pair", cards=cards_label(view.pair)))
    if view.laid is not None:
        lines.append(tr.t(locale, "classic-hand-laid", card=card_label(view.laid)))
    exchange = view.exchange
    if exchange is not None:
        lines.append(
            tr.t(
                locale,
                "classic-hand-exchange",
                given=card_label(exchange.given),
                got=card_label(exchange.got),
            )
        )
    return lines


def _press(game: Game, action: ClassicAction) -> str:
    return _token(game, Verb.PLAY, classic_arg(action))


def _of(legal: Sequence[ClassicAction], kind: ClassicActionKind) -> list[ClassicAction]:
    return [action for action in legal if action.kind is kind]


def _buttons(
    game: Game, view: ClassicSeatView, options: ClassicOptions, tr: Translator, locale: str
) -> tuple[tuple[Row, ...], str]:
    """The rows of a seat's decisions and the line that asks for them ("" if none)."""
    legal = view.legal
    phase = view.table.phase
    if not legal:
        return _rows(*_card_rows(game, view, options, {})), ""
    if phase is Phase.PRAISE:
        buttons = []
        for action in legal:
            if action.kind is ClassicActionKind.DEAL:
                label = tr.t(locale, "classic-button-deal")
            elif options.praise.value == "choose":
                assert action.praise is not None
                label = tr.t(
                    locale,
                    "classic-button-praise-kind",
                    kind=praise_name(action.praise.value, tr, locale),
                )
            else:
                label = tr.t(locale, "classic-button-praise")
            buttons.append(Button(label, _press(game, action)))
        return _rows(buttons), "classic-ask-praise"
    if phase is Phase.LAY:
        buttons = [
            Button(
                tr.t(locale, "classic-button-lay", card=card_label(action.card)),
                _press(game, action),
            )
            for action in legal
            if action.card is not None
        ]
        return _rows(buttons), "classic-ask-lay"
    if phase is Phase.CUT:
        return _cut_rows(game, legal, tr, locale), "classic-ask-cut"
    if phase is Phase.NAME:
        buttons = []
        for action in legal:
            if action.suit is None:
                label = tr.t(locale, "classic-button-no-trump")
            else:
                label = suit_name(action.suit, tr, locale)
            buttons.append(Button(label, _press(game, action)))
        return _rows(buttons), "classic-ask-name"
    if phase is Phase.ANSWER:
        accepts = {a.card: a for a in _of(legal, ClassicActionKind.ACCEPT_TRUMP) if a.card}
        rows = _card_rows(game, view, options, accepts, only_active=True)
        decline = [
            Button(tr.t(locale, "classic-button-decline"), _press(game, action))
            for action in _of(legal, ClassicActionKind.DECLINE_TRUMP)
        ]
        return _rows(*rows, decline), "classic-ask-answer"
    plays = {a.card: a for a in _of(legal, ClassicActionKind.PLAY) if a.card}
    rows = _card_rows(game, view, options, plays)
    extra = [
        Button(tr.t(locale, "classic-button-offer"), _press(game, action))
        for action in _of(legal, ClassicActionKind.OFFER_TRUMP)
    ] + [
        Button(tr.t(locale, "classic-button-redeal"), _press(game, action))
        for action in _of(legal, ClassicActionKind.REDEAL)
    ]
    prompt = "classic-ask-play" if plays else ("classic-ask-before-lead" if extra else "")
    return _rows(*rows, extra), prompt


def _card_rows(
    game: Game,
    view: ClassicSeatView,
    options: ClassicOptions,
    active: dict[Card, ClassicAction],
    *,
    only_active: bool = False,
) -> list[Row]:
    """The hand's cards as buttons, four a row: a card of ``active`` plays its action;
    the others carry no token (nothing to press)."""
    buttons = []
    for card in hand_order(view.hand, options, _trump(view.table)):
        action = active.get(card)
        if action is not None:
            buttons.append(Button(card_label(card), _press(game, action)))
        elif not only_active:
            buttons.append(Button(f"({card_label(card)})"))
    return [tuple(buttons[i : i + _CARDS_PER_ROW]) for i in range(0, len(buttons), _CARDS_PER_ROW)]


def cut_positions(legal: Sequence[ClassicAction]) -> list[int]:
    """A few cut positions spread over the legal range (the first and the last
    included), at most :data:`CUT_CHOICES`.

    >>> cut_positions([ClassicAction.cut(0, at) for at in range(1, 31)])
    [1, 8, 15, 23, 30]
    >>> cut_positions([ClassicAction.cut(0, at) for at in range(1, 3)])
    [1, 2]
    """
    ats = sorted(action.at for action in legal if action.at is not None)
    if len(ats) <= CUT_CHOICES:
        return ats
    last = len(ats) - 1
    picks = {ats[round(i * last / (CUT_CHOICES - 1))] for i in range(CUT_CHOICES)}
    return sorted(picks)


def _cut_rows(
    game: Game, legal: Sequence[ClassicAction], tr: Translator, locale: str
) -> tuple[Row, ...]:
    """A few cut positions and "anywhere": a position of the legal range picked from
    the game's id and version (the same on every redraw, a new one each turn)."""
    cuts = [action for action in legal if action.at is not None]
    by_at = {action.at: action for action in cuts}
    row = [
        Button(tr.t(locale, "classic-button-cut", count=at), _press(game, by_at[at]))
        for at in cut_positions(cuts)
    ]
    anywhere = cuts[zlib.crc32(f"{game.id}:{game.version}".encode()) % len(cuts)]
    return _rows(row, [Button(tr.t(locale, "classic-button-cut-anywhere"), _press(game, anywhere))])


# --- Results --------------------------------------------------------------------------------


def _result_lines(
    result: ClassicDealResult, tr: Translator, locale: str, *, with_points: bool = True
) -> list[str]:
    """How a dealing ended and what each team got (``with_points``: the card points and
    tricks of a dealing played to its end, which the table shows anyway)."""
    lines = []
    if result.end is DealEnd.REDEAL:
        return [tr.t(locale, "classic-result-redeal")]
    if result.end is DealEnd.KOCHERGA:
        assert result.winner is not None
        lines.append(
            tr.t(locale, "classic-result-kocherga", team=_team_label(result.winner, tr, locale))
        )
    elif result.end is DealEnd.REDEAL_PENALTY:
        assert result.winner is not None
        loser = _team_label(result.winner.other, tr, locale)
        lines.append(tr.t(locale, "classic-result-redeal-penalty", team=loser))
    elif with_points:
        a, b = result.points
        ta, tb = result.tricks
        lines.append(tr.t(locale, "classic-points", a=a, b=b, ta=ta, tb=tb))
    if result.eggs:
        lines.append(tr.t(locale, "classic-result-eggs", count=result.egg_pairs))
    for team in Team:
        if result.pairs[team]:
            lines.append(
                tr.t(
                    locale,
                    "classic-result-pairs",
                    team=_team_label(team, tr, locale),
                    count=result.pairs[team],
                )
            )
    if result.lucy and result.winner is not None:
        lines.append(
            tr.t(locale, "classic-result-lucy", team=_team_label(result.winner.other, tr, locale))
        )
    return lines


def deal_result(
    game: Game,
    play: ClassicGame,
    number: int,
    result: ClassicDealResult,
    tr: Translator,
    locale: str,
) -> Screen:
    """A dealing's end: how it ended (played out, kocherga, redeal, the third redeal),
    points and tricks, the pairs each team got, eggs and Люся, the game's pairs.
    ``number`` is the core's deal number (from 0)."""
    lines = [tr.t(locale, "classic-result-title", number=number + 1)]
    lines.extend(_result_lines(result, tr, locale))
    lines.append(_pairs_line(play, tr, locale))
    if play.egg_pairs:
        lines.append(tr.t(locale, "classic-egg-pairs", count=play.egg_pairs))
    return _screen(lines)


_TITLE_IDS = {
    ClassicTitle.GOATS: "result-goats",
    ClassicTitle.GOATS_WITH_EGGS: "result-goats-eggs",
    ClassicTitle.GOATS_WITH_TAILS: "classic-goats-tails",
    ClassicTitle.GOATS_WITH_EGGS_AND_TAILS: "classic-goats-eggs-tails",
}


def _goats_lines(game: Game, result: ClassicGameResult, tr: Translator, locale: str) -> list[str]:
    goats = _team_names(game, result.loser, tr, locale)
    winners = _team_names(game, result.winner, tr, locale)
    return [
        tr.t(locale, _TITLE_IDS[result.title], names=goats),
        tr.t(locale, "result-winners", names=winners),
    ]


def game_result(game: Game, result: ClassicGameResult, tr: Translator, locale: str) -> Screen:
    """A game's end: the goats with their title, the winners, the pairs; a rematch."""
    a, b = result.pairs
    lines = [
        tr.t(locale, "classic-game-over", deals=result.deals),
        *_goats_lines(game, result, tr, locale),
        tr.t(locale, "classic-pairs", a=a, b=b, limit=PAIR_LIMIT),
    ]
    rematch = Button(tr.t(locale, "result-rematch"), _token(game, Verb.REMATCH))
    return _screen(lines, _rows([rematch]))
