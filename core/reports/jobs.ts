import type { PoolClient, Queryable } from '../db/pool.ts';
import type { Topic } from '../method/outcomes.ts';
import type { JobProgress } from '../schemas/resources.ts';
import { newJobId } from './ids.ts';

/**
 * The jobs table: what a poll of `/v1/reports/<job_id>` answers. Final
 * statuses are `complete`, `insufficient`, `refused` and `failed`; a final
 * status other than `complete` carries a reason. Status only moves forward:
 * queued → running → final (running → queued again only between retries).
 */

export const FINAL_STATUSES = ['complete', 'insufficient', 'refused', 'failed'] as const;
export type JobStatus = 'queued' | 'running' | (typeof FINAL_STATUSES)[number];

export type JobRow = {
  id: string;
  kind: 'report' | 'check';
  status: JobStatus;
  key_id: number | null;
  callers: number[];
  subject_id: string | null;
  /** Report jobs: the topic of the report it makes, or null for the whole record. */
  topic: string | null;
  request: Record<string, unknown>;
  reason: string | null;
  report_id: string | null;
  results: unknown[] | null;
  attempts: number;
  /** Report jobs while running: the stage and counts so far (null before the first stage, between attempts, once ended). */
  progress: JobProgress | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
};

const COLUMNS = 'id, kind, status, key_id, callers, subject_id, topic, request, reason, report_id, results, attempts, progress, created_at, started_at, finished_at';

export async function getJob(db: Queryable, id: string): Promise<JobRow | null> {
  const { rows } = await db.query<JobRow>(`SELECT ${COLUMNS} FROM jobs WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

/**
 * A new report job for the subject in one scope (its whole record, topic
 * null, or one topic), or the one already open (queued or running) for the
 * same subject and scope: callers asking at once share it. A request for a
 * topic never joins a job for the whole record or another topic, nor the
 * other way round, since that job makes another report. Depth is not part of
 * the match. `created` says which; only a created job counts against a quota
 * and is sent to the queue.
 */
export async function openReportJob(
  tx: PoolClient,
  o: { keyId: number | null; subjectId: string; topic: Topic | null; request: Record<string, unknown> },
): Promise<{ job: JobRow; created: boolean }> {
  // Insert, or join the open job. The job that blocked the insert may end
  // before we join it; then there is room to insert again.
  for (let attempt = 0; attempt < 3; attempt++) {
    const inserted = await tx.query<JobRow>(
      `INSERT INTO jobs (id, kind, key_id, callers, subject_id, topic, request)
       VALUES ($1, 'report', $2, CASE WHEN $2::bigint IS NULL THEN '{}'::bigint[] ELSE ARRAY[$2::bigint] END, $3, $4, $5)
       ON CONFLICT (subject_id, (coalesce(topic, ''))) WHERE kind = 'report' AND status IN ('queued', 'running') DO NOTHING
       RETURNING ${COLUMNS}`,
      // The worker reads the topic from the request: it is the one the job was matched on.
      [newJobId(), o.keyId, o.subjectId, o.topic, JSON.stringify({ ...o.request, topic: o.topic })],
    );
    if (inserted.rows[0]) return { job: inserted.rows[0], created: true };
    // Join the open job: the caller may poll it from now on.
    const open = await tx.query<JobRow>(
      `UPDATE jobs SET callers = CASE WHEN $2::bigint IS NULL OR $2::bigint = ANY(callers) THEN callers ELSE callers || $2::bigint END
        WHERE kind = 'report' AND subject_id = $1 AND coalesce(topic, '') = coalesce($3::text, '') AND status IN ('queued', 'running')
        RETURNING ${COLUMNS}`,
      [o.subjectId, o.keyId, o.topic],
    );
    if (open.rows[0]) return { job: open.rows[0], created: false };
  }
  throw new Error('could not open or join a report job');
}

/**
 * A report job for a name no knowledge source holds (core/reports/new-subject.ts):
 * it has no subject until its first stage identifies the name. Callers
 * asking for the same name (compared as `nameKey`), kind and topic while it
 * is open share it (migration 016), as openReportJob shares a known subject's.
 */
export async function openNewSubjectJob(
  tx: PoolClient,
  o: { keyId: number | null; topic: Topic | null; request: Record<string, unknown> & { name_key: string; kind: string | null } },
): Promise<{ job: JobRow; created: boolean }> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const inserted = await tx.query<JobRow>(
      `INSERT INTO jobs (id, kind, key_id, callers, subject_id, topic, request)
       VALUES ($1, 'report', $2, CASE WHEN $2::bigint IS NULL THEN '{}'::bigint[] ELSE ARRAY[$2::bigint] END, NULL, $3, $4)
       ON CONFLICT ((request->>'name_key'), (coalesce(request->>'kind', '')), (coalesce(topic, '')))
         WHERE kind = 'report' AND subject_id IS NULL AND status IN ('queued', 'running') DO NOTHING
       RETURNING ${COLUMNS}`,
      [newJobId(), o.keyId, o.topic, JSON.stringify({ ...o.request, topic: o.topic })],
    );
    if (inserted.rows[0]) return { job: inserted.rows[0], created: true };
    const open = await tx.query<JobRow>(
      `UPDATE jobs SET callers = CASE WHEN $2::bigint IS NULL OR $2::bigint = ANY(callers) THEN callers ELSE callers || $2::bigint END
        WHERE kind = 'report' AND subject_id IS NULL AND request->>'name_key' = $1 AND coalesce(request->>'kind', '') = coalesce($3::text, '')
          AND coalesce(topic, '') = coalesce($4::text, '') AND status IN ('queued', 'running')
        RETURNING ${COLUMNS}`,
      [o.request.name_key, o.keyId, o.request.kind, o.topic],
    );
    if (open.rows[0]) return { job: open.rows[0], created: false };
  }
  throw new Error('could not open or join a report job for a new subject');
}

/**
 * Gives a new-subject job the subject its identification found, in the
 * transaction that stored the subject, so that a caller who finds the subject
 * by name from then on joins this job (jobs_one_open_report). False when
 * another job for the subject and topic is already open (the subject was
 * stored or asked for by id meanwhile): this job then researches it without
 * the link, and its callers still get their answer from it.
 */
export async function assignSubject(tx: PoolClient, jobId: string, subjectId: string): Promise<boolean> {
  await tx.query('SAVEPOINT assign_subject');
  try {
    const { rowCount } = await tx.query(`UPDATE jobs SET subject_id = $2 WHERE id = $1 AND subject_id IS NULL`, [jobId, subjectId]);
    await tx.query('RELEASE SAVEPOINT assign_subject');
    return (rowCount ?? 0) > 0;
  } catch (err) {
    if ((err as { code?: string }).code !== '23505') throw err;
    await tx.query('ROLLBACK TO SAVEPOINT assign_subject');
    return false;
  }
}

/** Marks a job running for one more attempt; false when it has already ended (a duplicate delivery). */
export async function startAttempt(db: Queryable, id: string): Promise<JobRow | null> {
  const { rows } = await db.query<JobRow>(
    // A new attempt starts its research over: the last attempt's progress no longer says where it is.
    `UPDATE jobs SET status = 'running', attempts = attempts + 1, started_at = coalesce(started_at, now()), progress = NULL
      WHERE id = $1 AND status IN ('queued', 'running') RETURNING ${COLUMNS}`,
    [id],
  );
  return rows[0] ?? null;
}

/** Between retries: back to queued. */
export async function requeue(db: Queryable, id: string): Promise<void> {
  await db.query(`UPDATE jobs SET status = 'queued', progress = NULL WHERE id = $1 AND status = 'running'`, [id]);
}

export async function finishJob(
  db: Queryable,
  id: string,
  end: { status: (typeof FINAL_STATUSES)[number]; reason?: string | null; reportId?: string | null; results?: unknown[] | null; clearRequest?: boolean },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE jobs SET status = $2, reason = $3, report_id = $4, results = $5, finished_at = now(), progress = NULL,
            request = CASE WHEN $6 THEN '{}'::jsonb ELSE request END
      WHERE id = $1 AND status IN ('queued', 'running')`,
    [id, end.status, end.status === 'complete' ? null : (end.reason ?? 'no reason recorded'), end.reportId ?? null, end.results ? JSON.stringify(end.results) : null, end.clearRequest ?? false],
  );
  return (rowCount ?? 0) > 0;
}

/**
 * Records where a running job is. Only a running job takes it, so a write
 * that lands after the job ended (or was requeued) changes nothing.
 */
export async function recordProgress(db: Queryable, id: string, progress: JobProgress): Promise<void> {
  await db.query(`UPDATE jobs SET progress = $2 WHERE id = $1 AND status = 'running'`, [id, JSON.stringify(progress)]);
}
