-- 12: Swiss evenings (bot/event.py, docs/tournaments.md): each event of a group, its
-- teams (a pair of partners; the second seat empty while the pair is open) and the
-- tables of its rounds, each an ordinary game linked here, with its result once the
-- game ended. A round's tables and their games are inserted in one transaction, so a
-- round is there whole or not at all.

CREATE TABLE events (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    platform          TEXT NOT NULL,
    chat_id           TEXT NOT NULL,
    thread_id         TEXT,
    opener            TEXT NOT NULL,  -- the admin who opened it (a user of the platform)
    rule_set          TEXT NOT NULL,
    options           TEXT NOT NULL,  -- JSON: the rule set's options
    deals             INTEGER NOT NULL DEFAULT 0,  -- a table's deals; 0: the whole game
    rounds            INTEGER NOT NULL,  -- 0 while open: chosen at the start
    min_reliability   INTEGER NOT NULL DEFAULT 0,
    locale            TEXT NOT NULL,
    state             TEXT NOT NULL,  -- open, running, finished, stopped
    round             INTEGER NOT NULL DEFAULT 0,  -- the round being played
    version           INTEGER NOT NULL,
    standings_message TEXT,
    round_shown       INTEGER NOT NULL DEFAULT 0,  -- the last round whose tables were shown
    end_shown         INTEGER NOT NULL DEFAULT 0,  -- 1: the final (or stopped) standings were sent
    created_at        REAL NOT NULL,
    finished_at       REAL
);

-- One live event a chat.
CREATE UNIQUE INDEX events_live_by_chat ON events (platform, chat_id)
    WHERE state IN ('open', 'running');

CREATE TABLE event_teams (
    event_id    INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    number      INTEGER NOT NULL,
    first_id    TEXT NOT NULL,
    first_name  TEXT NOT NULL,
    second_id   TEXT,
    second_name TEXT,
    withdrawn   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (event_id, number)
);

CREATE TABLE event_tables (
    event_id INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    round    INTEGER NOT NULL,
    number   INTEGER NOT NULL,
    team_a   INTEGER NOT NULL,
    team_b   INTEGER,  -- NULL: the team of computers (a bye)
    game_id  INTEGER NOT NULL UNIQUE REFERENCES games (id) ON DELETE CASCADE,
    result   TEXT,  -- NULL while played; a, b or none (bot.event.TableResult)
    PRIMARY KEY (event_id, round, number)
);
