-- Replies stored against claims, and reviewers' labels (the human gold set).
-- Check jobs need no table of their own: they live in `jobs` (kind 'check'),
-- their submitted text in jobs.request only until the job ends.

-- A reply or correction to a claim. Claim ids are stable across reports (and
-- demo claims have ids of their own), so a reply stays on the claim when its
-- report is remade. No foreign key to a claim: a claim lives in `claims` under
-- every report that carries it, or in `demo_claims`.
CREATE TABLE responses (
  id                    text PRIMARY KEY,                 -- rsp_ + 20 random hex
  claim_id              text NOT NULL,
  subject_id            text NOT NULL REFERENCES subjects (id),
  name                  text NOT NULL CHECK (length(name) BETWEEN 1 AND 300),
  role                  text CHECK (length(role) <= 300),
  statement             text NOT NULL CHECK (length(statement) BETWEEN 1 AND 10000),
  counter_evidence_url  text CHECK (length(counter_evidence_url) <= 2000 AND counter_evidence_url ~* '^https?://'),
  key_id                bigint REFERENCES api_keys (id) ON DELETE SET NULL,  -- who sent it; never shown
  received_at           timestamptz NOT NULL DEFAULT now(),
  -- Stays so until a person has reviewed the reply.
  status                text NOT NULL DEFAULT 'response received, not yet reviewed'
);
CREATE INDEX responses_claim ON responses (claim_id, received_at);

-- One verdict per key and claim: a second one replaces the first (`revision`
-- counts how many times, so a replacement is told apart from a first label
-- even when two arrive at once).
CREATE TABLE labels (
  key_id       bigint NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
  claim_id     text NOT NULL,
  subject_id   text NOT NULL REFERENCES subjects (id),
  verdict      text NOT NULL CHECK (verdict IN ('true', 'mostly_true', 'mixed', 'mostly_false', 'false', 'unresolvable', 'not_a_claim')),
  on_time      boolean,
  note         text CHECK (length(note) <= 2000),
  reviewer     text CHECK (length(reviewer) <= 200),
  labelled_at  timestamptz NOT NULL DEFAULT now(),
  revision     integer NOT NULL DEFAULT 1 CHECK (revision >= 1),
  PRIMARY KEY (key_id, claim_id)
);
CREATE INDEX labels_key_subject ON labels (key_id, subject_id, labelled_at);
