-- Demo sets: claims whose outcomes others have published (LIAR, ClaimReview,
-- promise trackers, election forecasts), each judged by the machine without
-- seeing that outcome, kept beside it.
CREATE TABLE demo_claims (
  claim_id              text PRIMARY KEY,
  subject_id            text NOT NULL REFERENCES subjects (id),
  dataset               text NOT NULL,               -- e.g. liar, claimreview, promises, fte-governors
  data                  jsonb NOT NULL,              -- the Claim object with the machine verdict (less responses and review status)
  publisher_rating      text NOT NULL,               -- the publisher's own rating, as published
  published_outcome     text,                        -- that rating on the service's scale; null where it has no place on it
  forecast_probability  double precision,            -- forecast sets: the published probability of the event
  imported_at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX demo_claims_dataset ON demo_claims (dataset);
CREATE INDEX demo_claims_subject ON demo_claims (subject_id);
