-- Issue #16, items 1 and 6.
--
-- Every change to api_keys sends a notice on the keys channel, whoever makes
-- it (`npm run key`, a person at psql). The API's key cache keeps unknown keys
-- as well as known ones (core/key-cache.ts), so a key just made must reach
-- every process at once, as a revocation already did: both caches forget
-- everything on the notice. Statement-level, like migration 010's triggers.
CREATE FUNCTION notify_api_keys_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('api_keys_changed', '');
  RETURN NULL;
END $$;

CREATE TRIGGER api_keys_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON api_keys
  FOR EACH STATEMENT EXECUTE FUNCTION notify_api_keys_changed();

-- Replies a key sent today, across claims (the per-key daily cap of
-- core/responses.ts); per claim, responses_claim (migration 006) serves.
CREATE INDEX responses_key_received ON responses (key_id, received_at);
