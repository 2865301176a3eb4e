"""Presenters: screens from core views, with buttons that carry valid tokens."""

from __future__ import annotations

import random
import re
from itertools import combinations

import pytest

from bot import presenters as p
from bot.codec import MAX_TOKEN_BYTES, Command, Verb, decode
from bot.errors import ErrorCode
from bot.i18n import Translator
from bot.models import (
    TURN_TIMEOUTS,
    ChatRef,
    Game,
    GameStatus,
    Platform,
    Seat,
    SeatKind,
    TableSettings,
    UserRef,
)
from bot.ports import LeaderboardRow, UserStats
from bot.presenters.yard import parse_action_arg
from core.cards import CARDS, Card, Rank
from core.errors import Reason
from core.seats import Team
from core.yard.actions import Action, ActionKind
from core.yard.deal import HAND_SIZE
from core.yard.errors import YardReason
from core.yard.events import CardsDiscarded, DealResult, MolodkaDeclared, SeriesResult, Title

LANGUAGES = ("ru", "en")
NAMES = ("Вася", "Петя", "Маша", "Коля")
USERS = tuple(UserRef(Platform.TELEGRAM, str(100 + i)) for i in range(4))
# Large ids and versions: the tokens must still fit.
GAME_ID = 36**7
VERSION = 36**5


@pytest.fixture(scope="module")
def tr() -> Translator:
    return Translator.from_dir()


def c(code: str) -> Card:
    return Card.parse(code)


def make_game(seated: int = 4, status: GameStatus = GameStatus.PLAYING) -> Game:
    game = Game(
        id=GAME_ID,
        chat=ChatRef(Platform.TELEGRAM, "-100123"),
        creator=USERS[0],
        status=status,
        version=VERSION,
    )
    game.seats = [
        Seat(SeatKind.HUMAN, NAMES[i], USERS[i]) if i < seated else None for i in range(4)
    ]
    return game


def dealt_game(deck: list[Card] | None = None, trump_index: int = 10, seed: int = 1) -> Game:
    game = make_game()
    if deck is None:
        deck = list(CARDS)
        random.Random(seed).shuffle(deck)
    game.play.series.deal_from(deck, trump_index, dealer=3)
    return game


def check_tokens(screen: p.Screen) -> list[Command]:
    """Every button's token decodes and fits; rows respect the platforms' limits."""
    assert len(screen.rows) <= p.MAX_ROWS
    commands = []
    for row in screen.rows:
        assert 1 <= len(row) <= p.MAX_ROW
        for button in row:
            assert button.label and len(button.label) <= 80
            assert (button.token is None) != (button.url is None)
            if button.token is not None:
                assert len(button.token.encode()) <= MAX_TOKEN_BYTES
                command = decode(button.token)
                assert (command.game_id, command.version) == (GAME_ID, VERSION)
                commands.append(command)
    return commands


def plays(screen: p.Screen, seat: int) -> dict[Action, p.Button]:
    """The PLAY buttons of a seat's hand screen, by the action they name."""
    out = {}
    for button in screen.buttons:
        command = decode(button.token or "")
        if command.verb is Verb.PLAY:
            out[parse_action_arg(seat, command.arg)] = button
    return out


# --- Cards and selections -------------------------------------------------------------


def test_card_labels() -> None:
    assert p.card_label(c("TH"), "en") == "10♥"
    assert p.card_label(c("QC"), "en") == "Q♣"
    assert p.card_label(c("AS"), "en") == "A♠"
    assert p.card_label(c("6D"), "en") == "6♦"
    assert p.cards_label([c("JH"), c("TS")], "en") == "J♥ 10♠"
    assert p.backs_label(3) == "🂠 🂠 🂠"


def test_cards_in_russian_texts_read_v_d_k_t() -> None:
    """Валет, дама, король, туз: В, Д, К, Т where the reader's language is Russian;
    the Latin J, Q, K, A in English."""
    hand = [c(code) for code in ("JH", "QC", "KS", "AD", "TH", "7C")]
    assert p.cards_label(hand, "ru") == "В♥ Д♣ К♠ Т♦ 10♥ 7♣"
    assert p.cards_label(hand, "en") == "J♥ Q♣ K♠ A♦ 10♥ 7♣"
    assert p.card_label(c("KS"), "ru") == "К♠" and p.card_label(c("KS"), "en") == "K♠"


def test_card_labels_of_every_card() -> None:
    for locale in ("en", "ru"):
        labels = [p.card_label(card, locale) for card in CARDS]
        assert len(set(labels)) == len(CARDS)
        assert p.cards_label(CARDS, locale) == " ".join(labels)
        assert p.cards_label([], locale) == ""
    for card in CARDS:
        latin = ("10" if card.rank is Rank.TEN else card.rank.letter) + card.suit.symbol
        assert p.card_label(card, "en") == latin


def test_selection_round_trip() -> None:
    hand = (c("AH"), c("6C"), c("KH"), c("TD"))
    for size in range(5):
        for chosen in combinations(hand, size):
            selection = p.selection_of(hand, chosen)
            assert set(p.selection_cards(hand, selection)) == set(chosen)
    assert p.selection_cards(hand, 1 << 4) == ()
    assert p.selection_cards(hand, -1) == ()
    assert p.parse_selection("b") == 11 and p.parse_selection("zz") == 0


# --- Lobby ------------------------------------------------------------------------------


@pytest.mark.parametrize("locale", LANGUAGES)
def test_lobby_buttons(tr: Translator, locale: str) -> None:
    game = make_game(seated=1, status=GameStatus.LOBBY)
    game.seats[2] = Seat(SeatKind.COMPUTER, tr.t(locale, "bot-name-1"))
    screen = p.lobby(game, tr, locale)
    commands = check_tokens(screen)
    verbs = [(cmd.verb, cmd.arg) for cmd in commands]
    assert (Verb.JOIN, "B") in verbs and (Verb.JOIN, "A") not in verbs  # team A is full
    assert (Verb.ADD_COMPUTER, "B") in verbs and (Verb.ADD_COMPUTER, "A") not in verbs
    assert (Verb.LEAVE, "") in verbs
    assert (Verb.REMOVE_COMPUTER, "2") in verbs
    assert (Verb.CANCEL_ASK, "") in verbs
    assert (Verb.START, "") not in verbs  # not full yet
    assert (Verb.SETTING, "t300") in verbs  # 120 -> 300
    assert (Verb.SETTING, "len") in verbs  # ru -> en
    assert (Verb.SETTING, "ceasy") in verbs  # strong -> easy
    assert tr.t(locale, "level-strong") in screen.text  # the computers' strength
    assert NAMES[0] in screen.text and tr.t(locale, "bot-name-1") in screen.text
    assert tr.t(locale, "team-a") in screen.text and tr.t(locale, "team-b") in screen.text
    free = tr.t(locale, "lobby-seat-empty")
    team_b = tr.t(locale, "lobby-team", team=tr.t(locale, "team-b"), first=free, second=free)
    assert team_b in screen.text


def test_lobby_full_table_can_start_and_settings_cycle(tr: Translator) -> None:
    game = make_game(status=GameStatus.LOBBY)
    game.settings = TableSettings(turn_timeout=TURN_TIMEOUTS[-1], locale="en")
    commands = check_tokens(p.lobby(game, tr, "ru"))
    verbs = [(cmd.verb, cmd.arg) for cmd in commands]
    assert (Verb.START, "") in verbs
    assert not any(verb in (Verb.JOIN, Verb.ADD_COMPUTER) for verb, _ in verbs)
    assert (Verb.SETTING, f"t{TURN_TIMEOUTS[0]}") in verbs  # wraps around to "no limit"
    assert (Verb.SETTING, "lru") in verbs
    game.settings = TableSettings(turn_timeout=0)
    assert tr.t("ru", "timeout-none") in p.lobby(game, tr, "ru").text


def test_lobby_of_a_cancelled_game_has_no_buttons(tr: Translator) -> None:
    game = make_game(status=GameStatus.CANCELLED)
    screen = p.lobby(game, tr, "ru")
    assert screen.rows == () and tr.t("ru", "table-cancelled") in screen.text


@pytest.mark.parametrize("locale", LANGUAGES)
def test_cancel_confirm(tr: Translator, locale: str) -> None:
    verbs = [cmd.verb for cmd in check_tokens(p.cancel_confirm(make_game(), tr, locale))]
    assert verbs == [Verb.CANCEL, Verb.REFRESH]


# --- The table never shows a hidden card ------------------------------------------------


def hidden_labels(game: Game, locale: str) -> set[str]:
    """Labels of every card in any hand, except the trump card everybody saw, as a
    reader of ``locale`` sees them."""
    deal = game.play.series.current
    assert deal is not None
    return {
        p.card_label(card, locale)
        for seat in range(4)
        for card in deal.hand(seat)
        if card != deal.trump_card
    }


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("locale", LANGUAGES)
def test_table_never_shows_discards_or_hands(tr: Translator, locale: str, seed: int) -> None:
    game = dealt_game(seed=seed)
    deal = game.play.series.current
    assert deal is not None
    discarded: set[str] = set()
    for _ in range(3 * 4):  # three whole tricks; the trump card stays in the stock
        seat = deal.turn
        assert seat is not None
        legal = deal.legal_actions(seat)
        leads = [a for a in legal if a.kind is ActionKind.LEAD]
        discards = [a for a in legal if a.kind is ActionKind.DISCARD]
        action = leads[0] if leads else discards[-1]
        if action.kind is ActionKind.DISCARD:
            discarded.update(p.card_label(card, locale) for card in action.cards)
        game.play.series.apply(action)
        screen = p.table(game, tr, locale, now=0.0, with_hand_button=True)
        check_tokens(screen)
        shown = [label for label in discarded | hidden_labels(game, locale) if label in screen.text]
        assert shown == [], screen.text
        if deal.table_view().plays and action.kind is not ActionKind.LEAD:
            assert p.CARD_BACK in screen.text
    assert discarded


@pytest.mark.parametrize("locale", LANGUAGES)
def test_table_shows_the_trick_turn_and_time(tr: Translator, locale: str) -> None:
    game = dealt_game()
    deal = game.play.series.current
    assert deal is not None
    lead = next(a for a in deal.legal_actions(0) if a.kind is ActionKind.LEAD)
    game.play.series.apply(lead)
    game.turn_deadline = 1000.0
    game.seats[3] = game.seats[3].with_(away=True)  # type: ignore[union-attr]
    screen = p.table(game, tr, locale, now=910.0, with_hand_button=True)
    text = screen.text
    assert p.cards_label(lead.cards, locale) in text and p.WINNING_MARK in text
    assert tr.t(locale, "table-turn-time", name=NAMES[1], time=p.duration(90, tr, locale)) in text
    assert tr.t(locale, "table-away", names=NAMES[3]) in text
    assert tr.t(locale, "table-stock", count=20) in text
    assert p.card_label(deal.trump_card, locale) in text
    assert tr.t(locale, "table-title", rules=p.rules_name("yard", tr, locale), number=1) in text
    assert [cmd.verb for cmd in check_tokens(screen)] == [Verb.SHOW_HAND]
    assert p.table(game, tr, locale, now=910.0).rows == ()
    late = p.table(game, tr, locale, now=2000.0).text
    assert tr.t(locale, "table-waiting", name=NAMES[1]) in late


def test_table_before_the_first_deal(tr: Translator) -> None:
    screen = p.table(make_game(status=GameStatus.LOBBY), tr, "ru", now=0.0)
    assert tr.t("ru", "table-no-deal") in screen.text and screen.rows == ()


def play_out(game: Game, rng: random.Random) -> list[DealResult]:
    """Random legal play to the end of the series; the results of every deal."""
    results = []
    while not game.play.series.is_over:
        deal = game.play.series.current
        if deal is None or deal.is_over:
            game.play.series.deal(rng)
            continue
        game.play.series.apply(rng.choice(deal.legal_actions(deal.turn)))
        if deal.result is not None:
            results.append(deal.result)
    return results


@pytest.mark.parametrize("locale", LANGUAGES)
def test_series_over_on_the_table_and_the_result(tr: Translator, locale: str) -> None:
    game = make_game()
    results = play_out(game, random.Random(7))
    result = game.play.series.result
    assert result is not None
    text = p.table(game, tr, locale, now=0.0, with_hand_button=True).text
    assert tr.t(locale, "table-series-over") in text
    screen = p.series_result(game, result, tr, locale)
    losers = tr.t(
        locale,
        "names-pair",
        first=NAMES[result.loser.seats[0]],
        second=NAMES[result.loser.seats[1]],
    )
    title = "result-goats-eggs" if result.title is Title.GOATS_WITH_EGGS else "result-goats"
    assert tr.t(locale, title, names=losers) in screen.text
    assert [cmd.verb for cmd in check_tokens(screen)] == [Verb.REMATCH]
    deal_screen = p.deal_result(game, 0, results[0], tr, locale)
    assert tr.t(locale, "result-deal-title", number=1) in deal_screen.text
    assert deal_screen.rows == ()


@pytest.mark.parametrize("locale", LANGUAGES)
def test_goats_with_eggs_and_an_eggs_deal(tr: Translator, locale: str) -> None:
    game = make_game()
    eggs = DealResult((60, 60), (4, 5), (0, 0), True, None, 1)
    text = p.deal_result(game, 2, eggs, tr, locale).text
    assert tr.t(locale, "result-deal-eggs") in text
    assert tr.t(locale, "result-deal-title", number=3) in text
    lost = DealResult((20, 100), (1, 8), (4, 0), False, Team.B, 1)
    text = p.deal_result(game, 0, lost, tr, locale).text
    assert tr.t(locale, "result-deal-loss", team=tr.t(locale, "team-a"), loss=4) in text
    series = SeriesResult(Team.B, Title.GOATS_WITH_EGGS, (6, 12), 5, 1)
    text = p.series_result(game, series, tr, locale).text
    names = tr.t(locale, "names-pair", first=NAMES[1], second=NAMES[3])
    assert tr.t(locale, "result-goats-eggs", names=names) in text


# --- A player's hand ----------------------------------------------------------------------


@pytest.mark.parametrize("locale", LANGUAGES)
def test_hand_shows_exactly_the_seats_cards(tr: Translator, locale: str) -> None:
    game = dealt_game()
    deal = game.play.series.current
    assert deal is not None
    for seat in range(4):
        screen = p.hand(game, seat, 0, tr, locale)
        check_tokens(screen)
        own = {p.card_label(card, locale) for card in deal.hand(seat)}
        others = hidden_labels(game, locale) - own
        assert all(label in screen.text for label in own)
        assert [label for label in others if label in screen.text] == []
        card_buttons = [b for b in screen.buttons if decode(b.token or "").verb is Verb.SELECT]
        assert sorted(b.label for b in card_buttons) == sorted(own)


def all_selections(game: Game, seat: int) -> range:
    deal = game.play.series.current
    assert deal is not None
    return range(1 << len(deal.hand(seat)))


@pytest.mark.parametrize("seed", range(4))
def test_hand_offers_only_legal_actions_and_every_one(tr: Translator, seed: int) -> None:
    game = dealt_game(seed=seed)
    deal = game.play.series.current
    assert deal is not None
    rng = random.Random(seed)
    for _ in range(6):
        for seat in range(4):
            legal = set(deal.legal_actions(seat))
            hand = p.sorted_hand(deal.hand(seat))
            offered: set[Action] = set()
            for selection in all_selections(game, seat):
                screen = p.hand(game, seat, selection, tr, "ru")
                check_tokens(screen)
                actions = set(plays(screen, seat))
                assert actions <= legal
                chosen = set(p.selection_cards(hand, selection))
                for action in actions:
                    if action.kind is ActionKind.MOLODKA:
                        continue
                    if chosen:
                        assert set(action.cards) == chosen
                    else:  # nothing selected: the one-card moves, for the seat to act
                        assert len(action.cards) == 1 and seat == deal.turn
                if not chosen and seat == deal.turn:
                    singles = {
                        a for a in legal if len(a.cards) == 1 and a.kind is not ActionKind.MOLODKA
                    }
                    assert singles <= actions
                offered |= actions
            assert offered == legal
        turn = deal.turn
        assert turn is not None
        game.play.series.apply(rng.choice(deal.legal_actions(turn)))


def test_selecting_a_lead_offers_it(tr: Translator) -> None:
    game = dealt_game()
    deal = game.play.series.current
    assert deal is not None
    hand = p.sorted_hand(deal.hand(0))
    card = hand[2]
    screen = p.hand(game, 0, 0, tr, "ru")
    select = next(b for b in screen.buttons if b.label == p.card_label(card, "ru"))
    command = decode(select.token or "")
    assert command.verb is Verb.SELECT
    selection = int(command.arg, 16)
    assert p.selection_cards(hand, selection) == (card,)

    screen = p.hand(game, 0, selection, tr, "ru")
    assert f"{p.SELECTED_MARK} {p.card_label(card, 'ru')}" in [b.label for b in screen.buttons]
    offered = plays(screen, 0)
    assert Action.lead(0, card) in offered
    assert offered[Action.lead(0, card)].label == tr.t(
        "ru", "hand-lead", cards=p.card_label(card, "ru")
    )
    clear = [decode(b.token or "") for b in screen.buttons if b.label == tr.t("ru", "hand-clear")]
    assert [(cmd.verb, cmd.arg) for cmd in clear] == [(Verb.REFRESH, "")]
    tokens = [b.token for b in screen.buttons if b.token]
    assert len(tokens) == len(set(tokens)), "every button of a screen has its own token"
    # Pressing the selected card again unselects it.
    again = next(b for b in screen.buttons if b.label.endswith(p.card_label(card, "ru")))
    assert decode(again.token or "").arg == "0"


def test_selection_beyond_the_hand_is_empty(tr: Translator) -> None:
    game = dealt_game()
    screen = p.hand(game, 0, 1 << HAND_SIZE, tr, "ru")
    assert not any(p.SELECTED_MARK in b.label for b in screen.buttons)
    assert tr.t("ru", "hand-clear") not in [b.label for b in screen.buttons]


def test_not_your_turn(tr: Translator) -> None:
    game = dealt_game()
    text = p.hand(game, 2, 0, tr, "en").text
    assert tr.t("en", "hand-wait") in text
    assert tr.t("en", "hand-your-turn-lead") in p.hand(game, 0, 0, tr, "en").text


def test_a_waiting_hand_shows_only_what_is_his(tr: Translator) -> None:
    """A card played elsewhere changes the table, not a waiting seat's hand: it names
    no player, shows no trick, stock or tricks; only the seat to act sees those."""
    game = dealt_game()
    deal = game.play.series.current
    assert deal is not None and deal.turn == 0
    before = {seat: p.hand_content(game, seat) for seat in range(4)}
    lead = next(a for a in deal.legal_actions(0) if a.kind is ActionKind.LEAD)
    game.play.series.apply(lead)
    assert deal.turn == 1
    after = {seat: p.hand_content(game, seat) for seat in range(4)}
    assert before[2] == after[2] and before[3] == after[3]
    assert before[0] != after[0] and before[1] != after[1]  # played; to act now
    waiting = p.hand(game, 2, 0, tr, "en").text
    assert all(name not in waiting for name in NAMES)
    assert p.cards_label(lead.cards, "en") not in waiting
    acting = p.hand(game, 1, 0, tr, "en").text
    assert p.cards_label(lead.cards, "en") in acting and NAMES[0] in acting


def molodka_deck() -> list[Card]:
    """Dealer 3: deck card i goes to seat i % 4, so seat 2 holds 6H 7H 8H 9H."""
    hearts = [c("6H"), c("7H"), c("8H"), c("9H")]
    rest = [card for card in CARDS if card not in hearts]
    deck: list[Card] = []
    for i in range(36):
        deck.append(hearts.pop(0) if i % 4 == 2 and i < 16 else rest.pop(0))
    return deck


@pytest.mark.parametrize("locale", LANGUAGES)
def test_molodka_button_out_of_turn(tr: Translator, locale: str) -> None:
    game = dealt_game(molodka_deck(), trump_index=5)
    deal = game.play.series.current
    assert deal is not None
    assert set(deal.hand(2)) == {c("6H"), c("7H"), c("8H"), c("9H")}
    assert deal.turn == 0
    screen = p.hand(game, 2, 0, tr, locale)
    assert Action.molodka(2) in plays(screen, 2)
    assert tr.t(locale, "hand-molodka-hint") in screen.text
    button = plays(screen, 2)[Action.molodka(2)]
    assert button.label == tr.t(locale, "hand-molodka")
    assert decode(button.token or "").arg == "m"
    # Still there after the leader played, and never for the others.
    game.play.series.apply(next(a for a in deal.legal_actions(0) if a.kind is ActionKind.LEAD))
    assert Action.molodka(2) in plays(p.hand(game, 2, 0, tr, locale), 2)
    for seat in (0, 1, 3):
        assert not any(
            a.kind is ActionKind.MOLODKA for a in plays(p.hand(game, seat, 0, tr, locale), seat)
        )


def test_hand_after_the_deal(tr: Translator) -> None:
    game = make_game()
    assert p.hand(game, 0, 0, tr, "ru").text == tr.t("ru", "hand-no-deal")
    play_out(game, random.Random(3))
    screen = p.hand(game, 0, 0, tr, "ru")
    assert tr.t("ru", "hand-deal-over") in screen.text and screen.rows == ()


# --- Other screens -------------------------------------------------------------------------


@pytest.mark.parametrize("locale", LANGUAGES)
def test_errors(tr: Translator, locale: str) -> None:
    for code in [*ErrorCode, *Reason, *YardReason]:
        text = p.error(code, tr, locale).text
        assert text == tr.t(locale, f"err-{code.value}") and not text.startswith("err-")
    assert p.error("no-such-code", tr, locale).text == tr.t(locale, "err-generic")


@pytest.mark.parametrize("locale", LANGUAGES)
def test_stats_and_leaderboard(tr: Translator, locale: str) -> None:
    tg = p.command_args(Platform.TELEGRAM, tr, locale)
    assert p.stats(None, tr, locale).text == tr.t(locale, "stats-empty", **tg)
    user_stats = UserStats(USERS[0], "Вася", series_played=4, series_won=3, goat=1)
    text = p.stats(user_stats, tr, locale).text
    assert "Вася" in text and "75%" in text
    assert tr.t(locale, "top-empty") in p.leaderboard([], tr, locale).text
    rows = [LeaderboardRow(USERS[0], "Вася", 4, 3), LeaderboardRow(USERS[1], "Петя", 2, 1)]
    chat = p.leaderboard(rows, tr, locale).text
    assert chat.startswith(tr.t(locale, "top-title-chat")) and "1. Вася" in chat
    assert "2. Петя" in chat and tr.t(locale, "top-hint", **tg) in chat
    assert p.leaderboard(rows, tr, locale, global_=True).text.startswith(
        tr.t(locale, "top-title-global")
    )


@pytest.mark.parametrize("locale", LANGUAGES)
def test_rules_help_and_notices(tr: Translator, locale: str) -> None:
    assert p.rules(tr, locale).text == tr.t(locale, "rules-yard")
    tg = p.command_args(Platform.TELEGRAM, tr, locale)
    assert p.rules(tr, locale, "classic").text == tr.t(locale, "rules-classic", **tg)
    assert "/kozel" in p.help(tr, locale).text
    game = dealt_game()
    game.turn_deadline = 100.0
    assert "30" in p.reminder(game, 0, tr, locale, now=70.2).text
    for kind in p.Notice:
        assert NAMES[1] in p.notice(kind, game, 1, tr, locale).text
    assert [cmd.verb for cmd in check_tokens(p.started(game, tr, locale))] == [Verb.SHOW_HAND]
    dm = p.dm_needed("Вася", "https://t.me/kozel_bot?start=g1", tr, locale)
    assert dm.buttons[0].url == "https://t.me/kozel_bot?start=g1"
    assert p.command_descriptions(tr, locale)["kozel"] == tr.t(locale, "cmd-kozel")
    assert p.computer_name(8, tr, locale) == tr.t(locale, "bot-name-1")


# --- Cached texts ------------------------------------------------------------------------


@pytest.mark.parametrize("cache_size", [16, 100_000])
def test_a_warm_cache_renders_the_screens_of_no_cache(cache_size: int) -> None:
    """One translator serving games, seats, selections and languages in turn, its
    cache full of other screens' lines (or evicting them), renders exactly what a
    translator without a cache renders."""
    warm = Translator.from_dir(cache_size=cache_size)
    cold = Translator.from_dir(cache_size=0)
    rng = random.Random(cache_size)
    games = [dealt_game(seed=seed) for seed in range(3)]
    for index, game in enumerate(games):
        game.seats[1 + index % 3] = Seat(SeatKind.COMPUTER, f"bot-name-{index + 1}")
        game.turn_deadline = 100.0 + index
    for _ in range(8):
        for game in games:
            deal = game.play.series.current
            assert deal is not None
            if deal.turn is not None:
                game.play.series.apply(rng.choice(deal.legal_actions(deal.turn)))
            for locale in ("ru", "en", "ru-RU", "de"):
                table = p.table(game, warm, locale, now=50.0, with_hand_button=True)
                assert table == p.table(game, cold, locale, now=50.0, with_hand_button=True)
                for seat in range(4):
                    selections = all_selections(game, seat)
                    for selection in {0, rng.choice(selections), rng.choice(selections)}:
                        screen = p.hand(game, seat, selection, warm, locale)
                        assert screen == p.hand(game, seat, selection, cold, locale)
    assert warm.cache_info()[0] > 0 and warm.cache_info()[1] <= cache_size


# --- Names as typed ---------------------------------------------------------------------

MARKUP_NAME = "*Hana_the_quiet* ~~x~~ `y` |z| > #1 [a](b) <@1> \\"


def _named(platform: Platform) -> Game:
    game = dealt_game()
    game.chat = ChatRef(platform, "-100123")
    users = [UserRef(platform, str(100 + i)) for i in range(4)]
    game.seats = [
        Seat(SeatKind.HUMAN, MARKUP_NAME if i == 0 else NAMES[i], users[i]) for i in range(4)
    ]
    return game


def _undo_discord_escapes(text: str) -> str:
    """What Discord shows for escaped text: each backslash-escaped punctuation as itself."""
    out, escaped = [], False
    for char in text:
        if escaped or char != "\\":
            out.append(char)
            escaped = False
        else:
            escaped = True
    return "".join(out)


@pytest.mark.parametrize("locale", LANGUAGES)
def test_names_with_markdown_are_escaped_on_discord_so_they_never_render_as_italics(
    tr: Translator, locale: str
) -> None:
    game = _named(Platform.DISCORD)
    escaped = p.display_name(MARKUP_NAME, game.seats[0].user)  # type: ignore[union-attr]
    assert "*" not in escaped.replace("\\*", "")
    assert "_" not in escaped.replace("\\_", "")
    assert _undo_discord_escapes(escaped) == MARKUP_NAME
    deal = game.play.series.current
    assert deal is not None and deal.turn == 0
    game.play.series.apply(next(a for a in deal.legal_actions(0) if a.kind is ActionKind.LEAD))
    # The seat to act next sees the lead, and who made it.
    screens = [p.table(game, tr, locale, now=0.0), p.hand(game, 1, 0, tr, locale)]
    stats = UserStats(user=game.seats[0].user, name=MARKUP_NAME, series_played=1)  # type: ignore[union-attr,arg-type]
    screens.append(p.stats(stats, tr, locale))
    row = LeaderboardRow(game.seats[0].user, MARKUP_NAME, 2, 1)  # type: ignore[union-attr,arg-type]
    screens.append(p.leaderboard([row], tr, locale))
    for screen in screens:
        assert escaped in screen.text
        assert MARKUP_NAME not in screen.text
        assert "Hana_the" not in screen.text


@pytest.mark.parametrize("platform", [Platform.TELEGRAM, Platform.CONSOLE])
def test_names_are_shown_as_typed_on_plain_text_platforms(
    tr: Translator, platform: Platform
) -> None:
    game = _named(platform)
    assert MARKUP_NAME in p.table(game, tr, "en", now=0.0).text
    assert p.display_name(MARKUP_NAME, None) == MARKUP_NAME  # a computer's, from the locales


# --- The player's own moves read as his -----------------------------------------------


def _play_until_the_trump_card_is_drawn(game: Game) -> int:
    """Lead and discard until somebody draws the shown trump card; his seat."""
    deal = game.play.series.current
    assert deal is not None
    while deal.table_view().trump_card_holder is None:
        seat = deal.turn
        assert seat is not None
        legal = deal.legal_actions(seat)
        leads = [a for a in legal if a.kind is ActionKind.LEAD]
        game.play.series.apply(leads[0] if leads else legal[-1])
    holder = deal.table_view().trump_card_holder
    assert holder is not None
    return holder


@pytest.mark.parametrize(
    ("locale", "turn", "discard"),
    [("ru", "⏳ Ваш ход", "Вы скидываете: 🂠"), ("en", "⏳ Your turn", "You discard: 🂠")],
)
def test_the_viewers_own_turn_and_moves_read_as_his_not_player_you_to_play(
    tr: Translator, locale: str, turn: str, discard: str
) -> None:
    game = dealt_game()
    deal = game.play.series.current
    assert deal is not None
    assert turn in p.table(game, tr, locale, now=0.0, viewer=0).text.splitlines()
    assert turn not in p.table(game, tr, locale, now=0.0).text  # the public table names him
    game.play.series.apply(next(a for a in deal.legal_actions(0) if a.kind is ActionKind.LEAD))
    game.play.series.apply(next(a for a in deal.legal_actions(1) if a.kind is ActionKind.DISCARD))
    mine = p.table(game, tr, locale, now=0.0, viewer=1).text
    assert discard in mine.splitlines()
    assert NAMES[1] not in mine
    assert f"{NAMES[1]} " in p.table(game, tr, locale, now=0.0, viewer=0).text
    # His hand shows what is his, not the trick (the table does); the seat to act sees it.
    assert "🂠" not in p.hand(game, 1, 0, tr, locale).text
    assert f"{NAMES[1]} 🂠" in p.hand(game, 2, 0, tr, locale).text
    line = p.event_line(game, CardsDiscarded(1, 1), tr, locale, viewer=1)
    assert line is not None and line.startswith(
        "Вы скидываете" if locale == "ru" else "You discard"
    )


@pytest.mark.parametrize(("locale", "words"), [("ru", "взяли вы)"), ("en", ": you drew it)")])
def test_the_trump_card_drawn_by_the_viewer_reads_as_his(
    tr: Translator, locale: str, words: str
) -> None:
    game = dealt_game()
    holder = _play_until_the_trump_card_is_drawn(game)
    deal = game.play.series.current
    assert deal is not None
    card = p.card_label(deal.trump_card, locale)
    mine = p.table(game, tr, locale, now=0.0, viewer=holder).text
    if locale == "ru":
        assert f"(открытую {card} взяли вы)" in mine
    assert words in mine
    other = p.table(game, tr, locale, now=0.0, viewer=(holder + 1) % 4).text
    assert NAMES[holder] in other and words not in other
    if locale == "ru":  # Regression: «открытую K♣ взял игрок Бот Вася», a Latin K
        assert f"(открытую {card} взял {NAMES[holder]})" in other
        latin = p.card_label(deal.trump_card, "en")
        assert card == latin or latin not in other  # Д♣, not Q♣ (10♣ is both)


@pytest.mark.parametrize(
    ("locale", "opens", "restarts"),
    [
        ("ru", "Взятка начинается с молодки.", "Взятка разыгрывается заново."),
        ("en", "The trick starts with a molodka.", "The trick starts again."),
    ],
)
def test_a_molodka_on_an_empty_trick_starts_it_and_on_a_played_one_restarts_it(
    tr: Translator, locale: str, opens: str, restarts: str
) -> None:
    game = dealt_game()
    cards = (c("6H"), c("7H"), c("8H"), c("9H"))
    empty = p.event_line(game, MolodkaDeclared(2, cards, (0, 0, 0, 0)), tr, locale)
    played = p.event_line(game, MolodkaDeclared(2, cards, (1, 1, 0, 0)), tr, locale)
    assert empty is not None and empty.endswith(opens) and restarts not in empty
    assert played is not None and played.endswith(restarts) and opens not in played
    mine = p.event_line(game, MolodkaDeclared(2, cards, (0, 0, 0, 0)), tr, locale, viewer=2)
    assert mine is not None and NAMES[2] not in mine and mine.endswith(opens)


@pytest.mark.parametrize(
    ("locale", "expected"),
    [("ru", "Был козлом 2 раза (с яйцами — 1)"), ("en", "Goat 2 times (1 with eggs)")],
)
def test_stats_say_how_often_a_player_was_the_goat(
    tr: Translator, locale: str, expected: str
) -> None:
    stats = UserStats(USERS[0], "Вася", series_played=3, goat=2, goat_with_eggs=1)
    assert expected in p.stats(stats, tr, locale).text.splitlines()


def test_the_loss_limit_reads_12_loses_in_english(tr: Translator) -> None:
    text = p.table(dealt_game(), tr, "en", now=0.0).text
    assert "Loss points: A 0 · B 0 (12 points lose)" in text.splitlines()
    assert "out at" not in text


@pytest.mark.parametrize("locale", LANGUAGES)
def test_console_errors_never_speak_of_buttons(tr: Translator, locale: str) -> None:
    codes = [str(code) for code in ErrorCode] + [str(reason) for reason in Reason]
    codes += [str(reason) for reason in YardReason]
    for code in codes:
        text = p.error(code, tr, locale, console=True).text.lower()
        assert "кнопк" not in text and "button" not in text, (code, text)
    assert "кнопк" in p.error(ErrorCode.STALE, tr, "ru").text  # the chats' text has one


# --- Commands as each platform's users see them -----------------------------------------


def test_help_names_discords_commands_in_the_clients_language(tr: Translator) -> None:
    """A Russian Discord client shows /козёл, /топ, /язык (a choice list): the help
    says so; Telegram's commands are Latin in every language."""
    ru_discord = p.help(tr, "ru", platform=Platform.DISCORD).text
    for command in ("/козёл", "/стоп", "/правила", "/статистика", "/топ", "/язык", "/помощь"):
        assert f"{command} — " in ru_discord
    assert "/топ все" in ru_discord and "/правила Хвалёный козёл" in ru_discord
    assert "/язык и язык из списка" in ru_discord
    assert "/kozel" not in ru_discord and "/lang" not in ru_discord
    en_discord = p.help(tr, "en", platform=Platform.DISCORD).text
    assert "/kozel — " in en_discord and "/top all" in en_discord and "/lang ru" not in en_discord
    for locale in LANGUAGES:
        telegram = p.help(tr, locale).text
        assert "/kozel — " in telegram and "/top all" in telegram and "/rules classic" in telegram
        assert "/lang ru" in telegram and "/козёл" not in telegram


@pytest.mark.parametrize("platform", [Platform.TELEGRAM, Platform.DISCORD])
@pytest.mark.parametrize("locale", LANGUAGES)
def test_every_text_that_names_a_command_names_it_as_its_platform_does(
    tr: Translator, locale: str, platform: Platform
) -> None:
    texts = [
        p.help(tr, locale, platform=platform).text,
        p.rules(tr, locale, "classic", platform=platform).text,
        p.stats(None, tr, locale, platform=platform).text,
        p.leaderboard([], tr, locale, platform=platform).text,
        p.language_usage(tr, locale, platform=platform).text,
        p.group_only(tr, locale, platform=platform).text,
    ]
    names = p.command_args(platform, tr, locale)
    other = Platform.DISCORD if platform is Platform.TELEGRAM else Platform.TELEGRAM
    foreign = set(p.command_args(other, tr, locale).values()) - set(names.values())
    for text in texts:
        assert "{" not in text and "$" not in text, text  # every argument given
        commands = re.findall(r"/[^\s,.)—]+", text)
        assert commands, text
        assert set(commands) <= {names[name] for name in p.COMMANDS}, text
        assert not [word for word in foreign if word.startswith("/") and word in text], text
