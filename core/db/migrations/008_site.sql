-- Builds of the static site (jobs/site-build.ts, jobs/nightly-export.ts): one
-- row per build that changed the published site, and per failed attempt. The
-- files themselves live in DATA_DIR/site; this is the record of what was
-- published when, how long it took, and how many pages were rendered.
CREATE TABLE site_builds (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  build_id     text,                               -- the folder under DATA_DIR/site/builds; null when it failed
  kind         text NOT NULL CHECK (kind IN ('full', 'incremental', 'export')),
  status       text NOT NULL CHECK (status IN ('published', 'failed')),
  reason       text NOT NULL,                      -- what asked for it
  started_at   timestamptz NOT NULL,
  finished_at  timestamptz NOT NULL DEFAULT now(),
  ms           integer NOT NULL,
  pages        integer NOT NULL DEFAULT 0,         -- pages the published site holds
  rendered     integer NOT NULL DEFAULT 0,         -- pages rendered by this build
  report_ids   text[] NOT NULL DEFAULT '{}',       -- reports published for the first time by this build
  error        text
);
CREATE INDEX site_builds_recent ON site_builds (finished_at DESC);
