"""Hand-built decks and scripted deals for the core's tests.

A deck is dealt one card at a time clockwise from the seat after the dealer: deck card
``i`` (``i < 16``) goes to seat ``(dealer + 1 + i) % 4``; the other 20 cards are the
stock, top first. :func:`build_deck` turns "the hands I want" and "the stock I want"
into that order, so a test reads as the table it sets up.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from core.cards import CARDS, Card, Suit, mask_of, points_of
from core.yard.actions import Action, ActionKind
from core.yard.deal import Deal

HAND = 4
DEALT = 16
STOCK = 20

Cards = str | Iterable[Card]


def cards(codes: Cards) -> tuple[Card, ...]:
    """``"AH KH 6C"`` → the cards; card sequences pass through."""
    if isinstance(codes, str):
        return tuple(Card.parse(code) for code in codes.split())
    return tuple(codes)


def act(text: str) -> Action:
    """``"0:lead AH KH"`` → the action (the inverse of ``str(action)``)."""
    head, _, rest = text.partition(" ")
    seat, _, kind = head.partition(":")
    return Action(int(seat), ActionKind(kind), cards(rest))


def build_deck(hands: Mapping[int, Cards], stock: Cards = (), dealer: int = 3) -> list[Card]:
    """The 36-card deck order that deals ``hands`` (seat → 4 cards) and puts ``stock``
    (top first) on top of the stock. Seats left out of ``hands`` and the rest of the
    stock get the unused cards in index order."""
    wanted = {seat: list(cards(hand)) for seat, hand in hands.items()}
    top = list(cards(stock))
    used = [card for hand in wanted.values() for card in hand] + top
    if len(set(used)) != len(used):
        raise ValueError("a card is used twice")
    if any(len(hand) != HAND for hand in wanted.values()) or len(top) > STOCK:
        raise ValueError("hands hold 4 cards, the stock at most 20")
    spare = [card for card in CARDS if card not in set(used)]
    for seat in range(4):
        if seat not in wanted:
            wanted[seat], spare = spare[:HAND], spare[HAND:]
    deck = [wanted[(dealer + 1 + i) % 4][i // 4] for i in range(DEALT)]
    deck += top + spare
    assert len(deck) == 36 and len(set(deck)) == 36
    return deck


def make_deal(
    hands: Mapping[int, Cards],
    stock: Cards = (),
    dealer: int = 3,
    *,
    trump: str,
) -> Deal:
    """A deal of :func:`build_deck`; ``trump`` is the code of the card shown as the
    trump, which must be in the stock."""
    deck = build_deck(hands, stock, dealer)
    index = deck[DEALT:].index(Card.parse(trump))
    return Deal.from_deck(dealer, deck, index)


def play(deal: Deal, *script: str) -> None:
    """Apply each ``"seat:kind cards"`` action in order."""
    for text in script:
        deal.apply(act(text))


@dataclass(frozen=True)
class Plan:
    """A deal with its whole play scripted: deck, trump position and actions."""

    dealer: int
    deck: tuple[Card, ...]
    trump_index: int
    actions: tuple[Action, ...]

    def deal(self, number: int = 0) -> Deal:
        return Deal.from_deck(self.dealer, self.deck, self.trump_index, number)

    def played(self) -> Deal:
        deal = self.deal()
        for action in self.actions:
            deal.apply(action)
        return deal


def three_tricks(
    dealer: int, leader_pile: Cards, *, shutout: bool = False, trump: Suit = Suit.DIAMONDS
) -> Plan:
    """A deal played in three tricks (4, 4 and 1 cards each) whose score is forced.

    The leader L (the seat after the dealer) leads the first 4 cards of ``leader_pile``
    (one suit); the others discard its other 12 cards, so L's team takes exactly
    ``leader_pile``. In the second trick L leads four plain cards of one suit and L+1
    beats them with four trumps (or, with ``shutout``, discards); the last four cards
    are a one-card trick led by the second trick's winner, everybody else discarding.
    So L's team ends with ``points_of(leader_pile)`` and one trick, the other team
    with the rest and two tricks; with ``shutout`` L's team takes all 120 and 3 tricks.
    """
    pile = list(cards(leader_pile))
    if len(pile) != DEALT or len({card.suit for card in pile[:HAND]}) != 1:
        raise ValueError("the pile is 16 cards, the first four of one suit")
    rest = [card for card in CARDS if card not in set(pile)]
    trumps = [card for card in rest if card.suit is trump][:HAND]
    plain = next(
        (
            [card for card in rest if card.suit is suit][:HAND]
            for suit in Suit
            if suit is not trump and sum(card.suit is suit for card in rest) >= HAND
        ),
        [],
    )
    if len(trumps) < HAND or len(plain) < HAND:
        raise ValueError("the other 20 cards need four trumps and four plain cards of a suit")
    others = [card for card in rest if card not in set(trumps) | set(plain)]
    leader = (dealer + 1) % 4
    seat = [(leader + k) % 4 for k in range(4)]
    hands = {seat[k]: pile[HAND * k : HAND * (k + 1)] for k in range(4)}
    stock = []
    for k in range(HAND):
        stock += [plain[k], trumps[k], others[2 * k], others[2 * k + 1]]
    last = others[8:]
    stock += last
    deck = build_deck(hands, stock, dealer)
    trump_index = 5  # trumps[1], in the middle of the stock

    def a(s: int, kind: ActionKind, *cs: Card) -> Action:
        return Action(s, kind, tuple(cs))

    lead, discard, beat = ActionKind.LEAD, ActionKind.DISCARD, ActionKind.BEAT
    actions = [a(seat[0], lead, *hands[seat[0]])]
    actions += [a(seat[k], discard, *hands[seat[k]]) for k in (1, 2, 3)]
    drawn = {seat[k]: stock[k : 4 * HAND : 4] for k in range(4)}
    actions.append(a(seat[0], lead, *drawn[seat[0]]))
    actions.append(a(seat[1], discard if shutout else beat, *drawn[seat[1]]))
    actions += [a(seat[k], discard, *drawn[seat[k]]) for k in (2, 3)]
    first = seat[0] if shutout else seat[1]
    order = [(first + k) % 4 for k in range(4)]
    actions.append(a(order[0], lead, last[0]))
    actions += [a(order[k], discard, last[k]) for k in (1, 2, 3)]
    return Plan(dealer, tuple(deck), trump_index, tuple(actions))


#: Piles for :func:`three_tricks` by their points: the leader's team takes the pile,
#: the other team the other 20 cards (and 120 minus those points).
PILES = {
    90: "JC QC KC 6C AC TC AH TH KH QH JH AS TS KS QS JS",
    89: "JC QC KC 6C AC TC AH TH KH QH JH AS TS KS JD JS",
    61: "6C 7C 8C 9C AH TH KH QH JH AS TS KS QS QC 6H 7H",
    60: "6C 7C 8C 9C AH TH KH QH JH AS TS KS QS JS 6H 7H",
    59: "6C 7C 8C 9C AH TH KH QH JH AS TS KS JD JS 6H 7H",
    31: "6C 7C 8C 9C AH TH KH QH QS 6H 7H 8H 9H 6S 7S 8S",
    30: "6C 7C 8C 9C AH TH KH QH JH 6H 7H 8H 9H 6S 7S 8S",
    0: "6C 7C 8C 9C 6S 7S 8S 9S 6H 7H 8H 9H 6D 7D 8D 9D",
}


def pile_points(codes: Cards) -> int:
    return points_of(mask_of(cards(codes)))
