import type { Pool, PoolClient } from '../db/pool.ts';
import { withTransaction } from '../db/pool.ts';
import { ConflictError, NotFoundError } from '../errors.ts';
import { admitJob, type AdmissionLimits } from '../limits/job-admission.ts';
import { spentToday } from '../limits/spend.ts';
import type { KnowledgeProvider, KnownSubject } from '../providers/types.ts';
import type { Topic } from '../method/outcomes.ts';
import type { ReportRequest } from '../schemas/requests.ts';
import { normaliseTopic } from '../schemas/topic.ts';
import { openNewSubjectJob, openReportJob, type JobRow } from './jobs.ts';
import { findSubjects, newSubjectRequest } from './new-subject.ts';
import { isStale } from './read.ts';
import type { RawJson } from '../json.ts';
import type { StoredReports } from './stored.ts';

/**
 * POST /v1/reports, the state table of SPEC.md:
 * - a stored report under 90 days old, refresh false → 200 with it at once;
 * - no stored report, or refresh true → a report job (202), counted against
 *   the key's daily jobs (429) and the spending ceiling (503);
 * - a stored report 90 days old or more → 200 with `stale: true`, and one
 *   refresh job runs (started by the service: it counts against no key);
 * - a name that matches several subjects → 409 with the candidates;
 * - a name no knowledge source holds → with a model configured, a report job
 *   (202) that first identifies the name and stores it as a subject
 *   (core/reports/new-subject.ts); without one, 404 saying how to add it.
 * Each request is for one scope: the subject's whole record (no topic) or one
 * of the method's topics (the schema has refused any other topic with 422).
 * Every step above is taken within that scope: a plain request is answered
 * with the latest whole-record report, a topic request with the latest report
 * on that topic, never one for the other (core/reports/repository.ts).
 * Callers asking for the same subject and scope at once share one job (jobs
 * table, one open report job per subject and topic).
 */

/** Sends a job to the queue inside the caller's transaction, so a job row never exists without its queue entry. */
export type Enqueue = (queue: 'report' | 'check', payload: { job_id: string }, tx: PoolClient) => Promise<void>;

export type ReportDeps = {
  pool: Pool; knowledge: KnowledgeProvider; enqueue: Enqueue; limits: AdmissionLimits; reports: StoredReports;
  /** A model is configured: a name no knowledge source holds becomes a job that identifies it, instead of a 404. */
  identifies?: boolean;
};

export function candidateOf(s: KnownSubject) {
  return { subject_id: s.subject_id, name: s.name, kind: s.kind, description: s.description };
}

/**
 * The one subject a request names, or a 404 / 409 that says what to send
 * instead. With `identifies` (a model is configured), a name no knowledge
 * source holds gives null: a job will identify it (core/reports/new-subject.ts).
 */
export async function subjectOfRequest(
  knowledge: KnowledgeProvider,
  body: Pick<ReportRequest, 'subject_id' | 'name' | 'kind' | 'urls' | 'handles'>,
  opts: { identifies?: boolean } = {},
): Promise<KnownSubject | null> {
  if (body.subject_id) {
    const s = await knowledge.byId(body.subject_id);
    if (!s) throw new NotFoundError(`No subject ${body.subject_id}. Find subjects with POST /v1/subjects/resolve.`);
    return s;
  }
  const name = body.name?.trim() ?? '';
  const found = await findSubjects(knowledge, body);
  if (found.length === 0) {
    if (name && opts.identifies) return null;
    throw new NotFoundError(
      name
        ? `No subject named "${name}" is known to the service, and no model is configured to identify a new name. Add the subject in a source pack (docs/source-packs.md; npm run ingest -- pack.jsonl), or configure a model (MODEL_PROVIDER, MODEL_NAME, MODEL_API_KEY; README, "Research the open web") and ask again. POST /v1/subjects/resolve lists the subjects the service knows.`
        : `No subject with those urls or handles is known to the service. Send the subject's name too: with a model configured, a new name is identified and researched; offline, add the subject in a source pack (docs/source-packs.md).`,
    );
  }
  if (found.length > 1) {
    throw new ConflictError(`"${name}" matches ${found.length} subjects; resend with the subject_id of the one you mean.`, { candidates: found.map(candidateOf) });
  }
  return found[0]!;
}

export type ReportAnswer =
  | { status: 200; body: RawJson }
  | { status: 202; body: { job_id: string; status: 'queued' | 'running'; poll: string } };

function jobRequest(body: ReportRequest, topic: Topic | null) {
  return { depth: body.depth, topic, consent_ref: body.consent_ref ?? null };
}

async function startJob(deps: ReportDeps, tx: PoolClient, keyId: number | null, subjectId: string, topic: Topic | null, request: Record<string, unknown>) {
  const { job, created } = await openReportJob(tx, { keyId, subjectId, topic, request });
  if (created) {
    if (keyId !== null) await admitJob(tx, keyId, deps.limits);
    await deps.enqueue('report', { job_id: job.id }, tx);
  }
  return job;
}

export async function requestReport(deps: ReportDeps, keyId: number, body: ReportRequest, now = new Date()): Promise<ReportAnswer> {
  const subject = await subjectOfRequest(deps.knowledge, body, { identifies: deps.identifies ?? false });
  const topic = normaliseTopic(body.topic);
  if (!subject) {
    // A new name: nothing is stored for it yet; the job identifies it first, and counts like any report job.
    const job = await withTransaction(deps.pool, async (tx) => {
      const { job, created } = await openNewSubjectJob(tx, { keyId, topic, request: { ...jobRequest(body, topic), ...newSubjectRequest(body) } });
      if (created) {
        await admitJob(tx, keyId, deps.limits);
        await deps.enqueue('report', { job_id: job.id }, tx);
      }
      return job;
    });
    return accepted(job);
  }
  const stored = body.refresh ? null : await deps.reports.latestFor(subject.subject_id, topic, now);
  if (stored) {
    if (isStale(stored.generatedAt, now)) await refreshInBackground(deps, subject.subject_id, topic, body);
    return { status: 200, body: stored.json };
  }
  return accepted(await withTransaction(deps.pool, (tx) => startJob(deps, tx, keyId, subject.subject_id, topic, jobRequest(body, topic))));
}

function accepted(job: JobRow): ReportAnswer {
  return { status: 202, body: { job_id: job.id, status: job.status === 'running' ? 'running' : 'queued', poll: `/v1/reports/${job.id}` } };
}

/**
 * A report job the service starts itself (no key, no quota): the first start
 * researches every sample subject so that a newcomer finds finished reports.
 * Returns the job id, or null when one was already open.
 */
export async function startServiceReportJob(deps: Pick<ReportDeps, 'pool' | 'enqueue'> & { limits: AdmissionLimits }, subjectId: string): Promise<string | null> {
  return withTransaction(deps.pool, async (tx) => {
    const { job, created } = await openReportJob(tx, { keyId: null, subjectId, topic: null, request: { depth: 'quick', topic: null, consent_ref: null } });
    if (!created) return null;
    await deps.enqueue('report', { job_id: job.id }, tx);
    return job.id;
  });
}

/**
 * One refresh job for a stale report, however many callers ask. It is the
 * service's own job: no key's quota is charged; past the spending ceiling it
 * is not started (the stale report is still served).
 */
async function refreshInBackground(deps: ReportDeps, subjectId: string, topic: Topic | null, body: ReportRequest): Promise<void> {
  if ((await spentToday(deps.pool)) >= deps.limits.dailySpendLimitUsd) return;
  await withTransaction(deps.pool, (tx) => startJob(deps, tx, null, subjectId, topic, jobRequest(body, topic)));
}
