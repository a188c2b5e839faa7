import type { PgBoss, JobWithMetadata } from 'pg-boss';
import type { JudgedClaim } from '../core/research/claims.ts';
import type { FoundClaim } from '../core/schemas/resources.ts';
import { z } from 'zod';
import type { Providers } from '../core/providers/types.ts';
import type { Pool } from '../core/db/pool.ts';
import { finishJob, getJob, requeue, startAttempt } from '../core/reports/jobs.ts';
import { progressWriter } from '../core/reports/progress.ts';
import { NewSubjectRequestSchema, placeNewSubject } from '../core/reports/new-subject.ts';
import { localProviders } from '../core/providers/local/corpus.ts';
import { QUEUES } from './queues.ts';
import { requestSiteBuild } from './site-build.ts';

/**
 * The report queue's worker: researches the subject, stores the report, and
 * ends the job `complete`, `insufficient` or `refused`. A job for a new name
 * (no subject yet) identifies it first; a name that cannot be placed ends it
 * `insufficient`. Running a job twice
 * leaves the same state as once: an ended job is not run again. An error is
 * retried by pg-boss; the last failure ends the job `failed`. A job whose
 * worker died on every attempt arrives in the dead letter queue and is ended
 * `failed` there.
 */

export const ReportJobPayload = z.object({ job_id: z.string().startsWith('job_') });

/** A judged claim as an insufficient job shows it: no id (it is not stored) and the machine's label. */
export function foundClaim(c: JudgedClaim): FoundClaim {
  const { claim_id: _id, ...rest } = c;
  return { ...rest, review_status: 'machine-generated, unreviewed' };
}

type Log = { info: (o: object, m: string) => void; warn: (o: object, m: string) => void };

export async function runReportJob(pool: Pool, jobId: string, attempt: { retryCount: number; retryLimit: number }, log?: Log, providers?: Providers): Promise<void> {
  const job = await startAttempt(pool, jobId);
  if (!job) return; // already ended, or unknown: nothing to do
  const request = job.request as { depth?: 'quick' | 'standard'; topic?: string | null; consent_ref?: string | null };
  // The poll shows where the research is while it runs (written beside it, never holding it up).
  const progress = progressWriter(pool, jobId, (err) => log?.warn({ job: jobId, error: err.message }, 'report job progress not recorded'));
  try {
    let subjectId = job.subject_id;
    if (!subjectId) {
      // A name the service had never seen: identified first (core/reports/new-subject.ts).
      progress.update({ stage: 'identify', documents: 0, claims_found: 0, claims_judged: 0 });
      const placed = await placeNewSubject(pool, jobId, NewSubjectRequestSchema.parse(job.request), providers ?? localProviders(pool));
      if (!placed.placed) {
        await progress.flush();
        await finishJob(pool, jobId, { status: 'insufficient', reason: placed.reason });
        log?.info({ job: jobId, status: 'insufficient' }, 'report job ended: the name was not identified');
        return;
      }
      subjectId = placed.subjectId;
    }
    // Loaded on the first job, not at start: the pipeline brings the language models with it.
    const { makeReport } = await import('./research.ts');
    const r = await makeReport(pool, subjectId, { depth: request.depth ?? 'quick', topic: request.topic ?? null, consentRef: request.consent_ref ?? null, jobId, onProgress: progress.update, ...(providers ? { providers } : {}) });
    await progress.flush();
    if (r.status === 'complete') await finishJob(pool, jobId, { status: 'complete', reportId: r.reportId });
    // An insufficient job keeps what it found, so the reader sees the claims and why they are not enough.
    else await finishJob(pool, jobId, { status: r.status, reason: r.reason, ...(r.status === 'insufficient' ? { results: r.claims.map(foundClaim) } : {}) });
    log?.info({ job: jobId, status: r.status }, 'report job ended');
  } catch (err) {
    await progress.flush();
    const last = attempt.retryCount >= attempt.retryLimit;
    log?.warn({ job: jobId, attempt: attempt.retryCount + 1, last, error: (err as Error).message }, 'report job attempt failed');
    if (last) {
      await finishJob(pool, jobId, { status: 'failed', reason: `The research failed on every attempt (${attempt.retryCount + 1}); the last error was: ${(err as Error).message.slice(0, 200)}` });
      return;
    }
    await requeue(pool, jobId);
    throw err;
  }
}

export async function startReportWorkers(boss: PgBoss, pool: Pool, log?: Log, providers?: Providers): Promise<void> {
  await boss.work(QUEUES.report, { includeMetadata: true, batchSize: 1, localConcurrency: 2 }, async (jobs: JobWithMetadata<unknown>[]) => {
    for (const j of jobs) {
      const { job_id } = ReportJobPayload.parse(j.data);
      await runReportJob(pool, job_id, { retryCount: j.retryCount, retryLimit: j.retryLimit }, log, providers);
      // A stored report goes on the public site (coalesced; a no-op when the job stored none).
      await requestSiteBuild(boss, { reason: `report job ${job_id}` });
    }
  });
  await boss.work(QUEUES.reportDead, { batchSize: 1 }, async (jobs) => {
    for (const j of jobs) {
      const { job_id } = ReportJobPayload.parse(j.data);
      const job = await getJob(pool, job_id);
      if (job && (job.status === 'queued' || job.status === 'running')) {
        await finishJob(pool, job_id, { status: 'failed', reason: `The worker stopped during every attempt (${job.attempts}) before the research could finish.` });
        log?.warn({ job: job_id }, 'report job dead-lettered');
      }
    }
  });
}
