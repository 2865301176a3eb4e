"""A Swiss evening's final standings as a picture, in the look of a game's result
picture (:func:`bot.pictures.draw`)."""

from __future__ import annotations

from bot.event import Event
from bot.i18n import Translator
from bot.pictures import ResultCard, TeamCard, draw
from bot.presenters.common import rules_name
from bot.presenters.event import lines_of, team_name


def final_picture(event: Event, tr: Translator, locale: str) -> bytes | None:
    """The final standings as a picture (the result picture's look)."""
    card = final_card(event, tr, locale)
    return None if card is None else draw(card)


def final_card(event: Event, tr: Translator, locale: str) -> ResultCard | None:
    """What the final picture shows: the first two teams with their points (no colon
    between: they did not score against each other), the third in the footer."""
    ranked = lines_of(event)
    if len(ranked) < 2:
        return None
    cards = []
    for index, line in enumerate(ranked[:2]):
        team = event.team(int(line.entrant.id))
        names = tuple(p.name for p in team.players) if team is not None else ()
        label = tr.t(locale, "event-place", place=line.place)
        cards.append(TeamCard(names, int(line.entrant.score), index == 0, label))
    third = ""
    if len(ranked) > 2:
        team = event.team(int(ranked[2].entrant.id))
        third = tr.t(
            locale, "event-picture-third", place=ranked[2].place, team=team_name(team, tr, locale)
        )
    return ResultCard(
        title=tr.t(locale, "event-picture-title"),
        subtitle=tr.t(
            locale,
            "event-picture-subtitle",
            rules=rules_name(event.rule_set, tr, locale),
            rounds=event.rounds,
            teams=len(event.teams),
        ),
        teams=(cards[0], cards[1]),
        footer=third,
        separator="",  # two places' points, not a score between them
    )
