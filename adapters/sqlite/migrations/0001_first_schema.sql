-- 1: the first schema.

CREATE TABLE users (
    platform   TEXT NOT NULL,
    id         TEXT NOT NULL,
    name       TEXT NOT NULL,
    locale     TEXT,
    updated_at REAL NOT NULL,
    PRIMARY KEY (platform, id)
);

CREATE TABLE chats (
    platform     TEXT NOT NULL,
    id           TEXT NOT NULL,
    locale       TEXT,
    turn_timeout INTEGER,
    PRIMARY KEY (platform, id)
);

-- (snapshot: the series' snapshot, now core.yard.record.snapshot; the comment inside
-- the statement is kept as released: SQLite stores the statement's text.)
CREATE TABLE games (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    platform         TEXT NOT NULL,
    chat_id          TEXT NOT NULL,
    thread_id        TEXT,
    creator_platform TEXT NOT NULL,
    creator          TEXT NOT NULL,
    status           TEXT NOT NULL
                     CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled')),
    rule_set         TEXT NOT NULL,
    settings         TEXT NOT NULL,  -- JSON: TableSettings
    seats            TEXT NOT NULL,  -- JSON: [Seat | null, ...]
    snapshot         TEXT NOT NULL,  -- core.record.snapshot of the series
    version          INTEGER NOT NULL,
    created_at       REAL NOT NULL,
    updated_at       REAL NOT NULL,
    turn_deadline    REAL,
    reminded         INTEGER NOT NULL DEFAULT 0,
    messages         TEXT NOT NULL DEFAULT '{}',  -- JSON: {key: message id}
    rematch_of       INTEGER
);

CREATE INDEX games_by_chat ON games (platform, chat_id, status);

CREATE INDEX games_by_status ON games (status);

CREATE TABLE game_actions (
    game_id  INTEGER NOT NULL REFERENCES games (id),
    version  INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    platform TEXT,
    user_id  TEXT,
    action   TEXT NOT NULL,  -- JSON: the record form of the action
    at       REAL NOT NULL,
    auto     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, version)
);

CREATE TRIGGER game_actions_no_update BEFORE UPDATE ON game_actions
BEGIN SELECT RAISE(ABORT, 'game_actions is append-only'); END;

CREATE TRIGGER game_actions_no_delete BEFORE DELETE ON game_actions
BEGIN SELECT RAISE(ABORT, 'game_actions is append-only'); END;

CREATE TABLE participants (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    platform TEXT,  -- NULL for a computer player
    user_id  TEXT,
    kind     TEXT NOT NULL,
    name     TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);

CREATE INDEX participants_by_user ON participants (platform, user_id);

CREATE TABLE deal_results (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    number   INTEGER NOT NULL,
    points_a INTEGER NOT NULL,
    points_b INTEGER NOT NULL,
    tricks_a INTEGER NOT NULL,
    tricks_b INTEGER NOT NULL,
    loss_a   INTEGER NOT NULL,
    loss_b   INTEGER NOT NULL,
    eggs     INTEGER NOT NULL,
    winner   INTEGER,  -- 0: team A, 1: team B, NULL: neither
    at       REAL NOT NULL,
    PRIMARY KEY (game_id, number)
);

CREATE TABLE series_results (
    game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    loser   INTEGER NOT NULL,  -- 0: team A, 1: team B
    title   TEXT NOT NULL,
    loss_a  INTEGER NOT NULL,
    loss_b  INTEGER NOT NULL,
    eggs    INTEGER NOT NULL,
    deals   INTEGER NOT NULL,
    at      REAL NOT NULL
);
