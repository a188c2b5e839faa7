import type { PgBoss } from 'pg-boss';
import { z } from 'zod';
import type { Pool } from '../core/db/pool.ts';
import { storeMeasurement } from '../core/demo/measure.ts';
import { countStaleStatements, staleStatements, storeRejudged } from '../core/demo/store.ts';
import { methodVersion } from '../core/method/version.ts';

/**
 * The measurement queue: recomputes the published measurement (agreement of
 * machine verdicts with reviewers' labels and with each demo set) and stores
 * it; GET /v1/methodology shows the latest. Nightly at 03:30 UTC (a night
 * missed while no worker ran is made up once, not once per night), and at any
 * time with `npm run --silent measure`.
 *
 * Before measuring, demo claims judged by another method version are judged
 * again from their stored statements (quote, speaker, date: never the
 * published outcome), so that the figures published under a method version
 * are that version's. Running it twice leaves one more measurement row and
 * the same verdicts.
 */

export const MEASUREMENT_QUEUE = 'measurement';
export const MEASUREMENT_CRON = '30 3 * * *';

export const MeasurementPayload = z.object({
  rejudge: z.boolean().default(true).describe('Judge again the demo claims a different method version judged.'),
  today: z.iso.date().optional().describe('The day verdicts are given on; today by default.'),
});
export type MeasurementPayload = z.input<typeof MeasurementPayload>;

type Log = { info: (o: object, m: string) => void; warn: (o: object, m: string) => void };

const REJUDGE_BATCH = 200;

/** What a caller may watch while a measurement runs (`npm run measure` shows it on a terminal). */
export type MeasurementHooks = {
  /** Demo claims judged again so far, of those there were to judge when it began. */
  onRejudged?: (done: number, total: number) => void;
};

/** Judges again, from their statements, the demo claims a different method version judged. */
export async function rejudgeStale(pool: Pool, opts: { today?: string | undefined } & MeasurementHooks = {}): Promise<number> {
  const current = methodVersion();
  let done = 0;
  let batch = await staleStatements(pool, current, REJUDGE_BATCH);
  if (batch.length === 0) return 0;
  // Counted once: a claim judged meanwhile by another process only makes the work end early.
  const total = opts.onRejudged ? await countStaleStatements(pool, current) : 0;
  // Loaded only when there is work: the pipeline brings the language models with it.
  const { demoJudge } = await import('./demo-judge.ts');
  const judge = demoJudge(pool, opts.today ? { today: opts.today } : {});
  while (batch.length > 0) {
    for (let i = 0; i < batch.length; i += 8) {
      const group = batch.slice(i, i + 8);
      await Promise.all(group.map(async ({ claim_id, statement }) => storeRejudged(pool, claim_id, await judge(statement), current)));
      opts.onRejudged?.(done + i + group.length, Math.max(total, done + i + group.length));
    }
    done += batch.length;
    batch = await staleStatements(pool, current, REJUDGE_BATCH);
  }
  return done;
}

export async function runMeasurement(pool: Pool, payload: MeasurementPayload = {}, log?: Log, hooks: MeasurementHooks = {}) {
  const p = MeasurementPayload.parse(payload);
  const rejudged = p.rejudge ? await rejudgeStale(pool, { today: p.today, ...hooks }) : 0;
  const m = await storeMeasurement(pool, methodVersion());
  log?.info({ measurement: m.id, rejudged, datasets: m.datasets.length }, 'measurement stored');
  return { ...m, rejudged };
}

export async function startMeasurementWorkers(boss: PgBoss, pool: Pool, log?: Log): Promise<void> {
  const options = { retryLimit: 2, retryDelay: 300, expireInSeconds: 4 * 3600 };
  if (!(await boss.getQueue(MEASUREMENT_QUEUE))) await boss.createQueue(MEASUREMENT_QUEUE, { ...options, policy: 'stately' });
  else await boss.updateQueue(MEASUREMENT_QUEUE, options);
  // schedule() is an upsert: every worker process may make it; pg-boss sends each night's job once.
  await boss.schedule(MEASUREMENT_QUEUE, MEASUREMENT_CRON, {}, { tz: 'UTC', missed: 'once' });
  await boss.work(MEASUREMENT_QUEUE, { batchSize: 1 }, async (jobs) => {
    for (const j of jobs) await runMeasurement(pool, MeasurementPayload.parse(j.data ?? {}), log);
  });
}
