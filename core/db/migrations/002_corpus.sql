-- The local corpus: subjects and documents from source packs (DESIGN.md,
-- "Source packs"). A subject is keyed by name and kind, a document by url, so
-- that ingesting a pack twice changes nothing.

CREATE TABLE subjects (
  id             text PRIMARY KEY,               -- sub_ + 16 hex of sha256(kind, lower(name)): the same in every database
  name           text NOT NULL CHECK (length(name) BETWEEN 1 AND 300),
  kind           text NOT NULL CHECK (kind IN ('person', 'organisation', 'outlet')),
  aliases        text[] NOT NULL DEFAULT '{}',
  description    text,
  public_figure  boolean NOT NULL DEFAULT true,
  offices        jsonb NOT NULL DEFAULT '[]',    -- [{title, from, to}]; to = null: held now
  urls           text[] NOT NULL DEFAULT '{}',
  handles        text[] NOT NULL DEFAULT '{}',
  demo           boolean NOT NULL DEFAULT false, -- imported with published outcomes (demo sets)
  extra          jsonb NOT NULL DEFAULT '{}',    -- unknown fields of the pack record, kept
  name_keys      text[] NOT NULL,                -- lower-cased name and aliases, for matching speakers and names
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now(),
  UNIQUE (name, kind)
);
CREATE INDEX subjects_name_keys ON subjects USING gin (name_keys);

CREATE TABLE documents (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  url           text NOT NULL UNIQUE,
  title         text NOT NULL DEFAULT '',
  publisher     text NOT NULL DEFAULT '',
  published     date,
  speakers      text[] NOT NULL DEFAULT '{}',
  speaker_keys  text[] NOT NULL DEFAULT '{}',   -- lower-cased speakers
  text          text NOT NULL,
  extra         jsonb NOT NULL DEFAULT '{}',
  ingested_at   timestamptz NOT NULL DEFAULT now(),
  -- Full-text search for discovery and evidence: title weighs more than body.
  tsv           tsvector GENERATED ALWAYS AS (
                  setweight(to_tsvector('english', coalesce(title, '')), 'A') ||
                  setweight(to_tsvector('english', coalesce(publisher, '')), 'C') ||
                  setweight(to_tsvector('english', text), 'B')
                ) STORED
);
CREATE INDEX documents_tsv ON documents USING gin (tsv);
CREATE INDEX documents_speaker_keys ON documents USING gin (speaker_keys);
CREATE INDEX documents_published ON documents (published);

-- Published measurements of the method's agreement (GET /v1/methodology).
CREATE TABLE measurements (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  measured_at     timestamptz NOT NULL DEFAULT now(),
  method_version  text NOT NULL,
  body            jsonb NOT NULL
);
