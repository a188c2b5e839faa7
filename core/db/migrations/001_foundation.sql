-- Foundation: API keys, per-key daily job quota, the spending ledger, and the
-- table the shared rate limiter keeps its counters in.

-- Keys are stored only as sha256 digests: the key itself is shown once, when it
-- is made. A random 256-bit key needs no slow hash; a digest lookup cannot be
-- turned into a guess at the key.
CREATE TABLE api_keys (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  key_hash    bytea NOT NULL UNIQUE CHECK (length(key_hash) = 32),
  key_prefix  text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  revoked_at  timestamptz
);
-- One live key per name, so that `key revoke NAME` means one thing.
CREATE UNIQUE INDEX api_keys_live_name ON api_keys (name) WHERE revoked_at IS NULL;

-- Report and check jobs started per key and UTC day.
CREATE TABLE job_quota (
  key_id  bigint NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
  day     date NOT NULL,
  jobs    integer NOT NULL DEFAULT 0 CHECK (jobs >= 0),
  PRIMARY KEY (key_id, day)
);

-- Every paid call (model tokens, search queries) in US dollars, by UTC day.
CREATE TABLE spend_ledger (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  day            date NOT NULL DEFAULT (now() AT TIME ZONE 'utc')::date,
  at             timestamptz NOT NULL DEFAULT now(),
  provider       text NOT NULL,
  purpose        text NOT NULL,
  input_tokens   integer NOT NULL DEFAULT 0,
  output_tokens  integer NOT NULL DEFAULT 0,
  amount_usd     numeric(12, 6) NOT NULL CHECK (amount_usd >= 0)
);
CREATE INDEX spend_ledger_day ON spend_ledger (day);

-- Counters of rate-limiter-flexible's PostgreSQL store (RATE_LIMIT_STORE=postgres),
-- in the shape that library expects.
CREATE TABLE rate_limits (
  key     varchar(255) PRIMARY KEY,
  points  integer NOT NULL DEFAULT 0,
  expire  bigint
);
