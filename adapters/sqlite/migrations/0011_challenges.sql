-- 11: duplicate challenges (bot/challenge.py): each challenge, the deals its entrants
-- started (each the game he played it in), and totals kept by a trigger in the
-- transaction that keeps a challenge deal's result, so that a challenge's table reads
-- one row per entrant and one per deal.

CREATE TABLE challenges (
    id         TEXT PRIMARY KEY,
    rule_set   TEXT NOT NULL,
    options    TEXT NOT NULL,  -- JSON: the rule set's options
    deals      INTEGER NOT NULL,
    loss_sign  INTEGER NOT NULL,  -- the entrant's loss: loss_sign * (loss_a - loss_b)
    created_at REAL NOT NULL
);

-- A deal an entrant started: his game of it, his loss once it is over.
CREATE TABLE challenge_plays (
    challenge_id TEXT NOT NULL REFERENCES challenges (id),
    platform     TEXT NOT NULL,
    user_id      TEXT NOT NULL,
    deal         INTEGER NOT NULL,
    game_id      INTEGER NOT NULL UNIQUE REFERENCES games (id) ON DELETE CASCADE,
    loss         INTEGER,  -- NULL while the deal is being played
    PRIMARY KEY (challenge_id, platform, user_id, deal)
);

-- Each entrant's deals over (``mask``: bit k for deal k) and his losses' sum.
CREATE TABLE challenge_entrants (
    challenge_id TEXT NOT NULL REFERENCES challenges (id),
    platform     TEXT NOT NULL,
    user_id      TEXT NOT NULL,
    name         TEXT NOT NULL,
    deals        INTEGER NOT NULL DEFAULT 0,
    mask         INTEGER NOT NULL DEFAULT 0,
    loss         INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (challenge_id, platform, user_id)
);

-- How many entrants have each (deals over, losses' sum): their score is the same, so
-- a table ranks these groups (a few dozen rows) instead of every entrant.
CREATE TABLE challenge_scores (
    challenge_id TEXT NOT NULL REFERENCES challenges (id),
    mask         INTEGER NOT NULL,
    loss         INTEGER NOT NULL,
    entrants     INTEGER NOT NULL,
    PRIMARY KEY (challenge_id, mask, loss)
);

-- A group's entrants by name, for the table's lines.
CREATE INDEX challenge_entrants_by_score
    ON challenge_entrants (challenge_id, mask, loss, name, user_id);

-- Each deal's field: how many played it to its end, and their losses' sum.
CREATE TABLE challenge_deal_totals (
    challenge_id TEXT NOT NULL REFERENCES challenges (id),
    deal         INTEGER NOT NULL,
    plays        INTEGER NOT NULL,
    loss         INTEGER NOT NULL,
    PRIMARY KEY (challenge_id, deal)
);

CREATE TRIGGER challenge_deal_scored AFTER INSERT ON deal_results
WHEN EXISTS (SELECT 1 FROM challenge_plays WHERE game_id = NEW.game_id AND loss IS NULL)
BEGIN
    UPDATE challenge_plays
    SET loss = (SELECT c.loss_sign FROM challenges AS c WHERE c.id = challenge_id)
        * (NEW.loss_a - NEW.loss_b)
    WHERE game_id = NEW.game_id;
    INSERT INTO challenge_deal_totals (challenge_id, deal, plays, loss)
    SELECT challenge_id, deal, 1, loss FROM challenge_plays WHERE game_id = NEW.game_id
    ON CONFLICT (challenge_id, deal) DO UPDATE SET
        plays = plays + 1,
        loss = loss + excluded.loss;
    UPDATE challenge_scores
    SET entrants = entrants - 1
    WHERE (challenge_id, mask, loss) = (
        SELECT e.challenge_id, e.mask, e.loss
        FROM challenge_plays AS p
        JOIN challenge_entrants AS e
            ON e.challenge_id = p.challenge_id AND e.platform = p.platform
            AND e.user_id = p.user_id
        WHERE p.game_id = NEW.game_id
    );
    UPDATE challenge_entrants
    SET deals = deals + 1,
        mask = mask | (1 << p.deal),
        loss = challenge_entrants.loss + p.loss
    FROM challenge_plays AS p
    WHERE p.game_id = NEW.game_id
        AND challenge_entrants.challenge_id = p.challenge_id
        AND challenge_entrants.platform = p.platform
        AND challenge_entrants.user_id = p.user_id;
    INSERT INTO challenge_scores (challenge_id, mask, loss, entrants)
    SELECT e.challenge_id, e.mask, e.loss, 1
    FROM challenge_plays AS p
    JOIN challenge_entrants AS e
        ON e.challenge_id = p.challenge_id AND e.platform = p.platform
        AND e.user_id = p.user_id
    WHERE p.game_id = NEW.game_id
    ON CONFLICT (challenge_id, mask, loss) DO UPDATE SET entrants = entrants + 1;
END;
