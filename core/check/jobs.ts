import type { PoolClient, Queryable } from '../db/pool.ts';
import { newJobId } from '../reports/ids.ts';
import { finishJob, type FINAL_STATUSES, type JobRow } from '../reports/jobs.ts';
import type { CheckResult } from '../schemas/resources.ts';
import type { CheckJobRequest } from './request.ts';

/**
 * Check jobs in the jobs table (kind `check`). Unlike a report job, a check
 * job is never shared: each request is its own job, polled only by the key
 * that asked. Its request (the submitted text) is held until the job ends,
 * and every way a check job ends goes through `endCheckJob`, which deletes it.
 */

export async function openCheckJob(tx: PoolClient, o: { keyId: number; request: CheckJobRequest }): Promise<JobRow> {
  const { rows } = await tx.query<JobRow>(
    `INSERT INTO jobs (id, kind, key_id, callers, request) VALUES ($1, 'check', $2, ARRAY[$2::bigint], $3)
     RETURNING id, kind, status, key_id, callers, subject_id, request, reason, report_id, results, attempts, created_at, started_at, finished_at`,
    [newJobId(), o.keyId, JSON.stringify(o.request)],
  );
  return rows[0]!;
}

/** Ends a check job and deletes its submitted text in the same statement; false when it had already ended. */
export function endCheckJob(
  db: Queryable,
  id: string,
  end: { status: (typeof FINAL_STATUSES)[number]; reason?: string | null; results?: CheckResult[] | null },
): Promise<boolean> {
  return finishJob(db, id, { status: end.status, reason: end.reason ?? null, results: end.results ?? null, clearRequest: true });
}
