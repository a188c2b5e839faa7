-- Answers of hosted language models (core/providers/model/), kept so that an
-- identical request is answered again without a call and without spend. The
-- key is the sha256 of everything that shapes the answer: provider, model,
-- system prompt, prompt, JSON schema and output-token limit. Only answers that
-- passed validation are stored; `answer` is the JSON as the model gave it
-- (before zod's transforms), so it is validated again on every hit.
CREATE TABLE model_cache (
  key            bytea PRIMARY KEY CHECK (octet_length(key) = 32),
  provider       text NOT NULL,
  model          text NOT NULL,
  purpose        text NOT NULL,                     -- the first request's purpose; for inspection only
  answer         jsonb NOT NULL,
  input_tokens   integer NOT NULL DEFAULT 0,        -- what the answer cost when it was made (correction included)
  output_tokens  integer NOT NULL DEFAULT 0,
  created_at     timestamptz NOT NULL DEFAULT now()
);
