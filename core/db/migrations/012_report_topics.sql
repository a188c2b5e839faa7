-- A report on one topic is a view of its own (issue #15): stored under its
-- topic, never the subject's latest report on its whole record, and made by
-- a job of its own. core/reports/repository.ts holds the rule.

-- reports.topic is from now on the method's topic the report scored, or NULL
-- for the whole record. Until now it held the request's text as sent, and a
-- text that named no topic was scored over the whole record: such reports
-- are whole-record reports. The list is core/method/outcomes.ts's TOPICS as
-- of this migration, normalised as normaliseTopic does (core/schemas/topic.ts).
UPDATE reports SET topic = CASE
    WHEN lower(regexp_replace(btrim(topic), '[[:space:]-]+', '_', 'g')) IN
         ('economy', 'business', 'health', 'environment', 'technology', 'science', 'education',
          'public_safety', 'governance', 'media', 'transport', 'housing', 'other')
      THEN lower(regexp_replace(btrim(topic), '[[:space:]-]+', '_', 'g'))
    ELSE NULL
  END
  WHERE topic IS NOT NULL;

-- The latest report of a subject in one scope: `topic IS NULL` (the whole
-- record) and `topic = $2` are both conditions on this index, and its order
-- is the order "latest" is read in.
CREATE INDEX reports_subject_topic_latest ON reports (subject_id, topic NULLS FIRST, generated_at DESC, id DESC);

-- A report job is for one subject on one scope: a topic request no longer
-- joins an open job for the whole record or for another topic (depth is
-- still not part of the match: a request joins an open job of either depth).
ALTER TABLE jobs ADD COLUMN topic text;
UPDATE jobs SET topic = lower(regexp_replace(btrim(request->>'topic'), '[[:space:]-]+', '_', 'g'))
  WHERE kind = 'report'
    AND lower(regexp_replace(btrim(request->>'topic'), '[[:space:]-]+', '_', 'g')) IN
        ('economy', 'business', 'health', 'environment', 'technology', 'science', 'education',
         'public_safety', 'governance', 'media', 'transport', 'housing', 'other');
DROP INDEX jobs_one_open_report;
CREATE UNIQUE INDEX jobs_one_open_report ON jobs (subject_id, (coalesce(topic, ''))) WHERE kind = 'report' AND status IN ('queued', 'running');
