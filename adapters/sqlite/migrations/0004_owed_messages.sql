-- 4: the messages a game owes its players (saved with the move that owes them,
-- deleted once sent), and the times the bot last wrote into each paced chat.

CREATE TABLE owed_messages (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
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
