"""A classic game played through a platform's DM buttons, shared by the Telegram and
Discord tests.

- :class:`DeckRandom`: the service's random source, dealing chosen decks first (then
  shuffling as a seeded :class:`random.Random`);
- :func:`play_classic`: the humans play by pressing only buttons their DMs show (a
  script decides some moments, the classic computer player the rest); after every
  press the bot must be settled and
- every seat's DM offers only that seat's legal actions at the game's version (the
  seat whose turn it is has one at least; nobody else has a decision of his);
- :class:`Secrets`: no message sent since the last press shows a card its reader may
  not see (a DM: the seat's own cards and public ones; the group: public ones only);
- :func:`check_results`: the result messages are those of the game's record replayed
  by the core.

A platform gives its side through :class:`Table`.
"""

from __future__ import annotations

import math
import random
import re
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.codec import CodecError, Command, Verb, decode, encode
from bot.i18n import Translator
from bot.models import Game, GameStatus
from bot.options import PAGE_OPTIONS, current_value, option_arg, option_pages, options_of
from bot.presenters import classic as screens
from bot.service import GameService
from core.cards import Card
from core.classic.actions import ClassicAction, ClassicActionKind
from core.classic.cards import index_of
from core.classic.dealing import Dealing, Phase, random_permutation
from core.classic.game import ClassicGame
from core.classic.options import Praise
from core.classic.ruleset import CLASSIC, OPTIONAL_KINDS, ClassicGameAdapter
from core.classic.views import ClassicSeatView, ClassicTableView
from tests.core.classic.helpers import plain_deck

#: Who reads a message: a seat (its DM), or None (the group, everybody).
Reader = int | None
#: What a script says at a moment: the action to take, or None (the computer decides).
Script = Callable[[Game, Mapping[int, Sequence[ClassicAction]]], ClassicAction | None]

_DECK_BITS = math.factorial(32).bit_length()


# --- Decks dealt on purpose -----------------------------------------------------------------


def deck_number(deck: Sequence[Card]) -> int:
    """The random bits that make the core's shuffle deal ``deck`` (top first): the
    Fisher-Yates steps of :func:`core.classic.dealing.random_permutation` run back."""
    target = [index_of(card) for card in deck]
    order, digits = list(range(32)), []
    for i in range(31, 0, -1):
        j = order.index(target[i])
        order[i], order[j] = order[j], order[i]
        digits.append(j)
    number = 0
    for radix, digit in zip(range(2, 33), reversed(digits), strict=True):
        number = number * radix + digit
    return number


class DeckRandom(random.Random):
    """A seeded random source whose classic shuffles deal ``decks`` first, in order."""

    def __init__(self, seed: int, decks: Iterable[Sequence[Card]] = ()) -> None:
        super().__init__(seed)
        self.decks: deque[Sequence[Card]] = deque(decks)

    def getrandbits(self, k: int) -> int:
        if k == _DECK_BITS and self.decks:
            deck = self.decks.popleft()
            number = deck_number(deck)
            assert random_permutation(_Bits(number)) == [index_of(c) for c in deck]
            return number
        return super().getrandbits(k)

    def next_dealer(self) -> int:
        """The first dealer the service will draw (``randrange(4)``) from this state."""
        copy = random.Random()
        copy.setstate(self.getstate())
        return copy.randrange(4)


class _Bits(random.Random):
    def __init__(self, number: int) -> None:
        super().__init__(0)
        self.number = number

    def getrandbits(self, k: int) -> int:
        return self.number


# --- What a reader may see -------------------------------------------------------------------

_LABEL = re.compile(r"(?<![0-9A-Za-zА-Яа-яЁё])(10|[6-9JQKAВДКТ])([♣♠♥♦])")
_SUITS = {"♣": "C", "♠": "S", "♥": "H", "♦": "D"}
#: The Russian letters of the ranks (валет, дама, король, туз).
_RANKS = {"10": "T", "В": "J", "Д": "Q", "К": "K", "Т": "A"}


def cards_in(text: str) -> set[Card]:
    """Every card label in a text (``10♥``, ``Q♣``; in Russian ``Д♣``, ``Т♠``)."""
    return {
        Card.parse(_RANKS.get(rank, rank) + _SUITS[suit]) for rank, suit in _LABEL.findall(text)
    }


def public_cards(table: ClassicTableView) -> set[Card]:
    """The cards everybody may see: face-up praise cards, laid cards turned up, the
    cards played, a redeal asker's hand."""
    cards = set(table.shown) | set(table.taken) | set(table.redeal_hand)
    cards |= {lay.card for lay in table.laid if lay.card is not None}
    cards |= {p.card for p in (*table.trick, *table.last_trick, *table.played)}
    return cards


def seat_cards(view: ClassicSeatView) -> set[Card]:
    """The cards a seat may see: the public ones and its own (hand, pants pair, laid
    card, an exchange it took part in)."""
    cards = public_cards(view.table) | set(view.hand) | set(view.pair)
    if view.laid is not None:
        cards.add(view.laid)
    if view.exchange is not None:
        cards |= {view.exchange.given, view.exchange.got}
    return cards


def classic(game: Game) -> ClassicGame:
    play = game.play
    assert isinstance(play, ClassicGameAdapter), "not a classic table"
    return play.game


@dataclass
class Secrets:
    """Checks that no message shows a card its reader may not see. A message sent
    during a step may show the state before it or any state the step led to, so a
    reader may see what he saw before the step or sees in any dealing since."""

    before: dict[Reader, set[Card]] = field(default_factory=dict)
    first: int = 0
    checked: int = 0

    @staticmethod
    def _sees(dealing: Dealing, reader: Reader) -> set[Card]:
        if reader is None:
            return public_cards(dealing.table_view())
        return seat_cards(dealing.view(reader))

    def look(self, game: Game) -> None:
        """Remember what every reader sees now (before the next step)."""
        dealings = classic(game).dealings
        self.first = max(len(dealings) - 1, 0)
        self.before = {
            reader: set().union(*(self._sees(d, reader) for d in dealings[self.first :]))
            for reader in (None, 0, 1, 2, 3)
        }

    def check(self, game: Game, sent: Iterable[tuple[Reader, str]]) -> None:
        """Check the messages sent since :meth:`look`, then look again."""
        dealings = classic(game).dealings[self.first :]
        for reader, text in sent:
            allowed = self.before.get(reader, set()).union(
                *(self._sees(d, reader) for d in dealings)
            )
            leaked = cards_in(text) - allowed
            assert not leaked, f"{reader=} may not see {sorted(c.code for c in leaked)}: {text!r}"
            self.checked += 1
        self.look(game)


# --- The lobby's house rules -----------------------------------------------------------------

#: The house rules of the four users' games: the declarer chooses the praise.
HOUSE_RULES = {"praise": "choose"}
#: The house rules of the restarted games: more than the praise.
RESTART_RULES = {"praise": "choose", "ace_ban": False, "follow": "any_trump", "trump_lead": "team"}
#: The house-rules page of a lobby, opened and closed (SETTING arguments).
OPEN_HOUSE_RULES, CLOSE_HOUSE_RULES = "po", "p"


def house_rule_presses(game: Game, wanted: Mapping[str, Any]) -> list[str]:
    """The SETTING arguments a lobby's creator presses, in order, on its house-rules
    pages to set ``wanted`` (each option's button cycles its values; an option on
    another page is reached by that page's button first)."""
    presses = []
    pages, shown = option_pages(game.settings.rule_set), OPEN_HOUSE_RULES[1:]
    for index, option in enumerate(options_of(game.settings.rule_set)):
        if option.name not in wanted:
            continue
        page = pages[index // PAGE_OPTIONS]
        if page != shown:
            presses.append("p" + page)
            shown = page
        value = current_value(option, game.settings.options)
        for _ in option.values:
            if value == wanted[option.name]:
                break
            value = option.next_value(value)
            presses.append(option_arg(option, value))
        assert value == wanted[option.name], (option, wanted)
    return [OPEN_HOUSE_RULES, *presses, CLOSE_HOUSE_RULES]


# --- The platform's side ---------------------------------------------------------------------


class Table(Protocol):
    """What :func:`play_classic` needs of a platform's test harness."""

    service: GameService

    async def settle(self) -> None:
        """Until every update is handled, every computer moved, every message is out."""
        ...

    def decisions(self, game: Game, seat: int) -> list[str]:
        """The tokens of the game's PLAY buttons in every message of the seat's DM."""
        ...

    async def press(self, game: Game, seat: int, token: str) -> None:
        """The seat's player presses the button with ``token`` in his DM; it must be
        accepted."""
        ...

    def sent(self, game: Game) -> list[tuple[Reader, str]]:
        """Every text and button label the bot sent since the last call, by reader."""
        ...

    def holder(self, game: Game, seat: int, token: str) -> object:
        """The id of the DM message whose button carries ``token``."""
        ...

    async def restart(self) -> None:
        """Drop the bot and its service; start new ones on the same database."""
        ...


def token(game: Game, action: ClassicAction) -> str:
    return encode(Command(Verb.PLAY, game.id, game.version, screens.action_arg(action)))


def shown_decisions(table: Table, game: Game) -> dict[int, list[ClassicAction]]:
    """Each seat's decisions as its DM shows them, checked: every one a legal action of
    that seat at the game's version; the seat whose turn it is has one at least."""
    classic(game)  # a classic table
    shown: dict[int, list[ClassicAction]] = {}
    for seat, player in enumerate(game.seats):
        if player is None or player.is_computer:
            continue
        actions = []
        for data in table.decisions(game, seat):
            try:
                command = decode(data)
            except CodecError:
                continue
            assert command.version == game.version, (seat, data, game.version)
            action = screens.parse_action_arg(seat, command.arg)
            # The seat's view: its legal actions, and a request for its team's queens
            # (docs/rules/reference.md §2.16) as far as its own hand shows, which the engine may
            # refuse.
            assert action in game.play.seat_view(seat).legal, (seat, action)
            actions.append(action)
        if game.status is GameStatus.PLAYING:
            legal = game.play.seat_view(seat).legal
            if not legal:
                assert actions == [], (seat, actions)
            elif game.play.turn == seat and not player.plays_itself:
                obligatory = [a for a in actions if a.kind not in OPTIONAL_KINDS]
                assert obligatory, (seat, legal, actions)
        else:
            assert actions == [], (seat, actions)
        shown[seat] = actions
    return shown


@dataclass
class Played:
    """What :func:`play_classic` saw: the game at the end, the presses and the
    messages checked for hidden cards."""

    game: Game
    presses: int = 0
    checked: int = 0


async def play_classic(
    table: Table,
    game_id: int,
    *,
    script: Script | None = None,
    until: Callable[[Game], bool] | None = None,
    seed: int = 1,
    secrets: Secrets | None = None,
) -> Played:
    """Humans play the game through their DM buttons until it is over (or ``until``):
    at each moment the script's action if it names one, else the turn's seat takes the
    computer player's choice among the buttons it is shown. Every press goes through
    a button its seat's DM shows."""
    rng = random.Random(seed)
    secrets = secrets or Secrets()
    played: Played | None = None
    idle = 0
    while True:
        game, shown = await settled(table, game_id, secrets)
        played = played or Played(game)
        played.game, played.checked = game, secrets.checked
        if game.status is not GameStatus.PLAYING or (until is not None and until(game)):
            return played
        action = decide(game, shown, script, rng)
        if action is None:  # a computer is about to move
            idle += 1
            assert idle < 50, "the computer players do not move"
            continue
        idle = 0
        await table.press(game, action.seat, token(game, action))
        played.presses += 1


async def play_telling_the_truth(
    table: Table,
    game_id: int,
    lies: Callable[[Game], list[str]],
    *,
    deals: int,
    script: Script | None = None,
) -> Played:
    """:func:`play_classic` until deal ``deals`` begins; after every press (the bot
    settled) ``lies`` must find nothing untrue in the screens (issue 31)."""
    checked = 0

    def truthful_until_done(game: Game) -> bool:
        nonlocal checked
        untrue = lies(game)
        assert not untrue, untrue
        checked += 1
        dealing = classic(game).current
        return dealing is not None and dealing.number >= deals

    played = await play_classic(table, game_id, script=script, until=truthful_until_done)
    assert checked >= played.presses > 0
    return played


async def settled(
    table: Table, game_id: int, secrets: Secrets
) -> tuple[Game, dict[int, list[ClassicAction]]]:
    """The game once the bot is settled, with the decisions each seat's DM shows,
    both checked (the messages sent meanwhile, the buttons)."""
    await table.settle()
    game = await table.service.game(game_id)
    secrets.check(game, table.sent(game))
    return game, shown_decisions(table, game)


def decide(
    game: Game,
    shown: Mapping[int, Sequence[ClassicAction]],
    script: Script | None,
    rng: random.Random,
) -> ClassicAction | None:
    """The script's action if it names one, else the computer player's choice for the
    human whose turn it is, among what his DM shows (None: a computer's turn). The
    action is one that a DM shows."""
    action = script(game, shown) if script is not None else None
    if action is None:
        turn = game.play.turn
        assert turn is not None
        player = game.seats[turn]
        if player is None or player.plays_itself:
            return None
        computer = CLASSIC.computer("normal", game.play.options)
        action = pick(computer.choose(game.play.seat_view(turn), rng), shown[turn])
    assert action in shown.get(action.seat, []), f"{action} is not shown: {shown}"
    return action


def pick(wanted: ClassicAction | None, shown: Sequence[ClassicAction]) -> ClassicAction:
    """``wanted`` if it is shown, else a shown action of its kind (a cut the buttons do
    not offer), else the first obligatory one shown."""
    if wanted in shown:
        assert wanted is not None
        return wanted
    same = [a for a in shown if wanted is not None and a.kind is wanted.kind]
    obligatory = [a for a in shown if a.kind not in OPTIONAL_KINDS]
    return (same or obligatory)[0]


def first_of(
    shown: Mapping[int, Sequence[ClassicAction]], seat: int, kind: ClassicActionKind, **fields: Any
) -> ClassicAction | None:
    """The first action of ``kind`` (with these fields) the seat is shown, if any."""
    for action in shown.get(seat, ()):
        if action.kind is kind and all(getattr(action, k) == v for k, v in fields.items()):
            return action
    return None


# --- Results ---------------------------------------------------------------------------------


def check_results(game: Game, texts: Sequence[str], tr: Translator, locale: str) -> dict[str, Any]:
    """The game's record replayed by the core gives the same game; every result message
    (each dealing's, in order, and the game's with its title) is the one the replayed
    results make. Returns the record."""
    record = game.play.record()
    report = CLASSIC.replay(record)
    assert "error" not in report, report
    replayed = CLASSIC.from_record(record).game
    assert replayed == classic(game)
    expected = []
    for k in range(len(record["deals"])):
        upto = CLASSIC.from_record({**record, "deals": record["deals"][: k + 1]}).game
        dealing = upto.dealings[-1]
        if dealing.result is None:
            continue
        assert report["deals"][k]["pairs"] == list(dealing.result.pairs)
        result = screens.deal_result(game, dealing.number, dealing.result, upto.pairs, tr, locale)
        expected.append(result.text)
    assert [text for text in texts if text in expected] == expected
    assert report["game"]["pairs"] == list(replayed.pairs)
    if replayed.result is not None:
        assert report["game"]["title"] == replayed.result.title.value
        assert report["game"]["loser"] == replayed.result.loser.name
        final = screens.game_result(game, replayed.result, tr, locale).text
        # The result, then its rating lines (issue 25), once.
        assert sum(text.startswith(final) for text in texts) == 1
    return record


def kinds_in(record: Mapping[str, Any]) -> list[str]:
    """Every action type of a classic record (with the praise kind: ``praise:pants``)."""
    out = []
    for entry in record["deals"]:
        for action in entry["actions"]:
            kind = action["type"]
            out.append(f"{kind}:{action['kind']}" if kind == "praise" else kind)
    return out


#: Every kind of decision the four users' game has (docs/rules/reference.md §3.5's action types).
EVERY_DECISION = (
    "redeal",
    "offer_trump",
    "accept_trump",
    "praise:pants",
    "praise:mirror",
    "praise:simple",
    "lay",
    "cut",
    "name_trump",
    "play",
)


def check_whole_game(played: Played, record: Mapping[str, Any]) -> None:
    """The four users' game is over, had every kind of decision, and each of its
    actions was a button pressed; its messages were checked for hidden cards."""
    assert played.game.status is GameStatus.FINISHED and classic(played.game).is_over
    kinds = kinds_in(record)
    assert set(EVERY_DECISION) <= set(kinds), kinds
    assert len(kinds) == played.presses  # every action of the game went through a button
    assert played.checked > 100


# --- The plan of a game with every dealing decision ----------------------------------------

#: A hand of 0 points: its holder may ask for a redeal.
LOW_HAND = "7S 8S 9S 7H 8H 9H 7D 8D"


@dataclass(frozen=True)
class Plan:
    """Decks and a script for a game whose first deal is redealt (the player after
    the dealer asks, holding 0 points), whose second dealing has a last-trump exchange
    (that player holds one trump, A♣, and gives it to his partner, who gives back a
    card his DM offers), and whose later deals are praised: pants, mirror, then
    simple (``praises``). ``redeal`` False: the first dealing is the exchange's."""

    dealer: int
    redeal: bool = True
    #: The praise kinds of deals 1, 2...
    praises: tuple[Praise, ...] = (Praise.PANTS, Praise.MIRROR, Praise.SIMPLE)

    @property
    def offerer(self) -> int:
        return (self.dealer + 1) % 4

    @property
    def partner(self) -> int:
        return (self.dealer + 3) % 4

    def decks(self) -> list[list[Card]]:
        # J♣ goes to the same seat in both: the roulette makes clubs the trump of both.
        jack = (self.dealer + 2) % 4
        low = plain_deck({self.offerer: LOW_HAND, jack: "JC"}, self.dealer)
        hands = {
            self.offerer: "AC AS TS KS AH TH KH AD",
            self.partner: "QC QS QH QD JS JH 9D 8D",
            jack: "JC",
        }
        exchange = plain_deck(hands, self.dealer)
        return [low, exchange] if self.redeal else [exchange]

    def script(
        self, game: Game, shown: Mapping[int, Sequence[ClassicAction]]
    ) -> ClassicAction | None:
        dealing = classic(game).current
        assert dealing is not None
        moment = (dealing.number, dealing.attempt)
        if self.redeal and moment == (0, 0):
            action = first_of(shown, self.offerer, ClassicActionKind.REDEAL)
            assert action is not None, shown
            return action
        if moment == (0, 1 if self.redeal else 0):
            offer = first_of(shown, self.offerer, ClassicActionKind.OFFER_TRUMP)
            answers = [a for a in shown.get(self.partner, ()) if a.kind is ACCEPT]
            if offer is not None or answers:
                return offer or answers[-1]
        if dealing.phase is Phase.PRAISE and 1 <= dealing.number <= len(self.praises):
            kind = self.praises[dealing.number - 1]
            return first_of(shown, dealing.turn, ClassicActionKind.PRAISE, praise=kind)
        return None


ACCEPT = ClassicActionKind.ACCEPT_TRUMP


# --- A restart in the middle of a dealing ---------------------------------------------------


def _phase(game: Game) -> Phase | None:
    dealing = classic(game).current
    return None if dealing is None else dealing.phase


def offer_waits(game: Game) -> bool:
    return _phase(game) is Phase.ANSWER


def between_cuts(game: Game) -> bool:
    dealing = classic(game).current
    return _phase(game) is Phase.CUT and dealing is not None and dealing.turn != dealing.declarer


def before_naming(game: Game) -> bool:
    return _phase(game) is Phase.NAME


#: Where :func:`restarts_mid_dealing` drops the bot.
MOMENTS = (offer_waits, between_cuts, before_naming)


async def restarts_mid_dealing(table: Table, game_id: int, plan: Plan) -> Played:
    """Play until each of :data:`MOMENTS` (an offer waiting for its answer, between
    the mirror cuts, before the naming), restart the bot there: the game is exactly
    as it was (version, snapshot), and the seat to decide answers with a button of
    the DM message it had before the restart. Then a trick of the mirror deal."""
    secrets, rng = Secrets(), random.Random(2)
    for moment in MOMENTS:
        played = await play_classic(
            table, game_id, script=plan.script, until=moment, seed=3, secrets=secrets
        )
        game = played.game
        assert game.status is GameStatus.PLAYING and moment(game)
        version, snapshot, seat = game.version, game.play.snapshot(), game.play.turn
        assert seat is not None
        old = {data: table.holder(game, seat, data) for data in table.decisions(game, seat)}
        assert old

        await table.restart()
        game, shown = await settled(table, game_id, secrets)
        assert (game.version, game.play.snapshot()) == (version, snapshot)
        action = decide(game, shown, plan.script, rng)
        assert action is not None and action.seat == seat
        pressed = token(game, action)
        assert table.holder(game, seat, pressed) == old[pressed]  # the old message's button
        await table.press(game, seat, pressed)
        game, _ = await settled(table, game_id, secrets)
        assert game.version == version + 1
        assert classic(game).current is not None
    played = await play_classic(
        table,
        game_id,
        script=plan.script,
        until=lambda g: classic(g).current.table_view().trick_number >= 2,  # type: ignore[union-attr]
        secrets=secrets,
    )
    assert CLASSIC.from_record(played.game.play.record()).game == classic(played.game)
    return played
