-- Finished reports and the claims behind them.

CREATE TABLE reports (
  id              text PRIMARY KEY,                  -- rep_ + 20 random hex
  subject_id      text NOT NULL REFERENCES subjects (id),
  generated_at    timestamptz NOT NULL DEFAULT now(),
  method_version  text NOT NULL,
  depth           text NOT NULL CHECK (depth IN ('quick', 'standard')),
  topic           text,
  report          jsonb NOT NULL,                    -- the Report object as served
  job_id          text,
  stats           jsonb NOT NULL DEFAULT '{}'        -- research counts: documents, claims, timings
);
CREATE INDEX reports_subject_latest ON reports (subject_id, generated_at DESC);
CREATE INDEX reports_latest ON reports (generated_at DESC);

-- A claim's id is stable across reports (derived from the subject, the source
-- and the quote), so replies and labels stay attached when a report is remade.
CREATE TABLE claims (
  report_id    text NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
  claim_id     text NOT NULL,
  position     integer NOT NULL,
  subject_id   text NOT NULL REFERENCES subjects (id),
  claim_type   text NOT NULL,
  topic        text NOT NULL,
  outcome      text NOT NULL,
  said_on      date,
  data         jsonb NOT NULL,                       -- the Claim object, less responses and review status
  PRIMARY KEY (report_id, claim_id)
);
CREATE INDEX claims_by_id ON claims (claim_id);
CREATE INDEX claims_filter ON claims (report_id, claim_type, topic, outcome, position);

-- Facts about this installation, e.g. when the sample pack was loaded.
CREATE TABLE service_state (
  key         text PRIMARY KEY,
  value       jsonb NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT now()
);
