-- Report and check jobs as callers see them (`job_…` ids, SPEC.md states).
-- pg-boss carries the work; this table carries what a poll answers.

CREATE TABLE jobs (
  id           text PRIMARY KEY,                        -- job_ + 20 random hex
  kind         text NOT NULL CHECK (kind IN ('report', 'check')),
  status       text NOT NULL DEFAULT 'queued'
               CHECK (status IN ('queued', 'running', 'complete', 'insufficient', 'refused', 'failed')),
  key_id       bigint REFERENCES api_keys (id) ON DELETE SET NULL,  -- who started it; null for refreshes the service starts
  callers      bigint[] NOT NULL DEFAULT '{}',          -- every key that asked for it (they share it); only they may poll it
  subject_id   text REFERENCES subjects (id),
  request      jsonb NOT NULL DEFAULT '{}',             -- depth, topic, consent_ref; for checks the submitted text until the job ends
  reason       text,                                    -- why it ended insufficient, refused or failed
  report_id    text REFERENCES reports (id),
  results      jsonb,                                   -- check jobs: per-claim outcomes
  attempts     integer NOT NULL DEFAULT 0,
  created_at   timestamptz NOT NULL DEFAULT now(),
  started_at   timestamptz,
  finished_at  timestamptz,
  CHECK ((status IN ('insufficient', 'refused', 'failed')) = (reason IS NOT NULL))
);
-- One open report job per subject: callers asking at the same moment share it,
-- and a stale report gets one refresh however many ask.
CREATE UNIQUE INDEX jobs_one_open_report ON jobs (subject_id) WHERE kind = 'report' AND status IN ('queued', 'running');
CREATE INDEX jobs_open ON jobs (status) WHERE status IN ('queued', 'running');
