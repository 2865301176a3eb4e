# Надёжность (bot/reliability.py, docs/tournaments.md): сколько из последних
# законченных рейтинговых игр игрок доиграл, в /stats.
stats-reliability = 🤝 Надёжность: { $percent }% (доиграно { $completed } из { $games ->
        [1] 1 игры
        [one] последних { $games } игры
       *[other] последних { $games } игр
    })
