import type { Pool } from '../db/pool.ts';
import { withTransaction } from '../db/pool.ts';
import { admitJob, type AdmissionLimits } from '../limits/job-admission.ts';
import type { Enqueue } from '../reports/service.ts';
import type { CheckRequest } from '../schemas/requests.ts';
import { openCheckJob } from './jobs.ts';
import { checkJobRequest } from './request.ts';

/**
 * POST /v1/check: every request starts a job of its own (202), counted
 * against the key's daily jobs (429) and the spending ceiling (503). The
 * quota unit, the job row and its queue entry are taken in one transaction:
 * all three or none. pg-boss carries only `{job_id}`; the submitted text lives
 * in jobs.request alone, and is deleted there when the job ends.
 */

export type CheckDeps = { pool: Pool; enqueue: Enqueue; limits: AdmissionLimits };

export async function requestCheck(deps: CheckDeps, keyId: number, body: CheckRequest, now = new Date()) {
  const request = checkJobRequest(body, now);
  const job = await withTransaction(deps.pool, async (tx) => {
    await admitJob(tx, keyId, deps.limits);
    const row = await openCheckJob(tx, { keyId, request });
    await deps.enqueue('check', { job_id: row.id }, tx);
    return row;
  });
  return { job_id: job.id, status: 'queued' as const, poll: `/v1/reports/${job.id}` };
}
