"""The classic game's screens (хвалёный козёл, docs/rules/reference.md §2): its table, a hand with
every decision, a dealing's and the game's result, the play log, the options in
words, and its PLAY buttons' argument.

Each screen is built from one view of the core: a hand from that seat's own
:class:`~core.classic.views.ClassicSeatView`, the public table from
:class:`~core.classic.views.ClassicTableView`, so no screen shows a card its reader
may not see. Every button comes from the view's legal actions; no rule is derived
here. A card the seat cannot play now is a button without a token: the platforms
leave it out (or could show it disabled), so it can never be pressed.

Deal numbers from the core count from 0 (a deal, кон, may take up to three
dealings, раздачи, when players ask for redeals); screens count from 1.

A PLAY argument is a letter for the action's type and its field, at most 3
characters; old buttons keep working, so it never changes:

==========  ===================  ==========================================
type        argument             field
==========  ===================  ==========================================
play        ``p`` + card         ``pQC``
lay         ``y`` + card         ``y9D``
accept      ``a`` + card         ``a8D`` (the card given back)
cut         ``c`` + at           ``c5`` (decimal, 1..31, no leading zero)
name_trump  ``n`` + suit or 0    ``nD``; ``n0``: no trump suit
praise      ``h`` + kind or —    ``hs``, ``hp``, ``hm``; ``h``: the table's kind
deal        ``s``
offer       ``o``
decline     ``x``
redeal      ``r``
==========  ===================  ==========================================

The letters differ from the yard game's (``l b d m``), so a yard argument never
names a classic action; only the canonical form is read back.

>>> from core.cards import Card
>>> arg = action_arg(ClassicAction.accept_trump(2, Card.parse("TD")))
>>> arg, parse_action_arg(2, arg) == ClassicAction.accept_trump(2, Card.parse("TD"))
('aTD', True)
>>> action_arg(ClassicAction.name_trump(1, None)), action_arg(ClassicAction.cut(0, 12))
('n0', 'c12')
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.achievements import Moment
from bot.codec import CodecError, Verb
from bot.i18n import Translator
from bot.models import Game, GameStatus
from bot.presenters.common import (
    CARD_BACK,
    CARDS_PER_ROW,
    WINNING_MARK,
    Button,
    Row,
    Screen,
    about,
    button_rows,
    card_label,
    cards_label,
    duration,
    game_over,
    game_token,
    goats_lines,
    hand_button,
    rules_name,
    seat_name,
    seat_names,
    seconds_left,
    squeeze,
    suit_name,
    team_label,
    text_screen,
    turn_line,
)
from bot.presenters.web import WebAction, WebTable, team_score
from core.cards import Card, Suit
from core.classic.actions import ClassicAction, ClassicActionKind
from core.classic.cards import CARDS, DECK_SIZE, trumps_for
from core.classic.dealing import Phase
from core.classic.events import (
    CardLaid,
    CardPlayed,
    ClassicDealResult,
    ClassicGameResult,
    ClassicTitle,
    DealChosen,
    DealEnd,
    DealingStarted,
    DealScored,
    DeckCut,
    KochergaCaught,
    LaidTrickTaken,
    Praised,
    RedealAsked,
    TrickTaken,
    TrumpAccepted,
    TrumpDeclined,
    TrumpNamed,
    TrumpOffered,
)
from core.classic.options import (
    DEFAULT_PRESET,
    PRAISE_KINDS,
    ClassicOptions,
    DealBy,
    Dealers,
    FirstLeader,
    Praise,
    TrumpSuit,
    closest_preset,
    preset_of,
)
from core.classic.scoring import PAIR_LIMIT
from core.classic.views import (
    ClassicGameView,
    ClassicSeatView,
    ClassicTableView,
    Exchange,
    PlayedCard,
)
from core.errors import KozelError
from core.ruleset import GameOutcome
from core.seats import Team

RULE_SET = "classic"
#: Cut positions offered besides "anywhere".
CUT_CHOICES = 5


# --- Where the application keeps a classic game ----------------------------------------


def classic_view(game: Game) -> ClassicGameView | None:
    """What everyone sees of the classic game a table plays (None for a table of other
    rules)."""
    view: object = game.play.game_view()
    return view if isinstance(view, ClassicGameView) else None


def classic_options(game: Game) -> ClassicOptions:
    """The options a table plays, or chose in its lobby."""
    play = classic_view(game)
    return play.options if play is not None else ClassicOptions.from_json(game.settings.options)


# --- Cards and small lines -----------------------------------------------------------


def hand_order(cards: Iterable[Card], options: ClassicOptions, trump: Suit | None) -> list[Card]:
    """A hand as its buttons show it: trumps strongest first, then each plain suit
    (♣ ♠ ♥ ♦) from the ace down.

    >>> hand = [Card.parse(code) for code in ("7S", "AH", "QD", "JC", "TS", "7C")]
    >>> cards_label(hand_order(hand, ClassicOptions(), Suit.HEARTS), "en")
    '7♣ Q♦ J♣ A♥ 10♠ 7♠'
    """
    table = trumps_for(trump, options.kocherga)

    def key(card: Card) -> tuple[int, int]:
        strength = table.strength(card)
        return (-1, -strength) if table.is_trump(card) else (int(card.suit), -strength)

    return sorted(cards, key=key)


def _trump(table: ClassicTableView) -> Suit | None:
    return table.trump if table.trump_set else None


def trump_line(
    trump_set: bool, trump: Suit | None, options: ClassicOptions, tr: Translator, locale: str
) -> str:
    """The trump suit, no trump suit, or not set yet; and the permanent trumps."""
    kocherga = "yes" if options.kocherga else "no"
    if not trump_set:
        return tr.t(locale, "classic-trump-unset", kocherga=kocherga)
    if trump is None:
        return tr.t(locale, "classic-trump-none", kocherga=kocherga)
    suit = suit_name(trump, tr, locale)
    return tr.t(locale, "classic-trump", suit=suit, kocherga=kocherga)


def praise_name(kind: Praise, tr: Translator, locale: str) -> str:
    """A praise kind in words."""
    return tr.t(locale, f"classic-praise-{kind.value.replace('_', '-')}")


def _who(seat: int, names: Sequence[str], viewer: int | None, tr: Translator, locale: str) -> str:
    return tr.t(locale, "hand-table-you") if seat == viewer else names[seat]


def _plays(
    plays: Sequence[PlayedCard],
    names: Sequence[str],
    tr: Translator,
    locale: str,
    viewer: int | None,
) -> str:
    return " · ".join(
        f"{_who(p.seat, names, viewer, tr, locale)} {card_label(p.card, locale)}" for p in plays
    )


def _pairs_lines(pairs: tuple[int, int], egg_pairs: int, tr: Translator, locale: str) -> list[str]:
    a, b = pairs
    lines = [tr.t(locale, "classic-pairs", a=a, b=b, limit=PAIR_LIMIT)]
    if egg_pairs:
        lines.append(tr.t(locale, "classic-egg-pairs", count=egg_pairs))
    return lines


def _declarer_line(
    declarer: int | None,
    praise: Praise | None,
    names: Sequence[str],
    tr: Translator,
    locale: str,
    viewer: int | None,
) -> str:
    if declarer is None or praise is None:
        return ""
    kind = praise_name(praise, tr, locale)
    return about(tr, locale, "classic-declarer", declarer, viewer, name=names[declarer], kind=kind)


def _public_lines(
    table: ClassicTableView, names: Sequence[str], tr: Translator, locale: str, viewer: int | None
) -> list[str]:
    """What everybody may see of a dealing beyond the trump and the declarer: the
    simple declarer's face-up cards, the laid cards (the pants declarer's face down),
    offers and exchanges (never their cards), a redeal asker's hand, the tricks."""
    lines = []
    if table.shown:
        lines.append(tr.t(locale, "classic-shown", cards=cards_label(table.shown, locale)))
    if table.laid:
        laid = " · ".join(
            f"{_who(lay.seat, names, viewer, tr, locale)} "
            + (CARD_BACK if lay.card is None else card_label(lay.card, locale))
            for lay in table.laid
        )
        lines.append(tr.t(locale, "classic-laid", cards=laid))
    for offerer in table.exchanges:
        partner = names[(offerer + 2) % 4]
        name = names[offerer]
        lines.append(
            about(tr, locale, "classic-exchanged", offerer, viewer, name=name, partner=partner)
        )
    if table.offer_from is not None:
        offerer = table.offer_from
        lines.append(about(tr, locale, "classic-offered", offerer, viewer, name=names[offerer]))
    if table.redeal_by is not None:
        asker, cards = table.redeal_by, cards_label(table.redeal_hand, locale)
        lines.append(
            about(tr, locale, "classic-redeal-asked", asker, viewer, name=names[asker], cards=cards)
        )
    if table.result is None and table.phase is Phase.PLAY:
        number = table.trick_number + 1
        if table.trick:
            plays = _plays(table.trick, names, tr, locale, viewer)
            if table.winning_seat is not None:
                plays += f" · {WINNING_MARK} {_who(table.winning_seat, names, viewer, tr, locale)}"
            lines.append(tr.t(locale, "classic-trick", number=number, plays=plays))
        else:
            lines.append(tr.t(locale, "classic-trick-empty", number=number))
        if table.last_trick:
            plays = _plays(table.last_trick, names, tr, locale, viewer)
            lines.append(tr.t(locale, "classic-last-trick", plays=plays))
    lines.append(_points_line(table.points, table.tricks, tr, locale))
    return lines


def _points_line(
    points: tuple[int, int], tricks: tuple[int, int], tr: Translator, locale: str
) -> str:
    (a, b), (ta, tb) = points, tricks
    return tr.t(locale, "classic-points", a=a, b=b, ta=ta, tb=tb)


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
    if seat is None or table.phase is Phase.OVER:
        return ""
    if table.phase is not Phase.PLAY:
        line = about(tr, locale, _DECISION_IDS[table.phase], seat, viewer, name=names[seat])
        left = None if now is None or game.settings.turn_timeout <= 0 else seconds_left(game, now)
        if left is None:
            return line
        if left <= 0:
            return about(tr, locale, "table-waiting", seat, viewer, name=names[seat])
        return tr.t(locale, "classic-decision-time", line=line, time=duration(left, tr, locale))
    if now is None:
        return about(tr, locale, "table-turn", seat, viewer, name=names[seat])
    return turn_line(game, seat, names, tr, locale, now, viewer)


def _title(table: ClassicTableView, tr: Translator, locale: str) -> str:
    rules = rules_name(RULE_SET, tr, locale)
    return tr.t(
        locale, "classic-title", rules=rules, number=table.number + 1, attempt=table.attempt + 1
    )


# --- Options --------------------------------------------------------------------------------


def option_word(name: str, value: object, tr: Translator, locale: str) -> str:
    """One option with a value (its JSON value) in words.

    >>> tr = Translator.from_dir()
    >>> option_word("trump_suit", "H", tr, "en"), option_word("kocherga", False, tr, "en")
    ('trump: ♥ hearts', 'no kocherga')
    """
    stem = "classic-option-" + name.replace("_", "-")
    if name == "trump_suit" and value is not None:
        return tr.t(locale, stem, suit=suit_name(TrumpSuit(str(value)).suit, tr, locale))
    if isinstance(value, bool):
        return tr.t(locale, f"{stem}-{'on' if value else 'off'}")
    word = "none" if value is None else str(value).replace("_", "-")
    return tr.t(locale, f"{stem}-{word}")


def option_words(options: ClassicOptions, tr: Translator, locale: str) -> list[str]:
    """Every option that differs from the default, in words (none: all defaults).

    >>> tr = Translator.from_dir()
    >>> option_words(ClassicOptions.from_json({"praise": "pants", "kocherga": False}), tr, "en")
    ['praise: pants', 'no kocherga']
    """
    chosen, default = options.to_json(), ClassicOptions().to_json()
    return [
        option_word(name, value, tr, locale)
        for name, value in chosen.items()
        if value != default[name]
    ]


def options_line(options: ClassicOptions, tr: Translator, locale: str) -> str:
    """One line: the preset the options equal, else the closest one and what differs.

    >>> from core.classic.options import PRESETS
    >>> tr = Translator.from_dir()
    >>> options_line(PRESETS["001"], tr, "en")
    'Rules 001: queens, jacks and diamonds'
    >>> options_line(ClassicOptions.from_json({"kocherga": False}), tr, "en")
    'Rules 003: Gamesberg, but: no kocherga'
    """
    name, changed = closest_preset(options)
    if name == DEFAULT_PRESET and not changed:
        return tr.t(locale, "classic-options-default")
    preset = tr.t(locale, f"classic-preset-{name}")
    if not changed:
        return tr.t(locale, "classic-options-preset", preset=preset)
    words = [option_word(key, value, tr, locale) for key, value in changed.items()]
    return tr.t(locale, "classic-options-preset-but", preset=preset, options=", ".join(words))


def _usual(options: ClassicOptions) -> str:
    """``yes``: the usual rules (the default preset); ``p`` and a preset's name; else
    ``no``."""
    name = preset_of(options)
    return "yes" if name == DEFAULT_PRESET else "no" if name is None else f"p{name}"


def rules_args(options: ClassicOptions, tr: Translator, locale: str) -> dict[str, str]:
    """The variables of the rules text (``rules-classic``) that make it tell the game
    the options make: who deals and leads, the trumps, eggs, Люся and the rest.

    >>> tr = Translator.from_dir()
    >>> args = rules_args(ClassicOptions.from_json({"trump_suit": "D", "deal_by": 4}), tr, "en")
    >>> args["trump"], args["suit"], args["by"], args["dealers"]
    ('fixed', '♦ diamonds', 'four', 'jc')
    """
    fixed = options.fixed_suit
    if fixed is not None:
        trump = "fixed"
    else:
        trump = "roulette" if options.trump_roulette else "none"
    on = {True: "on", False: "off"}
    return {
        "kocherga": on[options.kocherga],
        "trump": trump,
        "suit": "" if fixed is None else suit_name(fixed, tr, locale),
        "by": "four" if options.deal_by is DealBy.FOUR else "one",
        "usual": _usual(options),
        "first": "ad" if options.first_leader is FirstLeader.AD_HOLDER else "jc",
        "dealers": "clockwise" if options.dealers is Dealers.CLOCKWISE else "jc",
        "eggs": options.eggs.value,
        "obo": "yes" if Praise.ONE_BY_ONE in options.praise_kinds else "no",
        "lead": options.trump_lead.value,
        "aceban": on[options.ace_ban],
        "lasttrump": on[options.last_trump],
        "redeal": on[options.redeal],
        "queens": on[options.redeal_queens],
        "lucy": options.lucy.value,
    }


# --- The public table ------------------------------------------------------------------------


def table(
    game: Game,
    tr: Translator,
    locale: str,
    now: float,
    *,
    with_hand_button: bool = False,
    viewer: int | None = None,
) -> Screen:
    """The public table: deal, dealer, options, roulette suits, trump, the declarer
    and every public card (face-up praise cards, laid cards, a redeal asker's hand,
    the trick and the last one), offers and exchanges (no faces), points, pairs to 6,
    egg pairs waiting, whose turn or decision; the end of the dealing or the game.
    Built from the spectators' view only."""
    play = classic_view(game)
    if play is None or not play.deals:
        lines = [
            tr.t(locale, "lobby-title", rules=rules_name(RULE_SET, tr, locale)),
            tr.t(locale, "table-cancelled")
            if game.status is GameStatus.CANCELLED
            else tr.t(locale, "table-no-deal"),
        ]
        return text_screen(lines)
    view: ClassicTableView = game.play.spectator_view()
    names = seat_names(game, tr, locale)
    lines = [
        _title(view, tr, locale),
        about(tr, locale, "classic-dealer", view.dealer, viewer, name=names[view.dealer]),
        options_line(play.options, tr, locale),
        _fixed_suits_line(view, names, tr, locale),
        "",
        trump_line(view.trump_set, view.trump, play.options, tr, locale),
        _declarer_line(view.declarer, view.praise, names, tr, locale, viewer),
        *_public_lines(view, names, tr, locale, viewer),
        *_pairs_lines(play.pairs, play.egg_pairs, tr, locale),
        "",
    ]
    playing = view.result is None and game.status is GameStatus.PLAYING
    if playing:
        lines.append(_decision_line(game, view, names, tr, locale, now, viewer))
    elif view.result is not None:
        lines.extend(_result_lines(view.number, view.result, tr, locale, with_points=False))
        if play.result is not None:
            lines.append("")
            lines.extend(_goats_lines(game, play.result, tr, locale))
        elif game.status is GameStatus.PLAYING:
            lines.append(tr.t(locale, "table-next-deal"))
    if game.status is GameStatus.CANCELLED:
        lines.append(tr.t(locale, "table-cancelled"))
    rows = button_rows([hand_button(game, tr, locale)]) if with_hand_button and playing else ()
    return Screen("\n".join(squeeze(lines)), rows)


def _fixed_suits_line(
    view: ClassicTableView, names: Sequence[str], tr: Translator, locale: str
) -> str:
    """The roulette's suits by seat, once fixed (§2.5)."""
    if view.fixed_suits is None:
        return ""
    suits = " · ".join(f"{names[seat]} {suit.symbol}" for seat, suit in enumerate(view.fixed_suits))
    return tr.t(locale, "classic-fixed-suits", suits=suits)


# --- A player's hand -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ClassicHandContent:
    """Everything a seat's hand shows but the game version its buttons carry: the
    hand is re-drawn when this changes, and only then. A waiting seat's hand shows
    what is his (the trump, the declarer, his cards, his pair, laid card and
    exchange, the game's pairs); a seat with a decision, and every seat once the
    dealing is over, also sees the public table (``table``)."""

    number: int | None  # the deal's number; None before the first deal
    attempt: int = 0
    options: ClassicOptions | None = None
    trump_set: bool = False
    trump: Suit | None = None
    declarer: int | None = None
    praise: Praise | None = None
    phase: Phase | None = None
    cards: tuple[Card, ...] = ()
    pair: tuple[Card, ...] = ()
    laid: Card | None = None
    exchange: Exchange | None = None
    legal: tuple[ClassicAction, ...] = ()
    over: bool = False
    #: What the seat sees of the table while it has a decision or once it is over.
    table: ClassicTableView | None = None
    #: The game's pairs and egg pairs waiting (they change between deals only).
    pairs: tuple[int, int] = (0, 0)
    egg_pairs: int = 0


def hand_content(game: Game, seat: int) -> ClassicHandContent:
    """What :func:`hand` shows for ``seat``, as a value (from its own view only)."""
    play = classic_view(game)
    if play is None or not play.deals:
        return ClassicHandContent(None)
    view: ClassicSeatView = game.play.seat_view(seat)
    table_view = view.table
    over = table_view.result is not None
    deciding = bool(view.legal) or over
    return ClassicHandContent(
        number=table_view.number,
        attempt=table_view.attempt,
        options=play.options,
        trump_set=table_view.trump_set,
        trump=table_view.trump,
        declarer=table_view.declarer,
        praise=table_view.praise,
        phase=table_view.phase,
        cards=tuple(hand_order(view.hand, play.options, _trump(table_view))),
        pair=view.pair,
        laid=view.laid,
        exchange=view.exchange,
        legal=view.legal,
        over=over,
        table=table_view if deciding else None,
        pairs=play.pairs,
        egg_pairs=play.egg_pairs,
    )


def hand(game: Game, seat: int, selection: int, tr: Translator, locale: str) -> Screen:
    """One seat's private screen (see :class:`ClassicHandContent`) with its decisions
    as buttons, only its own legal actions: deal or praise (with the kind when the
    table lets the declarer choose), the lay, the cut, the naming, the offer of the
    last trump and the partner's answer (the card given back), the redeal, and one
    tap per playable card. ``selection`` is not used: every classic move is one tap."""
    content = hand_content(game, seat)
    if content.number is None or content.options is None:
        return text_screen([tr.t(locale, "hand-no-deal")])
    names = seat_names(game, tr, locale)
    options = content.options
    table_view = content.table
    lines = [
        trump_line(content.trump_set, content.trump, options, tr, locale),
        _declarer_line(content.declarer, content.praise, names, tr, locale, seat),
    ]
    if table_view is not None:
        lines.insert(0, _title(table_view, tr, locale))
        lines.extend(_public_lines(table_view, names, tr, locale, seat))
    lines.extend(_pairs_lines(content.pairs, content.egg_pairs, tr, locale))
    lines.append("")
    lines.extend(_private_lines(content, tr, locale))
    if content.over or game.status is not GameStatus.PLAYING:
        lines.append(tr.t(locale, "hand-deal-over"))
        return text_screen(lines)
    ask = _ask(content)
    lines.append(tr.t(locale, ask or "hand-wait"))
    return text_screen(lines, _buttons(game, content, tr, locale))


def _private_lines(content: ClassicHandContent, tr: Translator, locale: str) -> list[str]:
    """What only this seat sees: its cards, its pants pair, its own laid card, the
    exchange it took part in."""
    lines = []
    if content.cards:
        lines.append(tr.t(locale, "hand-cards", cards=cards_label(content.cards, locale)))
    elif content.phase is Phase.PRAISE:
        lines.append(tr.t(locale, "classic-hand-not-dealt"))
    else:
        lines.append(tr.t(locale, "hand-empty"))
    if content.pair:
        lines.append(tr.t(locale, "classic-hand-pair", cards=cards_label(content.pair, locale)))
    if content.laid is not None:
        lines.append(tr.t(locale, "classic-hand-laid", card=card_label(content.laid, locale)))
    exchange = content.exchange
    if exchange is not None:
        given, got = card_label(exchange.given, locale), card_label(exchange.got, locale)
        lines.append(tr.t(locale, "classic-hand-exchange", given=given, got=got))
    return lines


def _press(game: Game, action: ClassicAction) -> str:
    return game_token(game, Verb.PLAY, action_arg(action))


def _of(legal: Sequence[ClassicAction], kind: ClassicActionKind) -> list[ClassicAction]:
    return [action for action in legal if action.kind is kind]


@dataclass(frozen=True, slots=True)
class Choice:
    """One decision a seat may take now, as its button (and the terminal's numbered
    choice) shows it: the action, and the locale id and arguments of its label."""

    action: ClassicAction
    msg_id: str
    args: tuple[tuple[str, str | int], ...] = ()
    #: The card the label names (``$card``, in the reader's language).
    card: Card | None = None

    def label(self, tr: Translator, locale: str) -> str:
        args = dict(self.args)
        if self.card is not None:
            args["card"] = card_label(self.card, locale)
        return tr.t(locale, self.msg_id, **args)


def _card_choice(action: ClassicAction, msg_id: str) -> Choice:
    assert action.card is not None
    return Choice(action, msg_id, card=action.card)


_ASKS = {
    Phase.PRAISE: "classic-ask-praise",
    Phase.LAY: "classic-ask-lay",
    Phase.CUT: "classic-ask-cut",
    Phase.NAME: "classic-ask-name",
    Phase.ANSWER: "classic-ask-answer",
}


def choices(game: Game, content: ClassicHandContent) -> list[Choice]:
    """The seat's choices now, in the order its buttons show them, all from its legal
    actions: "deal" and the praise (one per kind when the declarer chooses), the two
    cards to lay, a few cuts and "anywhere", no trump and the four suits, the cards to
    give back and "no, thanks", the playable cards (in hand order), the offer of the
    last trump and the redeal."""
    legal, phase = content.legal, content.phase
    if phase is Phase.PRAISE:
        praises = _of(legal, ClassicActionKind.PRAISE)
        several = len(praises) > 1
        return [Choice(a, "classic-button-deal") for a in _of(legal, ClassicActionKind.DEAL)] + [
            Choice(
                a,
                f"classic-button-praise-{a.praise.value.replace('_', '-')}"
                if several and a.praise
                else "classic-button-praise",
            )
            for a in praises
        ]
    if phase is Phase.LAY:
        return [_card_choice(a, "classic-button-lay") for a in _of(legal, ClassicActionKind.LAY)]
    if phase is Phase.CUT:
        return _cut_choices(game, content, _of(legal, ClassicActionKind.CUT))
    if phase is Phase.NAME:
        return [
            Choice(
                a, "classic-button-no-trump" if a.suit is None else f"suit-{a.suit.name.lower()}"
            )
            for a in _of(legal, ClassicActionKind.NAME_TRUMP)
        ]
    order = {card: i for i, card in enumerate(content.cards)}
    cards = sorted(
        (a for a in legal if a.kind in (ClassicActionKind.PLAY, ClassicActionKind.ACCEPT_TRUMP)),
        key=lambda a: order.get(a.card, 0) if a.card else 0,
    )
    out = [
        _card_choice(
            a, "classic-button-card" if a.kind is ClassicActionKind.PLAY else "classic-button-give"
        )
        for a in cards
    ]
    for kind, msg_id in (
        (ClassicActionKind.DECLINE_TRUMP, "classic-button-decline"),
        (ClassicActionKind.OFFER_TRUMP, "classic-button-offer"),
        (ClassicActionKind.REDEAL, "classic-button-redeal"),
    ):
        out.extend(Choice(a, msg_id) for a in _of(legal, kind))
    return out


def _ask(content: ClassicHandContent) -> str:
    """The locale id of the line that asks the seat for its decision ("" if none)."""
    if not content.legal or content.phase is None:
        return ""
    if content.phase in _ASKS:
        return _ASKS[content.phase]
    if _of(content.legal, ClassicActionKind.PLAY):
        return "classic-ask-play"
    return "classic-ask-before-lead"


def _buttons(
    game: Game, content: ClassicHandContent, tr: Translator, locale: str
) -> tuple[Row, ...]:
    """The seat's choices as buttons. Cards to play or give back stand among the
    hand's other cards, four a row; a card the seat cannot play now is a button
    without a token (in play only: nothing to press)."""
    options = choices(game, content)
    if content.phase not in (Phase.PLAY, Phase.ANSWER):
        return button_rows([Button(c.label(tr, locale), _press(game, c.action)) for c in options])
    by_card = {c.action.card: c for c in options if c.action.card is not None}
    others = [
        Button(c.label(tr, locale), _press(game, c.action))
        for c in options
        if c.action.card is None
    ]
    cards = []
    for card in content.cards:
        choice = by_card.get(card)
        if choice is not None:
            cards.append(Button(choice.label(tr, locale), _press(game, choice.action)))
        elif content.phase is Phase.PLAY:
            cards.append(Button(f"({card_label(card, locale)})"))
    rows = [cards[i : i + CARDS_PER_ROW] for i in range(0, len(cards), CARDS_PER_ROW)]
    return button_rows(*rows, others)


def cut_positions(legal: Sequence[ClassicAction]) -> list[int]:
    """A few cut positions spread over the legal range, the first and the last
    included: at most :data:`CUT_CHOICES`.

    >>> cut_positions([ClassicAction.cut(0, at) for at in range(1, 31)])
    [1, 8, 15, 23, 30]
    >>> cut_positions([ClassicAction.cut(0, at) for at in range(1, 3)])
    [1, 2]
    """
    ats = sorted(action.at for action in legal if action.at is not None)
    if len(ats) <= CUT_CHOICES:
        return ats
    last = len(ats) - 1
    return sorted({ats[round(i * last / (CUT_CHOICES - 1))] for i in range(CUT_CHOICES)})


def _cut_choices(
    game: Game, content: ClassicHandContent, cuts: Sequence[ClassicAction]
) -> list[Choice]:
    """A few cut positions and "anywhere": another legal position, which the game,
    the dealing and the seat pick (the same every time the hand is drawn)."""
    if not cuts:
        return []
    positions = cut_positions(cuts)
    by_at = {action.at: action for action in cuts}
    out = [Choice(by_at[at], "classic-button-cut", (("count", at),)) for at in positions]
    others = sorted((a for a in cuts if a.at not in positions), key=lambda a: a.at or 0)
    if others:
        seed = f"{game.id}:{content.number}:{content.attempt}:{cuts[0].seat}:{len(cuts)}"
        anywhere = others[zlib.crc32(seed.encode()) % len(others)]
        out.append(Choice(anywhere, "classic-button-cut-anywhere"))
    return out


# --- The web table ------------------------------------------------------------------------------

#: The actions a web page plays with a card of the hand selected (the others are buttons).
_WEB_CARD_KINDS = (ClassicActionKind.PLAY, ClassicActionKind.ACCEPT_TRUMP)


def _web_deal_result(
    play: ClassicGameView, number: int, result: ClassicDealResult, tr: Translator, locale: str
) -> tuple[str, tuple[str, ...]]:
    """A dealing's result on the page: its title, its lines and the pairs now."""
    lines = _result_lines(number, result, tr, locale)
    title = tr.t(locale, "classic-result-title", number=number + 1)
    return title, (*lines, *_pairs_lines(play.pairs, play.egg_pairs, tr, locale))


def web_table(game: Game, viewer: int | None, tr: Translator, locale: str, now: float) -> WebTable:
    """The classic game's part of the web view (:func:`bot.presenters.web.web_view`):
    the hands as counts, the trick (or the laid cards, the pants declarer's face
    down), the trump suit, the pairs, the dealer and the declarer, every public line
    of the table as notes, whose decision; the viewer's own cards, pants pair, laid
    card and exchange and his choices (from his seat's view only); the end of a
    dealing or of the game."""
    play = classic_view(game)
    if play is None or not play.deals:
        cancelled = game.status is GameStatus.CANCELLED
        return WebTable(status=tr.t(locale, "table-cancelled" if cancelled else "table-no-deal"))
    view: ClassicTableView = game.play.spectator_view()
    names = seat_names(game, tr, locale)
    playing = view.result is None and game.status is GameStatus.PLAYING
    trick: tuple[tuple[int, tuple[str | None, ...]], ...]
    if view.phase is Phase.PLAY or view.trick:
        trick = tuple((p.seat, (p.card.code,)) for p in view.trick)
    else:
        trick = tuple(
            (lay.seat, (None if lay.card is None else lay.card.code,)) for lay in view.laid
        )
    marks = tuple(
        tuple(
            mark
            for mark, holder in (("dealer", view.dealer), ("declarer", view.declarer))
            if holder == seat
        )
        for seat in range(4)
    )
    score = tuple(
        team_score(
            team,
            tr.t(locale, "webview-score-classic", pairs=play.pairs[team], limit=PAIR_LIMIT),
            tr,
            locale,
        )
        for team in Team
    )
    notes = [
        options_line(play.options, tr, locale),
        _fixed_suits_line(view, names, tr, locale),
        _declarer_line(view.declarer, view.praise, names, tr, locale, viewer),
        *_public_lines(view, names, tr, locale, viewer),
    ]
    if play.egg_pairs:
        notes.append(tr.t(locale, "classic-egg-pairs", count=play.egg_pairs))
    hand: tuple[str, ...] | None = None
    actions: tuple[WebAction, ...] = ()
    if viewer is not None:
        content = hand_content(game, viewer)
        hand = tuple(card.code for card in content.cards)
        notes.extend(_private_lines(content, tr, locale)[1:])  # the cards are the hand
        if playing:
            actions = tuple(
                WebAction(
                    _press(game, choice.action),
                    choice.label(tr, locale),
                    (choice.action.card.code,)
                    if choice.action.card is not None and choice.action.kind in _WEB_CARD_KINDS
                    else (),
                )
                for choice in choices(game, content)
            )
    status = _decision_line(game, view, names, tr, locale, now, viewer) if playing else ""
    result = None
    if view.result is not None:
        result = _web_deal_result(play, view.number, view.result, tr, locale)
        status = tr.t(locale, "table-next-deal") if game.status is GameStatus.PLAYING else ""
        if play.result is not None:
            goats = _goats_lines(game, play.result, tr, locale)
            result = (goats[0], (*goats[1:], *result[1]))
            status = tr.t(locale, "classic-game-over", deals=play.result.deals)
    elif playing and not view.played and len(play.dealings) >= 2:
        # A dealing just begun: the last one's result, until its first card is played
        # (the service deals on at once, so a page would never see it otherwise).
        number, previous = play.dealings[-2]
        if previous is not None:
            result = _web_deal_result(play, number, previous, tr, locale)
    if game.status is GameStatus.CANCELLED:
        status = tr.t(locale, "table-cancelled")
    return WebTable(
        status=status,
        cards=view.hand_sizes,
        marks=marks,
        turn=view.turn if playing else None,
        trump={"suit": None if view.trump is None else view.trump.letter}
        if view.trump_set
        else None,
        trump_text=trump_line(view.trump_set, view.trump, play.options, tr, locale),
        trick=trick,
        score=score,
        hand=hand,
        actions=actions,
        notes=tuple(line for line in notes if line),
        result=result,
    )


# --- The terminal ------------------------------------------------------------------------------


def console_hand(game: Game, seat: int, tr: Translator, locale: str) -> list[str]:
    """The lines under the terminal's table: what is the seat's own (cards, pair, laid
    card, exchange), what it is asked, and its choices, numbered as
    :func:`console_action` reads them."""
    content = hand_content(game, seat)
    lines = _private_lines(content, tr, locale)
    ask = _ask(content)
    if ask and ask != "classic-ask-play":  # "tap a card": the numbers below say it
        lines.append(tr.t(locale, ask))
    numbered = "  ".join(
        f"{number}) {choice.label(tr, locale)}"
        for number, choice in enumerate(choices(game, content), 1)
    )
    if numbered:
        lines.append(tr.t(locale, "console-legal", moves=numbered))
    not_offered = _not_offered(game, content, seat, tr, locale)
    if not_offered:
        lines.append(not_offered)
    return lines


def _not_offered(
    game: Game, content: ClassicHandContent, seat: int, tr: Translator, locale: str
) -> str | None:
    """When the seat is to play a card: the cards of its hand it may not play now, with
    why in a word each (follow suit, the ace ban, only the declarer leads trumps...)."""
    play = game.play
    if content.phase is not Phase.PLAY or play.turn != seat:
        return None
    refused: dict[str, list[Card]] = {}
    for card in content.cards:
        try:
            play.verify(ClassicAction(seat, ClassicActionKind.PLAY, card=card))
        except KozelError as error:
            refused.setdefault(error.reason.value, []).append(card)
    if not refused:
        return None
    parts = []
    for code, cards in refused.items():
        msg_id = f"classic-why-{code}"
        why = tr.t(
            locale,
            msg_id if tr.has(msg_id) else "classic-why-other",
            who=classic_options(game).trump_lead.value,
        )
        parts.append(f"{cards_label(cards, locale)} ({why})")
    return tr.t(locale, "classic-console-not-offered", cards="; ".join(parts))


def console_action(game: Game, seat: int, line: str) -> ClassicAction:
    """The choice a typed number names (see :func:`console_hand`); raise ValueError
    with a locale id and its argument for anything else."""
    options = choices(game, hand_content(game, seat))
    word = line.strip()
    if not word.isdigit():
        raise ValueError("console-not-understood", line)
    if not 1 <= int(word) <= len(options):
        raise ValueError("classic-console-no-such-choice", word)
    return options[int(word) - 1].action


def console_summary(game: Game, tr: Translator, locale: str) -> str:
    """The terminal's last line of a game: its deals and pairs."""
    play = classic_view(game)
    deals = 0 if play is None else play.deals
    a, b = (0, 0) if play is None else play.pairs
    return tr.t(locale, "classic-console-summary", deals=deals, a=a, b=b)


# --- Results --------------------------------------------------------------------------------


def _result_lines(
    number: int,
    result: ClassicDealResult,
    tr: Translator,
    locale: str,
    *,
    with_points: bool = True,
) -> list[str]:
    """How a dealing of deal ``number`` (from 0) ended and what each team got
    (``with_points``: the card points and tricks of a dealing played out, which the
    table shows anyway)."""
    if result.end is DealEnd.REDEAL:
        return [tr.t(locale, "classic-result-redeal", number=number + 1)]
    lines = []
    if result.end is DealEnd.KOCHERGA and result.winner is not None:
        winners = team_label(result.winner, tr, locale)
        lines.append(tr.t(locale, "classic-result-kocherga", team=winners))
    elif result.end is DealEnd.REDEAL_PENALTY and result.winner is not None:
        dealers = team_label(result.winner.other, tr, locale)
        lines.append(tr.t(locale, "classic-result-redeal-penalty", team=dealers))
    elif with_points:
        lines.append(_points_line(result.points, result.tricks, tr, locale))
    if result.eggs:
        lines.append(tr.t(locale, "classic-result-eggs", count=result.egg_pairs))
    for team in Team:
        if result.pairs[team]:
            label = team_label(team, tr, locale)
            lines.append(tr.t(locale, "classic-result-pairs", team=label, count=result.pairs[team]))
    if result.lucy and result.winner is not None:
        losers = team_label(result.winner.other, tr, locale)
        lines.append(tr.t(locale, "classic-result-lucy", team=losers))
    return lines


def deal_result(
    game: Game,
    number: int,
    result: ClassicDealResult,
    pairs: tuple[int, int],
    tr: Translator,
    locale: str,
) -> Screen:
    """A dealing's end: how it ended (played out, kocherga, a redeal, the third
    redeal), points and tricks, the pairs each team got, eggs and Люся, then the
    game's ``pairs`` and the egg pairs waiting. ``number`` is the core's (from 0)."""
    if result.end is DealEnd.REDEAL:  # the deal goes on: a new dealing
        return text_screen(_result_lines(number, result, tr, locale))
    lines = [tr.t(locale, "classic-result-title", number=number + 1)]
    lines.extend(_result_lines(number, result, tr, locale))
    lines.extend(_pairs_lines(pairs, result.egg_pairs, tr, locale))
    return text_screen(lines)


_TITLE_IDS = {
    ClassicTitle.GOATS: "result-goats",
    ClassicTitle.GOATS_WITH_EGGS: "result-goats-eggs",
    ClassicTitle.GOATS_WITH_TAILS: "classic-goats-tails",
    ClassicTitle.GOATS_WITH_EGGS_AND_TAILS: "classic-goats-eggs-tails",
}


def _goats_lines(game: Game, result: ClassicGameResult, tr: Translator, locale: str) -> list[str]:
    return goats_lines(game, result.loser, _TITLE_IDS[result.title], tr, locale)


def game_result(game: Game, result: ClassicGameResult, tr: Translator, locale: str) -> Screen:
    """A game's end: the goats and their title (with eggs, with tails), the winners,
    the pairs; a rematch button."""
    a, b = result.pairs
    lines = [
        tr.t(locale, "classic-game-over", deals=result.deals),
        *_goats_lines(game, result, tr, locale),
        tr.t(locale, "classic-pairs", a=a, b=b, limit=PAIR_LIMIT),
    ]
    return game_over(game, lines, tr, locale)


# --- The play log: one line per public event --------------------------------------------------


def event_line(
    game: Game, event: object, tr: Translator, locale: str, *, viewer: int | None = None
) -> str | None:
    """A one-line account of a public classic event (events carry no hidden card),
    or None for one that needs no line of its own."""
    seat: int | None = getattr(event, "seat", None)
    name = "" if seat is None else seat_name(game, seat, tr, locale)
    if isinstance(event, DealingStarted):
        dealer = seat_name(game, event.dealer, tr, locale)
        msg_id = "classic-log-dealing-you" if viewer == event.dealer else "classic-log-dealing"
        return tr.t(locale, msg_id, number=event.number + 1, attempt=event.attempt + 1, name=dealer)
    if isinstance(event, DealChosen):
        return about(tr, locale, "classic-log-deal", seat, viewer, name=name)
    if isinstance(event, Praised):
        kind = praise_name(event.kind, tr, locale)
        return about(tr, locale, "classic-log-praise", seat, viewer, name=name, kind=kind)
    if isinstance(event, DeckCut):
        return about(tr, locale, "classic-log-cut", seat, viewer, name=name, count=event.at)
    if isinstance(event, CardLaid):
        card = CARD_BACK if event.card is None else card_label(event.card, locale)
        return about(tr, locale, "classic-log-lay", seat, viewer, name=name, card=card)
    if isinstance(event, TrumpNamed):
        suit = (
            tr.t(locale, "classic-no-trump")
            if event.suit is None
            else suit_name(event.suit, tr, locale)
        )
        return about(tr, locale, "classic-log-name", seat, viewer, name=name, suit=suit)
    if isinstance(event, TrumpOffered):
        return about(tr, locale, "classic-log-offer", seat, viewer, name=name)
    if isinstance(event, TrumpAccepted | TrumpDeclined):
        msg_id = "classic-log-accept" if isinstance(event, TrumpAccepted) else "classic-log-decline"
        return about(tr, locale, msg_id, seat, viewer, name=name)
    if isinstance(event, RedealAsked):
        cards = cards_label(event.hand, locale)
        return about(tr, locale, "classic-log-redeal", seat, viewer, name=name, cards=cards)
    if isinstance(event, CardPlayed):
        card = card_label(event.card, locale)
        return about(tr, locale, "classic-log-play", seat, viewer, name=name, card=card)
    if isinstance(event, TrickTaken | LaidTrickTaken):
        return about(tr, locale, "classic-log-trick", seat, viewer, name=name)
    if isinstance(event, KochergaCaught):
        return about(tr, locale, "classic-log-kocherga", seat, viewer, name=name)
    return None


# --- PLAY arguments ---------------------------------------------------------------------------

_LETTERS = {
    ClassicActionKind.PLAY: "p",
    ClassicActionKind.LAY: "y",
    ClassicActionKind.ACCEPT_TRUMP: "a",
    ClassicActionKind.CUT: "c",
    ClassicActionKind.NAME_TRUMP: "n",
    ClassicActionKind.PRAISE: "h",
    ClassicActionKind.DEAL: "s",
    ClassicActionKind.OFFER_TRUMP: "o",
    ClassicActionKind.DECLINE_TRUMP: "x",
    ClassicActionKind.REDEAL: "r",
}
_KINDS = {letter: kind for kind, letter in _LETTERS.items()}
_CARD_KINDS = (ClassicActionKind.PLAY, ClassicActionKind.LAY, ClassicActionKind.ACCEPT_TRUMP)
_CARDS = {card.code: card for card in CARDS}
_SUITS = {suit.letter: suit for suit in Suit}
_PRAISES = {kind.value[0]: kind for kind in PRAISE_KINDS}
#: The longest argument: a card kind's letter and a card's code.
MAX_ARG = 3


def action_arg(action: ClassicAction) -> str:
    """The PLAY argument of a classic action (the seat is implied by who presses);
    raise :class:`CodecError` for one that no rule allows in any form (a cut outside
    1..31, a praise of the kind ``choose``, a card outside the 32-card deck)."""
    letter = _LETTERS[action.kind]
    if action.kind in _CARD_KINDS:
        if action.card is None or action.card.code not in _CARDS:
            raise CodecError(f"{action.kind.value} needs a card of the 32-card deck")
        return letter + action.card.code
    if action.kind is ClassicActionKind.CUT:
        if action.at is None or not 1 <= action.at < DECK_SIZE:
            raise CodecError("a cut is 1 to 31 cards")
        return f"{letter}{action.at}"
    if action.kind is ClassicActionKind.NAME_TRUMP:
        return letter + ("0" if action.suit is None else action.suit.letter)
    if action.kind is ClassicActionKind.PRAISE:
        if action.praise is Praise.CHOOSE:
            raise CodecError("a praise is simple, pants or mirror")
        return letter + ("" if action.praise is None else action.praise.value[0])
    return letter


def parse_action_arg(seat: int, arg: str) -> ClassicAction:
    """The classic action a PLAY argument names for ``seat``; raise
    :class:`CodecError` for anything :func:`action_arg` does not write."""
    if not isinstance(arg, str) or not 1 <= len(arg) <= MAX_ARG:
        raise CodecError("not a classic action")
    kind, rest = _KINDS.get(arg[0]), arg[1:]
    action: ClassicAction | None = None
    if kind in _CARD_KINDS:
        card = _CARDS.get(rest)
        if card is not None:
            action = ClassicAction(seat, kind, card=card)
    elif kind is ClassicActionKind.CUT:
        if rest.isdigit() and rest[0] != "0" and int(rest) < DECK_SIZE:
            action = ClassicAction.cut(seat, int(rest))
    elif kind is ClassicActionKind.NAME_TRUMP:
        if rest == "0" or rest in _SUITS:
            action = ClassicAction.name_trump(seat, _SUITS.get(rest))
    elif kind is ClassicActionKind.PRAISE:
        if not rest or rest in _PRAISES:
            action = ClassicAction.praise_with(seat, _PRAISES.get(rest))
    elif kind is not None and not rest:
        action = ClassicAction(seat, kind)
    if action is None:
        raise CodecError(f"not a classic action: {arg!r}")
    return action


# --- Achievements: the classic game's moments ----------------------------------------------------

#: The praise kinds won with, by their achievement.
_PRAISE_WON = {
    Praise.SIMPLE: "praise-simple",
    Praise.PANTS: "praise-pants",
    Praise.MIRROR: "praise-mirror",
}


def moments(game: Game, events: Sequence[object]) -> list[Moment]:
    """The kocherga catching Q♣ (the seat that played 7♣), Люся (the winners of a
    deal whose losers took no trick: 120:0) and a praise won (the declarer, when his
    team won the deal: the praise kind is the finished dealing's, read from the table
    as the step left it)."""
    found: list[Moment] = []
    for event in events:
        if isinstance(event, KochergaCaught):
            found.append(Moment("kocherga", (event.seat,)))
        elif isinstance(event, DealScored):
            result = event.result
            if result.winner is None:
                continue
            if result.lucy:
                found.append(Moment("lucy", result.winner.seats))
            table = game.play.spectator_view()
            if (
                isinstance(table, ClassicTableView)
                and table.declarer is not None
                and table.praise in _PRAISE_WON
                and table.declarer % 2 == int(result.winner)
            ):
                found.append(Moment(_PRAISE_WON[table.praise], (table.declarer,)))
    return found


# --- The presenter ------------------------------------------------------------------------------


class ClassicPresenter:
    """The classic game's :class:`~bot.presenters.rule.RulePresenter`: this module's
    functions, and the results as the game holds them."""

    rule_set = RULE_SET
    console_help = "classic-console-help"
    table = staticmethod(table)
    hand = staticmethod(hand)
    hand_content = staticmethod(hand_content)
    event_line = staticmethod(event_line)
    action_arg = staticmethod(action_arg)
    parse_action_arg = staticmethod(parse_action_arg)
    console_hand = staticmethod(console_hand)
    console_action = staticmethod(console_action)
    console_summary = staticmethod(console_summary)
    option_word = staticmethod(option_word)
    web_table = staticmethod(web_table)

    def deal_result(self, game: Game, number: int, tr: Translator, locale: str) -> Screen | None:
        """The last dealing of deal ``number`` that ended (a redeal, or the deal's end)."""
        play = classic_view(game)
        result = None if play is None else play.deal_result(number)
        if play is None or result is None:
            return None
        return deal_result(game, number, result, play.pairs, tr, locale)

    def game_result(self, game: Game, tr: Translator, locale: str) -> Screen | None:
        play = classic_view(game)
        if play is None or play.result is None:
            return None
        return game_result(game, play.result, tr, locale)

    def option_lines(self, game: Game, tr: Translator, locale: str) -> list[str]:
        return [options_line(classic_options(game), tr, locale)]

    def moments(self, game: Game, events: Sequence[object]) -> list[Moment]:
        return moments(game, events)

    def game_outcome(self, game: Game) -> GameOutcome | None:
        play = classic_view(game)
        if play is None or play.result is None:
            return None
        result = play.result
        title = result.title.value
        return GameOutcome(result.loser, title, result.pairs, result.deals, result.eggs, result)

    def rules_args(self, options: Mapping[str, Any], tr: Translator, locale: str) -> dict[str, str]:
        return rules_args(ClassicOptions.from_json(options), tr, locale)


#: The classic game's presenter, as :func:`bot.presenters.rule.rule_presenter` finds it.
PRESENTER = ClassicPresenter()

if TYPE_CHECKING:  # mypy checks here that it keeps the protocol
    from bot.presenters.rule import RulePresenter

    _presenter: RulePresenter = PRESENTER
