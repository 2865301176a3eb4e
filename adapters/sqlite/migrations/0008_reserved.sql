-- 8: reserved for another branch (issue 25's plan numbers 0008 and 0009 for other
-- work). This empty step only keeps the numbers without a gap on this branch: drop
-- it when the branch that owns number 8 is merged.
SELECT 1;
