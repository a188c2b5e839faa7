-- What the static site has not published yet, found without reading the
-- whole site (jobs/site/changes.ts). Every version of the site records the
-- database snapshot it was built from (pg_current_snapshot()); a row is new
-- to it when the transaction that last wrote the row is not visible in that
-- snapshot. `site_xid` is that transaction, set by a trigger on every insert
-- and update (a report remade or signed off, a reply's status changed), and
-- indexed, so a build reads only the rows written since its last snapshot's
-- xmin: the cost of publishing follows what changed, not the site's size.
-- Rows written before this migration have none: they are older than any
-- snapshot a site holds (the first build after it is a full one).
ALTER TABLE reports ADD COLUMN site_xid xid8;
ALTER TABLE responses ADD COLUMN site_xid xid8;

CREATE FUNCTION site_touch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.site_xid := pg_current_xact_id();
  RETURN NEW;
END $$;

CREATE TRIGGER reports_site_touch BEFORE INSERT OR UPDATE ON reports FOR EACH ROW EXECUTE FUNCTION site_touch();
CREATE TRIGGER responses_site_touch BEFORE INSERT OR UPDATE ON responses FOR EACH ROW EXECUTE FUNCTION site_touch();
CREATE INDEX reports_site_xid ON reports (site_xid);
CREATE INDEX responses_site_xid ON responses (site_xid);

-- A removed report takes pages away, which only a full build can do: the last
-- transaction that removed any report, so that a build can tell whether one
-- happened since its snapshot.
CREATE TABLE site_removals (
  one  boolean PRIMARY KEY DEFAULT true CHECK (one),
  xid  xid8 NOT NULL
);

CREATE FUNCTION site_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO site_removals (xid) VALUES (pg_current_xact_id()) ON CONFLICT (one) DO UPDATE SET xid = EXCLUDED.xid;
  RETURN NULL;
END $$;

CREATE TRIGGER reports_site_removed AFTER DELETE ON reports FOR EACH STATEMENT EXECUTE FUNCTION site_removed();

-- The editorial review's record (migration 015), where it exists: a review of
-- a claim, or its lapse, changes the pages of the reports carrying the claim.
DO $$
BEGIN
  IF to_regclass('review_events') IS NOT NULL THEN
    ALTER TABLE review_events ADD COLUMN site_xid xid8;
    CREATE TRIGGER review_events_site_touch BEFORE INSERT OR UPDATE ON review_events FOR EACH ROW EXECUTE FUNCTION site_touch();
    CREATE INDEX review_events_site_xid ON review_events (site_xid);
  END IF;
END $$;
