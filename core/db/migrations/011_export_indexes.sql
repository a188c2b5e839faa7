-- The export reads a report's claims and a subject's demo claims a page at a
-- time by keyset (core/export.ts): each page is an index range, not a sort of
-- the whole report, so a subject of 100,000 claims streams in steady time.
CREATE INDEX claims_report_position ON claims (report_id, position);
CREATE INDEX demo_claims_subject_id ON demo_claims (subject_id, claim_id);
