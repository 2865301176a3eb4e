"""The presenters' shared pieces: screens, buttons, names, cards, the lobby, stats,
help, errors and notices, the same for every rule set.

A :class:`Screen` is what an adapter sends: Telegram renders its rows as an inline
keyboard, Discord as buttons, the console as numbered choices. Every button that
acts carries a token of the action codec (:mod:`bot.codec`) with the game's id and
version. Texts come from the locales through a :class:`~bot.i18n.Translator`.

Presenters are pure: no I/O, no clock (``now`` is passed in). What a rule set's game
looks like (its table, a hand, its results, its play log) is drawn by that rule
set's presenter (:mod:`bot.presenters.rule`), from these pieces.

>>> from core.cards import Card
>>> card_label(Card.parse("TH"), "en"), cards_label([Card.parse("QC"), Card.parse("AS")], "en")
('10♥', 'Q♣ A♠')
>>> cards_label([Card.parse("JH"), Card.parse("QC"), Card.parse("KS"), Card.parse("AD")], "ru")
'В♥ Д♣ К♠ Т♦'
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from bot.codec import HAND_ONLY_VERBS, CodecError, Command, Verb, decode, encode
from bot.i18n import LOCALES, Translator
from bot.models import TURN_TIMEOUTS, Game, GameStatus, Platform, Seat, UserRef
from bot.options import (
    PAGE_OPTIONS,
    current_value,
    next_allowed,
    option_arg,
    option_pages,
    options_of,
    preset_arg,
    preset_named,
    presets_of,
)
from bot.ports import LeaderboardRow, UserStats
from bot.presenters.rule import presenter_of, rule_presenter, rule_presenter_ids
from core.cards import CARDS, Card, Rank, Suit
from core.ruleset import LEVEL_NAMES, get_rule_set, rule_set_ids
from core.seats import Team

#: A face-down card on the table.
CARD_BACK = "🂠"
#: Marks a selected card on its button.
SELECTED_MARK = "✅"
#: Marks the set now winning the trick.
WINNING_MARK = "👑"
#: Computer players' names in the locales: ``bot-name-1`` .. ``bot-name-<N>``.
COMPUTER_NAMES = 8
#: Commands whose descriptions are ``cmd-<name>`` (for setMyCommands / slash commands).
COMMANDS = ("kozel", "top", "stats", "rules", "lang", "pictures", "help", "stop", "event")
#: Buttons per row and rows per screen (Discord allows 5 and 5, Telegram 8 a row).
MAX_ROW = 5
MAX_ROWS = 5
CARDS_PER_ROW = 4


@dataclass(frozen=True, slots=True)
class Button:
    """A button: ``token`` for an action (see :mod:`bot.codec`), or ``url`` for a link;
    ``app``: a link the platform opens in its own web view where it has one (a
    Telegram Mini App's ``web_app`` button, in a private chat only), else a plain link."""

    label: str
    token: str | None = None
    url: str | None = None
    app: bool = False


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


#: The court cards' and the ace's letters where a language has its own (Russian: валет,
#: дама, король, туз); elsewhere the Latin J, Q, K, A.
_RANK_LETTERS: dict[str, dict[Rank, str]] = {
    "ru": {Rank.JACK: "В", Rank.QUEEN: "Д", Rank.KING: "К", Rank.ACE: "Т"},
}


def _labels(letters: dict[Rank, str]) -> tuple[str, ...]:
    """Every card's label, by card index."""
    return tuple(
        ("10" if card.rank is Rank.TEN else letters.get(card.rank, card.rank.letter))
        + card.suit.symbol
        for card in CARDS
    )


_LATIN_LABELS = _labels({})
_CARD_LABELS: dict[str, tuple[str, ...]] = {
    locale: _labels(letters) for locale, letters in _RANK_LETTERS.items()
}


def card_label(card: Card, locale: str) -> str:
    """A card for people reading ``locale``: ``10♥``, ``Q♣``, ``A♠`` (in Russian
    ``Д♣``, ``Т♠``)."""
    return _CARD_LABELS.get(locale, _LATIN_LABELS)[card.index]


def cards_label(cards: Iterable[Card], locale: str) -> str:
    """Cards for people reading ``locale``, separated by spaces."""
    labels = _CARD_LABELS.get(locale, _LATIN_LABELS)
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
    >>> cards_label(selection_cards(hand, 0b110), "en"), selection_cards(hand, 0b1000)
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


def game_token(game: Game, verb: Verb, arg: str = "") -> str:
    return encode(Command(verb, game.id, game.version, arg))


def button_rows(*rows: Iterable[Button]) -> tuple[Row, ...]:
    """Non-empty rows, at most :data:`MAX_ROW` buttons each."""
    out: list[Row] = []
    for row in rows:
        buttons = tuple(row)
        for start in range(0, len(buttons), MAX_ROW):
            out.append(buttons[start : start + MAX_ROW])
    return tuple(out[:MAX_ROWS])


def text_screen(lines: Iterable[str], rows: tuple[Row, ...] = ()) -> Screen:
    return Screen("\n".join(line for line in lines if line), rows)


def seat_names(game: Game, tr: Translator, locale: str) -> list[str]:
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


def about(
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


def names_pair(names: Sequence[str], tr: Translator, locale: str) -> str:
    return tr.t(locale, "names-pair", first=names[0], second=names[1])


def team_names(game: Game, team: Team, tr: Translator, locale: str) -> str:
    return names_pair([seat_name(game, seat, tr, locale) for seat in team.seats], tr, locale)


def team_label(team: Team, tr: Translator, locale: str) -> str:
    return tr.t(locale, "team-a" if team is Team.A else "team-b")


def suit_name(suit: Suit, tr: Translator, locale: str) -> str:
    """A suit's symbol and name, e.g. ``♥ черви``."""
    return tr.t(locale, f"suit-{suit.name.lower()}")


def rules_name(rule_set: str, tr: Translator, locale: str) -> str:
    """A rule set's display name."""
    msg_id = f"rules-name-{rule_set}"
    return tr.t(locale, msg_id) if tr.has(msg_id) else rule_set


def rules_short_name(rule_set: str, tr: Translator, locale: str) -> str:
    """A rule set's name in a word, for a button."""
    msg_id = f"rules-short-{rule_set}"
    return tr.t(locale, msg_id) if tr.has(msg_id) else rules_name(rule_set, tr, locale)


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
    argument per command (``kozel`` is ``/kozel``), the options ``all``, ``season``,
    ``classic`` and ``yard``, ``month`` what a month follows (``/top season 2026-11``,
    Discord's ``/топ месяц: 2026-11``), ``challenge`` the day's duplicate challenge
    (``/kozel challenge``, Discord's ``/козёл вызов: daily``), ``open`` how an event
    is opened (``/event open``, Discord's ``/турнир слова: открыть``) and
    ``platform`` for the texts whose wording differs.

    Telegram's commands and their words are Latin in every language (``/top all``);
    Discord shows its slash commands, options and choices in the client's language,
    as the bot registered them (``/топ все``, ``/правила Хвалёный козёл``).
    """
    if platform is Platform.DISCORD:
        args = {name: "/" + tr.t(locale, f"cmd-name-{name}") for name in COMMANDS}
        args["all"] = tr.t(locale, "cmd-option-all")
        args["season"] = tr.t(locale, "cmd-option-season")
        args["month"] = tr.t(locale, "cmd-option-month") + ":"
        args["classic"] = rules_name("classic", tr, locale)
        args["yard"] = rules_name("yard", tr, locale)
        args["challenge"] = tr.t(locale, "cmd-option-challenge") + ": daily"
        args["open"] = tr.t(locale, "cmd-option-event") + ": " + tr.t(locale, "event-word-open")
    else:
        args = {name: f"/{name}" for name in COMMANDS}
        args["all"], args["classic"], args["yard"] = "all", "classic", "yard"
        args["season"] = args["month"] = "season"
        args["challenge"], args["open"] = "challenge", "open"
    args["platform"] = platform.value
    return args


def command_descriptions(tr: Translator, locale: str) -> dict[str, str]:
    """Each command's short description (≤ 100 characters), for the platforms' menus."""
    return {name: tr.t(locale, f"cmd-{name}") for name in COMMANDS}


def seconds_left(game: Game, now: float) -> int | None:
    if game.turn_deadline is None:
        return None
    return max(0, math.ceil(game.turn_deadline - now))


def hand_button(game: Game, tr: Translator, locale: str) -> Button:
    """The "My hand" button (Discord answers it with an ephemeral hand)."""
    return Button(tr.t(locale, "table-hand-button"), game_token(game, Verb.SHOW_HAND))


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


def _next_rule_set(current: str) -> str:
    ids = rule_presenter_ids()
    return ids[(ids.index(current) + 1) % len(ids)] if current in ids else ids[0]


def option_buttons(game: Game, tr: Translator, locale: str) -> list[Button]:
    """A button per option of the table's rule set, named by its current value in
    words (the rule set's presenter's); a press sets the next value the rule set
    accepts with the others."""
    rule_set, chosen = game.settings.rule_set, game.settings.options
    words = presenter_of(game)
    buttons = []
    for option in options_of(rule_set):
        value = current_value(option, chosen)
        label = words.option_word(option.name, value, tr, locale)
        arg = option_arg(option, next_allowed(rule_set, option, chosen))
        buttons.append(Button(label, game_token(game, Verb.SETTING, arg)))
    return buttons


def preset_buttons(game: Game, tr: Translator, locale: str) -> list[Button]:
    """A button per preset of the table's rule set (``<rules>-preset-button-<name>``),
    the one the options equal ticked; a press sets its options in one tap."""
    rule_set = game.settings.rule_set
    chosen = preset_named(rule_set, game.settings.options)
    buttons = []
    for name, _ in presets_of(rule_set):
        label = tr.t(locale, f"{rule_set}-preset-button-{name}")
        if name == chosen:
            label = tr.t(locale, "lobby-preset-chosen", label=label)
        buttons.append(Button(label, game_token(game, Verb.SETTING, preset_arg(name))))
    return buttons


def _options_page(game: Game, lines: list[str], tr: Translator, locale: str) -> Screen:
    """A page of the lobby's house rules, in the same message: the presets (two to a
    row), the options two to a row (:data:`bot.options.PAGE_OPTIONS` a page), the
    other pages and the way back to the seats."""
    pages = option_pages(game.settings.rule_set)
    page = pages.index(game.settings.lobby_page)
    options = option_buttons(game, tr, locale)
    shown = options[page * PAGE_OPTIONS : (page + 1) * PAGE_OPTIONS]
    rows = [row for row in (preset_buttons(game, tr, locale),) if row]
    rows += [shown[start : start + 2] for start in range(0, len(shown), 2)]
    nav = []
    if page > 0:
        label = tr.t(locale, "lobby-page-prev", page=page, pages=len(pages))
        nav.append(Button(label, game_token(game, Verb.SETTING, "p" + pages[page - 1])))
    if page + 1 < len(pages):
        label = tr.t(locale, "lobby-page-next", page=page + 2, pages=len(pages))
        nav.append(Button(label, game_token(game, Verb.SETTING, "p" + pages[page + 1])))
    nav.append(Button(tr.t(locale, "lobby-back"), game_token(game, Verb.SETTING, "p")))
    rows.append(nav)
    lines = [*lines, "", tr.t(locale, "lobby-house-rules-hint")]
    return text_screen(lines, button_rows(*rows))


def lobby(game: Game, tr: Translator, locale: str) -> Screen:
    """The lobby: seats by team, the host, the settings and rules; buttons to sit
    down, add and remove computer players, change the settings, choose the rules,
    start and cancel. With the rules' options page open (``lobby_page`` "o") the
    buttons are the house rules' and a way back."""
    settings = game.settings
    lines = [tr.t(locale, "lobby-title", rules=rules_name(settings.rule_set, tr, locale))]
    host = game.seat_of(game.creator)
    if host is not None:
        lines.append(tr.t(locale, "lobby-creator", name=seat_name(game, host, tr, locale)))
    free = {team: [s for s in team.seats if game.seats[s] is None] for team in Team}
    for team in Team:
        first, second = (seat_name(game, seat, tr, locale) for seat in team.seats)
        label = team_label(team, tr, locale)
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
    lines.extend(presenter_of(game).option_lines(game, tr, locale))
    if game.status is GameStatus.CANCELLED:
        lines.append(tr.t(locale, "table-cancelled"))
    if game.status is not GameStatus.LOBBY:
        return text_screen(lines)
    if settings.lobby_page in option_pages(settings.rule_set):
        return _options_page(game, lines, tr, locale)

    join: list[Button] = []
    computers: list[Button] = []
    for team, verb_id, computer_id in (
        (Team.A, "lobby-join-a", "lobby-add-computer-a"),
        (Team.B, "lobby-join-b", "lobby-add-computer-b"),
    ):
        if free[team]:
            join.append(Button(tr.t(locale, verb_id), game_token(game, Verb.JOIN, team.name)))
            computers.append(
                Button(tr.t(locale, computer_id), game_token(game, Verb.ADD_COMPUTER, team.name))
            )
    join.append(Button(tr.t(locale, "lobby-leave"), game_token(game, Verb.LEAVE)))
    remove = [
        Button(
            tr.t(locale, "lobby-remove-computer", name=player_name(player, tr, locale)),
            game_token(game, Verb.REMOVE_COMPUTER, str(index)),
        )
        for index, player in enumerate(game.seats)
        if player is not None and player.is_computer
    ]
    setting_row = [
        Button(
            tr.t(locale, "lobby-timeout", timeout=timeout_label(settings.turn_timeout, tr, locale)),
            game_token(game, Verb.SETTING, f"t{_next_timeout(settings.turn_timeout)}"),
        ),
        Button(
            tr.t(locale, "lobby-language", lang=language_name(settings.locale, tr, locale)),
            game_token(game, Verb.SETTING, f"l{_next_locale(settings.locale)}"),
        ),
        Button(
            tr.t(locale, "lobby-level", level=level_name(settings.computer_level, tr, locale)),
            game_token(game, Verb.SETTING, f"c{_next_level(settings.computer_level)}"),
        ),
        Button(
            tr.t(locale, "lobby-rules", rules=rules_short_name(settings.rule_set, tr, locale)),
            game_token(game, Verb.SETTING, f"r{_next_rule_set(settings.rule_set)}"),
        ),
    ]
    if option_pages(settings.rule_set):
        setting_row.append(
            Button(tr.t(locale, "lobby-house-rules"), game_token(game, Verb.SETTING, "po"))
        )
    last: list[Button] = []
    if game.is_full:
        last.append(Button(tr.t(locale, "lobby-start"), game_token(game, Verb.START)))
    last.append(Button(tr.t(locale, "lobby-cancel"), game_token(game, Verb.CANCEL_ASK)))
    return text_screen(lines, button_rows(join, computers, remove, setting_row, last))


def cancel_confirm(game: Game, tr: Translator, locale: str) -> Screen:
    """Asks whether to cancel the game: yes (CANCEL) or no (REFRESH)."""
    return text_screen(
        [tr.t(locale, "lobby-cancel-confirm")],
        button_rows(
            [
                Button(tr.t(locale, "lobby-cancel-yes"), game_token(game, Verb.CANCEL)),
                Button(tr.t(locale, "lobby-cancel-no"), game_token(game, Verb.REFRESH)),
            ]
        ),
    )


def squeeze(lines: list[str]) -> list[str]:
    """Keep single blank lines (as paragraph breaks) but none at the end."""
    out: list[str] = []
    for line in lines:
        if line or (out and out[-1]):
            out.append(line)
    while out and not out[-1]:
        out.pop()
    return out


def goats_lines(game: Game, loser: Team, title_id: str, tr: Translator, locale: str) -> list[str]:
    """The end of a game in two lines: the losers under their title's locale id, the
    winners."""
    goats = team_names(game, loser, tr, locale)
    winners = team_names(game, loser.other, tr, locale)
    return [tr.t(locale, title_id, names=goats), tr.t(locale, "result-winners", names=winners)]


def game_over(game: Game, lines: list[str], tr: Translator, locale: str) -> Screen:
    """A game's result message: its lines and a rematch button."""
    rematch = Button(tr.t(locale, "result-rematch"), game_token(game, Verb.REMATCH))
    return text_screen(lines, button_rows([rematch]))


def turn_line(
    game: Game,
    seat: int,
    names: Sequence[str],
    tr: Translator,
    locale: str,
    now: float,
    viewer: int | None,
) -> str:
    left = seconds_left(game, now) if game.settings.turn_timeout > 0 else None
    name = names[seat]
    if left is None:
        return about(tr, locale, "table-turn", seat, viewer, name=name)
    if left <= 0:
        return about(tr, locale, "table-waiting", seat, viewer, name=name)
    time = duration(left, tr, locale)
    return about(tr, locale, "table-turn-time", seat, viewer, name=name, time=time)


def is_hand(tokens: Iterable[str | None], game_id: int) -> bool:
    """Whether buttons carrying ``tokens`` are those of a hand of the game: a card or a
    move (only a hand has them; a press elsewhere never turns a message into a hand)."""
    for token in tokens:
        try:
            command = decode(token or "")
        except CodecError:
            continue
        if command.game_id == game_id and command.verb in HAND_ONLY_VERBS:
            return True
    return False


# --- Statistics, leaderboard, rules, help, errors ------------------------------------------


def _percent(rate: float) -> int:
    return round(rate * 100)


def _stats_lines(s: UserStats, tr: Translator, locale: str) -> list[str]:
    return [
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


def stats(
    user_stats: UserStats | None,
    tr: Translator,
    locale: str,
    *,
    platform: Platform = Platform.TELEGRAM,
) -> Screen:
    """A player's statistics (or "no series yet")."""
    if user_stats is None or (user_stats.series_played == 0 and user_stats.deals_played == 0):
        return text_screen([tr.t(locale, "stats-empty", **command_args(platform, tr, locale))])
    s = user_stats
    title = tr.t(locale, "stats-title", name=display_name(s.name, s.user))
    return text_screen([title, *_stats_lines(s, tr, locale)])


def stats_by_rules(
    found: Sequence[tuple[str, UserStats]],
    tr: Translator,
    locale: str,
    *,
    platform: Platform = Platform.TELEGRAM,
    more: Mapping[str, Sequence[str]] | None = None,
) -> Screen:
    """A player's statistics, a part for each rule set he played (or "no series yet");
    ``more``: lines to add under the title, or under "no series yet" (key ``""``),
    and to each rule set's part (by its id), such as the ratings'
    (:mod:`bot.presenters.rating`) and the reliability's (a player whose rated games
    were all stopped has no statistics, but has it)."""
    more = more or {}
    played = [(rule_set, s) for rule_set, s in found if s.series_played or s.deals_played]
    if not played:
        empty = stats(None, tr, locale, platform=platform)
        return text_screen([empty.text, *more.get("", ())])
    first = played[0][1]
    lines = [tr.t(locale, "stats-title", name=display_name(first.name, first.user))]
    lines.extend(more.get("", ()))
    for rule_set, s in played:
        lines.extend(["", tr.t(locale, "stats-rules", rules=rules_name(rule_set, tr, locale))])
        lines.extend(_stats_lines(s, tr, locale))
        lines.extend(more.get(rule_set, ()))
    return text_screen(lines)


def leaderboard(
    rows: Sequence[LeaderboardRow],
    tr: Translator,
    locale: str,
    global_: bool = False,
    *,
    platform: Platform = Platform.TELEGRAM,
    rule_set: str | None = None,
) -> Screen:
    """The best players of a chat (or of every chat with ``global_``), in the games of
    every rule set or of ``rule_set``."""
    lines = [tr.t(locale, "top-title-global" if global_ else "top-title-chat")]
    if rule_set is not None:
        lines.append(tr.t(locale, "top-rules", rules=rules_name(rule_set, tr, locale)))
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
    return text_screen(lines)


#: The longest word a refusal repeats back.
SHOWN_WORD_LENGTH = 16


def shown_word(words: str) -> str | None:
    """The words a command did not understand, if the answer may repeat them: one
    plain word (letters and digits, a hyphen inside) of a few characters. Anything
    else (a link, a mention, a long text) is not posted back into the chat: the
    answer lists the words that are understood instead.

    >>> shown_word(" poker "), shown_word("https://x.example"), shown_word("@all")
    ('poker', None, None)
    >>> shown_word("a" * 17), shown_word("classic yard"), shown_word("козёл-2")
    (None, None, 'козёл-2')
    """
    word = words.strip()
    plain = word.replace("-", "").isalnum() and not word.startswith("-")
    return word if plain and len(word) <= SHOWN_WORD_LENGTH else None


def top_usage(words: str, tr: Translator, locale: str, platform: Platform) -> Screen:
    """``/top`` with words it does not take: the word (see :func:`shown_word`), and
    the words it takes."""
    args = command_args(platform, tr, locale)
    word = shown_word(words)
    if word is None:
        return text_screen([tr.t(locale, "top-usage-unnamed", **args)])
    return text_screen([tr.t(locale, "top-usage", word=word, **args)])


def rules(
    tr: Translator,
    locale: str,
    rule_set: str = "yard",
    *,
    platform: Platform = Platform.TELEGRAM,
    others: bool = False,
    options: Mapping[str, Any] | None = None,
) -> Screen:
    """The rules text of a rule set (:attr:`core.ruleset.RuleSet.rules_text`; the
    yard game's for an unknown id), as a table's ``options`` make the game (default:
    every default); ``others``: then how to read every other rule set's."""
    rule_set = rule_set if rule_set in rule_set_ids() else "yard"
    args = command_args(platform, tr, locale)
    told = rule_presenter(rule_set).rules_args(options or {}, tr, locale)
    lines = [tr.t(locale, get_rule_set(rule_set).rules_text, **args, **told)]
    if others:
        lines.append("")
        for other in rule_set_ids():
            if other != rule_set:
                command = f"{args['rules']} {args.get(other, other)}"
                lines.append(
                    tr.t(locale, "rules-also", command=command, rules=rules_name(other, tr, locale))
                )
    return text_screen(lines)


def table_rules(
    game: Game, tr: Translator, locale: str, *, platform: Platform = Platform.TELEGRAM
) -> Screen:
    """The rules a table plays, with its options (``/rules`` while it is open)."""
    settings = game.settings
    text = rules(tr, locale, settings.rule_set, platform=platform, options=settings.options).text
    options = presenter_of(game).option_lines(game, tr, locale)
    return text_screen([text, *(["", *options] if options else [])])


def help(tr: Translator, locale: str, *, platform: Platform = Platform.TELEGRAM) -> Screen:
    """What the commands do, named as the platform's users see them."""
    return text_screen([tr.t(locale, "help-text", **command_args(platform, tr, locale))])


def unknown_rules(
    word: str, tr: Translator, locale: str, platform: Platform = Platform.TELEGRAM
) -> Screen:
    """A command named rules that do not exist: which ones do (and the word, see
    :func:`shown_word`), then the help."""
    args = command_args(platform, tr, locale)
    shown = shown_word(word)
    refusal = (
        tr.t(locale, "err-no-such-rules-unnamed", **args)
        if shown is None
        else tr.t(locale, "err-no-such-rules", word=shown, **args)
    )
    return text_screen(
        [
            refusal,
            "",
            tr.t(locale, "help-text", **args),
        ]
    )


def error(code: str, tr: Translator, locale: str, *, console: bool = False) -> Screen:
    """Why a request was refused: ``err-<code>`` (an ErrorCode or a core Reason).
    ``console``: for the terminal, which has no buttons (``err-<code>-console`` where
    the chat's text speaks of one)."""
    msg_id = f"err-{code}"
    if console and tr.has(f"{msg_id}-console"):
        msg_id = f"{msg_id}-console"
    return text_screen([tr.t(locale, msg_id if tr.has(msg_id) else "err-generic")])


# --- Reminders and notices ----------------------------------------------------------------


def reminder(game: Game, seat: int, tr: Translator, locale: str, now: float) -> Screen:
    """ "Your turn, N seconds left" for the seat to play."""
    left = seconds_left(game, now) or 0
    return text_screen(
        [tr.t(locale, "reminder-turn", name=seat_name(game, seat, tr, locale), seconds=left)]
    )


def notice(kind: Notice, game: Game, seat: int, tr: Translator, locale: str) -> Screen:
    """A player went away, came back, or a computer moved for him when time ran out."""
    return text_screen(
        [tr.t(locale, f"notice-{kind.value}", name=seat_name(game, seat, tr, locale))]
    )


def refused(reason: str, game: Game, seat: int, tr: Translator, locale: str) -> Screen:
    """A request asked across the table was refused (``notice-refused-<reason>``): the
    whole table hears the no, and only that."""
    name = seat_name(game, seat, tr, locale)
    return text_screen([tr.t(locale, f"notice-refused-{reason}", name=name)])


def started(game: Game, tr: Translator, locale: str, *, with_hand_button: bool = True) -> Screen:
    """The series has started (cards are private)."""
    rows = button_rows([hand_button(game, tr, locale)]) if with_hand_button else ()
    return text_screen([tr.t(locale, "notice-started")], rows)


def cancelled(tr: Translator, locale: str) -> Screen:
    return text_screen([tr.t(locale, "notice-cancelled")])


def language_switched(tr: Translator, locale: str) -> Screen:
    """Confirms a language change, in the new language ``locale``."""
    return text_screen([tr.t(locale, "notice-lang-switched")])


def own_language_switched(tr: Translator, locale: str, group_locale: str) -> Screen:
    """Confirms a member's own language in a group (``locale``, in it), whose own
    language ``group_locale`` its admins choose."""
    group = language_name(group_locale, tr, locale)
    return text_screen([tr.t(locale, "notice-lang-own", group=group)])


def language_usage(
    tr: Translator, locale: str, *, platform: Platform = Platform.TELEGRAM
) -> Screen:
    """``/lang`` without an argument: the current language and how to change it."""
    args = command_args(platform, tr, locale)
    args["language"] = language_name(locale, tr, locale)
    return text_screen([tr.t(locale, "notice-lang-usage", **args)])


def dm_needed(name: str, url: str | None, tr: Translator, locale: str) -> Screen:
    """Asks a player to open a private chat with the bot; ``url`` is the deep link
    (``https://t.me/<bot>?start=<payload>``) for the button, if any."""
    rows = button_rows([Button(tr.t(locale, "notice-dm-button"), url=url)]) if url else ()
    return text_screen([tr.t(locale, "notice-dm-needed", name=name)], rows)


def dm_hello(tr: Translator, locale: str) -> Screen:
    """The answer to ``/start`` in a private chat."""
    return text_screen([tr.t(locale, "notice-dm-hello")])


def group_only(tr: Translator, locale: str, *, platform: Platform = Platform.TELEGRAM) -> Screen:
    """``/kozel`` in a private chat: games are played in groups."""
    return text_screen([tr.t(locale, "notice-group-only", **command_args(platform, tr, locale))])
