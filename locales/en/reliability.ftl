# Reliability (bot/reliability.py, docs/tournaments.md): of a player's last rated
# games that ended, how many he completed, in /stats.
stats-reliability = 🤝 Reliability: { $percent }% ({ $games ->
        [1] { $completed } of 1 game completed
       *[other] { $completed } of the last { $games } games completed
    })
