import type { PgBoss } from 'pg-boss';
import type { Pool } from '../core/db/pool.ts';
import { startCheckWorkers } from './check-worker.ts';
import { startMeasurementWorkers } from './measurement.ts';
import { startReportWorkers } from './report-worker.ts';
import { startSiteWorkers } from './site-build.ts';

type Log = { info: (o: object, m: string) => void; warn: (o: object, m: string) => void };

/** Every queue's workers, as a worker process (ROLE all or worker) runs them. One line per queue. */
export async function startAllWorkers(boss: PgBoss, pool: Pool, log?: Log): Promise<void> {
  await startReportWorkers(boss, pool, log);
  await startMeasurementWorkers(boss, pool, log);
  await startCheckWorkers(boss, pool, log);
  await startSiteWorkers(boss, pool, log);
}
