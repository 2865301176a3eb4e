"""The computer players: each game's driver, which lets the computers move until a
human is to act, and the players themselves (they remember what they saw in a deal).
A computer that searches thinks off the loop (:class:`bot.thinking.Thinkers`) and
without the game's lock, within a deadline."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.errors import ServiceError
from bot.models import Game, GameStatus, SeatKind, UserRef
from bot.service.steps import Action, Event, Step, Steps
from bot.service.tables import Tables
from bot.thinking import Thinkers
from core.ruleset import Chance, Computer, Observer, get_rule_set

log = logging.getLogger(__name__)

Sleep = Callable[[float], Awaitable[None]]
#: At most this many computer moves (made without a delay) are saved together.
MAX_MOVES_PER_SAVE = 8


@dataclass(slots=True)
class Decision:
    """What the computers chose at one moment of a game (its ``version``), maybe
    thought out without the game's lock: taken only if the game is still there."""

    version: int
    #: The chances whose computers were asked (each is asked once a moment).
    asked: list[Chance] = field(default_factory=list)
    #: By seat: the player asked and the player as its choice left it (None: it gave
    #: no answer in time, a new one is made).
    players: dict[int, tuple[Computer, Computer | None]] = field(default_factory=dict)
    #: The seat to act, its action, and whether it plays for a human.
    move: tuple[int, Action, bool] | None = None


class Computers:
    """Drives the computer-played seats of the games kept here."""

    def __init__(
        self,
        tables: Tables,
        steps: Steps,
        thinkers: Thinkers,
        *,
        computer_delay: float,
        players: Callable[[str], Computer] | None,
        sleep: Sleep,
    ) -> None:
        self.tables = tables
        self.steps = steps
        #: Where computers that search think (worker processes or a thread).
        self.thinkers = thinkers
        self.computer_delay = computer_delay
        self._players = players
        self._sleep = sleep
        #: Each game's driver at work.
        self.drivers: dict[int, asyncio.Task[None]] = {}
        #: By game: the moment of the last chances (``Game.chances``) the computers
        #: were asked about, and the seats asked then: each is asked once a moment.
        self._chances_asked: dict[int, tuple[tuple[int, ...], set[int]]] = {}
        #: Computer players by game and seat: they remember what they saw in a deal.
        self._seat_players: dict[int, dict[int, Computer]] = {}
        tables.on_moved.append(self.kick)
        tables.on_reset.append(self._drop)
        steps.on_advanced.append(self._observe)

    def _drop(self, game_id: int) -> None:
        self._chances_asked.pop(game_id, None)
        self._seat_players.pop(game_id, None)

    async def _decide(self, game: Game) -> Decision | None:
        """What the computer-played seats do now: first those with a chance (an
        optional action, e.g. a molodka at the start of a trick: docs/rules/reference.md §1.4, bots
        decide then) are asked, once each a moment; then the seat whose turn it is.

        A search is awaited (off the loop), and the game's lock need not be held: the
        decision is made for the game as it is at its ``version``, and None is
        answered if the game moved on meanwhile (a human acted, it was cancelled).
        :meth:`_settle` keeps what was asked and the players as their choices left
        them, under the lock, once the decision is taken."""
        version = game.version
        decision = Decision(version)
        if game.status is not GameStatus.PLAYING:
            return decision
        play = game.play
        turn = play.turn
        if turn is None:
            return decision
        for chance in play.chances():
            seat = game.seats[chance.seat]
            if seat is None or not seat.plays_itself or not self._unasked(game, chance):
                continue
            decision.asked.append(chance)
            choice = await self._think(game, chance.seat, decision)
            if self._moved_on(game, version):
                return None
            if choice is not None and choice in chance.actions:
                decision.move = (chance.seat, choice, seat.kind is SeatKind.HUMAN)
                return decision
        seat = game.seats[turn]
        if seat is None or not seat.plays_itself:
            return decision
        choice = await self._think(game, turn, decision)
        if self._moved_on(game, version):
            return None
        if (
            choice is None
            or choice.seat != turn
            or play.is_optional(choice)
            or not play.can(choice)
        ):
            # A player that declines its turn (or would take an optional action out
            # of its turn here, or gave no answer in time) still has to move: take
            # the safe action instead.
            choice = play.safe_action(turn)
        decision.move = (turn, choice, seat.kind is SeatKind.HUMAN)
        return decision

    async def computer_choice(self, game_id: int, user: UserRef) -> Action | None:
        """What a computer of the table's level would do now at ``user``'s seat (the
        console's "let the computer move for you"): the action it chooses, which may be
        an optional one (a molodka) or any the rules offer, not only the safe one; a
        turn the computer lets pass gets the safe action; None when the seat has
        nothing to do now, or the computer lets an optional moment pass. It is asked as
        the table's own computers are (off the loop for a search), on a copy of what
        the seat sees; nothing is played."""
        game = await self.tables.game(game_id)
        seat = game.seat_of(user)
        if seat is None or game.status is not GameStatus.PLAYING:
            return None
        play = game.play
        if not play.legal_actions(seat):
            return None
        player = self._made(game, game.settings.computer_level)
        view = play.seat_view(seat)
        rng = self.tables.rng
        if not getattr(player, "searches", True):
            choice = player.choose(view, rng)
        else:
            choice = (await self.thinkers.think(player, view, rng.getrandbits(64))).action
        if choice is not None and choice.seat == seat and play.can(choice):
            return choice
        return play.safe_action(seat) if play.turn == seat else None

    def _moved_on(self, game: Game, version: int) -> bool:
        """Whether the game changed since ``version`` (or is not kept any more)."""
        return game.version != version or self.tables.games.get(game.id) is not game

    def _settle(self, game: Game, decision: Decision) -> None:
        """Keep what a decision asked and the players as their choices left them (the
        game's lock held, the game still at the decision's version)."""
        for chance in decision.asked:
            self._ask(game.id, chance)
        players = self._seat_players.get(game.id)
        for seat_no, (asked, left) in decision.players.items():
            if players is None or players.get(seat_no) is not asked:
                continue
            if left is None:  # a late search: a new player learns the deal afresh
                del players[seat_no]
            else:
                players[seat_no] = left

    def _ask(self, game_id: int, chance: Chance) -> None:
        """Count the computer of a chance's seat asked about it (each is asked once a
        moment)."""
        moment, asked = self._chances_asked.get(game_id, ((), set()))
        if moment != chance.moment:
            moment, asked = chance.moment, set()
            self._chances_asked[game_id] = (moment, asked)
        asked.add(chance.seat)

    def _unasked(self, game: Game, chance: Chance) -> bool:
        moment, asked = self._chances_asked.get(game.id, ((), set()))
        return moment != chance.moment or chance.seat not in asked

    def _searches_next(self, game: Game) -> bool:
        """Whether a computer to be asked now in the game searches (thinks off the
        loop, for a while): then the decision is made without the game's lock."""
        if game.status is not GameStatus.PLAYING or game.play.turn is None:
            return False
        seats = [
            chance.seat
            for chance in game.play.chances()
            if _plays_itself(game, chance.seat) and self._unasked(game, chance)
        ]
        if _plays_itself(game, game.play.turn):
            seats.append(game.play.turn)
        return any(getattr(self._player(game, seat), "searches", True) for seat in seats)

    async def _think(self, game: Game, seat_no: int, decision: Decision) -> Action | None:
        """The choice of the computer playing a seat. A player that says it answers at
        once (``searches`` false: the easy and normal levels answer in well under a
        millisecond, less than a round trip off the loop costs) chooses in place with
        the service's random source. A search (the strong level, up to a few hundred
        milliseconds) is worked out off the event loop by :attr:`thinkers` (a worker
        process, or a thread), with a seed drawn here, within the thinkers' deadline
        (None past it). The player as the choice left it (its memory moved on) is
        kept in the decision, to take the place of the one that was asked."""
        earlier = decision.players.get(seat_no)  # the seat chose already at this moment
        if earlier is None:
            asked = player = self._player(game, seat_no)
        elif earlier[1] is None:
            return None  # it gave no answer in time just now: no second wait
        else:
            asked, player = earlier[0], earlier[1]
        view = game.play.seat_view(seat_no)
        rng = self.tables.rng
        if not getattr(player, "searches", True):
            return player.choose(view, rng)
        thought = await self.thinkers.think(player, view, rng.getrandbits(64))
        if thought.late:
            log.warning(
                "the computer at seat %s of game %s gave no answer in time: it plays"
                " the safe action",
                seat_no,
                game.id,
            )
        decision.players[seat_no] = (asked, None if thought.late else thought.player)
        return thought.action

    def _made(self, game: Game, level: str) -> Computer:
        """A new player of ``level`` for the game's rules, told what the table saw of
        the deal so far (a player made in the middle of a deal: a restart, an away
        human, the console's advice)."""
        if self._players is not None:
            player = self._players(level)
        else:
            player = get_rule_set(game.settings.rule_set).computer(level, game.play.options)
        if isinstance(player, Observer):
            for event in game.play.public_events():
                player.observe(event)
        return player

    def _player(self, game: Game, seat_no: int) -> Computer:
        players = self._seat_players.setdefault(game.id, {})
        player = players.get(seat_no)
        if player is None:
            seat = game.seats[seat_no]
            level = seat.level if seat is not None and seat.is_computer else "normal"
            player = players[seat_no] = self._made(game, level)
        return player

    def _observe(self, game: Game, events: list[Event]) -> None:
        for player in self._seat_players.get(game.id, {}).values():
            if isinstance(player, Observer):
                for event in events:
                    player.observe(event)

    def _needs_driver(self, game: Game) -> bool:
        if game.status is not GameStatus.PLAYING:
            return False
        play = game.play
        turn = play.turn
        if turn is None:
            return False
        if _plays_itself(game, turn):
            return True
        return any(
            _plays_itself(game, chance.seat) and self._unasked(game, chance)
            for chance in play.chances()
        )

    def kick(self, game: Game) -> None:
        """Start the game's computer driver if a computer is to move."""
        if game.id in self.drivers or not self.tables.owns(game) or not self._needs_driver(game):
            return
        task = asyncio.get_running_loop().create_task(self._drive(game.id))
        self.drivers[game.id] = task

    async def _drive(self, game_id: int) -> None:
        """Let the game's computers move until a human is to act. A computer that
        searches thinks without the game's lock (a human's press, a cancel, a timer
        go on meanwhile); its move is applied only if the game is still where it
        was, else it thinks again. Computers that answer at once choose under the
        lock, and without a delay their moves in a row are one save."""
        games = self.tables.games
        try:
            while True:
                game = games.get(game_id)
                if game is None or not self._needs_driver(game):
                    return
                version = game.version
                if self.computer_delay > 0:
                    await self._sleep(self.computer_delay)
                thought: Decision | None = None
                if not self._moved_on(game, version) and self._searches_next(game):
                    thought = await self._decide(game)
                    if thought is None:
                        continue  # the game moved on meanwhile: look again
                if games.get(game_id) is not game:
                    continue
                async with self.tables.locked(game_id) as locked:
                    if locked is not game or game.version != version:
                        continue  # a human acted meanwhile: look again
                    steps: list[Step] = []
                    if thought is not None:
                        self._settle(game, thought)
                        if thought.move is not None:
                            steps.append(self._step(game, thought.move))
                    while self._moves_on(steps) and not self._searches_next(game):
                        decision = await self._decide(game)  # no search: nothing awaited
                        if decision is None:
                            break
                        self._settle(game, decision)
                        if decision.move is None:
                            break
                        steps.append(self._step(game, decision.move))
                    if steps:
                        await self.steps.commit(game, steps)
        except asyncio.CancelledError:
            raise
        except ServiceError as error:
            # Another process saved the game first (its move stands) or the game is
            # gone: this driver has nothing left to do here.
            log.info("computer player of game %s stopped: %s", game_id, error.code)
        except Exception:
            log.exception("computer player failed in game %s", game_id)
        finally:
            self.drivers.pop(game_id, None)

    def _step(self, game: Game, move: tuple[int, Action, bool]) -> Step:
        _, action, for_human = move
        return self.steps.advance(game, action, user=None, auto=for_human)

    def _moves_on(self, steps: list[Step]) -> bool:
        """Whether the driver takes another move into the same save: the first one,
        and without a delay more, up to a scored deal or :data:`MAX_MOVES_PER_SAVE`."""
        if not steps:
            return True
        return self.computer_delay <= 0 and not steps[-1].scored and len(steps) < MAX_MOVES_PER_SAVE


def _plays_itself(game: Game, seat_no: int) -> bool:
    seat = game.seats[seat_no]
    return seat is not None and seat.plays_itself
