import type { Queryable } from '../../core/db/pool.ts';

/**
 * Synthetic stored reports for the export's scale test and benchmark: invented
 * subjects ("Export Sample NNN", marked as samples), one report each, with
 * claims of a realistic shape and size (about 1.2 KB of JSON each: a quote,
 * its source, a fixed test, a rationale and two pieces of evidence). Built in
 * PostgreSQL with generate_series, so 100,000 claims take seconds.
 * `big` claims go to one subject of their own: a report far larger than a page.
 */
export async function seedClaims(db: Queryable, o: { subjects: number; claimsPer: number; big?: number }): Promise<{ claims: number }> {
  await db.query(
    `INSERT INTO subjects (id, name, kind, description, name_keys)
     SELECT 'sub_exp' || lpad(i::text, 13, '0'), 'Export Sample ' || lpad(i::text, 4, '0'), 'organisation',
            'SAMPLE (invented) subject for export tests.', ARRAY['export sample ' || lpad(i::text, 4, '0')]
       FROM generate_series(0, $1::int) AS i`,
    [o.subjects],
  );
  await db.query(
    `INSERT INTO reports (id, subject_id, method_version, depth, report)
     SELECT 'rep_exp' || lpad(i::text, 17, '0'), 'sub_exp' || lpad(i::text, 13, '0'), '1.0.0+sample', 'quick',
            jsonb_build_object('scores', jsonb_build_object('overall', jsonb_build_object('score', 0.7, 'interval_80', jsonb_build_array(0.6, 0.8),
              'n_resolved', 12, 'confidence', jsonb_build_object('level', 'medium', 'reasons', 'sample'))))
       FROM generate_series(0, $1::int) AS i`,
    [o.subjects],
  );
  const claimsOf = async (subject: number, n: number) => {
    await db.query(
      `INSERT INTO claims (report_id, claim_id, position, subject_id, claim_type, topic, outcome, said_on, data)
       SELECT 'rep_exp' || lpad($1::text, 17, '0'), 'clm_exp' || lpad($1::text, 6, '0') || lpad(j::text, 8, '0'), j,
              'sub_exp' || lpad($1::text, 13, '0'), 'factual', 'economy', 'supported', date '2025-01-01' + (j % 600),
              jsonb_build_object(
                'claim_id', 'clm_exp' || lpad($1::text, 6, '0') || lpad(j::text, 8, '0'), 'claim_type', 'factual', 'topic', 'economy',
                'said_on', (date '2025-01-01' + (j % 600))::text,
                'quote', 'SAMPLE: Export Sample ' || $1 || ' said its plant treated ' || (1000 + j) || ' megalitres in the year, ' || repeat('a sentence of invented sample text, ', 6),
                'quote_verified', true,
                'source', jsonb_build_object('url', 'https://export-sample.example/' || $1 || '/' || j, 'title', 'Sample release ' || j, 'outlet', 'Export Sample', 'published', '2025-01-01'),
                'resolution_criteria', 'Supported if an independent source reports ' || (1000 + j) || ' megalitres for the year; contradicted if it reports another figure.',
                'due', null, 'outcome', 'supported', 'on_time', null, 'judges_disagree', false,
                'rationale', 'Two independent sources report the same figure. ' || repeat('Invented sample rationale. ', 4),
                'evidence', jsonb_build_array(
                  jsonb_build_object('url', 'https://audit-sample.example/' || j, 'publisher', 'Audit Sample', 'published', '2025-02-01', 'quote', 'The plant treated ' || (1000 + j) || ' megalitres.', 'independent_of_subject', true),
                  jsonb_build_object('url', 'https://news-sample.example/' || j, 'publisher', 'News Sample', 'published', '2025-02-03', 'quote', 'It treated ' || (1000 + j) || ' megalitres, the figures show.', 'independent_of_subject', true)))
         FROM generate_series(0, $2::int - 1) AS j`,
      [subject, n],
    );
  };
  for (let i = 0; i < o.subjects; i++) await claimsOf(i, o.claimsPer);
  if (o.big) await claimsOf(o.subjects, o.big);
  return { claims: o.subjects * o.claimsPer + (o.big ?? 0) };
}
