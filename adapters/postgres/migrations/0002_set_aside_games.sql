-- 2: games that no longer load, set aside (see PostgresStorage): kept, not played.

CREATE TABLE set_aside_games (
    game_id BIGINT PRIMARY KEY REFERENCES games (id),
    reason  TEXT NOT NULL,
    at      DOUBLE PRECISION NOT NULL
);
