-- 7: when the bot owning each platform's games was last alive (its turn clocks ran
-- until then): after a restart each running clock resumes with the time it had left.

CREATE TABLE alive (
    platform TEXT PRIMARY KEY,
    at       DOUBLE PRECISION NOT NULL  -- epoch seconds
);
