"""Rendering benchmark: ``python -m bench.render``.

Screens the bot builds for every button press, at realistic mid-deal positions:
games like those of ``bench.telegram`` (one human at seat 0, three computer players,
a turn timeout running), each played at random to some point of a deal, sometimes
after a few whole deals. Prints ``name: value`` lines:

- ``table_screens_per_second_<ru|en>``: ``presenters.table`` (the public message);
- ``hand_screens_per_second_<ru|en>``: ``presenters.hand`` of the human's seat, half
  with nothing selected, half with the cards of one of his legal actions selected
  (as while pressing card buttons);
- ``hand_keyboards_per_second``: ``adapters.telegram.render.keyboard`` of those hand
  screens (built beforehand).

Every timed run renders positions of new games (new seeds), with one
:class:`~bot.i18n.Translator` for the whole benchmark, as in a running bot: what
repeats from game to game may be served from caches, what depends on the position
must be built. Every figure is the median of ``--repeat`` timed runs, after a
warm-up run.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import TypeVar

from adapters.telegram.render import keyboard
from bot import presenters
from bot.i18n import Translator
from bot.models import ChatRef, Game, GameStatus, Platform, Seat, SeatKind, UserRef
from bot.presenters import Screen

NOW = 1_000_000.0
HUMAN = 0


def make_game(rng: random.Random, game_id: int) -> Game:
    """A game in play at a random point of a deal: one human, three computers."""
    human = UserRef(Platform.TELEGRAM, str(1000 + game_id))
    game = Game(
        id=game_id,
        chat=ChatRef(Platform.TELEGRAM, str(-1_000_000 - game_id)),
        creator=human,
        status=GameStatus.PLAYING,
        version=rng.randrange(1, 500),
    )
    names = rng.sample(range(1, 9), 3)
    game.seats = [
        Seat(SeatKind.HUMAN, f"Player {game_id}", human),
        *(Seat(SeatKind.COMPUTER, f"bot-name-{n}") for n in names),
    ]
    series = game.play.series
    for _ in range(rng.choice((0, 0, 1, 2, 3))):  # some whole deals first
        series.deal(rng)
        deal = series.current
        assert deal is not None
        while deal.result is None:
            series.apply(rng.choice(deal.legal_actions()))
        if series.is_over:
            break
    if not series.is_over:
        series.deal(rng)
        deal = series.current
        assert deal is not None
        for _ in range(rng.randrange(0, 30)):
            if deal.result is not None:
                break
            series.apply(rng.choice(deal.legal_actions(deal.turn)))
    game.turn_deadline = NOW + rng.randrange(1, 120)
    return game


def selection(game: Game, rng: random.Random) -> int:
    """The selection of the cards of one of the human's legal actions (0 if none)."""
    deal = game.play.series.current
    if deal is None or deal.result is not None:
        return 0
    choices = [a for a in deal.legal_actions(HUMAN) if a.cards]
    if not choices:
        return 0
    return presenters.selection_of(deal.hand(HUMAN), rng.choice(choices).cards)


Position = tuple[Game, int]
T = TypeVar("T")


def positions(seed: int, count: int) -> list[Position]:
    rng = random.Random(seed)
    return [(make_game(rng, 2 * seed * count + i), 0) for i in range(count)] + [
        (game, selection(game, rng))
        for game in (make_game(rng, 2 * seed * count + count + i) for i in range(count))
    ]


def _rate(make: Callable[[int], list[T]], work: Callable[[list[T]], None], repeat: int) -> float:
    """Items per second: the median of ``repeat`` timed runs, each on fresh items."""
    work(make(0))  # warm-up
    rates = []
    for run in range(1, repeat + 1):
        items = make(run)
        start = time.perf_counter()
        work(items)
        rates.append(len(items) / (time.perf_counter() - start))
    return statistics.median(rates)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="positions per timed run")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs; the median is shown")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    tr = Translator.from_dir()
    half = max(1, args.games // 2)

    metric = 0

    def make(run: int) -> list[Position]:
        # New games for every run of every figure.
        return positions((args.seed * 100 + metric) * 100 + run, half)

    for locale in ("ru", "en"):

        def tables(items: list[Position], locale: str = locale) -> None:
            for game, _ in items:
                presenters.table(game, tr, locale, NOW)

        def hands(items: list[Position], locale: str = locale) -> None:
            for game, selected in items:
                presenters.hand(game, HUMAN, selected, tr, locale)

        metric += 1
        print(f"table_screens_per_second_{locale}: {_rate(make, tables, args.repeat):.0f}")
        metric += 1
        print(f"hand_screens_per_second_{locale}: {_rate(make, hands, args.repeat):.0f}")

    def make_screens(run: int) -> list[Screen]:
        return [presenters.hand(game, HUMAN, sel, tr, "ru") for game, sel in make(run)]

    def keyboards(items: list[Screen]) -> None:
        for screen in items:
            keyboard(screen)

    metric += 1
    print(f"hand_keyboards_per_second: {_rate(make_screens, keyboards, args.repeat):.0f}")


if __name__ == "__main__":
    main()
