-- Editorial review (issue #18): key scopes; reviews of claims, kept by the
-- version of the claim they were made on; sign-offs of reports; decisions on
-- replies; and the record of every review act. core/reviews/ holds the rules.

-- 1. Key scopes. What a key may do: `read` (every read, resolve, reports,
-- checks, MCP), `respond` (send replies), `label` (the blind labelling
-- routes), `review` (the editorial review routes). Every key that exists
-- keeps exactly what it could do before scopes existed: all but `review`.
-- A key made without naming scopes gets the same (the column default, which
-- core/keys.ts DEFAULT_SCOPES repeats).
ALTER TABLE api_keys ADD COLUMN scopes text[] NOT NULL DEFAULT '{read,respond,label}'
  CONSTRAINT api_keys_scopes_known CHECK (cardinality(scopes) >= 1 AND scopes <@ '{read,respond,label,review}'::text[]);

-- 2. What a review is of. A claim id is stable across reports, but its quote,
-- fixed test and evidence may change when a report is remade: a review holds
-- for the version of the claim it was made on, told by the hash of those
-- three parts (each hashed on its own too, so that a lapsed review can say
-- what changed). Hashed here, by PostgreSQL, and only here, so no second
-- implementation can disagree. The function is IMMUTABLE as generated
-- columns need: convert_to(…, 'UTF8') is declared STABLE only because it
-- depends on the database encoding, which never changes under a database.
CREATE FUNCTION claim_part_hash(part text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT encode(sha256(convert_to(part, 'UTF8')), 'hex') $$;

ALTER TABLE claims
  ADD COLUMN quote_hash text GENERATED ALWAYS AS (claim_part_hash(coalesce(data->'quote', 'null'::jsonb)::text)) STORED,
  ADD COLUMN test_hash text GENERATED ALWAYS AS (claim_part_hash(coalesce(data->'resolution_criteria', 'null'::jsonb)::text)) STORED,
  ADD COLUMN evidence_hash text GENERATED ALWAYS AS (claim_part_hash(coalesce(data->'evidence', '[]'::jsonb)::text)) STORED,
  -- U+001F cannot occur in a jsonb text (JSON escapes it), so the three parts cannot run into one another.
  ADD COLUMN content_hash text GENERATED ALWAYS AS (claim_part_hash(
    coalesce(data->'quote', 'null'::jsonb)::text || E'\x1f' ||
    coalesce(data->'resolution_criteria', 'null'::jsonb)::text || E'\x1f' ||
    coalesce(data->'evidence', '[]'::jsonb)::text)) STORED,
  -- How much the claim weighs in its report, as the machine made it: featured
  -- or not, and how far the headline moves, in score points, when the claim
  -- is left out (core/reviews/weights.ts). Written when the report is stored;
  -- null on reports stored before this migration until first needed.
  ADD COLUMN featured boolean,
  ADD COLUMN headline_weight double precision;
CREATE INDEX claims_version ON claims (claim_id, content_hash);

-- The review of one version of a claim: the outcome a person gave it (the
-- machine's confirmed, or another), why, who and when, with the machine's
-- verdict kept beside it. A second review of the same version replaces the
-- first (`revision` counts them; the record keeps every one).
CREATE TABLE claim_reviews (
  claim_id           text NOT NULL,
  content_hash       text NOT NULL,
  subject_id         text NOT NULL REFERENCES subjects (id),
  quote_hash         text NOT NULL,
  test_hash          text NOT NULL,
  evidence_hash      text NOT NULL,
  outcome            text NOT NULL CHECK (outcome IN ('true', 'mostly_true', 'mixed', 'mostly_false', 'false', 'unresolvable', 'pending')),
  rationale          text NOT NULL CHECK (length(rationale) BETWEEN 1 AND 4000),
  machine_outcome    text NOT NULL,
  machine_rationale  text NOT NULL,
  decision           text NOT NULL CHECK (decision IN ('confirmed', 'corrected')),
  reviewer           text NOT NULL CHECK (length(reviewer) BETWEEN 1 AND 200),
  key_id             bigint REFERENCES api_keys (id) ON DELETE SET NULL,  -- who did it; never shown
  reviewed_at        timestamptz NOT NULL DEFAULT now(),
  revision           integer NOT NULL DEFAULT 1 CHECK (revision >= 1),
  PRIMARY KEY (claim_id, content_hash)
);
CREATE INDEX claim_reviews_latest ON claim_reviews (claim_id, reviewed_at DESC);

-- A report signed off by a reviewer. The report row itself then holds the
-- score recomputed with the reviewed outcomes (what every reader serves);
-- the machine's report is kept here whole, and put back if the sign-off is
-- withdrawn. `outcomes` are the outcomes the signed score was made with.
CREATE TABLE report_signoffs (
  report_id       text PRIMARY KEY REFERENCES reports (id) ON DELETE CASCADE,
  machine_report  jsonb NOT NULL,
  outcomes        jsonb NOT NULL,
  reviewer        text NOT NULL CHECK (length(reviewer) BETWEEN 1 AND 200),
  note            text CHECK (length(note) <= 2000),
  key_id          bigint REFERENCES api_keys (id) ON DELETE SET NULL,
  signed_off_at   timestamptz NOT NULL DEFAULT now()
);

-- A reviewer's decision on a reply, published with a short note.
ALTER TABLE responses
  ADD COLUMN decision text CHECK (decision IN ('accepted', 'not_accepted')),
  ADD COLUMN review_note text CHECK (length(review_note) BETWEEN 1 AND 500),
  ADD COLUMN reviewed_by text CHECK (length(reviewed_by) BETWEEN 1 AND 200),
  ADD COLUMN reviewed_at timestamptz,
  ADD COLUMN review_key_id bigint REFERENCES api_keys (id) ON DELETE SET NULL,
  ADD CONSTRAINT responses_decision_whole CHECK (
    (decision IS NULL AND review_note IS NULL AND reviewed_by IS NULL AND reviewed_at IS NULL) OR
    (decision IS NOT NULL AND review_note IS NOT NULL AND reviewed_by IS NOT NULL AND reviewed_at IS NOT NULL));
CREATE INDEX responses_waiting ON responses (claim_id) WHERE decision IS NULL;

-- The record: every review, sign-off and reply decision (and every review
-- or sign-off that lapsed), who, when, before and after. Append-only, and
-- tied to no report row: nothing in it goes when a report is remade.
CREATE TABLE review_events (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  action       text NOT NULL CHECK (action IN ('claim_review', 'review_lapsed', 'report_signoff', 'signoff_withdrawn', 'reply_decision')),
  subject_id   text NOT NULL REFERENCES subjects (id),
  report_id    text,
  claim_id     text,
  response_id  text,
  reviewer     text,                 -- null for what the service did itself (a review that lapsed)
  key_id       bigint REFERENCES api_keys (id) ON DELETE SET NULL,
  at           timestamptz NOT NULL DEFAULT clock_timestamp(),
  before       jsonb,
  after        jsonb,
  note         text
);
CREATE INDEX review_events_subject ON review_events (subject_id, id);
CREATE INDEX review_events_claim ON review_events (claim_id, id) WHERE claim_id IS NOT NULL;
CREATE INDEX review_events_report ON review_events (report_id, id) WHERE report_id IS NOT NULL;

-- Every stored report carries its review summary (ReportSchema `review`);
-- no claim has been reviewed yet.
UPDATE reports r SET report = r.report || jsonb_build_object('review', jsonb_build_object(
    'claims_total', (SELECT count(*) FROM claims c WHERE c.report_id = r.id),
    'claims_reviewed', 0,
    'signed_off_by', NULL, 'signed_off_at', NULL, 'note', NULL, 'machine_score', NULL))
  WHERE NOT r.report ? 'review';
