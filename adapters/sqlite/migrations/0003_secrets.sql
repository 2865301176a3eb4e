-- 3: secret keys (the one that signs join links), made once per database.

CREATE TABLE secrets (
    name  TEXT PRIMARY KEY,
    value BLOB NOT NULL
);
