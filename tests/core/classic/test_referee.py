"""A referee's pins: rules of §2 that the other test files leave unpinned, option
combinations that interact, the engine's raw form refusing bad arguments, and hidden
information in every event and every view (docs/rules/reference.md §2.5–2.11, §3.5)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings

from core.cards import Card, Suit
from core.classic.actions import Kind
from core.classic.cards import CARDS, mask_of
from core.classic.dealing import Dealing, Phase
from core.classic.errors import ClassicReason
from core.classic.events import CardLaid, DealEnd, LaidTrickTaken
from core.classic.events import ClassicEvent as Event
from core.classic.game import ClassicGame
from core.classic.options import ClassicOptions, Praise
from core.errors import KozelError
from tests.core.classic.helpers import (
    NO_TRUMPS,
    act,
    card,
    cards,
    dealt,
    ends_deck,
    later,
    opts,
    plain_deck,
    play,
    round_deck,
)
from tests.core.classic.test_properties import OPTIONS, SEEDS

# --- The raw form refuses arguments out of range ---------------------------------------


@pytest.mark.parametrize(
    ("kind", "arg"),
    [
        (Kind.PRAISE, -1),  # read as PRAISE_KINDS[-2] (pants) before the fix
        (Kind.PRAISE, 4),
        (Kind.NAME_TRUMP, 5),
        (Kind.NAME_TRUMP, -1),
        (Kind.PLAY, -1),
        (Kind.PLAY, 32),
        (Kind.ACCEPT_TRUMP, -1),
        (Kind.LAY, 40),
    ],
)
def test_raw_action_with_an_argument_out_of_range_is_refused_and_changes_nothing(
    kind: Kind, arg: int
) -> None:
    game = ClassicGame(opts(praise="pants"), first_dealer=3)
    game.deal_from(plain_deck({}, dealer=3))
    while not game.current.is_over:  # type: ignore[union-attr]
        game.apply(game.legal_actions()[0])
    game.deal_from(plain_deck({}, dealer=game.next_dealer))
    dealing = game.current
    assert dealing is not None and dealing.phase is Phase.PRAISE
    seat = dealing.turn
    assert seat is not None
    before = game.state_key()
    assert dealing.reason_raw(seat, int(kind), arg) is not None
    with pytest.raises(KozelError):
        game.apply_raw(seat, int(kind), arg)
    assert game.state_key() == before


# --- The laid trick: no kocherga catch, its lead counts as led ---------------------------

# Pants, trump suit ♥ fixed (no naming), dealer 3, declarer 0. Seat 0's pairs: (QS AS),
# (QH AH), (QD AD), (QC JS): four good pairs, he lays QC. Seat 1: (JH JD), (JC AC),
# (7H 8H), (9H 7C): four good pairs, he lays 7C. Seats 2 and 3: a pair with no good card.
KOCHERGA_LAID = ends_deck("QS QH QD QC JH JC 7H 9H 7S 9S", "TS 8S 7C 8H AC JD JS AD AH AS")


def test_laid_trick_kocherga_over_an_opponents_queen_of_clubs_is_no_catch() -> None:
    dealing = later(opts(praise="pants", trump_suit="H"), KOCHERGA_LAID)
    play(dealing, "0:praise")
    assert dealing.turn == 0 and dealing.view(0).pair == cards("QC JS")
    play(dealing, "0:lay QC")
    assert dealing.turn == 1 and dealing.view(1).pair == cards("9H 7C")
    play(dealing, "1:lay 7C", "2:lay 7S")
    events = play(dealing, "3:lay 9S")
    taken = [e for e in events if isinstance(e, LaidTrickTaken)]
    assert taken == [LaidTrickTaken(cards("QC 7C 7S 9S"), 1, taken[0].team)]
    assert dealing.end is None and dealing.phase is Phase.PLAY
    assert dealing.tricks == (0, 1) and dealing.points == (0, 3)
    assert dealing.leader == dealing.turn == 1


PANTS_DECK = ends_deck("QC 9H 8S QS QD JH AD KS", "JC AC AH JS QH 7D JD AS")


def _pants_named(suit: str) -> Dealing:
    """The pants dealing of test_dealing: seat 0 lays 9H face down by force, seat 1 7D,
    seat 2 AC, seat 3 KS; seat 2 then holds QS JS JH QH AH QD AD."""
    dealing = later(opts(praise="pants"), PANTS_DECK)
    play(dealing, "0:praise", "1:lay 7D", "2:lay AC", f"0:name_trump {suit}")
    return dealing


def test_laid_tricks_plain_lead_lifts_the_ace_ban_for_its_suit() -> None:
    dealing = _pants_named("D")  # 7D wins the laid trick: seat 1 leads
    assert dealing.turn == 1 and dealing.table_view().led_suits == (Suit.HEARTS,)
    play(dealing, "1:play 8S")  # seat 1 may not lead trumps: a plain spade
    # Seat 2 has no spade; ♥ was led by the laid trick, so AH may go.
    assert dealing.can(act("2:play AH"))


def test_without_a_trump_suit_an_ace_of_a_suit_the_laid_trick_did_not_lead_is_banned() -> None:
    dealing = _pants_named("-")  # no trump: 9H, the lead, wins the laid trick
    assert dealing.turn == 0 and dealing.table_view().led_suits == (Suit.HEARTS,)
    play(dealing, "0:play 9S", "1:play 8S")
    # Seat 2 holds no plain spade: AH may go (♥ led by the laid trick), AD may not.
    assert dealing.can(act("2:play AH"))
    with pytest.raises(KozelError) as error:
        dealing.verify(act("2:play AD"))
    assert error.value.reason is ClassicReason.ACE_BANNED
    named = _pants_named("D")  # the ace of the trump suit is a trump: never banned
    assert named.trumps.is_trump(card("AD"))


# --- kocherga off with pants and mirror ---------------------------------------------------


def test_pants_without_kocherga_seven_of_clubs_is_not_good_and_is_laid() -> None:
    deck = ends_deck("7C", "QC")
    on = later(opts(praise="pants"), deck)
    play(on, "0:praise")
    assert card("7C") in on.hand(0) and on.view(0).laid != card("7C")  # a good pair: on
    off = later(opts(praise="pants", kocherga=False), deck)
    events = play(off, "0:praise")
    assert CardLaid(0, None) in events  # forced, face down
    assert off.view(0).laid == card("7C") and card("QC") in off.hand(0)


def test_mirror_without_kocherga_seven_of_clubs_is_not_kept() -> None:
    deck = ends_deck("7C QC")  # cut 1: 7C is the bottom card
    on = later(opts(praise="mirror"), deck)
    play(on, "0:praise", "0:cut 1")
    assert card("7C") in on.hand(0) and on.view(0).laid != card("7C")
    off = later(opts(praise="mirror", kocherga=False), deck)
    events = play(off, "0:praise", "0:cut 1")
    assert CardLaid(0, card("7C")) in events
    assert off.hand(0) == ()


# --- The roulette across a praised deal -----------------------------------------------------


def _finish(game: ClassicGame) -> None:
    dealing = game.current
    assert dealing is not None
    while not dealing.is_over:
        turn = dealing.turn
        assert turn is not None
        game.apply(dealing.legal_actions(turn)[0])


def test_roulette_suits_survive_a_praised_deal_and_set_the_next_deal() -> None:
    game = ClassicGame(ClassicOptions(), first_dealer=3)
    game.deal_from(plain_deck({1: "JC"}, dealer=3))
    fixed = (Suit.DIAMONDS, Suit.CLUBS, Suit.HEARTS, Suit.SPADES)
    assert game.fixed_suits == fixed
    _finish(game)
    assert game.next_dealer == 1
    # Deal 2: seat 2 praises simple; 9H is his first card that is not good: ♥.
    game.deal_from(ends_deck("AS 9H JC"), dealer=1)
    play(game, "2:praise")
    assert game.current is not None and game.current.trump is Suit.HEARTS
    assert game.fixed_suits == fixed
    _finish(game)
    holder = game.current.jack_of_clubs_holder
    assert holder is not None and game.next_dealer == holder
    # Deal 3, "deal": the J♣ holder (seat 2) gets the trump suit fixed in deal 1.
    game.deal_from(plain_deck({2: "JC"}, dealer=holder), dealer=holder)
    play(game, f"{(holder + 1) % 4}:deal")
    assert game.current.trump is fixed[2]


def test_a_fixed_trump_suit_overrides_the_roulette_in_every_dealing() -> None:
    game = ClassicGame(opts(trump_suit="S"), first_dealer=0)
    game.deal_from(plain_deck({2: "JC"}, dealer=0))
    assert game.current is not None and game.current.trump is Suit.SPADES
    assert game.fixed_suits is None
    _finish(game)
    dealer = game.next_dealer
    game.deal_from(plain_deck({}, dealer=dealer), dealer=dealer)
    play(game, f"{(dealer + 1) % 4}:deal")
    assert game.current.trump is Suit.SPADES and game.fixed_suits is None


# --- The redeal looks at the hand as it is at that moment -----------------------------------


def test_a_redeal_counts_the_hand_after_an_exchange() -> None:
    hands = {0: "JS 9C 8C TC KC AC 9H TH", 2: "AS KS 7S 8S 7H 8H 7D 8D"}
    dealing = dealt(opts(**NO_TRUMPS), hands)
    assert not dealing.can(act("2:redeal"))  # 15 points
    play(dealing, "0:offer_trump", "2:accept_trump AS")
    assert set(dealing.hand(2)) == set(cards("JS KS 7S 8S 7H 8H 7D 8D"))  # 6 points
    events = play(dealing, "2:redeal")
    assert dealing.end is DealEnd.REDEAL and events


# --- Hidden information --------------------------------------------------------------------


def cards_within(value: object) -> Iterator[Card]:
    """Every card anywhere inside a view, an event or an action."""
    if isinstance(value, Card):
        yield value
    elif isinstance(value, tuple | list):
        for item in value:
            yield from cards_within(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from cards_within(getattr(value, field.name))


def face_up_of_simple(dealing: Dealing) -> set[Card]:
    """The simple declarer's face-up cards, worked out from the deck (§2.6)."""
    options = dealing.options
    good = {c for c in CARDS if c.rank.name in ("QUEEN", "JACK", "ACE")}
    if options.kocherga:
        good.add(card("7C"))
    if options.fixed_suit is not None:
        good |= {c for c in CARDS if c.suit is options.fixed_suit}
    shown: set[Card] = set()
    for c in dealing.deck[:8]:
        shown.add(c)
        if c not in good:
            break
    return shown


def secret_cards(dealing: Dealing, seat: int | None) -> set[Card]:
    """The cards ``seat`` (None: a spectator) may not see now: the other hands (less
    what the rules show: the simple face-up cards, a redeal asker's hand) and the pants
    declarer's laid card before the laid trick."""
    public: set[Card] = set()
    if dealing.praise is Praise.SIMPLE:
        public |= face_up_of_simple(dealing)
    if dealing.end in (DealEnd.REDEAL, DealEnd.REDEAL_PENALTY):
        asker = dealing.table_view().redeal_by
        assert asker is not None
        public |= set(dealing.hand(asker))
    if seat is not None:
        exchange = dealing.view(seat).exchange  # the two partners know its cards
        if exchange is not None:
            public |= {exchange.given, exchange.got}
    secret = {c for s in range(4) if s != seat for c in dealing.hand(s)} - public
    declarer = dealing.declarer
    if dealing.praise is Praise.PANTS and dealing.trick_number == 0 and seat != declarer:
        assert declarer is not None
        laid = dealing.view(declarer).laid
        if laid is not None:
            secret.add(laid)
    return secret


def check_nothing_hidden_leaks(dealing: Dealing, events: list[Event]) -> None:
    spectator = secret_cards(dealing, None)
    assert not set(cards_within(dealing.table_view())) & spectator
    assert not {c for event in events for c in cards_within(event)} & spectator
    for seat in range(4):
        assert not set(cards_within(dealing.view(seat))) & secret_cards(dealing, seat)


@settings(max_examples=25, deadline=None)
@given(SEEDS, OPTIONS)
def test_no_event_or_view_shows_a_hidden_card(seed: int, options: ClassicOptions) -> None:
    rng = random.Random(seed)
    game = ClassicGame(options, first_dealer=rng.randrange(4))
    while not game.is_over and len(game.dealings) < 3:
        events = game.deal(rng)
        dealing = game.current
        assert dealing is not None
        check_nothing_hidden_leaks(dealing, events)
        while not dealing.is_over:
            events = game.apply(rng.choice(game.legal_actions()))
            check_nothing_hidden_leaks(dealing, events)


def test_an_exchange_is_seen_by_the_partners_only() -> None:
    hands = {0: "JS 9C 8C TC KC AC 9H TH", 2: "AS KS 7S 8S 7H 8H 7D 8D"}
    dealing = dealt(opts(**NO_TRUMPS), hands)
    events = play(dealing, "0:offer_trump", "2:accept_trump AS")
    swapped = {card("JS"), card("AS")}
    assert not {c for e in events for c in cards_within(e)} & swapped
    assert not set(cards_within(dealing.table_view())) & swapped
    for seat in (1, 3):
        assert not set(cards_within(dealing.view(seat))) & swapped
    for seat in (0, 2):
        exchange = dealing.view(seat).exchange
        assert exchange is not None and {exchange.given, exchange.got} == swapped
    assert mask_of(dealing.hand(0)) & mask_of([card("AS")])


# --- The J♣ holder is the seat J♣ was dealt to ---------------------------------------------


def _play_out(dealing: Dealing) -> None:
    while not dealing.is_over:
        turn = dealing.turn
        assert turn is not None
        dealing.apply(dealing.legal_actions(turn)[0])


def test_jack_of_clubs_holder_stays_when_the_jack_is_given_in_an_exchange() -> None:
    hands = {0: "JC 9C 8C TC KC AC 9H TH", 2: "AS KS 7S 8S 7H 8H 7D 8D"}
    dealing = dealt(opts(**NO_TRUMPS), hands)
    play(dealing, "0:offer_trump", "2:accept_trump AS")
    assert card("JC") in dealing.hand(2)
    assert dealing.jack_of_clubs_holder == 0
    _play_out(dealing)
    assert dealing.result is not None and dealing.result.next_dealer == 0


def test_jack_of_clubs_holder_stays_when_the_jack_is_laid_into_the_laid_trick() -> None:
    # As KOCHERGA_LAID, but seat 1's last pair is (9H JC) and seat 0 lays JS.
    deck = ends_deck("QS QH QD QC JH 7C 7H 9H 7S 9S", "TS 8S JC 8H AC JD JS AD AH AS")
    dealing = later(opts(praise="pants", trump_suit="H"), deck)
    play(dealing, "0:praise", "0:lay JS")
    assert dealing.view(1).pair == cards("9H JC")
    play(dealing, "1:lay JC", "2:lay 7S", "3:lay 9S")
    assert dealing.trick_number == 1 and dealing.turn == 1  # J♣ took the laid trick
    assert all(card("JC") not in dealing.hand(s) for s in range(4))
    assert dealing.jack_of_clubs_holder == 1
    _play_out(dealing)
    assert dealing.result is not None and dealing.result.next_dealer == 1


# --- follow × trump_lead ----------------------------------------------------------------------

# Simple praise by seat 0: 9H is not good, so ♥ is the trump suit and one card each
# goes round from the declarer. Seat 2 trumps the spade lead and leads next.
FOLLOW_HANDS = {
    0: "9H 7S AS TS 7C 8C 9C TC",
    1: "8S KC AC JC JS JH JD 8H",
    2: "KH TH 7D 8D 9D TD KD AD",
    3: "9S 7H QD QC QS QH AH KS",
}


@pytest.mark.parametrize("trump_lead", ["declarer", "team"])
@pytest.mark.parametrize("follow", ["suit_first", "any_trump"])
def test_follow_and_trump_lead_combine(trump_lead: str, follow: str) -> None:
    options = opts(praise="simple", trump_lead=trump_lead, follow=follow)
    dealing = later(options, round_deck(FOLLOW_HANDS, first=0), dealer=3)
    play(dealing, "0:praise")
    assert dealing.trump is Suit.HEARTS and dealing.turn == 0
    play(dealing, "0:play 7S", "1:play 8S", "2:play KH", "3:play 9S")
    assert dealing.turn == 2 and dealing.tricks == (1, 0)
    if trump_lead == "declarer":
        with pytest.raises(KozelError) as error:
            dealing.verify(act("2:play TH"))
        assert error.value.reason is ClassicReason.TRUMP_LEAD_FORBIDDEN
        return
    play(dealing, "2:play TH")
    allowed = {a.card for a in dealing.legal_actions(3)}
    if follow == "suit_first":
        assert allowed == set(cards("7H AH"))
    else:
        assert allowed == set(cards("7H AH QD QC QS QH"))
