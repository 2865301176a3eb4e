-- 5: deal and series results carry the rule set of their game, so that statistics
-- and leaderboards can be counted per rule set. Every result kept so far is a yard
-- game's (the only rule set a table could play). A game's rule set and its options
-- were kept already: games.rule_set, and the settings JSON (its "options", {} when
-- left out).

ALTER TABLE deal_results ADD COLUMN rule_set TEXT NOT NULL DEFAULT 'yard';
ALTER TABLE series_results ADD COLUMN rule_set TEXT NOT NULL DEFAULT 'yard';
