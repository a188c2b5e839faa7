-- Change notices for the API processes' caches (core/db/change-feed.ts): a
-- stored report served from memory must never outlive a change to the reports
-- or subjects tables, whoever made it (a worker, an ingest, a person at psql).
-- Statement-level: one notice per statement, however many rows; the caches
-- forget everything they hold, which is cheap since changes are rare.
CREATE FUNCTION notify_reports_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('reports_changed', '');
  RETURN NULL;
END $$;

CREATE FUNCTION notify_subjects_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('subjects_changed', '');
  RETURN NULL;
END $$;

CREATE TRIGGER reports_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON reports
  FOR EACH STATEMENT EXECUTE FUNCTION notify_reports_changed();
CREATE TRIGGER subjects_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON subjects
  FOR EACH STATEMENT EXECUTE FUNCTION notify_subjects_changed();
