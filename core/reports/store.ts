import type { Pool } from '../db/pool.ts';
import { withTransaction } from '../db/pool.ts';
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

/** Stores a finished report and its claims in one transaction; returns the report id. */
export async function storeReport(pool: Pool, r: NewReport): Promise<{ reportId: string; generatedAt: string }> {
  const reportId = newReportId();
  return withTransaction(pool, async (tx) => {
    const { rows } = await tx.query<{ generated_at: Date }>(
      `INSERT INTO reports (id, subject_id, method_version, depth, topic, report, job_id, stats)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING generated_at`,
      [reportId, r.subjectId, r.methodVersion, r.depth, normaliseTopic(r.topic), JSON.stringify(r.report), r.jobId ?? null, JSON.stringify(r.stats ?? {})],
    );
    if (r.claims.length > 0) {
      await tx.query(
        `INSERT INTO claims (report_id, claim_id, position, subject_id, claim_type, topic, outcome, said_on, data)
         SELECT $1, c.claim_id, c.position, $2, c.claim_type, c.topic, c.outcome, c.said_on, c.data
           FROM jsonb_to_recordset($3::jsonb) AS c(claim_id text, position int, claim_type text, topic text, outcome text, said_on date, data jsonb)`,
        [reportId, r.subjectId, JSON.stringify(r.claims.map((c, position) => ({ ...c, position, data: c })))],
      );
    }
    return { reportId, generatedAt: rows[0]!.generated_at.toISOString() };
  });
}
