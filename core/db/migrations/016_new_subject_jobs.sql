-- A report job for a name no knowledge source held when it was asked for
-- (issue #14): it starts without a subject (subject_id NULL), identifies the
-- name in its first stage, and takes the subject it stored. Its request holds
-- the name as sent, its kind, and `name_key` (the name compared as lookups
-- compare it: core/corpus/pack.ts nameKey).
--
-- Callers asking for the same new name, kind and topic while such a job is
-- open share it, as they share a job for a known subject (jobs_one_open_report,
-- migration 012): an MCP client calling again to collect its report joins
-- the job it started instead of paying for a second identification. Once the
-- job has its subject it leaves this index and is found by jobs_one_open_report.
CREATE UNIQUE INDEX jobs_one_open_new_subject
  ON jobs ((request->>'name_key'), (coalesce(request->>'kind', '')), (coalesce(topic, '')))
  WHERE kind = 'report' AND subject_id IS NULL AND status IN ('queued', 'running');
