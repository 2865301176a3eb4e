"""Platform-neutral screens: text and rows of buttons built from core views.

A :class:`Screen` is what an adapter sends: Telegram renders its rows as an inline
keyboard, Discord as buttons, the console as numbered choices. Every button that
acts carries a token of the action codec (:mod:`bot.codec`) with the game's id and
version. Texts come from the locales through a :class:`~bot.i18n.Translator`.

Presenters are pure: no I/O, no clock (``now`` is passed in). The public table is
built from :meth:`core.yard.deal.Deal.table_view` only, so it never shows a hidden card;
a hand screen is built from that seat's own :class:`~core.yard.views.SeatView`.

Deal numbers from the core (``TableView.number``, ``DealScored.number``) count
from 0; screens show them counting from 1.

>>> from core.cards import Card
>>> card_label(Card.parse("TH")), cards_label([Card.parse("QC"), Card.parse("AS")])
('10♥', 'Q♣ A♠')
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from bot.codec import CodecError, Command, Verb, action_arg, decode, encode
from bot.i18n import LOCALES, Translator
from bot.models import TURN_TIMEOUTS, Game, GameStatus, Platform, Seat, UserRef
from bot.ports import LeaderboardRow, UserStats
from core.ai import LEVEL_NAMES
from core.cards import CARDS, Card, Rank, Suit, mask_of
from core.seats import Team
from core.yard.actions import Action, ActionKind
from core.yard.events import (
    CardsBeaten,
    CardsDiscarded,
    CardsLed,
    DealResult,
    DealStarted,
    Event,
    MolodkaDeclared,
    SeriesResult,
    Title,
    TrickTaken,
)
from core.yard.series import LOSS_LIMIT
from core.yard.views import PlayedSet, TableView

#: A face-down card on the table.
CARD_BACK = "🂠"
#: Marks a selected card on its button.
SELECTED_MARK = "✅"
#: Marks the set now winning the trick.
WINNING_MARK = "👑"
#: Computer players' names in the locales: ``bot-name-1`` .. ``bot-name-<N>``.
COMPUTER_NAMES = 8
#: Commands whose descriptions are ``cmd-<name>`` (for setMyCommands / slash commands).
COMMANDS = ("kozel", "top", "stats", "rules", "lang", "help", "stop")
#: Buttons per row and rows per screen (Discord allows 5 and 5, Telegram 8 a row).
MAX_ROW = 5
MAX_ROWS = 5
_CARDS_PER_ROW = 4


@dataclass(frozen=True, slots=True)
class Button:
    """A button: ``token`` for an action (see :mod:`bot.codec`), or ``url`` for a link."""

    label: str
    token: str | None = None
    url: str | None = None


Row = tuple[Button, ...]


@dataclass(frozen=True, slots=True)
class Screen:
    """A message: its text and rows of buttons."""

    text: str
    rows: tuple[Row, ...] = ()

    @property
    def buttons(self) -> tuple[Button, ...]:
        """Every button, row by row."""
        return tuple(button for row in self.rows for button in row)


class Notice(StrEnum):
    """Short notices about one seat's player (ids ``notice-<value>``)."""

    AWAY = "away"
    BACK = "back"
    AUTO_MOVE = "auto-move"


# --- Cards ------------------------------------------------------------------------


#: Every card's label, by card index (the same in every language).
_CARD_LABELS: tuple[str, ...] = tuple(
    ("10" if card.rank is Rank.TEN else card.rank.letter) + card.suit.symbol for card in CARDS
)


def card_label(card: Card) -> str:
    """A card for people: ``10♥``, ``Q♣``, ``A♠``."""
    return _CARD_LABELS[card.index]


def cards_label(cards: Iterable[Card]) -> str:
    """Cards for people, separated by spaces."""
    labels = _CARD_LABELS
    return " ".join([labels[card.index] for card in cards])


def backs_label(count: int) -> str:
    """``count`` face-down cards."""
    return " ".join(CARD_BACK for _ in range(count))


def sorted_hand(hand: Iterable[Card]) -> tuple[Card, ...]:
    """A hand in the order its buttons show: by suit, then by strength. Selection
    bitmasks count positions in this order."""
    return tuple(sorted(hand, key=lambda card: card.index))


def selection_cards(hand: Sequence[Card], selection: int) -> tuple[Card, ...]:
    """The cards a selection bitmask names (bit i: position i of the sorted hand).
    A selection naming positions beyond the hand names nothing.

    >>> hand = [Card.parse(code) for code in ("AH", "6C", "KH")]
    >>> cards_label(selection_cards(hand, 0b110)), selection_cards(hand, 0b1000)
    ('K♥ A♥', ())
    """
    cards = sorted_hand(hand)
    if selection <= 0 or selection >> len(cards):
        return ()
    return tuple(card for i, card in enumerate(cards) if selection >> i & 1)


def selection_of(hand: Sequence[Card], cards: Iterable[Card]) -> int:
    """The selection bitmask of ``cards`` over the sorted hand (cards not in the hand
    are ignored).

    >>> hand = [Card.parse(code) for code in ("AH", "6C", "KH")]
    >>> selection_of(hand, [Card.parse("AH"), Card.parse("6C")])
    5
    """
    wanted = set(cards)
    return sum(1 << i for i, card in enumerate(sorted_hand(hand)) if card in wanted)


def parse_selection(arg: str) -> int:
    """The selection of a SELECT button's argument (hex); 0 when malformed."""
    try:
        value = int(arg, 16) if arg else 0
    except ValueError:
        return 0
    return max(value, 0)


# --- Small shared pieces ------------------------------------------------------------


def _token(game: Game, verb: Verb, arg: str = "") -> str:
    return encode(Command(verb, game.id, game.version, arg))


def _rows(*rows: Iterable[Button]) -> tuple[Row, ...]:
    """Non-empty rows, at most :data:`MAX_ROW` buttons each."""
    out: list[Row] = []
    for row in rows:
        buttons = tuple(row)
        for start in range(0, len(buttons), MAX_ROW):
            out.append(buttons[start : start + MAX_ROW])
    return tuple(out[:MAX_ROWS])


def _screen(lines: Iterable[str], rows: tuple[Row, ...] = ()) -> Screen:
    return Screen("\n".join(line for line in lines if line), rows)


def _seat_names(game: Game, tr: Translator, locale: str) -> list[str]:
    """Every seat's :func:`seat_name`, by seat (a screen names a seat several times)."""
    return [seat_name(game, seat, tr, locale) for seat in range(4)]


#: The name the terminal's human is stored with: a locale id.
CONSOLE_HUMAN = "console-you"


def seat_name(game: Game, seat: int, tr: Translator, locale: str) -> str:
    """The name of a seat's player, or "free" for an empty seat."""
    player = game.seats[seat] if 0 <= seat < len(game.seats) else None
    if player is None:
        return tr.t(locale, "lobby-seat-empty")
    return player_name(player, tr, locale)


def player_name(player: Seat, tr: Translator, locale: str) -> str:
    """A player's name; computer players' names are locale ids (``bot-name-N``), and so
    is the terminal's human (``console-you``), read in each run's language."""
    if player.is_computer and player.name.startswith("bot-name-"):
        return tr.t(locale, player.name)
    human = player.user
    if human is not None and human.platform is Platform.CONSOLE and player.name == CONSOLE_HUMAN:
        return tr.t(locale, CONSOLE_HUMAN)
    return display_name(player.name, player.user)


#: What Discord's markdown gives a meaning to: a backslash before any of these shows
#: it as itself (Discord drops the backslash before any ASCII punctuation).
_DISCORD_MARKUP = frozenset("\\*_~|`>#-[]()<")


def display_name(name: str, user: UserRef | None) -> str:
    """A person's name as typed, made literal for the platform of ``user``, the only
    one that shows it (leaderboards and tables are per platform).

    Discord parses markdown in every message, so its markup is escaped; Telegram's
    messages are plain text (sent without a parse mode) and so are the console's,
    so their names need nothing.

    >>> display_name("*Hana_the_quiet*", UserRef(Platform.DISCORD, "1"))
    '\\\\*Hana\\\\_the\\\\_quiet\\\\*'
    >>> display_name("*Hana_the_quiet*", UserRef(Platform.TELEGRAM, "1"))
    '*Hana_the_quiet*'
    """
    if user is None or user.platform is not Platform.DISCORD:
        return name
    if not any(char in _DISCORD_MARKUP for char in name):
        return name
    return "".join("\\" + char if char in _DISCORD_MARKUP else char for char in name)


def _about(
    tr: Translator,
    locale: str,
    msg_id: str,
    seat: int | None,
    viewer: int | None,
    /,
    **args: str | int,
) -> str:
    """``msg_id`` about the player at ``seat``; shown to that player himself
    (``viewer``), its ``<msg_id>-you`` form, which names nobody: «Ваш ход», «Вы
    скидываете…», "you drew it"."""
    if seat is not None and seat == viewer:
        args.pop("name", None)
        return tr.t(locale, f"{msg_id}-you", **args)
    return tr.t(locale, msg_id, **args)


def _pair(names: Sequence[str], tr: Translator, locale: str) -> str:
    return tr.t(locale, "names-pair", first=names[0], second=names[1])


def _team_names(game: Game, team: Team, tr: Translator, locale: str) -> str:
    return _pair([seat_name(game, seat, tr, locale) for seat in team.seats], tr, locale)


def _team_label(team: Team, tr: Translator, locale: str) -> str:
    return tr.t(locale, "team-a" if team is Team.A else "team-b")


def suit_name(suit: Suit, tr: Translator, locale: str) -> str:
    """A suit's symbol and name, e.g. ``♥ черви``."""
    return tr.t(locale, f"suit-{suit.name.lower()}")


def rules_name(rule_set: str, tr: Translator, locale: str) -> str:
    """A rule set's display name."""
    msg_id = f"rules-name-{rule_set}"
    return tr.t(locale, msg_id) if tr.has(msg_id) else rule_set


def duration(seconds: int, tr: Translator, locale: str) -> str:
    """``1 мин 30 сек.`` / ``45 s``."""
    minutes, rest = divmod(max(seconds, 0), 60)
    return tr.t(locale, "duration", minutes=minutes, seconds=rest)


def timeout_label(seconds: int, tr: Translator, locale: str) -> str:
    """A turn timeout setting: a duration, or "no limit" for 0."""
    return duration(seconds, tr, locale) if seconds > 0 else tr.t(locale, "timeout-none")


def language_name(code: str, tr: Translator, locale: str) -> str:
    msg_id = f"lang-name-{code}"
    return tr.t(locale, msg_id) if tr.has(msg_id) else code


def computer_name(index: int, tr: Translator, locale: str) -> str:
    """The ``index``-th computer player's name (cycles through the locale's list)."""
    return tr.t(locale, f"bot-name-{index % COMPUTER_NAMES + 1}")


def command_args(platform: Platform, tr: Translator, locale: str) -> dict[str, str]:
    """The commands as a platform's users see them, for the texts that name them: one
    argument per command (``kozel`` is ``/kozel``), the options ``all`` and
    ``classic``, and ``platform`` for the texts whose wording differs.

    Telegram's commands and their words are Latin in every language (``/top all``);
    Discord shows its slash commands, options and choices in the client's language,
    as the bot registered them (``/топ все``, ``/правила Хвалёный козёл``).
    """
    if platform is Platform.DISCORD:
        args = {name: "/" + tr.t(locale, f"cmd-name-{name}") for name in COMMANDS}
        args["all"] = tr.t(locale, "cmd-option-all")
        args["classic"] = rules_name("classic", tr, locale)
    else:
        args = {name: f"/{name}" for name in COMMANDS}
        args["all"], args["classic"] = "all", "classic"
    args["platform"] = platform.value
    return args


def command_descriptions(tr: Translator, locale: str) -> dict[str, str]:
    """Each command's short description (≤ 100 characters), for the platforms' menus."""
    return {name: tr.t(locale, f"cmd-{name}") for name in COMMANDS}


def _seconds_left(game: Game, now: float) -> int | None:
    if game.turn_deadline is None:
        return None
    return max(0, math.ceil(game.turn_deadline - now))


def hand_button(game: Game, tr: Translator, locale: str) -> Button:
    """The "My hand" button (Discord answers it with an ephemeral hand)."""
    return Button(tr.t(locale, "table-hand-button"), _token(game, Verb.SHOW_HAND))


# --- Lobby ------------------------------------------------------------------------------


def _next_timeout(current: int) -> int:
    if current not in TURN_TIMEOUTS:
        return TURN_TIMEOUTS[0]
    return TURN_TIMEOUTS[(TURN_TIMEOUTS.index(current) + 1) % len(TURN_TIMEOUTS)]


def level_name(level: str, tr: Translator, locale: str) -> str:
    """A computer level's name (``baseline``, an older name, is ``normal``)."""
    level = "normal" if level == "baseline" else level
    msg_id = f"level-{level}"
    return tr.t(locale, msg_id) if tr.has(msg_id) else level


def _next_level(current: str) -> str:
    current = "normal" if current == "baseline" else current
    if current not in LEVEL_NAMES:
        return LEVEL_NAMES[0]
    return LEVEL_NAMES[(LEVEL_NAMES.index(current) + 1) % len(LEVEL_NAMES)]


def _next_locale(current: str) -> str:
    if current not in LOCALES:
        return LOCALES[0]
    return LOCALES[(LOCALES.index(current) + 1) % len(LOCALES)]


def lobby(game: Game, tr: Translator, locale: str) -> Screen:
    """The lobby: seats by team, the host, the settings; buttons to sit down, add and
    remove computer players, change the settings, start and cancel."""
    settings = game.settings
    lines = [tr.t(locale, "lobby-title", rules=rules_name(settings.rule_set, tr, locale))]
    host = game.seat_of(game.creator)
    if host is not None:
        lines.append(tr.t(locale, "lobby-creator", name=seat_name(game, host, tr, locale)))
    free = {team: [s for s in team.seats if game.seats[s] is None] for team in Team}
    for team in Team:
        first, second = (seat_name(game, seat, tr, locale) for seat in team.seats)
        label = _team_label(team, tr, locale)
        lines.append(tr.t(locale, "lobby-team", team=label, first=first, second=second))
    empty = sum(len(seats) for seats in free.values())
    lines.append(tr.t(locale, "lobby-free", count=empty) if empty else tr.t(locale, "lobby-ready"))
    lines.append(
        tr.t(
            locale,
            "lobby-settings",
            timeout=timeout_label(settings.turn_timeout, tr, locale),
            lang=language_name(settings.locale, tr, locale),
            level=level_name(settings.computer_level, tr, locale),
        )
    )
    if game.status is GameStatus.CANCELLED:
        lines.append(tr.t(locale, "table-cancelled"))
    if game.status is not GameStatus.LOBBY:
        return _screen(lines)

    join: list[Button] = []
    computers: list[Button] = []
    for team, verb_id, computer_id in (
        (Team.A, "lobby-join-a", "lobby-add-computer-a"),
        (Team.B, "lobby-join-b", "lobby-add-computer-b"),
    ):
        if free[team]:
            join.append(Button(tr.t(locale, verb_id), _token(game, Verb.JOIN, team.name)))
            computers.append(
                Button(tr.t(locale, computer_id), _token(game, Verb.ADD_COMPUTER, team.name))
            )
    join.append(Button(tr.t(locale, "lobby-leave"), _token(game, Verb.LEAVE)))
    remove = [
        Button(
            tr.t(locale, "lobby-remove-computer", name=player_name(player, tr, locale)),
            _token(game, Verb.REMOVE_COMPUTER, str(index)),
        )
        for index, player in enumerate(game.seats)
        if player is not None and player.is_computer
    ]
    setting_row = [
        Button(
            tr.t(locale, "lobby-timeout", timeout=timeout_label(settings.turn_timeout, tr, locale)),
            _token(game, Verb.SETTING, f"t{_next_timeout(settings.turn_timeout)}"),
        ),
        Button(
            tr.t(locale, "lobby-language", lang=language_name(settings.locale, tr, locale)),
            _token(game, Verb.SETTING, f"l{_next_locale(settings.locale)}"),
        ),
        Button(
            tr.t(locale, "lobby-level", level=level_name(settings.computer_level, tr, locale)),
            _token(game, Verb.SETTING, f"c{_next_level(settings.computer_level)}"),
        ),
    ]
    last: list[Button] = []
    if game.is_full:
        last.append(Button(tr.t(locale, "lobby-start"), _token(game, Verb.START)))
    last.append(Button(tr.t(locale, "lobby-cancel"), _token(game, Verb.CANCEL_ASK)))
    return _screen(lines, _rows(join, computers, remove, setting_row, last))


def cancel_confirm(game: Game, tr: Translator, locale: str) -> Screen:
    """Asks whether to cancel the game: yes (CANCEL) or no (REFRESH)."""
    return _screen(
        [tr.t(locale, "lobby-cancel-confirm")],
        _rows(
            [
                Button(tr.t(locale, "lobby-cancel-yes"), _token(game, Verb.CANCEL)),
                Button(tr.t(locale, "lobby-cancel-no"), _token(game, Verb.REFRESH)),
            ]
        ),
    )


# --- The public table ------------------------------------------------------------------


def _played(play: PlayedSet) -> str:
    return backs_label(play.count) if play.face_down else cards_label(play.cards)


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
    card = card_label(view.trump_card)
    holder = view.trump_card_holder
    if holder is None:
        return tr.t(locale, "table-trump", suit=suit, card=card)
    name = names[holder]
    return _about(tr, locale, "table-trump-drawn", holder, viewer, suit=suit, card=card, name=name)


def _stock_line(view: TableView, tr: Translator, locale: str) -> str:
    if view.stock_size == 0:
        return tr.t(locale, "table-stock-empty")
    return tr.t(locale, "table-stock", count=view.stock_size)


def _loss_line(game: Game, msg_id: str, tr: Translator, locale: str) -> str:
    a, b = game.series.loss_points
    return tr.t(locale, msg_id, a=a, b=b, limit=LOSS_LIMIT)


def _goats_lines(game: Game, result: SeriesResult, tr: Translator, locale: str) -> list[str]:
    goats = _team_names(game, result.loser, tr, locale)
    title = "result-goats-eggs" if result.title is Title.GOATS_WITH_EGGS else "result-goats"
    winners = _team_names(game, result.loser.other, tr, locale)
    return [tr.t(locale, title, names=goats), tr.t(locale, "result-winners", names=winners)]


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
    deal = game.series.current
    if deal is None:
        lines = [tr.t(locale, "lobby-title", rules=rules), tr.t(locale, "table-no-deal")]
        if game.status is GameStatus.CANCELLED:
            lines[1] = tr.t(locale, "table-cancelled")
        return _screen(lines)
    view = deal.table_view()
    names = _seat_names(game, tr, locale)
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
            lines.append(
                _about(tr, locale, "table-trick-empty", leader, viewer, name=names[leader])
            )
        for play in view.plays:
            name, cards = names[play.seat], _played(play)
            line = _about(
                tr, locale, _PLAY_IDS[play.kind], play.seat, viewer, name=name, cards=cards
            )
            if play.seat == view.winning_seat and not play.face_down:
                line = f"{line} {WINNING_MARK}"
            lines.append(line)
        if view.plays and view.winning_seat is not None:
            winner = view.winning_seat
            lines.append(_about(tr, locale, "table-winning", winner, viewer, name=names[winner]))
        lines.append("")
        lines.append(tr.t(locale, "table-tricks", a=a, b=b))
        lines.append(_loss_line(game, "table-loss", tr, locale))
        if view.turn is not None and game.status is GameStatus.PLAYING:
            lines.append(_turn_line(game, view.turn, names, tr, locale, now, viewer))
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
        lines.append(_loss_line(game, "table-loss", tr, locale))
        series = game.series.result
        if series is not None:
            lines.append(tr.t(locale, "table-series-over"))
            lines.extend(_goats_lines(game, series, tr, locale))
        elif game.status is GameStatus.PLAYING:
            lines.append(tr.t(locale, "table-next-deal"))
    if game.status is GameStatus.CANCELLED:
        lines.append(tr.t(locale, "table-cancelled"))
    rows = _rows([hand_button(game, tr, locale)]) if with_hand_button and playing else ()
    return Screen("\n".join(_squeeze(lines)), rows)


def _squeeze(lines: list[str]) -> list[str]:
    """Keep single blank lines (as paragraph breaks) but none at the end."""
    out: list[str] = []
    for line in lines:
        if line or (out and out[-1]):
            out.append(line)
    while out and not out[-1]:
        out.pop()
    return out


def _turn_line(
    game: Game,
    seat: int,
    names: Sequence[str],
    tr: Translator,
    locale: str,
    now: float,
    viewer: int | None,
) -> str:
    left = _seconds_left(game, now) if game.settings.turn_timeout > 0 else None
    name = names[seat]
    if left is None:
        return _about(tr, locale, "table-turn", seat, viewer, name=name)
    if left <= 0:
        return _about(tr, locale, "table-waiting", seat, viewer, name=name)
    time = duration(left, tr, locale)
    return _about(tr, locale, "table-turn-time", seat, viewer, name=name, time=time)


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
    deal = game.series.current
    if deal is None:
        return HandContent(None)
    view = deal.view(seat)
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
        return _screen([tr.t(locale, "hand-no-deal")])
    cards, legal = content.cards, content.legal
    # The selection as a bitmask over ``cards`` (0 if it names positions beyond them).
    current = selection if selection > 0 and not selection >> len(cards) else 0
    selected = tuple(card for i, card in enumerate(cards) if current >> i & 1)
    table_view = content.table
    if table_view is None:
        assert content.trump is not None
        lines = [tr.t(locale, "hand-trump", suit=suit_name(content.trump, tr, locale))]
    else:
        names = _seat_names(game, tr, locale)
        lines = [
            _summary(table_view, tr, locale),
            _table_plays(table_view, names, tr, locale, seat),
        ]
    if content.over:
        lines.append(tr.t(locale, "hand-deal-over"))
        return _screen(lines)
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
        lines.append(tr.t(locale, "hand-cards", cards=cards_label(cards)))
    else:
        lines.append(tr.t(locale, "hand-empty"))
    if selected:
        lines.append(tr.t(locale, "hand-selected", cards=cards_label(selected)))

    card_buttons = []
    for i, card in enumerate(cards):
        label = card_label(card)
        if current >> i & 1:
            label = f"{SELECTED_MARK} {label}"
        token = _token(game, Verb.SELECT, format(current ^ (1 << i), "x"))
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
            label = tr.t(locale, f"hand-{action.kind.value}", cards=cards_label(action.cards))
            actions.append(Button(label, _token(game, Verb.PLAY, action_arg(action))))
    elif my_turn:
        # One-card moves need no selection: one press plays them (a press less, and
        # an edit of the hand less, for most moves). Sets are selected card by card.
        for action in legal:
            if action.kind is not ActionKind.MOLODKA and len(action.cards) == 1:
                label = tr.t(locale, f"hand-{action.kind.value}", cards=cards_label(action.cards))
                actions.append(Button(label, _token(game, Verb.PLAY, action_arg(action))))
    if my_turn:
        if not selected:
            lines.append(tr.t(locale, "hand-select"))
        elif not actions:
            lines.append(tr.t(locale, "hand-no-action"))
    if any(action.kind is ActionKind.MOLODKA for action in legal):
        molodka = Action.molodka(seat)
        actions.append(
            Button(tr.t(locale, "hand-molodka"), _token(game, Verb.PLAY, action_arg(molodka)))
        )
    if selected:
        # REFRESH, not SELECT "0": with one card selected, that card's own button
        # already carries SELECT "0", and a platform may refuse two equal ids.
        actions.append(Button(tr.t(locale, "hand-clear"), _token(game, Verb.REFRESH)))
    card_rows = [
        card_buttons[start : start + _CARDS_PER_ROW]
        for start in range(0, len(card_buttons), _CARDS_PER_ROW)
    ]
    return _screen(lines, _rows(*card_rows, actions))


def is_hand(tokens: Iterable[str | None], game_id: int) -> bool:
    """Whether buttons carrying ``tokens`` are those of a hand of the game: a card or a
    move (only a hand has them; a press elsewhere never turns a message into a hand)."""
    for token in tokens:
        try:
            command = decode(token or "")
        except CodecError:
            continue
        if command.game_id == game_id and command.verb in (Verb.SELECT, Verb.PLAY):
            return True
    return False


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
        part = f"{who} {_played(play)}"
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
                team=_team_label(team, tr, locale),
                points=result.points[team],
                tricks=result.tricks[team],
            )
        )
    if result.eggs:
        lines.append(tr.t(locale, "result-deal-eggs"))
    for team in Team:
        loss = result.loss_points[team]
        if loss:
            label = _team_label(team, tr, locale)
            lines.append(tr.t(locale, "result-deal-loss", team=label, loss=loss))
    lines.append(_loss_line(game, "result-loss", tr, locale))
    return _screen(lines)


def series_result(game: Game, result: SeriesResult, tr: Translator, locale: str) -> Screen:
    """A series' end: the goats (with eggs, if any), the winners, the loss points; a
    rematch button."""
    a, b = result.loss_points
    lines = [
        tr.t(locale, "result-series-title", deals=result.deals),
        *_goats_lines(game, result, tr, locale),
        tr.t(locale, "result-loss", a=a, b=b, limit=LOSS_LIMIT),
    ]
    rematch = Button(tr.t(locale, "result-rematch"), _token(game, Verb.REMATCH))
    return _screen(lines, _rows([rematch]))


# --- Statistics, leaderboard, rules, help, errors ------------------------------------------


def _percent(rate: float) -> int:
    return round(rate * 100)


def stats(
    user_stats: UserStats | None,
    tr: Translator,
    locale: str,
    *,
    platform: Platform = Platform.TELEGRAM,
) -> Screen:
    """A player's statistics (or "no series yet")."""
    if user_stats is None or (user_stats.series_played == 0 and user_stats.deals_played == 0):
        return _screen([tr.t(locale, "stats-empty", **command_args(platform, tr, locale))])
    s = user_stats
    return _screen(
        [
            tr.t(locale, "stats-title", name=display_name(s.name, s.user)),
            tr.t(
                locale,
                "stats-series",
                played=s.series_played,
                won=s.series_won,
                rate=_percent(s.win_rate),
            ),
            tr.t(locale, "stats-goats", goat=s.goat, eggs=s.goat_with_eggs),
            tr.t(
                locale,
                "stats-deals",
                played=s.deals_played,
                won=s.deals_won,
                lost=s.deals_lost,
                eggs=s.deals_eggs,
            ),
            tr.t(locale, "stats-points", points=s.points),
        ]
    )


def leaderboard(
    rows: Sequence[LeaderboardRow],
    tr: Translator,
    locale: str,
    global_: bool = False,
    *,
    platform: Platform = Platform.TELEGRAM,
) -> Screen:
    """The best players of a chat (or of every chat with ``global_``)."""
    lines = [tr.t(locale, "top-title-global" if global_ else "top-title-chat")]
    if not rows:
        lines.append(tr.t(locale, "top-empty"))
    for place, row in enumerate(rows, start=1):
        lines.append(
            tr.t(
                locale,
                "top-row",
                place=place,
                name=display_name(row.name, row.user),
                won=row.series_won,
                played=row.series_played,
                rate=_percent(row.win_rate),
            )
        )
    if not global_:
        lines.append(tr.t(locale, "top-hint", **command_args(platform, tr, locale)))
    return _screen(lines)


def rules(
    tr: Translator,
    locale: str,
    rule_set: str = "yard",
    *,
    platform: Platform = Platform.TELEGRAM,
) -> Screen:
    """The rules text of a rule set (``classic`` says it cannot be played yet)."""
    msg_id = "rules-classic" if rule_set == "classic" else "rules-yard"
    return _screen([tr.t(locale, msg_id, **command_args(platform, tr, locale))])


def help(tr: Translator, locale: str, *, platform: Platform = Platform.TELEGRAM) -> Screen:
    """What the commands do, named as the platform's users see them."""
    return _screen([tr.t(locale, "help-text", **command_args(platform, tr, locale))])


def error(code: str, tr: Translator, locale: str, *, console: bool = False) -> Screen:
    """Why a request was refused: ``err-<code>`` (an ErrorCode or a core Reason).
    ``console``: for the terminal, which has no buttons (``err-<code>-console`` where
    the chat's text speaks of one)."""
    msg_id = f"err-{code}"
    if console and tr.has(f"{msg_id}-console"):
        msg_id = f"{msg_id}-console"
    return _screen([tr.t(locale, msg_id if tr.has(msg_id) else "err-generic")])


# --- Reminders and notices ----------------------------------------------------------------


def reminder(game: Game, seat: int, tr: Translator, locale: str, now: float) -> Screen:
    """ "Your turn, N seconds left" for the seat to play."""
    left = _seconds_left(game, now) or 0
    return _screen(
        [tr.t(locale, "reminder-turn", name=seat_name(game, seat, tr, locale), seconds=left)]
    )


def notice(kind: Notice, game: Game, seat: int, tr: Translator, locale: str) -> Screen:
    """A player went away, came back, or a computer moved for him when time ran out."""
    return _screen([tr.t(locale, f"notice-{kind.value}", name=seat_name(game, seat, tr, locale))])


def started(game: Game, tr: Translator, locale: str, *, with_hand_button: bool = True) -> Screen:
    """The series has started (cards are private)."""
    rows = _rows([hand_button(game, tr, locale)]) if with_hand_button else ()
    return _screen([tr.t(locale, "notice-started")], rows)


def cancelled(tr: Translator, locale: str) -> Screen:
    return _screen([tr.t(locale, "notice-cancelled")])


def language_switched(tr: Translator, locale: str) -> Screen:
    """Confirms a language change, in the new language ``locale``."""
    return _screen([tr.t(locale, "notice-lang-switched")])


def language_usage(
    tr: Translator, locale: str, *, platform: Platform = Platform.TELEGRAM
) -> Screen:
    """``/lang`` without an argument: the current language and how to change it."""
    args = command_args(platform, tr, locale)
    args["language"] = language_name(locale, tr, locale)
    return _screen([tr.t(locale, "notice-lang-usage", **args)])


def dm_needed(name: str, url: str | None, tr: Translator, locale: str) -> Screen:
    """Asks a player to open a private chat with the bot; ``url`` is the deep link
    (``https://t.me/<bot>?start=<payload>``) for the button, if any."""
    rows = _rows([Button(tr.t(locale, "notice-dm-button"), url=url)]) if url else ()
    return _screen([tr.t(locale, "notice-dm-needed", name=name)], rows)


def dm_hello(tr: Translator, locale: str) -> Screen:
    """The answer to ``/start`` in a private chat."""
    return _screen([tr.t(locale, "notice-dm-hello")])


def group_only(tr: Translator, locale: str, *, platform: Platform = Platform.TELEGRAM) -> Screen:
    """``/kozel`` in a private chat: games are played in groups."""
    return _screen([tr.t(locale, "notice-group-only", **command_args(platform, tr, locale))])


# --- The play log: one line per public event ---------------------------------------------


def event_line(
    game: Game, event: Event, tr: Translator, locale: str, *, viewer: int | None = None
) -> str | None:
    """A one-line account of a public event (faces of discards are never shown), or
    None for events that need no line of their own. ``viewer``: the seat of the one
    player it is shown to, whose own moves read as his ("You discard...")."""
    if isinstance(event, CardsLed | CardsBeaten | MolodkaDeclared):
        name = seat_name(game, event.seat, tr, locale)
        cards = cards_label(event.cards)
        if isinstance(event, CardsLed):
            msg_id = "log-lead"
        elif isinstance(event, CardsBeaten):
            msg_id = "log-beat"
        else:  # a molodka on an empty trick opens it; on a played one, restarts it
            msg_id = "log-molodka-restarts" if any(event.returned) else "log-molodka-opens"
        return _about(tr, locale, msg_id, event.seat, viewer, name=name, cards=cards)
    if isinstance(event, CardsDiscarded):
        name = seat_name(game, event.seat, tr, locale)
        return _about(tr, locale, "log-discard", event.seat, viewer, name=name, count=event.count)
    if isinstance(event, TrickTaken):
        name = seat_name(game, event.seat, tr, locale)
        count = event.card_count
        return _about(tr, locale, "log-trick", event.seat, viewer, name=name, count=count)
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
            card=card_label(event.trump_card),
        )
    return None
