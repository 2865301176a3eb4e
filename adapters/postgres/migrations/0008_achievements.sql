-- 9: achievements (issue 25, bot/achievements.py): each kept once per player
-- (the key), with the game and the version of it whose save earned it (its
-- announcement reads them by those); the progress of each player's rated games
-- (four human seats) towards the career achievements; and whether a chat wants a
-- game's result as a picture too (NULL: the default, yes).

CREATE TABLE achievements (
    platform    TEXT NOT NULL,
    user_id     TEXT NOT NULL,
    achievement TEXT NOT NULL,  -- bot.achievements.CATALOGUE's id
    game_id     BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version     INTEGER NOT NULL,  -- the game's version that earned it
    rule_set    TEXT NOT NULL,
    at          DOUBLE PRECISION NOT NULL,  -- epoch seconds
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
-- achievements with his next rated game.
INSERT INTO achievement_progress (platform, user_id, rated_games, partner, streak)
SELECT p.platform, p.user_id, COUNT(*), NULL, 0
FROM series_results AS s
JOIN games AS g ON g.id = s.game_id
JOIN participants AS p ON p.game_id = s.game_id
WHERE g.status = 'finished' AND p.kind = 'human' AND p.user_id IS NOT NULL
    AND p.platform = g.platform
    AND (SELECT COUNT(DISTINCT q.user_id) FROM participants AS q
         WHERE q.game_id = s.game_id AND q.kind = 'human' AND q.platform = g.platform) = 4
GROUP BY p.platform, p.user_id;

ALTER TABLE chats ADD COLUMN pictures INTEGER;


-- Group commit as in step 4, and each save's achievements and progress (its
-- "achievements" and "progress": JSON arrays of bot.rows' AchievementRow and
-- ProgressRow) kept in the save's own subtransaction with its owed messages, when
-- the save was written (the game found and, if fenced, still at "base").
CREATE OR REPLACE FUNCTION kozel_save_games(p_saves json) RETURNS json LANGUAGE plpgsql AS $$
DECLARE
    save json;
    stored integer;
    base integer;
    results json[] := '{}';
    broken text;
BEGIN
    FOR save IN SELECT value FROM json_array_elements(p_saves) LOOP
        BEGIN
            base := (save ->> 'base')::integer;
            stored := kozel_save_game(
                save -> 'game', base, save -> 'participants',
                save -> 'actions', save -> 'deals',
                CASE WHEN json_typeof(save -> 'series') = 'object' THEN save -> 'series' END
            );
            IF stored IS NULL THEN
                results := results || json_build_object('missing', true);
            ELSE
                IF base IS NULL OR stored = base THEN
                    IF json_typeof(save -> 'owed') = 'array' THEN
                        INSERT INTO owed_messages
                        SELECT * FROM json_populate_recordset(NULL::owed_messages, save -> 'owed')
                        ON CONFLICT DO NOTHING;
                    END IF;
                    IF json_typeof(save -> 'achievements') = 'array' THEN
                        INSERT INTO achievements
                        SELECT * FROM json_populate_recordset(
                            NULL::achievements, save -> 'achievements'
                        )
                        ON CONFLICT DO NOTHING;
                    END IF;
                    IF json_typeof(save -> 'progress') = 'array' THEN
                        INSERT INTO achievement_progress
                        SELECT * FROM json_populate_recordset(
                            NULL::achievement_progress, save -> 'progress'
                        )
                        ON CONFLICT (platform, user_id) DO UPDATE SET
                            rated_games = EXCLUDED.rated_games,
                            partner = EXCLUDED.partner,
                            streak = EXCLUDED.streak;
                    END IF;
                END IF;
                results := results || json_build_object('stored', stored);
            END IF;
        EXCEPTION
            WHEN unique_violation THEN
                GET STACKED DIAGNOSTICS broken = CONSTRAINT_NAME;
                results := results || json_build_object('duplicate', broken);
            WHEN OTHERS THEN
                results := results || json_build_object('error', SQLERRM, 'state', SQLSTATE);
        END;
    END LOOP;
    RETURN array_to_json(results);
END;
$$;
