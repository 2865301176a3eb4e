-- 4: the messages a game owes its players (saved with the move that owes them,
-- deleted once sent), and the times the bot last wrote into each paced chat.

CREATE TABLE owed_messages (
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version INTEGER NOT NULL,  -- the game's version that owes it
    idx     INTEGER NOT NULL,  -- its place among that version's
    kind    TEXT NOT NULL,  -- bot.ports.OwedKind
    number  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, version, idx)
);

CREATE TABLE send_times (
    platform TEXT NOT NULL,
    chat_id  TEXT NOT NULL,
    times    TEXT NOT NULL,  -- JSON: [epoch seconds, ...], the latest last
    PRIMARY KEY (platform, chat_id)
);

-- Group commit as in the first step, and each save's owed messages (its "owed": a
-- JSON array of bot.rows' OwedRow) kept in the save's own subtransaction, once,
-- when the save was written (the game found and, if fenced, still at "base").
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
                IF (base IS NULL OR stored = base)
                    AND json_typeof(save -> 'owed') = 'array' THEN
                    INSERT INTO owed_messages
                    SELECT * FROM json_populate_recordset(NULL::owed_messages, save -> 'owed')
                    ON CONFLICT DO NOTHING;
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
