import { LimitError, UnavailableError, secondsUntilUtcMidnight } from '../errors.ts';
import type { Queryable } from '../db/pool.ts';
import { spentToday } from './spend.ts';

/**
 * The gate every new report or check job passes: the day's spending ceiling
 * (503) and the caller's daily job quota (429). Stored reports never pass
 * through it, so they are served whatever the quota says.
 *
 * `admitJob` takes one unit of quota atomically: run it in the same
 * transaction that stores the job, so that a job that is not stored gives its
 * unit back. `checkJobAdmission` only looks, for callers that have not decided
 * yet whether they will start a job.
 */

export type AdmissionLimits = { dailyJobLimit: number; dailySpendLimitUsd: number };

async function assertSpendRoom(db: Queryable, limits: AdmissionLimits): Promise<void> {
  const spent = await spentToday(db);
  if (spent >= limits.dailySpendLimitUsd) {
    throw new UnavailableError(
      'spend-limit',
      `The service has reached today's spending ceiling (${limits.dailySpendLimitUsd} USD); new jobs resume after 00:00 UTC. Stored reports are still served.`,
      secondsUntilUtcMidnight(),
    );
  }
}

function quotaError(limit: number): LimitError {
  return new LimitError(
    'job-limit',
    `This key has started its ${limit} report and check jobs for today; new jobs are accepted again after 00:00 UTC. Stored reports are still served.`,
    secondsUntilUtcMidnight(),
  );
}

export async function jobsStartedToday(db: Queryable, keyId: number): Promise<number> {
  const { rows } = await db.query<{ jobs: number }>(
    `SELECT jobs FROM job_quota WHERE key_id = $1 AND day = (now() AT TIME ZONE 'utc')::date`,
    [keyId],
  );
  return rows[0]?.jobs ?? 0;
}

export async function checkJobAdmission(db: Queryable, keyId: number, limits: AdmissionLimits): Promise<void> {
  await assertSpendRoom(db, limits);
  if ((await jobsStartedToday(db, keyId)) >= limits.dailyJobLimit) throw quotaError(limits.dailyJobLimit);
}

/** Takes one unit of today's quota; throws when none is left. Returns the count used so far. */
export async function admitJob(db: Queryable, keyId: number, limits: AdmissionLimits): Promise<number> {
  await assertSpendRoom(db, limits);
  // One statement, so concurrent callers cannot both take the last unit: the
  // conflict branch only increments while under the limit, else returns no row.
  const { rows } = await db.query<{ jobs: number }>(
    `INSERT INTO job_quota AS q (key_id, day, jobs) VALUES ($1, (now() AT TIME ZONE 'utc')::date, 1)
     ON CONFLICT (key_id, day) DO UPDATE SET jobs = q.jobs + 1 WHERE q.jobs < $2
     RETURNING jobs`,
    [keyId, limits.dailyJobLimit],
  );
  if (rows.length === 0) throw quotaError(limits.dailyJobLimit);
  return rows[0]!.jobs;
}
