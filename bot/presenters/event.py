"""A Swiss evening's screens (:mod:`bot.event`): the registration message and its
buttons, a round's tables, the standings (one message, edited), the final standings
as text and as a picture. Names and points only: no screen of an event shows a card.
"""

from __future__ import annotations

from bot.codec import Command, Verb, encode
from bot.event import Event, EventState, Team
from bot.i18n import Translator
from bot.presenters.common import MAX_ROW, Button, Screen, rules_name
from core.swiss import Standing, standings

#: The registration message's Join buttons at most (the open pairs, oldest first).
MAX_JOIN_BUTTONS = 15


def token(event: Event, arg: str) -> str:
    """A button of the event: ``n`` new pair, ``j<team>`` join, ``l`` leave, ``s``
    start; the event's id and version ride along as a game's do."""
    return encode(Command(Verb.EVENT, event.id, event.version, arg))


def team_name(team: Team | None, tr: Translator, locale: str) -> str:
    if team is None:
        return tr.t(locale, "event-computers")
    names = [p.name for p in team.players]
    if len(names) < 2:
        names.append(tr.t(locale, "event-open-seat"))
    return " & ".join(names)


def registration(event: Event, tr: Translator, locale: str) -> Screen:
    lines = [
        tr.t(
            locale,
            "event-registration",
            rules=rules_name(event.rule_set, tr, locale),
            teams=len(event.teams),
        )
    ]
    if event.rounds:
        lines.append(tr.t(locale, "event-rounds", rounds=event.rounds))
    if event.deals:
        lines.append(tr.t(locale, "event-deals", deals=event.deals))
    if event.min_reliability:
        lines.append(tr.t(locale, "event-min-reliability", minimum=event.min_reliability))
    lines += [f"{t.number}. {team_name(t, tr, locale)}" for t in event.teams]
    if event.state is not EventState.OPEN:
        return Screen("\n".join(lines))
    rows: list[tuple[Button, ...]] = [
        (
            Button(tr.t(locale, "event-new-pair"), token(event, "n")),
            Button(tr.t(locale, "event-leave"), token(event, "l")),
        )
    ]
    joins = [
        Button(tr.t(locale, "event-join", team=t.number), token(event, f"j{t.number}"))
        for t in event.teams
        if not t.complete
    ][:MAX_JOIN_BUTTONS]
    rows += [tuple(joins[i : i + MAX_ROW]) for i in range(0, len(joins), MAX_ROW)]
    rows.append((Button(tr.t(locale, "event-start"), token(event, "s")),))
    return Screen("\n".join(lines), tuple(rows))


def round_tables(event: Event, tr: Translator, locale: str) -> Screen:
    lines = [tr.t(locale, "event-round", round=event.round, rounds=event.rounds)]
    for table in event.round_tables():
        a = team_name(event.team(table.team_a), tr, locale)
        b = team_name(None if table.team_b is None else event.team(table.team_b), tr, locale)
        lines.append(tr.t(locale, "event-table", number=table.number, a=a, b=b))
    return Screen("\n".join(lines))


def lines_of(event: Event) -> list[Standing]:
    meetings = [tuple(m) for m in event.met()]
    return standings(event.entrants({}), meetings)


def standings_screen(event: Event, tr: Translator, locale: str) -> Screen:
    done = sum(t.result is not None for t in event.round_tables())
    key = {
        EventState.FINISHED: "event-final",
        EventState.STOPPED: "event-stopped",
    }.get(event.state, "event-standings")
    lines = [
        tr.t(
            locale,
            key,
            round=event.round,
            rounds=event.rounds,
            done=done,
            tables=len(event.round_tables()),
        )
    ]
    for line in lines_of(event):
        team = event.team(int(line.entrant.id))
        name = team_name(team, tr, locale)
        if team is not None and team.withdrawn:
            name += " " + tr.t(locale, "event-withdrawn")
        points = line.entrant.score
        lines.append(
            tr.t(
                locale,
                "event-standing",
                place=line.place,
                team=name,
                points=int(points),
                buchholz=int(line.buchholz),
            )
        )
    return Screen("\n".join(lines))
