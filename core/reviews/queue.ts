import { VERSION_COLUMNS, type ClaimVersion } from '../claims.ts';
import type { Queryable } from '../db/pool.ts';
import { latestReportSql } from '../reports/repository.ts';
import { withResponses } from '../responses.ts';
import { pagingOf } from '../schemas/common.ts';
import { withReviews } from './claims.ts';
import { ensureWeights } from './reports.ts';
import { REVIEW_WEIGHT_POINTS, mustBeReviewed } from './weights.ts';

/**
 * GET /v1/reviews/queue (issue #18, item 5): the claims waiting for a person,
 * most consequential first. The claims are those behind what is published as
 * each subject's headline: its latest report on its whole record (demo
 * subjects are not published). A claim waits when its version there is
 * unreviewed, or when a reply to it waits for a decision. Order: featured
 * claims first, then by weight on the headline (how far it moves when the
 * claim is left out), then by replies waiting, then subject and the report's
 * own order, so the paging is stable.
 */

type Row = { subject_id: string; subject_name: string; report_id: string; claim_id: string; featured: boolean; weight: number; replies_waiting: number; reviewed: boolean; total: number };

const QUEUE = `
  FROM subjects s
  CROSS JOIN LATERAL (${latestReportSql('id', 's.id', null)}) l
  JOIN claims c ON c.report_id = l.id
  LEFT JOIN claim_reviews cr ON cr.claim_id = c.claim_id AND cr.content_hash = c.content_hash
  CROSS JOIN LATERAL (SELECT count(*)::int AS n FROM responses x WHERE x.claim_id = c.claim_id AND x.decision IS NULL) w
  WHERE NOT s.demo AND ($1::text IS NULL OR s.id = $1) AND (cr.claim_id IS NULL OR w.n > 0)`;

export async function reviewQueue(db: Queryable, subjectId: string | undefined, page: number, pageSize: number) {
  // Reports stored before migration 015 get their weights on first need.
  const latest = await db.query<{ id: string }>(
    `SELECT l.id FROM subjects s CROSS JOIN LATERAL (${latestReportSql('id', 's.id', null)}) l
      WHERE NOT s.demo AND ($1::text IS NULL OR s.id = $1)
        AND EXISTS (SELECT 1 FROM claims c WHERE c.report_id = l.id AND (c.headline_weight IS NULL OR c.featured IS NULL))`,
    [subjectId ?? null],
  );
  await ensureWeights(db, latest.rows.map((r) => r.id));
  const { rows } = await db.query<Row>(
    `SELECT s.id AS subject_id, s.name AS subject_name, l.id AS report_id, c.claim_id, coalesce(c.featured, false) AS featured,
            coalesce(c.headline_weight, 0) AS weight, w.n AS replies_waiting, cr.claim_id IS NOT NULL AS reviewed, count(*) OVER ()::int AS total
     ${QUEUE}
     ORDER BY coalesce(c.featured, false) DESC, coalesce(c.headline_weight, 0) DESC, w.n DESC, s.id, c.position
     LIMIT $2 OFFSET $3`,
    [subjectId ?? null, pageSize, (page - 1) * pageSize],
  );
  const total = rows[0]?.total ?? (page > 1 ? (await db.query<{ n: number }>(`SELECT count(*)::int AS n ${QUEUE}`, [subjectId ?? null])).rows[0]!.n : 0);
  const versions = rows.length
    ? (await db.query<ClaimVersion & { report_id: string; claim_id: string; data: Record<string, unknown> }>(
        `SELECT report_id, claim_id, data, ${VERSION_COLUMNS.join(', ')} FROM claims WHERE (report_id, claim_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
        [rows.map((r) => r.report_id), rows.map((r) => r.claim_id)],
      )).rows
    : [];
  const byKey = new Map(versions.map((v) => [`${v.report_id}\u0000${v.claim_id}`, v]));
  const claims = await withResponses(db, await withReviews(db, rows.map((r) => byKey.get(`${r.report_id}\u0000${r.claim_id}`)!)));
  return {
    items: rows.map((r, i) => ({
      subject_id: r.subject_id, subject_name: r.subject_name, report_id: r.report_id, featured: r.featured, weight: r.weight,
      required: mustBeReviewed({ featured: r.featured, weight: r.weight }), replies_waiting: r.replies_waiting,
      waiting_for: [...(r.reviewed ? [] : (['review'] as const)), ...(r.replies_waiting > 0 ? (['replies'] as const) : [])],
      claim: claims[i]!,
    })),
    weight_threshold: REVIEW_WEIGHT_POINTS,
    paging: pagingOf(page, pageSize, total),
  };
}
