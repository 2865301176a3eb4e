-- 9: achievements (issue 25, bot/achievements.py): each kept once per player
-- (the key), with the game and the version of it whose save earned it (its
-- announcement reads them by those); the progress of each player's rated games
-- (four human seats) towards the career achievements; and whether a chat wants a
-- game's result as a picture too (NULL: the default, yes).

CREATE TABLE achievements (
    platform    TEXT NOT NULL,
    user_id     TEXT NOT NULL,
    achievement TEXT NOT NULL,  -- bot.achievements.CATALOGUE's id
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version     INTEGER NOT NULL,  -- the game's version that earned it
    rule_set    TEXT NOT NULL,
    at          REAL NOT NULL,  -- epoch seconds
    PRIMARY KEY (platform, user_id, achievement)
);

CREATE INDEX achievements_by_game ON achievements (game_id, version);

CREATE TABLE achievement_progress (
    platform    TEXT NOT NULL,
    user_id     TEXT NOT NULL,
    rated_games INTEGER NOT NULL,
    partner     TEXT,  -- the user id of the last rated game's partner
    streak      INTEGER NOT NULL,  -- rated games won in a row with him
    PRIMARY KEY (platform, user_id)
);

-- The rated games already played count (finished, four different humans of the
-- game's platform: bot.ratings.rated_game): a player with history gets his career
-- achievements with his next rated game. The joins go result, game, its seats
-- (CROSS JOIN keeps that order): without statistics SQLite would otherwise search
-- every seat of the platform for each game.
INSERT INTO achievement_progress (platform, user_id, rated_games, partner, streak)
SELECT p.platform, p.user_id, COUNT(*), NULL, 0
FROM series_results AS s
CROSS JOIN games AS g ON g.id = s.game_id
CROSS JOIN participants AS p ON p.game_id = s.game_id
WHERE g.status = 'finished' AND p.kind = 'human' AND p.user_id IS NOT NULL
    AND +p.platform = g.platform
    AND (SELECT COUNT(DISTINCT q.user_id) FROM participants AS q
         WHERE q.game_id = s.game_id AND q.kind = 'human' AND q.platform = g.platform) = 4
GROUP BY p.platform, p.user_id;

ALTER TABLE chats ADD COLUMN pictures INTEGER;
