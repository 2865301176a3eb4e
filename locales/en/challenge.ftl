## Duplicate challenges (bot/challenge.py, docs/tournaments.md).

err-challenge-unknown = There is no such challenge. The day's: /kozel challenge (or yard, classic).
err-challenge-not-yet = That day's challenge has not begun yet.
err-challenge-done = You have played every deal of this challenge. Its table: /top challenge
err-challenge-in-group = A challenge is played in a private chat with the bot, so that nobody sees a deal before playing it: write /kozel challenge to the bot.
err-challenge-no-stop = A challenge deal is played to its end: it cannot be stopped. Away past the turn time, the computer plays for you.
err-challenge-no-rematch = A challenge deal has no rematch: /kozel challenge plays your next deal.

challenge-started = 🎯 Challenge { $id } ({ $rules }): deal { $deal } of { $deals }. Your partner and both opponents are the computer; everybody plays the same deals.
challenge-made = 🎯 A new challenge: { $id } ({ $rules }, { $deals ->
    [one] { $deals } deal
   *[other] { $deals } deals
    }). Friends play it with /kozel challenge { $id }
challenge-deal-over = 🎯 Challenge { $id }: deal { $deal } of { $deals } is over. Your loss: { $loss }; the field's average: { $average }.
challenge-score = Your score: { $score } after { $played ->
    [one] { $played } deal
   *[other] { $played } deals
    }, place { $place } of { $entrants }.
challenge-next = ▶️ Next deal
challenge-all-played = You have played every deal of { $id }. The table: /top challenge { $id }
challenge-top-title = 🎯 Challenge { $id } ({ $rules }): { $entrants ->
    [one] { $entrants } entrant
   *[other] { $entrants } entrants
    }
challenge-top-row = { $place }. { $name }: { $score } ({ $deals ->
    [one] { $deals } deal
   *[other] { $deals } deals
    })
challenge-top-own = You: place { $place }, { $score } ({ $deals ->
    [one] { $deals } deal
   *[other] { $deals } deals
    })
challenge-top-empty = Nobody has finished a deal of challenge { $id } yet.
challenge-top-hint = Scores: in each deal, the field's average loss less yours.

cli-help-challenge = play a duplicate challenge: its id, or daily, yard or classic for the day's
challenge-console-quit = Your deal is saved: the same command goes on with it.
challenge-table-header = 🎯 Challenge { $id }: deal { $deal } of { $deals }
challenge-resumed = 🎯 Your deal { $deal } of challenge { $id } goes on: its table is above.
challenge-word = challenge
cmd-option-challenge = challenge
cmd-option-challenge-about = A duplicate challenge (in the DM with the bot): daily, yard, classic, classic 001 (a new one) or its id
cmd-option-challenge-top-about = A challenge's table: daily, yard, classic or its id
