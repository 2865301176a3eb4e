"""The screens of duplicate challenges (:mod:`bot.challenge`): a deal begun, a deal
over with the entrant's score and the way to the next, a challenge's table."""

from __future__ import annotations

from bot.challenge import Challenge, Play, Standings
from bot.codec import Verb
from bot.i18n import Translator
from bot.models import Game
from bot.presenters.common import Button, Screen, button_rows, game_token, rules_name, text_screen


def points(value: float) -> str:
    """A score or an average as the screens write it: signed, two decimals at most.

    >>> points(1.5), points(-0.25), points(0), points(2 / 3)
    ('+1.5', '-0.25', '0', '+0.67')
    """
    text = f"{value:+.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("+0", "-0") else text


def started(challenge: Challenge, deal: int, tr: Translator, locale: str) -> Screen:
    """The line that opens an entrant's deal (numbered from 1)."""
    return Screen(
        tr.t(
            locale,
            "challenge-started",
            id=challenge.id,
            rules=rules_name(challenge.rule_set, tr, locale),
            deal=deal + 1,
            deals=challenge.deals,
        )
    )


def made(challenge: Challenge, tr: Translator, locale: str) -> Screen:
    """A new custom challenge: its id, to give to friends."""
    rules = rules_name(challenge.rule_set, tr, locale)
    return Screen(
        tr.t(locale, "challenge-made", id=challenge.id, rules=rules, deals=challenge.deals)
    )


def deal_over(
    game: Game,
    challenge: Challenge,
    plays: list[Play],
    standings: Standings,
    tr: Translator,
    locale: str,
) -> Screen:
    """A deal of the entrant's over: his loss, the field's average in it, his score and
    place, and a Next deal button (none after his last deal)."""
    deal = game.settings.challenge_deal or 0
    play = next((p for p in plays if p.deal == deal), None)
    lost = 0 if play is None or play.loss is None else play.loss
    own = standings.own
    field = standings.totals.get(deal)
    average = lost if field is None else field.average
    lines = [
        tr.t(
            locale,
            "challenge-deal-over",
            id=challenge.id,
            deal=deal + 1,
            deals=challenge.deals,
            loss=points(lost),
            average=points(average),
        )
    ]
    if own is not None:
        lines.append(
            tr.t(
                locale,
                "challenge-score",
                score=points(own.score),
                played=own.deals,
                place=own.place,
                entrants=standings.entrants,
            )
        )
    finished = sum(p.loss is not None for p in plays) >= challenge.deals
    if finished:
        lines.append(tr.t(locale, "challenge-all-played", id=challenge.id))
        return text_screen(lines)
    button = Button(tr.t(locale, "challenge-next"), game_token(game, Verb.REMATCH))
    return text_screen(lines, button_rows([button]))


def table(standings: Standings, tr: Translator, locale: str) -> Screen:
    """A challenge's table: its best entrants, the asker's own line, how it counts."""
    challenge = standings.challenge
    rules = rules_name(challenge.rule_set, tr, locale)
    if not standings.top:
        return Screen(tr.t(locale, "challenge-top-empty", id=challenge.id))
    lines = [
        tr.t(
            locale,
            "challenge-top-title",
            id=challenge.id,
            rules=rules,
            entrants=standings.entrants,
        )
    ]
    for line in standings.top:
        lines.append(
            tr.t(
                locale,
                "challenge-top-row",
                place=line.place,
                name=line.name,
                score=points(line.score),
                deals=line.deals,
            )
        )
    own = standings.own
    if own is not None and own not in standings.top:
        lines.append(
            tr.t(
                locale,
                "challenge-top-own",
                place=own.place,
                score=points(own.score),
                deals=own.deals,
            )
        )
    lines.append(tr.t(locale, "challenge-top-hint"))
    return text_screen(lines)
