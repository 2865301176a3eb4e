-- 8: reserved for another branch's step (the numbers must run 1..n with no gap):
-- this placeholder does nothing, and goes when that branch's 0008 is merged.

SELECT 1;
