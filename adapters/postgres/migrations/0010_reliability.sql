-- 11: reliability (bot/reliability.py, docs/tournaments.md): one row per player of
-- every started rated game (four different humans) that ends, finished or stopped,
-- kept in the transaction that ends it: he completed it (walked_out NULL) or walked
-- out of it ('away': away by the clock when it ended; 'stopped': he stopped it, not
-- an admin of the chat). /stats counts a player's latest rows. The games before this
-- step leave none (who was away at their end, or who stopped them, was not kept).

CREATE TABLE reliability (
    platform   TEXT NOT NULL,
    user_id    TEXT NOT NULL,
    game_id    BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    walked_out TEXT,  -- NULL: completed; else bot.reliability.WalkOut
    at         DOUBLE PRECISION NOT NULL,  -- epoch seconds: when the game ended
    PRIMARY KEY (platform, user_id, game_id)
);

-- A player's latest rows first.
CREATE INDEX reliability_latest ON reliability (platform, user_id, at DESC, game_id DESC);
