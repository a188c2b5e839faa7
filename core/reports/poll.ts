import type { Queryable } from '../db/pool.ts';
import { NotFoundError } from '../errors.ts';
import { getJob } from './jobs.ts';
import { reportById } from './repository.ts';
import type { StoredReports } from './stored.ts';

/**
 * GET /v1/reports/{id}: a job id answers the job (its status, and once
 * complete its report); a report id answers the stored report envelope.
 * While a report job runs, `progress` says its stage and counts so far.
 * A job is visible only to the keys that asked for it: to anyone else it does
 * not exist (404), so job ids leak nothing across keys.
 */
export async function poll(db: Queryable, id: string, keyId: number, reports: StoredReports) {
  if (id.startsWith('job_')) {
    const job = await getJob(db, id);
    if (!job || !job.callers.includes(keyId)) throw new NotFoundError(`No job ${id} for this key.`);
    const report = job.report_id ? await reportById(db, job.report_id) : null;
    return {
      job_id: job.id,
      kind: job.kind,
      status: job.status,
      poll: `/v1/reports/${job.id}`,
      created_at: job.created_at.toISOString(),
      started_at: job.started_at?.toISOString() ?? null,
      finished_at: job.finished_at?.toISOString() ?? null,
      reason: job.reason,
      report_id: job.report_id,
      report: report?.report ?? null,
      results: job.kind === 'check' && job.status === 'complete' ? job.results : null,
      // An insufficient report job shows the claims it found and judged (none stored, no score).
      ...(job.kind === 'report' && job.status === 'insufficient' && job.results ? { claims: job.results } : {}),
      // Only a running job says where it is: a queued or ended one has no stage.
      ...(job.status === 'running' && job.progress ? { progress: job.progress } : {}),
    };
  }
  if (id.startsWith('rep_')) {
    const stored = await reports.byId(id);
    if (stored) return stored.json;
  }
  throw new NotFoundError(`No job or report ${id}. Job ids start with job_, report ids with rep_.`);
}
