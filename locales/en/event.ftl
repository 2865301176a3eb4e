## Swiss evenings (bot/event.py, docs/tournaments.md).

err-event-not-admin = Only an admin of the group runs an event.
err-event-in-private = An event is played in a group: open it there.
err-event-exists = This chat has an event already: /event stop ends it.
err-event-none = There is no such event in this chat.
err-event-not-open = Registration for this event is closed.
err-event-full = The event is full (32 pairs); a pair's open seat still takes a partner.
err-event-registered = You are in a pair of this event already.
err-event-not-registered = You are in no pair of this event.
err-event-pair-full = That pair is complete.
err-event-no-pair = There is no such pair.
err-event-too-few = An event starts with at least 4 complete pairs (8 players).
err-event-bad-rounds = Rounds: a number from 1 to 9, e.g. /event open rounds 3
err-event-bad-reliability = The minimum reliability: a percentage from 0 to 100, e.g. /event open min-reliability 80
err-event-bad-deals = Deals: a number from 1 to 9 (a table of that many deals), e.g. /event open deals 2
err-event-bad-words = Write: /event open [yard|classic] [rounds N] [min-reliability P] [deals N]; /event start; /event kick N; /event stop
err-event-unreliable = Your reliability is { $percent }%; this event asks for at least { $minimum }%.

event-registration = 🏆 Swiss evening ({ $rules }): { $teams ->
    [one] { $teams } pair
   *[other] { $teams } pairs
    } registered. “New pair” opens a pair with you in it; your partner presses “Join” under it.
event-rounds = Rounds: { $rounds }
event-deals = Each table: { $deals ->
    [one] { $deals } deal
   *[other] { $deals } deals
    }
event-min-reliability = Minimum reliability: { $minimum }%
event-open-seat = (open seat)
event-computers = the computers
event-new-pair = ➕ New pair
event-leave = Leave
event-join = Join pair { $team }
event-start = ▶️ Start
event-round = 🏆 Round { $round } of { $rounds }:
event-table = Table { $number }: { $a } vs { $b }
event-standings = 📊 Standings, round { $round } of { $rounds } ({ $done } of { $tables } tables over):
event-final = 🏆 Final standings after { $rounds ->
    [one] { $rounds } round
   *[other] { $rounds } rounds
    }:
event-stopped = 🛑 The event was stopped. Standings after round { $round }:
event-standing = { $place }. { $team }: { $points } (Buchholz { $buchholz })
event-withdrawn = (withdrawn)
event-kicked = Pair { $team } is out of the event.
event-stopped-line = The event is stopped.
event-place = Place { $place }
event-picture-title = Swiss evening: final standings
event-picture-subtitle = { $rules } · { $rounds } rounds · { $teams } pairs
event-picture-third = { $place }. { $team }

cmd-event = A Swiss evening of pairs (group admins: open, start, kick, stop)
cmd-name-event = event
cmd-option-event = words
event-word-open = open
cmd-option-event-about = open [yard|classic] [rounds N] [min-reliability P] [deals N]; start; kick N; stop
