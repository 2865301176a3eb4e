-- 2: games that no longer load, set aside (see SqliteStorage): kept, not played.

CREATE TABLE set_aside_games (
    game_id INTEGER PRIMARY KEY REFERENCES games (id),
    reason  TEXT NOT NULL,
    at      REAL NOT NULL
);
