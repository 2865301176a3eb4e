"""The classic game's screens: every decision reaches exactly its seat as buttons
built from the legal actions, every button's token is one of them, inactive cards
cannot be pressed, the table shows the public facts, and no screen shows a card
its reader may not see."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from bot.codec import MAX_TOKEN_BYTES, Verb, decode
from bot.i18n import Translator
from bot.models import ChatRef, Game, GameStatus, Platform, Seat, SeatKind, TableSettings, UserRef
from bot.presenters import MAX_ROW, MAX_ROWS, Screen, card_label
from bot.presenters import classic as cp
from core.cards import Card, Suit
from core.classic.actions import ClassicAction, ClassicActionKind
from core.classic.dealing import Phase
from core.classic.events import ClassicGameResult, ClassicTitle
from core.classic.game import ClassicGame
from core.classic.options import ClassicOptions, Praise
from core.classic.ruleset import ClassicGameAdapter
from core.classic.views import ClassicSeatView, ClassicTableView
from core.seats import Team
from tests.core.classic.helpers import LOW_HAND, ends_deck, opts, plain_deck

LANGUAGES = ("ru", "en")
NAMES = ("Вася", "Петя", "Маша", "Коля")
USERS = tuple(UserRef(Platform.TELEGRAM, str(100 + i)) for i in range(4))
GAME_ID = 36**12 - 1  # the largest ids: every token must still fit
VERSION = 36**12 - 1
CARD_LABEL = re.compile(r"(?:10|[789JQKAВДКТ])[♣♠♥♦]")


@pytest.fixture(scope="module")
def tr() -> Translator:
    return Translator.from_dir()


def table_of(play: ClassicGame, status: GameStatus = GameStatus.PLAYING) -> Game:
    """The application's table holding a classic game."""
    game = Game(
        id=GAME_ID,
        chat=ChatRef(Platform.TELEGRAM, "-100123"),
        creator=USERS[0],
        status=status,
        settings=TableSettings(rule_set="classic", options=play.options.to_json()),
        version=VERSION,
        play=ClassicGameAdapter(play),
    )
    game.seats = [Seat(SeatKind.HUMAN, NAMES[i], USERS[i]) for i in range(4)]
    return game


def plays(screen: Screen, seat: int) -> list[ClassicAction]:
    """The actions a screen's PLAY buttons name for ``seat``; checks every token."""
    assert len(screen.rows) <= MAX_ROWS
    out = []
    for row in screen.rows:
        assert 1 <= len(row) <= MAX_ROW
        for button in row:
            if button.token is None:
                continue
            assert len(button.token.encode()) <= MAX_TOKEN_BYTES
            command = decode(button.token)
            assert (command.game_id, command.version) == (GAME_ID, VERSION)
            if command.verb is Verb.PLAY:
                out.append(cp.parse_action_arg(seat, command.arg))
    return out


def labels(screen: Screen) -> set[str]:
    text = screen.text + "\n" + "\n".join(button.label for button in screen.buttons)
    return set(CARD_LABEL.findall(text))


def table_cards(view: ClassicTableView) -> set[Card]:
    laid = {lay.card for lay in view.laid if lay.card is not None}
    public = (*view.shown, *view.redeal_hand, *view.taken, *view.last_trick, *view.trick)
    return laid | {getattr(item, "card", item) for item in public}  # type: ignore[misc]


def seat_cards(view: ClassicSeatView) -> set[Card]:
    own = {*view.hand, *view.pair}
    if view.laid is not None:
        own.add(view.laid)
    if view.exchange is not None:
        own |= {view.exchange.given, view.exchange.got}
    return own | table_cards(view.table)


def check_screens(game: Game, play: ClassicGame, tr: Translator, locale: str) -> None:
    """Every hand and the table: right buttons for the right seat, nothing hidden."""
    dealing = play.current
    assert dealing is not None
    table = cp.table(game, tr, locale, now=0.0)
    assert plays(table, 0) == []
    assert labels(table) <= {card_label(c, locale) for c in table_cards(dealing.table_view())}
    for seat in range(4):
        view = dealing.view(seat)
        screen = cp.hand(game, seat, 0, tr, locale)
        assert labels(screen) <= {card_label(c, locale) for c in seat_cards(view)}, (
            seat,
            screen.text,
        )
        pressed = plays(screen, seat)
        legal = play.legal_actions(seat)
        assert len(set(pressed)) == len(pressed)
        numbered = [cp.console_action(game, seat, str(n)) for n in range(1, len(pressed) + 1)]
        assert set(numbered) == set(pressed)  # the terminal offers what the buttons do
        if view.table.phase is Phase.CUT and legal:
            assert pressed and set(pressed) <= set(legal) and len(pressed) <= cp.CUT_CHOICES + 1
        elif game.status is GameStatus.PLAYING:
            assert set(pressed) == set(legal), (seat, view.table.phase)
        for button in screen.buttons:
            if button.token is None:  # an inactive card: not one the seat may play
                shown = [c for c in view.hand if f"({card_label(c, locale)})" == button.label]
                assert len(shown) == 1
                assert all(a.card != shown[0] for a in legal)


def random_options(rng: random.Random) -> ClassicOptions:
    return ClassicOptions.from_json(
        {
            "praise": rng.choice(["simple", "pants", "mirror", "choose"]),
            "kocherga": rng.random() < 0.7,
            "trump_roulette": rng.random() < 0.7,
            "ace_ban": rng.random() < 0.5,
            "last_trump": rng.random() < 0.8,
            "redeal": rng.random() < 0.8,
            "trump_suit": rng.choice([None, None, None, "C", "S", "H", "D"]),
            "follow": rng.choice(["suit_first", "any_trump"]),
            "trump_lead": rng.choice(["declarer", "team"]),
        }
    )


def random_states(seed: int, steps: int) -> Iterator[tuple[ClassicGame, list[Any]]]:
    """The states of a random game with random options, one legal action apart, and
    the events that led to each (offers and redeals, the rare moves, are taken more
    often than by chance)."""
    rng = random.Random(seed)
    play = ClassicGame(random_options(rng), first_dealer=rng.randrange(4))
    events: list[Any] = []
    for _ in range(steps):
        if play.is_over:
            yield play, events
            return
        current = play.current
        if current is None or current.is_over:
            events += play.deal(rng)
        yield play, events
        legal = play.legal_actions()
        rare = [a for a in legal if a.kind is not ClassicActionKind.PLAY]
        events = play.apply(rng.choice(rare if rare and rng.random() < 0.3 else legal))


@pytest.mark.parametrize("seed", range(12))
def test_random_games_buttons_and_hidden_cards(tr: Translator, seed: int) -> None:
    phases: set[Phase] = set()
    for play, _ in random_states(seed, 160):
        game = table_of(play)
        check_screens(game, play, tr, LANGUAGES[seed % 2])
        assert play.current is not None
        phases.add(play.current.phase)
    assert Phase.PLAY in phases


def test_every_decision_kind_is_met_in_random_games(tr: Translator) -> None:
    """The walks above meet every kind of decision (a seeded search, stable)."""
    kinds: set[ClassicActionKind] = set()
    for seed in range(200):
        for play, _ in random_states(seed, 60):
            kinds |= {action.kind for action in play.legal_actions()}
        if kinds == set(ClassicActionKind):
            break
    assert kinds == set(ClassicActionKind)


# --- Hand-built positions ---------------------------------------------------------------


def later_game(options: ClassicOptions, deck: list[Card], dealer: int = 3) -> ClassicGame:
    """A game whose first deal is over, now at its second deal (with a praise decision)."""
    play = ClassicGame(options, first_dealer=dealer)
    play.deal_from(plain_deck({}, dealer), dealer)
    dealing = play.current
    assert dealing is not None
    while not dealing.is_over:
        play.apply(play.legal_actions()[0])
    play.deal_from(deck)
    return play


def hand_actions(game: Game, seat: int, tr: Translator) -> list[ClassicAction]:
    return plays(cp.hand(game, seat, 0, tr, "ru"), seat)


def test_the_praise_decision_reaches_only_the_player_after_the_dealer(tr: Translator) -> None:
    play = later_game(opts(praise="choose"), ends_deck(""))
    chooser = play.current.turn  # type: ignore[union-attr]
    game = table_of(play)
    assert chooser is not None
    actions = hand_actions(game, chooser, tr)
    assert {a.kind for a in actions} == {ClassicActionKind.DEAL, ClassicActionKind.PRAISE}
    assert {a.praise for a in actions if a.praise} == {Praise.SIMPLE, Praise.PANTS, Praise.MIRROR}
    for seat in set(range(4)) - {chooser}:
        assert hand_actions(game, seat, tr) == []
    text = cp.hand(game, chooser, 0, tr, "en").text
    assert "deal" in text and "Praise" not in text  # the prompt; the kinds are buttons
    labels_ = [b.label for b in cp.hand(game, chooser, 0, tr, "en").buttons]
    assert labels_ == ["Deal", "📣 Praise: simple", "📣 Praise: pants", "📣 Praise: mirror"]
    table = cp.table(game, tr, "en", now=0.0).text
    assert "decides: deal or praise" in table and NAMES[chooser] in table


def test_a_single_praise_kind_is_one_button(tr: Translator) -> None:
    play = later_game(opts(praise="mirror"), ends_deck(""))
    chooser = play.current.turn  # type: ignore[union-attr]
    assert chooser is not None
    game = table_of(play)
    labels_ = [b.label for b in cp.hand(game, chooser, 0, tr, "en").buttons]
    assert labels_ == ["Deal", "📣 Praise"]


def test_mirror_cuts_are_a_few_legal_positions_and_anywhere(tr: Translator) -> None:
    play = later_game(opts(praise="mirror"), ends_deck(""))
    chooser = play.current.turn  # type: ignore[union-attr]
    assert chooser is not None
    play.apply(ClassicAction.praise_with(chooser, Praise.MIRROR))
    game = table_of(play)
    assert play.current is not None and play.current.phase is Phase.CUT
    screen = cp.hand(game, chooser, 0, tr, "en")
    actions = plays(screen, chooser)
    legal = set(play.legal_actions(chooser))
    assert set(actions) <= legal and len(actions) == 6
    assert [b.label for b in screen.buttons][-1] == "✂ Anywhere"
    assert {a.at for a in actions[:5]} == {1, 9, 16, 23, 31}  # 31 legal cuts of 32 cards
    assert "Your turn to cut" not in screen.text and "how many cards" in screen.text
    for seat in set(range(4)) - {chooser}:
        assert hand_actions(game, seat, tr) == []
    assert "cuts the deck" in cp.table(game, tr, "en", now=0.0).text


def test_naming_the_trump_offers_four_suits_and_no_trump(tr: Translator) -> None:
    # Seat 0 praises pants: 8 permanent trumps at the ends keep everybody's draws short.
    play = later_game(opts(praise="pants"), ends_deck("7S", "8S"))
    chooser = play.current.turn  # type: ignore[union-attr]
    assert chooser is not None
    play.apply(ClassicAction.praise_with(chooser))
    guard = 0
    while play.current is not None and play.current.phase is Phase.LAY and guard < 8:
        seat = play.current.turn
        assert seat is not None
        game = table_of(play)
        lays = hand_actions(game, seat, tr)
        assert {a.kind for a in lays} == {ClassicActionKind.LAY} and len(lays) == 2
        assert "Lay " in cp.hand(game, seat, 0, tr, "en").buttons[0].label
        play.apply(lays[0])
        guard += 1
    assert play.current is not None and play.current.phase is Phase.NAME
    declarer = play.current.turn
    assert declarer == chooser
    game = table_of(play)
    actions = hand_actions(game, declarer, tr)
    assert [a.suit for a in actions] == [None, *Suit] or {a.suit for a in actions} == {None, *Suit}
    assert len(actions) == 5
    labels_ = {b.label for b in cp.hand(game, declarer, 0, tr, "ru").buttons}
    assert {"Бескозырка", "♣ трефы", "♠ пики", "♥ черви", "♦ бубны"} == labels_
    # The pants declarer's laid card is face down for everybody else.
    table = cp.table(game, tr, "ru", now=0.0).text
    assert "🂠" in table
    own = play.current.view(declarer).laid
    assert own is not None and card_label(own, "ru") in cp.hand(game, declarer, 0, tr, "ru").text


def test_the_last_trump_offer_and_the_answer(tr: Translator) -> None:
    # Seat 0 holds one trump (Q♠); his partner, seat 2, has plain cards to give back.
    hands = {0: "QS 7H 8H 9H 7D 8D 9D KD", 2: "AS TS KS 9S 8S 7S AH TH"}
    play = ClassicGame(opts(trump_roulette=False), first_dealer=3)
    play.deal_from(plain_deck(hands, 3), 3)
    game = table_of(play)
    offer = ClassicAction.offer_trump(0)
    assert offer in hand_actions(game, 0, tr)
    assert offer not in hand_actions(game, 1, tr)
    assert "🎁" in " ".join(b.label for b in cp.hand(game, 0, 0, tr, "en").buttons)
    play.apply(offer)
    game = table_of(play)
    answer = hand_actions(game, 2, tr)
    assert ClassicAction.decline_trump(2) in answer
    accepts = [a for a in answer if a.kind is ClassicActionKind.ACCEPT_TRUMP]
    assert {a.card for a in accepts} == set(play.current.hand(2))  # type: ignore[union-attr]
    for seat in (0, 1, 3):
        assert hand_actions(game, seat, tr) == []
    assert "offers the last trump" in cp.table(game, tr, "en", now=0.0).text
    given = Card.parse("AS")
    play.apply(ClassicAction.accept_trump(2, given))
    game = table_of(play)
    table = cp.table(game, tr, "en", now=0.0).text
    assert "gave the last trump" in table and "faces hidden" in table
    assert card_label(given, "en") not in table and "Q♠" not in table
    assert f"You gave {card_label(given, 'en')} and got Q♠" in cp.hand(game, 2, 0, tr, "en").text
    assert "You gave Q♠ and got A♠" in cp.hand(game, 0, 0, tr, "en").text
    for seat in (1, 3):
        text = cp.hand(game, seat, 0, tr, "en").text
        assert "A♠" not in text and "Q♠" not in text


def test_a_redeal_request_shows_the_askers_hand(tr: Translator) -> None:
    play = ClassicGame(opts(), first_dealer=3)
    play.deal_from(plain_deck({1: LOW_HAND}, 3), 3)
    game = table_of(play)
    redeal = ClassicAction.redeal(1)
    assert redeal in hand_actions(game, 1, tr)
    assert all(
        a.kind is not ClassicActionKind.REDEAL for s in (0, 2, 3) for a in hand_actions(game, s, tr)
    )
    play.apply(redeal)
    game = table_of(play)
    table = cp.table(game, tr, "en", now=0.0).text
    shown = " ".join(card_label(Card.parse(code), "en") for code in LOW_HAND.split())
    assert "asks for a redeal" in table and shown in table
    assert "a redeal. The same dealer deals again" in table
    screen = cp.PRESENTER.deal_result(game, 0, tr, "en")
    assert screen is not None and "a redeal" in screen.text


def test_inactive_cards_cannot_be_pressed(tr: Translator) -> None:
    # No trump suit; seat 0 holds J♣, so he leads: A♥. Seat 1 must follow with his heart.
    hands = {0: "AH JC 7S 8S 9S 7D 8D 9D", 1: "7H AS TS KS 8C 9C TC AC"}
    play = ClassicGame(opts(trump_roulette=False), first_dealer=3)
    play.deal_from(plain_deck(hands, 3), 3)
    leader = play.current.turn  # type: ignore[union-attr]
    assert leader == 0
    play.apply(ClassicAction.play(0, Card.parse("AH")))
    game = table_of(play)
    screen = cp.hand(game, 1, 0, tr, "en")
    assert plays(screen, 1) == [ClassicAction.play(1, Card.parse("7H"))]
    inactive = [b for b in screen.buttons if b.token is None]
    assert len(inactive) == 7 and all(b.label.startswith("(") for b in inactive)
    assert "A♥" in screen.text and "👑" in screen.text
    waiting = cp.hand(game, 2, 0, tr, "en")
    assert all(b.token is None for b in waiting.buttons) and "Not your turn" in waiting.text


# --- Results and options --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("title", "ru", "en"),
    [
        (ClassicTitle.GOATS, "Козлы", "goats"),
        (ClassicTitle.GOATS_WITH_EGGS, "с яйцами", "with eggs"),
        (ClassicTitle.GOATS_WITH_TAILS, "с хвостами", "with tails"),
        (ClassicTitle.GOATS_WITH_EGGS_AND_TAILS, "с яйцами и хвостами", "with eggs and tails"),
    ],
)
def test_game_result_titles(tr: Translator, title: ClassicTitle, ru: str, en: str) -> None:
    game = table_of(ClassicGame(), GameStatus.FINISHED)
    result = ClassicGameResult(Team.B, Team.A, title, (2, 7), 9, 1)
    for locale, word in (("ru", ru), ("en", en)):
        screen = cp.game_result(game, result, tr, locale)
        assert word in screen.text and NAMES[0] in screen.text and NAMES[1] in screen.text
        assert [decode(b.token or "").verb for b in screen.buttons] == [Verb.REMATCH]


def test_options_in_words(tr: Translator) -> None:
    assert cp.option_words(ClassicOptions(), tr, "en") == []
    assert cp.options_line(ClassicOptions(), tr, "ru") == "Правила 003: Геймсберг"
    every = ClassicOptions.from_json(
        {
            "praise": "choose",
            "kocherga": False,
            "trump_roulette": False,
            "ace_ban": False,
            "last_trump": False,
            "redeal": False,
            "trump_suit": "D",
            "follow": "any_trump",
            "trump_lead": "team",
        }
    )
    for locale in LANGUAGES:
        words = cp.option_words(every, tr, locale)
        assert len(words) == 9 and all(not w.startswith("classic-") for w in words)
    assert "козырь: ♦ бубны" in cp.options_line(every, tr, "ru")
    game = table_of(ClassicGame(every), GameStatus.LOBBY)
    assert cp.PRESENTER.option_lines(game, tr, "en")[0].startswith("Rules 003: Gamesberg, but: ")


def test_a_played_deal_result_and_the_table_after_it(tr: Translator) -> None:
    # Seat 0 (team A) holds eight permanent trumps and leads: Люся for team B.
    play = ClassicGame(opts(), first_dealer=3)
    play.deal_from(plain_deck({0: "7C QC QS QH QD JC JS JH"}, 3), 3)
    dealing = play.current
    assert dealing is not None
    while not dealing.is_over:
        play.apply(play.legal_actions(dealing.turn)[0])
    game = table_of(play)
    screen = cp.PRESENTER.deal_result(game, 0, tr, "ru")
    assert screen is not None
    assert "Люся" in screen.text and "Команда A получает 2 пары" in screen.text
    assert "Пары: A 2 · B 0 (до 6)" in screen.text
    table = cp.table(game, tr, "ru", now=0.0).text
    assert "Люся" in table and "Пары: A 2 · B 0" in table
    assert cp.PRESENTER.game_result(game, tr, "ru") is None


def test_the_hand_content_of_a_waiting_seat_ignores_other_plays(tr: Translator) -> None:
    hands = {0: "AH JC 7S 8S 9S 7D 8D 9D", 1: "7H AS TS KS 8C 9C TC AC"}
    play = ClassicGame(opts(trump_roulette=False, last_trump=False, redeal=False), first_dealer=3)
    play.deal_from(plain_deck(hands, 3), 3)
    game = table_of(play)
    before = cp.hand_content(game, 3)
    play.apply(ClassicAction.play(0, Card.parse("AH")))
    assert cp.hand_content(game, 3) == before  # seat 3 waits: nothing of his changed
    assert cp.hand_content(game, 1) != before
    hash(cp.hand_content(game, 1))


def test_event_lines_name_only_the_events_own_cards(tr: Translator) -> None:
    """Events are public; a line shows no card but the event's own, in words."""
    seen = 0
    for seed in range(4):
        for play, events in random_states(seed, 80):
            game = table_of(play)
            for event in events:
                for locale in LANGUAGES:
                    for viewer in (None, 0):
                        line = cp.event_line(game, event, tr, locale, viewer=viewer)
                        if line is None:
                            continue
                        seen += 1
                        assert "classic-" not in line and "{" not in line
                        assert set(CARD_LABEL.findall(line)) <= _event_cards(event, locale)
    assert seen > 100


def _event_cards(event: object, locale: str) -> set[str]:
    cards = getattr(event, "cards", None) or getattr(event, "hand", None) or ()
    card = getattr(event, "card", None)
    return {card_label(c, locale) for c in (*cards, *([card] if card else []))}


@pytest.mark.parametrize("seed", range(3))
def test_a_whole_random_game_ends_with_its_goats(tr: Translator, seed: int) -> None:
    states = [play for play, _ in random_states(seed, 5000)]
    last = states[-1]
    assert last.result is not None
    game = table_of(last, GameStatus.FINISHED)
    result = cp.PRESENTER.game_result(game, tr, "ru")
    assert result is not None and "🐐" in result.text
    table = cp.table(game, tr, "ru", now=0.0)
    assert "🐐" in table.text.split("\n", 1)[1] and table.rows == ()
    check_screens(game, last, tr, "en")
    for seat in range(4):
        assert "Раздача окончена" in cp.hand(game, seat, 0, tr, "ru").text


def test_the_terminal_numbers_the_choices(tr: Translator) -> None:
    play = later_game(opts(praise="choose"), ends_deck(""))
    chooser = play.current.turn  # type: ignore[union-attr]
    assert chooser is not None
    game = table_of(play)
    lines = cp.console_hand(game, chooser, tr, "en")
    assert lines[-1] == (
        "You may: 1) Deal  2) 📣 Praise: simple  3) 📣 Praise: pants  4) 📣 Praise: mirror"
    )
    assert cp.console_action(game, chooser, " 3 ") == ClassicAction.praise_with(
        chooser, Praise.PANTS
    )
    for line, complaint in (
        ("5", "classic-console-no-such-choice"),
        ("x", "console-not-understood"),
    ):
        with pytest.raises(ValueError) as error:
            cp.console_action(game, chooser, line)
        assert error.value.args[0] == complaint and tr.has(complaint)
    waiting = (chooser + 1) % 4
    assert not any("You may" in line for line in cp.console_hand(game, waiting, tr, "en"))
    a, b = play.pairs
    summary = f"Конов: 2. Пары: команда A {a}, команда B {b}."
    assert cp.console_summary(game, tr, "ru") == summary


def test_a_classic_table_is_drawn_by_the_classic_presenter(tr: Translator) -> None:
    from bot import presenters

    play = ClassicGame(opts(), first_dealer=3)
    play.deal_from(plain_deck({}, 3), 3)
    game = table_of(play)
    assert presenters.presenter_of(game) is cp.PRESENTER
    assert presenters.table(game, tr, "en", 0.0).text == cp.table(game, tr, "en", 0.0).text
    seat = play.current.turn  # type: ignore[union-attr]
    assert seat is not None
    assert presenters.hand(game, seat, 0, tr, "en") == cp.hand(game, seat, 0, tr, "en")
    assert presenters.hand_content(game, seat) == cp.hand_content(game, seat)
    assert presenters.is_hand([b.token for b in cp.hand(game, seat, 0, tr, "en").buttons], GAME_ID)


def test_a_decision_shows_its_time_left_on_the_table(tr: Translator) -> None:
    """The turn timer runs on every decision, and the table says how long is left, as
    it does for a card to play."""
    play = later_game(opts(praise="choose"), ends_deck(""))
    chooser = play.current.turn  # type: ignore[union-attr]
    assert chooser is not None
    game = table_of(play)
    game.turn_deadline = 1_000.0
    assert game.settings.turn_timeout > 0
    text = cp.table(game, tr, "en", now=1_000.0 - 90).text
    assert f"⏳ {NAMES[chooser]} decides: deal or praise, 1 min 30 s left" in text
    assert "осталось" in cp.table(game, tr, "ru", now=1_000.0 - 90).text
    late = cp.table(game, tr, "en", now=1_000.0 + 1).text
    assert f"Waiting for {NAMES[chooser]}" in late
    game.settings = TableSettings(
        rule_set="classic", options=play.options.to_json(), turn_timeout=0
    )
    untimed = cp.table(game, tr, "en", now=1_000.0 - 90).text
    assert "left" not in untimed and "decides: deal or praise" in untimed
