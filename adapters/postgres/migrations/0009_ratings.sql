-- 10: skill ratings (docs/ratings.md). A rated game (finished, four humans) updates,
-- in the transaction that keeps its result, each player's rating in its rule set and
-- over every rule set ('*'), all-time and in the chat's season (the calendar month,
-- UTC, of the result), the change each player got, and how often each pair of
-- partners played and won. The finished games before this step are rated by the
-- storage right after it, in the same transaction (adapters/ratings.py, replay).

CREATE TABLE ratings (
    platform TEXT NOT NULL,
    rule_set TEXT NOT NULL,  -- '*': every rule set's games
    user_id  TEXT NOT NULL,
    mu       DOUBLE PRECISION NOT NULL,  -- OpenSkill's estimate and its uncertainty
    sigma    DOUBLE PRECISION NOT NULL,
    rating   INTEGER NOT NULL,  -- shown: round(1000 + 40 (mu - 3 sigma))
    best     INTEGER NOT NULL,
    games    INTEGER NOT NULL,
    wins     INTEGER NOT NULL,
    PRIMARY KEY (platform, rule_set, user_id)
);

-- A leaderboard reads its best rows first; a player's /stats finds his rows.
CREATE INDEX ratings_board ON ratings (platform, rule_set, rating DESC, user_id COLLATE "C");
CREATE INDEX ratings_by_user ON ratings (platform, user_id);

CREATE TABLE season_ratings (
    platform TEXT NOT NULL,
    chat_id  TEXT NOT NULL,
    season   TEXT NOT NULL,  -- 'YYYY-MM', UTC
    rule_set TEXT NOT NULL,
    user_id  TEXT NOT NULL,
    mu       DOUBLE PRECISION NOT NULL,
    sigma    DOUBLE PRECISION NOT NULL,
    rating   INTEGER NOT NULL,
    best     INTEGER NOT NULL,
    games    INTEGER NOT NULL,
    wins     INTEGER NOT NULL,
    PRIMARY KEY (platform, chat_id, season, rule_set, user_id)
);

CREATE INDEX season_ratings_board
ON season_ratings (platform, chat_id, season, rule_set, rating DESC, user_id COLLATE "C");

-- The change each player of a rated game got in its rule set: once per game, so a
-- game is never rated twice.
CREATE TABLE rating_changes (
    game_id       BIGINT NOT NULL,
    seat          INTEGER NOT NULL,
    platform      TEXT NOT NULL,
    user_id       TEXT NOT NULL,
    rule_set      TEXT NOT NULL,
    rating_before INTEGER NOT NULL,
    rating_after  INTEGER NOT NULL,
    won           INTEGER NOT NULL,  -- 1: his team won
    at            DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, seat)
);

CREATE INDEX rating_changes_by_user ON rating_changes (platform, user_id, rule_set, game_id DESC);

-- Rated games a player played with a partner, and won with him, by rule set.
CREATE TABLE partners (
    platform   TEXT NOT NULL,
    user_id    TEXT NOT NULL,
    rule_set   TEXT NOT NULL,
    partner_id TEXT NOT NULL,
    games      INTEGER NOT NULL,
    wins       INTEGER NOT NULL,
    PRIMARY KEY (platform, user_id, rule_set, partner_id)
);
