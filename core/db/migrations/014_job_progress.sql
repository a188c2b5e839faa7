-- Where a running job is (issue #14): its stage and counts so far, written by
-- the worker as the research goes and answered by the poll while the job is
-- `running`. Null before the first stage, between attempts and once the job ends.

ALTER TABLE jobs ADD COLUMN progress jsonb;
