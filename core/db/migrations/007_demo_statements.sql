-- Demo claims keep what the machine judge was given (the statement: quote,
-- speaker, kind and the day the fixed test counts from, and nothing of the
-- publisher's verdict), so that a claim can be judged again by a new method
-- version without the file it came from; which method judged it, and when;
-- the row's identity in its data set; and the publisher's page for its rating,
-- which readers see and the judge never does.
ALTER TABLE demo_claims
  ADD COLUMN source_id       text,
  ADD COLUMN reference_url   text,
  ADD COLUMN statement       jsonb,
  ADD COLUMN method_version  text,
  ADD COLUMN judged_at       timestamptz;

-- GET /v1/demo lists a set's claims in this order, a page at a time.
CREATE INDEX demo_claims_listing ON demo_claims (dataset, subject_id, claim_id);
