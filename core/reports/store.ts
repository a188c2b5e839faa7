import type { Pool } from '../db/pool.ts';
import { withTransaction } from '../db/pool.ts';
import { REVIEW_LABEL } from '../method/outcomes.ts';
import { REVIEW_CLAIM_LOCK } from '../reviews/claims.ts';
import { declareLapses } from '../reviews/lapses.ts';
import { refreshReviewCounts, weighClaims } from '../reviews/reports.ts';
import type { StoredScoringFields } from '../reviews/weights.ts';
import { unsignedSummary } from '../schemas/review-state.ts';
import { normaliseTopic } from '../schemas/topic.ts';
import { newReportId } from './ids.ts';

/** A claim as stored: the spec's Claim object without `responses` and `review_status`, which are joined when served. */
export type StoredClaim = {
  claim_id: string;
  claim_type: string;
  topic: string;
  outcome: string;
  said_on: string | null;
  [field: string]: unknown;
};

export type NewReport = {
  subjectId: string;
  methodVersion: string;
  depth: 'quick' | 'standard';
  /**
   * The topic asked for. Stored as the method's topic it names, or null (the
   * whole record) when it names none: the score stage reads it the same way
   * (topicFilter), so a report is stored under the scope it scored.
   */
  topic: string | null;
  report: Record<string, unknown>;
  claims: StoredClaim[];
  jobId?: string | null;
  stats?: Record<string, unknown>;
};

/**
 * Stores a finished report and its claims in one transaction; returns the
 * report id. Editorial review (core/reviews/) is kept up with in the same
 * transaction: each claim's weight in the report is written beside it, the
 * report starts unreviewed with the count of its claims whose very version a
 * person has reviewed already (a review survives a remade report while the
 * claim is unchanged), and each claim whose reviewed version this report
 * changes gets a `review_lapsed` entry in the record. The claims' review
 * locks are held meanwhile, so a review racing the new report is counted in it.
 */
export async function storeReport(pool: Pool, r: NewReport): Promise<{ reportId: string; generatedAt: string; report: Record<string, unknown> }> {
  const reportId = newReportId();
  const topic = normaliseTopic(r.topic);
  const featured = ((r.report.featured_claims as { claim_id: string }[] | undefined) ?? []).map((f) => f.claim_id);
  const weighed = weighClaims(r.claims as unknown as StoredScoringFields[], featured, topic);
  const report = { ...r.report, review_status: REVIEW_LABEL, review: unsignedSummary(r.claims.length, 0) };
  return withTransaction(pool, async (tx) => {
    if (r.claims.length > 0) {
      // In one order (the ids sorted), so two reports stored at once never deadlock on their shared claims.
      await tx.query(
        'SELECT pg_advisory_xact_lock($1, hashtext(id)) FROM (SELECT DISTINCT id FROM unnest($2::text[]) AS u(id) ORDER BY id) ids',
        [REVIEW_CLAIM_LOCK, r.claims.map((c) => c.claim_id)],
      );
    }
    const { rows } = await tx.query<{ generated_at: Date }>(
      `INSERT INTO reports (id, subject_id, method_version, depth, topic, report, job_id, stats)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING generated_at`,
      [reportId, r.subjectId, r.methodVersion, r.depth, topic, JSON.stringify(report), r.jobId ?? null, JSON.stringify(r.stats ?? {})],
    );
    if (r.claims.length > 0) {
      await tx.query(
        `INSERT INTO claims (report_id, claim_id, position, subject_id, claim_type, topic, outcome, said_on, data, featured, headline_weight)
         SELECT $1, c.claim_id, c.position, $2, c.claim_type, c.topic, c.outcome, c.said_on, c.data, c.featured, c.headline_weight
           FROM jsonb_to_recordset($3::jsonb) AS c(claim_id text, position int, claim_type text, topic text, outcome text, said_on date, data jsonb, featured boolean, headline_weight double precision)`,
        [reportId, r.subjectId, JSON.stringify(r.claims.map((c, position) => ({
          ...c, position, data: c, featured: weighed.get(c.claim_id)?.featured ?? false, headline_weight: weighed.get(c.claim_id)?.weight ?? 0,
        })))],
      );
      await refreshReviewCounts(tx, [reportId]);
      await declareLapses(tx, reportId, r.subjectId);
    }
    // The report as stored and served: with its review summary, its count of carried-over reviews included.
    const stored = (await tx.query<{ report: Record<string, unknown> }>('SELECT report FROM reports WHERE id = $1', [reportId])).rows[0]!.report;
    return { reportId, generatedAt: rows[0]!.generated_at.toISOString(), report: stored };
  });
}
