-- Finding a subject by name on the site (GET /search, issue #15;
-- core/subjects.ts searchSubjects). A name is matched by its folded form:
-- lower case, accents taken off (NFKD, then the combining marks removed; the
-- few Latin letters NFKD does not split, such as ø, ł and ß, spelled out), so
-- "Zoe" finds "Zoë" and "zoë" finds "ZOE". The query is folded by the same
-- function, in the same statement: one rule, held once, in SQL.
--
-- normalize() needs a UTF8 database (the embedded one is; so is any made
-- with the defaults of the last fifteen years).
CREATE FUNCTION search_fold(t text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT replace(replace(replace(translate(
    regexp_replace(normalize(lower(t), NFKD), '[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]', '', 'g'),
    'øłđħıŧ', 'oldhit'), 'ß', 'ss'), 'æ', 'ae'), 'œ', 'oe')
$$;

-- A subject's name and aliases, folded, one a line. A query never holds a
-- line break (the route turns every run of white space into one space), so
-- a substring of this text is a substring of one name. IMMUTABLE although
-- array_to_string is only STABLE: for text[] it depends on no setting. Its
-- search_path is fixed to the migration's: PostgreSQL 17 runs index builds,
-- ANALYZE and vacuum with a search_path of pg_catalog only, where
-- search_fold would not be found.
CREATE FUNCTION subject_search_text(name text, aliases text[]) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path FROM CURRENT AS $$
  SELECT search_fold(name || E'\n' || array_to_string(aliases, E'\n'))
$$;

-- Substring search through a trigram index (pg_trgm: `LIKE '%term%'` is
-- answered from the index for terms of three characters or more). pg_trgm
-- ships with PostgreSQL (contrib) and is a trusted extension since 13, so
-- the database's owner may create it; where it cannot be created (a server
-- built without contrib, a role without CREATE), search works the same,
-- by reading the subjects table, and this migration still succeeds.
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm could not be created (%): subject search will read the subjects table without an index', SQLERRM;
END $$;

DO $$
DECLARE
  trgm_schema name;
BEGIN
  SELECT n.nspname INTO trgm_schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm';
  IF trgm_schema IS NOT NULL THEN
    EXECUTE format('CREATE INDEX subjects_search ON subjects USING gin (subject_search_text(name, aliases) %I.gin_trgm_ops)', trgm_schema);
  END IF;
END $$;
