"""Duplicate challenges (:mod:`bot.challenge`): an entrant's next deal started or
resumed, and a challenge's table.

Each deal an entrant plays is a game of its own in his private chat (or his terminal):
he sits at seat 0, the strong computer at the three others, the deal dealt from its
HMAC-derived seed (the same for everyone). The game ends with that deal
(:meth:`bot.service.steps.Steps.advance`), and the save that keeps the deal's result
keeps his loss with it (the storage, :meth:`bot.ports.Storage.start_challenge_deal`).
A deal started is his: asking again resumes its game, never deals it anew.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from bot import challenge as challenges
from bot.challenge import Challenge, ChallengeError, DealTaken, Play, Standings
from bot.errors import ErrorCode, ServiceError
from bot.models import ChatRef, Game, GameStatus, Seat, SeatKind, TableSettings, User, UserRef
from bot.ports import Change, ChangeKind
from bot.service.lobby import COMPUTER_NAMES, Lobby
from bot.service.people import People
from bot.service.publishing import Publishing
from bot.service.steps import Steps
from bot.service.tables import Tables
from core.errors import KozelError
from core.ruleset import rule_set_ids


class Challenges:
    """Entrants' deals and challenges' tables."""

    def __init__(
        self, tables: Tables, steps: Steps, publishing: Publishing, people: People, lobby: Lobby
    ) -> None:
        self.tables = tables
        self.steps = steps
        self.publishing = publishing
        self.people = people
        self.lobby = lobby

    async def find(self, word: str | None) -> Challenge:
        """The challenge a word names: none (or ``daily``) the day's of the default
        rules, a rule set's id the day's of those rules, else a challenge's id (a
        daily one is made on first use). Anything else is refused
        (``challenge-unknown``; a day not begun: ``challenge-not-yet``)."""
        word = (word or "").strip().lower()
        if not word or word in challenges.DAILY_WORDS:
            word = self.lobby.default_rule_set
        now = self.tables.clock.now()
        if word in rule_set_ids():
            word = challenges.daily_id(word, now)
        if not challenges.well_formed(word):
            raise ServiceError(ChallengeError.UNKNOWN)
        storage = self.tables.storage
        kept = await storage.challenge(word)
        if kept is not None:
            return kept
        daily = challenges.daily_challenge(word, now)
        if daily is None:
            found = challenges.daily_of(word)
            raise ServiceError(ChallengeError.NOT_YET if found else ChallengeError.UNKNOWN)
        return await storage.keep_challenge(daily)

    async def create(self, rule_set: str, options: Mapping[str, Any]) -> Challenge:
        """A new custom challenge of those rules and options (bad ones are refused)."""
        try:
            made = challenges.new_challenge(rule_set, options, self.tables.clock.now())
        except KozelError as error:
            raise ServiceError.from_rules(error) from None
        return await self.tables.storage.keep_challenge(made)

    async def play(self, challenge: Challenge, chat: ChatRef, user: User) -> Game:
        """The entrant's deal to play now: the one he started and has not finished (its
        game as saved), else his first unplayed one, dealt and started in ``chat``.
        Refused when he played every deal (``challenge-done``) or ``chat`` has another
        open game (``game-running``, with its id)."""
        tables = self.tables
        async with tables.chat_lock(chat):
            plays = await tables.storage.challenge_plays(challenge.id, user.ref)
            upcoming = challenges.next_deal(challenge, plays)
            if upcoming is None:
                raise ServiceError(ChallengeError.DONE)
            if isinstance(upcoming, Play):
                return await tables.game(upcoming.game_id)
            running = await tables.open_game(chat)
            if running is not None:
                raise ServiceError(ErrorCode.GAME_RUNNING, running.id)
            await self.people.touch_user(user)
            try:
                game = await self._start(challenge, upcoming, chat, user)
            except DealTaken:  # another process started it first: that game is his
                return await self.play_started(challenge, user.ref)
        tables.moved(game)
        return game

    async def play_started(self, challenge: Challenge, user: UserRef) -> Game:
        """The game of the deal the entrant started and has not finished."""
        plays = await self.tables.storage.challenge_plays(challenge.id, user)
        upcoming = challenges.next_deal(challenge, plays)
        if not isinstance(upcoming, Play):
            raise ServiceError(ChallengeError.DONE)
        return await self.tables.game(upcoming.game_id)

    async def _start(self, challenge: Challenge, deal: int, chat: ChatRef, user: User) -> Game:
        """Deal ``deal`` dealt and saved with the entrant's entry, then shown."""
        tables = self.tables
        storage = tables.storage
        dealer, seed = challenges.deal_seed(
            await storage.secret(challenges.SECRET_NAME), challenge.id, deal
        )
        info = await storage.get_chat(chat)
        settings = TableSettings(
            rule_set=challenge.rule_set,
            options=dict(challenge.options),
            locale=info.locale if info and info.locale else self.people.default_chat_locale(chat),
            turn_timeout=(
                info.turn_timeout
                if info and info.turn_timeout is not None
                else self.lobby.turn_timeout
            ),
            computer_level=challenges.LEVEL,
            challenge=challenge.id,
            challenge_deal=deal,
        )
        play = settings.new_game(first_dealer=dealer)
        events = tuple(play.deal(random.Random(seed)))
        computers = [
            Seat(SeatKind.COMPUTER, name, level=challenges.LEVEL) for name in COMPUTER_NAMES[:3]
        ]
        now = tables.clock.now()
        game = Game(
            id=0,
            chat=chat,
            creator=user.ref,
            status=GameStatus.PLAYING,
            settings=settings,
            seats=[Seat(SeatKind.HUMAN, user.name, user.ref), *computers],
            play=play,
            version=1,
            created_at=now,
            updated_at=now,
        )
        self.steps.set_deadline(game)
        game = await storage.start_challenge_deal(game, challenge, deal, user.name)
        tables.games[game.id] = game
        await self.publishing.publish(game, Change(ChangeKind.STARTED, events))
        return game

    async def challenge_of(self, game: Game) -> Challenge | None:
        """The challenge a game plays a deal of (None: an ordinary game)."""
        if game.settings.challenge is None:
            return None
        return await self.tables.storage.challenge(game.settings.challenge)

    async def plays(self, challenge: Challenge, user: UserRef) -> list[Play]:
        """The deals of the challenge the user started."""
        return await self.tables.storage.challenge_plays(challenge.id, user)

    async def standings(self, challenge: Challenge, user: UserRef | None) -> Standings:
        """The challenge's table and the user's line, read apart from the saves."""
        return await self.tables.storage.challenge_standings(challenge, user)
