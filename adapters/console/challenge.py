"""``kozel play --challenge ID``: a duplicate challenge in the terminal (its local
database), deal after deal: ``daily``, ``yard`` or ``classic`` for the day's. Each deal
is played as ``kozel play`` plays a game (you at seat 0, the strong computer at the
others); quitting keeps the deal begun, and the same command goes on with it."""

from __future__ import annotations

from typing import TextIO

from adapters.console.play import ConsoleGame, ConsolePublisher
from bot import presenters
from bot.challenge import ChallengeError, Play
from bot.errors import ServiceError
from bot.i18n import Translator
from bot.models import ChatRef, GameStatus, Platform, User
from bot.presenters import challenge as challenge_words
from bot.service import GameService

#: The terminal's chat of challenge deals (apart from its saved ``kozel play`` game).
CHALLENGE_CHAT = ChatRef(Platform.CONSOLE, "challenge")


async def play_challenge(
    service: GameService,
    console: ConsoleGame,
    publisher: ConsolePublisher,
    word: str,
    out: TextIO,
) -> int:
    """Play the entrant's deals of the challenge ``word`` names until they are all
    played (exit status 0) or his input ends (0: the deal begun is kept); a challenge
    it names none of is refused in one line (exit status 2)."""
    tr, locale = console.tr, console.locale
    you = User(console.you.ref, tr.t(locale, console.you.name))
    challenges = service.challenges
    try:
        challenge = await challenges.find(word)
    except ServiceError as error:
        out.write(_error(error.code, tr, locale) + "\n")
        return 2
    console.seat = publisher.viewer = 0
    while True:
        try:
            game = await challenges.play(challenge, CHALLENGE_CHAT, you)
        except ServiceError as error:
            out.write(_error(error.code, tr, locale) + "\n")
            return 0 if error.code == ChallengeError.DONE else 1
        deal = game.settings.challenge_deal or 0
        console.say(challenge_words.started(challenge, deal, tr, locale).text)
        status = await console.play_human(game.id)
        game = await service.game(game.id)
        if game.status is not GameStatus.FINISHED:
            console.say(tr.t(locale, "challenge-console-quit"))
            return status
        plays: list[Play] = await challenges.plays(challenge, you.ref)
        standings = await challenges.standings(challenge, you.ref)
        screen = challenge_words.deal_over(game, challenge, plays, standings, tr, locale)
        console.say(screen.text)
        if all(play.loss is not None for play in plays) and len(plays) >= challenge.deals:
            return 0


def _error(code: str, tr: Translator, locale: str) -> str:
    return presenters.error(code, tr, locale, console=True).text
