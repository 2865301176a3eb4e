-- 6: totals of the results, kept up to date by triggers in the transaction that
-- changes what they count, so that statistics and leaderboards read a few rows
-- instead of every seat a player ever took (the same tables as SQLite's
-- 0006_result_totals.sql).
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
    seats          BIGINT NOT NULL,
    series_played  BIGINT NOT NULL,
    series_won     BIGINT NOT NULL,
    goat           BIGINT NOT NULL,
    goat_with_eggs BIGINT NOT NULL,
    deals_played   BIGINT NOT NULL,
    deals_won      BIGINT NOT NULL,
    deals_lost     BIGINT NOT NULL,
    deals_eggs     BIGINT NOT NULL,
    points         BIGINT NOT NULL,
    PRIMARY KEY (platform, user_id, rule_set)
);

CREATE TABLE chat_board (
    platform      TEXT NOT NULL,
    chat_id       TEXT NOT NULL,
    rule_set      TEXT NOT NULL,
    user_id       TEXT NOT NULL,
    series_played BIGINT NOT NULL,
    series_won    BIGINT NOT NULL,
    PRIMARY KEY (platform, chat_id, rule_set, user_id)
);

CREATE TABLE platform_board (
    platform      TEXT NOT NULL,
    rule_set      TEXT NOT NULL,  -- '*': every rule set
    user_id       TEXT NOT NULL,
    series_played BIGINT NOT NULL,
    series_won    BIGINT NOT NULL,
    PRIMARY KEY (platform, rule_set, user_id)
);

-- A platform's leaderboard reads its best rows first.
CREATE INDEX platform_board_by_wins ON platform_board (platform, rule_set, series_won DESC);

-- A player's name at his latest seat is the first row of his in this order.
DROP INDEX participants_by_user;
CREATE INDEX participants_by_user ON participants (platform, user_id, game_id DESC, seat);

-- The totals of today's results, counted with fresh statistics of the tables.
ANALYZE games, participants, deal_results, series_results;
INSERT INTO user_results
SELECT
    p.platform, p.user_id, g.rule_set, COUNT(*), COUNT(s.game_id),
    COUNT(*) FILTER (WHERE s.loser <> p.seat % 2),
    COUNT(*) FILTER (WHERE s.loser = p.seat % 2),
    COUNT(*) FILTER (WHERE s.loser = p.seat % 2
                     AND s.title IN ('goats_with_eggs', 'goats_with_eggs_and_tails')),
    0, 0, 0, 0, 0
FROM participants AS p
JOIN games AS g ON g.id = p.game_id
LEFT JOIN series_results AS s ON s.game_id = p.game_id
WHERE p.kind = 'human' AND p.user_id IS NOT NULL AND p.platform = g.platform
    AND g.status IN ('playing', 'finished')
GROUP BY p.platform, p.user_id, g.rule_set;

INSERT INTO user_results
SELECT
    p.platform, p.user_id, d.rule_set, 0, 0, 0, 0, 0, COUNT(*),
    COUNT(*) FILTER (WHERE d.winner = p.seat % 2),
    COUNT(*) FILTER (WHERE d.winner = 1 - p.seat % 2),
    SUM(d.eggs),
    SUM(CASE p.seat % 2 WHEN 0 THEN d.points_a ELSE d.points_b END)
FROM participants AS p
JOIN games AS g ON g.id = p.game_id
JOIN deal_results AS d ON d.game_id = p.game_id
WHERE p.kind = 'human' AND p.user_id IS NOT NULL AND p.platform = g.platform
    AND g.status IN ('playing', 'finished')
GROUP BY p.platform, p.user_id, d.rule_set
ON CONFLICT (platform, user_id, rule_set) DO UPDATE SET
    deals_played = EXCLUDED.deals_played, deals_won = EXCLUDED.deals_won,
    deals_lost = EXCLUDED.deals_lost, deals_eggs = EXCLUDED.deals_eggs,
    points = EXCLUDED.points;

INSERT INTO chat_board
SELECT
    g.platform, g.chat_id, s.rule_set, p.user_id, COUNT(*),
    COUNT(*) FILTER (WHERE s.loser <> p.seat % 2)
FROM participants AS p
JOIN games AS g ON g.id = p.game_id
JOIN series_results AS s ON s.game_id = p.game_id
WHERE p.kind = 'human' AND p.user_id IS NOT NULL AND p.platform = g.platform
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

-- Count one seat in or out (p_sign 1 or -1) with everything its game reached.
CREATE FUNCTION kozel_tally_seat(
    p_game_id bigint, p_platform text, p_user_id text, p_team integer, p_chat_id text,
    p_rule_set text, p_sign integer
) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO user_results
    SELECT
        p_platform, p_user_id, p_rule_set, p_sign,
        p_sign * (s.game_id IS NOT NULL)::integer,
        p_sign * COALESCE(s.loser <> p_team, false)::integer,
        p_sign * COALESCE(s.loser = p_team, false)::integer,
        p_sign * COALESCE(s.loser = p_team
                          AND s.title IN ('goats_with_eggs', 'goats_with_eggs_and_tails'),
                          false)::integer,
        0, 0, 0, 0, 0
    FROM (SELECT p_game_id AS game_id) AS seat
    LEFT JOIN series_results AS s ON s.game_id = seat.game_id
    ON CONFLICT (platform, user_id, rule_set) DO UPDATE SET
        seats = user_results.seats + EXCLUDED.seats,
        series_played = user_results.series_played + EXCLUDED.series_played,
        series_won = user_results.series_won + EXCLUDED.series_won,
        goat = user_results.goat + EXCLUDED.goat,
        goat_with_eggs = user_results.goat_with_eggs + EXCLUDED.goat_with_eggs;
    INSERT INTO user_results
    SELECT
        p_platform, p_user_id, d.rule_set, 0, 0, 0, 0, 0,
        p_sign * COUNT(*),
        p_sign * COUNT(*) FILTER (WHERE d.winner = p_team),
        p_sign * COUNT(*) FILTER (WHERE d.winner = 1 - p_team),
        p_sign * SUM(d.eggs),
        p_sign * SUM(CASE p_team WHEN 0 THEN d.points_a ELSE d.points_b END)
    FROM deal_results AS d
    WHERE d.game_id = p_game_id
    GROUP BY d.rule_set
    ON CONFLICT (platform, user_id, rule_set) DO UPDATE SET
        deals_played = user_results.deals_played + EXCLUDED.deals_played,
        deals_won = user_results.deals_won + EXCLUDED.deals_won,
        deals_lost = user_results.deals_lost + EXCLUDED.deals_lost,
        deals_eggs = user_results.deals_eggs + EXCLUDED.deals_eggs,
        points = user_results.points + EXCLUDED.points;
    INSERT INTO chat_board
    SELECT
        p_platform, p_chat_id, s.rule_set, p_user_id, p_sign,
        p_sign * (s.loser <> p_team)::integer
    FROM series_results AS s
    WHERE s.game_id = p_game_id
    ON CONFLICT (platform, chat_id, rule_set, user_id) DO UPDATE SET
        series_played = chat_board.series_played + EXCLUDED.series_played,
        series_won = chat_board.series_won + EXCLUDED.series_won;
    INSERT INTO platform_board
    SELECT p_platform, every.rule_set, p_user_id, p_sign, p_sign * (s.loser <> p_team)::integer
    FROM series_results AS s
    CROSS JOIN LATERAL (VALUES (s.rule_set), ('*')) AS every (rule_set)
    WHERE s.game_id = p_game_id
    ON CONFLICT (platform, rule_set, user_id) DO UPDATE SET
        series_played = platform_board.series_played + EXCLUDED.series_played,
        series_won = platform_board.series_won + EXCLUDED.series_won;
END;
$$;

-- A participant's row counted in (p_sign 1) or out (-1), if it counts.
CREATE FUNCTION kozel_tally_participant(p participants, p_sign integer)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    g games;
BEGIN
    IF p.kind <> 'human' OR p.user_id IS NULL THEN
        RETURN;
    END IF;
    SELECT * INTO g FROM games
    WHERE id = p.game_id AND platform = p.platform AND status IN ('playing', 'finished');
    IF FOUND THEN
        PERFORM kozel_tally_seat(
            p.game_id, p.platform, p.user_id, p.seat % 2, g.chat_id, g.rule_set, p_sign
        );
    END IF;
END;
$$;

CREATE FUNCTION kozel_participants_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        PERFORM kozel_tally_participant(OLD, -1);
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        PERFORM kozel_tally_participant(NEW, 1);
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER participants_counted AFTER INSERT OR UPDATE OR DELETE ON participants
FOR EACH ROW EXECUTE FUNCTION kozel_participants_counted();

-- A game whose counting changed (it started, ended, was cancelled or moved chat):
-- its seats out as they counted, then in as they count.
CREATE FUNCTION kozel_games_recounted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    p participants;
BEGIN
    FOR p IN
        SELECT * FROM participants
        WHERE game_id = OLD.id AND kind = 'human' AND user_id IS NOT NULL
        ORDER BY seat
    LOOP
        IF p.platform = OLD.platform AND OLD.status IN ('playing', 'finished') THEN
            PERFORM kozel_tally_seat(
                p.game_id, p.platform, p.user_id, p.seat % 2, OLD.chat_id, OLD.rule_set, -1
            );
        END IF;
        IF p.platform = NEW.platform AND NEW.status IN ('playing', 'finished') THEN
            PERFORM kozel_tally_seat(
                p.game_id, p.platform, p.user_id, p.seat % 2, NEW.chat_id, NEW.rule_set, 1
            );
        END IF;
    END LOOP;
    RETURN NULL;
END;
$$;

-- Every save updates its game's row: only a change of what counts recounts it.
CREATE TRIGGER games_recounted AFTER UPDATE OF status, platform, chat_id, rule_set ON games
FOR EACH ROW
WHEN ((OLD.status IN ('playing', 'finished')) <> (NEW.status IN ('playing', 'finished'))
      OR OLD.platform IS DISTINCT FROM NEW.platform
      OR OLD.chat_id IS DISTINCT FROM NEW.chat_id
      OR OLD.rule_set IS DISTINCT FROM NEW.rule_set)
EXECUTE FUNCTION kozel_games_recounted();

CREATE FUNCTION kozel_deal_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO user_results
    SELECT
        p.platform, p.user_id, NEW.rule_set, 0, 0, 0, 0, 0, COUNT(*),
        COUNT(*) FILTER (WHERE NEW.winner = p.seat % 2),
        COUNT(*) FILTER (WHERE NEW.winner = 1 - p.seat % 2),
        COUNT(*) * NEW.eggs,
        SUM(CASE p.seat % 2 WHEN 0 THEN NEW.points_a ELSE NEW.points_b END)
    FROM participants AS p
    JOIN games AS g ON g.id = p.game_id
    WHERE p.game_id = NEW.game_id AND p.kind = 'human' AND p.user_id IS NOT NULL
        AND p.platform = g.platform AND g.status IN ('playing', 'finished')
    GROUP BY p.platform, p.user_id
    ON CONFLICT (platform, user_id, rule_set) DO UPDATE SET
        deals_played = user_results.deals_played + EXCLUDED.deals_played,
        deals_won = user_results.deals_won + EXCLUDED.deals_won,
        deals_lost = user_results.deals_lost + EXCLUDED.deals_lost,
        deals_eggs = user_results.deals_eggs + EXCLUDED.deals_eggs,
        points = user_results.points + EXCLUDED.points;
    RETURN NULL;
END;
$$;

CREATE TRIGGER deal_results_counted AFTER INSERT ON deal_results
FOR EACH ROW EXECUTE FUNCTION kozel_deal_counted();

CREATE FUNCTION kozel_series_counted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO user_results
    SELECT
        p.platform, p.user_id, g.rule_set, 0, COUNT(*),
        COUNT(*) FILTER (WHERE NEW.loser <> p.seat % 2),
        COUNT(*) FILTER (WHERE NEW.loser = p.seat % 2),
        COUNT(*) FILTER (WHERE NEW.loser = p.seat % 2
                         AND NEW.title IN ('goats_with_eggs', 'goats_with_eggs_and_tails')),
        0, 0, 0, 0, 0
    FROM participants AS p
    JOIN games AS g ON g.id = p.game_id
    WHERE p.game_id = NEW.game_id AND p.kind = 'human' AND p.user_id IS NOT NULL
        AND p.platform = g.platform AND g.status IN ('playing', 'finished')
    GROUP BY p.platform, p.user_id, g.rule_set
    ON CONFLICT (platform, user_id, rule_set) DO UPDATE SET
        series_played = user_results.series_played + EXCLUDED.series_played,
        series_won = user_results.series_won + EXCLUDED.series_won,
        goat = user_results.goat + EXCLUDED.goat,
        goat_with_eggs = user_results.goat_with_eggs + EXCLUDED.goat_with_eggs;
    INSERT INTO chat_board
    SELECT
        g.platform, g.chat_id, NEW.rule_set, p.user_id, COUNT(*),
        COUNT(*) FILTER (WHERE NEW.loser <> p.seat % 2)
    FROM participants AS p
    JOIN games AS g ON g.id = p.game_id
    WHERE p.game_id = NEW.game_id AND p.kind = 'human' AND p.user_id IS NOT NULL
        AND p.platform = g.platform AND g.status IN ('playing', 'finished')
    GROUP BY g.platform, g.chat_id, p.user_id
    ON CONFLICT (platform, chat_id, rule_set, user_id) DO UPDATE SET
        series_played = chat_board.series_played + EXCLUDED.series_played,
        series_won = chat_board.series_won + EXCLUDED.series_won;
    INSERT INTO platform_board
    SELECT
        g.platform, every.rule_set, p.user_id, COUNT(*),
        COUNT(*) FILTER (WHERE NEW.loser <> p.seat % 2)
    FROM participants AS p
    JOIN games AS g ON g.id = p.game_id
    CROSS JOIN (VALUES (NEW.rule_set), ('*')) AS every (rule_set)
    WHERE p.game_id = NEW.game_id AND p.kind = 'human' AND p.user_id IS NOT NULL
        AND p.platform = g.platform AND g.status IN ('playing', 'finished')
    GROUP BY g.platform, every.rule_set, p.user_id
    ON CONFLICT (platform, rule_set, user_id) DO UPDATE SET
        series_played = platform_board.series_played + EXCLUDED.series_played,
        series_won = platform_board.series_won + EXCLUDED.series_won;
    RETURN NULL;
END;
$$;

CREATE TRIGGER series_results_counted AFTER INSERT ON series_results
FOR EACH ROW EXECUTE FUNCTION kozel_series_counted();
