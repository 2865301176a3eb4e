-- 6: totals of the results, kept up to date by triggers in the transaction that
-- changes what they count, so that statistics and leaderboards read a few rows
-- instead of every seat a player ever took.
--
-- What is counted is what the queries of schema 5 counted: a seat counts if it is a
-- human's (kind 'human', a user id) of the game's platform, in a game that is
-- playing or finished. user_results holds, by player and rule set, his seats and
-- series (under the game's rule set) and his deals (under each deal's rule set);
-- chat_board and platform_board his series played and won, by chat or platform, and
-- by the series' rule set ('*': every rule set together). Anything that changes
-- what counts keeps them: a seat taken or left (participants), a game starting,
-- ending, cancelled or moving chat (games), a deal or series result kept. Games are
-- never deleted.

CREATE TABLE user_results (
    platform       TEXT NOT NULL,
    user_id        TEXT NOT NULL,
    rule_set       TEXT NOT NULL,
    seats          INTEGER NOT NULL,
    series_played  INTEGER NOT NULL,
    series_won     INTEGER NOT NULL,
    goat           INTEGER NOT NULL,
    goat_with_eggs INTEGER NOT NULL,
    deals_played   INTEGER NOT NULL,
    deals_won      INTEGER NOT NULL,
    deals_lost     INTEGER NOT NULL,
    deals_eggs     INTEGER NOT NULL,
    points         INTEGER NOT NULL,
    PRIMARY KEY (platform, user_id, rule_set)
);

CREATE TABLE chat_board (
    platform      TEXT NOT NULL,
    chat_id       TEXT NOT NULL,
    rule_set      TEXT NOT NULL,
    user_id       TEXT NOT NULL,
    series_played INTEGER NOT NULL,
    series_won    INTEGER NOT NULL,
    PRIMARY KEY (platform, chat_id, rule_set, user_id)
);

CREATE TABLE platform_board (
    platform      TEXT NOT NULL,
    rule_set      TEXT NOT NULL,  -- '*': every rule set
    user_id       TEXT NOT NULL,
    series_played INTEGER NOT NULL,
    series_won    INTEGER NOT NULL,
    PRIMARY KEY (platform, rule_set, user_id)
);

-- A platform's leaderboard reads its best rows first.
CREATE INDEX platform_board_by_wins ON platform_board (platform, rule_set, series_won DESC);

-- A player's name at his latest seat is the first row of his in this order.
DROP INDEX participants_by_user;

CREATE INDEX participants_by_user ON participants (platform, user_id, game_id DESC, seat);

-- The totals of today's results. (A unary + keeps SQLite from looking a game's
-- seats up by the players' index, platform and user, instead of by the game.)
INSERT INTO user_results
SELECT
    p.platform, p.user_id, g.rule_set, COUNT(*), COUNT(s.game_id),
    COALESCE(SUM(s.loser != p.seat % 2), 0), COALESCE(SUM(s.loser = p.seat % 2), 0),
    COALESCE(SUM(s.loser = p.seat % 2
                 AND s.title IN ('goats_with_eggs', 'goats_with_eggs_and_tails')), 0),
    0, 0, 0, 0, 0
FROM participants AS p
JOIN games AS g ON g.id = p.game_id
LEFT JOIN series_results AS s ON s.game_id = p.game_id
WHERE p.kind = 'human' AND +p.user_id IS NOT NULL AND +p.platform = g.platform
    AND g.status IN ('playing', 'finished')
GROUP BY p.platform, p.user_id, g.rule_set;

INSERT INTO user_results
SELECT
    p.platform, p.user_id, d.rule_set, 0, 0, 0, 0, 0, COUNT(*),
    SUM(d.winner IS p.seat % 2), SUM(d.winner IS 1 - p.seat % 2), SUM(d.eggs),
    SUM(CASE p.seat % 2 WHEN 0 THEN d.points_a ELSE d.points_b END)
FROM participants AS p
JOIN games AS g ON g.id = p.game_id
JOIN deal_results AS d ON d.game_id = p.game_id
WHERE p.kind = 'human' AND +p.user_id IS NOT NULL AND +p.platform = g.platform
    AND g.status IN ('playing', 'finished')
GROUP BY p.platform, p.user_id, d.rule_set
ON CONFLICT (platform, user_id, rule_set) DO UPDATE SET
    deals_played = excluded.deals_played, deals_won = excluded.deals_won,
    deals_lost = excluded.deals_lost, deals_eggs = excluded.deals_eggs,
    points = excluded.points;

INSERT INTO chat_board
SELECT g.platform, g.chat_id, s.rule_set, p.user_id, COUNT(*), SUM(s.loser != p.seat % 2)
FROM participants AS p
JOIN games AS g ON g.id = p.game_id
JOIN series_results AS s ON s.game_id = p.game_id
WHERE p.kind = 'human' AND +p.user_id IS NOT NULL AND +p.platform = g.platform
    AND g.status IN ('playing', 'finished')
GROUP BY g.platform, g.chat_id, s.rule_set, p.user_id;

INSERT INTO platform_board
SELECT platform, rule_set, user_id, SUM(series_played), SUM(series_won)
FROM chat_board
GROUP BY platform, rule_set, user_id;

INSERT INTO platform_board
SELECT platform, '*', user_id, SUM(series_played), SUM(series_won)
FROM chat_board
GROUP BY platform, user_id;

-- Counting one seat in or out (sign 1 or -1) with everything its game reached: an
-- INSERT into this view is what the triggers below do.
CREATE VIEW seat_tally (game_id, platform, user_id, team, chat_id, rule_set, sign) AS
SELECT 0, '', '', 0, '', '', 0 WHERE 0;

CREATE TRIGGER seat_tally_count INSTEAD OF INSERT ON seat_tally
BEGIN
    INSERT INTO user_results
    SELECT
        NEW.platform, NEW.user_id, NEW.rule_set, NEW.sign,
        NEW.sign * (s.game_id IS NOT NULL),
        NEW.sign * COALESCE(s.loser != NEW.team, 0),
        NEW.sign * COALESCE(s.loser = NEW.team, 0),
        NEW.sign * COALESCE(s.loser = NEW.team
                            AND s.title IN ('goats_with_eggs', 'goats_with_eggs_and_tails'), 0),
        0, 0, 0, 0, 0
    FROM (SELECT NEW.game_id AS game_id) AS seat
    LEFT JOIN series_results AS s ON s.game_id = seat.game_id
    WHERE true
    ON CONFLICT (platform, user_id, rule_set) DO UPDATE SET
        seats = seats + excluded.seats,
        series_played = series_played + excluded.series_played,
        series_won = series_won + excluded.series_won,
        goat = goat + excluded.goat,
        goat_with_eggs = goat_with_eggs + excluded.goat_with_eggs;
    INSERT INTO user_results
    SELECT
        NEW.platform, NEW.user_id, d.rule_set, 0, 0, 0, 0, 0,
        NEW.sign * COUNT(*),
        NEW.sign * SUM(d.winner IS NEW.team),
        NEW.sign * SUM(d.winner IS 1 - NEW.team),
        NEW.sign * SUM(d.eggs),
        NEW.sign * SUM(CASE NEW.team WHEN 0 THEN d.points_a ELSE d.points_b END)
    FROM deal_results AS d
    WHERE d.game_id = NEW.game_id
    GROUP BY d.rule_set
    ON CONFLICT (platform, user_id, rule_set) DO UPDATE SET
        deals_played = deals_played + excluded.deals_played,
        deals_won = deals_won + excluded.deals_won,
        deals_lost = deals_lost + excluded.deals_lost,
        deals_eggs = deals_eggs + excluded.deals_eggs,
        points = points + excluded.points;
    INSERT INTO chat_board
    SELECT
        NEW.platform, NEW.chat_id, s.rule_set, NEW.user_id, NEW.sign,
        NEW.sign * (s.loser != NEW.team)
    FROM series_results AS s
    WHERE s.game_id = NEW.game_id
    ON CONFLICT (platform, chat_id, rule_set, user_id) DO UPDATE SET
        series_played = series_played + excluded.series_played,
        series_won = series_won + excluded.series_won;
    INSERT INTO platform_board
    SELECT
        NEW.platform, CASE every.one WHEN 1 THEN '*' ELSE s.rule_set END, NEW.user_id,
        NEW.sign, NEW.sign * (s.loser != NEW.team)
    FROM series_results AS s, (SELECT 0 AS one UNION ALL SELECT 1) AS every
    WHERE s.game_id = NEW.game_id
    ON CONFLICT (platform, rule_set, user_id) DO UPDATE SET
        series_played = series_played + excluded.series_played,
        series_won = series_won + excluded.series_won;
END;

CREATE TRIGGER participants_counted AFTER INSERT ON participants
WHEN NEW.kind = 'human' AND NEW.user_id IS NOT NULL
BEGIN
    INSERT INTO seat_tally
    SELECT NEW.game_id, NEW.platform, NEW.user_id, NEW.seat % 2, g.chat_id, g.rule_set, 1
    FROM games AS g
    WHERE g.id = NEW.game_id AND g.platform = NEW.platform
        AND g.status IN ('playing', 'finished');
END;

CREATE TRIGGER participants_uncounted AFTER DELETE ON participants
WHEN OLD.kind = 'human' AND OLD.user_id IS NOT NULL
BEGIN
    INSERT INTO seat_tally
    SELECT OLD.game_id, OLD.platform, OLD.user_id, OLD.seat % 2, g.chat_id, g.rule_set, -1
    FROM games AS g
    WHERE g.id = OLD.game_id AND g.platform = OLD.platform
        AND g.status IN ('playing', 'finished');
END;

CREATE TRIGGER participants_recounted AFTER UPDATE ON participants
BEGIN
    INSERT INTO seat_tally
    SELECT OLD.game_id, OLD.platform, OLD.user_id, OLD.seat % 2, g.chat_id, g.rule_set, -1
    FROM games AS g
    WHERE OLD.kind = 'human' AND OLD.user_id IS NOT NULL
        AND g.id = OLD.game_id AND g.platform = OLD.platform
        AND g.status IN ('playing', 'finished');
    INSERT INTO seat_tally
    SELECT NEW.game_id, NEW.platform, NEW.user_id, NEW.seat % 2, g.chat_id, g.rule_set, 1
    FROM games AS g
    WHERE NEW.kind = 'human' AND NEW.user_id IS NOT NULL
        AND g.id = NEW.game_id AND g.platform = NEW.platform
        AND g.status IN ('playing', 'finished');
END;

-- Every save updates its game's row: only a change of what counts recounts it.
CREATE TRIGGER games_recounted AFTER UPDATE OF status, platform, chat_id, rule_set ON games
WHEN (OLD.status IN ('playing', 'finished')) != (NEW.status IN ('playing', 'finished'))
    OR OLD.platform IS NOT NEW.platform OR OLD.chat_id IS NOT NEW.chat_id
    OR OLD.rule_set IS NOT NEW.rule_set OR OLD.id IS NOT NEW.id
BEGIN
    INSERT INTO seat_tally
    SELECT p.game_id, p.platform, p.user_id, p.seat % 2, OLD.chat_id, OLD.rule_set, -1
    FROM participants AS p
    WHERE p.game_id = OLD.id AND p.kind = 'human' AND +p.user_id IS NOT NULL
        AND +p.platform = OLD.platform AND OLD.status IN ('playing', 'finished');
    INSERT INTO seat_tally
    SELECT p.game_id, p.platform, p.user_id, p.seat % 2, NEW.chat_id, NEW.rule_set, 1
    FROM participants AS p
    WHERE p.game_id = NEW.id AND p.kind = 'human' AND +p.user_id IS NOT NULL
        AND +p.platform = NEW.platform AND NEW.status IN ('playing', 'finished');
END;

CREATE TRIGGER deal_results_counted AFTER INSERT ON deal_results
BEGIN
    INSERT INTO user_results
    SELECT
        p.platform, p.user_id, NEW.rule_set, 0, 0, 0, 0, 0, 1,
        NEW.winner IS p.seat % 2, NEW.winner IS 1 - p.seat % 2, NEW.eggs,
        CASE p.seat % 2 WHEN 0 THEN NEW.points_a ELSE NEW.points_b END
    FROM participants AS p
    JOIN games AS g ON g.id = p.game_id
    WHERE p.game_id = NEW.game_id AND p.kind = 'human' AND +p.user_id IS NOT NULL
        AND +p.platform = g.platform AND g.status IN ('playing', 'finished')
    ON CONFLICT (platform, user_id, rule_set) DO UPDATE SET
        deals_played = deals_played + excluded.deals_played,
        deals_won = deals_won + excluded.deals_won,
        deals_lost = deals_lost + excluded.deals_lost,
        deals_eggs = deals_eggs + excluded.deals_eggs,
        points = points + excluded.points;
END;

CREATE TRIGGER series_results_counted AFTER INSERT ON series_results
BEGIN
    INSERT INTO user_results
    SELECT
        p.platform, p.user_id, g.rule_set, 0, 1, NEW.loser != p.seat % 2,
        NEW.loser = p.seat % 2,
        NEW.loser = p.seat % 2 AND NEW.title IN ('goats_with_eggs', 'goats_with_eggs_and_tails'),
        0, 0, 0, 0, 0
    FROM participants AS p
    JOIN games AS g ON g.id = p.game_id
    WHERE p.game_id = NEW.game_id AND p.kind = 'human' AND +p.user_id IS NOT NULL
        AND +p.platform = g.platform AND g.status IN ('playing', 'finished')
    ON CONFLICT (platform, user_id, rule_set) DO UPDATE SET
        series_played = series_played + excluded.series_played,
        series_won = series_won + excluded.series_won,
        goat = goat + excluded.goat,
        goat_with_eggs = goat_with_eggs + excluded.goat_with_eggs;
    INSERT INTO chat_board
    SELECT g.platform, g.chat_id, NEW.rule_set, p.user_id, 1, NEW.loser != p.seat % 2
    FROM participants AS p
    JOIN games AS g ON g.id = p.game_id
    WHERE p.game_id = NEW.game_id AND p.kind = 'human' AND +p.user_id IS NOT NULL
        AND +p.platform = g.platform AND g.status IN ('playing', 'finished')
    ON CONFLICT (platform, chat_id, rule_set, user_id) DO UPDATE SET
        series_played = series_played + excluded.series_played,
        series_won = series_won + excluded.series_won;
    INSERT INTO platform_board
    SELECT
        g.platform, CASE every.one WHEN 1 THEN '*' ELSE NEW.rule_set END, p.user_id, 1,
        NEW.loser != p.seat % 2
    FROM participants AS p
    JOIN games AS g ON g.id = p.game_id
    CROSS JOIN (SELECT 0 AS one UNION ALL SELECT 1) AS every
    WHERE p.game_id = NEW.game_id AND p.kind = 'human' AND +p.user_id IS NOT NULL
        AND +p.platform = g.platform AND g.status IN ('playing', 'finished')
    ON CONFLICT (platform, rule_set, user_id) DO UPDATE SET
        series_played = series_played + excluded.series_played,
        series_won = series_won + excluded.series_won;
END;
