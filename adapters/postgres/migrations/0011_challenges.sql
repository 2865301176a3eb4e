-- 11: duplicate challenges (bot/challenge.py): each challenge, the deals its entrants
-- started (each the game he played it in), and totals kept by a trigger in the
-- transaction that keeps a challenge deal's result (the same tables as SQLite's
-- 0011_challenges.sql).

CREATE TABLE challenges (
    id         TEXT PRIMARY KEY,
    rule_set   TEXT NOT NULL,
    options    TEXT NOT NULL,
    deals      INTEGER NOT NULL,
    loss_sign  INTEGER NOT NULL,
    created_at DOUBLE PRECISION NOT NULL
);

CREATE TABLE challenge_plays (
    challenge_id TEXT NOT NULL REFERENCES challenges (id),
    platform     TEXT NOT NULL,
    user_id      TEXT NOT NULL,
    deal         INTEGER NOT NULL,
    game_id      BIGINT NOT NULL UNIQUE REFERENCES games (id) ON DELETE CASCADE,
    loss         INTEGER,
    PRIMARY KEY (challenge_id, platform, user_id, deal)
);

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

CREATE TABLE challenge_scores (
    challenge_id TEXT NOT NULL REFERENCES challenges (id),
    mask         INTEGER NOT NULL,
    loss         INTEGER NOT NULL,
    entrants     INTEGER NOT NULL,
    PRIMARY KEY (challenge_id, mask, loss)
);

CREATE INDEX challenge_entrants_by_score
    ON challenge_entrants (challenge_id, mask, loss, name COLLATE "C", user_id COLLATE "C");

CREATE TABLE challenge_deal_totals (
    challenge_id TEXT NOT NULL REFERENCES challenges (id),
    deal         INTEGER NOT NULL,
    plays        INTEGER NOT NULL,
    loss         INTEGER NOT NULL,
    PRIMARY KEY (challenge_id, deal)
);

CREATE FUNCTION challenge_deal_scored() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    play challenge_plays%ROWTYPE;
    entrant_mask INTEGER;
    entrant_loss INTEGER;
BEGIN
    UPDATE challenge_plays AS p
    SET loss = c.loss_sign * (NEW.loss_a - NEW.loss_b)
    FROM challenges AS c
    WHERE p.game_id = NEW.game_id AND p.loss IS NULL AND c.id = p.challenge_id
    RETURNING p.* INTO play;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    INSERT INTO challenge_deal_totals (challenge_id, deal, plays, loss)
    VALUES (play.challenge_id, play.deal, 1, play.loss)
    ON CONFLICT (challenge_id, deal) DO UPDATE SET
        plays = challenge_deal_totals.plays + 1,
        loss = challenge_deal_totals.loss + excluded.loss;
    UPDATE challenge_scores AS s
    SET entrants = s.entrants - 1
    FROM challenge_entrants AS e
    WHERE e.challenge_id = play.challenge_id AND e.platform = play.platform
        AND e.user_id = play.user_id
        AND s.challenge_id = e.challenge_id AND s.mask = e.mask AND s.loss = e.loss;
    UPDATE challenge_entrants
    SET deals = deals + 1, mask = mask | (1 << play.deal), loss = loss + play.loss
    WHERE challenge_id = play.challenge_id AND platform = play.platform
        AND user_id = play.user_id
    RETURNING mask, loss INTO entrant_mask, entrant_loss;
    INSERT INTO challenge_scores (challenge_id, mask, loss, entrants)
    VALUES (play.challenge_id, entrant_mask, entrant_loss, 1)
    ON CONFLICT (challenge_id, mask, loss) DO UPDATE SET
        entrants = challenge_scores.entrants + 1;
    RETURN NULL;
END;
$$;

CREATE TRIGGER challenge_deal_scored AFTER INSERT ON deal_results
FOR EACH ROW EXECUTE FUNCTION challenge_deal_scored();
